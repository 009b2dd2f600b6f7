"""Definitions that only follow a rename: a function whose code differs from the parent's
only by the new name of a module-level definition the same commit renamed (`_foo()` now
`_bar()`, read directly, through `from .m import _bar` or as `m._bar`) is no edit of it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.analysis.facts.pyfile import code_of
from bot.analysis.facts.records import Name, NameKind, Renamed
from bot.analysis.facts.reexports import _absolute, _module_of
from bot.analysis.facts.renamed import Follows, binds, code_size, following, node_count
from bot.analysis.facts.scan import FileReading, Side

# a word of code, read as a name where it is one
_WORD = re.compile(r"\b[A-Za-z_]\w*\b")


@dataclass
class FileFollows:
    """What a changed file's code read at the parent of the definitions the commit renamed,
    and reads them as at the commit (`follows_of`), each with the rename it follows."""

    names: dict[str, str] = field(default_factory=dict)
    attrs: dict[tuple[str, str], str] = field(default_factory=dict)
    origin: dict[str | tuple[str, str], Renamed] = field(default_factory=dict)

    @property
    def follows(self) -> Follows:
        return self.names, self.attrs


def follows_of(pairs: Iterable[Renamed], readings: list[FileReading]) -> dict[str, FileFollows]:
    """Per changed Python file, the names its code read at the parent of the module-level
    definitions the commit renamed (`pairs`: renamed, or moved under another name) and
    what it reads them as at the commit: the definition's own file reads the new name
    (imported from the module it moved to, or defined where an import stood); a file that
    imported the old name from its module imports the new one from the new
    module (`from .m import _foo` → `from .m import _bar`), or reads it off the same module
    bound under the same name at both (`m._foo` → `m._bar`). A name the other revision
    binds at the module's level is none (`_foo` still defined or imported: no rename)."""
    tops = [
        (p.old, p.new)
        for p in pairs
        if p.old.name != p.new.name
        and _top(p.old)
        and _top(p.new)
        and p.old.path.endswith(".py")
        and p.new.path.endswith(".py")
    ]
    out: dict[str, FileFollows] = {}
    if not tops:
        return out
    for r in readings:
        if not r.path.endswith(".py") or not (r.minus.functions or r.minus.classes):
            continue
        found = FileFollows()
        for pair in tops:
            old, new = pair
            renamed = Renamed(old, new)
            was_module, now_module = _module_of(old.path), _module_of(new.path)
            names: dict[str, str] = {}
            # defined here at one revision, imported from the other module at the other
            was_here = [old.name] if old.path == r.path else []
            now_here = [new.name] if new.path == r.path else []
            for bound in was_here or _imported(r.minus, r.path, was_module, old.name):
                into = now_here or _imported(r.plus, r.path, now_module, new.name)
                if len(into) == 1:
                    names[bound] = into[0]
            for k, v in names.items():
                if k != v and not _bound(r.plus, k) and not _bound(r.minus, v):
                    found.names[k] = v
                    found.origin[k] = renamed
            if old.path == new.path and was_module:
                reads = _modules(r.minus, r.path, was_module) & _modules(r.plus, r.path, was_module)
                for m in reads:
                    found.attrs[m, old.name] = new.name
                    found.origin[m, old.name] = renamed
        if found.names or found.attrs:
            out[r.path] = found
    return out


def only_follows(reading: FileReading, old: str, new: str, follows: FileFollows) -> list[Renamed]:
    """The renames the parent's definition `old` follows where it is the commit's `new` once
    the names it reads of renamed definitions are read by their new names (`follows_of`),
    its locals renamed throughout aside (as `_same_code` reads it); none where it is not.
    In place, named back after."""
    was, now = _node(reading.minus, old), _node(reading.plus, new)
    plus = reading.plus.code.get(new)
    if was is None or now is None or plus is None:
        return []
    if isinstance(was, ast.ClassDef) is not isinstance(now, ast.ClassDef):
        return []
    if binds(now, {*follows.names.values(), *(m for m, _ in follows.attrs)}):
        return []
    with following(was, follows.follows) as read:
        same = bool(read) and (
            code_of(was) == plus()
            or (
                not isinstance(was, ast.ClassDef)
                and node_count(was) == node_count(now)
                and code_of(was, renamed=True) == plus(renamed=True)
            )
        )
    return list(dict.fromkeys(follows.origin[k] for k in read)) if same else []


