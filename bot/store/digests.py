"""Digests per (scope, period kind, period start), and the commits a period holds.

`pending -> published | skipped | failed`. The work of publishing is a `publish_period` job;
this table records the outcome. Which commits a period holds is computed from their landing
times and the window the current config gives the period, not stored at ingest.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.analysis import AnalysisResult
from bot.periods.days import DaySchedule
from bot.periods.period import Period
from bot.store import schema as t
from bot.store.commits import CommitState, store_analysis
from bot.store.dialect import insert_for
from bot.store.fence import repository_held

# At most this many pull requests and sha prefixes a day's reverts and fixes are looked up by.
MAX_NAMED = 100


class DigestState(StrEnum):
    PENDING = "pending"
    PUBLISHED = "published"
    SKIPPED = "skipped"
    FAILED = "failed"


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
    # A maintainer's rating (`/digest rate`): the importance shown instead of the analysis's,
    # and whether the commit's posted digest still waits to be edited to show it.
    rated: str | None = None
    rating_edit_pending: bool = False
    # When the App stored the commit, and when it was rated: how long its work has waited.
    stored_at: datetime | None = None
    rated_at: datetime | None = None
    # The day of the digest `published_part` belongs to (None: not posted, or posted before
    # migration 0016): the commit's day then, whatever the config in force now computes.
    published_day: date | None = None

    @property
    def shown(self) -> bool:
        """Listed in a posted part of a digest (not left out as excluded): it stays there,
        whatever `exclude` says since."""
        return self.published_part not in (None, "excluded")

    def day(self, schedule: DaySchedule) -> date:
        """The day the commit belongs to: the one it was posted in, else the one `schedule`
        (the config in force) gives its landing."""
        return self.published_day or schedule.day_of(self.landed_at)


def _where(repo_id: int, period: Period) -> Any:
    d = t.digests.c
    return sa.and_(
        d.repo_id == repo_id, d.period_kind == period.kind, d.period_start == period.start
    )


async def _add_record(
    conn: AsyncConnection, repo_id: int, period: Period, state: DigestState, now: datetime
) -> None:
    """The period's record in `state`, unless it has one."""
    await conn.execute(
        insert_for(conn.dialect.name)(t.digests)
        .values(
            repo_id=repo_id,
            period_kind=period.kind,
            period_start=period.start,
            state=state.value,
            late=False,
            created_at=now,
        )
        .on_conflict_do_nothing(index_elements=["repo_id", "period_kind", "period_start"])
    )


