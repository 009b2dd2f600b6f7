"""An attempt is counted when a job starts running, not when it is claimed: the executor
claims twice as many jobs as it runs at once, and a process killed again and again must not
give up the jobs that waited for a slot each time, only the one that ran each time."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

import pytest

from bot.jobs.executor import Executor
from bot.jobs.outcomes import Done, Outcome, RetryPolicy
from bot.settings import Settings
from bot.store import Store
from bot.store.job_payloads import AnalyseCommitPayload
from bot.store.jobs import Job, JobKind
from tests.support import FakeClock

# vllm-project/llm-compressor's commits of 2026-06-22 (90fb24b, eae3af5, b687eb8, 4017b8f).
REPO_ID = 794532817
POISON = ("90fb24b205f031db05a3cd4f8aa389192d307036", "eae3af52f3856cb88b7fd461e156854091a0cb07")
WAITING = ("b687eb821932643407e598203d0bb5f4481f7ac8", "4017b8f4788aac43eac14e05c6d7a0ea44dd3d4e")
CONCURRENCY = len(POISON)
MAX_ATTEMPTS = 3
LEASE_SECONDS = 60


class KilledWhileRunning:
    """Analyses commits; a poison one runs until its process is killed (each time)."""

    kind = JobKind.ANALYSE_COMMIT
    retry = RetryPolicy(attempts=MAX_ATTEMPTS)

    def __init__(self) -> None:
        self.runs: dict[str, int] = {}
        self.gave_up: dict[str, str] = {}
        self.poison_running = asyncio.Event()

    async def run(self, job: Job[AnalyseCommitPayload]) -> Outcome:
        sha = job.payload.sha
        self.runs[sha] = self.runs.get(sha, 0) + 1
        if sha in POISON:
            if sum(self.runs.get(p, 0) for p in POISON) % len(POISON) == 0:
                self.poison_running.set()
            await asyncio.Event().wait()  # the process dies in here
        return Done()

    async def given_up(self, job: Job[AnalyseCommitPayload], reason: str) -> None:
        self.gave_up[job.payload.sha] = reason


@pytest.fixture
async def store(any_database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(any_database_url)
    yield store
    await store.close()


async def rows(store: Store, shas: tuple[str, ...]) -> list[tuple[str, int]]:
    found = []
    for sha in shas:
        row = await store.jobs.get(JobKind.ANALYSE_COMMIT, f"{REPO_ID}/{sha}")
        found.append((row.state, row.attempts))
    return found


async def test_jobs_waiting_for_a_slot_are_not_charged_when_their_holder_is_killed(
    store: Store, clock: FakeClock, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(worker_concurrency=CONCURRENCY, worker_lease_seconds=LEASE_SECONDS)
    handler = KilledWhileRunning()
    # Enqueued first, the poison commits are claimed and take the slots first each time.
    for sha in POISON + WAITING:
        await store.jobs.enqueue(AnalyseCommitPayload(repo_id=REPO_ID, sha=sha), clock.now())
    for killed in range(1, MAX_ATTEMPTS + 1):
        # A fresh process claims all four (2 × concurrency): two run, two wait for a slot ...
        executor = Executor(store.jobs, [handler], clock=clock, settings=settings)
        handler.poison_running.clear()
        round_ = asyncio.create_task(executor.run_once())
        await asyncio.wait_for(handler.poison_running.wait(), timeout=10)
        # ... and it is SIGKILLed: nothing is given back, the leases run out.
        round_.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await round_
        assert await rows(store, POISON) == [("running", killed)] * len(POISON)
        assert await rows(store, WAITING) == [("running", 0)] * len(WAITING)
        clock.advance(seconds=LEASE_SECONDS + 1)
    executor = Executor(store.jobs, [handler], clock=clock, settings=settings)
    assert await executor.run_once() == len(POISON + WAITING)
    # The commits that ran each time are given up; those that never started run, once.
    gave_up = f"gave up after {MAX_ATTEMPTS} attempts (its holder stopped)"
    assert handler.gave_up == dict.fromkeys(POISON, gave_up)
    assert await rows(store, POISON) == [("failed", MAX_ATTEMPTS)] * len(POISON)
    assert await rows(store, WAITING) == [("done", 1)] * len(WAITING)
    assert handler.runs == {**dict.fromkeys(POISON, MAX_ATTEMPTS), **dict.fromkeys(WAITING, 1)}
