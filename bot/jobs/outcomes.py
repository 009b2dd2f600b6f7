"""What a job handler reports when it ends a run: done, retry, defer or fail."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


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
