"""A job enqueued again while its holder runs it: the holder may have read its input before
the new work was stored, so the job runs once more when the holder finishes (not never)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import Store
from bot.store.job_payloads import SendAlertsPayload
from bot.store.jobs import Job, JobKind
from tests.support import ODD_SESSION_ZONE, in_session_zone

NOW = datetime(2026, 7, 10, 12, 0, tzinfo=UTC)
LEASE = timedelta(minutes=5)
PAYLOAD = SendAlertsPayload(repo_id=1, day=NOW.date())
KIND, KEY = PAYLOAD.kind, PAYLOAD.key
LIMITS = {kind: 8 for kind in JobKind}


@pytest.fixture
async def store(any_database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(any_database_url)
    yield store
    await store.close()


async def claim_one(store: Store, now: datetime) -> list[Job]:
    claimed, _ = await store.jobs.claim(
        now, owner="test", limit=10, lease=LEASE, max_attempts=LIMITS
    )
    for job in claimed:  # and runs them, as the executor would
        assert await store.jobs.started(job, now, LEASE)
    return claimed


@pytest.mark.parametrize("finish_in_last_write", [False, True])
async def test_a_job_enqueued_while_running_runs_once_more(
    store: Store, finish_in_last_write: bool
) -> None:
    await store.jobs.enqueue(PAYLOAD, NOW, rearm=True)
    (job,) = await claim_one(store, NOW)
    # New work arrives while the holder runs: the running job is not disturbed ...
    await store.jobs.enqueue(PAYLOAD, NOW + timedelta(seconds=1), rearm=True)
    row = await store.jobs.get(KIND, KEY)
    assert (row.state, row.lease_owner, row.attempts) == ("running", job.owner, 1)
    assert await claim_one(store, NOW + timedelta(seconds=2)) == []  # nor taken by another
    # ... and when it ends, it is due again, a fresh run.
    later = NOW + timedelta(seconds=3)
    if finish_in_last_write:
        async with store.jobs.holding(job, later, finish=True):
            pass
    else:
        assert await store.jobs.finish(job, later)
    row = await store.jobs.get(KIND, KEY)
    assert (row.state, row.attempts, row.rerun) == ("pending", 0, False)
    (again,) = await claim_one(store, later)
    assert await store.jobs.finish(again, later)
    # Nothing came in during the second run: it stays done.
    row = await store.jobs.get(KIND, KEY)
    assert row.state == "done"
    assert await claim_one(store, later + timedelta(hours=1)) == []


async def test_enqueued_without_rearm_or_after_a_failure_behaves_as_before(store: Store) -> None:
    await store.jobs.enqueue(PAYLOAD, NOW)
    (job,) = await claim_one(store, NOW)
    await store.jobs.enqueue(PAYLOAD, NOW)  # no rearm: a duplicate, ignored
    assert await store.jobs.finish(job, NOW)
    assert (await store.jobs.get(KIND, KEY)).state == "done"
    # Asked to rerun, but the run fails for good: it ends failed (and says why) ...
    await store.jobs.enqueue(PAYLOAD, NOW, rearm=True)
    (job,) = await claim_one(store, NOW)
    await store.jobs.enqueue(PAYLOAD, NOW, rearm=True)
    assert await store.jobs.finish(job, NOW, failed="repository gone")
    row = await store.jobs.get(KIND, KEY)
    assert (row.state, row.last_error, row.rerun) == ("failed", "repository gone", False)
    # ... and the next enqueue arms it afresh.
    await store.jobs.enqueue(PAYLOAD, NOW, rearm=True)
    row = await store.jobs.get(KIND, KEY)
    assert (row.state, row.attempts, row.last_error) == ("pending", 0, None)


async def test_a_rerun_is_due_when_its_holder_finishes_whatever_the_session_zone(
    store: Store,
) -> None:
    """The time a rerun is due is an instant like any other: on PostgreSQL it is not moved by
    the session's time zone (a server configured for Kathmandu, +05:45)."""
    await in_session_zone(store.engine)
    if store.dialect == "postgresql":
        for _ in range(2):  # and still after the connection went back to the pool
            async with store.writer().begin() as conn:
                zone = (await conn.exec_driver_sql("SHOW TIME ZONE")).scalar()
                assert zone == ODD_SESSION_ZONE
    await store.jobs.enqueue(PAYLOAD, NOW, rearm=True)
    (job,) = await claim_one(store, NOW)
    await store.jobs.enqueue(PAYLOAD, NOW + timedelta(seconds=1), rearm=True)
    later = NOW + timedelta(seconds=3)
    assert await store.jobs.finish(job, later)
    row = await store.jobs.get(KIND, KEY)
    assert (row.state, row.not_before) == ("pending", later)
    assert [j.key for j in await claim_one(store, later)] == [KEY]
