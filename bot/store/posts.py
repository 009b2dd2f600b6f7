"""The post ledger: what the App has posted (or tried to) per repository and period.

Writes run inside the job holder's lease-checked transaction (`Jobs.holding`): a publisher
that lost its lease records nothing, and stops before its next create.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import schema as t
from bot.store.dialect import insert_for
from bot.store.jobs import JobState

p = t.posts.c


class PostKind(StrEnum):
    """What a ledger row is on GitHub (its value is what the row stores)."""

    DISCUSSION = "discussion"
    DISCUSSION_COMMENT = "discussion-comment"
    ISSUE = "issue"
    ISSUE_COMMENT = "issue-comment"
    # A commit folded into its day's "more alerts" post: never a post of its own.
    FOLDED = "folded"

    @property
    def in_discussions(self) -> bool:
        return self in (PostKind.DISCUSSION, PostKind.DISCUSSION_COMMENT)


class PostState(StrEnum):
    CREATING = "creating"  # a create was sent; whether GitHub carried it out is unknown
    POSTED = "posted"


@dataclass(frozen=True)
class Recorded:
    """A post as the ledger holds it: where it is on GitHub, and the hash of its body."""

    key: str
    kind: PostKind
    state: PostState
    parent: str | None = None
    node_id: str | None = None
    number: int | None = None
    url: str | None = None
    body_hash: str | None = None
    # When the create was last sent (for an unclear create: when GitHub may have made it).
    created_at: datetime | None = None


class PostLedger:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def recorded(self, repo_id: int, period: str) -> dict[str, Recorded]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(t.posts).where(p.repo_id == repo_id, p.period == period)
            )
            return {r.key: recorded_row(r) for r in rows}

    async def recorded_anywhere(
        self, repo_id: int, keys: Collection[str], *, period_prefix: str
    ) -> dict[str, Recorded]:
        """These keys wherever recorded, in any period that starts with `period_prefix`."""
        if not keys:
            return {}
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(t.posts).where(
                    p.repo_id == repo_id,
                    p.key.in_(list(keys)),
                    p.period.startswith(period_prefix, autoescape=True),
                )
            )
            return {r.key: recorded_row(r) for r in rows}

    async def made_or_unclear(self, repo_id: int, periods: Collection[str]) -> dict[str, bool]:
        """Those of these periods with a post recorded, or a create whose answer was lost
        (GitHub may have made the post): period -> whether one is unclear."""
        if not periods:
            return {}
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(p.period, p.state).where(
                    p.repo_id == repo_id, p.period.in_(list(periods))
                )
            )
            out: dict[str, bool] = {}
            for period, state in rows:
                out[period] = out.get(period, False) or state == PostState.CREATING.value
            return out

    @staticmethod
    async def intend(
        conn: AsyncConnection,
        repo_id: int,
        period: str,
        *,
        key: str,
        kind: PostKind,
        parent: str | None,
        now: datetime,
        job_id: int,
        first: bool = False,
    ) -> bool:
        """Before a create: from now on, a failure means "search for the marker first".
        `first`: the post was never attempted; False when a row is there (an earlier attempt's,
        or another job's: the tracking issue is shared by every job of a repository). False
        when another job holds the post's create: it is running, its lease not lapsed, and
        its create may not have been answered yet, or when the post is recorded as posted
        (the caller reads the ledger again, and keeps it)."""
        values: dict[str, Any] = {
            "kind": kind.value,
            "state": PostState.CREATING.value,
            "parent": parent,
            "job_id": job_id,
            "updated_at": now,
        }
        insert = insert_for(conn.dialect.name)(t.posts).values(
            repo_id=repo_id, period=period, key=key, created_at=now, **values
        )
        if not first:
            j = t.jobs.c
            creating_elsewhere = sa.exists().where(
                j.id == p.job_id,
                j.id != job_id,
                j.state == JobState.RUNNING.value,
                j.lease_until > now,
            )
            # The wait for an unclear create runs from the create sent last, not the first.
            taken = await conn.execute(
                sa.update(t.posts)
                .where(
                    p.repo_id == repo_id,
                    p.period == period,
                    p.key == key,
                    # A row posted since it was read is the post made: never made again.
                    p.state == PostState.CREATING.value,
                    ~creating_elsewhere,
                )
                .values(created_at=now, **values)
            )
            if taken.rowcount:
                return True
        # No row yet (or forgotten since it was read); one there now is another job's.
        added = await conn.execute(insert.on_conflict_do_nothing())
        return bool(added.rowcount)

    @staticmethod
    async def withdraw(conn: AsyncConnection, repo_id: int, period: str, *, key: str) -> None:
        """After a create GitHub refused (it answered, and made nothing): no intent is left
        to search for, so the post may be made elsewhere (a fallback) or again later."""
        await conn.execute(
            sa.delete(t.posts).where(
                p.repo_id == repo_id,
                p.period == period,
                p.key == key,
                p.state == PostState.CREATING.value,
            )
        )

    @staticmethod
    async def forget(
        conn: AsyncConnection, repo_id: int, period: str, *, key: str, node_id: str
    ) -> None:
        """A post found deleted on GitHub: it may be made again. Only the row that still
        names that post goes (another job may have made the post again since)."""
        await conn.execute(
            sa.delete(t.posts).where(
                p.repo_id == repo_id, p.period == period, p.key == key, p.node_id == node_id
            )
        )

    @staticmethod
    async def forget_post(conn: AsyncConnection, repo_id: int, node_id: str) -> int:
        """A discussion or comment found deleted: it and every comment recorded on it (they
        went with it) are forgotten, so they may be made again. An issue comment goes alone:
        the issue's other comments stay. Returns how many rows went."""
        gone = await conn.execute(
            sa.delete(t.posts).where(
                p.repo_id == repo_id,
                p.kind.in_(
                    [
                        PostKind.DISCUSSION.value,
                        PostKind.DISCUSSION_COMMENT.value,
                        PostKind.ISSUE_COMMENT.value,
                    ]
                ),
                sa.or_(
                    p.node_id == node_id,
                    sa.and_(p.kind == PostKind.DISCUSSION_COMMENT.value, p.parent == node_id),
                ),
            )
        )
        return int(gone.rowcount)

    @staticmethod
    async def forget_issue(conn: AsyncConnection, repo_id: int, number: int) -> tuple[bool, int]:
        """An issue found gone (deleted, or never there): the App's own issue of that number
        and every comment recorded on it (they went with it) are forgotten, so they may be
        made again elsewhere. Returns whether it was the App's own issue, and how many
        comments were forgotten."""
        issue = await conn.execute(
            sa.delete(t.posts).where(
                p.repo_id == repo_id, p.kind == PostKind.ISSUE.value, p.number == number
            )
        )
        comments = await conn.execute(
            sa.delete(t.posts).where(
                p.repo_id == repo_id,
                p.kind == PostKind.ISSUE_COMMENT.value,
                p.parent == str(number),
            )
        )
        return bool(issue.rowcount), int(comments.rowcount)

    @staticmethod
    async def record(
        conn: AsyncConnection, repo_id: int, period: str, post: Recorded, *, now: datetime
    ) -> None:
        """`post` as made on GitHub (its intent's row, if any, becomes it)."""
        values: dict[str, Any] = {
            "kind": post.kind.value,
            "state": PostState.POSTED.value,
            "parent": post.parent,
            "node_id": post.node_id,
            "number": post.number,
            "url": post.url,
            "body_hash": post.body_hash,
            "updated_at": now,
        }
        await _upsert(conn, repo_id=repo_id, period=period, key=post.key, now=now, values=values)


async def _upsert(
    conn: AsyncConnection,
    *,
    repo_id: int,
    period: str,
    key: str,
    now: datetime,
    values: dict[str, Any],
) -> None:
    """The post's row, created or brought to `values` (an intent and its record share it)."""
    stmt = insert_for(conn.dialect.name)(t.posts).values(
        repo_id=repo_id, period=period, key=key, created_at=now, **values
    )
    await conn.execute(
        stmt.on_conflict_do_update(index_elements=["repo_id", "period", "key"], set_=values)
    )


def recorded_row(r: Any) -> Recorded:
    """A `posts` row as the ledger tells it."""
    return Recorded(
        key=r.key,
        kind=PostKind(r.kind),
        state=PostState(r.state),
        parent=r.parent,
        node_id=r.node_id,
        number=r.number,
        url=r.url,
        body_hash=r.body_hash,
        created_at=r.created_at,
    )
