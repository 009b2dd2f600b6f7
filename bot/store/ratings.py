"""Maintainers' corrections of a commit's importance (`/digest rate`): stored, replaced by a
later rate of the same commit, and read back for the posts to edit and the labelled export."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import schema as t
from bot.store.dialect import insert_for

r = t.ratings.c


@dataclass(frozen=True)
class Rating:
    repo_id: int
    sha: str
    importance: str
    previous: str | None
    author: str
    reason: str
    comment_id: int
    rated_at: datetime


@dataclass(frozen=True)
class RatedCommit:
    """A rating with the commit it rates, as the labelled export needs it."""

    rating: Rating
    title: str
    landed_at: datetime


class Ratings:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def get(self, repo_id: int, sha: str) -> Rating | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(sa.select(t.ratings).where(r.repo_id == repo_id, r.sha == sha))
            ).first()
        return None if row is None else _rating(row)

    @staticmethod
    async def importance_in(conn: AsyncConnection, repo_id: int, sha: str) -> str | None:
        """The maintainer's importance of the commit, read in the caller's transaction."""
        return await conn.scalar(sa.select(r.importance).where(r.repo_id == repo_id, r.sha == sha))

    @staticmethod
    async def rate(conn: AsyncConnection, rating: Rating, *, edit: bool) -> None:
        """Store the rating in the caller's transaction, replacing the commit's earlier one.
        `edit`: the commit's posted digest must be edited to show it (a pending edit of an
        earlier rate stays pending)."""
        values = {
            "repo_id": rating.repo_id,
            "sha": rating.sha,
            "importance": rating.importance,
            "previous": rating.previous,
            "author": rating.author,
            "reason": rating.reason,
            "comment_id": rating.comment_id,
            "rated_at": rating.rated_at,
            "edit_pending": edit,
        }
        stmt = insert_for(conn.dialect.name)(t.ratings).values(**values)
        updated = {k: v for k, v in values.items() if k not in ("repo_id", "sha")}
        updated["edit_pending"] = sa.or_(t.ratings.c.edit_pending, sa.literal(edit))
        await conn.execute(
            stmt.on_conflict_do_update(index_elements=["repo_id", "sha"], set_=updated)
        )

    @staticmethod
    async def edited(conn: AsyncConnection, repo_id: int, shas: Iterable[str]) -> None:
        """The posts showing these commits show their ratings now."""
        wanted = list(shas)
        if wanted:
            await conn.execute(
                sa.update(t.ratings)
                .where(r.repo_id == repo_id, r.sha.in_(wanted), r.edit_pending)
                .values(edit_pending=False)
            )

    async def of_repo(self, repo_id: int) -> list[RatedCommit]:
        """The repository's ratings with their commits, oldest landing first."""
        c = t.commits.c
        query = (
            sa.select(t.ratings, c.title, c.landed_at)
            .select_from(t.ratings.join(t.commits, sa.and_(c.repo_id == r.repo_id, c.sha == r.sha)))
            .where(r.repo_id == repo_id)
            .order_by(c.landed_at, r.sha)
        )
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [RatedCommit(_rating(row), row.title, row.landed_at) for row in rows]


def _rating(row: Any) -> Rating:
    return Rating(
        repo_id=row.repo_id,
        sha=row.sha,
        importance=row.importance,
        previous=row.previous,
        author=row.author,
        reason=row.reason,
        comment_id=row.comment_id,
        rated_at=row.rated_at,
    )