def follows_names(was: str, now: str, follows: FileFollows | None) -> bool:
    """Whether code written `was` at the parent (an annotation: `Optional['_Foo']`) is `now`
    with only the names of definitions the commit renamed read by their new names."""
    if follows is None or not follows.names:
        return False
    return was != now and _WORD.sub(lambda m: follows.names.get(m[0], m[0]), was) == now


def follows_value(was: str, now: str, follows: FileFollows | None) -> bool:
    """Whether a value written `was` at the parent (a parameter's default) is `now` only as
    the name of a definition the commit renamed (`_foo` → `_bar`, `m._foo` → `m._bar`)."""
    if follows is None:
        return False
    if follows.names.get(was) == now:
        return True
    module, _, attr = was.partition(".")
    return bool(attr) and now == f"{module}.{follows.attrs.get((module, attr))}"


def renamed_following(
    added: list[Name], removed: list[Name], readings: list[FileReading], known: list[Renamed]
) -> list[Renamed]:
    """Module-level definitions out of a file under one name and into it under another
    whose code differs only by following the renames `known` and those found so far (a
    helper `_key_typed` calling `_key`, both renamed: `key_typed` calling `key`): renamed,
    where one definition of the commit's matches alone."""
    found: list[Renamed] = []
    follows = follows_of(known, readings)
    if not follows:
        # no rename to follow (most commits): nothing read
        return found
    at = {r.path: r for r in readings}
    # a rename changes no node count: only definitions of the same size are compared (a
    # refactor that moves many is compared pair by pair)
    sizes: dict[Name, int] = {}
    for names, sign in ((removed, "-"), (added, "+")):
        for n in names:
            node = _node(at[n.path].side(sign), n.name) if _top(n) and n.path in at else None
            if node is not None:
                sizes[n] = code_size(node)
    outs = [n for n in removed if n in sizes]
    ins = [n for n in added if n in sizes]
    while outs and ins and follows:
        fresh: list[Renamed] = []
        for path, follow in follows.items():
            for out in [n for n in outs if n.path == path]:
                into = [
                    n
                    for n in ins
                    if n.path == path
                    and sizes[n] == sizes[out]
                    and (n.kind is out.kind or NameKind.CLASS not in (n.kind, out.kind))
                    and only_follows(at[path], out.name, n.name, follow)
                ]
                if len(into) == 1:
                    fresh.append(Renamed(out, into[0]))
                    outs.remove(out)
                    ins.remove(into[0])
        if not fresh:
            break
        found += fresh
        follows = follows_of([*known, *found], readings)
    return found


def _top(n: Name) -> bool:
    return "." not in n.name and "::" not in n.name


def _node(side: Side, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | None:
    """The definition `name` where the side defines it once."""
    if name in side.redefined:
        return None
    return side.functions.get(name) or side.classes.get(name)


def _imported(side: Side, path: str, module: str | None, name: str) -> list[str]:
    """The names the side's imports bind to `module`'s `name` (`from .m import name as b`)."""
    return [
        bound
        for bound, source in side.imports.items()
        if source
        and module
        and side.aliases.get(bound, bound) == name
        and _absolute(source, path) == module
    ]


def _modules(side: Side, path: str, module: str) -> set[str]:
    """The names the side's imports bind to `module` itself (`import pkg.m as m`, `from pkg
    import m`)."""
    out = {bound for bound, imported in side.modules.items() if imported == module}
    for bound, source in side.imports.items():
        if source:
            base = _absolute(source, path)
            within = f"{base}.{side.aliases.get(bound, bound)}" if base else ""
            if within == module:
                out.add(bound)
    return out


def _bound(side: Side, name: str) -> bool:
    return name in side.defs or name in side.imports or name in side.assigned
