"""The modules a package's own code imports names from: where callers import them too."""

from __future__ import annotations

import ast

from bot.analysis.facts.modules import module_tree, statements
from bot.analysis.facts.scan import FileReading

_SOURCE_ROOTS = ("src", "lib", "python")


def dotted(path: str) -> str:
    """The module a Python file is imported as: `pkg.sub.mod` for `src/pkg/sub/mod.py`."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if len(parts) > 1 and parts[0] in _SOURCE_ROOTS:
        parts = parts[1:]
    return ".".join(parts)


def imported_from(readings: list[FileReading]) -> tuple[str, ...]:
    """The modules (dotted) that the changed Python files outside tests, read whole, import
    names from at the parent (`from .helpers import LINK_LABEL` in `pkg/plugins/table.py`:
    `pkg.helpers`), a file's imports from itself left out. A module other modules of its
    package import from is one of its interfaces, not one module's insides."""
    found: set[str] = set()
    for r in readings:
        text = r.texts[0]
        name = r.path.rsplit("/", 1)[-1]
        # (a test imports whatever it tests: no sign of an interface)
        tests = name.startswith("test_") or any(
            part in ("tests", "test", "testing") for part in r.path.split("/")[:-1]
        )
        if not r.path.endswith(".py") or not text or tests:
            continue
        try:
            # (the parent's shared parse, only read: its units read it)
            tree = module_tree(text)
        except (SyntaxError, ValueError):
            continue
        own = dotted(r.path)
        package = own.split(".") if r.path.endswith("/__init__.py") else own.split(".")[:-1]
        # (an import is a statement: the statements alone, not every expression's node)
        for node in statements(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                if node.level - 1 > len(package):
                    continue
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            if module and module != own:
                found.add(module)
    return tuple(sorted(found))
