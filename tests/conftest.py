"""Fixtures shared by every test: a database per test, settings, a fake clock, the app client,
the fake LLM and an analyser that asks it."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
import sqlalchemy as sa
from aiohttp.test_utils import TestClient
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from bot.analysis.llm import LLMAnalyzer
from bot.app import create_app
from bot.logs import configure_logging
from bot.settings import Settings
from bot.store.engine import create_engine, migrate
from bot.store.schema import metadata
from tests.fakes.github import FakeGitHub
from tests.fakes.llm import FakeLLM
from tests.processes import APP_ID
from tests.support import SHARED, TEST_SECRET, FakeClock

PG_URL = os.environ.get("TEST_DATABASE_URL")
ENGINES = ["sqlite", "postgresql"] if PG_URL else ["sqlite"]

configure_logging(fmt="console", level="WARNING")


def pytest_sessionstart(session: pytest.Session) -> None:
    # Most tests read GitHub's payloads and the replay days: say where they were looked for,
    # once, rather than a FileNotFoundError in every test.
    if not (SHARED / "github" / "webhooks").is_dir() or not (SHARED / "replay").is_dir():
        pytest.exit(
            f"the reference material is not in {SHARED}: keep the clone next to `shared`, "
            "or set COMMIT_DIGEST_SHARED to where it is",
            returncode=4,
        )


@pytest.fixture(scope="session")
def app_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="session")
def private_key_pem(app_key: rsa.RSAPrivateKey) -> str:
    return app_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


@pytest.fixture(scope="session")
def public_key_pem(app_key: rsa.RSAPrivateKey) -> str:
    return (
        app_key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


@pytest.fixture
def github(clock: FakeClock, public_key_pem: str) -> Iterator[FakeGitHub]:
    """The fake GitHub's state; a test fails if the App made a call GitHub would refuse."""
    fake = FakeGitHub(clock, app_id=APP_ID, public_key=public_key_pem)
    yield fake
    fake.assert_clean()


@pytest.fixture
async def github_url(aiohttp_server: Callable[..., Any], github: FakeGitHub) -> str:
    server = await aiohttp_server(github.app())
    return str(server.make_url("")).rstrip("/")


_pg_schema_rebuilt = False


async def _fresh_postgres(url: str) -> None:
    """Rebuild the schema once per run (from the migrations), then empty the tables per test."""
    global _pg_schema_rebuilt  # noqa: PLW0603 - test-session state, not app state
    engine = create_engine(url)
    try:
        if not _pg_schema_rebuilt:
            async with engine.begin() as conn:
                await conn.execute(sa.text("DROP SCHEMA public CASCADE"))
                await conn.execute(sa.text("CREATE SCHEMA public"))
            _pg_schema_rebuilt = True
        await migrate(engine)
        async with engine.begin() as conn:
            names = ", ".join(table.name for table in metadata.sorted_tables)
            await conn.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY"))
    finally:
        await engine.dispose()


async def database_for(engine: str, tmp_path: Path) -> str:
    if engine == "postgresql":
        assert PG_URL
        await _fresh_postgres(PG_URL)
        return PG_URL
    return f"sqlite:///{tmp_path / 'commit-digest.db'}"


@pytest.fixture
async def database_url(tmp_path: Path) -> str:
    """The suite's engine: PostgreSQL when TEST_DATABASE_URL is set, else a SQLite file."""
    return await database_for("postgresql" if PG_URL else "sqlite", tmp_path)


@pytest.fixture(params=ENGINES)
async def any_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """For the store's contract tests: every engine this run can reach."""
    return await database_for(request.param, tmp_path)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_settings(database_url: str, private_key_pem: str) -> Callable[..., Settings]:
    def make(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "database_url": database_url,
            "github_app_id": APP_ID,
            "github_private_key": private_key_pem,
            "github_webhook_secret": TEST_SECRET,
            "log_format": "console",
            "log_level": "WARNING",
        }
        values.update(overrides)
        return Settings(**values)

    return make


@pytest.fixture
def settings(make_settings: Callable[..., Settings]) -> Settings:
    return make_settings()


@pytest.fixture
async def app_client(
    aiohttp_client: Callable[..., Any],
    make_settings: Callable[..., Settings],
    clock: FakeClock,
    github_url: str,
) -> Callable[..., Any]:
    """Build App clients wired to the fake GitHub (background loops off: tests drive them)."""

    async def make(**overrides: Any) -> TestClient[Any, Any]:
        settings = make_settings(github_api_url=github_url, **overrides)
        return await aiohttp_client(create_app(settings, clock=clock, background=False))

    return make


@pytest.fixture
async def client(
    aiohttp_client: Callable[..., Any], settings: Settings, clock: FakeClock
) -> AsyncIterator[TestClient[Any, Any]]:
    """The App over HTTP, without background services: tests drive them explicitly."""
    yield await aiohttp_client(create_app(settings, clock=clock, background=False))


@pytest.fixture
def environ_clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in list(os.environ):
        if name.startswith(("GITHUB_", "LLM_", "DATABASE_URL")):
            monkeypatch.delenv(name)
    yield


@pytest.fixture
def fake() -> FakeLLM:
    return FakeLLM()


@pytest.fixture
async def make_analyzer(aiohttp_server: Callable[..., Any], fake: FakeLLM) -> Callable[..., Any]:
    """Build `LLMAnalyzer`s that ask the `fake` LLM; keyword arguments override its options."""
    server = await aiohttp_server(fake.app())

    def make(**overrides: Any) -> LLMAnalyzer:
        client = openai.AsyncOpenAI(
            base_url=str(server.make_url("/v1")),
            api_key=overrides.pop("api_key", "test-key"),
            max_retries=0,
        )
        options: dict[str, Any] = {
            "model": "fake-model",
            "max_input_tokens": 12_000,
            "max_output_tokens": 2_000,
            "concurrency": 4,
            "timeout_seconds": 5.0,
        }
        options.update(overrides)
        return LLMAnalyzer(client, **options)

    return make
