"""How a job's run ends (done, retry, defer or fail), and how its kind is tried again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

# When a job that failed its n-th run is tried again.
Backoff = Callable[[datetime, int], datetime]

# A job's retries wait 30 s, 1 min, 2 min, … up to this.
MAX_BACKOFF = timedelta(minutes=30)


def doubling(now: datetime, attempts: int) -> datetime:
    """When a job that failed its `attempts`-th run is tried again: 30 s, 1 min, 2 min, …
    up to 30 minutes."""
    delay: timedelta = min(MAX_BACKOFF, timedelta(seconds=30) * 2 ** max(0, attempts - 1))
    return now + delay


def hourly(now: datetime, attempts: int) -> datetime:
    """When a post that GitHub failed at its `attempts`-th run is tried again: 2, 4, 8 …
    minutes, up to an hour (GitHub can be down for hours)."""
    return now + timedelta(minutes=min(60, 2**attempts))


@dataclass(frozen=True)
class RetryPolicy:
    """How a job kind is tried again, declared beside its handler and read by the executor.

    `attempts`: runs in all before the job ends failed. `backoff`: when a run that crashed or
    returned `Retry` without a time is tried again. `trouble`: when a posting run that GitHub
    or the network failed is tried again (None: `backoff`). A `Defer` never spends an
    attempt: a rate limit, another job's create of the same post, a suspended installation.
    `log_as` names a posting kind's trouble in logs (`digest_failed`,
    `alerts_issues_disabled`)."""

    attempts: int
    backoff: Backoff = doubling
    trouble: Backoff | None = None
    log_as: str = "job"


@dataclass(frozen=True)
class Done:
    """The job did its work (or found nothing left to do). `recorded`: the handler already
    marked the job done in its last write's transaction (one commit instead of two)."""

    recorded: bool = False


@dataclass(frozen=True)
class Retry:
    """Try again later; spends an attempt. `at` None: the kind's backoff."""

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
