"""What the status page shows of the repositories a person can reach, read by index."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import schema as t
from bot.store.commits import CommitState
from bot.store.digests import DigestState
from bot.store.jobs import JobKind, JobState
from bot.store.posts import PostState

# The posts read, each kind by a range of its key: the last week's digests and alerts, and
# the roll-ups of weeks begun in the last fortnight; of each, how many (the newest) are shown.
# A repository in trouble shows them all; one that is well shows its newest digest in the
# page's table (its own page shows the rest).
POST_PERIODS = {"day:": (7, 3), "alerts:": (7, 2), "week:": (14, 1)}
IN_PARTS = ("day:", "week:")


def _shown_posts(prefix: str, today: date) -> sa.ColumnElement[bool]:
    """Posts of one kind (its period's `prefix`) posted, with a link, in its last days."""
    p, days = t.posts.c, POST_PERIODS[prefix][0]
    return sa.and_(
        p.period.between(
            f"{prefix}{(today - timedelta(days=days)).isoformat()}", f"{prefix}{today.isoformat()}"
        ),
        p.state == PostState.POSTED.value,
        p.url.is_not(None),
    )


@dataclass(frozen=True)
class PostLink:
    period: str  # "day:2026-01-22", "alerts:2026-01-22", "week:2026-01-19"
    url: str


@dataclass(frozen=True)
class JobTrouble:
    """A job that failed for good, or waits to be tried again."""

    kind: JobKind
    failed: bool
    attempts: int
    reason: str
    retry_at: datetime | None


@dataclass(frozen=True)
class DigestTrouble:
    period_kind: str
    start: date
    reason: str


@dataclass
class RepoStatus:
    id: int
    full_name: str
    installation_id: int | None
    account: str | None
    suspended: bool
    config: dict[str, Any] | None
    config_error: str | None
    posts: list[PostLink] = field(default_factory=list)
    waiting: int = 0
    oldest_waiting: datetime | None = None
    jobs: list[JobTrouble] = field(default_factory=list)
    digests: list[DigestTrouble] = field(default_factory=list)

    @property
    def in_trouble(self) -> bool:
        """A job or post failed, or the config was rejected: what a person must look at."""
        return bool(self.jobs or self.digests or self.config_error)


@dataclass(frozen=True)
class StatusRead:
    repos: list[RepoStatus]
    # The LLM tokens each installation's analyses used today (UTC).
    tokens_today: dict[int, int]


class StatusReader:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def read(
        self, repo_ids: Collection[int], now: datetime, *, every_post: bool = False
    ) -> StatusRead:
        """The status of the stored repositories among `repo_ids`, by name; the recent posts
        of those in trouble (of all, with `every_post`), and the newest of the others."""
        ids = sorted(repo_ids)
        if not ids:
            return StatusRead([], {})
        r, i = t.repositories.c, t.installations.c
        today = now.date()
        newest_period, newest_url = self._newest_digest(today)
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(
                    r.id,
                    r.full_name,
                    r.installation_id,
                    i.account_login,
                    i.suspended,
                    r.config,
                    r.config_error,
                    newest_period.label("newest_period"),
                    newest_url.label("newest_url"),
                )
                .select_from(t.repositories.outerjoin(t.installations, i.id == r.installation_id))
                # a repository taken out of the installation is kept, but not shown
                .where(r.id.in_(ids), r.removed_at.is_(None))
                .order_by(r.full_name)
            )
            read = list(rows)
            repos = {
                row.id: RepoStatus(
                    id=row.id,
                    full_name=row.full_name,
                    installation_id=row.installation_id,
                    account=row.account_login,
                    suspended=bool(row.suspended),
                    config=row.config,
                    config_error=row.config_error,
                )
                for row in read
            }
            if not repos:
                return StatusRead([], {})
            stored = list(repos)
            await self._waiting(conn, repos, stored)
            await self._jobs(conn, repos)
            await self._digests(conn, repos, stored)
            full = [repo_id for repo_id in stored if every_post or repos[repo_id].in_trouble]
            await self._posts(conn, repos, full, today)
            for row in read:
                repo = repos[row.id]
                if row.newest_period is not None and not repo.posts:
                    repo.posts.append(PostLink(row.newest_period, row.newest_url))
            installations = {repo.installation_id for repo in repos.values()}
            tokens = await self._tokens(conn, sorted(n for n in installations if n), now)
        return StatusRead(list(repos.values()), tokens)

    @staticmethod
    async def _posts(
        conn: Any,
        repos: dict[int, RepoStatus],
        ids: list[int],
        today: date,
    ) -> None:
        if not ids:
            return
        p = t.posts.c
        # A roll-up's period is its week's first day, a week before it is posted. Each kind is
        # its own range of the primary key (repo_id, period, key), so the database seeks once
        # a repository and kind and reads only that kind's last days; of those, only the
        # newest few leave it (a busy repository has a fortnight of digests and alerts).
        newest = []
        for prefix, (_, shown) in POST_PERIODS.items():
            # A digest or roll-up in parts is one post (its link is the first part's); each
            # alert of a day is its own.
            rank = (sa.func.dense_rank() if prefix in IN_PARTS else sa.func.row_number()).over(
                partition_by=p.repo_id, order_by=(p.period.desc(), p.key)
            )
            recent = (
                sa.select(p.repo_id, p.period, p.key, p.url, rank.label("rank"))
                .where(p.repo_id.in_(ids), _shown_posts(prefix, today))
                .subquery()
            )
            newest.append(
                sa.select(recent.c.repo_id, recent.c.period, recent.c.key, recent.c.url).where(
                    recent.c.rank <= shown
                )
            )
        rows = await conn.execute(sa.union_all(*newest))
        seen: set[tuple[int, str]] = set()
        for repo_id, period, _, url in sorted(rows, key=lambda row: row[:3]):
            if period.startswith(IN_PARTS) and (repo_id, period) in seen:
                continue
            seen.add((repo_id, period))
            repos[repo_id].posts.append(PostLink(period, url))
        for repo_id in ids:
            # Newest period first ("day:2026-07-01" sorts by its date after the kind).
            repos[repo_id].posts.sort(key=lambda post: post.period.partition(":")[2], reverse=True)

    @staticmethod
    def _newest_digest(today: date) -> tuple[Any, Any]:
        """The period and link of a repository's newest digest of the last week (its first
        part), each by a backward seek of the posts' primary key (repo_id, period, key)."""
        p, r = t.posts.c, t.repositories.c

        def newest(column: Any) -> Any:
            return (
                sa.select(column)
                .where(p.repo_id == r.id, _shown_posts("day:", today))
                .order_by(p.period.desc(), p.key)
                .limit(1)
                .scalar_subquery()
            )

        return newest(p.period), newest(p.url)

    @staticmethod
    async def _waiting(conn: Any, repos: dict[int, RepoStatus], ids: list[int]) -> None:
        c = t.commits.c
        rows = await conn.execute(
            sa.select(c.repo_id, sa.func.count(), sa.func.min(c.landed_at))
            .where(c.repo_id.in_(ids), c.state == CommitState.PENDING.value)
            .group_by(c.repo_id)
        )
        for repo_id, count, oldest in rows:
            repos[repo_id].waiting = count
            repos[repo_id].oldest_waiting = oldest

    @staticmethod
    async def _jobs(conn: Any, repos: dict[int, RepoStatus]) -> None:
        j = t.jobs.c
        # Jobs name their repository in the payload; those in trouble are few, found by state.
        rows = await conn.execute(
            sa.select(j.kind, j.payload, j.state, j.attempts, j.last_error, j.not_before).where(
                sa.or_(
                    j.state == JobState.FAILED.value,
                    sa.and_(j.state == JobState.PENDING.value, j.attempts > 0),
                )
            )
        )
        for row in rows:
            payload = row.payload if isinstance(row.payload, dict) else {}
            repo = repos.get(payload.get("repo_id"))  # type: ignore[arg-type]
            if repo is None:
                continue
            failed = row.state == JobState.FAILED.value
            repo.jobs.append(
                JobTrouble(
                    kind=JobKind(row.kind),
                    failed=failed,
                    attempts=row.attempts,
                    reason=row.last_error or "",
                    retry_at=None if failed else row.not_before,
                )
            )

    @staticmethod
    async def _digests(conn: Any, repos: dict[int, RepoStatus], ids: list[int]) -> None:
        d = t.digests.c
        rows = await conn.execute(
            sa.select(d.repo_id, d.period_kind, d.period_start, d.last_error).where(
                d.repo_id.in_(ids), d.state == DigestState.FAILED.value
            )
        )
        for row in rows:
            repos[row.repo_id].digests.append(
                DigestTrouble(row.period_kind, row.period_start, row.last_error or "")
            )

    @staticmethod
    async def _tokens(conn: Any, installations: list[int], now: datetime) -> dict[int, int]:
        """The LLM tokens each installation used today (UTC), counted as the governor counts
        them against the daily budget: its analyses and `/digest explain`'s, LLM or not (the
        rules use none; a fallback after an LLM call keeps the tokens it spent)."""
        if not installations:
            return {}
        r = t.repositories.c
        start = now.replace(hour=0, minute=0, second=0, microsecond=0)
        tokens: dict[int, int] = defaultdict(int)
        for table in (t.analyses, t.explained):
            col = table.c
            rows = await conn.execute(
                sa.select(r.installation_id, sa.func.sum(col.input_tokens + col.output_tokens))
                .select_from(table.join(t.repositories, r.id == col.repo_id))
                .where(
                    r.installation_id.in_(installations),
                    col.created_at >= start,
                    col.created_at < start + timedelta(days=1),
                )
                .group_by(r.installation_id)
            )
            for installation, used in rows:
                tokens[installation] += int(used or 0)
        return dict(tokens)
