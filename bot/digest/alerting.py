"""Which analysed commits get an alert post, which fold into "more alerts", which get none. Pure.

The job that sends alerts calls `plan_alerts` with what the ledgers hold (the day's commits,
the alerts already posted) each time a commit is analysed; the answer depends only on that
state, so running it again after a crash gives the same posts.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from bot.analysis.titles import git_reverted_shas, normalise_title, parse_title, pr_number
from bot.digest.synthesis import LinkKind, synthesize
from bot.models import Analysis, DigestCommit, Importance
from bot.repo_config import Alerts


def wants_alert(analysis: Analysis | None, config: Alerts) -> bool:
    """Whether an analysis is one the config alerts on (`on: [breaking, high]`)."""
    if analysis is None:
        return False
    return ("breaking" in config.on and analysis.breaking) or (
        "high" in config.on and analysis.importance is Importance.HIGH
    )


def undoes(revert: DigestCommit, target: DigestCommit) -> bool:
    """Whether `revert` plainly takes all of `target` out, as git and GitHub word a revert:
    a `Revert "Title"` title naming it, or git's `This reverts commit <sha>.` line. A partial
    revert, or one that only mentions the commit or its pull request, withholds no alert."""
    inner = parse_title(revert.title).undoes
    if inner is not None:
        number = pr_number(inner)
        if number is not None and number == pr_number(target.title):
            return True
        if normalise_title(inner) == normalise_title(target.title):
            return True
    return any(target.sha.lower().startswith(sha) for sha in git_reverted_shas(revert.message))


def reads_as_revert(commit: DigestCommit) -> bool:
    """Whether a commit reads as a revert (of anything): a `Revert "…"` title or git's line."""
    return names_a_revert(commit.title, commit.message)


def names_a_revert(title: str, message: str) -> bool:
    """`reads_as_revert` of a commit's title and message."""
    return parse_title(title).undoes is not None or bool(git_reverted_shas(message))


@dataclass(frozen=True)
class AlertPlan:
    post: tuple[DigestCommit, ...] = ()  # each gets its own alert now, oldest first
    fold: tuple[DigestCommit, ...] = ()  # the whole content of the day's "more alerts" post
    # Never alerted because a revert landed before the alert went out: sha -> revert's sha.
    reverted: dict[str, str] = field(default_factory=dict)
    # Reverts of those: the pair cancels out, so neither alerts. Revert's sha -> reverted sha.
    cancelled: dict[str, str] = field(default_factory=dict)


def plan_alerts(
    day: Sequence[DigestCommit],
    *,
    config: Alerts,
    posted: Collection[str],
    others: Sequence[DigestCommit] = (),
) -> AlertPlan:
    """The alerts of one day.

    `day`: the day's commits as the digest shows them (excluded ones left out), analysed or
    not. `posted`: shas whose own alert is already recorded in the post ledger (they count
    toward `max_per_day` and are never posted again). `others`: commits landed since the
    day (a revert may land tomorrow), or before it. Commits are taken in landing order; the
    first `max_per_day` get their own post, the rest fold into one post.
    """
    posted = set(posted)
    links = synthesize([*day, *others])
    by_sha = {c.sha: c for c in [*others, *day]}
    wanted = sorted(
        (c for c in day if wants_alert(c.analysis, config)), key=lambda c: (c.landed_at, c.sha)
    )
    reverted: dict[str, str] = {}
    pending: list[DigestCommit] = []
    for commit in wanted:
        if commit.sha in posted:
            continue
        revert = next(
            (
                link.source
                for link in links.incoming(commit.sha)
                if link.kind is LinkKind.REVERTS and undoes(by_sha[link.source], commit)
            ),
            None,
        )
        if revert is not None:
            reverted[commit.sha] = revert
            continue
        pending.append(commit)
    cancelled = {
        commit.sha: link.target
        for commit in pending
        for link in links.outgoing(commit.sha)
        if link.kind is LinkKind.REVERTS and link.target in reverted
    }
    pending = [c for c in pending if c.sha not in cancelled]
    slots = max(config.max_per_day - len(posted), 0)
    return AlertPlan(tuple(pending[:slots]), tuple(pending[slots:]), reverted, cancelled)
