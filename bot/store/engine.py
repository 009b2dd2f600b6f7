"""The database engine for a DATABASE_URL (SQLite or PostgreSQL) and schema migrations at start."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine as sa_create_engine
from sqlalchemy import event, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

MIGRATIONS = Path(__file__).with_name("migrations")
# Any constant: replicas starting together take turns on this lock to migrate once.
_MIGRATION_LOCK_KEY = 0x636F6D6D6974
_WAL_SWITCH_ATTEMPTS = 50


class UnsupportedDatabase(ValueError):
    """DATABASE_URL names an engine the store does not speak."""


def async_url(database_url: str) -> str:
    """The SQLAlchemy async URL for `sqlite:///…` or `postgresql://…`."""
    url = make_url(database_url)
    backend = url.get_backend_name()
    if backend == "sqlite":
        return str(url.set(drivername="sqlite+aiosqlite"))
    if backend in {"postgresql", "postgres"}:
        return url.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    raise UnsupportedDatabase(
        f"DATABASE_URL must start with sqlite:/// or postgresql://, not {backend}://"
    )


def _private_sqlite_file(database_url: str) -> None:
    """Create the database file readable by its owner only: it holds installations' data."""
    path = make_url(database_url).database
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    # An existing file keeps the mode its owner gave it; a missing directory is SQLite's to say.
    with contextlib.suppress(FileExistsError, FileNotFoundError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def create_engine(database_url: str) -> AsyncEngine:
    url = async_url(database_url)
    if url.startswith("sqlite"):
        _private_sqlite_file(database_url)
        engine = create_async_engine(url, connect_args={"timeout": 30})
        _sqlite_pragmas(engine.sync_engine, default_begin="DEFERRED")
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def create_sqlite_sync_engine(database_url: str) -> Engine:
    """A synchronous engine on the same SQLite file, for work run in one thread hop."""
    engine = sa_create_engine(
        make_url(database_url).set(drivername="sqlite"),
        connect_args={"timeout": 30, "check_same_thread": False},
        pool_size=1,
        max_overflow=0,
    )
    _sqlite_pragmas(engine, default_begin="IMMEDIATE")
    return engine


def writer(engine: AsyncEngine) -> AsyncEngine:
    """The same engine, for transactions that write (SQLite takes its write lock at BEGIN)."""
    return engine.execution_options(sqlite_begin="IMMEDIATE")


def _sqlite_pragmas(engine: Engine, *, default_begin: str) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when transactions begin (see _on_begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        _enter_wal(cursor)
        # FULL: a commit is on disk before the webhook answers 202.
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # Writers BEGIN IMMEDIATE: the write lock is taken up front (waiting out busy_timeout),
        # so two writers never deadlock upgrading a read lock. Readers BEGIN DEFERRED and
        # never hold the write lock, so they cannot stall a writer.
        mode = conn.get_execution_options().get("sqlite_begin", default_begin)
        conn.exec_driver_sql(f"BEGIN {mode}")


def _enter_wal(cursor: Any) -> None:
    # Switching a new file to WAL takes an exclusive lock. When connections opened together race
    # for it, SQLite answers the losers "database is locked" at once rather than wait out the
    # busy timeout (waiting could deadlock). The winner's switch is over within milliseconds and
    # is kept in the file, after which the statement is a no-op: ask again, a little later.
    for attempt in range(1, _WAL_SWITCH_ATTEMPTS + 1):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == _WAL_SWITCH_ATTEMPTS:
                raise
            time.sleep(min(0.005 * attempt, 0.2))
        else:
            return


def _alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    command.upgrade(_alembic_config(connection), "head")


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema to the latest revision; safe when several replicas start together."""
    async with writer(engine).begin() as conn:
        if conn.dialect.name == "postgresql":
            lock = text("SELECT pg_advisory_xact_lock(:key)")
            await conn.execute(lock, {"key": _MIGRATION_LOCK_KEY})
        await conn.run_sync(_upgrade)
