"""The App as a real `python -m bot serve` process: a port, its environment, waiting for it,
signed deliveries to it. Shared by the process-level tests and the benchmarks."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import sqlalchemy as sa

from bot.runtime.clock import SystemClock
from bot.store.engine import create_engine
from bot.store.store import Store
from tests.fakes.github import FakeGitHub
from tests.support import ROOT, TEST_SECRET, sign

APP_ID = "1187321"
# Nothing listens there: a process that must not reach GitHub fails its calls harmlessly.
NO_GITHUB = "http://127.0.0.1:9"
START_SECONDS = 60  # a cold start (imports, migrations) on the shared 2-core machine


_FIRST, _SPAN = 20000, 32768 - 20000


def _worker_ports() -> Iterator[int]:
    """This process's share of 20000-32767, in turn from a random place in it. The range
    lies below Linux's ephemeral ports (32768+), so no connection's own end takes a port
    between `free_port` and the process that listens on it; each pytest-xdist worker has a
    share of its own, so two workers never hand out the same port."""
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    index = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")) % count
    size = _SPAN // count
    share = range(_FIRST + index * size, _FIRST + (index + 1) * size)
    start = random.randrange(len(share))
    return itertools.cycle([*share[start:], *share[:start]])


# A process hands each port out once per round of its share (module state on purpose: two
# callers in one test must not both get the port neither has started listening on yet).
_ports = _worker_ports()


def free_port() -> int:
    """A loopback port nothing listens on now, not handed out again by this process before
    its whole share has gone round."""
    for port in itertools.islice(_ports, _SPAN):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use, by another run on this machine or anything else
            return port
    raise AssertionError("every port of this worker's share is in use")


def serve_env(
    *,
    database_url: str,
    private_key_pem: str,
    github_url: str = NO_GITHUB,
    secret: str = TEST_SECRET,
    **extra: str,
) -> dict[str, str]:
    """The environment of a `serve` process on loopback; `extra` adds or overrides settings."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "GITHUB_APP_ID": APP_ID,
        "GITHUB_PRIVATE_KEY": private_key_pem,
        "GITHUB_WEBHOOK_SECRET": secret,
        "GITHUB_API_URL": github_url,
        "HOST": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
        **extra,
    }


async def run_bot(
    *args: str,
    env: dict[str, str],
    stdout: int = subprocess.DEVNULL,
    stderr: int = subprocess.DEVNULL,
) -> asyncio.subprocess.Process:
    """Start `python -m bot ARGS` (e.g. `serve`, `publish --repo R --day D`) from the checkout."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=ROOT, env=env, stdout=stdout, stderr=stderr
    )


async def stop(server: asyncio.subprocess.Process) -> None:
    """SIGTERM a `serve` still running and wait for it; killed (and an error) if it is still
    there after Kubernetes' 30-second grace."""
    if server.returncode is None:
        server.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(server.wait(), 30)
    except TimeoutError:
        server.kill()
        await server.wait()
        raise


def _exited(proc: asyncio.subprocess.Process | subprocess.Popen[bytes] | None) -> bool:
    if proc is None:
        return False
    if isinstance(proc, subprocess.Popen):
        return proc.poll() is not None
    return proc.returncode is not None


async def wait_healthy(
    session: aiohttp.ClientSession,
    port: int,
    proc: asyncio.subprocess.Process | subprocess.Popen[bytes] | None = None,
) -> None:
    """Return once `GET /readyz` answers 200 (listening, database reachable; `/healthz` for a
    tree that has no `/readyz`); fail if the process exits or never answers."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if _exited(proc):
            raise AssertionError(f"the server exited at start ({port})")
        with contextlib.suppress(aiohttp.ClientError):
            async with session.get(f"http://127.0.0.1:{port}/readyz") as r:
                if r.status == 200:
                    return
                if r.status == 404:
                    # An older tree a benchmark compares with answers `/healthz` only.
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as old:
                        if old.status == 200:
                            return
        await asyncio.sleep(0.05)  # waiting for the process to listen, not timing a behaviour
    raise AssertionError(f"the server on port {port} did not become healthy")


async def post_push(session: aiohttp.ClientSession, port: int, push: dict[str, Any]) -> int:
    """Deliver a replay push (its payload and headers), signed with the test secret."""
    body = json.dumps(push["payload"]).encode()
    headers = {**push["headers"], "X-Hub-Signature-256": sign(body)}
    async with session.post(f"http://127.0.0.1:{port}/webhook", data=body, headers=headers) as r:
        await r.read()
        return r.status


async def replay_github(
    aiohttp_server: Any, public_key_pem: str, repo: str, day: str
) -> tuple[FakeGitHub, str]:
    """The fake GitHub serving a replay day, on the real clock (the processes keep theirs),
    and its URL."""
    github = FakeGitHub(SystemClock(), app_id=APP_ID, public_key=public_key_pem)
    github.serve_replay_day(repo, day)
    server = await aiohttp_server(github.app())
    return github, str(server.make_url("")).rstrip("/")


async def first_row(database_url: str, query: sa.Executable) -> Any:
    """The first row of a query, read beside the processes through an engine of its own."""
    engine = create_engine(database_url)
    try:
        async with engine.connect() as conn:
            return (await conn.execute(query)).first()
    finally:
        await engine.dispose()


@contextlib.asynccontextmanager
async def store_beside(database_url: str) -> AsyncIterator[Store]:
    """The App's store on the processes' database, opened beside them (never migrating)."""
    store = await Store.open(database_url, migrate_schema=False)
    try:
        yield store
    finally:
        await store.close()


async def commit_states(database_url: str) -> dict[str, int]:
    """How many commits the processes' store holds in each state."""
    async with store_beside(database_url) as store:
        return await store.count_commits_by_state()


async def unfinished_jobs(database_url: str) -> int:
    """How many of the processes' jobs are pending or running."""
    async with store_beside(database_url) as store:
        by_kind_and_state = await store.jobs.count_by_state()  # "kind:state" -> count
    return sum(n for key, n in by_kind_and_state.items() if key.endswith((":pending", ":running")))
