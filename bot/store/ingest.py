"""The ingest transaction as a plan of statements, run by an async or a sync driver.

A batch of deliveries becomes a handful of set-based statements, whatever its size. The plan
is a generator: it yields each statement and receives what the statement returned, so the
same code runs on the async engine (PostgreSQL) and on a synchronous SQLite connection in one
thread (aiosqlite pays a thread hop per driver call, about five per statement; ingest is the
hot path, so SQLite runs the whole transaction in one hop).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import Executable

from bot.github.errors import suspended_reason
from bot.store import schema as t
from bot.store.dialect import insert_for
from bot.store.job_payloads import (
    AnalyseCommitPayload,
    ExpandRangePayload,
    JobPayload,
    RefreshConfigPayload,
)
from bot.store.jobs import JobKind, JobState, enqueue_statement, job_row
from bot.store.records import (
    DeleteInstallation,
    IngestUnit,
    MarkConfigStale,
    NewCommit,
    Operation,
    RecordCommand,
    RecordPush,
    RemoveRepository,
    UpsertInstallation,
    UpsertRepository,
)

Step = tuple[Executable, list[dict[str, Any]] | None]
Plan = Generator[Step, list[Any] | None, list[bool]]

# Tables that hold a repository's data, keyed by `repo_id`.
PER_REPO_TABLES = (
    t.commits,
    t.analyses,
    t.digests,
    t.pushes,
    t.posts,
    t.commands,
    t.ratings,
    t.explained,
)


@dataclass(frozen=True)
class _Statements:
    """The bulk statements of ingest, built once per dialect (and so compiled once)."""

    deliveries: Any
    installations: Any
    repositories: Any
    pushes: Any
    commits: Any
    jobs: Any
    rearm_jobs: Any


@functools.cache
def _statements(dialect: str) -> _Statements:
    upsert: Any = insert_for(dialect)
    installations = upsert(t.installations)
    updated = ("account_login", "account_type", "suspended", "updated_at")
    repositories = upsert(t.repositories)
    excluded = repositories.excluded
    # A later event may carry less (installation events have no default branch): keep
    # what is known rather than overwrite it with nothing.
    keep = {
        c: sa.func.coalesce(excluded[c], t.repositories.c[c])
        for c in ("installation_id", "node_id", "default_branch")
    }
    return _Statements(
        deliveries=upsert(t.deliveries)
        .on_conflict_do_nothing(index_elements=["id"])
        .returning(t.deliveries.c.id),
        installations=installations.on_conflict_do_update(
            index_elements=["id"], set_={c: installations.excluded[c] for c in updated}
        ),
        repositories=repositories.on_conflict_do_update(
            index_elements=["id"],
            set_={
                **keep,
                "full_name": excluded.full_name,
                "updated_at": excluded.updated_at,
                "removed_at": sa.null(),  # added again: its work resumes, with its old rows
            },
        ),
        pushes=sa.insert(t.pushes),
        # A commit already stored (seen on an earlier push) keeps its first landing.
        commits=upsert(t.commits).on_conflict_do_nothing(index_elements=["repo_id", "sha"]),
        jobs=enqueue_statement(dialect, rearm=False),
        rearm_jobs=enqueue_statement(dialect, rearm=True),
    )


def ingest_plan(units: Sequence[IngestUnit], dialect: str) -> Plan:
    """Per unit: True when stored, False when its delivery id was already seen."""
    first: dict[str, IngestUnit] = {}
    for unit in units:
        first.setdefault(unit.delivery.id, unit)
    statements = _statements(dialect)
    returned = yield (
        statements.deliveries,
        [
            {"id": d.id, "event": d.event, "received_at": d.received_at}
            for d in (u.delivery for u in first.values())
        ],
    )
    new_ids = set(returned or ())
    segment: list[IngestUnit] = []
    for unit in (u for u in first.values() if u.delivery.id in new_ids):
        # Deletions run alone and in order, so that a push after an uninstall in the same
        # batch is not deleted with it and a push before it is.
        if any(isinstance(op, DeleteInstallation | RemoveRepository) for op in unit.operations):
            yield from _set_plan(segment, statements)
            segment = []
            # In order: `installation_repositories` may add and remove in one delivery.
            for op in unit.operations:
                if isinstance(op, DeleteInstallation | RemoveRepository):
                    yield from _delete_plan(op)
                else:
                    yield from _set_plan([IngestUnit(unit.delivery, [op])], statements)
        else:
            segment.append(unit)
    yield from _set_plan(segment, statements)
    return [first[u.delivery.id] is u and u.delivery.id in new_ids for u in units]


def _set_plan(units: Sequence[IngestUnit], statements: _Statements) -> Generator[Step, Any, None]:
    installs: dict[int, dict[str, Any]] = {}
    repos: dict[int, dict[str, Any]] = {}
    stale: set[int] = set()
    stale_owners: set[str] = set()
    pushes: list[tuple[RecordPush, datetime]] = []
    commands: list[tuple[RecordCommand, datetime]] = []
    for unit in units:
        now = unit.delivery.received_at
        for op in unit.operations:
            match op:
                case UpsertInstallation():
                    installs[op.id] = _installation_row(op, now)
                case UpsertRepository():
                    repos[op.id] = _merge_repository(repos.get(op.id), op, now)
                case MarkConfigStale():
                    stale.add(op.repo_id)
                    if op.owner:
                        stale_owners.add(op.owner.lower())
                case RecordPush():
                    pushes.append((op, now))
                case RecordCommand():
                    commands.append((op, now))
                case DeleteInstallation() | RemoveRepository():
                    yield from _delete_plan(op)
    if installs:
        yield statements.installations, list(installs.values())
        # Unsuspended (or created again): the jobs its suspension paused run now.
        for install in installs.values():
            if not install["suspended"]:
                yield _resume_paused(install["id"], install["updated_at"]), None
    if repos:
        yield statements.repositories, list(repos.values())
    # The work each delivery creates is enqueued in the same transaction as its data.
    jobs: dict[tuple[JobKind, str], dict[str, Any]] = {}

    def add(spec: JobPayload, at: datetime) -> None:
        jobs[(spec.kind, spec.key)] = job_row(spec, at)

    for repo_id, row in repos.items():
        # A repository first seen: read its config (an existing job is left alone).
        add(RefreshConfigPayload(repo_id=repo_id), row["updated_at"])
    for owner in sorted(stale_owners):
        # The owner's other repositories may start from the file that changed (the org's
        # `.github`, or an `_extends`): each reads its files again, conditionally (a 304 is
        # free). GitHub logins are letters, digits and hyphens: no LIKE wildcard in them.
        found = yield (
            sa.select(t.repositories.c.id).where(
                sa.func.lower(t.repositories.c.full_name).like(f"{owner}/%")
            ),
            None,
        )
        stale.update(found or ())
    if stale:
        # A push touched the config: read it again, even if it was read before.
        at = units[-1].delivery.received_at
        rearm = [job_row(RefreshConfigPayload(repo_id=r), at) for r in sorted(stale)]
        yield statements.rearm_jobs, rearm
    if pushes:
        yield statements.pushes, [_push_row(op) for op, _ in pushes]
        rows = [_commit_row(op, commit, now) for op, now in pushes for commit in op.commits]
        if rows:
            yield statements.commits, rows
        for op, now in pushes:
            if op.needs_expansion:
                add(ExpandRangePayload(delivery_id=op.delivery_id), now)
            for commit in op.commits:
                add(AnalyseCommitPayload(repo_id=op.repo_id, sha=commit.sha), now)
    for op, now in commands:
        add(op.payload, now)
    if jobs:
        yield statements.jobs, list(jobs.values())


def _resume_paused(installation_id: int, now: datetime) -> sa.Update:
    """Due now: the pending jobs paused by this installation's suspension (see the executor)."""
    return (
        sa.update(t.jobs)
        .where(
            t.jobs.c.state == JobState.PENDING.value,
            t.jobs.c.last_error == suspended_reason(installation_id),
        )
        .values(not_before=now, updated_at=now)
    )


