"""Whether a Python function now sets an attribute to a closure of its own that raises, read
for the claims checker with its own parse of both sides."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from bot.cli.forward_check import function_in

_Function = ast.FunctionDef | ast.AsyncFunctionDef
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _own(node: ast.AST) -> Iterator[tuple[ast.AST, tuple[ast.If, ...]]]:
    """The nodes of a function's own code (a nested definition's name, never its body), each
    with the `if`s whose body (not `else`) holds it, outermost first."""
    todo: list[tuple[ast.AST, tuple[ast.If, ...]]] = [(n, ()) for n in ast.iter_child_nodes(node)]
    while todo:
        current, ifs = todo.pop()
        yield current, ifs
        if isinstance(current, _SCOPES):
            continue
        if isinstance(current, ast.If):
            todo += [(n, (*ifs, current)) for n in current.body]
            todo += [(n, ifs) for n in current.orelse]
            todo.append((current.test, ifs))
            continue
        todo += [(n, ifs) for n in ast.iter_child_nodes(current)]


def _raises(closure: _Function, exception: str, message: str) -> bool:
    """Whether the closure's own code raises `exception(message, …)`, as written."""
    return any(
        isinstance(n, ast.Raise)
        and isinstance(n.exc, ast.Call)
        and ast.unparse(n.exc.func) == exception
        and bool(n.exc.args)
        and isinstance(n.exc.args[0], ast.Constant)
        and n.exc.args[0].value == message
        for n, _ in _own(closure)
    )


def _sets_any(function: _Function, exception: str, message: str) -> bool:
    """Whether the function's own code sets an attribute to one of its closures that raises
    `exception` with `message`."""
    closures = {
        n.name
        for n, _ in _own(function)
        if isinstance(n, _Function) and _raises(n, exception, message)
    }
    return any(
        isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Name)
        and n.value.id in closures
        and any(isinstance(t, ast.Attribute) for t in n.targets)
        for n, _ in _own(function)
    )


def sets_raising(
    before: str,
    after: str,
    function: str,
    *,
    target: str,
    closure: str,
    raised: tuple[str, str],
    test: str | None,
    default: str | None,
) -> str:
    """Why "[When `test` (by default `default`),] `function` now sets `target` to `closure`,
    which raises `E` with “m”" is false; "" where both sides prove it: at the commit the
    function's own code assigns `closure`, a function it defines that raises `E("m")`, to
    `target`, under `if test:` where a test is said, `test` then a parameter whose default is
    `default` where one is said; at the parent no attribute was set to a closure raising
    `E("m")`."""
    exception, message = raised
    old, new = function_in(before, function), function_in(after, function)
    if old is None or new is None:
        return f"`{function}` is not defined at both revisions"
    defined = [n for n, _ in _own(new) if isinstance(n, _Function) and n.name == closure]
    if len(defined) != 1 or not _raises(defined[0], exception, message):
        return f"`{function}` defines no `{closure}` that raises `{exception}` with “{message}”"
    sets = [
        ifs
        for n, ifs in _own(new)
        if isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Name)
        and n.value.id == closure
        and any(isinstance(t, ast.Attribute) and ast.unparse(t) == target for t in n.targets)
    ]
    if not sets:
        return f"`{function}` does not set `{target}` to `{closure}` at the commit"
    if test is not None and any(not ifs or ast.unparse(ifs[-1].test) != test for ifs in sets):
        return f"`{target} = {closure}` is not under `if {test}:` at the commit"
    if default is not None:
        args = new.args
        positional = [*args.posonlyargs, *args.args]
        pairs = [
            *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
            *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d),
        ]
        if not any(a.arg == test and ast.unparse(d) == default for a, d in pairs):
            return f"`{test}` is no parameter of `{function}` whose default is `{default}`"
    if _sets_any(old, exception, message):
        return f"`{function}` already set a closure raising `{exception}` with “{message}”"
    return ""
