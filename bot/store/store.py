"""The store: every read and write the App makes, one code path for SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import schema as t
from bot.store.alert_ledger import AlertLedger
from bot.store.commands import CommandLog
from bot.store.commits import Commits
from bot.store.digests import Digests
from bot.store.engine import create_engine, create_sqlite_sync_engine, migrate, writer
from bot.store.explained import Explained
from bot.store.ingest import ingest_plan, run_async, run_sync
from bot.store.jobs import Jobs
from bot.store.posts import PostLedger
from bot.store.ratings import Ratings
from bot.store.records import IngestUnit
from bot.store.redeliveries import Redeliveries
from bot.store.repos import Repositories

IngestOutcome = bool | BaseException


class Store:
    """Persistence behind one interface; built by the app factory, closed at shutdown."""

    def __init__(self, engine: AsyncEngine, *, sqlite_sync_engine: Engine | None = None) -> None:
        self.engine = engine
        self._writer = writer(engine)
        self.jobs = Jobs(engine, self._writer)
        self.commits = Commits(engine, self._writer)
        self.repos = Repositories(engine, self._writer)
        self.digests = Digests(engine, self._writer)
        self.posts = PostLedger(engine)
        self.commands = CommandLog(self._writer)
        self.ratings = Ratings(engine)
        self.explained = Explained(engine)
        self.alert_ledger = AlertLedger(engine)
        self.redeliveries = Redeliveries(engine, self._writer)
        # SQLite only: the hot ingest transaction runs in one thread hop (see store/ingest.py).
        self._sync_engine = sqlite_sync_engine
        self._sync_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-ingest")

    @classmethod
    async def open(cls, database_url: str, *, migrate_schema: bool = True) -> Store:
        engine = create_engine(database_url)
        sync_engine = (
            create_sqlite_sync_engine(database_url) if engine.dialect.name == "sqlite" else None
        )
        try:
            if sync_engine is not None:
                # A file SQLite cannot open fails here, in this thread. In aiosqlite's, a failed
                # connect leaves its thread answering a loop that may be closed by then, and the
                # traceback it prints buries the one-line error.
                sync_engine.connect().close()
            if migrate_schema:
                await migrate(engine)
        except BaseException:
            if sync_engine is not None:
                sync_engine.dispose()
            await engine.dispose()
            raise
        return cls(engine, sqlite_sync_engine=sync_engine)

    async def close(self) -> None:
        self._sync_thread.shutdown(wait=True)
        if self._sync_engine is not None:
            self._sync_engine.dispose()
        await self.engine.dispose()

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))

    # --- ingest -------------------------------------------------------------------------

    async def ingest(self, units: Sequence[IngestUnit]) -> list[IngestOutcome]:
        """Apply deliveries in one transaction of a handful of set-based statements.

        Per unit: True when stored, False when its delivery id was already seen, or the
        exception that kept it from being stored. A failing batch is retried one unit per
        transaction, so one bad delivery cannot fail its neighbours.
        """
        try:
            return list(await self._ingest_transaction(units))
        except Exception as exc:
            if len(units) == 1:
                return [exc]
        outcomes: list[IngestOutcome] = []
        for unit in units:
            try:
                outcomes += await self._ingest_transaction([unit])
            except Exception as exc:
                outcomes.append(exc)
        return outcomes

    async def _ingest_transaction(self, units: Sequence[IngestUnit]) -> list[bool]:
        plan = ingest_plan(units, self.dialect)
        if self._sync_engine is None:
            async with self._writer.begin() as conn:
                return await run_async(conn, plan)
        sync_engine = self._sync_engine

        def transaction() -> list[bool]:
            with sync_engine.begin() as conn:
                return run_sync(conn, plan)

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._sync_thread, transaction)

    async def prune_deliveries(self, older_than: datetime) -> int:
        async with self._writer.begin() as conn:
            result = await conn.execute(
                sa.delete(t.deliveries).where(t.deliveries.c.received_at < older_than)
            )
        return int(result.rowcount or 0)

    async def count_commits_by_state(self) -> dict[str, int]:
        return await self.commits.count_by_state()

    def writer(self) -> AsyncEngine:
        """The engine for write transactions (SQLite takes its write lock at BEGIN)."""
        return self._writer
