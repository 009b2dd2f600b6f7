"""Crashes: a real replay day with the server killed (SIGKILL) at 20 random moments and
restarted each time, the publication killed too. The digest and the alerts sent as commits
were analysed are identical to an uninterrupted run's, and each is posted once."""

from __future__ import annotations

import asyncio
import random
import re
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.fakes.github import FakeGitHub
from tests.processes import (
    commit_states,
    free_port,
    post_push,
    replay_github,
    run_bot,
    serve_env,
    unfinished_jobs,
    wait_healthy,
)
from tests.support import replay_pushes

pytestmark = pytest.mark.slow

REPO = "vllm-project/vllm-ascend"
DAY = "2026-07-10"
KILLS = 20
ALERTS = "alerts:\n  on: [high]\n  max_per_day: 2\n"


@pytest.fixture
async def fake(aiohttp_server: Any, public_key_pem: str) -> AsyncIterator[tuple[FakeGitHub, str]]:
    github, url = await replay_github(aiohttp_server, public_key_pem, REPO, DAY)
    # Four commits of the day are high: two alerts of their own, two in the "more" post.
    github.repos[REPO].files[".github/commit-digest.yml"] = ALERTS
    yield github, url
    github.assert_clean()


class Run:
    """The App as a series of processes on one database, with a kill switch."""

    def __init__(self, database_url: str, github_url: str, private_key_pem: str) -> None:
        self.env = serve_env(
            database_url=database_url,
            private_key_pem=private_key_pem,
            github_url=github_url,
            WORKER_LEASE_SECONDS="2",
            WORKER_POLL_SECONDS="0.1",
            SCHEDULER_ENABLED="false",
            RECOVERY_ENABLED="false",  # its round is always pending: "no work left" would never come
        )
        self.database_url = database_url

    async def serve(self, port: int) -> asyncio.subprocess.Process:
        return await run_bot("serve", env={**self.env, "PORT": str(port)})

    async def publish(self) -> asyncio.subprocess.Process:
        return await run_bot(
            "publish", "--repo", REPO, "--day", DAY, env=self.env, stdout=asyncio.subprocess.PIPE
        )

    async def settled(self, expected: int) -> bool:
        """Every commit analysed, and no work (an alert) left to run."""
        analysed = (await commit_states(self.database_url)).get("analyzed", 0)
        return analysed >= expected and not await unfinished_jobs(self.database_url)


async def ingest_and_analyse(run: Run, rng: random.Random | None, kills: int) -> int:
    """Deliver the day (one push every 0.5 s, as pushes trickle in) and let the worker
    finish, killing the server at `kills` random moments; returns the kills made."""
    pending = list(replay_pushes(REPO, DAY))
    expected = len(pending)
    killed = 0
    loop = asyncio.get_running_loop()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        while pending or not await run.settled(expected):
            port = free_port()
            server = await run.serve(port)
            await wait_healthy(session, port, server)
            chaos = rng is not None and killed < kills
            kill_at = loop.time() + (rng.uniform(0.1, 1.0) if chaos and rng else 1e9)
            try:
                while loop.time() < kill_at:
                    if pending:
                        try:
                            status = await post_push(session, port, pending[0])
                        except aiohttp.ClientError:
                            break
                        assert status in (200, 202)
                        pending.pop(0)
                        if chaos:
                            await asyncio.sleep(0.5)  # pushes trickle in: moments to kill at
                    elif await run.settled(expected):
                        break
                    else:
                        await asyncio.sleep(0.05)  # the executor is still at it
            finally:
                if server.returncode is None:
                    server.send_signal(signal.SIGKILL if chaos else signal.SIGTERM)
                await server.wait()
            killed += chaos
    return killed


async def publish(run: Run, rng: random.Random | None, kills: int) -> None:
    """Run `publish` until it reports the day posted, killing it `kills` times on the way."""
    for attempt in range(kills + 5):
        proc = await run.publish()
        if rng is not None and attempt < kills:
            await asyncio.sleep(rng.uniform(0.3, 1.6))  # a random moment in its life
            if proc.returncode is None:
                proc.send_signal(signal.SIGKILL)
            await proc.wait()
            continue
        out, _ = await proc.communicate()
        if proc.returncode == 0 and (b"published" in out or b"skipped" in out):
            return
    raise AssertionError("publish never finished")


def posted(github: FakeGitHub) -> list[str]:
    """Every post's body; discussion numbers (which follow the order of creation) left out."""
    return sorted(
        re.sub(r"/discussions/\d+", "/discussions/N", b)
        for d in github.repos[REPO].discussions
        for b in [d["body"], *(c["body"] for c in d["comments"])]
    )


async def test_killed_twenty_times_the_digest_is_identical_and_posted_once(
    database_url: str, fake: tuple[FakeGitHub, str], private_key_pem: str, tmp_path: Path
) -> None:
    github, url = fake
    # The uninterrupted run, on its own database.
    calm = Run(f"sqlite:///{tmp_path / 'calm.db'}", url, private_key_pem)
    await ingest_and_analyse(calm, None, 0)
    await publish(calm, None, 0)
    reference = posted(github)
    (digest,) = [b for b in reference if ":part-1 -->" in b]
    assert "**32 commits**" in digest
    alerts = [b for b in reference if ":alert:" in b]
    (more,) = [b for b in reference if ":alerts-more -->" in b]
    assert len(alerts) == 2 and len(set(re.findall(r"/commit/([0-9a-f]{40})", more))) == 2
    github.repos[REPO].discussions.clear()

    rng = random.Random(20)
    before = len(github.calls)
    crashing = Run(database_url, url, private_key_pem)
    # A server killed mid-run may have answered a push and died before the next: GitHub would
    # not resend what was acknowledged, and nothing acknowledged may be lost.
    assert await ingest_and_analyse(crashing, rng, KILLS - 5) == KILLS - 5
    await publish(crashing, rng, 5)
    assert posted(github) == reference
    assert len(github.repos[REPO].discussions) == 4  # the digest, two alerts, the "more" post
    creates = [c for c in github.calls[before:] if c.operation == "CreateDigestDiscussion"]
    assert len(creates) == 4  # each post asked for once: never a second create
