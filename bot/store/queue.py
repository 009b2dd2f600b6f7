"""The queue of pending work: commits to fetch and analyse, push ranges to expand.

Work is claimed with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL, the write lock on
SQLite), so a crashed worker's work returns to the queue when its lease expires, and only
the holder of the lease token may complete it: no commit is analysed twice at once.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.analysis import AnalysisResult
from bot.store import schema as t
from bot.store.ingest import commit_row
from bot.store.records import NewCommit


@dataclass(frozen=True)
class ClaimedCommit:
    repo_id: int
    sha: str
    full_name: str
    installation_id: int | None
    title: str
    message: str
    author_name: str
    author_login: str | None
    pr_number: int | None
    attempts: int
    token: str
    config: dict[str, Any] | None


@dataclass(frozen=True)
class ClaimedRange:
    delivery_id: str
    repo_id: int
    full_name: str
    installation_id: int | None
    default_branch: str | None
    branch: str
    before: str | None
    after: str
    forced: bool
    pushed_at: datetime
    attempts: int
    token: str
    config: dict[str, Any] | None


_CLAIMABLE = sa.and_(
    t.commits.c.state.in_(("pending", "analyzing")),
    sa.or_(t.commits.c.lease_until.is_(None), t.commits.c.lease_until <= sa.bindparam("now")),
)


class WorkQueue:
    def __init__(self, engine: AsyncEngine, writer: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer

    # --- commits ---------------------------------------------------------------------------

    async def claim_commits(
        self, now: datetime, *, limit: int, lease: timedelta, max_attempts: int
    ) -> list[ClaimedCommit]:
        """Lease up to `limit` commits, oldest landing first; give up on worn-out ones."""
        token = secrets.token_hex(16)
        async with self._writer.begin() as conn:
            candidates = (
                await conn.execute(
                    sa.select(t.commits.c.repo_id, t.commits.c.sha, t.commits.c.attempts)
                    .where(_CLAIMABLE)
                    .order_by(t.commits.c.landed_at, t.commits.c.position)
                    .limit(limit)
                    .with_for_update(skip_locked=True),
                    {"now": now},
                )
            ).all()
            worn = [(r.repo_id, r.sha) for r in candidates if r.attempts >= max_attempts]
            fresh = [(r.repo_id, r.sha) for r in candidates if r.attempts < max_attempts]
            for repo_id, sha in worn:
                await conn.execute(
                    _commit(repo_id, sha).values(
                        state="failed",
                        lease_token=None,
                        lease_until=None,
                        last_error=f"gave up after {max_attempts} attempts",
                    )
                )
            if not fresh:
                return []
            keys = sa.tuple_(t.commits.c.repo_id, t.commits.c.sha).in_(fresh)
            await conn.execute(
                sa.update(t.commits)
                .where(keys)
                .values(
                    state="analyzing",
                    lease_until=now + lease,
                    lease_token=token,
                    attempts=t.commits.c.attempts + 1,
                )
            )
            rows = (
                await conn.execute(
                    sa.select(
                        t.commits,
                        t.repositories.c.full_name,
                        t.repositories.c.config,
                        t.repositories.c.installation_id.label("repo_installation_id"),
                    )
                    .join(t.repositories, t.repositories.c.id == t.commits.c.repo_id)
                    .where(keys)
                    .order_by(t.commits.c.landed_at, t.commits.c.position)
                )
            ).all()
        return [
            ClaimedCommit(
                repo_id=r.repo_id,
                sha=r.sha,
                full_name=r.full_name,
                installation_id=r.installation_id or r.repo_installation_id,
                title=r.title,
                message=r.message,
                author_name=r.author_name,
                author_login=r.author_login,
                pr_number=r.pr_number,
                attempts=r.attempts,
                token=token,
                config=r.config,
            )
            for r in rows
        ]

    async def save_details(self, claim: ClaimedCommit, details: dict[str, Any]) -> None:
        async with self._writer.begin() as conn:
            await conn.execute(_held(claim).values(details=details))

    async def complete(self, claim: ClaimedCommit, result: AnalysisResult, now: datetime) -> bool:
        """Store the analysis if the lease is still ours; False if another worker took over."""
        async with self._writer.begin() as conn:
            updated = await conn.execute(
                _held(claim).values(
                    state="analyzed", lease_token=None, lease_until=None, last_error=None
                )
            )
            if not updated.rowcount:
                return False
            await store_analysis(conn, claim.repo_id, claim.sha, result, now)
        return True

    async def retry(self, claim: ClaimedCommit, error: str, not_before: datetime) -> None:
        async with self._writer.begin() as conn:
            await conn.execute(
                _held(claim).values(
                    state="pending",
                    lease_token=None,
                    lease_until=not_before,
                    last_error=error[:2000],
                )
            )

    async def defer(self, claim: ClaimedCommit, error: str, until: datetime) -> None:
        """Back to the queue until `until` without spending an attempt (a rate limit)."""
        async with self._writer.begin() as conn:
            await conn.execute(
                _held(claim).values(
                    state="pending",
                    lease_token=None,
                    lease_until=until,
                    last_error=error[:2000],
                    attempts=t.commits.c.attempts - 1,
                )
            )

    async def release(self, claims: list[ClaimedCommit]) -> None:
        """Give back commits a stopping worker holds: pending again, the attempt not counted."""
        async with self._writer.begin() as conn:
            for claim in claims:
                await conn.execute(
                    _held(claim).values(
                        state="pending",
                        lease_token=None,
                        lease_until=None,
                        attempts=t.commits.c.attempts - 1,
                    )
                )

    async def fail(self, claim: ClaimedCommit, reason: str) -> None:
        async with self._writer.begin() as conn:
            await conn.execute(
                _held(claim).values(
                    state="failed", lease_token=None, lease_until=None, last_error=reason[:2000]
                )
            )

    # --- push ranges -----------------------------------------------------------------------

    async def claim_ranges(
        self, now: datetime, *, limit: int, lease: timedelta
    ) -> list[ClaimedRange]:
        token = secrets.token_hex(16)
        p = t.pushes
        async with self._writer.begin() as conn:
            ids = (
                (
                    await conn.execute(
                        sa.select(p.c.delivery_id)
                        .where(
                            p.c.expand_state.in_(("pending", "expanding")),
                            sa.or_(p.c.lease_until.is_(None), p.c.lease_until <= now),
                        )
                        .order_by(p.c.pushed_at)
                        .limit(limit)
                        .with_for_update(skip_locked=True)
                    )
                )
                .scalars()
                .all()
            )
            if not ids:
                return []
            await conn.execute(
                sa.update(p)
                .where(p.c.delivery_id.in_(ids))
                .values(
                    expand_state="expanding",
                    lease_until=now + lease,
                    lease_token=token,
                    attempts=p.c.attempts + 1,
                )
            )
            rows = (
                await conn.execute(
                    sa.select(
                        p,
                        t.repositories.c.full_name,
                        t.repositories.c.default_branch,
                        t.repositories.c.config,
                        t.repositories.c.installation_id.label("repo_installation_id"),
                    )
                    .join(t.repositories, t.repositories.c.id == p.c.repo_id)
                    .where(p.c.delivery_id.in_(ids))
                )
            ).all()
        return [
            ClaimedRange(
                delivery_id=r.delivery_id,
                repo_id=r.repo_id,
                full_name=r.full_name,
                installation_id=r.installation_id or r.repo_installation_id,
                default_branch=r.default_branch,
                branch=r.ref.removeprefix("refs/heads/"),
                before=r.before,
                after=r.after,
                forced=r.forced,
                pushed_at=r.pushed_at,
                attempts=r.attempts,
                token=token,
                config=r.config,
            )
            for r in rows
        ]

    async def complete_range(
        self,
        claim: ClaimedRange,
        commits: list[NewCommit],
        *,
        day: date,
        truncated: int,
        now: datetime,
    ) -> int:
        """Store the range's commits (those not stored yet); returns how many were new."""
        async with self._writer.begin() as conn:
            held = await conn.execute(
                sa.update(t.pushes)
                .where(
                    t.pushes.c.delivery_id == claim.delivery_id,
                    t.pushes.c.lease_token == claim.token,
                )
                .values(
                    expand_state="done",
                    lease_token=None,
                    lease_until=None,
                    expanded=len(commits),
                    truncated=truncated,
                )
            )
            if not held.rowcount or not commits:
                return 0
            rows = [
                commit_row(
                    c,
                    repo_id=claim.repo_id,
                    installation_id=claim.installation_id,
                    delivery_id=claim.delivery_id,
                    landed_at=claim.pushed_at,
                    day=day,
                    branch=claim.branch,
                    forced=claim.forced,
                    now=now,
                )
                for c in commits
            ]
            result = await conn.execute(
                _upsert(conn)(t.commits)
                .on_conflict_do_nothing(index_elements=["repo_id", "sha"])
                .returning(t.commits.c.sha),
                rows,
            )
            return len(result.all())

    async def release_range(
        self, claim: ClaimedRange, error: str, *, not_before: datetime | None, give_up: bool
    ) -> None:
        async with self._writer.begin() as conn:
            await conn.execute(
                sa.update(t.pushes)
                .where(
                    t.pushes.c.delivery_id == claim.delivery_id,
                    t.pushes.c.lease_token == claim.token,
                )
                .values(
                    expand_state="failed" if give_up else "pending",
                    lease_token=None,
                    lease_until=not_before,
                    last_error=error[:2000],
                )
            )