def _delete_plan(op: Operation) -> Generator[Step, Any, None]:
    match op:
        case DeleteInstallation():
            # The repositories' rows first, locked (PostgreSQL) and by their ids: a job's
            # write that checks its repository under a shared lock (`Jobs.holding`) either
            # ends before this purge, and its rows are purged, or finds the repository gone.
            repo_ids = yield (
                sa.select(t.repositories.c.id)
                .where(t.repositories.c.installation_id == op.id)
                .with_for_update(),
                None,
            )
            ids = list(repo_ids or ())
            yield sa.delete(t.repositories).where(t.repositories.c.id.in_(ids)), None
            for table in PER_REPO_TABLES:
                yield sa.delete(table).where(table.c.repo_id.in_(ids)), None
            yield sa.delete(t.installations).where(t.installations.c.id == op.id), None
        case RemoveRepository():
            # Its post ledger stays: added again, a late commit of a posted day is an addendum.
            yield (
                sa.update(t.repositories)
                .where(t.repositories.c.id == op.id)
                .values(removed_at=op.at),
                None,
            )
        case _:
            raise TypeError(f"not a deletion: {op!r}")


async def run_async(conn: AsyncConnection, plan: Plan) -> list[bool]:
    try:
        step = next(plan)
        while True:
            result = await conn.execute(*step)
            step = plan.send(list(result.scalars()) if result.returns_rows else None)
    except StopIteration as done:
        outcome: list[bool] = done.value
        return outcome


