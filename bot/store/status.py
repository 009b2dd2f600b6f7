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

# The posts read, each looked up by its key: the last week's digests and alerts, and the
# roll-ups of weeks begun in the last fortnight; of each, how many (the newest) are shown.
POST_PERIODS = {"day:": (7, 3), "alerts:": (7, 2), "week:": (14, 1)}


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


@dataclass(frozen=True)
class StatusRead:
    repos: list[RepoStatus]
    # The LLM tokens each installation's analyses used today (UTC).
    tokens_today: dict[int, int]


class StatusReader:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def read(self, repo_ids: Collection[int], now: datetime) -> StatusRead:
        """The status of the stored repositories among `repo_ids`, by name."""
        ids = sorted(repo_ids)
        if not ids:
            return StatusRead([], {})
        r, i = t.repositories.c, t.installations.c
        today = now.date()
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
                )
                .select_from(t.repositories.outerjoin(t.installations, i.id == r.installation_id))
                .where(r.id.in_(ids))
                .order_by(r.full_name)
            )
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
                for row in rows
            }
            if not repos:
                return StatusRead([], {})
            stored = list(repos)
            await self._posts(conn, repos, stored, today)
            await self._waiting(conn, repos, stored)
            await self._jobs(conn, repos)
            await self._digests(conn, repos, stored)
            tokens = await self._tokens(conn, stored, now)
        return StatusRead(list(repos.values()), tokens)

    @staticmethod
    async def _posts(conn: Any, repos: dict[int, RepoStatus], ids: list[int], today: date) -> None:
        p = t.posts.c
        # A roll-up's period is its week's first day, a week before it is posted.
        periods = [
            f"{prefix}{(today - timedelta(days=n)).isoformat()}"
            for prefix, (days, _) in POST_PERIODS.items()
            for n in range(days + 1)
        ]
        kind = sa.case(
            *((p.period.like(f"{prefix}%"), prefix) for prefix in POST_PERIODS), else_=""
        )
        shown = sa.case(
            *((p.period.like(f"{prefix}%"), n) for prefix, (_, n) in POST_PERIODS.items()),
            else_=0,
        )
        # Only the newest few of each kind leave the database (a busy repository has a
        # fortnight of digests and alerts).
        rank = sa.func.row_number().over(
            partition_by=(p.repo_id, kind), order_by=(p.period.desc(), p.key)
        )
        recent = (
            sa.select(p.repo_id, p.period, p.url, rank.label("rank"), shown.label("shown"))
            .where(
                p.repo_id.in_(ids),
                p.period.in_(periods),
                p.state == PostState.POSTED.value,
                p.url.is_not(None),
            )
            .subquery()
        )
        rows = await conn.execute(
            sa.select(recent.c.repo_id, recent.c.period, recent.c.url).where(
                recent.c.rank <= recent.c.shown
            )
        )
        for repo_id, period, url in rows:
            repos[repo_id].posts.append(PostLink(period, url))
        for repo in repos.values():
            # Newest period first ("day:2026-07-01" sorts by its date after the kind).
            repo.posts.sort(key=lambda post: post.period.partition(":")[2], reverse=True)

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
    async def _tokens(conn: Any, ids: list[int], now: datetime) -> dict[int, int]:
        a, r = t.analyses.c, t.repositories.c
        start = now.replace(hour=0, minute=0, second=0, microsecond=0)
        tokens: dict[int, int] = defaultdict(int)
        rows = await conn.execute(
            sa.select(r.installation_id, sa.func.sum(a.input_tokens + a.output_tokens))
            .select_from(t.analyses.join(t.repositories, r.id == a.repo_id))
            .where(a.repo_id.in_(ids), a.created_at >= start, a.analyzer.like("llm:%"))
            .group_by(r.installation_id)
        )
        for installation, used in rows:
            if installation is not None:
                tokens[installation] += int(used or 0)
        return dict(tokens)
