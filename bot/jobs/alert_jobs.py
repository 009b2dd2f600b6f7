"""Which analysed commits ask for an alert, the alert and fold jobs they arm, and the alerts a
day has posted: what the analysis stage and the commands share with the alert jobs."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.digest.alerts import wants_alert
from bot.models import Analysis
from bot.repo_config import RepoConfig
from bot.store.alert_ledger import ALERT_PREFIX, AlertLedger, alert_period
from bot.store.job_payloads import FoldAlertsPayload, SendAlertsPayload
from bot.store.jobs import Jobs
from bot.store.posts import PostState
from bot.store.store import Store

# A revert landing this long after the day still withholds an alert not yet sent; commits
# this long before it are where a revert of the day finds what it names.
NEARBY = timedelta(days=2)
# The "more alerts" post is edited at most this often; commits folded meanwhile wait.
FOLD_EVERY = timedelta(minutes=1)


async def after_analysis(
    conn: AsyncConnection,
    repo_id: int,
    sha: str,
    shown: Analysis,
    config: RepoConfig,
    *,
    excluded: str | None,
    reverts: bool,
    landed_at: datetime,
    now: datetime,
) -> None:
    """Arm what a commit's stored analysis (as shown, a maintainer's rate applied) changes in
    the alerts: when it reads as a revert (`names_a_revert`), the folds of the days whose
    commits it may undo, and its own alert when the config wants one."""
    if config.alerts.on and reverts:
        await rearm_folds(conn, repo_id, now, revert_landed=landed_at)
    if excluded is None and wants_alert(shown, config.alerts):
        await Jobs.enqueue_in(conn, [SendAlertsPayload(repo_id=repo_id, sha=sha)], now, rearm=True)


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
    for day, written in (await AlertLedger.folds(conn, repo_id, shas=shas, landed=landed)).items():
        due = max(now, written + FOLD_EVERY) if written is not None else now
        job = FoldAlertsPayload(repo_id=repo_id, day=day)
        await Jobs.enqueue_in(conn, [job], now, rearm=True, not_before=due)


async def sent_alerts(store: Store, repo_id: int, day: date) -> dict[str, str]:
    """The day's alerts posted so far: commit sha -> the alert's URL (the digest links them)."""
    recorded = await store.posts.recorded(repo_id, alert_period(day))
    return {
        key.removeprefix(ALERT_PREFIX): rec.url
        for key, rec in recorded.items()
        if key.startswith(ALERT_PREFIX) and rec.state is PostState.POSTED and rec.url
    }
