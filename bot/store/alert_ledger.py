"""The alerts' rows of the post ledger: which commit was alerted or folded, whatever its day.

A commit's alert is the post `alert-<sha>` of its day's period (`alerts:<date>`); a commit
folded into its day's "more alerts" post has a row of the same key, of kind `folded`, which
is never a post of its own. So one lookup by key tells whether a commit was ever alerted,
and where, whatever the config says its day is now. A folded row's `parent` names the "more
alerts" post it was written into (`alerts-more`, or `alerts-more-2`, ...: a day's later fold,
made where alerts go once the first could no longer be reached); none yet, the next write of
the day's current fold takes it.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import schema as t
from bot.store.dialect import in_chunks, insert_for
from bot.store.posts import PostKind, PostState, Recorded, recorded_row

p = t.posts.c

ALERT_PREFIX = "alert-"
ALERT_PERIOD = "alerts:"
FOLD_KEY = "alerts-more"
FOLDED = PostKind.FOLDED.value
# pg_advisory_xact_lock(int, int) keys of a repository's alert decisions (a space of its own).
_LOCK_CLASS = 0x0A1E


def alert_period(day: date) -> str:
    """The post ledger's period of a day's alerts (the digest's own is `day:<date>`)."""
    return f"{ALERT_PERIOD}{day.isoformat()}"


def day_of_period(period: str) -> date:
    return date.fromisoformat(period.removeprefix(ALERT_PERIOD))


def fold_key(number: int) -> str:
    """The ledger's key of a day's `number`-th "more alerts" post (the first: `FOLD_KEY`)."""
    return FOLD_KEY if number <= 1 else f"{FOLD_KEY}-{number}"


def fold_number(key: str) -> int:
    """The inverse of `fold_key`."""
    suffix = key.removeprefix(FOLD_KEY).removeprefix("-")
    return int(suffix) if suffix.isdigit() else 1


def _is_fold(key: sa.ColumnElement[str]) -> sa.ColumnElement[bool]:
    return sa.or_(key == FOLD_KEY, key.startswith(f"{FOLD_KEY}-", autoescape=True))


class AlertLedger:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def find(self, repo_id: int, sha: str) -> tuple[str, Recorded] | None:
        """The commit's alert or fold row, and its period, in whatever day it was made."""
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(t.posts)
                    .where(
                        p.repo_id == repo_id,
                        p.key == ALERT_PREFIX + sha,
                        p.period.startswith(ALERT_PERIOD, autoescape=True),
                    )
                    .order_by(p.created_at)
                    .limit(1)
                )
            ).first()
        return None if row is None else (row.period, recorded_row(row))

    async def own_alerts(self, repo_id: int, shas: Collection[str]) -> set[str]:
        """Those of these commits that got an alert of their own (not folded), any day."""
        if not shas:
            return set()
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(p.key).where(
                    p.repo_id == repo_id,
                    p.key.in_([ALERT_PREFIX + s for s in shas]),
                    p.period.startswith(ALERT_PERIOD, autoescape=True),
                    p.kind != FOLDED,
                )
            )
            return {key.removeprefix(ALERT_PREFIX) for key in rows.scalars()}

    async def folded(self, repo_id: int, period: str) -> dict[str, str | None]:
        """The commits folded on that day: sha -> the key of the "more alerts" post it was
        written into (None: not written into one yet)."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(p.key, p.parent).where(
                    p.repo_id == repo_id, p.period == period, p.kind == FOLDED
                )
            )
            return {key.removeprefix(ALERT_PREFIX): parent for key, parent in rows}

    async def fold_posts(self, repo_id: int, period: str) -> list[tuple[Recorded, datetime]]:
        """The day's "more alerts" posts as recorded, first made first, and when each was
        last written."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(t.posts).where(p.repo_id == repo_id, p.period == period, _is_fold(p.key))
            )
            made = [(recorded_row(row), row.updated_at) for row in rows]
        return sorted(made, key=lambda m: fold_number(m[0].key))

    @staticmethod
    async def written_into(
        conn: AsyncConnection, repo_id: int, period: str, shas: Collection[str], key: str
    ) -> None:
        """These folded commits are in the "more alerts" post `key` now (those not in one)."""
        for chunk in in_chunks(shas):
            await conn.execute(
                sa.update(t.posts)
                .where(
                    p.repo_id == repo_id,
                    p.period == period,
                    p.key.in_([ALERT_PREFIX + s for s in chunk]),
                    p.kind == FOLDED,
                    p.parent.is_(None),
                )
                .values(parent=key)
            )

    @staticmethod
    async def lock(conn: AsyncConnection, repo_id: int) -> None:
        """Serialise a repository's alert decisions until this transaction ends (SQLite's
        writers are serialised already)."""
        if conn.dialect.name == "postgresql":
            await conn.execute(
                sa.text("SELECT pg_advisory_xact_lock(:a, :b)"),
                {"a": _LOCK_CLASS, "b": repo_id % 2**31},
            )

    @staticmethod
    async def own_count(conn: AsyncConnection, repo_id: int, period: str) -> int:
        """The day's alerts with a post of their own, made or being made."""
        count = await conn.scalar(
            sa.select(sa.func.count()).where(
                p.repo_id == repo_id,
                p.period == period,
                p.key.startswith(ALERT_PREFIX, autoescape=True),
                p.kind != FOLDED,
            )
        )
        return int(count or 0)

    @staticmethod
    async def fold_in(
        conn: AsyncConnection, repo_id: int, period: str, sha: str, now: datetime
    ) -> None:
        stmt = insert_for(conn.dialect.name)(t.posts).values(
            repo_id=repo_id,
            period=period,
            key=ALERT_PREFIX + sha,
            kind=FOLDED,
            state=PostState.POSTED.value,
            created_at=now,
            updated_at=now,
        )
        await conn.execute(stmt.on_conflict_do_nothing())

    @staticmethod
    async def folds(
        conn: AsyncConnection,
        repo_id: int,
        *,
        shas: Collection[str] = (),
        landed: tuple[datetime, datetime] | None = None,
    ) -> dict[date, datetime | None]:
        """The days that folded any of these commits, or any commit landed in [start, end]
        (`landed`), each with when its "more alerts" post was last written (None: not yet)."""
        c = t.commits.c
        query = sa.select(p.period).where(
            p.repo_id == repo_id,
            p.kind == FOLDED,
            p.period.startswith(ALERT_PERIOD, autoescape=True),
        )
        periods: set[str] = set()
        for chunk in in_chunks(shas):
            rows = await conn.execute(query.where(p.key.in_([ALERT_PREFIX + s for s in chunk])))
            periods.update(rows.scalars())
        if landed is not None:
            near = (
                sa.select(c.sha)
                .where(
                    c.repo_id == repo_id,
                    p.key == sa.literal(ALERT_PREFIX) + c.sha,
                    c.landed_at >= landed[0],
                    c.landed_at <= landed[1],
                )
                .exists()
            )
            periods.update((await conn.execute(query.where(near))).scalars())
        return {
            day_of_period(period): await AlertLedger.fold_written_at(conn, repo_id, period)
            for period in sorted(periods)
        }

    @staticmethod
    async def fold_written_at(conn: AsyncConnection, repo_id: int, period: str) -> datetime | None:
        """When one of the day's "more alerts" posts was last written."""
        at: datetime | None = await conn.scalar(
            sa.select(sa.func.max(p.updated_at)).where(
                p.repo_id == repo_id, p.period == period, _is_fold(p.key)
            )
        )
        return at

    @staticmethod
    async def undecided_before(
        conn: AsyncConnection,
        repo_id: int,
        *,
        job_kind: str,
        sha: str,
        landed_at: datetime,
        since: datetime,
    ) -> int:
        """Commits landed since `since` and before this one (by landing time, then sha) whose
        alert job (`job_kind`, keyed `<repo>/<sha>`) is still to decide: they take the day's
        alerts first, so the commits analysed together are decided in landing order."""
        j, c = t.jobs.c, t.commits.c
        keys = await conn.execute(
            sa.select(j.key).where(
                j.kind == job_kind,
                j.state.in_(["pending", "running"]),
                j.key.startswith(f"{repo_id}/", autoescape=True),
            )
        )
        shas = [k.split("/", 1)[1] for k in keys.scalars() if k.split("/", 1)[1] != sha]
        if not shas:
            return 0
        earlier = sa.or_(c.landed_at < landed_at, sa.and_(c.landed_at == landed_at, c.sha < sha))
        decided = (
            sa.select(p.key)
            .where(
                p.repo_id == repo_id,
                p.key == sa.literal(ALERT_PREFIX) + c.sha,
                p.period.startswith(ALERT_PERIOD, autoescape=True),
            )
            .exists()
        )
        count = await conn.scalar(
            sa.select(sa.func.count()).where(
                c.repo_id == repo_id,
                c.sha.in_(shas[:500]),
                c.landed_at >= since,
                earlier,
                sa.not_(decided),
            )
        )
        return int(count or 0)
