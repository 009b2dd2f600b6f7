"""Which analysed commits ask for an alert, the alert and fold jobs' payloads, and the alerts a
day has posted: what the analysis stage and the commands share with the alert jobs."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.digest.alerts import wants_alert
from bot.models import Analysis
from bot.repo_config import RepoConfig
from bot.store.alert_ledger import ALERT_PERIOD, ALERT_PREFIX, AlertLedger
from bot.store.job_payloads import FoldAlertsPayload, SendAlertsPayload
from bot.store.jobs import Jobs
from bot.store.posts import PostState
from bot.store.store import Store

# A revert landing this long after the day still withholds an alert not yet sent; commits
# this long before it are where a revert of the day finds what it names.
NEARBY = timedelta(days=2)
# The "more alerts" post is edited at most this often; commits folded meanwhile wait.
FOLD_EVERY = timedelta(minutes=1)


def alert_period(day: date) -> str:
    """The post ledger's period of a day's alerts (the digest's own is `day:<date>`)."""
    return f"{ALERT_PERIOD}{day.isoformat()}"


def day_of_period(period: str) -> date:
    return date.fromisoformat(period.removeprefix(ALERT_PERIOD))


def alert_job(repo_id: int, sha: str) -> SendAlertsPayload:
    return SendAlertsPayload(repo_id=repo_id, sha=sha)


def fold_job(repo_id: int, day: date) -> FoldAlertsPayload:
    return FoldAlertsPayload(repo_id=repo_id, day=day)


async def rearm_folds(
    conn: AsyncConnection,
    repo_id: int,
    now: datetime,
    *,
    shas: Collection[str] = (),
    revert_landed: datetime | None = None,
) -> None:
    """Arm the `fold_alerts` job of each day that folded one of these commits (a maintainer
    rated it), or a commit a revert landed at `revert_landed` may undo: the fold drops what
    is no longer alert-worthy, at most once every `FOLD_EVERY`."""
    landed = None if revert_landed is None else (revert_landed - NEARBY, revert_landed)
    for period in sorted(await AlertLedger.fold_periods(conn, repo_id, shas=shas, landed=landed)):
        written = await AlertLedger.fold_written_at(conn, repo_id, period)
        due = max(now, written + FOLD_EVERY) if written is not None else now
        job = fold_job(repo_id, day_of_period(period))
        await Jobs.enqueue_in(conn, [job], now, rearm=True, not_before=due)


def alerts_on(analysis: Analysis, config: RepoConfig, *, excluded: str | None) -> bool:
    """Whether storing this analysis should (re)start its commit's alert."""
    return excluded is None and wants_alert(analysis, config.alerts)


async def sent_alerts(store: Store, repo_id: int, day: date) -> dict[str, str]:
    """The day's alerts posted so far: commit sha -> the alert's URL (the digest links them)."""
    recorded = await store.posts.recorded(repo_id, alert_period(day))
    return {
        key.removeprefix(ALERT_PREFIX): rec.url
        for key, rec in recorded.items()
        if key.startswith(ALERT_PREFIX) and rec.state is PostState.POSTED and rec.url
    }
