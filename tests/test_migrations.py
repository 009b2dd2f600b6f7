"""Schema migrations: created at start, and safe when several replicas start together."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from bot.store.digests import Digests
from bot.store.engine import MIGRATIONS, _enter_wal, create_engine, migrate, writer
from bot.store.schema import commits, jobs, metadata
from tests.conftest import ENGINES, throwaway_postgres
from tests.support import assert_one_form_of_instant, in_session_zone


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _head() -> str:
    """The newest revision of the migration scripts (one: the chain has no branches)."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def test_the_migrations_are_one_linear_chain() -> None:
    script = ScriptDirectory.from_config(_config())
    chain = [s.revision for s in script.walk_revisions("base", "heads")]
    assert list(reversed(chain)) == [
        "0001",
        "0002",
        "0003",
        "0004",
        "0005",
        "0006",
        "0007",
        "0008",
        "0009",
        "0010",
        "0011",
        "0012",
        "0013",
        "0014",
        "0015",
        "0016",
        "0017_status_page",
        "0018",
        "0019",
        "0020",
    ]
    assert script.get_heads() == ["0020"]


@pytest.fixture(params=ENGINES)
async def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A database with no schema at all (a throwaway one on PostgreSQL)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    async with throwaway_postgres(f"migrations_{secrets.token_hex(4)}") as url:
        yield url


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


def test_a_connection_that_loses_the_race_to_switch_a_new_file_to_wal_asks_again(
    tmp_path: Path,
) -> None:
    # Replicas opening a new file together race to switch it to WAL. SQLite answers a loser
    # "database is locked" at once, without waiting out its busy timeout, while the winner holds
    # the write lock; the CI run that found this failed one start in about ten.
    path = tmp_path / "fresh.db"
    winner = sqlite3.connect(path, isolation_level=None)
    winner.execute("CREATE TABLE t (a)")
    winner.execute("BEGIN IMMEDIATE")
    winner.execute("INSERT INTO t VALUES (1)")
    loser = sqlite3.connect(path, timeout=30, isolation_level=None)
    refusals: list[str] = []

    class WinnerFinishesAfterTheFirstRefusal:
        def execute(self, sql: str) -> sqlite3.Cursor:
            try:
                return loser.execute(sql)
            except sqlite3.OperationalError as error:
                refusals.append(str(error))
                winner.execute("COMMIT")
                raise

    try:
        _enter_wal(WinnerFinishesAfterTheFirstRefusal())
        assert refusals == ["database is locked"]
        assert loser.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        loser.close()
        winner.close()


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


async def test_open_work_and_posts_of_the_first_schema_move_into_jobs_and_posts(
    empty_database: str,
) -> None:
    """A database left by the first version, mid-day: its queue becomes jobs, its recorded
    parts become posts, so an upgrade neither loses work nor posts anything twice."""
    engine = create_engine(empty_database)
    now = "2026-06-22 10:00:00"
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda sync: command.upgrade(_config_on(sync), "0001"))
            for sql in (
                "INSERT INTO repositories (id, full_name, config_stale, config_error_reported,"
                " timezone, cutoff, tracking_issue, active_since, created_at, updated_at)"
                f" VALUES (1, 'o/r', true, false, 'UTC', '00:00', 5, '{now}', '{now}', '{now}')",
                "INSERT INTO commits (repo_id, sha, position, landed_at, day, branch, forced,"
                " title, message, author_name, url, state, attempts, created_at) VALUES"
                f" (1, 'aaa', 0, '{now}', '2026-06-22', 'main', false, 't', 'm', 'a', 'u',"
                f" 'analyzing', 1, '{now}')",
                "INSERT INTO digests (repo_id, day, state, attempts, target, late, parts,"
                " created_at, published_at) VALUES (1, '2026-06-21', 'published', 1,"
                ' \'discussion\', false, \'[{"key": "part-1", "kind": "discussion",'
                ' "id": "D_1", "url": "u", "number": 3, "hash": "h"}]\','
                f" '{now}', '{now}')",
            ):
                await conn.execute(sa.text(sql))
        await migrate(engine)
        async with engine.connect() as conn:
            jobs = {
                (r.kind, r.key, r.state)
                for r in await conn.execute(sa.text("SELECT kind, key, state FROM jobs"))
            }
            posts = {
                (r.period, r.key, r.kind, r.state, r.node_id, r.number)
                for r in await conn.execute(
                    sa.text("SELECT period, key, kind, state, node_id, number FROM posts")
                )
            }
            commit = (await conn.execute(sa.text("SELECT state FROM commits"))).scalar_one()
        assert jobs == {
            ("refresh_config", "1", "pending"),
            ("analyse_commit", "1/aaa", "pending"),
            ("publish_period", "1/day/2026-06-21", "done"),
        }
        assert posts == {
            ("day:2026-06-21", "part-1", "discussion", "posted", "D_1", 3),
            ("repository", "tracking-issue", "issue", "posted", None, 5),
        }
        assert commit == "pending"
    finally:
        await engine.dispose()


