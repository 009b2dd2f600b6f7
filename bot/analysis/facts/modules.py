"""A module's text parsed once for every reader of its whole tree; its nodes walked quickly."""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeGuard

from cachetools import LRUCache

# A commit's text of a file is its next commit's parent text, and each side is read whole by
# several readers (its units, the names `__all__` lists, the commands, the forwarded options):
# a commit's files and the next one's parents must fit. On this repository's 90-commit day
# (577 texts, 779 parses with 32 kept) 128 kept parse 88 texts again, not 202, for 50 MiB more.
_KEPT_TEXTS = 128
_TREES: ContextVar[LRUCache[str, ast.Module | BaseException] | None] = ContextVar(
    "module_trees", default=None
)


@contextmanager
def trees_kept() -> Iterator[None]:
    """Within the block, a text is parsed once (outside it, every time): a context variable,
    so each period's analysis, and each round of a benchmark, starts empty."""
    token = _TREES.set(LRUCache(maxsize=_KEPT_TEXTS))
    try:
        yield
    finally:
        _TREES.reset(token)


def module_tree(text: str) -> ast.Module:
    """`ast.parse(text)`, once a text within `trees_kept`: raises what it raised. The tree
    is shared, so it is only read; a reader that changes a tree (a `NodeTransformer`)
    parses its own."""
    held = _TREES.get()
    found = None if held is None else held.get(text)
    if found is None:
        try:
            found = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            found = error
        if held is not None:
            held[text] = found
    if isinstance(found, BaseException):
        raise found.with_traceback(None)
    return found


def children(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)` in a list, its fields read inline (a quarter faster)."""
    out: list[ast.AST] = []
    for name in node._fields:
        try:
            value = getattr(node, name)
        except AttributeError:
            continue
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out += [item for item in value if isinstance(item, ast.AST)]
    return out


def breadth(nodes: Sequence[ast.AST]) -> list[ast.AST]:
    """Every node under `nodes`, themselves in, breadth first as `ast.walk` goes (one queue
    for them all), in a list: a third faster than the walk. `children`'s reading inline (a
    call a node cost more than its fields); the list grows as it is read."""
    queue: list[ast.AST] = list(nodes)
    append = queue.append
    for node in queue:
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                append(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        append(item)
    return queue


# What opens a scope of its own: a function, a class, a lambda
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes under `node`, leaving out each function, class or lambda in it and all it holds."""
    stack = children(node)
    while stack:
        child = stack.pop()
        if isinstance(child, _SCOPES):
            continue
        yield child
        # (`children`'s reading inline: a day's edited functions hold many nodes)
        for name in child._fields:
            value = getattr(child, name, None)
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack += [v for v in value if isinstance(v, ast.AST)]


# A statement's fields that hold statements (an `except` clause's or a `case`'s body through
# them), in the order of its `_fields`: no expression holds a statement.
_BLOCKS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


def statements(node: ast.AST) -> Iterator[ast.AST]:
    """The statements `ast.walk(node)` gives, in its order, and the `except` clauses and
    `case`s between them, read without a look at any expression: what a reader of
    definitions, imports or assignments needs. A node's statements are queued before it is
    given, as `ast.walk` queues its children (a reader may replace its body)."""
    queue = deque([node])
    while queue:
        node = queue.popleft()
        for name in node._fields:
            if name in _BLOCKS:
                held = getattr(node, name, None)
                if isinstance(held, list):
                    queue.extend(held)
        yield node


def binds_all(node: ast.AST) -> TypeGuard[ast.Assign | ast.AugAssign | ast.AnnAssign]:
    """Whether the statement assigns the module's `__all__` (`__all__ = …`, `__all__: list[str]
    = …`) or adds to it (`__all__ += …`): each reader of the names a module lists asks this,
    and keeps to the kinds it reads (an `isinstance` before it)."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        targets = [node.target]
    else:
        return False
    return any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)


def listed_strings(value: ast.expr | None, *, whole: bool = False) -> set[str] | None:
    """The strings a list or tuple literal holds (the names `__all__ = [...]` lists), an
    entry that is no string skipped, or with `whole` the literal read as None; None where
    `value` is no list or tuple literal (a computed `__all__`, an annotation with no value)."""
    if not isinstance(value, ast.List | ast.Tuple):
        return None
    found: set[str] = set()
    for e in value.elts:
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            found.add(e.value)
        elif whole:
            return None
    return found
