"""What a Python function's code reaches by raising, which exception classes subclass which,
and what a module binds: read for the claims checker with its own parse of both sides."""

from __future__ import annotations

import ast
import builtins
import importlib
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass

_Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
# where a placeholder of an f-string stands in a message as the words write it
HOLE = "{…}"


class Unfollowed(Exception):
    """The code does something the checker does not follow: the claim is unverifiable."""


def parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _space(code: str) -> str:
    return re.sub(r"\s+", "", code)


def find(tree: ast.Module, dotted: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The module's function `f`, or the method `C.f` of a top-level class."""
    *owner, name = dotted.split(".")
    body: list[ast.stmt] = tree.body
    if owner:
        cls = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner[0]]
        if len(cls) != 1 or len(owner) > 1:
            return None
        body = cls[0].body
    found = [n for n in body if isinstance(n, _DEFS) and n.name == name]
    return found[-1] if found else None


def _own(node: ast.AST) -> Iterator[tuple[ast.AST, tuple[ast.expr, ...]]]:
    """The nodes of a function's own code (a nested definition itself, never its body), each
    with the tests of the `if`s whose body (not `else`) holds it."""
    todo: list[tuple[ast.AST, tuple[ast.expr, ...]]] = [(n, ()) for n in ast.iter_child_nodes(node)]
    while todo:
        current, tests = todo.pop()
        yield current, tests
        if isinstance(current, _SCOPES):
            continue
        if isinstance(current, ast.If):
            todo += [(n, (*tests, current.test)) for n in current.body]
            todo += [(n, tests) for n in current.orelse]
            todo.append((current.test, tests))
            continue
        todo += [(n, tests) for n in ast.iter_child_nodes(current)]


@dataclass(frozen=True)
class Raised:
    """A `raise` the function reaches: the class as written, its message as the words
    would write it (None where the first argument is no string literal), and whether it is
    reached only through code under `if test:` of the function itself."""

    exception: str
    message: str | None
    literal: bool
    gated: bool


def _message(call: ast.Call) -> tuple[str | None, bool]:
    """The first argument as words write it, `{…}` for an f-string's placeholder; and
    whether it is a literal the checker reads (no argument: the empty message)."""
    if not call.args:
        return None, True
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value, True
    if isinstance(first, ast.JoinedStr):
        parts = [
            v.value if isinstance(v, ast.Constant) else HOLE
            for v in first.values
            if isinstance(v, ast.Constant | ast.FormattedValue)
        ]
        return "".join(str(p) for p in parts), True
    return None, False


def _raise_of(node: ast.Raise) -> tuple[str, str | None, bool] | None:
    if node.exc is None:
        return None
    if isinstance(node.exc, ast.Call):
        message, literal = _message(node.exc)
        return ast.unparse(node.exc.func), message, literal
    return ast.unparse(node.exc), None, True


def reached(
    tree: ast.Module, function: str, test: str | None = None, hook: str | None = None
) -> list[Raised]:
    """The raises of `function`'s own code and of the functions it names, followed through
    the module (its top-level functions, `self.m` / `cls.m` to its class's methods, its own
    nested functions and lambdas), each marked gated where `test` is given and the raise is
    reached only from the function's code under `if test:`; with `hook`, those reached from
    what the function assigns to that hook alone (`hook_holders`), its nested functions
    still in scope."""
    start = find(tree, function)
    if start is None:
        raise Unfollowed(f"`{function}` is not defined")
    top = {n.name: n for n in tree.body if isinstance(n, _DEFS)}
    owner = function.split(".", maxsplit=1)[0] if "." in function else None
    methods: dict[str, _Function] = {}
    for n in tree.body:
        if isinstance(n, ast.ClassDef) and n.name == owner:
            methods = {m.name: m for m in n.body if isinstance(m, _DEFS)}
    enclosing = {n.name: n for n, _ in _own(start) if isinstance(n, _DEFS)}
    found: list[Raised] = []
    # (function, gated): a function reached ungated is not read again gated
    seen: dict[int, bool] = {}
    todo: list[tuple[_Function, bool]] = (
        [(start, False)]
        if hook is None
        else [(h, False) for h in hook_holders(tree, function, hook)]
    )
    while todo:
        node, gated = todo.pop()
        if id(node) in seen and (not seen[id(node)] or gated):
            continue
        seen[id(node)] = gated
        nested = {n.name: n for n, _ in _own(node) if isinstance(n, _DEFS) and n is not node}
        for child, tests in _own(node):
            under = gated or (
                node is start
                and test is not None
                and any(_space(ast.unparse(t)) == _space(test) for t in tests)
            )
            if isinstance(child, ast.Raise) and (said := _raise_of(child)):
                found.append(Raised(*said, gated=under))
            elif isinstance(child, ast.Lambda):
                todo.append((child, under))
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                callee = nested.get(child.id) or enclosing.get(child.id) or top.get(child.id)
                if callee is not None:
                    todo.append((callee, under))
            elif (
                isinstance(child, ast.Attribute)
                and isinstance(child.value, ast.Name)
                and child.value.id in ("self", "cls")
                and child.attr in methods
            ):
                todo.append((methods[child.attr], under))
    return found


