"""Digest publication as a state machine per (repository, day), and the day's commits to render.

`pending -> publishing -> published | skipped | failed`. Publishing is claimed with a lease,
so two replicas never publish the same day at once; every part is recorded the moment it is
posted, so a restart edits or skips what exists instead of posting it again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.analysis import AnalysisResult
from bot.store import schema as t
from bot.store.queue import store_analysis


@dataclass(frozen=True)
class ClaimedDigest:
    repo_id: int
    day: date
    token: str
    state_before: str
    parts: list[dict[str, Any]]
    attempts: int
    target: str | None


@dataclass(frozen=True)
class DayCommit:
    sha: str
    title: str
    message: str
    url: str
    author_name: str
    author_login: str | None
    landed_at: datetime
    state: str
    last_error: str | None
    details: dict[str, Any] | None
    published_part: str | None
    analysis: dict[str, Any] | None
    fallback_reason: str | None


class Digests:
    def __init__(self, engine: AsyncEngine, writer: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer

    def _insert(self) -> Any:
        return postgresql.insert if self._engine.dialect.name == "postgresql" else sqlite.insert

    async def claim(
        self, repo_id: int, day: date, now: datetime, *, lease: timedelta, addendum: bool = False
    ) -> ClaimedDigest | None:
        """Take the day's publication; None if another holds it or it needs nothing."""
        d = t.digests.c
        token = secrets.token_hex(16)
        async with self._writer.begin() as conn:
            await conn.execute(
                self._insert()(t.digests)
                .values(
                    repo_id=repo_id, day=day, state="pending", attempts=0, parts=[], created_at=now
                )
                .on_conflict_do_nothing(index_elements=["repo_id", "day"])
            )
            row = (
                await conn.execute(
                    sa.select(t.digests).where(d.repo_id == repo_id, d.day == day).with_for_update()
                )
            ).one()
            published = row.published_at is not None
            free = row.state == ("published" if addendum else "pending") and (
                row.lease_until is None or row.lease_until <= now
            )
            # A publisher that died mid-way: its lease expired, take over the same kind of work.
            expired = (
                row.state == "publishing"
                and row.lease_until is not None
                and row.lease_until <= now
                and published == addendum
            )
            if not (free or expired):
                return None
            await conn.execute(
                sa.update(t.digests)
                .where(d.repo_id == repo_id, d.day == day)
                .values(
                    state="publishing",
                    lease_until=now + lease,
                    lease_token=token,
                    attempts=d.attempts + 1,
                )
            )
        return ClaimedDigest(
            repo_id=repo_id,
            day=day,
            token=token,
            state_before="published" if published else "pending",
            parts=list(row.parts or []),
            attempts=row.attempts + 1,
            target=row.target,
        )

    def _held(self, claim: ClaimedDigest) -> sa.Update:
        d = t.digests.c
        return sa.update(t.digests).where(
            d.repo_id == claim.repo_id, d.day == claim.day, d.lease_token == claim.token
        )

    async def record_part(self, claim: ClaimedDigest, part: dict[str, Any], *, target: str) -> None:
        """Remember a posted part at once (replacing an earlier record of the same key)."""
        kept = [p for p in claim.parts if p.get("key") != part["key"]]
        claim.parts[:] = [*kept, part]
        async with self._writer.begin() as conn:
            await conn.execute(self._held(claim).values(parts=list(claim.parts), target=target))

    async def finish(
        self,
        claim: ClaimedDigest,
        *,
        state: str,
        shas: list[str],
        part_key: str,
        late: bool,
        now: datetime,
    ) -> None:
        """Close the publication and mark the commits it covered as published."""
        async with self._writer.begin() as conn:
            values: dict[str, Any] = {
                "state": state,
                "lease_until": None,
                "lease_token": None,
                "last_error": None,
            }
            if claim.state_before != "published":
                values.update(published_at=now, late=late)
            await conn.execute(self._held(claim).values(**values))
            if shas:
                await conn.execute(
                    sa.update(t.commits)
                    .where(t.commits.c.repo_id == claim.repo_id, t.commits.c.sha.in_(shas))
                    .values(published_part=part_key)
                )

    async def release(
        self, claim: ClaimedDigest, error: str, *, not_before: datetime | None, give_up: bool
    ) -> None:
        """Give the publication back (to retry at `not_before`) or mark it failed."""
        state = claim.state_before if not give_up else "failed"
        async with self._writer.begin() as conn:
            await conn.execute(
                self._held(claim).values(
                    state=state,
                    lease_token=None,
                    lease_until=not_before,
                    last_error=error[:2000],
                )
            )

    async def get(self, repo_id: int, day: date) -> Any:
        async with self._engine.connect() as conn:
            return (
                await conn.execute(
                    sa.select(t.digests).where(
                        t.digests.c.repo_id == repo_id, t.digests.c.day == day
                    )
                )
            ).first()

    async def reopen(self, repo_id: int, day: date) -> None:
        """Let a failed day be tried again (the `publish` command)."""
        async with self._writer.begin() as conn:
            await conn.execute(
                sa.update(t.digests)
                .where(
                    t.digests.c.repo_id == repo_id,
                    t.digests.c.day == day,
                    t.digests.c.state == "failed",
                )
                .values(state="pending", lease_until=None)
            )

    # --- the day's content -----------------------------------------------------------------

    async def days_to_publish(self) -> dict[int, set[date]]:
        """Per repository, the days with commits not yet in a published post."""
        c = t.commits.c
        days: dict[int, set[date]] = {}
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(c.repo_id, c.day).where(c.published_part.is_(None)).distinct()
            )
            for repo_id, day in rows:
                days.setdefault(repo_id, set()).add(day)
        return days

    async def last_days(self) -> dict[int, date]:
        """Per repository, the latest day that has a digest record."""
        d = t.digests.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(sa.select(d.repo_id, sa.func.max(d.day)).group_by(d.repo_id))
            return {repo_id: day for repo_id, day in rows}

    async def day_commits(self, repo_id: int, day: date) -> list[DayCommit]:
        c = t.commits.c
        a = t.analyses.c
        query = (
            sa.select(
                c.sha,
                c.title,
                c.message,
                c.url,
                c.author_name,
                c.author_login,
                c.landed_at,
                c.state,
                c.last_error,
                c.details,
                c.published_part,
                a.data,
                a.fallback_reason,
            )
            .select_from(
                t.commits.outerjoin(t.analyses, sa.and_(a.repo_id == c.repo_id, a.sha == c.sha))
            )
            .where(c.repo_id == repo_id, c.day == day)
            .order_by(c.landed_at, c.position)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            DayCommit(
                sha=r.sha,
                title=r.title,
                message=r.message,
                url=r.url,
                author_name=r.author_name,
                author_login=r.author_login,
                landed_at=r.landed_at,
                state=r.state,
                last_error=r.last_error,
                details=r.details,
                published_part=r.published_part,
                analysis=r.data,
                fallback_reason=r.fallback_reason,
            )
            for r in rows
        ]

    async def pushes_between(self, repo_id: int, start: datetime, end: datetime) -> tuple[int, int]:
        """(force pushes, commits of expanded pushes left unlisted) in a window."""
        p = t.pushes.c
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(
                        sa.func.count().filter(p.forced.is_(True)),
                        sa.func.coalesce(sa.func.sum(p.truncated), 0),
                    ).where(p.repo_id == repo_id, p.pushed_at >= start, p.pushed_at < end)
                )
            ).one()
        return int(row[0] or 0), int(row[1] or 0)

    async def force_analysis(
        self, repo_id: int, sha: str, result: AnalysisResult, now: datetime
    ) -> None:
        """Store an analysis for a commit the worker did not finish in time (its lease voided)."""
        async with self._writer.begin() as conn:
            updated = await conn.execute(
                sa.update(t.commits)
                .where(
                    t.commits.c.repo_id == repo_id,
                    t.commits.c.sha == sha,
                    t.commits.c.state.in_(("pending", "analyzing")),
                )
                .values(state="analyzed", lease_token=None, lease_until=None)
            )
            if updated.rowcount:
                await store_analysis(conn, repo_id, sha, result, now)
