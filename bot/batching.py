"""The worker's batching window: pending commits wait up to `WORKER_BATCH_SECONDS` so that
commits landing close together are fetched with one compare call and one GraphQL query
(see `bot/prefetch.py`), but never past the point where their digest would miss them: a
commit whose day ends within the window is taken at once."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.days import DaySchedule
from bot.repo_config import parse_cutoff
from bot.store import schema as t


async def batch_ready(engine: AsyncEngine, now: datetime, window: timedelta) -> bool:
    """Whether a pending commit has waited the window out or its day ends within it."""
    c, r = t.commits.c, t.repositories.c
    query = (
        sa.select(c.day, c.created_at, r.timezone, r.cutoff)
        .select_from(t.commits.join(t.repositories, r.id == c.repo_id))
        .where(
            c.state.in_(("pending", "analyzing")),
            sa.or_(c.lease_until.is_(None), c.lease_until <= now),
        )
    )
    schedules: dict[tuple[str, str], DaySchedule] = {}
    async with engine.connect() as conn:
        for day, created_at, zone, cutoff in await conn.execute(query):
            if created_at <= now - window:
                return True
            key = (zone, cutoff)
            try:
                if key not in schedules:
                    schedules[key] = DaySchedule(zone, parse_cutoff(cutoff))
                ends = schedules[key].end_of(day)
            except (ValueError, KeyError):
                return True  # a day we cannot place is not held back
            if ends - now <= window:
                return True
    return False
