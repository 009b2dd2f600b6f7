"""The job table: what a job is; enqueue, claim under a lease, heartbeat, record outcomes.

Due jobs are claimed with `FOR UPDATE SKIP LOCKED` on PostgreSQL (the write lock on SQLite),
so replicas never claim the same job. Every write for a claimed job checks that the lease
is still the claimer's (`lease_owner`, row counts), so a holder whose lease expired and was
taken over writes nothing and stops.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import schema as t
from bot.store.dialect import insert_for
from bot.store.fence import repository_held

j = t.jobs.c


class JobKind(StrEnum):
    REFRESH_CONFIG = "refresh_config"
    EXPAND_RANGE = "expand_range"
    ANALYSE_COMMIT = "analyse_commit"
    PUBLISH_PERIOD = "publish_period"
    PUBLISH_WEEK = "publish_week"
    SEND_ALERTS = "send_alerts"
    FOLD_ALERTS = "fold_alerts"
    RECOVER_DELIVERIES = "recover_deliveries"
    DIGEST_COMMAND = "digest_command"


class JobState(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


# Within one round, lower runs first: a repository's config before the commits it shapes,
# the commits before the period that publishes them. A `/digest` command goes first of all:
# someone is waiting for its answer. Alerts go before the analyses still
# waiting: they are due within a minute of the analysis that asked for them. A week goes after
# the days it links to.
PRIORITY: dict[JobKind, int] = {
    JobKind.DIGEST_COMMAND: -1,
    JobKind.REFRESH_CONFIG: 0,
    JobKind.EXPAND_RANGE: 1,
    JobKind.SEND_ALERTS: 1,
    JobKind.FOLD_ALERTS: 1,
    JobKind.ANALYSE_COMMIT: 2,
    JobKind.PUBLISH_PERIOD: 3,
    JobKind.PUBLISH_WEEK: 4,
    JobKind.RECOVER_DELIVERIES: 4,
}


class JobSpec(Protocol):
    """A job to enqueue: its kind's payload model (bot/store/job_payloads.py, which imports
    this module for JobKind, hence a protocol here)."""

    @property
    def kind(self) -> JobKind: ...

    @property
    def key(self) -> str: ...

    def stored(self) -> dict[str, Any]: ...


P_co = TypeVar("P_co", covariant=True)


@dataclass(frozen=True)
class Job(Generic[P_co]):
    """A claimed job: only the holder of `owner` may write for it while its lease lasts.
    Claimed, its payload is the stored JSON; the executor hands a job its kind's model."""

    id: int
    kind: JobKind
    key: str
    payload: P_co
    attempts: int  # including this one (counted in the store once it starts: `Jobs.started`)
    owner: str


class LeaseLost(Exception):
    """Another holder took the job over (this one's lease expired): stop, write nothing."""


class Fenced(LeaseLost):
    """The job's repository was purged (its installation deleted) while the job ran: it
    writes nothing, as if its lease were lost; run again, it finds no repository and ends."""


def job_row(spec: JobSpec, now: datetime, *, not_before: datetime | None = None) -> dict[str, Any]:
    """A new pending job, as a row for a bulk insert (ingest adds these in its transaction)."""
    return {
        "kind": spec.kind.value,
        "key": spec.key,
        "payload": spec.stored(),
        "state": JobState.PENDING.value,
        "priority": PRIORITY[spec.kind],
        "attempts": 0,
        "not_before": not_before or now,
        "created_at": now,
        "updated_at": now,
    }


