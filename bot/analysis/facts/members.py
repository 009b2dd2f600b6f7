"""Public methods a change takes out of a class's own body where nothing gives the class them
back: no base (each followed into the files read), no attribute of the same name."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterable, Mapping

from bot.analysis.facts.pyfile import dotted
from bot.analysis.facts.raised_names import Lookup, class_name, identity
from bot.analysis.facts.reached import kept_names, read_bare
from bot.analysis.facts.records import MemberGone, Name, NameKind
from bot.analysis.facts.scan import FileReading, Side

# Bases that give a class no public member of their own (as written, `Generic[T]` by its
# `Generic`)
_PLAIN_BASES = frozenset(
    {"object", "Generic", "typing.Generic", "Protocol", "typing.Protocol", "ABC", "abc.ABC"}
    | {"typing_extensions.Protocol", "t.Generic", "t.Protocol"}
)
# Decorators that add a class no public member (a dataclass's are dunders), and the one
# metaclass keyword that does not either; any other may
_PLAIN_DECORATORS = frozenset(
    {"dataclass", "dataclasses.dataclass", "final", "typing.final", "total_ordering"}
    | {"functools.total_ordering", "runtime_checkable", "typing.runtime_checkable"}
)
_PLAIN_METACLASSES = frozenset({"ABCMeta", "abc.ABCMeta"})
# What hands a class's instances any attribute asked for
_ANY_ATTRIBUTE = ("__getattr__", "__getattribute__")


def members_gone(
    removed: Iterable[Name],
    readings: Iterable[FileReading],
    lookup: Lookup,
    renamed: Mapping[Name, str] | None = None,
) -> tuple[MemberGone, ...]:
    """The public, non-dunder methods and properties of `removed` (`C.m`, of a top-level
    public-named class its module's `__all__`, where it has one, lists) whose file was read
    whole, where the class is at both revisions with the same bases written, and nothing at
    the commit gives it `m`: not a base (each one plain, a
    builtin class without `m`, or a class of a file read whole at the commit without `m`,
    followed up), not a decorator or a metaclass of another kind, not a `__getattr__`, not an
    attribute its methods or its module set (`self.m = …`, `C.m = …`, `setattr`). `renamed`:
    the name the class now gives those of `removed` the change renamed in it."""
    files = {r.path: r for r in readings if r.path.endswith(".py") and all(r.texts)}
    sides = {path: r.plus for path, r in files.items()}
    out: list[MemberGone] = []
    for n in removed:
        cls, _, member = n.name.partition(".")
        reading = files.get(n.path)
        if (
            reading is None
            or n.kind is not NameKind.METHOD
            or "." in member
            or member.startswith("_")
            or cls.startswith("_")
        ):
            continue
        now, was = reading.plus.classes.get(cls), reading.minus.classes.get(cls)
        if now is None or was is None or _head(now) != _head(was):
            continue
        if cls in reading.plus.redefined | reading.minus.redefined:
            continue
        # PEP 8: a module that lists its public names (`__all__`) and leaves the class out
        # keeps it to itself
        if reading.plus.listed and cls not in reading.plus.exports:
            continue
        if _given(member, n.path, cls, sides, lookup) or _set_elsewhere(n.path, cls, member, files):
            continue
        node = reading.minus.functions.get(n.name)
        attribute = node is not None and read_bare(node)
        out.append(MemberGone(n.path, cls, member, attribute, (renamed or {}).get(n)))
    return tuple(out)


def _head(node: ast.ClassDef) -> str:
    """A class's bases and keywords as written."""
    return ast.dump(ast.Tuple(elts=[*node.bases, *(k.value for k in node.keywords)]))


def _given(member: str, path: str, cls: str, sides: dict[str, Side], lookup: Lookup) -> bool:
    """Whether the class at the commit may have `member` other than from its own body's
    `def`: anything not followed counts."""
    todo = [(path, cls)]
    seen: set[tuple[str, str]] = set()
    while todo:
        at, name = todo.pop()
        if (at, name) in seen:
            continue
        seen.add((at, name))
        side = sides.get(at)
        table = lookup(at)
        node = side.classes.get(name) if side is not None else None
        if side is None or table is None or node is None or not _plain_head(node):
            return True
        if (at, name) != (path, cls) and _has(side, name, member):
            return True
        if any(f"{name}.{x}" in side.defs for x in _ANY_ATTRIBUTE):
            return True
        if member in kept_names(side, name):
            return True
        for base in node.bases:
            written = class_name(base.value if isinstance(base, ast.Subscript) else base)
            if written in _PLAIN_BASES:
                continue
            found = identity(class_name(base), at, table, lookup)
            if found is None:
                return True
            if found[0] == "builtins":
                if hasattr(getattr(builtins, found[1]), member):
                    return True
                continue
            todo.append(found)
    return False


def _plain_head(node: ast.ClassDef) -> bool:
    decorators = {dotted(d) for d in node.decorator_list}
    metaclasses = {dotted(k.value) if k.arg == "metaclass" else "" for k in node.keywords}
    return decorators <= _PLAIN_DECORATORS and metaclasses <= _PLAIN_METACLASSES


def _has(side: Side, cls: str, member: str) -> bool:
    qualified = f"{cls}.{member}"
    return qualified in side.defs or qualified in side.assigned


def _set_elsewhere(path: str, cls: str, member: str, files: dict[str, FileReading]) -> bool:
    """Whether a file read whole sets the member on the class at the commit (`C.m = …`), or
    the class's own module sets attributes by name (`setattr(…)`)."""
    assigned = re.compile(rf"\b{re.escape(cls)}\s*\.\s*{re.escape(member)}\s*(?::[^=\n]*)?=(?!=)")
    return "setattr(" in files[path].texts[1] or any(
        assigned.search(r.texts[1]) for r in files.values()
    )
