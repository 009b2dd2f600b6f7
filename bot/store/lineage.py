"""Where claimed commits sit on their branch: their push's `before` and `after`, so that a
run of consecutive pushes can be fetched with one compare call."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import schema as t


@dataclass(frozen=True)
class PushOf:
    branch: str
    delivery_id: str | None
    before: str | None
    after: str | None
    # A created branch or a force push: no base to compare with.
    linear: bool


async def pushes_of(
    engine: AsyncEngine, keys: list[tuple[int, str]]
) -> dict[tuple[int, str], PushOf]:
    """The push each commit arrived with (commits of expanded ranges included)."""
    if not keys:
        return {}
    c, p = t.commits.c, t.pushes.c
    query = (
        sa.select(c.repo_id, c.sha, c.branch, c.delivery_id, p.before, p.after, p.forced, p.created)
        .select_from(t.commits.outerjoin(t.pushes, p.delivery_id == c.delivery_id))
        .where(sa.tuple_(c.repo_id, c.sha).in_(keys))
    )
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return {
        (r.repo_id, r.sha): PushOf(
            branch=r.branch,
            delivery_id=r.delivery_id,
            before=r.before,
            after=r.after,
            linear=r.before is not None
            and r.after is not None
            and not r.forced
            and not r.created
            and set(r.before) != {"0"},
        )
        for r in rows
    }
