"""The fence between an installation's purge and a job still writing for one of its repositories."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import schema as t


async def repository_held(conn: AsyncConnection, repo_id: int) -> bool:
    """Whether the repository is still there, key-share-locked on PostgreSQL until the
    write commits. An installation's purge locks the row FOR UPDATE first, so it waits for
    this write (and then purges its rows too) or this write finds the row gone. A key share
    does not block the ordinary updates of the row (a config saved, a push's upsert), so it
    adds no deadlock with them; SQLite runs one writer at a time."""
    found = await conn.execute(
        sa.select(t.repositories.c.id)
        .where(t.repositories.c.id == repo_id)
        .with_for_update(read=True, key_share=True)
    )
    return found.first() is not None
