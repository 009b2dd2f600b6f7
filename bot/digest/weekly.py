"""The weekly roll-up as one Markdown post, within GitHub's body limit. Pure.

It holds the week's counts against the week before, the high and breaking changes one line
each, the themes with a heat table (commits and changed lines per area per day), the
contributors and links to each day's digest; with an LLM configured, a short narrative
written from the stored analyses opens it. Commit and LLM text goes through
`bot.digest.safety`, as in the daily digest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from bot.analysis.rollup import OTHER_AREA, Counts, Narrative, Rollup
from bot.analysis.spans import code
from bot.digest.chart import week_chart
from bot.digest.markers import week_marker
from bot.digest.markup import code_cell, link
from bot.digest.render import BODY_LIMIT
from bot.digest.safety import inline
from bot.digest.strings import catalogue
from bot.digest.strings.shape import WeeklyPhrases, plural
from bot.models import ChangeType, Importance
from bot.periods.weeks import Week

_ICON = {Importance.HIGH: "🔴", Importance.MEDIUM: "🟡", Importance.LOW: "🟢"}
# Tried in turn until the post fits: how many notable lines and contributors are listed.
_CAPS = ((100, 100), (40, 60), (10, 30), (0, 10))


@dataclass(frozen=True)
class WeeklyPost:
    key: str
    title: str
    body: str


def weekly_title(repo: str, week: Week, language: str) -> str:
    p = catalogue(language).weekly
    return p.title.format(repo=repo, first=week.first.isoformat(), last=week.last.isoformat())


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("−" + str(-value) if value < 0 else "0")


class _Weekly:
    def __init__(
        self,
        rollup: Rollup,
        language: str,
        timezone: str,
        *,
        offline: bool,
        ahead_from: date | None = None,
    ) -> None:
        self.r = rollup
        self.offline = offline
        self.ahead_from = ahead_from
        self.p: WeeklyPhrases = catalogue(language).weekly
        self.s = catalogue(language).digest
        self.zone = ZoneInfo(timezone)
        self.timezone = timezone

    def day_label(self, day: date) -> str:
        return f"{self.p.weekdays[day.weekday()]} {day.strftime('%m-%d')}"

    def summary(self) -> str:
        c = self.r.counts
        return self.p.summary.format(
            commits=plural(self.s.commit_count, c.commits),
            high=c.importance.get(Importance.HIGH, 0),
            breaking=c.breaking,
            contributors=plural(self.s.contributors, len(self.r.contributors)),
        )

    def chart(self) -> str:
        labels = [self.day_label(d) for d in self.r.week.days]
        return f"{week_chart(self.r, self.p, labels)}\n\n*{self.p.chart_legend}*"

    def counts(self) -> str:
        p, s = self.p, self.s
        now, before = self.r.counts, self.r.previous
        rows = [f"| {' | '.join(p.counts_columns)} |", "|---|---:|---:|---:|"]

        def row(label: str, value: int, old: int | None) -> None:
            if old is None:
                rows.append(f"| {label} | {value} | {p.no_previous} | {p.no_previous} |")
            else:
                rows.append(f"| {label} | {value} | {old} | {_signed(value - old)} |")

        prev = before or Counts()
        known = before is not None
        row(p.commits_row, now.commits, prev.commits if known else None)
        for importance in Importance:
            label = f"{_ICON[importance]} {s.importance_names[importance]}"
            old = prev.importance.get(importance, 0)
            row(label, now.importance.get(importance, 0), old if known else None)
        row(p.breaking_row, now.breaking, prev.breaking if known else None)
        if now.not_analysed or prev.not_analysed:
            row(p.not_analysed_row, now.not_analysed, prev.not_analysed if known else None)
        for kind in ChangeType:
            value, old = now.types.get(kind, 0), prev.types.get(kind, 0)
            if value or old:
                row(s.change_types[kind], value, old if known else None)
        return "\n".join(rows)

    def notable(self, cap: int) -> str:
        p, s = self.p, self.s
        commits = self.r.notable
        lines = [f"### {p.notable.format(count=len(commits))}", ""]
        if not commits:
            return "\n".join([*lines, p.notable_none])
        for c in commits[:cap]:
            a = c.analysis
            assert a is not None
            marks = [_ICON[a.importance]] + ([s.breaking] if a.breaking else [])
            # The digest day that lists it, which is not its local date past a cutoff.
            day = self.day_label(
                self.r.day_of.get(c.sha) or c.landed_at.astimezone(self.zone).date()
            )
            lines.append(
                f"- {' '.join(marks)} {link(inline(c.title), c.url)} · {code(c.sha[:7])} · {day}"
            )
        if len(commits) > cap:
            lines.append(p.notable_more.format(count=len(commits) - cap))
        return "\n".join(lines)

    def themes(self) -> str:
        p = self.p
        days = self.r.week.days
        peak = max((c.commits for t in self.r.themes for c in t.days.values()), default=0)
        head = [p.themes_columns[0], *(self.day_label(d) for d in days), p.themes_columns[1]]
        rows = [f"| {' | '.join(head)} |", "|---|" + "---:|" * (len(days) + 1)]
        for theme in self.r.themes:
            name = p.other_areas if theme.area == OTHER_AREA else code_cell(theme.area)
            cells = []
            for d in days:
                c = theme.days.get(d)
                if c is None or c.commits == 0:
                    cells.append("·")
                    continue
                ratio = c.commits / peak
                glyph = "🟥" if ratio >= 0.75 else "🟧" if ratio >= 0.4 else "🟨"
                cells.append(f"{glyph} {c.commits} / {c.lines}")
            total = f"**{len(theme.commits)}** / {theme.lines}"
            rows.append(f"| {name} | {' | '.join(cells)} | {total} |")
        return "\n".join([f"### {p.themes}", "", *rows, "", p.heat_legend])

    def contributors(self, cap: int) -> str:
        p, s = self.p, self.s
        people = self.r.contributors
        names = [f"{code(name)} ({n})" for name, n in people[:cap]]
        if len(people) > cap:
            names.append(p.contributors_more.format(count=len(people) - cap))
        return f"### {p.contributors.format(count=len(people))}\n\n" + s.separator.join(names)

    def days(self, urls: Mapping[date, str]) -> str:
        p = self.p
        lines = [f"### {p.days}", ""]
        for d in self.r.week.days:
            count = self.r.per_day.get(d, 0)
            label = f"{self.day_label(d)} ({d.isoformat()})"
            if d in urls:
                lines.append(f"- {label}: {link(plural(p.day_commits, count), urls[d])}")
            elif count and self.offline:
                lines.append(f"- {label}: {plural(p.day_commits, count)}")
            elif count:
                lines.append(f"- {label}: {plural(p.day_commits, count)} · {p.day_not_posted}")
            elif self.ahead_from is not None and d >= self.ahead_from:
                lines.append(f"- {label}: {p.day_ahead}")
            else:
                lines.append(f"- {label}: {p.day_quiet}")
        return "\n".join(lines)

    def local(self, instant: datetime) -> str:
        return instant.astimezone(self.zone).strftime("%Y-%m-%d %H:%M")

    def footer(self, late: bool, notes: Sequence[str] = ()) -> str:
        p, week = self.p, self.r.week
        lines = ["---"]
        if late:
            lines.append(f"- {p.late.format(when=self.local(week.due))}")
        window = p.window.format(
            start=self.local(week.start), end=self.local(week.end), zone=self.timezone
        )
        lines += [f"- {window}", *(f"- {n}" for n in notes)]
        # Offline, every commit was just analysed: there are no stored analyses.
        lines.append(f"- {self.s.generated_by if self.offline else p.generated_by}")
        return "\n".join(lines)


def render_weekly(
    rollup: Rollup,
    *,
    language: str,
    timezone: str,
    digest_urls: Mapping[date, str] | None = None,
    narrative: Narrative | None = None,
    late: bool = False,
    with_title: bool = False,
    fallback_note: str | None = None,
    offline: bool = False,
    notes: Sequence[str] = (),
    ahead_from: date | None = None,
) -> WeeklyPost:
    """The week's roll-up post (`with_title` for an issue comment, which has no title;
    `fallback_note`: why it is one, where Discussions could not be used; `offline`: of a
    local clone, whose days have no digest posts; `notes`: more footer lines; `ahead_from`:
    the first day that has not begun, offline)."""
    w = _Weekly(rollup, language, timezone, offline=offline, ahead_from=ahead_from)
    title = weekly_title(rollup.repo, rollup.week, language)
    marker = week_marker(rollup.repo, rollup.week.first)
    head = [marker] + ([f"## {inline(title)}"] if with_title else [])
    if fallback_note:
        head.append(f"> {w.s.fallback_target.format(reason=inline(fallback_note))}")
    if rollup.empty:
        empty = w.p.empty_week.format(
            first=rollup.week.first.isoformat(), last=rollup.week.last.isoformat()
        )
        body = "\n\n".join([*head, empty, w.days(digest_urls or {}), w.footer(late, notes)])
        return WeeklyPost(f"week-{rollup.week.first.isoformat()}", title, body)
    intro = [w.summary()]
    if narrative is not None and narrative.text.strip():
        paragraphs = [inline(x) for x in narrative.text.split("\n\n") if x.strip()]
        by = w.p.narrative_by.format(analyzer=code(narrative.analyzer))
        intro.append("\n\n".join([f"### {w.p.narrative}", *paragraphs, f"*{by}*"]))
    body = ""
    for notable_cap, people_cap in _CAPS:
        body = "\n\n".join(
            [
                *head,
                *intro,
                w.chart(),
                f"### {w.p.counts}\n\n{w.counts()}",
                w.notable(notable_cap),
                w.themes(),
                w.contributors(people_cap),
                w.days(digest_urls or {}),
                w.footer(late, notes),
            ]
        )
        if len(body) <= BODY_LIMIT:
            break
    return WeeklyPost(f"week-{rollup.week.first.isoformat()}", title, body)
