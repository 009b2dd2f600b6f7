"""The store's ingest contract, on every engine this run reaches (SQLite, and PostgreSQL if set)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from bot.store import Store
from bot.store.group_commit import GroupCommit, IngestClosed
from bot.store.records import (
    DeleteInstallation,
    DeliveryRecord,
    IngestUnit,
    NewCommit,
    RecordPush,
    UpsertInstallation,
    UpsertRepository,
)
from bot.store.schema import commits, deliveries, pushes, repositories

NOW = datetime(2026, 7, 10, 12, 0, tzinfo=UTC)


@pytest.fixture
async def store(any_database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(any_database_url)
    yield store
    await store.close()


def push_unit(delivery: str, *shas: str, repo_id: int = 1, installation: int = 7) -> IngestUnit:
    record = DeliveryRecord(id=delivery, event="push", received_at=NOW)
    return IngestUnit(
        record,
        [
            UpsertRepository(
                id=repo_id,
                installation_id=installation,
                full_name=f"o/r{repo_id}",
                default_branch="main",
            ),
            RecordPush(
                repo_id=repo_id,
                installation_id=installation,
                delivery_id=delivery,
                ref="refs/heads/main",
                branch="main",
                before="a" * 40,
                after=shas[-1] if shas else "b" * 40,
                forced=False,
                created=False,
                pushed_at=NOW,
                commits=tuple(
                    NewCommit(
                        sha=sha,
                        position=i,
                        title=f"commit {sha[:7]}",
                        message=f"commit {sha[:7]}\n\nbody",
                        author_name="Ada",
                        author_login="ada",
                        author_email="ada@example.com",
                        url=f"https://github.com/o/r/commit/{sha}",
                        pr_number=None,
                    )
                    for i, sha in enumerate(shas)
                ),
            ),
        ],
    )


async def count(store: Store, table: sa.Table) -> int:
    async with store.engine.connect() as conn:
        return int((await conn.execute(sa.select(sa.func.count()).select_from(table))).scalar_one())


async def test_a_batch_dedupes_deliveries_and_commits(store: Store) -> None:
    sha1, sha2 = "1" * 40, "2" * 40
    outcomes = await store.ingest(
        [push_unit("d1", sha1), push_unit("d1", sha1), push_unit("d2", sha1, sha2)]
    )
    # The same delivery twice in one batch is stored once; the overlap keeps one row per sha.
    assert outcomes == [True, False, True]
    assert await count(store, deliveries) == 2
    assert await count(store, pushes) == 2
    assert await count(store, commits) == 2
    assert await store.ingest([push_unit("d2", sha2)]) == [False]


async def test_one_bad_unit_does_not_fail_its_batch(store: Store) -> None:
    bad = push_unit("bad", "3" * 40)
    # A row that violates NOT NULL, which every engine refuses.
    bad.operations[0] = UpsertRepository(id=2, installation_id=7, full_name=None)  # type: ignore[arg-type]
    outcomes = await store.ingest(
        [push_unit("good-1", "4" * 40), bad, push_unit("good-2", "5" * 40)]
    )
    assert outcomes[0] is True and outcomes[2] is True
    assert isinstance(outcomes[1], Exception)
    async with store.engine.connect() as conn:
        stored = set((await conn.execute(sa.select(commits.c.sha))).scalars())
        seen = set((await conn.execute(sa.select(deliveries.c.id))).scalars())
    assert stored == {"4" * 40, "5" * 40}
    # The failed delivery is not marked seen: a redelivery can still store it.
    assert seen == {"good-1", "good-2"}


async def test_deletion_in_a_batch_applies_in_order(store: Store) -> None:
    install = IngestUnit(
        DeliveryRecord("i1", "installation", NOW), [UpsertInstallation(7, "o", "Organization")]
    )
    uninstall = IngestUnit(DeliveryRecord("i2", "installation", NOW), [DeleteInstallation(7)])
    await store.ingest(
        [install, push_unit("before", "6" * 40), uninstall, push_unit("after", "7" * 40)]
    )
    async with store.engine.connect() as conn:
        stored = set((await conn.execute(sa.select(commits.c.sha))).scalars())
    assert stored == {"7" * 40}


async def test_repository_upsert_keeps_known_fields(store: Store) -> None:
    await store.ingest([push_unit("d1", "8" * 40)])
    later = IngestUnit(
        DeliveryRecord("d2", "installation_repositories", NOW),
        [UpsertRepository(id=1, installation_id=9, full_name="o/renamed")],
    )
    await store.ingest([later])
    async with store.engine.connect() as conn:
        row = (await conn.execute(sa.select(repositories))).one()
    assert (row.full_name, row.installation_id, row.default_branch) == ("o/renamed", 9, "main")


async def test_group_commit_batches_concurrent_units_and_closes(store: Store) -> None:
    group = GroupCommit(store)
    group.start()
    results = await asyncio.gather(
        *(group.submit(push_unit(f"g{i}", f"{i:040x}")) for i in range(50))
    )
    assert results == [True] * 50
    await group.close()
    with pytest.raises(IngestClosed):
        await group.submit(push_unit("late", "9" * 40))
    assert await count(store, commits) == 50


async def test_prune_forgets_old_deliveries(store: Store) -> None:
    await store.ingest([push_unit("old", "a" * 40)])
    assert await store.prune_deliveries(NOW) == 0
    assert await store.prune_deliveries(datetime(2026, 7, 11, tzinfo=UTC)) == 1
    # Commits stay: only the dedupe ids go.
    assert await count(store, commits) == 1
