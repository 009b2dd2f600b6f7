"""Names a module's `__all__` lists that the module binds nowhere: no export of it."""

from __future__ import annotations

import ast
import re

from bot.analysis.facts.modules import children, module_tree, statements
from bot.analysis.facts.pyfile import PARSE_ERRORS
from bot.analysis.facts.scan import Side

# what may bind a module's names where no statement of its own does
_DYNAMIC = re.compile(r"\bglobals\(\)|\bvars\(\)|\bsys\.modules\b|\b__dict__\b|\bsetattr\(")
# scopes whose names are their own, not the module's (a `global` statement aside)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def unbound(side: Side, text: str) -> set[str]:
    """The names a module's `__all__` lists (`side.exports` of a file read whole, `text`)
    that no statement of the module binds: Python's `from m import name` of one fails, and
    so does `from m import *` (cachetools a4f3125's `'cachedmethod' 'LFUCache'`, one string
    `cachedmethodLFUCache`). None where the module may bind names out of sight: a module
    `__getattr__`, a star import, `globals()` and the like."""
    if not side.listed or side.lazy or not text or _DYNAMIC.search(text):
        return set()
    candidates = side.exports - side.imports.keys() - side.assigned - side.defs.keys()
    if not candidates:
        return set()
    try:
        tree = module_tree(text)
    except PARSE_ERRORS:
        return set()
    return candidates - _bound(tree)


def _bound(tree: ast.Module) -> set[str]:
    """Every name the module's own scope binds: targets, imports, definitions, loop and
    `with` and `except` names, walruses, match captures, and a `global` anywhere."""
    out: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global):
            out.update(node.names)
        if isinstance(node, _SCOPES):
            if not isinstance(node, ast.Lambda):
                out.add(node.name)
            # a nested scope binds the module's names only through `global`
            # (a `global` is a statement: read through the scope's statements alone)
            out.update(n for g in statements(node) if isinstance(g, ast.Global) for n in g.names)
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            out.add(node.id)
        elif isinstance(node, ast.alias):
            out.add(node.asname or node.name.split(".", 1)[0])
        elif (isinstance(node, ast.ExceptHandler) and node.name) or (
            isinstance(node, ast.MatchAs | ast.MatchStar) and node.name
        ):
            out.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            out.add(node.rest)
        stack += children(node)
    return out
