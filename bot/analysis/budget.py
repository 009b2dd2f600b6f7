"""Which analyser a commit gets: the pure decision of the LLM cost governor.

In order: excluded commits and commits the rules are sure of get the rules; so do commits
whose rules verdict is not in the repository's `llm.for`; a diff already analysed by the
LLM (same patch-id) reuses that analysis; then the day's caps (`llm.max_commits_per_day`,
`llm.daily_tokens`, and the installation's `LLM_DAILY_TOKEN_BUDGET`) send the rest of the
day to the rules once they are reached.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Route(StrEnum):
    """How a commit's analyser was chosen; stored with the analysis, shown in the footer."""

    LLM = "llm"
    RULES = "rules"  # no LLM configured
    EXCLUDED = "excluded"
    SURE = "sure"  # stored as `sure:<why>`
    VERDICT = "verdict"  # the rules' importance is not in `llm.for`
    REUSED = "reused"
    CAP = "cap"  # llm.max_commits_per_day reached
    BUDGET = "budget"  # a token budget spent


@dataclass(frozen=True)
class DayCounts:
    """What the LLM has had so far: the repository's digest day, the installation's UTC day."""

    repo_llm_commits: int = 0
    repo_tokens: int = 0
    installation_tokens: int = 0


@dataclass(frozen=True)
class Limits:
    max_commits_per_day: int | None = None
    repo_daily_tokens: int | None = None
    installation_daily_tokens: int | None = None


def over_limits(counts: DayCounts, limits: Limits) -> Route | None:
    """CAP or BUDGET when the day's allowance is used up, else None (the LLM may go on)."""
    if limits.max_commits_per_day is not None and (
        counts.repo_llm_commits >= limits.max_commits_per_day
    ):
        return Route.CAP
    if limits.repo_daily_tokens is not None and counts.repo_tokens >= limits.repo_daily_tokens:
        return Route.BUDGET
    if (
        limits.installation_daily_tokens is not None
        and counts.installation_tokens >= limits.installation_daily_tokens
    ):
        return Route.BUDGET
    return None
