"""Liveness and readiness: `/healthz` fails only when a background loop has died, `/readyz`
when the database does not answer, so a database outage does not restart every replica."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from aiohttp.test_utils import TestClient

from bot.app import LIVENESS, STORE, create_app
from bot.jobs.executor import Executor
from bot.jobs.publish.scheduler import Scheduler
from bot.runtime.background import BackgroundService
from bot.settings import Settings
from tests.support import FakeClock

Client = TestClient[Any, Any]
# The executor runs every job (delivery recovery included); the scheduler enqueues them.
LOOPS = {"executor": Executor, "scheduler": Scheduler}
# The loops of each class /healthz names (`/digest` commands have an executor of their own).
NAMES = {"executor": ["executor", "command-executor"], "scheduler": ["scheduler"]}


async def test_a_database_outage_fails_readiness_not_liveness(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = client.app[STORE]
    ready = await client.get("/readyz")
    assert ready.status == 200
    assert await ready.json() == {"status": "ok", "store": store.dialect}

    async def unreachable() -> None:
        raise sa.exc.OperationalError("SELECT 1", {}, Exception("connection refused"))

    monkeypatch.setattr(store, "ping", unreachable)
    ready = await client.get("/readyz")
    assert ready.status == 503 and (await ready.json())["store"] == "unreachable"
    # The process itself is fine: restarting it would not bring the database back.
    live = await client.get("/healthz")
    assert live.status == 200 and (await live.json()) == {"status": "ok"}


async def live_app(
    aiohttp_client: Callable[..., Any],
    make_settings: Callable[..., Settings],
    github_url: str,
    clock: FakeClock,
    **enabled: bool,
) -> Client:
    """The App with its background loops running on the real clock (only those enabled)."""
    clock.current = datetime.now(UTC)  # the fake GitHub checks the App's JWT on its clock
    settings = make_settings(
        github_api_url=github_url,
        worker_enabled=enabled.get("executor", False),
        scheduler_enabled=enabled.get("scheduler", False),
        recovery_enabled=enabled.get("recovery", False),
    )
    client: Client = await aiohttp_client(create_app(settings, background=True))
    return client


async def test_running_loops_are_live(
    github_url: str,  # first: the fake GitHub outlives the App, whose loops may still call it
    aiohttp_client: Callable[..., Any],
    make_settings: Callable[..., Settings],
    clock: FakeClock,
) -> None:
    client = await live_app(
        aiohttp_client,
        make_settings,
        github_url,
        clock,
        executor=True,
        scheduler=True,
        recovery=True,
    )
    response = await client.get("/healthz")
    assert response.status == 200
    assert client.app[LIVENESS].dead() == []


@pytest.mark.parametrize("name", sorted(LOOPS))
async def test_a_dead_background_loop_fails_liveness(
    name: str,
    github_url: str,  # first: the fake GitHub outlives the App, whose loops may still call it
    aiohttp_client: Callable[..., Any],
    make_settings: Callable[..., Settings],
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    crashed: list[BackgroundService] = []

    async def bug(self: BackgroundService) -> None:
        crashed.append(self)
        raise RuntimeError("a bug outside the loop's own guard")

    monkeypatch.setattr(LOOPS[name], "run", bug)
    client = await live_app(aiohttp_client, make_settings, github_url, clock, **{name: True})
    for _ in range(1000):  # let the loops' tasks start and end
        if len(crashed) == len(NAMES[name]) and all(c.dead for c in crashed):
            break
        await asyncio.sleep(0)
    response = await client.get("/healthz")
    assert response.status == 503
    assert await response.json() == {"status": "unavailable", "dead": NAMES[name]}
    # Readiness still answers for the database.
    assert (await client.get("/readyz")).status == 200
