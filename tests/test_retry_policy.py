"""Each job kind's retry policy, as docs/operations.md states it: attempts and waits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.jobs.commands import RunCommand
from bot.jobs.outcomes import RetryPolicy, doubling, hourly
from bot.jobs.publish.alerts import SendAlerts
from bot.jobs.publish.day import PublishPeriod
from bot.jobs.publish.fold import FoldAlerts
from bot.jobs.publish.week import PublishWeek

NOW = datetime(2026, 3, 2, 12, tzinfo=UTC)


def waits(backoff: object, attempts: range) -> list[timedelta]:
    assert callable(backoff)
    return [backoff(NOW, n) - NOW for n in attempts]


def test_a_failed_run_waits_30_seconds_doubling_up_to_30_minutes() -> None:
    minutes = [w.total_seconds() / 60 for w in waits(doubling, range(1, 9))]
    assert minutes == [0.5, 1, 2, 4, 8, 16, 30, 30]


def test_a_publication_that_github_failed_waits_2_4_8_minutes_up_to_an_hour() -> None:
    minutes = [w.total_seconds() / 60 for w in waits(hourly, range(1, 9))]
    assert minutes == [2, 4, 8, 16, 32, 60, 60, 60]


@pytest.mark.parametrize(
    ("retry", "attempts", "trouble"),
    [
        (PublishPeriod.retry, 8, hourly),
        (PublishWeek.retry, 8, hourly),
        (SendAlerts.retry, 8, None),
        (FoldAlerts.retry, 8, None),
        (RunCommand.retry, 5, None),
    ],
    ids=["day", "week", "alert", "fold", "command"],
)
def test_each_posting_kind_declares_its_attempts_and_waits(
    retry: RetryPolicy, attempts: int, trouble: object
) -> None:
    assert retry.attempts == attempts
    assert retry.backoff is doubling  # a crash waits the executor's doubling backoff
    assert retry.trouble is trouble  # GitHub's trouble: a publication waits longer
