"""What a job is: its kind, its state, and the outcomes a job handler reports."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any


class JobKind(StrEnum):
    REFRESH_CONFIG = "refresh_config"
    EXPAND_RANGE = "expand_range"
    ANALYSE_COMMIT = "analyse_commit"
    PUBLISH_PERIOD = "publish_period"
    PUBLISH_WEEK = "publish_week"
    SEND_ALERTS = "send_alerts"
    RECOVER_DELIVERIES = "recover_deliveries"


class JobState(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


# Within one round, lower runs first: a repository's config before the commits it shapes,
# the commits before the period that publishes them. Alerts go before the analyses still
# waiting: they are due within a minute of the analysis that asked for them. A week goes after
# the days it links to.
PRIORITY: dict[JobKind, int] = {
    JobKind.REFRESH_CONFIG: 0,
    JobKind.EXPAND_RANGE: 1,
    JobKind.SEND_ALERTS: 1,
    JobKind.ANALYSE_COMMIT: 2,
    JobKind.PUBLISH_PERIOD: 3,
    JobKind.PUBLISH_WEEK: 4,
    JobKind.RECOVER_DELIVERIES: 4,
}


@dataclass(frozen=True)
class Job:
    """A claimed job: only the holder of `owner` may write for it while its lease lasts."""

    id: int
    kind: JobKind
    key: str
    payload: dict[str, Any]
    attempts: int  # including this one
    owner: str


class LeaseLost(Exception):
    """Another holder took the job over (this one's lease expired): stop, write nothing."""


@dataclass(frozen=True)
class Done:
    """The job did its work (or found nothing left to do). `recorded`: the handler already
    marked the job done in its last write's transaction (one commit instead of two)."""

    recorded: bool = False


@dataclass(frozen=True)
class Retry:
    """Try again later; spends an attempt. `at` None: the executor's backoff."""

    reason: str
    at: datetime | None = None


@dataclass(frozen=True)
class Defer:
    """Not now (a rate limit): try again at `until` without spending an attempt."""

    reason: str
    until: datetime


@dataclass(frozen=True)
class Fail:
    """Nothing to retry (the App lost access): the job ends failed, with this reason."""

    reason: str


Outcome = Done | Retry | Defer | Fail
