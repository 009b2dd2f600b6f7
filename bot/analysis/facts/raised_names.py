"""Which class a name stands for (an exception raised or caught, a class's base): a
module-level `class`, a name bound to another (`InvalidHash = InvalidHashError`), an import
(`from .exceptions import InvalidHashError as Invalid`) followed into the module the tree has
(a changed file read whole, or one read for it: `CommitInput.modules`), or a builtin class the
module does not shadow. Two names of one class are no new exception for callers where a
function raises one in place of the other; names not followed to their classes prove nothing
either way."""

from __future__ import annotations

import ast
import builtins
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from bot.analysis.facts.pyfile import OS_ERROR_NAMES, dotted
from bot.analysis.facts.records import Raised
from bot.analysis.facts.scan import FileReading, Side
from bot.analysis.paths import module_paths

# imports and names bound to names followed at most this deep
_DEPTH = 4

Identity = tuple[str, str]  # (the defining module's path, the class's name there)


@dataclass(frozen=True)
class _Table:
    """A module's top-level bindings, as far as a class's name goes."""

    classes: frozenset[str]
    bound: Mapping[str, str]
    imports: Mapping[str, str]
    aliases: Mapping[str, str]
    # every other name bound at the top (a function, a variable): a builtin shadowed
    others: frozenset[str]
    # `from m import *`, a module `__getattr__`: any name may come from elsewhere
    lazy: bool
    # class -> its bases as written (`errors.Base`; '' for one that is no name: `Generic[T]`)
    bases: Mapping[str, tuple[str, ...]]


def table_of(side: Side) -> _Table:
    """A side's top-level bindings, as far as a class's name goes."""
    classes = frozenset(n for n in side.classes if "." not in n)
    others = frozenset(n for n in (*side.defs, *side.assigned) if "." not in n) - classes
    bases = {n: _bases(side.classes[n]) for n in classes}
    return _Table(classes, side.bound, side.imports, side.aliases, others, side.lazy, bases)


def _bases(node: ast.ClassDef) -> tuple[str, ...]:
    return tuple(class_name(b) for b in node.bases)


def class_name(node: ast.expr) -> str:
    """The name a class is written by (`Bad`, `errors.Bad`); '' for another expression
    (`Generic[T]`, `make_base()`)."""
    return dotted(node) if isinstance(node, ast.Name | ast.Attribute) else ""


def _of_text(text: str) -> _Table | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return table_of_tree(tree)


def table_of_tree(tree: ast.Module) -> _Table:
    """A module's top-level bindings, as far as a class's name goes: only its own top-level
    statements; a name bound under `if` or `try` (which one holds depends on the run) is
    none of them."""
    classes: set[str] = set()
    bases: dict[str, tuple[str, ...]] = {}
    bound: dict[str, str] = {}
    imports: dict[str, str] = {}
    aliases: dict[str, str] = {}
    others: set[str] = set()
    lazy = False
    seen: set[str] = set()

    def bind(name: str) -> bool:
        again = name in seen
        seen.add(name)
        return not again

    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            (classes if bind(node.name) else others).add(node.name)
            bases[node.name] = _bases(node)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                name = alias.asname or alias.name
                lazy = lazy or name == "*"
                if bind(name):
                    imports[name] = module
                    aliases[name] = alias.name
                else:
                    others.add(name)
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Name)
            and bind(node.targets[0].id)
        ):
            bound[node.targets[0].id] = node.value.id
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            others.add(node.name)
            lazy = lazy or node.name == "__getattr__"
        else:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    others.add(sub.id)
                elif isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    others.add(sub.name)
                    lazy = lazy or sub.name == "__getattr__"
                elif isinstance(sub, ast.alias):
                    others.add(sub.asname or sub.name.split(".", 1)[0])
    classes -= others
    for name in others:
        bound.pop(name, None)
        imports.pop(name, None)
    return _Table(
        frozenset(classes),
        bound,
        imports,
        aliases,
        frozenset(others),
        lazy,
        {n: b for n, b in bases.items() if n in classes},
    )


def identity(
    name: str, path: str, table: _Table, lookup: Callable[[str], _Table | None], depth: int = 0
) -> Identity | None:
    """The class `name` stands for in the module at `path`; None where not proven. A builtin
    is named by its class's own name (`IOError` and `EnvironmentError` are `OSError`), as
    are the standard library's names of `OSError` (`socket.error`) where the module is
    imported."""
    if depth > _DEPTH:
        return None
    head, _, attribute = name.partition(".")
    if name in OS_ERROR_NAMES and head in table.others and head not in table.imports:
        return ("builtins", OSError.__name__)
    if attribute:
        return None
    held = [name in table.classes, bool(table.bound.get(name)), name in table.imports]
    if sum(held) > 1:
        return None
    if name in table.classes:
        return (path, name)
    if table.bound.get(name):
        return identity(table.bound[name], path, table, lookup, depth + 1)
    if name in table.imports:
        for candidate in module_paths(path, table.imports[name]):
            found = lookup(candidate)
            if found is not None:
                original = table.aliases.get(name, name)
                return identity(original, candidate, found, lookup, depth + 1)
        return None
    if table.lazy or name in table.others or name in table.bound:
        return None
    # (a builtin class: an exception's, or a base of a class's: `dict`)
    found = getattr(builtins, name, None)
    if isinstance(found, type):
        return ("builtins", found.__name__)
    return None


