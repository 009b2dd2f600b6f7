"""`python -m bot eval --claims --git PATH`: every checkable claim of the analyser's entries,
verified against the clone at the commit and its parent; the false ones printed by kind."""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.analysis.factory import open_analyzer
from bot.analysis.measures import Entry
from bot.cli.claim_check import Checked, Checker, Clone, Verdict
from bot.cli.claims import Claim, Kind, claims_in
from bot.cli.evaluation import analyse_all, git_history, replay_days, with_sides
from bot.cli.git import CloneError, git
from bot.models import Analysis
from bot.settings import MissingSetting, Settings


def entry_text(analysis: Analysis) -> str:
    """Every sentence an entry shows: summary, insights, risks, recommendations."""
    parts = [analysis.summary]
    if analysis.insights is not None:
        insights = analysis.insights
        parts += [
            t
            for t in (
                insights.architecture,
                insights.performance,
                insights.security,
                insights.compatibility,
            )
            if t
        ]
    for risk in analysis.risks:
        parts += [t for t in (risk.description, risk.consequence, risk.mitigation) if t]
    parts += [r.text for r in analysis.recommendations]
    ends = (".", "!", "?", ".”", "!”", "?”")
    return "\n".join(p if p.rstrip().endswith(ends) else p + "." for p in parts)


def entry_claims(analysis: Analysis) -> tuple[list[Claim], int]:
    """An entry's claims, each said once (a risk often repeats the summary's), and the
    number of code-span names outside any claim."""
    claims, loose = claims_in(entry_text(analysis))
    seen: dict[tuple[object, ...], Claim] = {}
    for claim in claims:
        seen.setdefault((claim.kind, claim.name, claim.path, claim.old, claim.new), claim)
    return list(seen.values()), len(loose)


@dataclass
class ClaimsReport:
    analyzer: str
    commits: int = 0
    missing: int = 0
    loose: int = 0
    checked: list[Checked] = field(default_factory=list)

    def count(self, verdict: Verdict, kind: Kind | None = None) -> int:
        return sum(
            c.verdict is verdict and (kind is None or c.claim.kind is kind) for c in self.checked
        )

    def lines(self, *, show_unverifiable: bool = False) -> list[str]:
        true, false = self.count(Verdict.TRUE), self.count(Verdict.FALSE)
        unverifiable = self.count(Verdict.UNVERIFIABLE)
        decided = true + false
        share = f"{false / decided:.1%}" if decided else "n/a"
        out = [
            f"analyser: {self.analyzer}",
            f"commits: {self.commits}"
            + (
                f" ({self.missing} not in the clone: their claims unverifiable)"
                if self.missing
                else ""
            ),
            f"claims: {len(self.checked)}; checked {decided}: {true} true, {false} false "
            f"({share} of those checked); {unverifiable} unverifiable",
            f"code-span names outside any claim (not counted): {self.loose}",
            "",
            "| kind | claims | true | false | unverifiable |",
            "|---|---:|---:|---:|---:|",
        ]
        for kind in Kind:
            row = [self.count(v, kind) for v in Verdict]
            if sum(row):
                out.append(f"| {kind} | {sum(row)} | {row[0]} | {row[1]} | {row[2]} |")
        for kind in Kind:
            wrong = [c for c in self.checked if c.claim.kind is kind and c.verdict is Verdict.FALSE]
            if wrong:
                out += ["", f"false: {kind} ({len(wrong)})"]
                for c in wrong:
                    out += [
                        f"  {c.sha[:12]} `{c.claim.name}`: {c.why}",
                        f"      “{c.claim.sentence}”",
                    ]
        reasons = Counter(_reason(c.why) for c in self.checked if c.verdict is Verdict.UNVERIFIABLE)
        if reasons:
            out += ["", "unverifiable, by reason:"]
            out += [f"  {n:>4}  {why}" for why, n in reasons.most_common(10)]
        if show_unverifiable:
            for c in self.checked:
                if c.verdict is Verdict.UNVERIFIABLE:
                    out.append(f"  {c.sha[:12]} {c.claim.kind} `{c.claim.name}`: {c.why}")
        return out


def _reason(why: str) -> str:
    """The reason without the file it names, so that reasons group."""
    for marker in ("no rules for", "does not parse", "is in "):
        if marker in why:
            tail = why[why.index(marker) :]
            return tail.split("`", 1)[0].rstrip() + (" …" if "`" in tail else "")
    return why


def check_entries(checker: Checker, entries: list[Entry], report: ClaimsReport) -> None:
    for entry in entries:
        claims, loose = entry_claims(entry.analysis)
        report.loose += loose
        verdicts = [checker.check(entry.commit.sha, claim) for claim in claims]
        report.missing += any(v.why == "the commit is not in the clone" for v in verdicts)
        report.checked += verdicts


def command(
    settings: Settings,
    *,
    clone: str | None,
    replay: str | None,
    revisions: str | None,
    since: str | None,
    until: str | None,
    show_unverifiable: bool = False,
) -> int:
    """Analyse the commits, check every claim their entries make, print the report. The
    claims are read from English text, so the entries are written in English."""
    if clone is None:
        raise MissingSetting("--claims checks claims against a clone: give --git PATH")
    path = Path(clone)
    if replay and (revisions or since or until):
        raise MissingSetting("--replay names the commits; drop --range, --since and --until")
    try:
        git(path, "rev-parse", "--git-dir")
        if replay:
            directory = Path(replay)
            if not directory.exists():
                raise MissingSetting(
                    f"--replay must be a directory of replay days, not {directory}"
                )
            commits = with_sides(path, replay_days(directory))
        else:
            # the merges a digest shows (its first-parent line) are entries too
            commits = git_history(
                path, branch=revisions or "HEAD", since=since, until=until, merges=True
            )
    except CloneError as exc:
        raise MissingSetting(f"--git {clone}: {exc}") from None

    async def analyse() -> tuple[str, list[Entry]]:
        async with open_analyzer(settings) as analyzer:
            return analyzer.name, await analyse_all(analyzer, commits, language="en")

    name, entries = asyncio.run(analyse())
    report = ClaimsReport(analyzer=name, commits=len(entries))
    reader = Clone(path)
    try:
        check_entries(Checker(reader), entries, report)
    finally:
        reader.close()
    text = "\n".join(report.lines(show_unverifiable=show_unverifiable)) + "\n"
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0
