"""Two syntax trees compared node by node, as their `ast.dump`s would be, stopping early."""

from __future__ import annotations

import ast

from bot.analysis.facts.keywords import _reordered
from bot.analysis.facts.pyfile import docstring

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
    return same_tree(_parts(was), _parts(now), keywords_sorted=True)


def _parts(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[ast.AST]:
    """What `pyfile._code_digest` reads of a definition, in its order."""
    body = node.body[1:] if docstring(node) else node.body
    head: list[ast.AST]
    if isinstance(node, ast.ClassDef):
        members = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        body = [s for s in body if not isinstance(s, members)]
        head = [*node.bases, *node.keywords]
    else:
        head = [node.args, *([node.returns] if node.returns else [])]
    return [*node.decorator_list, *head, *body]
