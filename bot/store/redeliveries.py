"""Redelivery requests: which webhook GUIDs the store has, and which the App asked GitHub for."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import schema as t

# Bound parameters per statement stay far below SQLite's and asyncpg's limits.
_CHUNK = 500
ASKING, ASKED, REFUSED = "asking", "asked", "refused"
# How long an `asking` claim may stay unsettled before another round takes it over.
CLAIM_STALE_AFTER = timedelta(minutes=10)


def _chunks(values: Collection[str]) -> Iterator[list[str]]:
    ordered = sorted(values)
    for start in range(0, len(ordered), _CHUNK):
        yield ordered[start : start + _CHUNK]


class Redeliveries:
    """One row per GUID the App asked GitHub to redeliver, claimed before the ask."""

    def __init__(self, engine: AsyncEngine, writer: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer

    async def recorded(self, guids: Collection[str]) -> set[str]:
        """The GUIDs among these that the webhook stored (its dedupe table)."""
        found: set[str] = set()
        async with self._engine.connect() as conn:
            for chunk in _chunks(guids):
                rows = await conn.execute(
                    sa.select(t.deliveries.c.id).where(t.deliveries.c.id.in_(chunk))
                )
                found.update(rows.scalars())
        return found

    async def asked(self, guids: Collection[str], *, stale_before: datetime) -> set[str]:
        """The GUIDs among these already asked for, or being asked for by a live claim."""
        r = t.redeliveries.c
        found: set[str] = set()
        async with self._engine.connect() as conn:
            for chunk in _chunks(guids):
                rows = await conn.execute(
                    sa.select(r.guid).where(
                        r.guid.in_(chunk),
                        sa.or_(r.state != ASKING, r.asked_at >= stale_before),
                    )
                )
                found.update(rows.scalars())
        return found

    async def claim(
        self,
        guid: str,
        *,
        hook_delivery_id: int,
        event: str,
        reason: str,
        now: datetime,
        stale_before: datetime,
    ) -> bool:
        """Take the right to ask for this GUID; False when it was asked (or is being asked)
        by this or another replica. A claim whose holder died is taken over once stale."""
        r = t.redeliveries.c
        values = {
            "hook_delivery_id": hook_delivery_id,
            "event": event,
            "reason": reason,
            "state": ASKING,
            "answer": None,
            "asked_at": now,
        }
        try:
            async with self._writer.begin() as conn:
                await conn.execute(sa.insert(t.redeliveries).values(guid=guid, **values))
        except IntegrityError:
            pass
        else:
            return True
        async with self._writer.begin() as conn:
            taken = await conn.execute(
                sa.update(t.redeliveries)
                .where(r.guid == guid, r.state == ASKING, r.asked_at < stale_before)
                .values(**values)
            )
        return bool(taken.rowcount)

    async def settle(self, guid: str, *, state: str, answer: str | None = None) -> None:
        """Record GitHub's answer to the ask: `asked` (202) or `refused` (4xx)."""
        r = t.redeliveries.c
        async with self._writer.begin() as conn:
            await conn.execute(
                sa.update(t.redeliveries).where(r.guid == guid).values(state=state, answer=answer)
            )

    async def release(self, guid: str) -> None:
        """Give a claim back after an ask that may not have reached GitHub: ask next round."""
        r = t.redeliveries.c
        async with self._writer.begin() as conn:
            await conn.execute(sa.delete(t.redeliveries).where(r.guid == guid, r.state == ASKING))

    async def prune(self, older_than: datetime) -> int:
        async with self._writer.begin() as conn:
            result = await conn.execute(
                sa.delete(t.redeliveries).where(t.redeliveries.c.asked_at < older_than)
            )
        return int(result.rowcount or 0)

    async def all(self) -> list[tuple[str, str, str]]:
        """(guid, state, reason) of every row, oldest first: for tests and operators."""
        r = t.redeliveries.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(r.guid, r.state, r.reason).order_by(r.asked_at, r.guid)
            )
            return [(g, s, why) for g, s, why in rows]
