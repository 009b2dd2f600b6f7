"""The ETag of each repository's config file as last read, with the blob it named, so the next
read can be conditional (see `bot.github.conditional`)."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import schema as t
from bot.store.engine import writer


@dataclass(frozen=True)
class ConfigETag:
    etag: str
    sha: str


class ConfigETags:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def get(self, repo_id: int) -> ConfigETag | None:
        r = t.repositories.c
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(r.config_etag, r.config_etag_sha).where(r.id == repo_id)
                )
            ).first()
        if row is None or not row.config_etag or not row.config_etag_sha:
            return None
        return ConfigETag(etag=row.config_etag, sha=row.config_etag_sha)

    async def save(self, repo_id: int, etag: str | None, sha: str | None) -> None:
        r = t.repositories.c
        async with writer(self._engine).begin() as conn:
            await conn.execute(
                sa.update(t.repositories)
                .where(r.id == repo_id)
                .values(config_etag=etag[:200] if etag else None, config_etag_sha=sha)
            )
