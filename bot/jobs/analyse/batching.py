"""The batching window of `analyse_commit` jobs: pending commits wait up to
`WORKER_BATCH_SECONDS` so that
commits landing close together are fetched with one compare call and one GraphQL query
(see `prefetch.py`), but never past the point where their digest would miss them: a
commit whose day ends within the window is taken at once."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.periods.days import DaySchedule
from bot.repo_config import parse_cutoff
from bot.store import schema as t
from bot.store.commits import CommitState
from bot.store.jobs import JobKind, JobState


async def batch_ready(engine: AsyncEngine, now: datetime, window: timedelta) -> bool:
    """Whether a commit whose analysis is due has waited the window out or its day ends
    within it (then every due analysis is claimed: they are fetched together)."""
    c, r, j = t.commits.c, t.repositories.c, t.jobs.c
    key = sa.cast(c.repo_id, sa.String) + "/" + c.sha  # AnalyseCommitPayload.key, in SQL
    query = (
        sa.select(c.landed_at, c.created_at, r.timezone, r.cutoff)
        .select_from(
            t.commits.join(t.repositories, r.id == c.repo_id).join(
                t.jobs, sa.and_(j.kind == JobKind.ANALYSE_COMMIT.value, j.key == key)
            )
        )
        .where(
            c.state == CommitState.PENDING.value,
            sa.or_(
                sa.and_(j.state == JobState.PENDING.value, j.not_before <= now),
                sa.and_(j.state == JobState.RUNNING.value, j.lease_until <= now),
            ),
        )
    )
    schedules: dict[tuple[str, str], DaySchedule] = {}
    async with engine.connect() as conn:
        for landed_at, created_at, zone, cutoff in await conn.execute(query):
            if created_at <= now - window:
                return True
            key_ = (zone, cutoff)
            try:
                if key_ not in schedules:
                    schedules[key_] = DaySchedule(zone, parse_cutoff(cutoff))
                schedule = schedules[key_]
                ends = schedule.end_of(schedule.day_of(landed_at))
            except (ValueError, KeyError):
                return True  # a day we cannot place is not held back
            if ends - now <= window:
                return True
    return False
