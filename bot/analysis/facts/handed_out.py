"""What a public package's `__init__.py` hands out from its private modules (`from ._impl
import connect`): those names are the package's API wherever they are defined, so a
parameter one of them loses breaks callers as a public module's would."""

from __future__ import annotations

import ast

from bot.analysis.facts.modules import binds_all, listed_strings, module_tree
from bot.analysis.paths import module_paths, private_module

# a name a package hands out from every public name of a module (`from ._impl import *`)
EVERY = "*"


def handed_out(init_path: str, text: str) -> set[tuple[str, str]]:
    """(module path, name as defined there) for each name `init_path`'s top-level imports
    take from a module of the same tree, `EVERY` for a star import; where the file assigns
    `__all__` a literal list, only what it lists (PEP 8: the rest is a detail), else each
    name bound public. None of it where the file does not parse, nor where the package is
    private itself (`pkg/_internal/__init__.py`: what it hands out is the package's insides)."""
    if private_module(init_path):
        return set()
    try:
        tree = module_tree(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    listed: set[str] | None = None
    taken: list[tuple[str, str, str]] = []  # (module path, defined name, bound name)
    for node in _top_level(tree.body):
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            paths = module_paths(init_path, module)
            for alias in node.names:
                for path in paths:
                    taken.append((path, alias.name, alias.asname or alias.name))
        elif (
            isinstance(node, ast.Assign)
            and binds_all(node)
            and (strings := listed_strings(node.value)) is not None
        ):
            listed = strings
    # without `__all__`, a name bound private (`import connect as _connect`) is the
    # package's own use, not handed out
    return {
        (path, name)
        for path, name, bound in taken
        if name == EVERY or (bound in listed if listed is not None else not bound.startswith("_"))
    }


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a module's top level, those under `try` and `if` too (an optional
    import is handed out where it succeeds)."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.Try | ast.If):
            out += _top_level([*node.body, *node.orelse])
        else:
            out.append(node)
    return out