class Digests:
    def __init__(self, engine: AsyncEngine, writer: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer

    async def get(self, repo_id: int, period: Period) -> Any:
        async with self._engine.connect() as conn:
            return (await conn.execute(sa.select(t.digests).where(_where(repo_id, period)))).first()

    async def published(self, repo_id: int, period: Period) -> bool:
        """Whether the period's digest is posted."""
        record = await self.get(repo_id, period)
        return record is not None and record.state == DigestState.PUBLISHED

    @staticmethod
    async def ensure(conn: AsyncConnection, repo_id: int, period: Period, now: datetime) -> Any:
        """The period's record, created pending if new, locked for this transaction."""
        await _add_record(conn, repo_id, period, DigestState.PENDING, now)
        return (
            await conn.execute(
                sa.select(t.digests).where(_where(repo_id, period)).with_for_update()
            )
        ).one()

    @staticmethod
    async def finish(
        conn: AsyncConnection,
        repo_id: int,
        period: Period,
        *,
        state: DigestState,
        first: bool,
        shas: list[str],
        part_key: str,
        late: bool,
        now: datetime,
    ) -> None:
        """Close a publication and mark the commits it covered, with the day they were posted
        in (in the holder's transaction)."""
        values: dict[str, Any] = {"state": state.value, "last_error": None}
        if first:
            values.update(published_at=now, late=late)
        await conn.execute(sa.update(t.digests).where(_where(repo_id, period)).values(**values))
        if shas:
            await conn.execute(
                sa.update(t.commits)
                .where(t.commits.c.repo_id == repo_id, t.commits.c.sha.in_(shas))
                .values(published_part=part_key, published_day=period.start)
            )

    @staticmethod
    async def pass_over(conn: AsyncConnection, repo_id: int, period: Period, now: datetime) -> None:
        """Record a period that gets no post, as skipped (one with a record keeps it)."""
        await _add_record(conn, repo_id, period, DigestState.SKIPPED, now)

    async def fail(self, repo_id: int, period: Period, reason: str, now: datetime) -> None:
        async with self._writer.begin() as conn:
            if not await repository_held(conn, repo_id):
                return  # purged with its installation: nothing is written after the purge
            await self.ensure(conn, repo_id, period, now)
            await conn.execute(
                sa.update(t.digests)
                # A skipped day had nothing posted either: its late first publication failing
                # fails the day (else the scheduler would start the job over and over).
                .where(
                    _where(repo_id, period),
                    t.digests.c.state.in_([DigestState.PENDING.value, DigestState.SKIPPED.value]),
                )
                .values(state=DigestState.FAILED.value, last_error=reason[: t.MAX_ERROR_CHARS])
            )

    @staticmethod
    async def keep_narrative(
        conn: AsyncConnection, repo_id: int, period: Period, narrative: dict[str, Any]
    ) -> None:
        """Keep a week's narrative (in the holder's transaction, after `ensure`)."""
        await conn.execute(
            sa.update(t.digests)
            .where(_where(repo_id, period), t.digests.c.narrative.is_(None))
            .values(narrative=narrative)
        )

    async def reopen(
        self, repo_id: int, period: Period, *, skipped_too_at: datetime | None = None
    ) -> None:
        """Let a failed period be tried again (the `publish` command); with `skipped_too_at`
        (the time now), a skipped one too."""
        async with self._writer.begin() as conn:
            await conn.execute(
                sa.update(t.digests)
                .where(_where(repo_id, period), t.digests.c.state == DigestState.FAILED.value)
                .values(state=DigestState.PENDING.value, last_error=None)
            )
            if skipped_too_at is not None:
                # Nothing was posted for it: its first attempt at a post begins now (whether
                # that post is late is measured from it), not when it was skipped.
                await conn.execute(
                    sa.update(t.digests)
                    .where(_where(repo_id, period), t.digests.c.state == DigestState.SKIPPED.value)
                    .values(
                        state=DigestState.PENDING.value, last_error=None, created_at=skipped_too_at
                    )
                )

    async def published_starts(
        self, repo_id: int, kind: str, first: date, last: date
    ) -> list[date]:
        """The starts, from `first` to `last`, of a repository's published periods of a kind."""
        d = t.digests.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(d.period_start)
                .where(
                    d.repo_id == repo_id,
                    d.period_kind == kind,
                    d.period_start.between(first, last),
                    d.state == DigestState.PUBLISHED.value,
                )
                .order_by(d.period_start)
            )
            return [start for (start,) in rows]

    # --- what the scheduler looks at -------------------------------------------------------

    async def unpublished_landings(self) -> dict[int, dict[datetime, datetime]]:
        """Per repository, the landing instants of commits not yet in a published post, each
        with when the latest of its commits was stored."""
        c = t.commits.c
        landings: dict[int, dict[datetime, datetime]] = {}
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(c.repo_id, c.landed_at, sa.func.max(c.created_at))
                .where(c.published_part.is_(None))
                .group_by(c.repo_id, c.landed_at)
            )
            for repo_id, landed_at, stored_at in rows:
                landings.setdefault(repo_id, {})[landed_at] = stored_at
        return landings

    async def last_periods(self, kind: str = "day") -> dict[int, date]:
        """Per repository, the latest period that has a digest record."""
        d = t.digests.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(d.repo_id, sa.func.max(d.period_start))
                .where(d.period_kind == kind)
                .group_by(d.repo_id)
            )
            return {repo_id: start for repo_id, start in rows}

    async def ended_periods(self, kind: str, since: date) -> set[tuple[int, date]]:
        """(repository, start) of the periods of a kind starting on or after `since` that
        are over: published, skipped or failed."""
        d = t.digests.c
        ended = [DigestState.PUBLISHED.value, DigestState.SKIPPED.value, DigestState.FAILED.value]
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(d.repo_id, d.period_start).where(
                    d.period_kind == kind, d.period_start >= since, d.state.in_(ended)
                )
            )
            return {(r, s) for r, s in rows}

    async def failed_periods(self) -> set[tuple[int, str, date]]:
        d = t.digests.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(d.repo_id, d.period_kind, d.period_start).where(
                    d.state == DigestState.FAILED.value
                )
            )
            return {(r, k, s) for r, k, s in rows}

    async def unfinished(self, repo_id: int, start: datetime, end: datetime) -> int:
        """Commits of a window still waiting for their analysis and not yet published."""
        c = t.commits.c
        async with self._engine.connect() as conn:
            return int(
                (
                    await conn.execute(
                        sa.select(sa.func.count()).where(
                            c.repo_id == repo_id,
                            c.landed_at >= start,
                            c.landed_at < end,
                            c.state == CommitState.PENDING.value,
                            c.published_part.is_(None),
                        )
                    )
                ).scalar_one()
            )

    # --- the period's content ----------------------------------------------------------------

    async def window_commits(self, repo_id: int, start: datetime, end: datetime) -> list[DayCommit]:
        c = t.commits.c
        return await self._commits(c.landed_at >= start, c.landed_at < end, repo_id=repo_id)

    async def day_commits(
        self, repo_id: int, day: date, start: datetime, end: datetime
    ) -> list[DayCommit]:
        """A day's commits: those of its window [start, end) posted in no other day's digest,
        and those posted in its digest whose landing a `timezone` or `cutoff` changed since
        puts outside the window (no posted commit moves to another day). A commit posted
        before migration 0016 goes by its window."""
        c = t.commits.c
        mine = sa.or_(c.published_day.is_(None), c.published_day == day)
        window = await self._commits(c.landed_at >= start, c.landed_at < end, mine, repo_id=repo_id)
        outside = sa.or_(c.landed_at < start, c.landed_at >= end)
        moved = await self._commits(c.published_day == day, outside, repo_id=repo_id)
        if not moved:
            return window
        before = [m for m in moved if m.landed_at < start]
        return before + window + [m for m in moved if m.landed_at >= end]

    async def named_commits(
        self,
        repo_id: int,
        prs: Iterable[int],
        sha_prefixes: Iterable[str],
        *,
        before: datetime | None = None,
    ) -> list[DayCommit]:
        """Stored commits with one of these pull request numbers or sha prefixes (what a
        revert or a fix names, what a command asks about), however long ago they landed;
        landed before `before` where given."""
        c = t.commits.c
        # Bounded: a message naming hundreds of commits is not worth hundreds of lookups.
        numbers = sorted(set(prs))[:MAX_NAMED]
        prefixes = sorted({p.lower() for p in sha_prefixes if len(p) >= 7})[:MAX_NAMED]
        if not numbers and not prefixes:
            return []
        wanted: list[Any] = [c.pr_number.in_(numbers)] if numbers else []
        wanted += [c.sha.startswith(p, autoescape=True) for p in prefixes]
        landed = [c.landed_at < before] if before is not None else []
        return await self._commits(*landed, sa.or_(*wanted), repo_id=repo_id)

    async def commits_of(self, repo_id: int, shas: Collection[str]) -> list[DayCommit]:
        """These stored commits (an alert's, a fold's), in landing order."""
        if not shas:
            return []
        return await self._commits(t.commits.c.sha.in_(sorted(shas)), repo_id=repo_id)

    async def reverts_between(
        self, repo_id: int, start: datetime, end: datetime
    ) -> list[DayCommit]:
        """Commits landed in [start, end) that may be reverts (a title or a message saying
        so): the few an alert is checked against, instead of every commit of the days."""
        c = t.commits.c
        maybe = sa.or_(
            sa.func.lower(c.title).contains("revert", autoescape=True),
            sa.func.lower(c.message).contains("reverts commit", autoescape=True),
        )
        return await self._commits(c.landed_at >= start, c.landed_at < end, maybe, repo_id=repo_id)

    async def alert_worthy_between(
        self, repo_id: int, start: datetime, end: datetime
    ) -> list[DayCommit]:
        """Commits landed in [start, end) analysed as breaking or high: what a revert may
        cancel out with."""
        c, a = t.commits.c, t.analyses.c
        worthy = sa.or_(a.breaking.is_(True), a.importance == "high")
        return await self._commits(c.landed_at >= start, c.landed_at < end, worthy, repo_id=repo_id)

    async def _commits(self, *where: Any, repo_id: int) -> list[DayCommit]:
        c = t.commits.c
        a = t.analyses.c
        rt = t.ratings.c
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
                c.published_day,
                a.data,
                a.fallback_reason,
                rt.importance.label("rated"),
                rt.edit_pending,
                c.created_at.label("stored_at"),
                rt.rated_at,
            )
            .select_from(
                t.commits.outerjoin(
                    t.analyses, sa.and_(a.repo_id == c.repo_id, a.sha == c.sha)
                ).outerjoin(t.ratings, sa.and_(rt.repo_id == c.repo_id, rt.sha == c.sha))
            )
            .where(c.repo_id == repo_id, *where)
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
                rated=r.rated,
                rating_edit_pending=bool(r.edit_pending),
                stored_at=r.stored_at,
                rated_at=r.rated_at,
                published_day=r.published_day,
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

    @staticmethod
    async def force_analysis(
        conn: AsyncConnection, repo_id: int, sha: str, result: AnalysisResult, now: datetime
    ) -> bool:
        """Store the rules' analysis of a commit the analyse job did not finish (pending: it
        becomes analysed, and its job's late answer is refused) or could not do (failed: it
        stays failed, with the rules' analysis of its stored message)."""
        c = t.commits.c
        pending = await conn.execute(
            sa.update(t.commits)
            .where(c.repo_id == repo_id, c.sha == sha, c.state == CommitState.PENDING.value)
            .values(state=CommitState.ANALYZED.value)
        )
        if not pending.rowcount:
            failed = (
                await conn.execute(sa.select(c.state).where(c.repo_id == repo_id, c.sha == sha))
            ).scalar_one_or_none()
            if failed != CommitState.FAILED.value:
                return False
        await store_analysis(conn, repo_id, sha, result, now)
        return True
