"""`/digest` commands: what was decided about each (taken, refused, over a limit), decided once,
and the counts the limits are read from."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import schema as t
from bot.store.dialect import insert_for

c = t.commands.c

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


class Decision(StrEnum):
    TAKEN = "taken"
    DENIED = "denied"  # answered with who may
    DENIED_QUIET = "denied-quiet"  # already told today
    DENIED_OVER = "denied-over"  # the repository's refusal replies for the hour are spent
    LIMITED = "limited"  # answered with when to try again
    LIMITED_QUIET = "limited-quiet"  # already told a time that has not come yet


@dataclass(frozen=True)
class Limits:
    per_repository: int = 30
    per_person: int = 10
    # Replies saying who may, per repository an hour: anyone can ask, so each refusal is a
    # write the App makes for someone who may not command it.
    refusals: int = 10


@dataclass(frozen=True)
class RateEffect:
    """What a `rate` did, kept with it: its reply on a rerun is told from this."""

    sha: str
    previous: str | None
    importance: str
    day: date
    posted: bool
    analysed: bool
    excluded: bool
    # The day was posted before the commit came: an addendum adds it.
    late: bool = False

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "day": self.day.isoformat()}

    @classmethod
    def of_json(cls, data: dict[str, Any]) -> RateEffect:
        return cls(**{**data, "day": date.fromisoformat(data["day"])})


@dataclass(frozen=True)
class Decided:
    decision: Decision
    retry_at: datetime | None = None
    # What the command did, once it took effect (a `rate`).
    effect: RateEffect | None = None


@dataclass(frozen=True)
class Asked:
    """One command, as the decision needs it."""

    repo_id: int
    comment_id: int
    author: str
    thread: str
    received_at: datetime


class CommandLog:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def decided(self, repo_id: int, comment_id: int) -> Decided | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(c.decision, c.retry_at, c.effect).where(
                        c.repo_id == repo_id, c.comment_id == comment_id
                    )
                )
            ).first()
        if row is None:
            return None
        effect = RateEffect.of_json(row.effect) if row.effect else None
        return Decided(Decision(row.decision), row.retry_at, effect)

    @staticmethod
    async def took_effect(
        conn: AsyncConnection, repo_id: int, comment_id: int, effect: RateEffect
    ) -> None:
        """Record, in the transaction that made it, what the command did."""
        await conn.execute(
            sa.update(t.commands)
            .where(c.repo_id == repo_id, c.comment_id == comment_id)
            .values(effect=effect.as_json())
        )

    @staticmethod
    async def decide(
        conn: AsyncConnection, asked: Asked, *, allowed: bool, limits: Limits
    ) -> Decided:
        """Decide and record, in the caller's (lease-checked) transaction: refused (told once a
        day per person, within the repository's refusals an hour), over a limit (told when to
        try again, once until that time), or taken. A decision recorded
        before (a rerun) stands."""
        if conn.dialect.name == "postgresql":
            # Commands of one repository decide one at a time, so two cannot both take the
            # last place under a limit (SQLite's writer is one at a time already).
            await conn.execute(
                sa.select(t.repositories.c.id)
                .where(t.repositories.c.id == asked.repo_id)
                .with_for_update()
            )
        known = (
            await conn.execute(
                sa.select(c.decision, c.retry_at).where(
                    c.repo_id == asked.repo_id, c.comment_id == asked.comment_id
                )
            )
        ).first()
        if known is not None:
            return Decided(Decision(known.decision), known.retry_at)
        at = asked.received_at
        if not allowed:
            decided = await _refused(conn, asked, limits)
        else:
            decided = await _within_limits(conn, asked, limits)
        await conn.execute(
            insert_for(conn.dialect.name)(t.commands)
            .values(
                repo_id=asked.repo_id,
                comment_id=asked.comment_id,
                author=asked.author,
                thread=asked.thread,
                decision=decided.decision.value,
                retry_at=decided.retry_at,
                received_at=at,
            )
            .on_conflict_do_nothing()
        )
        return decided

    async def prune(self, older_than: datetime) -> int:
        """Forget commands older than any limit looks back."""
        async with self._engine.begin() as conn:
            result = await conn.execute(sa.delete(t.commands).where(c.received_at < older_than))
        return int(result.rowcount or 0)


async def _refused(conn: AsyncConnection, asked: Asked, limits: Limits) -> Decided:
    at = asked.received_at
    denied = sa.and_(
        c.repo_id == asked.repo_id,
        c.comment_id != asked.comment_id,
        c.decision == Decision.DENIED.value,
        c.received_at <= at,
    )
    told = await conn.scalar(
        sa.select(sa.func.count()).where(denied, c.author == asked.author, c.received_at > at - DAY)
    )
    if told:
        return Decided(Decision.DENIED_QUIET)
    replies = (
        await conn.scalar(sa.select(sa.func.count()).where(denied, c.received_at > at - HOUR)) or 0
    )
    return Decided(Decision.DENIED_OVER if replies >= limits.refusals else Decision.DENIED)


async def _within_limits(conn: AsyncConnection, asked: Asked, limits: Limits) -> Decided:
    at = asked.received_at
    recent = sa.and_(
        c.repo_id == asked.repo_id,
        c.comment_id != asked.comment_id,
        c.received_at > at - HOUR,
        c.received_at <= at,
    )
    taken = sa.and_(recent, c.decision == Decision.TAKEN.value)
    retry_at: datetime | None = None
    for extra, limit in (
        (sa.true(), limits.per_repository),
        (c.author == asked.author, limits.per_person),
    ):
        times = (
            (
                await conn.execute(
                    sa.select(c.received_at).where(taken, extra).order_by(c.received_at.desc())
                )
            )
            .scalars()
            .all()
        )
        if len(times) >= limit:
            # The place frees up when the oldest of the last `limit` leaves the hour.
            free = times[limit - 1] + HOUR
            retry_at = free if retry_at is None else max(retry_at, free)
    if retry_at is None:
        return Decided(Decision.TAKEN)
    # One "when" reply per wait: a new one is due once the time the last one gave has come.
    told = await conn.scalar(
        sa.select(sa.func.count()).where(
            recent,
            c.author == asked.author,
            c.decision == Decision.LIMITED.value,
            c.retry_at > at,
        )
    )
    return Decided(Decision.LIMITED_QUIET if told else Decision.LIMITED, retry_at)