def run_sync(conn: Connection, plan: Plan) -> list[bool]:
    try:
        step = next(plan)
        while True:
            statement, rows = step
            if rows and isinstance(statement, sa.Insert) and not statement.exported_columns:
                _executemany(conn, statement, rows)
                step = plan.send(None)
                continue
            result = conn.execute(statement, rows)
            step = plan.send(list(result.scalars()) if result.returns_rows else None)
    except StopIteration as done:
        outcome: list[bool] = done.value
        return outcome


@dataclass(frozen=True)
class _Prepared:
    sql: str
    names: tuple[str, ...]
    processors: tuple[Callable[[Any], Any] | None, ...]


# Keyed by the (long-lived, per-dialect) statement object and the row keys.
_prepared: dict[tuple[int, frozenset[str]], _Prepared] = {}


def _executemany(conn: Connection, statement: sa.Insert, rows: list[dict[str, Any]]) -> None:
    """executemany straight on the driver: SQLAlchemy compiles the statement once and its
    column types convert the values; its per-row bookkeeping (a few µs a value) is skipped.
    """
    keys = frozenset(rows[0])
    key = (id(statement), keys)
    prepared = _prepared.get(key)
    if prepared is None:
        compiled = statement.compile(dialect=conn.dialect, column_keys=sorted(keys))
        names = tuple(compiled.positiontup or ())
        columns = statement.table.c
        prepared = _Prepared(
            sql=str(compiled),
            names=names,
            # The dialect's own form of each type, as SQLAlchemy's execute uses: the generic
            # type's processor would leave SQLite's driver to write instants in a shorter form.
            processors=tuple(
                columns[n].type.dialect_impl(conn.dialect).bind_processor(conn.dialect)
                for n in names
            ),
        )
        _prepared[key] = prepared
    pairs = tuple(zip(prepared.names, prepared.processors, strict=True))
    params = [tuple(row[n] if p is None else p(row[n]) for n, p in pairs) for row in rows]
    conn.exec_driver_sql(prepared.sql, params)


def _installation_row(op: UpsertInstallation, now: datetime) -> dict[str, Any]:
    return {
        "id": op.id,
        "account_login": op.account_login,
        "account_type": op.account_type,
        "suspended": op.suspended,
        "created_at": now,
        "updated_at": now,
    }


def _merge_repository(
    known: dict[str, Any] | None, op: UpsertRepository, now: datetime
) -> dict[str, Any]:
    """One row per repository per statement (PostgreSQL refuses to upsert a row twice)."""
    row = {
        "id": op.id,
        "installation_id": op.installation_id,
        "full_name": op.full_name,
        "node_id": op.node_id,
        "default_branch": op.default_branch,
        "config_error_reported": False,
        "timezone": "UTC",
        "cutoff": "00:00",
        "active_since": now,
        "created_at": now,
        "updated_at": now,
    }
    if known is not None:
        for key in ("installation_id", "node_id", "default_branch"):
            if row[key] is None:
                row[key] = known[key]
        row["active_since"] = row["created_at"] = known["created_at"]
    return row


def _push_row(op: RecordPush) -> dict[str, Any]:
    return {
        "delivery_id": op.delivery_id,
        "repo_id": op.repo_id,
        "installation_id": op.installation_id,
        "ref": op.ref,
        "before": op.before,
        "after": op.after,
        "forced": op.forced,
        "created": op.created,
        "pushed_at": op.pushed_at,
        "listed": len(op.commits),
        "expand_state": "pending" if op.needs_expansion else None,
        "truncated": 0,
    }


def _commit_row(op: RecordPush, commit: NewCommit, now: datetime) -> dict[str, Any]:
    return commit_row(
        commit,
        repo_id=op.repo_id,
        installation_id=op.installation_id,
        delivery_id=op.delivery_id,
        landed_at=op.pushed_at,
        branch=op.branch,
        forced=op.forced,
        now=now,
    )


def commit_row(
    commit: NewCommit,
    *,
    repo_id: int,
    installation_id: int | None,
    delivery_id: str,
    landed_at: datetime,
    branch: str,
    forced: bool,
    now: datetime,
) -> dict[str, Any]:
    """The `commits` row of a commit a push landed, pending analysis."""
    return {
        "repo_id": repo_id,
        "sha": commit.sha,
        "installation_id": installation_id,
        "delivery_id": delivery_id,
        "position": commit.position,
        "landed_at": landed_at,
        "branch": branch,
        "forced": forced,
        "title": commit.title,
        "message": commit.message,
        "author_name": commit.author_name,
        "author_login": commit.author_login,
        "author_email": commit.author_email,
        "url": commit.url,
        "pr_number": commit.pr_number,
        "state": "pending",
        "created_at": now,
    }
