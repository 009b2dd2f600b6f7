"""Analyses `/digest explain` made of commits the App never stored: kept apart from `commits`
(no digest lists them), read back so a second explain costs nothing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.analysis import AnalysisResult
from bot.models import Analysis
from bot.store import schema as t
from bot.store.dialect import insert_for

e = t.explained.c


@dataclass(frozen=True)
class Kept:
    """An analysis kept, and when it was made."""

    result: AnalysisResult
    created_at: datetime


class Explained:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def get(self, repo_id: int, sha: str) -> Kept | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(sa.select(t.explained).where(e.repo_id == repo_id, e.sha == sha))
            ).first()
        if row is None:
            return None
        result = AnalysisResult(
            Analysis.model_validate(row.data),
            input_tokens=row.input_tokens,
            output_tokens=row.output_tokens,
            cached_input_tokens=row.cached_input_tokens,
            fallback_reason=row.fallback_reason,
            route=row.route,
        )
        return Kept(result, row.created_at)

    @staticmethod
    async def put(
        conn: AsyncConnection,
        repo_id: int,
        sha: str,
        result: AnalysisResult,
        now: datetime,
        *,
        replacing: datetime | None = None,
    ) -> None:
        """Keep the analysis, in the caller's transaction (a concurrent explain of the same
        commit keeps the first); `replacing`: the kept one's `created_at`, which it replaces
        (unless another explain replaced it meanwhile)."""
        values = {
            "repo_id": repo_id,
            "sha": sha,
            "analyzer": result.analysis.analyzer,
            "route": result.route,
            "data": result.analysis.model_dump(mode="json"),
            "fallback_reason": result.fallback_reason,
            "input_tokens": result.input_tokens,
            "cached_input_tokens": result.cached_input_tokens,
            "output_tokens": result.output_tokens,
            "created_at": now,
        }
        if replacing is not None:
            where = sa.and_(e.repo_id == repo_id, e.sha == sha, e.created_at == replacing)
            await conn.execute(sa.update(t.explained).where(where).values(**values))
            return
        stmt = insert_for(conn.dialect.name)(t.explained).values(**values)
        await conn.execute(stmt.on_conflict_do_nothing(index_elements=["repo_id", "sha"]))
