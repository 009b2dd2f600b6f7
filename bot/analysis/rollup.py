"""The weekly roll-up as data, from stored analyses only: counts, notable changes, themes. Pure.

A theme is a module or area: each commit belongs to one, the first area its analysis names
(the area with most changed files for the rules analyser), so the themes' commits add up to
the week's. The heat table counts commits and changed lines per theme per digest day.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from bot.analysis.paths import area_of
from bot.models import ChangeType, DigestCommit, Importance
from bot.periods.days import DaySchedule
from bot.periods.weeks import Week

MAX_THEMES = 8
OTHER_AREA = "*"  # the themes past MAX_THEMES, together (rendered as "other areas")


@dataclass(frozen=True)
class RollupCommit:
    """A stored commit: what the digest shows, and its changed lines per path (if stored)."""

    commit: DigestCommit
    changes: Mapping[str, int] = field(default_factory=dict)

    @property
    def lines(self) -> int:
        return sum(self.changes.values())

    @property
    def area(self) -> str:
        a = self.commit.analysis
        if a is not None and a.impact:
            return a.impact[0].area
        if self.changes:
            by_area: Counter[str] = Counter()
            for path, lines in self.changes.items():
                by_area[area_of(path)] += max(lines, 1)
            return max(sorted(by_area), key=lambda k: by_area[k])
        return OTHER_AREA


@dataclass(frozen=True)
class Counts:
    """How many commits, by importance and by (primary) change type."""

    commits: int = 0
    importance: Mapping[Importance, int] = field(default_factory=dict)
    breaking: int = 0
    not_analysed: int = 0
    types: Mapping[ChangeType, int] = field(default_factory=dict)

    @classmethod
    def of(cls, commits: Iterable[DigestCommit]) -> Counts:
        importance: Counter[Importance] = Counter()
        types: Counter[ChangeType] = Counter()
        total = breaking = missing = 0
        for c in commits:
            total += 1
            if c.analysis is None:
                missing += 1
                continue
            importance[c.analysis.importance] += 1
            types[c.analysis.primary_type] += 1
            breaking += c.analysis.breaking
        return cls(total, dict(importance), breaking, missing, dict(types))

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.commits + other.commits,
            dict(Counter(self.importance) + Counter(other.importance)),
            self.breaking + other.breaking,
            self.not_analysed + other.not_analysed,
            dict(Counter(self.types) + Counter(other.types)),
        )


@dataclass(frozen=True)
class Cell:
    commits: int = 0
    lines: int = 0


@dataclass(frozen=True)
class Theme:
    area: str
    commits: tuple[DigestCommit, ...]
    days: Mapping[date, Cell]

    @property
    def lines(self) -> int:
        return sum(c.lines for c in self.days.values())


@dataclass(frozen=True)
class Rollup:
    repo: str
    week: Week
    counts: Counts
    previous: Counts | None
    notable: tuple[DigestCommit, ...]  # high or breaking, in landing order
    themes: tuple[Theme, ...]  # most commits first; OTHER_AREA last if any
    contributors: tuple[tuple[str, int], ...]  # most commits first
    per_day: Mapping[date, int]
    day_of: Mapping[str, date] = field(default_factory=dict)  # sha -> its digest day
    by_day: Mapping[date, Counts] = field(default_factory=dict)  # each day's counts
    # The week before's commits a day, in its days' order (None: not known day by day).
    previous_days: tuple[int, ...] | None = None

    @property
    def empty(self) -> bool:
        return self.counts.commits == 0


@dataclass(frozen=True)
class Narrative:
    """The LLM's few paragraphs on the week's themes, and which model wrote them."""

    text: str
    analyzer: str


def build_rollup(
    repo: str,
    week: Week,
    days: DaySchedule,
    commits: Sequence[RollupCommit],
    *,
    previous: Counts | None = None,
    previous_days: Sequence[int] | None = None,
    max_themes: int = MAX_THEMES,
) -> Rollup:
    """The roll-up of `week` from its stored commits (any outside its window are ignored).

    `days` says which digest day of the week a commit landed on; `previous` is the week
    before's counts (None: no stored week to compare with), `previous_days` its commits a day
    (`commits_a_day`).
    """
    inside = sorted(
        (c for c in commits if c.commit.landed_at in week),
        key=lambda c: (c.commit.landed_at, c.commit.sha),
    )
    day_of = {c.commit.sha: days.day_of(c.commit.landed_at) for c in inside}
    per_day = Counter(day_of.values())
    groups: dict[str, list[RollupCommit]] = {}
    for c in inside:
        groups.setdefault(c.area, []).append(c)
    ranked = sorted(
        (a for a in groups if a != OTHER_AREA),
        key=lambda a: (-len(groups[a]), -sum(c.lines for c in groups[a]), a),
    )
    shown, rest = ranked[:max_themes], ranked[max_themes:]
    other = [c for a in rest for c in groups[a]] + groups.get(OTHER_AREA, [])
    themes = [_theme(a, groups[a], day_of) for a in shown]
    if other:
        themes.append(_theme(OTHER_AREA, other, day_of))
    authors = Counter(c.commit.author for c in inside)
    notable = tuple(
        c.commit
        for c in inside
        if c.commit.analysis is not None
        and (c.commit.analysis.breaking or c.commit.analysis.importance is Importance.HIGH)
    )
    return Rollup(
        repo=repo,
        week=week,
        counts=Counts.of(c.commit for c in inside),
        previous=previous,
        notable=notable,
        themes=tuple(themes),
        contributors=tuple(sorted(authors.items(), key=lambda kv: (-kv[1], kv[0].casefold()))),
        per_day={d: per_day.get(d, 0) for d in week.days},
        day_of=day_of,
        by_day={
            d: Counts.of(c.commit for c in inside if day_of[c.commit.sha] == d) for d in week.days
        },
        previous_days=tuple(previous_days) if previous_days is not None else None,
    )


def commits_a_day(
    week: Week, days: DaySchedule, commits: Iterable[DigestCommit]
) -> tuple[int, ...]:
    """How many of `commits` landed on each digest day of `week`, in its days' order."""
    landed = Counter(days.day_of(c.landed_at) for c in commits if c.landed_at in week)
    return tuple(landed.get(d, 0) for d in week.days)


def _theme(area: str, commits: list[RollupCommit], day_of: Mapping[str, date]) -> Theme:
    cells: dict[date, Cell] = {}
    for c in commits:
        day = day_of[c.commit.sha]
        cell = cells.get(day, Cell())
        cells[day] = Cell(cell.commits + 1, cell.lines + c.lines)
    return Theme(area, tuple(c.commit for c in commits), cells)


def wanted(rollup: Rollup, *, skip_empty_days: bool) -> bool:
    """Whether the week gets a post: a quiet week follows `skip_empty_days`."""
    return not (rollup.empty and skip_empty_days)
