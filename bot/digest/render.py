"""The digest as Markdown for GitHub, split into posts within GitHub's body limit. Pure.

A post holds at most 65,536 characters (FACTS.md §3). The first post holds the one-line
summary, the table of the day's commits, a table of contents whose anchors follow GitHub's
rules, and the high-importance section; continuation posts hold the rest in order, and a
commit's section is never split. When the day is too big even so, the table is narrowed and
the low (then medium) section folded to shorter lines, and the footer says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from zoneinfo import ZoneInfo

from bot.analysis.spans import code
from bot.digest.anchors import Slugger
from bot.digest.headline import Related
from bot.digest.markers import day_marker
from bot.digest.markup import code_cell as _code_cell
from bot.digest.markup import link as _link
from bot.digest.markup import url as _url
from bot.digest.safety import cell, inline, rendered
from bot.digest.sameday import settled
from bot.digest.sources import sources_lines
from bot.digest.strings import catalogue, is_original
from bot.digest.strings.shape import Strings, plural
from bot.digest.tested import answered_asks
from bot.digest.undone import undone
from bot.digest.usage import usage_lines
from bot.models import Analysis, Digest, DigestCommit, Importance

BODY_LIMIT = 65_536
# As a last resort the day's table takes at most this much of the first post; older rows
# beyond it are counted in a last row (their commits are in their sections).
TABLE_BUDGET = 30_000
# Beyond this many posts the day is folded rather than spread over ever more comments.
MAX_PARTS = 10
# The footer names at most this many unanalysed commits and counts the rest, so however
# many failed, the footer stays one piece of bounded size.
FOOTER_MISSING = 20
# Text with no Chinese character in a Chinese digest is the author's own English.
_ICON = {Importance.HIGH: "🔴", Importance.MEDIUM: "🟡", Importance.LOW: "🟢"}


@dataclass(frozen=True)
class Part:
    key: str  # "part-1", "part-2", … or "addendum-1", "addendum-1-2", …
    body: str


@dataclass(frozen=True)
class _Options:
    table_low: bool = True
    fold_low: bool = False
    fold_medium: bool = False
    table_budget: int | None = None


# Tried in order until the day fits in MAX_PARTS posts (or fits at all).
_ATTEMPTS = (
    _Options(),
    _Options(table_low=False),
    _Options(table_low=False, fold_low=True),
    _Options(table_low=False, fold_low=True, fold_medium=True),
    _Options(table_low=False, fold_low=True, fold_medium=True, table_budget=TABLE_BUDGET),
)


@dataclass
class _Unit:
    """A piece that is never split: a section heading with its first commit, or a commit."""

    text: str
    headings: list[tuple[int, str]] = field(default_factory=list)  # (level, markdown)


def contributors(commits: Iterable[DigestCommit]) -> set[str]:
    """Who wrote the day's commits: their authors and those of the commits a merge brings
    (a merge's own author may only have pressed the button)."""
    return {name for c in commits for name in (c.author, *c.brought_by)}


def impact_areas(a: Analysis, s: Strings) -> str:
    """The areas a commit touches, each with its number of files where known."""
    return s.separator.join(
        f"{code(i.area)} ({plural(s.files, i.files)})" if i.files else code(i.area)
        for i in a.impact
    )


def _shortened(text: str, limit: int) -> str:
    """An error message for the footer: long ones end with an ellipsis, visibly."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class _Renderer:
    def __init__(
        self,
        digest: Digest,
        options: _Options,
        *,
        with_title: bool,
        related: Related | None = None,
    ) -> None:
        self.d = digest
        self.s: Strings = catalogue(digest.language).digest
        self.o = options
        self.with_title = with_title
        self.zone = ZoneInfo(digest.timezone)
        self.analysed = [c for c in digest.commits if c.analysis is not None]
        self.by_importance: dict[Importance, list[DigestCommit]] = {i: [] for i in Importance}
        for commit in sorted(self.analysed, key=lambda c: c.landed_at, reverse=True):
            assert commit.analysis is not None
            self.by_importance[commit.analysis.importance].append(commit)
        self.related = related or Related(digest)

    # --- pieces ----------------------------------------------------------------------------

    def time(self, commit: DigestCommit) -> str:
        local = commit.landed_at.astimezone(self.zone)
        if self.d.cutoff.hour == 0 and self.d.cutoff.minute == 0:
            return local.strftime("%H:%M")
        return local.strftime("%m-%d %H:%M")

    def summary(self) -> str:
        s = self.s
        counts = {i: len(v) for i, v in self.by_importance.items()}
        line = s.summary.format(
            commits=plural(s.commit_count, len(self.d.commits)),
            high=counts[Importance.HIGH],
            medium=counts[Importance.MEDIUM],
            low=counts[Importance.LOW],
            contributors=plural(s.contributors, len(contributors(self.d.commits))),
        )
        missing = len(self.d.commits) - len(self.analysed)
        if missing:
            line += s.not_analysed_count.format(count=missing)
        return line

    def table(self) -> str:
        s = self.s
        zone = s.table_time.format(zone=self.d.timezone)
        rows = [
            f"| {zone} | {s.table_author} | {s.table_commit} | {s.table_importance} |",
            "|---|---|---|---|",
        ]
        listed = [
            c
            for c in sorted(self.d.commits, key=lambda c: c.landed_at, reverse=True)
            if self.o.table_low or c.analysis is None or c.analysis.importance is not Importance.LOW
        ]
        size = sum(len(r) + 1 for r in rows)
        for shown, commit in enumerate(listed):
            a = commit.analysis
            importance = (
                f"{_ICON[a.importance]} {s.importance_names[a.importance]}" if a else s.not_analysed
            )
            label = cell(commit.title)
            row = (
                f"| {self.time(commit)} | {_code_cell(commit.author)} "
                f"| {_link(label, commit.url)}{self.related.suffix(commit.sha)} | {importance} |"
            )
            if self.o.table_budget is not None and size + len(row) > self.o.table_budget:
                rows.append(f"| | | {s.table_more.format(count=len(listed) - shown)} | |")
                break
            rows.append(row)
            size += len(row) + 1
        return "\n".join(rows)

    def original(self, text: str) -> bool:
        """Whether `text` is the author's original, untranslated, in a Chinese digest."""
        return is_original(text, self.d.language)

    def summary_label(self, summary: str) -> str:
        return self.s.summary_original_label if self.original(summary) else self.s.summary_label

    def types(self, a: Analysis) -> str:
        return " / ".join(self.s.change_types[t] for t in a.change_types)

    def full(self, commit: DigestCommit, a: Analysis) -> _Unit:
        s = self.s
        heading = inline(commit.title)
        lines = [
            f"### {heading}",
            " · ".join(
                x
                for x in (
                    code(commit.sha[:7]),
                    _link(s.view_commit, commit.url) if _url(commit.url) else "",
                    code(commit.author),
                    self.time(commit),
                )
                if x
            ),
            "",
            f"- **{s.type_label}**{s.colon}{self.types(a)}",
            f"- **{s.importance_label}**{s.colon}{_ICON[a.importance]} "
            f"{s.importance_names[a.importance]}"
            + (f" · *{s.rated}*" if commit.rated else "")
            + (f" · {s.breaking}" if a.breaking else ""),
            f"- **{self.summary_label(a.summary)}**{s.colon}{inline(a.summary)}",
        ]
        if marks := self.related.marks(commit.sha):
            related = self.related.p.related_label
            lines.append(f"- **{related}**{s.colon}{s.separator.join(marks)}")
        if a.impact:
            lines.append(f"- **{s.impact_label}**{s.colon}{impact_areas(a, s)}")
        if a.insights is not None and a.insights.any():
            lines += ["", f"**{s.insights_label}**", ""]
            for key, name in s.insight_names.items():
                value = getattr(a.insights, key)
                if value:
                    lines.append(f"- *{name}*{s.colon}{inline(value)}")
        if a.risks:
            lines += ["", f"**{s.risks_label}**", ""]
            # A column no risk fills is left out; risks with no column but their own are a list.
            columns = [
                i
                for i, on in enumerate(
                    (True, any(r.consequence for r in a.risks), any(r.mitigation for r in a.risks))
                )
                if on
            ]
            if columns == [0]:
                lines += [f"- {inline(r.description)}" for r in a.risks]
            else:
                names = [s.risk_columns[i] for i in columns]
                lines += ["| " + " | ".join(names) + " |", "|" + "---|" * len(names)]
                for r in a.risks:
                    values = (r.description, r.consequence, r.mitigation)
                    lines.append("| " + " | ".join(cell(values[i] or "—") for i in columns) + " |")
        if a.recommendations:
            lines += ["", f"**{s.recommendations_label}**", ""]
            lines += [
                f"- *{s.audiences[r.audience]}*{s.colon}{inline(r.text)}" for r in a.recommendations
            ]
        return _Unit("\n".join(lines), [(3, heading)])

    def compact(self, commit: DigestCommit, a: Analysis, *, with_summary: bool = True) -> str:
        rated = f" · *{self.s.rated}*" if commit.rated else ""
        if not with_summary:
            # Folded to fit: the short sha (searchable on GitHub) and the title.
            return f"- {code(commit.sha[:7])} {inline(commit.title)}{rated}"
        line = (
            f"- {_link(code(commit.sha[:7]), commit.url)} {inline(commit.title)} — {self.types(a)}"
        )
        summary = a.summary.strip()
        if with_summary and summary and summary.rstrip(".").lower() not in commit.title.lower():
            prefix = self.s.original_prefix if self.original(summary) else ""
            line += f" · {prefix}{inline(summary)}"
        return line + rated + self.related.suffix(commit.sha)

    def section_units(self) -> list[tuple[Importance, list[_Unit]]]:
        out = []
        for importance in Importance:
            commits = self.by_importance[importance]
            if not commits:
                continue
            heading = self.s.section[importance].format(count=len(commits))
            units: list[_Unit] = []
            if importance is Importance.LOW or (
                importance is Importance.MEDIUM and self.o.fold_medium
            ):
                with_summary = not (importance is Importance.LOW and self.o.fold_low)
                lines = [
                    self.compact(c, c.analysis, with_summary=with_summary)
                    for c in commits
                    if c.analysis
                ]
                # Compact lines travel in small groups, so a group is never split.
                for i in range(0, len(lines), 20):
                    units.append(_Unit("\n".join(lines[i : i + 20])))
            else:
                units = [self.full(c, c.analysis) for c in commits if c.analysis]
            first = units[0]
            units[0] = _Unit(f"## {heading}\n\n{first.text}", [(2, heading), *first.headings])
            out.append((importance, units))
        return out

    def footer(self, extra_notes: Iterable[str] = ()) -> str:
        s, d = self.s, self.d
        lines = ["---", f"**{s.about}**", ""]
        analysers = Counter(c.analysis.analyzer for c in self.analysed if c.analysis)
        if analysers:
            parts = s.separator.join(f"{code(name)} ({n})" for name, n in sorted(analysers.items()))
            lines.append("- " + s.analysed_by.format(parts=parts))
        fallbacks = Counter(c.fallback_reason for c in self.analysed if c.fallback_reason)
        if fallbacks:
            reasons = s.separator.join(f"{inline(r)} ({n})" for r, n in fallbacks.most_common(5))
            lines.append("- " + s.fallbacks.format(count=sum(fallbacks.values()), reasons=reasons))
        missing = [c for c in d.commits if c.analysis is None]
        if missing:
            lines.append("- " + s.not_analysed_list.format(count=len(missing)))
            lines += [
                f"  - {_link(code(c.sha[:7]), c.url)} {inline(c.title)} "
                f"— {inline(_shortened(c.not_analysed or '?', 300))}"
                for c in missing[:FOOTER_MISSING]
            ]
            if len(missing) > FOOTER_MISSING:
                lines.append(
                    "  - " + s.not_analysed_more.format(count=len(missing) - FOOTER_MISSING)
                )
        if d.excluded:
            reasons = s.separator.join(
                f"{s.excluded_reasons.get(k, k)} {n}" for k, n in sorted(d.excluded.items())
            )
            lines.append("- " + s.excluded.format(count=sum(d.excluded.values()), reasons=reasons))
        if d.config_error:
            lines.append("- " + s.config_error.format(error=inline(d.config_error)))
        if d.config_ignored:
            keys = inline(", ".join(d.config_ignored)[:1000])
            lines.append("- " + s.config_ignored.format(keys=keys))
        if d.late:
            lines.append("- " + s.late.format(cutoff=self.cutoff_text()))
        if d.forced_pushes:
            lines.append("- " + s.forced.format(count=d.forced_pushes))
        if d.truncated:
            lines.append("- " + s.truncated.format(count=d.truncated))
        lines += [f"- {note}" for note in extra_notes]
        lines += [f"- {line}" for line in usage_lines(d.usage, d.language)]
        if d.settings_from is not None:
            lines += [f"- {line}" for line in sources_lines(d.settings_from, d.language)]
        lines.append("- " + s.times_in.format(zone=d.timezone, cutoff=self.cutoff_text()))
        lines.append("- " + s.generated_by)
        return "\n".join(lines)

    def cutoff_text(self) -> str:
        return self.d.cutoff.strftime("%H:%M")

    def notes(self) -> list[str]:
        s = self.s
        notes = []
        low = len(self.by_importance[Importance.LOW])
        if not self.o.table_low and low:
            notes.append(s.folded_table.format(count=low))
        if self.o.fold_low and low:
            notes.append(s.folded_low)
        if self.o.fold_medium and self.by_importance[Importance.MEDIUM]:
            notes.append(s.folded_medium)
        return notes

    # --- assembly --------------------------------------------------------------------------

    def head(self) -> str:
        pieces = []
        if self.with_title:
            pieces.append(f"## {inline(self.d.title)}")
        if headline := self.related.block():
            pieces.append(headline)
        pieces.append(self.summary())
        if self.d.fallback_note:
            pieces.append(f"> {self.s.fallback_target.format(reason=inline(self.d.fallback_note))}")
        pieces.append(self.table())
        return "\n\n".join(pieces)

    def parts(self) -> list[Part] | None:
        """Pack the digest into posts; None if the head alone does not fit one post."""
        d = self.d
        sections = self.section_units()
        high = next((u for i, u in sections if i is Importance.HIGH), [])
        rest = [u for i, units in sections if i is not Importance.HIGH for u in units]
        footer = self.footer(self.notes())
        head = self.head()

        def first_post(units: list[_Unit], continued: list[str], toc: bool) -> str:
            slugger = Slugger()
            body = [day_marker(d.repo, d.day, "part-1"), head]
            if toc and units:
                entries = []
                for unit in units:
                    for level, text in unit.headings:
                        indent = "  " * (level - 2)
                        entries.append(f"{indent}- [{text}](#{slugger.slug(rendered(text))})")
                body.append(f"### {self.s.contents}\n\n" + "\n".join(entries))
            if continued:
                body.append(self.s.continued.format(sections=self.s.separator.join(continued)))
            body += [u.text for u in units]
            return "\n\n".join(body)

        single = first_post(high + rest, [], toc=True)
        if len(single) + 2 + len(footer) <= BODY_LIMIT:
            return [Part("part-1", f"{single}\n\n{footer}")]

        later_names = [
            self.s.section[i].format(count=len(self.by_importance[i]))
            for i, _ in sections
            if i is not Importance.HIGH
        ]
        taken = list(high)
        while taken and len(first_post(taken, later_names, toc=True)) > BODY_LIMIT:
            rest.insert(0, taken.pop())
        if len(first_post(taken, later_names, toc=True)) > BODY_LIMIT:
            return None
        posts = [first_post(taken, later_names, toc=True)]
        rest.append(_Unit(footer))

        # Continuation posts: "Part k of n" is written once n is known; reserve its length.
        header = self.s.part.format(part=99, total=99, title=inline(d.title))
        note = ""
        if d.fallback_note and d.note_every_part:
            note = f"\n\n> {self.s.fallback_target.format(reason=inline(d.fallback_note))}"
        budget = BODY_LIMIT - len(day_marker(d.repo, d.day, "part-99")) - len(header) - 4
        budget -= len(note)
        current: list[str] = []
        size = 0
        for unit in rest:
            if current and size + len(unit.text) + 2 > budget:
                posts.append("\n\n".join(current))
                current, size = [], 0
            current.append(unit.text)
            size += len(unit.text) + 2
        if current:
            posts.append("\n\n".join(current))
        total = len(posts)
        out = [Part("part-1", posts[0])]
        for number, text in enumerate(posts[1:], start=2):
            key = f"part-{number}"
            line = self.s.part.format(part=number, total=total, title=inline(d.title)) + note
            out.append(Part(key, f"{day_marker(d.repo, d.day, key)}\n{line}\n\n{text}"))
        return out


def render(digest: Digest, *, with_title: bool = False) -> list[Part]:
    """The posts of a day's digest, each within GitHub's limit, folded only if it must be."""
    if not digest.commits:
        text = catalogue(digest.language).digest.empty_day.format(day=digest.day.isoformat())
        if digest.settings_from is not None:
            notes = sources_lines(digest.settings_from, digest.language)
            text += "\n\n---\n" + "\n".join(f"- {n}" for n in notes)
        return [Part("part-1", f"{day_marker(digest.repo, digest.day, 'part-1')}\n{text}")]
    # A commit with an empty message still needs words: an empty link cannot be seen or opened,
    # and an empty heading has no anchor.
    no_title = catalogue(digest.language).digest.no_title
    digest = replace(
        digest,
        commits=tuple(
            c if c.title.strip() else replace(c, title=no_title)
            for c in answered_asks(undone(settled(digest.commits)))
        ),
    )
    best: list[Part] | None = None
    related = Related(digest)
    for options in _ATTEMPTS:
        parts = _Renderer(digest, options, with_title=with_title, related=related).parts()
        if parts is not None:
            best = parts
            if len(parts) <= MAX_PARTS:
                return parts
    if best is None:
        raise ValueError("the digest head does not fit one post even with low commits folded")
    return best


def render_addendum(digest: Digest, number: int) -> list[Part]:
    """Commits that arrived after the day was published, as one more post (or a few)."""
    title = catalogue(digest.language).digest.addendum_title.format(
        count=len(digest.commits), day=digest.day.isoformat()
    )
    addendum = replace(digest, title=title)
    parts = render(addendum, with_title=True)
    prefix = f"addendum-{number}"
    out = []
    for i, part in enumerate(parts, start=1):
        key = prefix if i == 1 else f"{prefix}-{i}"
        body = part.body.replace(
            day_marker(digest.repo, digest.day, part.key),
            day_marker(digest.repo, digest.day, key),
            1,
        )
        out.append(Part(key, body))
    return out


def render_commit(digest: Digest, sha: str) -> str:
    """One analysed commit of the digest, whole, as its high and medium sections show a commit
    (whatever its importance: never folded), for `/digest explain`."""
    digest = replace(digest, commits=answered_asks(undone(settled(digest.commits))))
    commit = next(c for c in digest.commits if c.sha == sha)
    if commit.analysis is None:
        raise ValueError(f"commit {sha} has no analysis")
    return _Renderer(digest, _Options(), with_title=False).full(commit, commit.analysis).text
