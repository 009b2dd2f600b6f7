"""The App down for part of a real day, as real `serve` processes: the fake GitHub delivers the
day's pushes to the App's webhook as GitHub would, four while nothing listens. After the
restart, the App's recovery gets them redelivered, and the digest has every commit."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import pytest
import sqlalchemy as sa

from bot.store.schema import deliveries
from tests.fakes.github import FakeGitHub
from tests.processes import (
    commit_states,
    first_row,
    free_port,
    replay_github,
    run_bot,
    serve_env,
    stop,
    wait_healthy,
)
from tests.support import replay_pushes

pytestmark = pytest.mark.slow

REPO = "vllm-project/llm-compressor"
DAY = "2026-08-18"  # sixteen pushes of one commit each
DOWN = range(6, 10)  # the pushes sent while the App is down
DEADLINE = 90.0


@pytest.fixture
async def fake(aiohttp_server: Any, public_key_pem: str) -> AsyncIterator[tuple[FakeGitHub, str]]:
    github, url = await replay_github(aiohttp_server, public_key_pem, REPO, DAY)
    yield github, url
    await github.hooks.settled()
    github.assert_clean()


async def test_pushes_missed_while_the_app_was_down_reach_the_digest(
    database_url: str, fake: tuple[FakeGitHub, str], private_key_pem: str
) -> None:
    github, url = fake
    port = free_port()
    github.hooks.url = f"http://127.0.0.1:{port}/webhook"
    env = serve_env(
        database_url=database_url,
        private_key_pem=private_key_pem,
        github_url=url,
        PORT=str(port),
        WORKER_POLL_SECONDS="0.1",
        SCHEDULER_ENABLED="false",
        RECOVERY_INTERVAL_SECONDS="0.2",
    )
    pushes = replay_pushes(REPO, DAY)
    shas = [c["id"] for p in pushes for c in p["payload"]["commits"]]
    # A push that failed four days ago: past GitHub's window, it is not asked for.
    stale = replay_pushes(REPO, "2026-07-07")[0]
    github.hooks.url, live_url = None, github.hooks.url
    too_old = await github.hooks.send_push(stale, at=datetime.now(UTC) - timedelta(days=4))
    github.hooks.url = live_url

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        server = await run_bot("serve", env=env)
        try:
            await wait_healthy(session, port, server)
            for push in pushes[: DOWN.start]:
                assert (await github.hooks.send_push(push)).status_code == 202
            server.send_signal(signal.SIGTERM)
            # Well within Kubernetes' 30-second grace period.
            assert await asyncio.wait_for(server.wait(), 30) == 0
            failed = [await github.hooks.send_push(push) for push in pushes[DOWN.start : DOWN.stop]]
            assert {(a.status_code, a.status) for a in failed} == {
                (502, "failed to connect to host")
            }

            server = await run_bot("serve", env=env)
            listed_before = len(github.calls_to("GET", r"^/app/hook/deliveries$"))
            await wait_healthy(session, port, server)
            for push in pushes[DOWN.stop :]:
                assert (await github.hooks.send_push(push)).status_code == 202
            # Every commit analysed, and the recovery loop has gone round a few more times.
            deadline = time.monotonic() + DEADLINE
            while (await commit_states(database_url)).get("analyzed", 0) < len(shas) or len(
                github.calls_to("GET", r"^/app/hook/deliveries$")
            ) < listed_before + 4:
                assert time.monotonic() < deadline, "the missed pushes never came back"
                assert server.returncode is None
                await asyncio.sleep(0.1)  # waiting for the server's work, not timing it
        finally:
            await stop(server)

    # Each missed GUID asked for once, and redelivered once (same GUID), to a 202.
    asks = github.calls_to("POST", r"^/app/hook/deliveries/\d+/attempts$")
    assert sorted(int(c.path.split("/")[-2]) for c in asks) == sorted(a.id for a in failed)
    assert all(c.auth == "jwt" and c.status == 202 for c in asks)
    redelivered = github.hooks.redeliveries()
    assert sorted((a.guid, a.status_code) for a in redelivered) == sorted(
        (a.guid, 202) for a in failed
    )
    # The delivery past the window was neither asked for nor stored.
    assert too_old.guid not in {a.guid for a in redelivered}
    stored = await first_row(
        database_url, sa.select(sa.func.count()).where(deliveries.c.id == too_old.guid)
    )
    assert stored[0] == 0

    publish = await run_bot(
        "publish", "--repo", REPO, "--day", DAY, env=env, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await publish.communicate()
    assert publish.returncode == 0 and b"published" in out, out
    (discussion,) = github.repos[REPO].discussions
    posted = "\n".join([discussion["body"], *(c["body"] for c in discussion["comments"])])
    assert f"**{len(shas)} commits**" in posted
    assert all(sha[:7] in posted for sha in shas)
