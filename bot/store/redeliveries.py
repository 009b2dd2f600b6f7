"""Redelivery requests: which webhook GUIDs the store has, and which the App asked GitHub for."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import schema as t
from bot.store.dialect import in_chunks

ASKING, ASKED, REFUSED, DELIVERED = "asking", "asked", "refused", "delivered"
# How long an `asking` claim may stay unsettled before another round takes it over.
CLAIM_STALE_AFTER = timedelta(minutes=10)
# A GUID asked for but still not stored is asked again after a backoff that doubles from
# `FIRST_RETRY` up to `LONGEST_RETRY`, for as long as GitHub redelivers it: until its window
# (3 days from when it was first delivered, FACTS.md §1) closes. GitHub refusing it ends it
# too.
FIRST_RETRY = timedelta(minutes=5)
LONGEST_RETRY = timedelta(hours=6)


def retry_after(asks: int) -> timedelta:
    """How long after its `asks`-th ask a GUID still not stored is asked again."""
    doubled: timedelta = FIRST_RETRY * 2 ** max(asks - 1, 0)
    return min(doubled, LONGEST_RETRY)


@dataclass(frozen=True)
class Ask:
    """A GUID the App asked for (or is asking for), as the table holds it."""

    guid: str
    hook_delivery_id: int
    event: str
    reason: str
    state: str
    asks: int
    asked_at: datetime
    next_ask_at: datetime | None
    delivered_at: datetime | None


def _due(now: datetime, stale_before: datetime, window_start: datetime) -> sa.ColumnElement[bool]:
    """Rows whose GUID may be asked for now: a claim whose holder died, or an ask whose
    redelivery has not been stored by the time its backoff ran out, while GitHub's window
    for it is open (delivered since `window_start`)."""
    r = t.redeliveries.c
    return sa.and_(
        sa.or_(
            sa.and_(r.state == ASKING, r.asked_at < stale_before),
            sa.and_(r.state == ASKED, r.next_ask_at <= now),
        ),
        sa.func.coalesce(r.delivered_at, r.asked_at) >= window_start,
    )


def _ask(row: Any) -> Ask:
    return Ask(
        guid=row.guid,
        hook_delivery_id=row.hook_delivery_id,
        event=row.event,
        reason=row.reason,
        state=row.state,
        asks=row.asks,
        asked_at=row.asked_at,
        next_ask_at=row.next_ask_at,
        delivered_at=row.delivered_at,
    )


class Redeliveries:
    """One row per GUID the App asked GitHub to redeliver, claimed before each ask, and
    asked again with backoff until the webhook stores it (then `delivered`)."""

    def __init__(self, engine: AsyncEngine, writer: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer

    async def recorded(self, guids: Collection[str]) -> set[str]:
        """The GUIDs among these that the webhook stored (its dedupe table)."""
        found: set[str] = set()
        async with self._engine.connect() as conn:
            for chunk in in_chunks(guids):
                rows = await conn.execute(
                    sa.select(t.deliveries.c.id).where(t.deliveries.c.id.in_(chunk))
                )
                found.update(rows.scalars())
        return found

    async def held(
        self,
        guids: Collection[str],
        *,
        now: datetime,
        stale_before: datetime,
        window_start: datetime,
    ) -> set[str]:
        """The GUIDs among these not to ask for now: refused, delivered, being asked for by a
        live claim, asked and within their backoff, or past GitHub's window."""
        r = t.redeliveries.c
        due = _due(now, stale_before, window_start)
        found: set[str] = set()
        async with self._engine.connect() as conn:
            for chunk in in_chunks(guids):
                rows = await conn.execute(sa.select(r.guid).where(r.guid.in_(chunk), sa.not_(due)))
                found.update(rows.scalars())
        return found

    async def due(
        self, *, now: datetime, stale_before: datetime, window_start: datetime
    ) -> list[Ask]:
        """Asks to make again now, whether or not the round's listing still shows them (a
        later round lists back only an hour): oldest first, delivered since `window_start`."""
        r = t.redeliveries.c
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(t.redeliveries)
                .where(_due(now, stale_before, window_start))
                .order_by(r.asked_at, r.guid)
            )
            return [_ask(row) for row in rows]

    async def claim(
        self,
        guid: str,
        *,
        hook_delivery_id: int,
        event: str,
        reason: str,
        delivered_at: datetime,
        now: datetime,
        stale_before: datetime,
        window_start: datetime,
    ) -> bool:
        """Take the right to ask for this GUID (first delivered at `delivered_at`); False when
        it was asked (or is being asked) by this or another replica and is not due again. A
        claim whose holder died is taken over once stale, an ask not yet delivered once its
        backoff ran out, both while GitHub's window for it is open."""
        r = t.redeliveries.c
        values: dict[str, Any] = {
            "hook_delivery_id": hook_delivery_id,
            "event": event,
            "reason": reason,
            "state": ASKING,
            "answer": None,
            "asked_at": now,
        }
        try:
            async with self._writer.begin() as conn:
                await conn.execute(
                    sa.insert(t.redeliveries).values(
                        guid=guid, asks=0, delivered_at=delivered_at, **values
                    )
                )
        except IntegrityError:
            pass
        else:
            return True
        async with self._writer.begin() as conn:
            taken = await conn.execute(
                sa.update(t.redeliveries)
                .where(r.guid == guid, _due(now, stale_before, window_start))
                .values(
                    delivered_at=sa.func.coalesce(
                        r.delivered_at, sa.literal(delivered_at, t.UTCDateTime)
                    ),
                    **values,
                )
            )
        return bool(taken.rowcount)

    async def asked(self, guid: str, *, now: datetime, window: timedelta) -> tuple[int, bool]:
        """GitHub accepted the ask (202): counted, and due again after its backoff unless the
        webhook stores the GUID by then. Returns how many times it has been asked, and
        whether this was the last ask (the next would fall past GitHub's `window`)."""
        r = t.redeliveries.c
        async with self._writer.begin() as conn:
            row = (
                await conn.execute(
                    sa.select(r.asks, r.delivered_at, r.asked_at).where(r.guid == guid)
                )
            ).one()
            count = int(row.asks or 0) + 1
            again = now + retry_after(count)
            await conn.execute(
                sa.update(t.redeliveries)
                .where(r.guid == guid)
                .values(state=ASKED, asks=count, next_ask_at=again)
            )
        return count, again - window > (row.delivered_at or row.asked_at)

    async def settle(self, guid: str, *, state: str, answer: str | None = None) -> None:
        """Record an end: `refused` (GitHub answered 4xx) or `delivered`."""
        r = t.redeliveries.c
        async with self._writer.begin() as conn:
            await conn.execute(
                sa.update(t.redeliveries).where(r.guid == guid).values(state=state, answer=answer)
            )

    async def delivered(self, guids: Collection[str]) -> int:
        """The asks among these GUIDs that the webhook has since stored: never asked again."""
        r = t.redeliveries.c
        count = 0
        async with self._writer.begin() as conn:
            for chunk in in_chunks(guids):
                done = await conn.execute(
                    sa.update(t.redeliveries)
                    .where(r.guid.in_(chunk), r.state.in_([ASKING, ASKED]))
                    .values(state=DELIVERED)
                )
                count += int(done.rowcount or 0)
        return count

    async def release(self, guid: str) -> None:
        """Give a claim back after an ask that may not have reached GitHub: ask next round.
        A GUID asked before keeps its count, due at once."""
        r = t.redeliveries.c
        async with self._writer.begin() as conn:
            await conn.execute(
                sa.delete(t.redeliveries).where(r.guid == guid, r.state == ASKING, r.asks == 0)
            )
            await conn.execute(
                sa.update(t.redeliveries)
                .where(r.guid == guid, r.state == ASKING)
                .values(state=ASKED, next_ask_at=r.asked_at)
            )

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