def same_class(written: str, claimed: str) -> bool:
    """`expat.ExpatError` as written in the code is the claim's `expat.ExpatError` or its
    `ExpatError`; a bare name in the code is the claim's last part."""
    return written == claimed or written.rsplit(".", 1)[-1] == claimed.rsplit(".", 1)[-1]


def module_raises(tree: ast.Module, exception: str, message: str | None) -> bool:
    """Whether any `raise` in the module gives `exception` (with `message` where said)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and (said := _raise_of(node)):
            name, text, _ = said
            if same_class(name, exception) and (message is None or text == message):
                return True
    return False


def default_of(tree: ast.Module, function: str, parameter: str) -> ast.expr | None:
    """The default `function`'s `def` gives `parameter`; None where it gives none."""
    found = find(tree, function)
    if found is None:
        return None
    args = found.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d),
    ]
    return next((d for a, d in pairs if a.arg == parameter), None)


def hook_holders(tree: ast.Module, function: str, hook: str) -> list[_Function]:
    """The functions `function`'s own code assigns to `hook` (`parser.EntityDeclHandler =
    _forbid`), found among its nested functions, its lambdas and the module's functions; a
    hook assigned anything else is not followed."""
    start = find(tree, function)
    if start is None:
        raise Unfollowed(f"`{function}` is not defined")
    nested = {n.name: n for n, _ in _own(start) if isinstance(n, _DEFS)}
    top = {n.name: n for n in tree.body if isinstance(n, _DEFS)}
    holders: list[_Function] = []
    for node, _ in _own(start):
        if not isinstance(node, ast.Assign):
            continue
        if not any(_space(ast.unparse(t)) == _space(hook) for t in node.targets):
            continue
        value = node.value
        if isinstance(value, ast.Lambda):
            holders.append(value)
        elif isinstance(value, ast.Name) and (held := nested.get(value.id) or top.get(value.id)):
            holders.append(held)
        else:
            raise Unfollowed(f"`{hook}` is set to `{ast.unparse(value)}`")
    return holders


def own_raises(node: _Function) -> list[str]:
    """The classes the function's own code raises, as written."""
    return [said[0] for n, _ in _own(node) if isinstance(n, ast.Raise) and (said := _raise_of(n))]


def _imported(tree: ast.Module, name: str) -> str | None:
    """The dotted path a module-level import binds `name` to (`from xml.parsers import
    expat` binds `expat` to `xml.parsers.expat`)."""
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.asname or alias.name.split(".")[0]) == name:
                    return alias.name if alias.asname else name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    return f"{node.module}.{alias.name}"
    return None


def _binds(tree: ast.Module, name: str) -> bool:
    """Whether the module's top level binds `name` otherwise than by an import."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
    return False


def _stdlib_class(dotted: str) -> type[BaseException]:
    """An exception class of the standard library by its dotted path, imported on the
    checker's side: its own class hierarchy is Python's rule."""
    module, _, attribute = dotted.rpartition(".")
    if module.split(".")[0] not in sys.stdlib_module_names:
        raise Unfollowed(f"`{dotted}` is not of the standard library")
    try:
        found = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError):
        raise Unfollowed(f"`{dotted}` is not found in the standard library") from None
    if not (isinstance(found, type) and issubclass(found, BaseException)):
        raise Unfollowed(f"`{dotted}` is no exception class")
    return found


_Class = type[BaseException] | ast.ClassDef


def _resolve(tree: ast.Module, written: str) -> _Class:
    """What `written` names in the module: a class it defines, a builtin exception it does
    not shadow, or an exception class of the standard library it imports."""
    head, _, rest = written.partition(".")
    if not rest:
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == head]
        if len(classes) == 1:
            return classes[0]
        if _binds(tree, head) or classes:
            raise Unfollowed(f"`{head}` is bound otherwise in the module")
    imported = _imported(tree, head)
    if imported is not None:
        return _stdlib_class(f"{imported}.{rest}" if rest else imported)
    if not rest and isinstance(getattr(builtins, head, None), type):
        found = getattr(builtins, head)
        if issubclass(found, BaseException):
            return found  # type: ignore[no-any-return]
    raise Unfollowed(f"`{written}` is not followed")


def subclasses(tree: ast.Module, new: str, old: str) -> bool:
    """Whether `new` is `old` or a subclass of it, each resolved in the module: a class it
    defines by its bases, each resolved the same way; a standard-library class by Python's
    own `issubclass`."""
    target = _resolve(tree, old)
    todo: list[_Class] = [_resolve(tree, new)]
    seen: set[int] = set()
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if current is target:
            return True
        if isinstance(current, ast.ClassDef):
            if current.keywords:
                raise Unfollowed(f"`{current.name}` is given keywords")
            todo += [_resolve(tree, ast.unparse(b)) for b in current.bases]
        elif isinstance(target, type) and issubclass(current, target):
            return True
    return False


def top_names(tree: ast.Module) -> set[str] | None:
    """The names a module's top level binds (its `if`/`try` blocks included); None where it
    lets a name be found some other way (a `from m import *`, a module `__getattr__`)."""
    names: set[str] = set()
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return None
        if isinstance(node, _DEFS) and node.name == "__getattr__":
            return None
        if isinstance(node, ast.If | ast.Try | ast.With):
            for block in ("body", "orelse", "finalbody", "handlers"):
                todo += getattr(node, block, [])
            continue
        if isinstance(node, ast.ExceptHandler):
            todo += node.body
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, (*_DEFS, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names
