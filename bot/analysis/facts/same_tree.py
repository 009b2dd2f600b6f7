"""Two syntax trees compared node by node, as their `ast.dump`s would be, stopping early."""

from __future__ import annotations

import ast

from bot.analysis.facts.keywords import _reordered
from bot.analysis.facts.pyfile import code_parts

# what `getattr` gives for a field a node lacks (`ast.dump` leaves it out)
_MISSING = object()


def same_tree(a: object, b: object, *, keywords_sorted: bool = False) -> bool:
    """`ast.dump(a) == ast.dump(b)` (line numbers aside), stopping at the first difference:
    two functions edited differ early, and dumping both whole cost more than the rest of
    what asks. With `keywords_sorted`, each call's keywords are read as `keywords_sorted`
    orders them. Walked without recursion (a long `elif` chain nests past Python's limit)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        if isinstance(x, ast.AST):
            if type(x) is not type(y):
                return False
            for field in x._fields:
                one, other = getattr(x, field, _MISSING), getattr(y, field, _MISSING)
                if keywords_sorted and field == "keywords" and isinstance(x, ast.Call):
                    assert isinstance(y, ast.Call)  # of x's type
                    one, other = _reordered(x) or one, _reordered(y) or other
                stack.append((one, other))
        elif isinstance(x, list):
            if not isinstance(y, list) or len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif type(x) is not type(y) or not _same_value(x, y):
            return False
    return True


def _same_value(a: object, b: object) -> bool:
    """Two leaves of one type alike as `ast.dump` prints them (`repr`: `0.0` is not `-0.0`;
    an integer past Python's printing limit compared as it is)."""
    if isinstance(a, str | int):
        return a == b
    return repr(a) == repr(b)


def same_code(
    was: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
    now: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
) -> bool:
    """Whether two definitions' code digests (`pyfile._code_digest`) are the same: their
    decorators, heads and bodies, docstrings and a class's members aside, keywords sorted."""
    return same_tree(code_parts(was, was.body), code_parts(now, now.body), keywords_sorted=True)
