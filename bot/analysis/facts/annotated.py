"""Classes with bases whose own annotations nothing reads at run time: each base followed."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from bot.analysis.facts.layout import QuietClass
from bot.analysis.facts.pyfile import PARSE_ERRORS
from bot.analysis.facts.raised_names import Table, class_name, identity, table_of_tree
from bot.models import FileChange

# Classes followed at most, the class itself among them
_CLASSES = 8
# Bases of the standard library that read no subclass's annotations (`Protocol`, whose
# annotations are its members, `NamedTuple`, `TypedDict`, `Enum` are not among them)
_STANDARD = frozenset({("abc", "ABC"), ("typing", "Generic"), ("typing_extensions", "Generic")})
_METACLASSES = frozenset({("abc", "ABCMeta")})
# What reads a class's annotations, written in a module of the chain: a hook each subclass
# runs, an introspection of the annotations
_READS = re.compile(
    r"__init_subclass__|__annotations__|__annotate__|get_type_hints|get_annotations"
)
# Calls that read no annotation of the class handed to them
_BLIND_CALLS = frozenset({"isinstance", "issubclass", "super"})


def quiet_classes(files: Iterable[FileChange], modules: Iterable[tuple[str, str]]) -> QuietClass:
    """A test of a class of a changed Python file, at the parent (0) or at the commit (1):
    whether its annotations are only text to Python, though it has bases: it and every class
    it derives from (each base followed into the files read, the changed ones and
    `CommitInput.modules`) has no decorator and no metaclass but `ABCMeta`, is handed to no
    call (`dataclass(C)`), and lies in a module that reads no annotations
    (`__init_subclass__`, `get_type_hints`, …); a base is a class of those files, a builtin
    class, `ABC` or `Generic`. A `NamedTuple`, a `TypedDict`, a `Protocol`, an `Enum`, a
    pydantic model, a SQLAlchemy declarative class or a `msgspec.Struct` is none of these:
    their bases lie in no file read."""
    texts: dict[str, tuple[str, str]] = {
        f.filename: f.sides for f in files if f.filename.endswith(".py") and f.sides is not None
    }
    for path, text in modules:
        texts.setdefault(path, (text, text))
    parsed: dict[tuple[str, int], tuple[ast.Module, Table] | None] = {}

    def module(path: str, side: int) -> tuple[ast.Module, Table] | None:
        if (path, side) not in parsed:
            text = texts[path][side] if path in texts else ""
            try:
                tree = ast.parse(text) if text and not _READS.search(text) else None
            except PARSE_ERRORS:
                tree = None
            parsed[path, side] = (tree, table_of_tree(tree)) if tree is not None else None
        return parsed[path, side]

    def quiet(path: str, side: int, node: ast.ClassDef) -> bool:
        def lookup(at: str) -> Table | None:
            found = module(at, side)
            return found[1] if found is not None else None

        todo = [(path, node)]
        seen: set[tuple[str, str]] = set()
        while todo:
            at, cls = todo.pop()
            if (at, cls.name) in seen:
                continue
            seen.add((at, cls.name))
            found = module(at, side)
            if found is None or len(seen) > _CLASSES:
                return False
            tree, table = found
            if cls.decorator_list or not _plain_keywords(cls, tree) or _handed(tree, cls.name):
                return False
            for base in cls.bases:
                written = base.value if isinstance(base, ast.Subscript) else base
                if _standard(written, tree, _STANDARD):
                    continue
                origin = identity(class_name(written), at, table, lookup)
                if origin is None:
                    return False
                if origin[0] == "builtins":
                    continue
                where = module(origin[0], side)
                inner = _class(where[0], origin[1]) if where is not None else None
                if inner is None:
                    return False
                todo.append((origin[0], inner))
        return True

    return quiet


def _plain_keywords(node: ast.ClassDef, tree: ast.Module) -> bool:
    return all(
        k.arg == "metaclass" and _standard(k.value, tree, _METACLASSES) for k in node.keywords
    )


def _standard(expr: ast.expr, tree: ast.Module, wanted: frozenset[tuple[str, str]]) -> bool:
    """Whether `expr` names one of `wanted` ((module, name)) by the module's top-level
    imports (`ABC` from `from abc import ABC`, `t.Generic` from `import typing as t`)."""
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and not node.level and isinstance(expr, ast.Name):
            if any(
                (a.asname or a.name) == expr.id and (node.module, a.name) in wanted
                for a in node.names
            ):
                return True
        elif (
            isinstance(node, ast.Import)
            and isinstance(expr, ast.Attribute)
            and isinstance(expr.value, ast.Name)
            and any(
                (a.asname or a.name) == expr.value.id and (a.name, expr.attr) in wanted
                for a in node.names
            )
        ):
            return True
    return False


def _handed(tree: ast.Module, name: str) -> bool:
    """Whether the module hands the class to a call that may read it (`dataclass(C)`)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id in _BLIND_CALLS:
            continue
        values = [*node.args, *(k.value for k in node.keywords)]
        if any(isinstance(v, ast.Name) and v.id == name for v in values):
            return True
    return False


def _class(tree: ast.Module, name: str) -> ast.ClassDef | None:
    found = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    return found[0] if len(found) == 1 else None
