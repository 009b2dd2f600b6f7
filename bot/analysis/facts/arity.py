"""Functions whose every `return` hands back a tuple of one size at the parent and of
another at the commit: callers that unpack the old number of values fail."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from bot.analysis.facts.modules import own_nodes
from bot.analysis.facts.records import ArityChange
from bot.analysis.facts.scan import FileReading

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _returns(node: ast.AST) -> list[ast.Return]:
    """The `return`s of a function's own body (not of the functions or classes nested in
    it)."""
    found: list[ast.Return] = []
    todo = list(ast.iter_child_nodes(node))
    while todo:
        child = todo.pop()
        if isinstance(child, ast.Return):
            found.append(child)
        elif not isinstance(child, _FUNCTIONS):
            todo.extend(ast.iter_child_nodes(child))
    return found


def tuple_size(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
    """The size of the tuple written out at every `return` of the function (`return a, b`),
    where each is one of the same size, none starred, and the function yields nothing;
    None otherwise."""
    returns = _returns(node)
    if not returns or any(
        isinstance(n, (ast.Yield, ast.YieldFrom)) for r in (node,) for n in own_nodes(r)
    ):
        return None
    sizes = {
        len(r.value.elts)
        if isinstance(r.value, ast.Tuple)
        and not any(isinstance(e, ast.Starred) for e in r.value.elts)
        else -1
        for r in returns
    }
    if len(sizes) != 1:
        return None
    (size,) = sizes
    return size if size > 1 else None


def arities_changed(readings: Iterable[FileReading], whole: set[str]) -> list[ArityChange]:
    """The public functions and methods (no part of the name private) of the Python files
    read whole whose returns are tuples of one size at every `return` at both revisions, a
    different size at each; only those whose bodies differ (`Side.bodies`)."""
    out = []
    for r in readings:
        if r.path not in whole or not r.path.endswith(".py"):
            continue
        for name, now in r.plus.functions.items():
            was = r.minus.functions.get(name)
            if (
                was is None
                or r.minus.bodies.get(name, was) == r.plus.bodies.get(name)
                or any(part.startswith("_") for part in name.split("."))
            ):
                continue
            old, new = tuple_size(was), tuple_size(now)
            if old is not None and new is not None and old != new:
                out.append(ArityChange(name, r.path, old, new))
    return out
