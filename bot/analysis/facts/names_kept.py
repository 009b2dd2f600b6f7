"""Whether a change keeps every public name its shipped Python modules bound: what a title's
breaking mark is weighed against when nothing else shows a break."""

from __future__ import annotations

import ast

from bot.analysis.facts.dunders import METADATA
from bot.analysis.paths import Language, language_of, ships
from bot.models import CommitInput


def _public(tree: ast.Module) -> set[str]:
    """The public names a module's top level binds (definitions, assignments, imports
    aside), the public methods of its public classes, and its metadata dunders."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            names.update(
                f"{node.name}.{m.name}"
                for m in node.body
                if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)
                and (not m.name.startswith("_") or m.name == "__init__")
            )
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return {
        n for n in names if n in METADATA or not any(part.startswith("_") for part in n.split("."))
    }


def _bound(tree: ast.Module) -> tuple[set[str], bool]:
    """Every name the module binds anywhere at its top (an `if`'s and a `try`'s branches
    too), with its classes' members; whether names may come from elsewhere (`import *`, a
    module `__getattr__`)."""
    names: set[str] = set()
    lazy = False
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            lazy |= node.name == "__getattr__" and node in tree.body
            if isinstance(node, ast.ClassDef):
                names.update(
                    f"{node.name}.{m.name}"
                    for m in node.body
                    if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)
                )
                names.update(
                    f"{node.name}.{t.id}"
                    for m in node.body
                    if isinstance(m, ast.Assign)
                    for t in m.targets
                    if isinstance(t, ast.Name)
                )
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                lazy |= alias.name == "*"
                names.add((alias.asname or alias.name).split(".")[0])
    return names, lazy


def public_names_kept(commit: CommitInput, modules: set[str]) -> bool:
    """Whether every shipped Python module the change edits or deletes (not a top-level
    module outside the `py_modules` the packaging declares, `modules`) is
    known whole at both revisions and still binds each public name it bound at the parent:
    definitions, assignments, public methods of public classes, metadata dunders; and that
    it changes no shipped code of another language. False where it changes no such module."""
    read = False
    for f in commit.files:
        path = f.filename
        language = language_of(path)
        if language is not None and language is not Language.PYTHON and ships(path):
            # (code of another language: what it keeps is not read here)
            return False
        if not path.endswith(".py") or f.status == "added" or not ships(path):
            continue
        if "/" not in path and modules and path.removesuffix(".py") not in modules:
            # a top-level module the declared `py_modules` leave out is not installed
            continue
        sides = f.sides
        if sides is None:
            return False
        try:
            before = ast.parse(sides[0])
            after = ast.parse(sides[1]) if sides[1] else ast.Module(body=[], type_ignores=[])
        except (SyntaxError, ValueError, RecursionError):
            return False
        bound, lazy = _bound(after)
        if not lazy and _public(before) - bound:
            return False
        read = True
    return read
