"""The LLM's usage as the analyses record it (those `/digest explain` made on demand included):
the day's counts for the governor and the footer, and earlier analyses of the same diff
(patch-id) for reuse."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.analysis.budget import DayCounts
from bot.store import schema as t

_LLM = t.analyses.c.analyzer.like("llm:%")


def _installation_tokens(table: sa.Table, installation_id: int, start: datetime) -> sa.Select[Any]:
    """The LLM tokens `table`'s analyses of an installation's repositories used on the UTC day
    that begins at `start`."""
    col = table.c
    return (
        sa.select(sa.func.coalesce(sa.func.sum(col.input_tokens + col.output_tokens), 0))
        .select_from(table.join(t.repositories, t.repositories.c.id == col.repo_id))
        .where(
            t.repositories.c.installation_id == installation_id,
            col.created_at >= start,
            col.created_at < start + timedelta(days=1),
        )
    )


@dataclass(frozen=True)
class DayUsage:
    """A repository's day: commits by route, and the LLM tokens its analyses used."""

    routes: dict[str, int]
    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    # Claims of the day's LLM answers the fact guard dropped.
    dropped_claims: int = 0


@dataclass(frozen=True)
class Reusable:
    sha: str
    data: dict[str, Any]


class UsageLedger:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def day_counts(
        self,
        repo_id: int,
        window: tuple[datetime, datetime],
        installation_id: int | None,
        now: datetime,
        reserved: frozenset[str] = frozenset(),
    ) -> tuple[DayCounts, frozenset[str]]:
        """The LLM's use so far on this commit's digest day (`window`, the [start, end) of its
        landing times in the repository's current schedule) and today (UTC,
        installation), counting `reserved` commits (LLM calls not yet stored) as used; also
        returns which of the reserved commits have an analysis stored by now."""
        a, c, x = t.analyses.c, t.commits.c, t.explained.c
        repo_query = (
            sa.select(a.sha, a.route, a.analyzer, a.input_tokens + a.output_tokens)
            .select_from(
                t.analyses.join(t.commits, sa.and_(c.repo_id == a.repo_id, c.sha == a.sha))
            )
            .where(a.repo_id == repo_id, c.landed_at >= window[0], c.landed_at < window[1])
        )
        start = now.replace(hour=0, minute=0, second=0, microsecond=0)
        async with self._engine.connect() as conn:
            # Which reserved commits are stored, read before the day's analyses: one stored
            # in between is then counted by both reads, never by neither.
            settled: frozenset[str] = frozenset()
            if reserved:
                settled = frozenset(
                    (
                        await conn.execute(
                            sa.union(
                                sa.select(a.sha).where(a.repo_id == repo_id, a.sha.in_(reserved)),
                                sa.select(x.sha).where(x.repo_id == repo_id, x.sha.in_(reserved)),
                            )
                        )
                    ).scalars()
                )
            rows = list((await conn.execute(repo_query)).all())
            # What `/digest explain` analysed on demand counts on the day it was asked.
            rows += (
                await conn.execute(
                    sa.select(x.sha, x.route, x.analyzer, x.input_tokens + x.output_tokens).where(
                        x.repo_id == repo_id,
                        x.created_at >= window[0],
                        x.created_at < window[1],
                    )
                )
            ).all()
            installation_tokens = 0
            if installation_id is not None:
                for table in (t.analyses, t.explained):
                    query = _installation_tokens(table, installation_id, start)
                    installation_tokens += (await conn.execute(query)).scalar_one()
        # A call that fell back to the rules still went to the LLM: the route says so.
        asked = {
            r.sha
            for r in rows
            if r.route == "llm" or (r.route is None and str(r.analyzer).startswith("llm:"))
        }
        counts = DayCounts(
            repo_llm_commits=len(asked | (reserved - settled)),
            repo_tokens=sum(int(r[3] or 0) for r in rows),
            installation_tokens=int(installation_tokens or 0),
        )
        return counts, settled

    async def reusable(self, repo_id: int, patch_id: str, sha: str) -> Reusable | None:
        """An LLM analysis of another commit of the repository with the same diff."""
        a = t.analyses.c
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(a.sha, a.data)
                    .where(
                        a.repo_id == repo_id,
                        a.patch_id == patch_id,
                        a.sha != sha,
                        _LLM,
                        a.fallback_reason.is_(None),
                    )
                    .order_by(a.created_at.desc())
                    .limit(1)
                )
            ).first()
        return Reusable(sha=row.sha, data=dict(row.data)) if row else None

    async def day_usage(
        self, repo_id: int, window: tuple[datetime, datetime], *, part: str | None = None
    ) -> DayUsage:
        """The routes, LLM tokens and dropped claims of a repository's digest day, for its
        footer (`part`: of the commits a posted part holds, as when it was posted)."""
        a, c = t.analyses.c, t.commits.c
        async with self._engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(
                        a.route,
                        a.analyzer,
                        sa.func.count(),
                        sa.func.sum(a.input_tokens),
                        sa.func.sum(a.cached_input_tokens),
                        sa.func.sum(a.output_tokens),
                        sa.func.sum(a.dropped_claims),
                    )
                    .select_from(
                        t.analyses.join(t.commits, sa.and_(c.repo_id == a.repo_id, c.sha == a.sha))
                    )
                    .where(
                        a.repo_id == repo_id,
                        c.landed_at >= window[0],
                        c.landed_at < window[1],
                        c.published_part == part if part is not None else sa.true(),
                    )
                    .group_by(a.route, a.analyzer)
                )
            ).all()
        routes: dict[str, int] = {}
        tokens_in = cached = tokens_out = dropped = 0
        for route, analyzer, count, t_in, t_cached, t_out, t_dropped in rows:
            key = route or ("llm" if str(analyzer).startswith("llm:") else "rules")
            routes[key] = routes.get(key, 0) + int(count)
            tokens_in += int(t_in or 0)
            cached += int(t_cached or 0)
            tokens_out += int(t_out or 0)
            dropped += int(t_dropped or 0)
        return DayUsage(
            routes=routes,
            input_tokens=tokens_in,
            cached_input_tokens=cached,
            output_tokens=tokens_out,
            dropped_claims=dropped,
        )
