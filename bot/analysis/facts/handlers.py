"""Closures a function now hands out as callbacks (`parser.X = _forbid`) that raise."""

from __future__ import annotations

import ast

from bot.analysis.facts.records import HandedRaise
from bot.analysis.facts.same_tree import same_tree

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# a callback's message quoted as written when this short
_SAID_MESSAGE = 80
# an `if` test said as written when this short
_SAID_TEST = 60


def handed_raises(
    name: str, path: str, before: ast.AST | None, after: ast.AST | None
) -> list[HandedRaise]:
    """The closures the function `after` defines whose own code has one `raise E("…")` and
    that it sets as attributes (`parser.EntityDeclHandler = _forbid_entities`): what runs on
    the object's calls now raises, where at the parent (`before`) no closure set as an
    attribute raised that exception with that message (xmltodict c986d2d: `parse` now sets
    expat's DOCTYPE and entity handlers to a closure that raises `ExpatError`). Each with
    the test of the one `if` all its assignments sit under, where there is one."""
    if not isinstance(after, _DEFS) or not isinstance(before, _DEFS):
        return []
    # (one node at both revisions, or two alike, hand out the same closures)
    if same_tree(before, after):
        return []
    had = {(h.exception, h.message) for h in _handed(name, path, before)}
    return [h for h in _handed(name, path, after) if (h.exception, h.message) not in had]


def _handed(
    name: str, path: str, node: ast.FunctionDef | ast.AsyncFunctionDef
) -> list[HandedRaise]:
    raising: dict[str, tuple[str, str]] = {}
    assigned: dict[str, list[tuple[str, str | None]]] = {}
    for statement, tests in _own(node.body, ()):
        if isinstance(statement, _DEFS):
            raised = _one_raise(statement)
            if raised is not None:
                raising[statement.name] = raised
        elif (
            isinstance(statement, ast.Assign)
            and isinstance(statement.value, ast.Name)
            and all(isinstance(t, ast.Attribute) for t in statement.targets)
        ):
            test = tests[-1] if tests else None
            for target in statement.targets:
                assigned.setdefault(statement.value.id, []).append((ast.unparse(target), test))
    out: list[HandedRaise] = []
    for closure, (exception, message) in raising.items():
        sets = assigned.get(closure, [])
        if not sets:
            continue
        under = {t for _, t in sets}
        test = under.pop() if len(under) == 1 else None
        if test is not None and (len(test) > _SAID_TEST or "`" in test or "\n" in test):
            test = None
        targets = tuple(dict.fromkeys(t for t, _ in sets))
        default = _defaults(node).get(test) if test is not None else None
        out.append(HandedRaise(name, path, closure, targets, exception, message, test, default))
    return out


def _defaults(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
    """The function's parameters with a constant default, as written (`disable_entities`:
    `True`): a test of one alone holds by default where its default is true."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None),
    ]
    return {
        a.arg: ast.unparse(d) for a, d in pairs if isinstance(d, ast.Constant) and bool(d.value)
    }


def _own(body: list[ast.stmt], tests: tuple[str, ...]) -> list[tuple[ast.stmt, tuple[str, ...]]]:
    """The statements of a function's own code (a nested definition itself, not its body),
    each with the tests of the `if`s it sits in the body of (an `else` branch: none said)."""
    out: list[tuple[ast.stmt, tuple[str, ...]]] = []
    for statement in body:
        out.append((statement, tests))
        if isinstance(statement, ast.If):
            out += _own(statement.body, (*tests, ast.unparse(statement.test)))
            out += _own(statement.orelse, (*tests, "\n"))
        elif isinstance(statement, ast.For | ast.AsyncFor | ast.While | ast.With | ast.AsyncWith):
            out += _own(statement.body, (*tests, "\n"))
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                out += _own(block, (*tests, "\n"))
    return out


def _one_raise(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, str] | None:
    """The exception and message of the closure's one `raise E("…")` of its own code, where
    it has no other `raise`."""
    raises = [
        n
        for n in ast.walk(node)
        if isinstance(n, ast.Raise) and not any(n in ast.walk(d) for d in _inner_defs(node))
    ]
    if len(raises) != 1:
        return None
    exc = raises[0].exc
    if not isinstance(exc, ast.Call) or not exc.args:
        return None
    first = exc.args[0]
    if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
        return None
    message = first.value
    if not message or len(message) > _SAID_MESSAGE or any(c in message for c in '`"“”\\\n'):
        return None
    kind = ast.unparse(exc.func)
    if not kind.rsplit(".", 1)[-1][:1].isupper():
        return None
    return kind, message


def _inner_defs(node: ast.AST) -> list[ast.AST]:
    return [n for n in ast.walk(node) if n is not node and isinstance(n, (*_DEFS, ast.Lambda))]
