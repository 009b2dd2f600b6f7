"""Calls read with their keyword arguments in one order: Python binds a keyword by its name."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from bot.analysis.facts.modules import breadth

_Node = TypeVar("_Node", bound=ast.AST)

# Values whose evaluation runs no code: moved among a call's keywords they change nothing,
# where calls (`f(a=g(), b=h())`) would run in another order, and so may attributes (a
# property's getter)
_INERT = (ast.Constant, ast.Name, ast.Lambda)
_INERT_CONTAINERS = (ast.Tuple, ast.List, ast.Set)


@contextmanager
def keywords_sorted(node: _Node) -> Iterator[_Node]:
    """`node`, while the block runs, with its calls passing their keywords by name in the
    order of their names (`f(b=2, a=1)` read as `f(a=1, b=2)`): positional arguments keep
    their places, and a `**mapping` stays where it is (the keywords are sorted between two
    of them, the order in which the mapping's and the named values bind), as does a run of
    keywords where more than one value runs code when evaluated. Reordered in place and put
    back after (copying every edited function's tree cost a day's digest a tenth of its
    time); the tree is shared, so nothing else may read it meanwhile."""
    moved: list[tuple[ast.Call, list[ast.keyword]]] = []
    try:
        for call in _calls(node):
            ordered = _reordered(call)
            if ordered is not None:
                moved.append((call, call.keywords))
                call.keywords = ordered
        yield node
    finally:
        for call, written in moved:
            call.keywords = written


def _calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in breadth([node]) if isinstance(n, ast.Call) and len(n.keywords) > 1]


def _reordered(call: ast.Call) -> list[ast.keyword] | None:
    """The call's keywords in their sorted order; None where that is the order written."""
    out: list[ast.keyword] = []
    run: list[ast.keyword] = []
    for keyword in [*call.keywords, None]:
        if keyword is not None and keyword.arg is not None:
            run.append(keyword)
            continue
        if sum(not _inert(k.value) for k in run) > 1:
            out += run
        else:
            out += sorted(run, key=lambda k: k.arg or "")
        run = []
        if keyword is not None:
            out.append(keyword)
    return None if out == call.keywords else out


def _inert(value: ast.expr) -> bool:
    if isinstance(value, _INERT):
        return True
    if isinstance(value, ast.UnaryOp):
        return _inert(value.operand)
    if isinstance(value, _INERT_CONTAINERS):
        return all(_inert(e) for e in value.elts)
    return False
