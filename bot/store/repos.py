"""Repositories: what ingest needs to know, and each repository's config and its errors."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.repo_config import ConfigOrigin, RepoConfig, default_config
from bot.store import schema as t
from bot.store.records import RepoIngestView


@dataclass(frozen=True)
class RepoRow:
    id: int
    full_name: str
    installation_id: int | None
    default_branch: str | None
    config: dict[str, Any] | None
    config_sha: str | None  # the blob last read, a rejected one included
    config_in_force_sha: str | None  # the blob the config in force came from
    config_error: str | None
    config_error_reported: bool
    active_since: datetime
    # Which file set each value in force (the repository's, or its base; None: put in force
    # before 0017 recorded it), and the base's blob (None: no base file was read).
    config_origin: ConfigOrigin | None = None
    config_base_sha: str | None = None
    config_base_etag: str | None = None


def _row(r: Any) -> RepoRow:
    return RepoRow(
        id=r.id,
        full_name=r.full_name,
        installation_id=r.installation_id,
        default_branch=r.default_branch,
        config=r.config,
        config_sha=r.config_sha,
        config_in_force_sha=r.config_in_force_sha,
        config_error=r.config_error,
        config_error_reported=r.config_error_reported,
        active_since=r.active_since,
        config_origin=(
            ConfigOrigin.from_json(r.config_origin) if r.config_origin is not None else None
        ),
        config_base_sha=r.config_base_sha,
        config_base_etag=r.config_base_etag,
    )


# A repository removed from its installation keeps its rows, but no work finds it: its jobs
# end as done, the scheduler passes it by, until it is added again.
_PRESENT = t.repositories.c.removed_at.is_(None)


class Repositories:
    def __init__(self, engine: AsyncEngine, writer: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer

    async def ingest_view(self, repo_id: int) -> RepoIngestView | None:
        r = t.repositories.c
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(
                        r.full_name,
                        r.default_branch,
                        r.installation_id,
                        r.branches,
                    ).where(r.id == repo_id)
                )
            ).first()
        if row is None:
            return None
        return RepoIngestView(
            full_name=row.full_name,
            default_branch=row.default_branch,
            installation_id=row.installation_id,
            branches=tuple(row.branches) if row.branches else None,
        )

    async def get(self, repo_id: int) -> RepoRow | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(t.repositories).where(t.repositories.c.id == repo_id, _PRESENT)
                )
            ).first()
        return _row(row) if row else None

    async def by_name(self, full_name: str) -> RepoRow | None:
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(t.repositories).where(
                        t.repositories.c.full_name == full_name, _PRESENT
                    )
                )
            ).first()
        return _row(row) if row else None

    async def all(self) -> list[RepoRow]:
        async with self._engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(t.repositories).where(_PRESENT).order_by(t.repositories.c.id)
                )
            ).all()
        return [_row(r) for r in rows]

    @staticmethod
    async def config_unchanged(
        conn: AsyncConnection, repo_id: int, *, default_branch: str | None
    ) -> None:
        await conn.execute(
            sa.update(t.repositories)
            .where(t.repositories.c.id == repo_id)
            .values(
                default_branch=sa.func.coalesce(default_branch, t.repositories.c.default_branch)
            )
        )

    @staticmethod
    async def save_config(
        conn: AsyncConnection,
        repo_id: int,
        *,
        config: RepoConfig | None,
        sha: str | None,
        default_branch: str | None,
        now: datetime,
        origin: ConfigOrigin | None = None,
        base_sha: str | None = None,
        base_etag: str | None = None,
    ) -> bool:
        """Put a valid config (None: no file, defaults apply) in force, with where its values
        came from (`origin`) and the blob of the base file they started from (`base_sha`,
        with the ETag that names it: the next read of the base is conditional).

        Returns whether the zone or cutoff changed (unpublished commits then fall in the
        periods the new settings give them, when those are published).
        """
        r = t.repositories.c
        timezone = config.timezone if config else "UTC"
        cutoff = config.cutoff if config else "00:00"
        before = (
            await conn.execute(sa.select(r.timezone, r.cutoff).where(r.id == repo_id))
        ).first()
        await conn.execute(
            sa.update(t.repositories)
            .where(r.id == repo_id)
            .values(
                config=config.model_dump(mode="json") if config else None,
                config_sha=sha,
                config_in_force_sha=sha,
                config_origin=origin.as_json() if origin else None,
                config_base_sha=base_sha,
                config_base_etag=base_etag[:200] if base_etag and base_sha else None,
                config_error=None,
                config_error_reported=False,
                timezone=timezone,
                cutoff=cutoff,
                branches=config.branches if config else None,
                default_branch=sa.func.coalesce(default_branch, r.default_branch),
                updated_at=now,
            )
        )
        return before is not None and (before.timezone, before.cutoff) != (timezone, cutoff)

    @staticmethod
    async def save_config_error(
        conn: AsyncConnection,
        repo_id: int,
        *,
        error: str,
        sha: str | None,
        default_branch: str | None,
    ) -> bool:
        """Record an invalid file; the last good config stays. True when the error is new."""
        r = t.repositories.c
        previous = (
            await conn.execute(sa.select(r.config_error).where(r.id == repo_id))
        ).scalar_one_or_none()
        new = previous != error[: t.MAX_ERROR_CHARS]
        values: dict[str, Any] = {
            "config_error": error[: t.MAX_ERROR_CHARS],
            "config_sha": sha,
            "default_branch": sa.func.coalesce(default_branch, r.default_branch),
            # The base is read in full next time: the ETag names only the base in force.
            "config_base_etag": None,
        }
        if new:
            values["config_error_reported"] = False
        await conn.execute(sa.update(t.repositories).where(r.id == repo_id).values(**values))
        return new

    async def config_error_reported(self, repo_id: int) -> None:
        async with self._writer.begin() as conn:
            await conn.execute(
                sa.update(t.repositories)
                .where(t.repositories.c.id == repo_id)
                .values(config_error_reported=True)
            )

    @staticmethod
    async def set_installation_in(
        conn: AsyncConnection, repo_id: int, installation_id: int
    ) -> None:
        await conn.execute(
            sa.update(t.repositories)
            .where(t.repositories.c.id == repo_id)
            .values(installation_id=installation_id)
        )


def config_of(stored: dict[str, Any] | None, default_language: str) -> RepoConfig:
    """The config in force for a repository (the stored one was validated when saved)."""
    if stored is None:
        return default_config(default_language)
    return RepoConfig.model_validate(stored)