async def test_where_a_first_post_went_is_read_from_the_ledger_and_given_back_on_downgrade(
    empty_database: str,
) -> None:
    """0020 drops `digests.target`, which repeated the ledger's kind of a period's first post:
    the ledger keeps it, and a downgrade fills the column from the ledger again."""
    engine = create_engine(empty_database)
    now = "2026-06-22 10:00:00"
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda sync: command.upgrade(_config_on(sync), "0019"))
            for period, kind in (("day", "issue-comment"), ("week", "discussion")):
                await conn.execute(
                    sa.text(
                        "INSERT INTO digests (repo_id, period_kind, period_start, state, target,"
                        f" late, created_at) VALUES (1, '{period}', '2026-06-21', 'published',"
                        f" '{kind}', false, '{now}')"
                    )
                )
                await conn.execute(
                    sa.text(
                        "INSERT INTO posts (repo_id, period, key, kind, state, node_id,"
                        f" created_at, updated_at) VALUES (1, '{period}:2026-06-21', 'part-1',"
                        f" '{kind}', 'posted', 'N_{period}', '{now}', '{now}')"
                    )
                )
        await migrate(engine)
        async with engine.connect() as conn:
            columns = await conn.run_sync(
                lambda sync: {c["name"] for c in sa.inspect(sync).get_columns("digests")}
            )
            heads = {
                (r.period, r.kind)
                for r in await conn.execute(sa.text("SELECT period, kind FROM posts"))
            }
        assert "target" not in columns
        assert heads == {("day:2026-06-21", "issue-comment"), ("week:2026-06-21", "discussion")}
        async with engine.begin() as conn:
            await conn.run_sync(lambda sync: command.downgrade(_config_on(sync), "0019"))
        async with engine.connect() as conn:
            targets = {
                (r.period_kind, r.target)
                for r in await conn.execute(sa.text("SELECT period_kind, target FROM digests"))
            }
        assert targets == {("day", "issue-comment"), ("week", "discussion")}
    finally:
        await engine.dispose()


async def test_instants_stored_before_0007_are_found_on_their_cutoff_second(
    empty_database: str,
) -> None:
    """A database of revision 0006: SQLite holds instants its bulk insert wrote in the short
    form (whole seconds, no fraction), PostgreSQL naive UTC timestamps. After the upgrade (on
    PostgreSQL in a session zone far from UTC), a commit landed on a cutoff second is in its
    day's window, and every instant is the one it was."""
    engine = create_engine(empty_database)
    cutoff = datetime(2026, 6, 22, tzinfo=UTC)
    short = "2026-06-22 00:00:00"
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda sync: command.upgrade(_config_on(sync), "0006"))
            for sql in (
                "INSERT INTO commits (repo_id, sha, position, landed_at, branch, forced, title,"
                " message, author_name, url, state, created_at) VALUES (1, 'aaa', 0,"
                f" '{short}', 'main', false, 't', 'm', 'a', 'u', 'analyzed',"
                " '2026-06-22 00:00:05.250000')",
                "INSERT INTO jobs (kind, key, payload, state, priority, attempts, not_before,"
                " created_at, updated_at) VALUES ('analyse_commit', '1/aaa', '{}', 'pending',"
                f" 0, 0, '{short}', '{short}', '{short}')",
            ):
                await conn.execute(sa.text(sql))
        await in_session_zone(engine)
        await migrate(engine)
        await assert_one_form_of_instant(engine)
        digests = Digests(engine, writer(engine))
        (commit,) = await digests.window_commits(1, cutoff, cutoff + timedelta(days=1))
        assert commit.landed_at == cutoff
        assert await digests.window_commits(1, cutoff - timedelta(days=1), cutoff) == []
        async with engine.connect() as conn:
            due = (await conn.execute(sa.select(jobs.c.not_before))).scalar_one()
            stored = (await conn.execute(sa.select(commits.c.created_at))).scalar_one()
        assert (due, stored) == (cutoff, cutoff + timedelta(seconds=5.25))
    finally:
        await engine.dispose()


def _config_on(connection: Any) -> Config:
    config = _config()
    config.attributes["connection"] = connection
    return config
