"""Definitions a module makes only as a fallback for a name it imports (`except ImportError`)."""

from __future__ import annotations

import ast
import re

from bot.analysis.facts.modules import module_tree

_TOP = re.compile(r"^(try:|(?:async\s+def|def|class)\s|(?:import|from)\s)", re.MULTILINE)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def fallbacks(text: str) -> frozenset[str]:
    """The top-level functions and classes of a module defined only as a fallback for a name
    an import binds: in an `except` handler of a `try` whose body imports the same name
    (`try: from socket import inet_pton` / `except ImportError: def inet_pton(…)`), or
    before a later top-level import of it, plain or tried (`def f(…)` then
    `try: from ._speedups import f`). What users get is the import where it succeeds;
    none where the text does not parse."""
    if not _worth_parsing(text):
        return frozenset()
    try:
        tree = module_tree(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    found: set[str] = set()
    body = tree.body
    for i, node in enumerate(body):
        if isinstance(node, ast.Try):
            imported = _imported(node.body)
            for handler in node.handlers:
                found.update(
                    n.name for n in handler.body if isinstance(n, _DEFS) and n.name in imported
                )
        if isinstance(node, _DEFS):
            later = set().union(*(_imported(_tried(s)) for s in body[i + 1 :]))
            if node.name in later:
                found.add(node.name)
    return frozenset(found)


def _worth_parsing(text: str) -> bool:
    """Whether a text has a top-level `try:`, or a top-level import after a top-level
    `def` or `class`: the only texts that can define a fallback."""
    defined = False
    for m in _TOP.finditer(text):
        word = m.group(1)
        if word == "try:" or (defined and word.startswith(("import", "from"))):
            return True
        defined = defined or not word.startswith(("import", "from"))
    return False


def _tried(node: ast.stmt) -> list[ast.stmt]:
    """A top-level statement, or a `try`'s body: what runs when nothing fails."""
    return node.body if isinstance(node, ast.Try) else [node]


def _imported(statements: list[ast.stmt]) -> set[str]:
    """The names the imports among `statements` bind (`from m import f as g`: `g`)."""
    return {
        (alias.asname or alias.name).split(".", 1)[0]
        for s in statements
        if isinstance(s, ast.Import | ast.ImportFrom)
        for alias in s.names
    }
