"""The public functions of a module a private one's raises reach: its callers, followed."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def public_callers(
    functions: Mapping[str, ast.AST], classes: Mapping[str, ast.ClassDef], name: str
) -> tuple[str, ...]:
    """The public functions and methods of one module (`functions`, `classes`: by qualified
    name) that call the private `name` outside any `try` (so what it raises reaches their
    callers), directly or through other private ones: a method by `self.`/`cls.` from its
    own class's methods (a property's setter too), a module function by its name from any.
    A dunder method of a public class (`__init__`) is public: a user's call runs it."""
    defined = [*functions.items()] + [
        (f"{owner}.{node.name}", node)
        for owner, cls in classes.items()
        for node in cls.body
        if isinstance(node, _DEFS)
    ]
    found: set[str] = set()
    todo, seen = [name], {name}
    while todo:
        callee = todo.pop()
        for caller, node in defined:
            if caller in seen or not isinstance(node, _DEFS) or not _calls(caller, node, callee):
                continue
            seen.add(caller)
            if _public(caller):
                found.add(caller)
            else:
                todo.append(caller)
    return tuple(sorted(found))


def _public(name: str) -> bool:
    *owners, last = name.split(".")
    dunder = last.startswith("__") and last.endswith("__")
    return all(not o.startswith("_") for o in owners) and (dunder or not last.startswith("_"))


def _calls(caller: str, node: ast.FunctionDef | ast.AsyncFunctionDef, callee: str) -> bool:
    """Whether `caller`'s own code calls `callee` outside a `try`: a method its class's
    `self._x(…)`, any function a module function `_x(…)`."""
    owner, _, last = callee.rpartition(".")
    if owner and caller.rpartition(".")[0] != owner:
        return False
    for call in _untried(node.body):
        func = call.func
        if (
            owner
            and isinstance(func, ast.Attribute)
            and func.attr == last
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
        ):
            return True
        if not owner and isinstance(func, ast.Name) and func.id == last:
            return True
    return False


def _untried(body: list[ast.stmt]) -> Iterator[ast.Call]:
    """The calls of a body outside any `try` that handles exceptions and any nested
    definition (another function's code)."""
    for statement in body:
        yield from _calls_in(statement)


def _calls_in(node: ast.AST) -> Iterator[ast.Call]:
    if isinstance(node, ast.Try) and node.handlers:
        for part in (node.orelse, node.finalbody, *(h.body for h in node.handlers)):
            for statement in part:
                yield from _calls_in(statement)
        return
    if isinstance(node, (*_DEFS, ast.ClassDef, ast.Lambda)):
        return
    if isinstance(node, ast.Call):
        yield node
    for child in ast.iter_child_nodes(node):
        yield from _calls_in(child)
