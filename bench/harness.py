"""An in-process App wired to the fake GitHub and fake LLM of the tests, for benchmarks."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from bot.app import create_app
from bot.runtime.clock import Clock
from bot.settings import Settings
from tests.fakes.github import FakeGitHub
from tests.fakes.llm import FakeLLM
from tests.processes import APP_ID
from tests.support import TEST_SECRET, deliver_replay

ROOT = Path(__file__).resolve().parents[1]


def keys() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


@dataclass
class Harness:
    client: TestClient[Any, Any]
    github: FakeGitHub
    llm: FakeLLM | None
    llm_url: str | None = None

    async def deliver(self, push: dict[str, Any]) -> int:
        return await deliver_replay(self.client, push)


@asynccontextmanager
async def harness(
    clock: Clock,
    *,
    with_llm: bool = False,
    llm: FakeLLM | None = None,
    database_url: str | None = None,
    **settings: Any,
) -> AsyncIterator[Harness]:
    private, public = keys()
    github = FakeGitHub(clock, app_id=APP_ID, public_key=public, check_spec=False)
    github_server = TestServer(github.app())
    await github_server.start_server()
    llm_server = None
    if with_llm:
        llm = llm or FakeLLM()
        llm_server = TestServer(llm.app())
        await llm_server.start_server()
        settings.update(
            llm_base_url=str(llm_server.make_url("/v1")),
            llm_api_key="test-key",
            llm_model=llm.model,
        )
    with tempfile.TemporaryDirectory() as tmp:
        values: dict[str, Any] = {
            "database_url": database_url or f"sqlite:///{tmp}/bench.db",
            "github_app_id": APP_ID,
            "github_private_key": private,
            "github_webhook_secret": TEST_SECRET,
            "github_api_url": str(github_server.make_url("")).rstrip("/"),
            "log_level": "ERROR",
        }
        values.update(settings)
        client = TestClient(
            TestServer(create_app(Settings(**values), clock=clock, background=False))
        )
        await client.start_server()
        try:
            yield Harness(client, github, llm if with_llm else None, settings.get("llm_base_url"))
        finally:
            await client.close()
            await github_server.close()
            if llm_server is not None:
                await llm_server.close()
