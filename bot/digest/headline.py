"""The day's headline and the marks that tie related commits together, as safe Markdown. Pure.

The headline is up to three lines on the day's most important changes, at the very top of
the digest: that is what a Slack unfurl and a mail preview show. The marks sit beside a
commit in the table and in its section: what it reverts or relands, what reverted it, which
fix follows up on it, and the alert already posted for it.
"""

from __future__ import annotations

import re

from bot.analysis.spans import code
from bot.analysis.titles import parse_title
from bot.digest.markup import link
from bot.digest.safety import inline
from bot.digest.strings import catalogue
from bot.digest.synthesis import (
    HeadlineItem,
    HeadlineKind,
    LinkKind,
    Synthesis,
    headline,
    synthesize,
)
from bot.models import Digest, DigestCommit, Importance

_ICON = {HeadlineKind.HIGH: "🔴", HeadlineKind.MEDIUM: "🟡"}
_COMMIT_URL = re.compile(r"^(?P<base>https?://.+/commit/)[0-9a-fA-F]{7,64}$")
_FULL_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")


# The headline is what a Slack unfurl or a mail preview shows: one short fact per line.
_FACT_MAX = 160


def _top_fact(commit: DigestCommit) -> str | None:
    """What the day's reader must know of a breaking or high commit, from its top fact: the
    first risk the analysis proves (a removal, a changed default), kept short; None without."""
    a = commit.analysis
    if a is None or not a.risks or not (a.breaking or a.importance is Importance.HIGH):
        return None
    text = a.risks[0].description.strip()
    # A risk that quotes the title tells the reader nothing the title did not.
    echo = parse_title(commit.title).text.strip().rstrip(".").casefold()
    if len(text) > _FACT_MAX or (echo and echo in text.casefold()):
        return None
    return text


def _where(area: str) -> str:
    """An impact area as a reader finds it: a folder with its slash, a file as named."""
    return code(area if "." in area.rsplit("/", 1)[-1] else f"{area}/")


class Related:
    """The synthesis of a digest, rendered."""

    def __init__(self, digest: Digest) -> None:
        self.digest = digest
        self.p = catalogue(digest.language).headline
        self.s = catalogue(digest.language).digest
        self.synthesis: Synthesis = synthesize(digest.commits, digest.recent, digest.unresolved)
        self.by_sha: dict[str, DigestCommit] = {c.sha: c for c in (*digest.recent, *digest.commits)}

    def _url_of(self, sha: str, via: DigestCommit | None) -> str | None:
        known = self.by_sha.get(sha)
        if known is not None and known.url:
            return known.url
        # A commit the ledger no longer holds: its page sits beside the source commit's.
        match = _COMMIT_URL.match(via.url) if via is not None else None
        if match and _FULL_SHA.match(sha):
            return match.group("base") + sha
        return None

    def sha(self, sha: str, via: DigestCommit | None = None) -> str:
        """A short sha, linked to its commit when its page is known."""
        return link(code(sha[:7]), self._url_of(sha, via))

    def marks(self, sha: str) -> list[str]:
        p = self.p
        source = self.by_sha.get(sha)
        out: list[str] = []
        for item in self.synthesis.outgoing(sha):
            target = self.sha(item.target, source)
            if item.kind is LinkKind.REVERTS:
                template = p.mark_reverts if item.in_day else p.mark_reverts_earlier
            elif item.kind is LinkKind.RELANDS:
                template = p.mark_relands
            else:
                template = p.mark_follows_up
            out.append(template.format(sha=target))
        for item in self.synthesis.incoming(sha):
            by = self.sha(item.source, source)
            template = {
                LinkKind.REVERTS: p.mark_reverted_by,
                LinkKind.RELANDS: p.mark_relanded_by,
                LinkKind.FOLLOWS_UP: p.mark_fixed_by,
            }[item.kind]
            out.append(template.format(sha=by))
        if source is not None and source.new_today:
            # its break is the day's own: the names came and went before anyone could use them
            for name, by in source.new_today.items():
                out.append(p.mark_new_today.format(name=code(name), sha=self.sha(by, source)))
        # (a revert its message names is marked so already)
        reverted_by = {i.source for i in self.synthesis.incoming(sha) if i.kind is LinkKind.REVERTS}
        undone_by = source.undone_by if source is not None else None
        if undone_by is not None and undone_by not in reverted_by:
            out.append(p.mark_undone.format(sha=self.sha(undone_by, source)))
        if source is not None and source.no_net is not None:
            areas = self.s.separator.join(_where(a) for a in source.no_net)
            out.append(p.mark_no_net.format(areas=areas or "—"))
        alert = self.digest.alerts.get(sha)
        if alert:
            out.append(p.mark_alert.format(link=link(p.alert_label, alert)))
        return out

    def suffix(self, sha: str) -> str:
        """The marks after a title (` · mark · mark`), or nothing."""
        marks = self.marks(sha)
        return "".join(f" · {m}" for m in marks)

    # --- the headline -----------------------------------------------------------------------

    def items(self) -> list[HeadlineItem]:
        return headline(self.digest.commits, self.synthesis, recent=self.digest.recent)

    def _title(self, commit: DigestCommit) -> str:
        return link(inline(commit.title), commit.url)

    def _types(self, commit: DigestCommit) -> str:
        a = commit.analysis
        return " / ".join(self.s.change_types[t] for t in a.change_types) if a else ""

    def line(self, item: HeadlineItem) -> str:
        p, commit = self.p, item.commit
        if item.kind is HeadlineKind.REVERTED and item.link is not None:
            target = self.by_sha.get(item.link.target)
            title = (
                self._title(target)
                if target is not None
                else inline(item.link.target_title or item.link.target[:7])
            )
            where = self.sha(item.link.target, commit)
            if not item.link.in_day:
                where += p.earlier
            by = p.reverted_by.format(revert=self.sha(commit.sha))
            return f"- {p.reverted}{title} {where} — {by}"
        if item.kind is HeadlineKind.RELANDED and item.link is not None:
            after = p.after_revert.format(revert=self.sha(item.link.target, commit))
            return f"- {p.relanded}{self._title(commit)} — {after}"
        lead = p.breaking if item.kind is HeadlineKind.BREAKING else f"{_ICON[item.kind]} "
        line = f"- {lead}{self._title(commit)}"
        types = self._types(commit)
        if types:
            line += f" — {types}"
        fact = _top_fact(commit)
        if fact:
            line += p.fact.format(fact=inline(fact))
        if item.follow_ups:
            fixes = self.s.separator.join(self.sha(f) for f in item.follow_ups)
            line += f" · {p.fixed_by.format(fixes=fixes)}"
        return line

    def block(self) -> str | None:
        """The headline as a short list, or None on a day with nothing above low importance."""
        lines = [self.line(item) for item in self.items()]
        return "\n".join(lines) if lines else None
