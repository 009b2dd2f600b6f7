"""The executor: claims due jobs, runs each in isolation under a heartbeat, records outcomes."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar, runtime_checkable

from structlog.contextvars import bound_contextvars

from bot.github.errors import InstallationSuspended
from bot.jobs.outcomes import Defer, Done, Fail, Outcome, Retry, RetryPolicy
from bot.runtime.background import BackgroundService
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.settings import Settings
from bot.store.job_payloads import JobPayload, PayloadInvalid, parse_payload
from bot.store.jobs import PRIORITY, Fenced, Job, JobKind, Jobs, LeaseLost

log = get_logger(__name__)

P_contra = TypeVar("P_contra", bound=JobPayload, contravariant=True)
# A job of a suspended installation waits for `unsuspend`, asking again this often in case
# that event never comes (each ask is one token request).
SUSPENDED_RECHECK = timedelta(hours=6)
# A claimed job as the store returns it: its payload the stored JSON, not validated yet.
Stored = Job[dict[str, Any]]


class JobHandler(Protocol[P_contra]):
    kind: JobKind
    retry: RetryPolicy

    async def run(self, job: Job[P_contra]) -> Outcome:
        """Do the job's work; raise or return Retry to try again later."""

    async def given_up(self, job: Job[P_contra], reason: str) -> None:
        """The job ended failed: record it where readers see it (the commit, the digest)."""


@runtime_checkable
class BatchedHandler(Protocol):
    """A kind whose due jobs may wait to be claimed together (the batching window), and
    whose claimed jobs of a round are prepared together (commits fetched in one call)."""

    async def ready(self, now: datetime) -> bool:
        """Whether this kind's due jobs are claimed this round."""

    async def prepare(self, jobs: Sequence[Job[Any]]) -> None:
        """Called with the round's claimed jobs of this kind before they run; never raises."""


@dataclass(frozen=True)
class GivenBack:
    """What a stopping executor did with the jobs it held: ended within the grace, given back
    (pending again, another replica takes them at once), or kept because the store could not
    be reached (taken over when their leases expire)."""

    finished: int = 0
    released: int = 0
    not_released: int = 0