def enqueue_statement(dialect: str, *, rearm: bool) -> Any:
    """Insert jobs; an existing (kind, key) is left as it is, or with `rearm` made pending
    again when it had finished (a config touched again, a period with new commits) and
    marked to run once more when it is running now (its holder may have read its input
    before the new work was stored)."""
    insert = insert_for(dialect)(t.jobs)
    if not rearm:
        return insert.on_conflict_do_nothing(index_elements=["kind", "key"])
    # Literal values throughout: ingest runs this statement as a driver-level executemany,
    # which takes no bound parameters of the statement's own (nor an expanding IN).
    running = j.state == sa.literal_column(f"'{JobState.RUNNING.value}'")

    def unless_running(name: str, new: Any) -> Any:
        return sa.case((running, j[name]), else_=new)

    return insert.on_conflict_do_update(
        index_elements=["kind", "key"],
        set_={
            **{
                k: unless_running(k, insert.excluded[k])
                for k in ("state", "attempts", "not_before")
            },
            "payload": insert.excluded.payload,
            "last_error": unless_running("last_error", sa.null()),
            "rerun": sa.case((running, sa.true()), else_=sa.false()),
            "updated_at": insert.excluded.updated_at,
        },
        where=sa.text(
            f"jobs.state IN ('{JobState.DONE.value}', '{JobState.FAILED.value}', "
            f"'{JobState.RUNNING.value}')"
        ),
    )


def _finished(now: datetime) -> dict[str, Any]:
    """A holder's success: done, or pending again (a fresh run) when it was asked to rerun."""
    return {
        "state": sa.case(
            (j.rerun, sa.literal(JobState.PENDING.value)), else_=sa.literal(JobState.DONE.value)
        ),
        "attempts": sa.case((j.rerun, 0), else_=j.attempts),
        # Typed as the column: a bare datetime here would be bound as an untyped timestamp.
        "not_before": sa.case((j.rerun, sa.literal(now, t.UTCDateTime)), else_=j.not_before),
        "rerun": sa.false(),
        "lease_owner": None,
        "lease_until": None,
        "last_error": None,
        "updated_at": now,
    }


def _due(now: datetime) -> Any:
    return sa.or_(
        sa.and_(j.state == JobState.PENDING.value, j.not_before <= now),
        sa.and_(j.state == JobState.RUNNING.value, j.lease_until <= now),
    )


