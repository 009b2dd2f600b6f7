"""Fixtures shared by every test: a database per test, settings, a fake clock, the app client,
the fake LLM and an analyser that asks it."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import openai
import pytest
import sqlalchemy as sa
from aiohttp.test_utils import TestClient
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlalchemy.engine import make_url

import bot.__main__
from bot.analysis.llm import LLMAnalyzer
from bot.app import create_app
from bot.runtime.logs import configure_logging
from bot.settings import Settings
from bot.store.engine import create_engine, migrate
from bot.store.schema import metadata
from tests.browser import browser  # noqa: F401  (the fixture, for the page tests)
from tests.fakes.github import FakeGitHub
from tests.fakes.llm import FakeLLM
from tests.processes import APP_ID
from tests.status_support import served  # noqa: F401  (the fixture, for the status page tests)
from tests.support import TEST_SECRET, FakeClock

# The one PostgreSQL database the run is given. Under pytest-xdist each worker (gw0, gw1, …)
# works in a database of its own beside it, `<name>_gw0`, made on first use: workers empty
# and rebuild their tables independently.
PG_GIVEN_URL = os.environ.get("TEST_DATABASE_URL")
WORKER = os.environ.get("PYTEST_XDIST_WORKER")


def beside(url: str, suffix: str) -> str:
    """The URL of the database named `<url's database>_<suffix>` on the same server."""
    parsed = make_url(url)
    return parsed.set(database=f"{parsed.database}_{suffix}").render_as_string(hide_password=False)


PG_URL = beside(PG_GIVEN_URL, WORKER) if PG_GIVEN_URL and WORKER else PG_GIVEN_URL
ENGINES = ["sqlite", "postgresql"] if PG_URL else ["sqlite"]

configure_logging(fmt="console", level="WARNING")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks `database` each test that reaches the run's database engine: the `database_url`
    fixture (PostgreSQL with TEST_DATABASE_URL), or a parameter naming `postgresql`. The rest
    of the suite runs the same on either engine, so `.ci/run` runs only these again on
    PostgreSQL. Modules that reach it otherwise carry the mark themselves (test_replicas)."""
    for item in items:
        spec = getattr(item, "callspec", None)
        engine_param = spec is not None and "postgresql" in map(str, spec.params.values())
        if "database_url" in getattr(item, "fixturenames", ()) or engine_param:
            item.add_marker(pytest.mark.database)


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


@asynccontextmanager
async def _admin() -> AsyncIterator[asyncpg.Connection]:
    """A connection to the database the run was given: the others are made from it."""
    assert PG_GIVEN_URL
    dsn = make_url(PG_GIVEN_URL).set(drivername="postgresql")
    conn = await asyncpg.connect(dsn.render_as_string(hide_password=False))
    try:
        yield conn
    finally:
        await conn.close()


@asynccontextmanager
async def throwaway_postgres(suffix: str) -> AsyncIterator[str]:
    """A database of its own beside the given one, dropped after; yields its URL."""
    assert PG_GIVEN_URL
    url = beside(PG_GIVEN_URL, suffix)
    async with _admin() as admin:
        await admin.execute(f'CREATE DATABASE "{make_url(url).database}"')
        try:
            yield url
        finally:
            await admin.execute(f'DROP DATABASE "{make_url(url).database}" WITH (FORCE)')


async def _ensure_database(url: str) -> None:
    """Make a worker's database beside the given one, unless an earlier run did."""
    name = make_url(url).database
    async with _admin() as admin:
        if not await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
            await admin.execute(f'CREATE DATABASE "{name}"')


_pg_schema_rebuilt = False


async def _fresh_postgres(url: str) -> None:
    """Rebuild the schema once per run (from the migrations), then empty the tables per test."""
    global _pg_schema_rebuilt  # noqa: PLW0603 - test-session state, not app state
    if not _pg_schema_rebuilt and url != PG_GIVEN_URL:
        await _ensure_database(url)
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


async def _migrated(path: Path) -> None:
    engine = create_engine(f"sqlite:///{path}")
    try:
        await migrate(engine)
    finally:
        await engine.dispose()  # the last connection closed: the WAL is folded into the file


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to the latest revision, once per worker: each test's database
    starts as a copy of it. Migrating a new file costs a tenth of a second a test; copying
    one, well under a millisecond. (PostgreSQL likewise builds its schema once per run and
    empties the tables per test; the migrations themselves are tested from an empty
    database in test_migrations.)"""
    path = tmp_path_factory.mktemp("template") / "commit-digest.db"
    with ThreadPoolExecutor(1) as pool:  # an event loop of its own, apart from the tests'
        pool.submit(asyncio.run, _migrated(path)).result()
    assert not path.with_name(path.name + "-wal").exists()
    return path


def _copy_of(template: Path, tmp_path: Path) -> str:
    database = tmp_path / "commit-digest.db"
    shutil.copy(template, database)  # its mode too: the App makes its files 0600
    return f"sqlite:///{database}"


async def database_for(engine: str, tmp_path: Path, sqlite_template: Path) -> str:
    if engine == "postgresql":
        assert PG_URL
        await _fresh_postgres(PG_URL)
        return PG_URL
    return _copy_of(sqlite_template, tmp_path)


@pytest.fixture
async def database_url(tmp_path: Path, sqlite_template: Path) -> str:
    """The suite's engine: PostgreSQL when TEST_DATABASE_URL is set, else a SQLite file."""
    return await database_for("postgresql" if PG_URL else "sqlite", tmp_path, sqlite_template)


@pytest.fixture(params=ENGINES)
async def any_database_url(
    request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path
) -> str:
    """For the store's contract tests: every engine this run can reach."""
    return await database_for(request.param, tmp_path, sqlite_template)


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
async def make_analyzer(
    aiohttp_server: Callable[..., Any], fake: FakeLLM
) -> AsyncIterator[Callable[..., Any]]:
    """Build `LLMAnalyzer`s that ask the `fake` LLM; keyword arguments override its options."""
    server = await aiohttp_server(fake.app())
    clients: list[openai.AsyncOpenAI] = []

    def make(**overrides: Any) -> LLMAnalyzer:
        client = openai.AsyncOpenAI(
            base_url=str(server.make_url("/v1")),
            api_key=overrides.pop("api_key", "test-key"),
            max_retries=0,
        )
        clients.append(client)
        options: dict[str, Any] = {
            "model": "fake-model",
            "max_input_tokens": 12_000,
            "max_output_tokens": 2_000,
            "concurrency": 4,
            "timeout_seconds": 5.0,
        }
        options.update(overrides)
        return LLMAnalyzer(client, **options)

    yield make
    # Closed on this test's loop: one left to the garbage collector closes its connections
    # during a later test (on a loop long gone), and that test's first call can hang until
    # its timeout.
    for client in clients:
        await client.close()


@pytest.fixture
def keep_test_logging(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite configures logging once; a command run in-process (`bot.__main__.main`) must
    not point it at a stream pytest captures and closes."""
    monkeypatch.setattr(bot.__main__, "configure_logging", lambda **_: None)
