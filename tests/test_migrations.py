"""Schema migrations: created at start, and safe when several replicas start together."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from bot.store.engine import MIGRATIONS, create_engine, migrate
from bot.store.schema import metadata
from tests.conftest import ENGINES, PG_URL


def _head() -> str:
    """The newest revision of the migration scripts."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


@pytest.fixture(params=ENGINES)
async def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A database with no schema at all (a throwaway one on PostgreSQL)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    assert PG_URL
    url = make_url(PG_URL)
    name = f"commit_digest_migrations_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(
        host=url.host,
        port=url.port or 5432,
        user=url.username,
        password=url.password,
        database="postgres",
    )
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()


async def test_replicas_migrating_together_create_the_schema_once(empty_database: str) -> None:
    engines = [create_engine(empty_database) for _ in range(5)]
    try:
        await asyncio.gather(*(migrate(engine) for engine in engines))
        async with engines[0].connect() as conn:
            versions = (
                (await conn.execute(sa.text("SELECT version_num FROM alembic_version")))
                .scalars()
                .all()
            )
            tables = set(await conn.run_sync(lambda sync: sa.inspect(sync).get_table_names()))
        assert versions == [_head()]
        assert {t.name for t in metadata.sorted_tables} <= tables
        # Starting again changes nothing.
        await migrate(engines[1])
    finally:
        for engine in engines:
            await engine.dispose()


async def test_the_migrations_match_the_schema_the_code_uses(empty_database: str) -> None:
    """Alembic's own comparison finds nothing to migrate after `upgrade head`."""
    engine = create_engine(empty_database)
    try:
        await migrate(engine)
        async with engine.connect() as conn:
            diff = await conn.run_sync(
                lambda sync: compare_metadata(
                    MigrationContext.configure(sync, opts={"compare_type": True}), metadata
                )
            )
        assert diff == []
    finally:
        await engine.dispose()
