"""Public constants of modules and classes read whole at both revisions, compared."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace

from bot.analysis.facts.records import (
    Constant,
    ConstantRenamed,
    DefaultChange,
    NameKind,
    TableChange,
)
from bot.analysis.facts.scan import FileReading, Side

# Values too common to say that one constant became another (`DEBUG = False` out and
# `VERBOSE = False` in are two settings, not a rename) unless they are the only pair.
_COMMON = frozenset({"True", "False", "None", "0", "1", "-1", "''", '""', "()", "[]", "{}"})


@dataclass
class ConstantFacts:
    added: list[Constant] = field(default_factory=list)
    removed: list[Constant] = field(default_factory=list)
    renamed: list[ConstantRenamed] = field(default_factory=list)
    changed: list[DefaultChange] = field(default_factory=list)
    tables: list[TableChange] = field(default_factory=list)
    # new module-level tables with string keys, in files there at both revisions
    tables_added: list[TableChange] = field(default_factory=list)


def compare_constants(readings: list[FileReading], compared: set[str]) -> ConstantFacts:
    """The constants of the files in `compared` (read whole, present at both revisions)
    gained, lost, renamed and changed. A constant of a class is said only where the class
    is there at both revisions; one lost is removed only when no changed file still binds
    its name at the commit (defined, assigned, imported, or lazily by a module
    `__getattr__`), and one gained is new only when no changed file had it at the parent."""
    out = ConstantFacts()
    # module-level names each side of the change binds, in any changed file
    bound_after = {
        n
        for r in readings
        for n in (*r.plus.constants, *r.plus.assigned, *r.plus.imports, *r.plus.defs)
        if "." not in n
    }
    constants_before = {n for r in readings for n in r.minus.constants if "." not in n}
    # class attributes the changed files' classes bind at the commit, by the class's last
    # name, and each class's bases: an attribute a base still binds is inherited, not gone
    members = {
        (owner.rsplit(".", 1)[-1], short)
        for r in readings
        for n in (*r.plus.assigned, *r.plus.constants)
        for owner, _, short in [n.rpartition(".")]
        if owner
    }
    bases = {c.rsplit(".", 1)[-1]: b for r in readings for c, b in r.plus.bases.items()}
    for r in readings:
        if r.path not in compared:
            continue
        out.tables += _tables(r)
        out.tables_added += _tables_added(r)
        plus, minus = r.plus.constants, r.minus.constants
        if not plus and not minus:
            continue

        def scoped(name: str, r: FileReading = r) -> bool:
            owner = name.rpartition(".")[0]
            return not owner or all(
                (d := side.defs.get(owner)) is not None and d[0] is NameKind.CLASS
                for side in (r.plus, r.minus)
            )

        gained = [
            n
            for n in plus
            if n not in minus
            and n not in r.minus.assigned
            and n not in r.minus.defs
            and scoped(n)
            and ("." in n or n not in constants_before)
        ]
        lost = [
            n
            for n in minus
            if n not in plus
            and n not in r.plus.assigned
            and n not in r.plus.defs
            and n not in r.plus.imports
            and scoped(n)
            and ("." in n or (n not in bound_after and not r.plus.lazy))
            and not _on_instances(n, r)
            and not _inherited(n, bases, members)
        ]
        renamed = _pairs(lost, gained, minus, plus)
        paired = {o for o, _ in renamed} | {n for _, n in renamed}
        out.renamed += [ConstantRenamed(o, n, r.path, minus[o]) for o, n in renamed]
        out.added += [Constant(n, r.path, plus[n]) for n in gained if n not in paired]
        # PEP 8's constants (module-level capitals) bound to what is worked out (`RE_X =
        # "[{0}]".format(RS_X)`, `A = B + C`): new names too, their values never shown
        out.added += [
            Constant(n, r.path, "#")
            for n in sorted(r.plus.assigned - r.minus.assigned - r.plus.typevars)
            if _capitals(n)
            and n not in plus
            and n not in r.minus.defs
            and n not in constants_before
            and n not in paired
        ]
        out.removed += [Constant(n, r.path, minus[n]) for n in lost if n not in paired]
        # ...and those bound to what is worked out (`LINK_TITLE_RE = re.compile(…)`), that
        # no changed file binds at the commit: gone as a literal one is, the value not shown
        out.removed += [
            Constant(n, r.path, "#")
            for n in sorted(r.minus.assigned - r.plus.assigned - r.minus.typevars)
            if _capitals(n)
            and n not in minus
            and n not in r.plus.defs
            and n not in r.plus.imports
            and n not in bound_after
            and not r.plus.lazy
            and n not in paired
        ]
        out.changed += [
            DefaultChange(n, minus[n], now, r.path)
            for n, now in plus.items()
            # a dataclass's or model's field default is said as a default already
            if n in minus and minus[n] != now and n not in r.plus.fields and scoped(n)
        ]
    return out


def _capitals(name: str) -> bool:
    """A module-level name written as PEP 8 writes a constant: capitals, digits, `_`."""
    return "." not in name and not name.startswith("_") and name.isupper()


def _tables(r: FileReading) -> list[TableChange]:
    """The tables of a file bound once at both revisions, each time to a table of the same
    kind (a class's, where the class is there at both), whose strings differ."""
    out = []
    for name, now in r.plus.tables.items():
        was = r.minus.tables.get(name)
        if now is None or was is None or now[0] != was[0] or now[1] == was[1]:
            continue
        owner = name.rpartition(".")[0]
        if owner and not all(
            (d := side.defs.get(owner)) is not None and d[0] is NameKind.CLASS
            for side in (r.plus, r.minus)
        ):
            continue
        old = set(was[1])
        new = set(now[1])
        gained = tuple(s for s in now[1] if s not in old)
        lost = tuple(s for s in was[1] if s not in new)
        if gained or lost:
            out.append(TableChange(name, r.path, now[0], gained, lost))
    return _moved(r, out)


def _tables_added(r: FileReading) -> list[TableChange]:
    """The public module-level dicts with string keys a file binds anew, bound nothing at the
    parent: their keys, all gained (`KEYWORDS_SNOWFLAKE = {'ACCOUNT': …}`)."""
    before = {*r.minus.tables, *r.minus.constants, *r.minus.assigned, *r.minus.defs}
    before |= set(r.minus.imports)
    return [
        TableChange(name, r.path, now[0], now[1], ())
        for name, now in r.plus.tables.items()
        if now is not None
        and now[0] == "keys"
        and "." not in name
        and not name.startswith("_")
        and name not in before
    ]


def _moved(r: FileReading, changes: list[TableChange]) -> list[TableChange]:
    """`changes` with each dict's lost keys that one other dict of the file gains (a new one,
    or one that `changes` has gaining it) named with that dict: moved, not gone."""
    if not any(t.kind == "keys" and t.lost for t in changes):
        return changes
    gaining: dict[str, list[str]] = {}
    for t in changes:
        if t.kind == "keys":
            for key in t.gained:
                gaining.setdefault(key, []).append(t.name)
    for name, now in r.plus.tables.items():
        if now is not None and now[0] == "keys" and name not in r.minus.tables:
            for key in now[1]:
                gaining.setdefault(key, []).append(name)
    return [
        replace(t, moved=tuple((k, gaining[k][0]) for k in t.lost if len(gaining.get(k, ())) == 1))
        if t.kind == "keys" and t.lost
        else t
        for t in changes
    ]


def _inherited(name: str, bases: dict[str, tuple[str, ...]], members: set[tuple[str, str]]) -> bool:
    """Whether a class attribute is bound at the commit by a base of its class (or a base's
    base, by their last names) that a changed file defines."""
    owner, _, short = name.rpartition(".")
    todo = list(bases.get(owner.rsplit(".", 1)[-1], ())) if owner else []
    seen: set[str] = set()
    while todo:
        base = todo.pop()
        if (base, short) in members:
            return True
        if base not in seen:
            seen.add(base)
            todo.extend(bases.get(base, ()))
    return False


def _on_instances(name: str, r: FileReading) -> bool:
    """Whether the class's `__init__` at the commit assigns the attribute on `self`: its
    instances still have it (a class attribute that became a parameter)."""
    owner, _, short = name.rpartition(".")
    init = r.plus.functions.get(f"{owner}.__init__") if owner else None
    if init is None:
        return False
    return any(
        isinstance(node, ast.Attribute)
        and node.attr == short
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and isinstance(node.ctx, ast.Store)
        for node in ast.walk(init)
    )


def _pairs(
    lost: list[str], gained: list[str], minus: dict[str, str], plus: dict[str, str]
) -> list[tuple[str, str]]:
    """(old, new): a constant lost and one gained in the same scope with the same value, the
    lost one the only one of its scope with that value; of several gained, the first."""
    pairs: list[tuple[str, str]] = []
    taken: set[str] = set()
    for old in lost:
        scope = old.rpartition(".")[0]
        value = minus[old]
        same_out = [n for n in lost if n.rpartition(".")[0] == scope and minus[n] == value]
        into = [
            n
            for n in gained
            if n not in taken and n.rpartition(".")[0] == scope and plus[n] == value
        ]
        if len(same_out) != 1 or not into:
            continue
        only_pair = len(into) == 1 and len([n for n in lost if n.rpartition(".")[0] == scope]) == 1
        if value in _COMMON and not only_pair:
            continue
        taken.add(into[0])
        pairs.append((old, into[0]))
    return pairs


def default_value(side: Side, param: str, written: str) -> str:
    """A parameter's default `written` as a name (`name=DEFAULT_TABLE`) read as the literal
    Python evaluates it to where the `def` stands: the constant the method's own class body
    binds (`TinyDB.DEFAULT_TABLE = '_default'`), else the module's once-bound literal; any
    other default as written."""
    if not written.isidentifier():
        return written
    owner = param.split("(", 1)[0].rpartition(".")[0]
    if owner and f"{owner}.{written}" in side.constants:
        return side.constants[f"{owner}.{written}"]
    literal = side.literals.get(written)
    return ast.unparse(literal) if isinstance(literal, ast.Constant) else written
