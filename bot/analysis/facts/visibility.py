"""Names a language keeps private by its own rule, marked so: never a break for callers."""

from __future__ import annotations

import dataclasses

from bot.analysis.facts.records import DefaultChange, Facts, Name, Renamed
from bot.analysis.facts.scan import FileReading, Side


def mark_private(facts: Facts, readings: list[FileReading]) -> Facts:
    """`facts` with each name a whole file's table holds as private (Rust without `pub`, Go
    lower-case, JavaScript/TypeScript not exported) marked `private`, read at the side it
    was found on (a name made `pub` is public at the commit), and the changed defaults of
    private functions, methods and fields left out."""
    plus = {r.path: r.plus for r in readings if r.plus.private}
    minus = {r.path: r.minus for r in readings if r.minus.private}
    if not plus and not minus:
        return facts

    def mark(name: Name, sides: dict[str, Side]) -> Name:
        side = sides.get(name.path)
        if side is None or name.name not in side.private or name.private:
            return name
        return dataclasses.replace(name, private=True)

    def pair(renamed: Renamed) -> Renamed:
        return Renamed(mark(renamed.old, minus), mark(renamed.new, plus))

    def shown(change: DefaultChange) -> bool:
        side = plus.get(change.path)
        return side is None or change.name.split("(", 1)[0] not in side.private

    return dataclasses.replace(
        facts,
        added=tuple(mark(n, plus) for n in facts.added),
        removed=tuple(mark(n, minus) for n in facts.removed),
        changed=tuple(mark(n, plus) for n in facts.changed),
        renamed=tuple(pair(r) for r in facts.renamed),
        moved=tuple(pair(r) for r in facts.moved),
        defaults_changed=tuple(c for c in facts.defaults_changed if shown(c)),
    )