Lookup = Callable[[str], _Table | None]
# (a module's bindings, for a caller that keeps them)
Table = _Table


def lookups(
    readings: Iterable[FileReading], modules: Iterable[tuple[str, str]]
) -> tuple[Lookup, Lookup]:
    """The top-level bindings of a module of the tree by its path, at the commit and at the
    parent: a changed file read whole, or one read for the commit (the same at both)."""
    files = {r.path: r for r in readings if r.texts != ("", "")}
    texts = dict(modules)
    parsed: dict[str, _Table | None] = {}

    def lookup_at(after: bool) -> Lookup:
        def lookup(path: str) -> _Table | None:
            reading = files.get(path)
            if reading is not None:
                text = reading.texts[1 if after else 0]
                return table_of(reading.plus if after else reading.minus) if text else None
            if path not in parsed:
                found = texts.get(path)
                parsed[path] = _of_text(found) if found is not None else None
            return parsed[path]

        return lookup

    return lookup_at(True), lookup_at(False)


def ancestry(name: str, path: str, table: _Table, lookup: Lookup) -> tuple[set[Identity], bool]:
    """The classes `name` in the module at `path` stands for and derives from, itself
    included (a builtin's by Python's own), and whether each is followed: False where a name
    on the way is not (a base of another package's, `Generic[T]`, one bound twice)."""
    start = identity(name, path, table, lookup)
    if start is None:
        return set(), False
    found: set[Identity] = set()
    complete = True
    todo = [start]
    while todo:
        at, cls = todo.pop()
        if (at, cls) in found:
            continue
        found.add((at, cls))
        if at == "builtins":
            found.update(("builtins", c.__name__) for c in getattr(builtins, cls).__mro__)
            continue
        where = lookup(at)
        if where is None or len(found) > 4 * _DEPTH:
            complete = False
            continue
        for base in where.bases.get(cls, ()):
            # (a class without bases is `object`'s: nothing else catches it)
            base_id = identity(base, at, where, lookup) if base else None
            if base_id is None:
                complete = False
            else:
                todo.append(base_id)
    return found, complete


def proven_raises(
    raised: Iterable[Raised], readings: Iterable[FileReading], modules: Iterable[tuple[str, str]]
) -> list[Raised]:
    """`raised` where what a function now raises is another class than what it no longer
    raises: a pair of names of one class is taken out of both (a function left raising
    nothing new is left out), and "raises `E` instead of `F`" (one each) stays only where
    both names are followed to different classes."""
    files = {r.path: r for r in readings if r.texts != ("", "")}
    after, before = lookups(readings, modules)
    out: list[Raised] = []
    for r in raised:
        if not r.gone:
            out.append(r)
            continue
        reading = files.get(r.path)
        if reading is None:  # not read whole: nothing is followed, nothing said
            continue
        now_table, was_table = table_of(reading.plus), table_of(reading.minus)
        now = {e: identity(e, r.path, now_table, after) for e in r.exceptions}
        was = {g: identity(g, r.path, was_table, before) for g in r.gone}
        # the old name where a caller finds it at the commit too: a class renamed that keeps
        # its old name as an alias (`InvalidHash = InvalidHashError`) is still caught by it
        ids = {
            g: {i, _at_commit(g, r.path, now_table, was_table, after)} - {None}
            for g, i in was.items()
        }
        found = set(now.values()) - {None}
        same = {e for e, i in now.items() if i is not None and any(i in o for o in ids.values())}
        kept = tuple(e for e in r.exceptions if e not in same)
        gone = tuple(g for g in r.gone if not ids[g] & found)
        if not kept:
            continue
        if len(kept) == 1 and len(gone) == 1 and (now[kept[0]] is None or was[gone[0]] is None):
            # "instead of" unproven: one class under two names reads as a new exception
            continue
        message = r.message if kept == r.exceptions else None
        out.append(dataclasses.replace(r, exceptions=kept, gone=gone, message=message))
    return out


def _at_commit(
    name: str,
    path: str,
    now: _Table,
    was: _Table,
    lookup: Callable[[str], _Table | None],
) -> Identity | None:
    """The class a name the module at `path` raised at the parent stands for at the commit:
    bound there still, or else in the module it was imported from, read at the commit."""
    if name in now.classes or name in now.bound or name in now.imports:
        return identity(name, path, now, lookup)
    if name in was.imports:
        for candidate in module_paths(path, was.imports[name]):
            found = lookup(candidate)
            if found is not None:
                return identity(was.aliases.get(name, name), candidate, found, lookup)
    return None
