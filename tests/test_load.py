"""Load: 10,000 signed deliveries at 500 a second to a real `serve` process, 1,000 of them
redeliveries. Every one answered, no 5xx, nothing lost, nothing stored twice."""

from __future__ import annotations

import asyncio
import random
import sys
import time

import aiohttp
import pytest
import sqlalchemy as sa

from bench.ingest import SECRET, load_pushes, make_deliveries
from bot.store.engine import create_engine
from bot.store.schema import commits, deliveries, pushes
from tests.processes import free_port, serve_env, wait_healthy
from tests.support import ROOT

TOTAL = 10_000
DUPLICATES = 1_000
RATE = 500.0

pytestmark = pytest.mark.slow


async def test_ten_thousand_deliveries_at_500_a_second(
    database_url: str, private_key_pem: str
) -> None:
    port = free_port()
    env = serve_env(
        database_url=database_url,
        private_key_pem=private_key_pem,
        secret=SECRET,  # the secret bench.ingest signs its deliveries with
        WORKER_ENABLED="false",
        SCHEDULER_ENABLED="false",
        PORT=str(port),
    )
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "serve", cwd=ROOT, env=env
    )
    unique = make_deliveries(load_pushes(), TOTAL - DUPLICATES)
    rng = random.Random(500)
    # Redeliveries keep their id and body (as GitHub's do), some soon after, some much later.
    sends = list(unique)
    for original in rng.sample(unique, DUPLICATES):
        sends.insert(rng.randrange(sends.index(original) + 1, len(sends) + 1), original)
    statuses: list[int] = []
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=256)) as session:
            await wait_healthy(session, port, server)

            async def one(d: object) -> None:
                async with session.post(
                    f"http://127.0.0.1:{port}/webhook", data=d.body, headers=d.headers
                ) as r:  # type: ignore[attr-defined]
                    await r.read()
                    statuses.append(r.status)

            started = time.perf_counter()
            tasks = []
            for i, delivery in enumerate(sends):
                delay = started + i / RATE - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)  # pacing the load at 500 a second
                tasks.append(asyncio.create_task(one(delivery)))
            await asyncio.gather(*tasks)
    finally:
        server.terminate()
        await server.wait()

    assert len(statuses) == TOTAL
    assert not [s for s in statuses if s >= 500]
    assert statuses.count(202) == TOTAL - DUPLICATES
    assert statuses.count(200) == DUPLICATES
    engine = create_engine(database_url)
    async with engine.connect() as conn:
        counts = [
            (await conn.execute(sa.select(sa.func.count()).select_from(table))).scalar_one()
            for table in (deliveries, pushes, commits)
        ]
    await engine.dispose()
    assert counts == [TOTAL - DUPLICATES] * 3