def _commit(repo_id: int, sha: str) -> sa.Update:
    return sa.update(t.commits).where(t.commits.c.repo_id == repo_id, t.commits.c.sha == sha)


def _held(claim: ClaimedCommit) -> sa.Update:
    return _commit(claim.repo_id, claim.sha).where(t.commits.c.lease_token == claim.token)


def _upsert(conn: AsyncConnection) -> Any:
    return postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert


async def store_analysis(
    conn: AsyncConnection, repo_id: int, sha: str, result: AnalysisResult, now: datetime
) -> None:
    analysis = result.analysis
    values = {
        "analyzer": analysis.analyzer,
        "importance": analysis.importance.value,
        "change_types": [c.value for c in analysis.change_types],
        "breaking": analysis.breaking,
        "data": analysis.model_dump(mode="json"),
        "input_tokens": result.input_tokens,
        "output_tokens": result.output_tokens,
        "fallback_reason": result.fallback_reason,
        "created_at": now,
        "cached_input_tokens": result.cached_input_tokens,
        "route": result.route,
        "patch_id": result.patch_id,
    }
    stmt = _upsert(conn)(t.analyses).values(repo_id=repo_id, sha=sha, **values)
    await conn.execute(stmt.on_conflict_do_update(index_elements=["repo_id", "sha"], set_=values))