class Executor(BackgroundService):
    """One failing job never stops the others: any exception is recorded with its reason and
    the job backed off as its kind's `RetryPolicy` says; after the last attempt it ends failed
    and says why. A holder whose lease was taken over (its heartbeat or a write finds the
    lease gone) stops at once. Only jobs that ended count as progress, so a job that keeps
    failing never makes the loop spin. On stop it claims nothing more, lets running jobs
    finish for a short grace, then gives back what it still holds."""

    name = "executor"

    def __init__(
        self,
        jobs: Jobs,
        handlers: Sequence[JobHandler[Any]],
        *,
        clock: Clock,
        settings: Settings,
        kinds: Sequence[JobKind] | None = None,
    ) -> None:
        super().__init__()
        self._jobs = jobs
        self._handlers: Mapping[JobKind, JobHandler[Any]] = {h.kind: h for h in handlers}
        self._clock = clock
        self._settings = settings
        self._kinds = kinds
        self._lease = timedelta(seconds=settings.worker_lease_seconds)
        self._slots = asyncio.Semaphore(settings.worker_concurrency)
        self._wakeup = asyncio.Event()
        self._owner = f"{socket.gethostname()[:40]}:{id(self) % 100_000}"
        self._stopping = False
        # Claimed and not yet recorded: given back if the process stops.
        self._held: dict[int, Job[Any]] = {}
        # Those of them that started running (their attempt counted): given back uncounted.
        self._started: set[int] = set()
        self._running: set[asyncio.Task[bool]] = set()
        # Set by `stop`.
        self.given_back = GivenBack()

    def wake(self) -> None:
        """New work was stored: start a round now instead of at the next poll."""
        self._wakeup.set()

    async def stop(self) -> None:
        """Claim nothing more; let running jobs finish briefly, then give the rest back."""
        self._stopping = True
        self._wakeup.set()
        held_at_stop = set(self._held)
        if self._running:
            _, pending = await asyncio.wait(
                set(self._running), timeout=self._settings.shutdown_grace_seconds
            )
            for task in pending:
                task.cancel()
        await super().stop()
        finished = len(held_at_stop - set(self._held))
        self.given_back = GivenBack(finished=finished)
        if self._held:
            held, started = list(self._held.values()), set(self._started)
            self._held.clear()
            self._started.clear()
            try:
                await self._jobs.release(held, self._clock.now(), started=started)
                log.info("executor_released_jobs", count=len(held))
                self.given_back = GivenBack(finished=finished, released=len(held))
            except Exception as exc:  # the store is going away too: the leases will expire
                log.warning("executor_release_failed", error=repr(exc))
                self.given_back = GivenBack(finished=finished, not_released=len(held))

    async def run(self) -> None:
        while not self._stopping:
            try:
                busy = await self.run_once()
            except Exception:
                # A round that fails (the database gone) must not end the executor.
                log.exception("executor_round_failed")
                busy = 0
            if not busy:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self._settings.worker_poll_seconds):
                        await self._wakeup.wait()
                self._wakeup.clear()

    async def run_once(self, *, kinds: Sequence[JobKind] | None = None) -> int:
        """One round (of these kinds only, if given); returns how many jobs ended (0: nothing
        could be finished now)."""
        if self._stopping:
            return 0
        now = self._clock.now()
        wanted = list(kinds or self._kinds or self._handlers)
        for kind in list(wanted):
            handler = self._handlers.get(kind)
            if isinstance(handler, BatchedHandler) and not await handler.ready(now):
                wanted.remove(kind)
        if not wanted:
            return 0
        # A batched kind is claimed on its own, a full batch of it (fetched together).
        batched = [k for k in wanted if isinstance(self._handlers.get(k), BatchedHandler)]
        plain = [k for k in wanted if k not in batched]
        stored: list[Stored] = []
        worn: list[tuple[Stored, str]] = []
        for group in ([plain] if plain else []) + [[k] for k in batched]:
            got, gone = await self._jobs.claim(
                now,
                owner=self._owner,
                limit=self._settings.worker_concurrency * 2,
                lease=self._lease,
                max_attempts={k: h.retry.attempts for k, h in self._handlers.items()},
                kinds=group,
            )
            stored += got
            worn += gone
        self._held.update({job.id: job for job in stored})
        claimed: list[Job[JobPayload]] = []
        ended = len(worn)
        for raw in stored:
            job = await self._typed(raw, now)
            if job is None:
                ended += 1
            else:
                claimed.append(job)
                self._held[job.id] = job
        claimed.sort(key=lambda job: _priority(job.kind))  # stable: claim order within a kind
        for raw, reason in worn:
            try:
                job = _with_model(raw)
            except PayloadInvalid:
                log.warning("job_failed", reason=reason)  # nothing to record it on
                continue
            await self._given_up(job, reason)
        for kind, handler in self._handlers.items():
            batch = [job for job in claimed if job.kind == kind]
            if batch and isinstance(handler, BatchedHandler):
                try:
                    await handler.prepare(batch)
                except Exception:  # preparing only saves calls: each job still does its own
                    log.exception("jobs_prepare_failed", kind=kind.value)
        # Tier by tier: a repository's config is read before its commits are analysed,
        # and the commits before their period is published.
        for _, tier in itertools.groupby(claimed, key=lambda job: _priority(job.kind)):
            tasks = [asyncio.create_task(self._bounded(job)) for job in tier]
            self._running.update(tasks)
            try:
                results = await asyncio.gather(*tasks)
            finally:
                self._running.difference_update(tasks)
            ended += sum(results)
        return ended

    async def drain(self, *, rounds: int = 100, kinds: Sequence[JobKind] | None = None) -> None:
        """Run rounds until nothing is left to do now (tests and the offline commands)."""
        for _ in range(rounds):
            if not await self.run_once(kinds=kinds):
                return

    async def _typed(self, raw: Stored, now: datetime) -> Job[JobPayload] | None:
        """The claimed job with its payload validated into its kind's model, once; None when
        it does not fit: no attempt could run it, so it fails for good at once."""
        try:
            return _with_model(raw)
        except PayloadInvalid as exc:
            with bound_contextvars(job=raw.kind.value, job_key=raw.key):
                log.warning("job_payload_invalid", reason=str(exc))
                # Reading it was its one attempt: it says "failed after 1 attempts", not 0.
                await self._jobs.started(raw, now, self._lease)
                await self._jobs.finish(raw, now, failed=str(exc))
            self._held.pop(raw.id, None)
            return None

    async def _bounded(self, job: Job[JobPayload]) -> bool:
        async with self._slots:
            if self._stopping:
                return False  # claimed, never started: `stop` gives it back
            with bound_contextvars(job=job.kind.value, job_key=job.key):
                # Its attempt is counted now that it runs, not when it was claimed: those
                # claimed with it that wait for a slot are not charged if the process dies.
                if not await self._jobs.started(job, self._clock.now(), self._lease):
                    log.warning("job_lease_lost")  # it waited past its lease: another has it
                    self._held.pop(job.id, None)
                    return False
                self._started.add(job.id)
                # Cancelled (the executor stopping): it stays held, and `stop` gives it back.
                ended = await self._run(job)
                self._held.pop(job.id, None)
                self._started.discard(job.id)
                return ended

    async def _run(self, job: Job[JobPayload]) -> bool:
        handler = self._handlers[job.kind]
        work = asyncio.create_task(handler.run(job))
        beat = asyncio.create_task(self._heartbeat(job, work))
        try:
            outcome: Outcome = await work
        except Fenced as exc:
            # Its repository was purged mid-run: nothing was written; the job has ended.
            log.info("job_fenced", reason=str(exc))
            outcome = Done()
        except LeaseLost:
            log.warning("job_lease_lost")
            return False
        except asyncio.CancelledError:
            if work.cancelled() and not beat.done():
                raise  # the executor itself is stopping
            log.warning("job_lease_lost")
            return False
        except InstallationSuspended as exc:
            # Paused, not failed: `unsuspend` wakes it; the recheck covers a missed event.
            log.info("job_paused_installation_suspended")
            outcome = Defer(str(exc), self._clock.now() + SUSPENDED_RECHECK)
        except Exception as exc:
            log.exception("job_crashed", attempt=job.attempts)
            outcome = Retry(f"{type(exc).__name__}: {exc}")
        finally:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
        return await self._record(job, handler, outcome)

    async def _record(
        self, job: Job[JobPayload], handler: JobHandler[Any], outcome: Outcome
    ) -> bool:
        jobs, now = self._jobs, self._clock.now()
        match outcome:
            case Done(recorded=True):
                return True
            case Done():
                if not await jobs.finish(job, now):
                    log.warning("job_lease_lost")
                return True
            case Defer(reason=reason, until=until):
                await jobs.retry(job, now, reason, until, spend=False)
                return False
            case Retry(reason=reason, at=at) if job.attempts < handler.retry.attempts:
                await jobs.retry(job, now, reason, at or handler.retry.backoff(now, job.attempts))
                return False
            case Retry(reason=reason):
                why = f"gave up after {job.attempts} attempts: {reason}"
                if await jobs.finish(job, now, failed=why):
                    await self._given_up(job, why)
                return True
            case Fail(reason=reason):
                if await jobs.finish(job, now, failed=reason):
                    await self._given_up(job, reason)
                return True
        raise AssertionError(f"unknown outcome {outcome!r}")

    async def _given_up(self, job: Job[JobPayload], reason: str) -> None:
        log.warning("job_failed", reason=reason)
        try:
            await self._handlers[job.kind].given_up(job, reason)
        except Exception:
            log.exception("job_given_up_failed")

    async def _heartbeat(self, job: Job[Any], work: asyncio.Task[Outcome]) -> None:
        """Keep the lease while the job runs; stop the job when the lease is lost."""
        interval = max(0.05, self._lease.total_seconds() / 3)
        while True:
            # Real time, not the injected clock: a fake clock's sleep would not wait.
            await asyncio.sleep(interval)
            try:
                kept = await self._jobs.heartbeat(job, self._clock.now(), self._lease)
            except Exception as exc:
                log.warning("job_heartbeat_failed", error=repr(exc))
                continue
            if not kept:
                work.cancel()
                return


def _with_model(raw: Stored) -> Job[JobPayload]:
    payload = parse_payload(raw.kind, raw.payload)
    return Job(raw.id, raw.kind, raw.key, payload, raw.attempts, raw.owner)


def _priority(kind: JobKind) -> int:
    return PRIORITY[kind]