class Jobs:
    def __init__(self, engine: AsyncEngine, writer: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer

    async def enqueue(
        self,
        spec: JobSpec,
        now: datetime,
        *,
        rearm: bool = False,
        not_before: datetime | None = None,
    ) -> None:
        async with self._writer.begin() as conn:
            await Jobs.enqueue_in(conn, [spec], now, rearm=rearm, not_before=not_before)

    async def schedule_now(self, spec: JobSpec, now: datetime) -> None:
        """Make the job due now: enqueued (or armed again) if it ended, brought forward if it
        waits; one that is running is left to its holder."""
        async with self._writer.begin() as conn:
            await Jobs.enqueue_in(conn, [spec], now, rearm=True)
            await Jobs.bring_forward_in(conn, spec.kind, spec.key, now)

    async def bring_forward(self, kind: JobKind, key: str, now: datetime) -> None:
        """A pending job waiting out a backoff (or a deferral) made due now."""
        async with self._writer.begin() as conn:
            await Jobs.bring_forward_in(conn, kind, key, now)

    @staticmethod
    async def bring_forward_in(
        conn: AsyncConnection, kind: JobKind, key: str, now: datetime
    ) -> None:
        await conn.execute(
            sa.update(t.jobs)
            .where(
                j.kind == kind.value,
                j.key == key,
                j.state == JobState.PENDING.value,
                j.not_before > now,
            )
            .values(not_before=now, updated_at=now)
        )

    @staticmethod
    async def enqueue_in(
        conn: AsyncConnection,
        specs: Iterable[JobSpec],
        now: datetime,
        *,
        rearm: bool = False,
        not_before: datetime | None = None,
    ) -> None:
        """Enqueue inside the caller's transaction (so the job exists iff its data does)."""
        rows = {(s.kind, s.key): job_row(s, now, not_before=not_before) for s in specs}
        if rows:
            await conn.execute(
                enqueue_statement(conn.dialect.name, rearm=rearm), list(rows.values())
            )

    async def claim(
        self,
        now: datetime,
        *,
        owner: str,
        limit: int,
        lease: timedelta,
        max_attempts: dict[JobKind, int],
        kinds: Sequence[JobKind] | None = None,
    ) -> tuple[list[Job[dict[str, Any]]], list[tuple[Job[dict[str, Any]], str]]]:
        """Lease up to `limit` due jobs, in priority order. Also returns the jobs whose holder
        kept dying (lease expired with no attempt left), now failed, with their reason.

        The attempt is not counted here but when the job starts (`started`): the executor
        claims more jobs than it runs at once, and a holder killed while some still waited
        for a slot must not charge them a run they never had. Each job is returned with
        `attempts` as it will be once started."""
        async with self._writer.begin() as conn:
            query = (
                sa.select(j.id, j.kind, j.key, j.payload, j.attempts, j.state)
                .where(_due(now))
                .order_by(j.priority, j.not_before, j.id)
                .limit(limit)
                .with_for_update(skip_locked=True)
            )
            if kinds is not None:
                query = query.where(j.kind.in_([k.value for k in kinds]))
            candidates = (await conn.execute(query)).all()
            fresh = []
            worn: list[tuple[Job[dict[str, Any]], str]] = []
            for row in candidates:
                kind = JobKind(row.kind)
                reason = None
                if not isinstance(row.payload, dict | None):
                    # Not one the App wrote (a hand edit, a restore): it can never run, and
                    # failing later would take the rest of this claim down with it.
                    reason = f"payload is not a JSON object ({type(row.payload).__name__})"
                elif row.state == JobState.RUNNING.value and row.attempts >= max_attempts[kind]:
                    reason = f"gave up after {row.attempts} attempts (its holder stopped)"
                if reason is not None:
                    await conn.execute(
                        sa.update(t.jobs)
                        .where(j.id == row.id)
                        .values(
                            state=JobState.FAILED.value,
                            lease_owner=None,
                            lease_until=None,
                            last_error=reason,
                            updated_at=now,
                        )
                    )
                    payload = row.payload if isinstance(row.payload, dict) else {}
                    worn.append((Job(row.id, kind, row.key, payload, row.attempts, ""), reason))
                else:
                    fresh.append(row)
            if not fresh:
                return [], worn
            token = f"{owner}:{secrets.token_hex(8)}"
            await conn.execute(
                sa.update(t.jobs)
                .where(j.id.in_([r.id for r in fresh]))
                .values(
                    state=JobState.RUNNING.value,
                    lease_owner=token,
                    lease_until=now + lease,
                    updated_at=now,
                )
            )
        claimed = [
            Job(r.id, JobKind(r.kind), r.key, dict(r.payload or {}), r.attempts + 1, token)
            for r in fresh
        ]
        return claimed, worn

    def _held(self, job: Job[Any]) -> sa.Update:
        return sa.update(t.jobs).where(
            j.id == job.id, j.lease_owner == job.owner, j.state == JobState.RUNNING.value
        )

    @asynccontextmanager
    async def holding(
        self, job: Job[Any], now: datetime, *, finish: bool = False
    ) -> AsyncIterator[AsyncConnection]:
        """A write transaction that happens only while `job`'s lease is still its holder's;
        with `finish`, the same transaction marks the job done (its last write).

        The check is an UPDATE of the job's row, so on PostgreSQL the row stays locked until
        the transaction ends: nobody can take the job over in between. Raises LeaseLost.
        """
        values: dict[str, Any] = _finished(now) if finish else {"updated_at": now}
        repo_id = getattr(job.payload, "repo_id", None)
        async with self._writer.begin() as conn:
            # The repository's row before the job's: in the order a delivery's ingest locks
            # them (a repository upserted, then its jobs enqueued), so the two never deadlock.
            if isinstance(repo_id, int) and not await repository_held(conn, repo_id):
                raise Fenced(f"job {job.kind}:{job.key}: repository {repo_id} was purged")
            held = await conn.execute(self._held(job).values(**values))
            if not held.rowcount:
                raise LeaseLost(f"job {job.kind}:{job.key} is no longer held by this executor")
            yield conn

    async def started(self, job: Job[Any], now: datetime, lease: timedelta) -> bool:
        """The holder starts running `job`: its attempt is counted, and its lease runs from
        now (it may have waited for a slot since it was claimed); False when it was lost."""
        async with self._writer.begin() as conn:
            held = await conn.execute(
                self._held(job).values(
                    attempts=j.attempts + 1, lease_until=now + lease, updated_at=now
                )
            )
            return bool(held.rowcount)

    async def heartbeat(self, job: Job[Any], now: datetime, lease: timedelta) -> bool:
        """Extend the lease; False when it was lost."""
        async with self._writer.begin() as conn:
            held = await conn.execute(self._held(job).values(lease_until=now + lease))
            return bool(held.rowcount)

    async def finish(self, job: Job[Any], now: datetime, *, failed: str | None = None) -> bool:
        """Done (or failed, with the reason); False when the lease was lost."""
        values: dict[str, Any] = _finished(now)
        if failed:
            # A failure stays failed: enqueueing it again later arms it afresh.
            values.update(state=JobState.FAILED.value, last_error=failed[: t.MAX_ERROR_CHARS])
            del values["attempts"], values["not_before"]
        async with self._writer.begin() as conn:
            return bool((await conn.execute(self._held(job).values(**values))).rowcount)

    async def retry(
        self, job: Job[Any], now: datetime, reason: str, at: datetime, *, spend: bool = True
    ) -> bool:
        """Back to pending until `at`; `spend=False` gives the attempt back (a rate limit)."""
        values: dict[str, Any] = {
            "state": JobState.PENDING.value,
            "lease_owner": None,
            "lease_until": None,
            "not_before": at,
            "last_error": reason[: t.MAX_ERROR_CHARS],
            "rerun": False,  # it runs again anyway
            "updated_at": now,
        }
        if not spend:
            values["attempts"] = j.attempts - 1
        async with self._writer.begin() as conn:
            return bool((await conn.execute(self._held(job).values(**values))).rowcount)

    async def release(
        self, held: Sequence[Job[Any]], now: datetime, *, started: Collection[int] = ()
    ) -> None:
        """Give back jobs a stopping executor holds: pending now. The attempt of those among
        them that had `started` (by id) is given back too; the others were never counted."""
        async with self._writer.begin() as conn:
            for job in held:
                attempts = j.attempts - 1 if job.id in started else j.attempts
                await conn.execute(
                    self._held(job).values(
                        state=JobState.PENDING.value,
                        lease_owner=None,
                        lease_until=None,
                        not_before=now,
                        attempts=attempts,
                        updated_at=now,
                    )
                )

    async def get(self, kind: JobKind, key: str) -> Any:
        async with self._engine.connect() as conn:
            return (
                await conn.execute(sa.select(t.jobs).where(j.kind == kind.value, j.key == key))
            ).first()

    async def finish_pending(
        self, conn: AsyncConnection, kind: JobKind, keys: Sequence[str], now: datetime
    ) -> None:
        """Mark pending jobs done whose work another path already did (in its transaction)."""
        if keys:
            await conn.execute(
                sa.update(t.jobs)
                .where(
                    j.kind == kind.value, j.key.in_(list(keys)), j.state == JobState.PENDING.value
                )
                .values(state=JobState.DONE.value, updated_at=now)
            )

    async def failed_at(self, kind: JobKind) -> dict[str, datetime]:
        """The jobs of a kind that ended failed, by key, with when they failed."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(j.key, j.updated_at).where(
                    j.kind == kind.value, j.state == JobState.FAILED.value
                )
            )
            return {key: at for key, at in rows}

    async def prune_done(self, older_than: datetime) -> int:
        """Forget jobs that ended well before `older_than` (failed ones are kept)."""
        async with self._writer.begin() as conn:
            result = await conn.execute(
                sa.delete(t.jobs).where(j.state == JobState.DONE.value, j.updated_at < older_than)
            )
        return int(result.rowcount or 0)

    async def oldest_waiting(self, now: datetime) -> datetime | None:
        """Since when the job due longest has been due and unclaimed: a pending job from its
        not-before time, a running one whose holder stopped from its lease's end."""
        since = sa.case((j.state == JobState.RUNNING.value, j.lease_until), else_=j.not_before)
        async with self._engine.connect() as conn:
            oldest: datetime | None = await conn.scalar(
                sa.select(sa.type_coerce(sa.func.min(since), t.UTCDateTime)).where(_due(now))
            )
        return oldest

    async def count_by_state(self) -> dict[str, int]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(j.kind, j.state, sa.func.count()).group_by(j.kind, j.state)
            )
            return {f"{kind}:{state}": int(n) for kind, state, n in rows}
