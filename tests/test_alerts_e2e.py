"""Alerts from a real `serve` process: the fake GitHub delivers a real day's pushes to the
App's webhook as GitHub would. The breaking commit's alert is posted within a minute of its
push, once; redelivering every push, restarting the App, and a push that lands a breaking
commit together with its revert post nothing more."""

from __future__ import annotations

import asyncio
import copy
import signal
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import sqlalchemy as sa

from bot.store.schema import commits
from tests.fakes.github import FakeGitHub
from tests.processes import (
    first_row,
    free_port,
    replay_github,
    run_bot,
    serve_env,
    stop,
    unfinished_jobs,
    wait_healthy,
)
from tests.scenarios import ALERT_MARKER
from tests.support import replay_pushes

pytestmark = pytest.mark.slow

REPO = "vllm-project/vllm-ascend"
DAY = "2026-06-17"
CONFIG = ".github/commit-digest.yml"
WINDOW = 60.0  # the promise: an alert within a minute of the analysis


@pytest.fixture
async def fake(aiohttp_server: Any, public_key_pem: str) -> AsyncIterator[tuple[FakeGitHub, str]]:
    github, url = await replay_github(aiohttp_server, public_key_pem, REPO, DAY)
    github.repos[REPO].files[CONFIG] = "alerts:\n  on: [breaking]\n"
    yield github, url
    await github.hooks.settled()
    github.assert_clean()


def alerts(github: FakeGitHub) -> list[str]:
    return [
        m.group("sha")
        for d in github.repos[REPO].discussions
        if (m := ALERT_MARKER.search(d["body"]))
    ]


async def idle(database_url: str, server: asyncio.subprocess.Process) -> None:
    """Wait until the App has no job left to run now (its work, not a timing)."""
    deadline = time.monotonic() + 90
    while await unfinished_jobs(database_url):
        assert time.monotonic() < deadline, "the App's jobs never settled"
        assert server.returncode is None
        await asyncio.sleep(0.1)


def breaking_and_revert(github: FakeGitHub) -> dict[str, Any]:
    """One push landing a copy of the day's breaking commit and, after it, its revert."""
    pushes = replay_pushes(REPO, DAY)
    breaking = next(
        p
        for p in pushes
        if p["payload"]["head_commit"]["message"].startswith("[Attention] [BugFix]Enable")
    )
    served = github.repos[REPO].commits
    again, revert = "b" * 40, "c" * 40
    payload = copy.deepcopy(breaking["payload"])
    (commit,) = payload["commits"]
    title = commit["message"].split("\n", 1)[0]
    undo = copy.deepcopy(commit) | {
        "id": revert,
        "message": f'Revert "{title}"\n\nThis reverts commit {again}.',
    }
    commit["id"] = again
    payload["commits"] = [commit, undo]
    payload["before"], payload["after"] = pushes[-1]["payload"]["after"], revert
    payload["head_commit"] = undo
    served[again] = {**copy.deepcopy(served[breaking["payload"]["after"]]), "sha": again}
    served[revert] = copy.deepcopy(served[again]) | {"sha": revert}
    served[revert]["commit"] = served[revert]["commit"] | {"message": undo["message"]}
    return {
        "payload": payload,
        "headers": {"X-GitHub-Delivery": "d1f0e2c3-0000-4000-8000-000000000001"},
    }


async def test_a_breaking_commit_alerts_once_within_a_minute_through_serve(
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
        WORKER_POLL_SECONDS="0.2",
        SCHEDULER_ENABLED="false",  # the day is long past: no digest, only what alerts do
        RECOVERY_ENABLED="false",
    )
    pushes = replay_pushes(REPO, DAY)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        server = await run_bot("serve", env=env)
        try:
            await wait_healthy(session, port, server)
            sent = []
            for push in pushes:
                sent.append(await github.hooks.send_push(push))
                assert sent[-1].status_code == 202
                if alerts(github) == [] and push["payload"]["head_commit"]["message"].startswith(
                    "[Attention] [BugFix]Enable"
                ):
                    pushed_at = time.monotonic()
            deadline = pushed_at + WINDOW
            while not alerts(github):
                assert time.monotonic() < deadline, "no alert within a minute"
                assert server.returncode is None
                await asyncio.sleep(0.1)  # waiting for the App's post, not timing it
            (sha,) = alerts(github)
            await idle(database_url, server)

            # GitHub delivers every push again (a redelivery keeps its GUID) ...
            for attempt in sent:
                github.hooks.redeliver(attempt)
            await github.hooks.settled()
            await idle(database_url, server)
            server.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(server.wait(), 30) == 0
            # ... the App restarts ...
            server = await run_bot("serve", env=env)
            await wait_healthy(session, port, server)
            # ... and a breaking commit lands together with its revert.
            pair = breaking_and_revert(github)
            assert (await github.hooks.send_push(pair)).status_code == 202
            await idle(database_url, server)
            landed = sa.select(sa.func.count()).where(
                commits.c.sha.in_([c["id"] for c in pair["payload"]["commits"]]),
                commits.c.state == "analyzed",
            )
            assert (await first_row(database_url, landed))[0] == 2
        finally:
            await stop(server)
    assert alerts(github) == [sha]
    creates = [c for c in github.calls if c.operation == "CreateDigestDiscussion"]
    assert len(creates) == 1
