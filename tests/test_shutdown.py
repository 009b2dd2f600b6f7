"""SIGTERM with a publication in flight: `serve` claims nothing more, gives back what it holds
and exits well within Kubernetes' 30-second grace, and the next replica publishes at once
(not after a stale lease expires), once."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import sqlalchemy as sa

from bot.store.schema import jobs
from tests.fakes.github import FakeGitHub
from tests.processes import (
    commit_states,
    first_row,
    free_port,
    post_push,
    replay_github,
    run_bot,
    serve_env,
    wait_healthy,
)
from tests.support import replay_pushes

pytestmark = pytest.mark.slow

REPO = "vllm-project/llm-compressor"
DAY = "2026-06-22"  # long past on the real clock: the scheduler publishes it at once
KUBERNETES_GRACE = 30.0


@pytest.fixture
async def fake(aiohttp_server: Any, public_key_pem: str) -> AsyncIterator[tuple[FakeGitHub, str]]:
    github, url = await replay_github(aiohttp_server, public_key_pem, REPO, DAY)
    yield github, url
    github.release.set()
    github.assert_clean()


async def test_sigterm_mid_publication_gives_it_back_and_exits_in_time(
    fake: tuple[FakeGitHub, str], database_url: str, private_key_pem: str, tmp_path: Path
) -> None:
    github, github_url = fake
    # The Discussion's creation hangs (GitHub slow): the publication is in flight at SIGTERM.
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", hang=True)
    env = serve_env(
        database_url=database_url,
        private_key_pem=private_key_pem,
        github_url=github_url,
        WORKER_POLL_SECONDS="0.2",
        SCHEDULER_MAX_SLEEP_SECONDS="1",
    )
    pushes = replay_pushes(REPO, DAY)
    log_file = tmp_path / "serve.log"
    logged = {"LOG_LEVEL": "INFO", "LOG_FORMAT": "json"}
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        port = free_port()
        with log_file.open("wb") as log:
            server = await run_bot(
                "serve", env={**env, **logged, "PORT": str(port)}, stderr=log.fileno()
            )
        try:
            await wait_healthy(session, port, server)
            for push in pushes:
                assert await post_push(session, port, push) == 202
            async with asyncio.timeout(120):
                await github.hanging.wait()
            sent = time.monotonic()
            server.send_signal(signal.SIGTERM)
            async with asyncio.timeout(KUBERNETES_GRACE):
                await server.wait()
            took = time.monotonic() - sent
        finally:
            if server.returncode is None:
                server.kill()
                await server.wait()
    assert server.returncode == 0
    assert took < KUBERNETES_GRACE / 2, took
    # Its last line says what it gave back: the publication, to the next replica.
    lines = [json.loads(line) for line in log_file.read_text().splitlines() if line.startswith("{")]
    assert lines[-1]["event"] == "serve_stopped", lines[-3:]
    stopped = lines[-1]
    assert stopped["jobs_released"] >= 1 and stopped["jobs_not_released"] == 0, stopped
    assert (stopped["deliveries_under_way"], stopped["deliveries_cut_off"]) == (0, 0), stopped
    assert 0 <= stopped["seconds"] < KUBERNETES_GRACE / 2, stopped
    # Given back, not left leased: pending, the interrupted attempt not counted.
    job = await first_row(database_url, sa.select(jobs).where(jobs.c.kind == "publish_period"))
    assert (job.state, job.lease_owner, job.attempts) == ("pending", None, 0)
    github.release.set()

    # The next replica publishes it straight away, once.
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        port = free_port()
        server = await run_bot("serve", env={**env, "PORT": str(port)})
        try:
            await wait_healthy(session, port, server)
            async with asyncio.timeout(60):
                await github.discussion_created.wait()
        finally:
            server.send_signal(signal.SIGTERM)
            await server.wait()
    (discussion,) = github.repos[REPO].discussions
    assert f"**{len(pushes)} commits**" in discussion["body"]
    assert sum((await commit_states(database_url)).values()) == len(pushes)
