"""Module metadata (`__version__`, `__author__`, …) a shipped Python module stops binding:
code that reads `module.__version__` now fails with `AttributeError`."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from collections.abc import Iterable

from bot.analysis.facts.scan import FileReading
from bot.models import CommitInput

# the metadata names modules conventionally bind for their users (PEP 8's "module level
# dunders", and those packaging tools and `setup.py`s read)
METADATA = frozenset(
    {
        "__version__",
        "__version_info__",
        "__author__",
        "__author_email__",
        "__email__",
        "__license__",
        "__copyright__",
        "__maintainer__",
        "__credits__",
        "__status__",
        "__title__",
        "__url__",
        "__uri__",
        "__description__",
        "__summary__",
    }
)
_PACKAGING = ("setup.py", "setup.cfg", "pyproject.toml")


def _bound(text: str) -> tuple[set[str], bool] | None:
    """The names a module's top level binds in any way (an assignment, an import, a
    definition, under an `if` or a `try` too), and whether any name may come from elsewhere
    (`from m import *`, a module `__getattr__`); None where it does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    names: set[str] = set()
    lazy = False
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    lazy = True
                names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            lazy |= node.name == "__getattr__"
        elif isinstance(node, ast.If | ast.Try | ast.With):
            for block in ("body", "orelse", "finalbody", "handlers"):
                for inner in getattr(node, block, []):
                    todo += inner.body if isinstance(inner, ast.ExceptHandler) else [inner]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            # `globals().update(…)`, `globals()["x"] = …` bind names no parse reads
            lazy |= "globals" in ast.unparse(node.value)
    return names, lazy


def declared_modules(commit: CommitInput) -> set[str]:
    """The single top-level modules (`xmltodict` for `xmltodict.py`) the packaging files the
    commit changes at the repository's root declare at either revision: `setup.py`'s
    `py_modules`, `setup.cfg`'s `[options] py_modules`, `pyproject.toml`'s
    `[tool.setuptools] py-modules`."""
    found: set[str] = set()
    for f in commit.files:
        if f.filename not in _PACKAGING or f.sides is None:
            continue
        for text in f.sides:
            if text:
                found |= _py_modules(f.filename, text)
    return found


def _py_modules(path: str, text: str) -> set[str]:
    if path == "pyproject.toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return set()
        tool = data.get("tool")
        setuptools = tool.get("setuptools") if isinstance(tool, dict) else None
        listed = setuptools.get("py-modules") if isinstance(setuptools, dict) else None
        return {m for m in listed if isinstance(m, str)} if isinstance(listed, list) else set()
    if path == "setup.cfg":
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text)
        except configparser.Error:
            return set()
        return {
            m for m in re.split(r"[\s,]+", parser.get("options", "py_modules", fallback="")) if m
        }
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return set()
    return {
        e.value
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword)
        and node.arg == "py_modules"
        and isinstance(node.value, ast.List | ast.Tuple)
        for e in node.value.elts
        if isinstance(e, ast.Constant) and isinstance(e.value, str)
    }


def metadata_gone(
    readings: Iterable[FileReading], whole: set[str], modules: set[str]
) -> list[tuple[str, str]]:
    """(path, name): the metadata dunders (`METADATA`) a Python module read whole bound at
    the parent and binds in no way at the commit (no assignment, import or definition, no
    `from m import *` nor module `__getattr__` that may still provide it): of a package's
    `__init__.py`, or of a top-level module the packaging declares (`modules`)."""
    out: list[tuple[str, str]] = []
    for r in readings:
        if r.path not in whole or not r.path.endswith(".py"):
            continue
        folder, _, file = r.path.rpartition("/")
        single = not folder and file.removesuffix(".py") in modules
        if not single and file != "__init__.py":
            continue
        was, now = _bound(r.texts[0]), _bound(r.texts[1])
        if was is None or now is None or now[1]:
            continue
        out += [(r.path, n) for n in sorted((was[0] & METADATA) - now[0])]
    return out
