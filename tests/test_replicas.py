"""Several replicas on one PostgreSQL database: pushes spread across three `serve` processes in
random order, some delivered twice, one replica killed (SIGKILL) halfway; then the day is
published by two racing `publish` commands. Every commit is analysed once, one digest is
posted, nothing is lost."""

from __future__ import annotations

import asyncio
import random
import signal
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import sqlalchemy as sa

from bot.store.engine import create_engine
from bot.store.schema import analyses, commits, deliveries
from tests.conftest import PG_URL
from tests.fakes.github import FakeGitHub
from tests.processes import (
    commit_states,
    free_port,
    post_push,
    replay_github,
    run_bot,
    serve_env,
    wait_healthy,
)
from tests.support import replay_day, replay_pushes

pytestmark = [
    pytest.mark.skipif(
        not PG_URL, reason="replicas share a PostgreSQL database (TEST_DATABASE_URL)"
    ),
    pytest.mark.database,
]

REPO = "vllm-project/vllm-ascend"
DAY = "2026-07-10"
LEASE = 10  # seconds; the killed replica's claims return to the queue after this
CONCURRENCY = 4


@pytest.fixture
async def fake_github(
    aiohttp_server: Any, public_key_pem: str
) -> AsyncIterator[tuple[FakeGitHub, str]]:
    # The replicas run on real time, so the fake checks their JWTs and tokens on real time too.
    github, url = await replay_github(aiohttp_server, public_key_pem, REPO, DAY)
    yield github, url
    github.assert_clean()


def replica_env(
    database_url: str, github_url: str, private_key_pem: str, **extra: str
) -> dict[str, str]:
    return serve_env(
        database_url=database_url,
        private_key_pem=private_key_pem,
        github_url=github_url,
        WORKER_LEASE_SECONDS=str(LEASE),
        WORKER_POLL_SECONDS="0.2",
        WORKER_CONCURRENCY=str(CONCURRENCY),
        SCHEDULER_ENABLED="false",
        LOG_LEVEL="WARNING",
        **extra,
    )


async def test_three_replicas_one_killed_analyse_everything_once_and_post_once(
    database_url: str, fake_github: tuple[FakeGitHub, str], private_key_pem: str
) -> None:
    github, github_url = fake_github
    env = replica_env(database_url, github_url, private_key_pem)
    ports = [free_port() for _ in range(3)]
    replicas = [await run_bot("serve", env={**env, "PORT": str(port)}) for port in ports]
    rng = random.Random(20260710)
    pushes = replay_pushes(REPO, DAY)
    # Every push once, six of them twice (GitHub redeliveries), in a shuffled order.
    sends = pushes + rng.sample(pushes, 6)
    rng.shuffle(sends)
    engine = create_engine(database_url)
    try:
        async with aiohttp.ClientSession() as session:
            for port, proc in zip(ports, replicas, strict=True):
                await wait_healthy(session, port, proc)
            alive = [0, 1, 2]
            for i, push in enumerate(sends):
                if i == len(sends) // 2:
                    replicas[0].send_signal(signal.SIGKILL)
                    await replicas[0].wait()
                target = rng.choice([0, 1, 2])
                try:
                    status = await post_push(session, ports[target], push)
                except aiohttp.ClientConnectionError:
                    # The killed replica: GitHub marks the delivery failed; it is redelivered.
                    alive = [1, 2]
                    status = await post_push(session, ports[rng.choice(alive)], push)
                assert status in (200, 202)

            # The surviving replicas drain the queue, including what the dead one had claimed.
            for _ in range(600):
                states = await commit_states(database_url)
                if states == {"analyzed": len(pushes)}:
                    break
                await asyncio.sleep(0.1)  # polling the database for the end state
            assert states == {"analyzed": len(pushes)}

        # The day is then posted by two `publish` commands at once, and by them only: a
        # replica's executor would claim the job a command enqueues (both commands then
        # find it busy), so the replicas stop first.
        for proc in replicas:
            if proc.returncode is None:
                proc.terminate()
                await proc.wait()
        publishers = [
            await run_bot(
                "publish",
                "--repo",
                REPO,
                "--day",
                DAY,
                env=env,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            for _ in range(2)
        ]
        outputs = [await p.communicate() for p in publishers]
        assert all(p.returncode == 0 for p in publishers), outputs
    finally:
        for proc in replicas:
            if proc.returncode is None:
                proc.terminate()
                await proc.wait()

    async with engine.connect() as conn:
        stored = (await conn.execute(sa.select(commits.c.sha))).scalars().all()
        analysed = (await conn.execute(sa.select(analyses.c.sha))).scalars().all()
        delivered = (
            await conn.execute(sa.select(sa.func.count()).select_from(deliveries))
        ).scalar_one()
    await engine.dispose()
    day = replay_day(REPO, DAY)
    shas = [c["sha"] for c in day["commits"]]
    assert sorted(stored) == sorted(shas) and sorted(analysed) == sorted(shas)
    assert delivered == len(pushes)
    # Each commit fetched once, except those the killed replica had claimed (fetched again).
    fetches = [github.fetches_of(REPO, sha) for sha in shas]
    assert min(fetches) == 1 and max(fetches) <= 2
    assert sum(fetches) - len(shas) <= 2 * CONCURRENCY
    (discussion,) = github.repos[REPO].discussions
    assert f"**{len(shas)} commits**" in discussion["body"]
    results = sorted(out.decode().split(":")[1].strip() for out, _ in outputs)
    # One posted it; the other found it taken (busy) or already done (skipped).
    assert results[0] == "busy" or results[1] == "skipped", results
    assert sum(r == "published" for r in results) == 1, results
