"""Test helpers: the reference material, signed deliveries, a clock that tests move."""

from __future__ import annotations

import asyncio
import copy
import gzip
import hashlib
import hmac
import json
import re
import textwrap
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from aiohttp.test_utils import TestClient
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import EXECUTOR, SCHEDULER
from bot.models import CommitInput, FileChange
from bot.store.schema import UTCDateTime, metadata

ROOT = Path(__file__).resolve().parents[1]
# GitHub's example payloads, API description and GraphQL schema, the replay days and the
# labels, as they came (tests/reference/README.md); the large files gzipped.
REFERENCE = ROOT / "tests" / "reference"
WEBHOOKS = REFERENCE / "github" / "webhooks"
REPLAY = REFERENCE / "replay"
TEST_SECRET = "It's a Secret to Everybody"


def reference_text(path: Path) -> str:
    """The text of a reference file, read from `path` or, where it is stored compressed,
    from `path` + `.gz`."""
    if path.exists():
        return path.read_text(encoding="utf-8")
    return gzip.decompress(path.with_name(path.name + ".gz").read_bytes()).decode("utf-8")


def load_json(path: Path) -> Any:
    return json.loads(reference_text(path))


def webhook_payload(name: str) -> dict[str, Any]:
    """A real example payload, e.g. `push/with-new-branch` or `ping/payload`."""
    path = WEBHOOKS / f"{name}.payload.json"
    data: dict[str, Any] = load_json(path if path.exists() else WEBHOOKS / f"{name}.json")
    return data


@cache
def replay_index() -> list[dict[str, Any]]:
    days: list[dict[str, Any]] = load_json(REPLAY / "index.json")["days"]
    return days


def replay_day(repo: str, day: str) -> dict[str, Any]:
    data: dict[str, Any] = load_json(REPLAY / f"{repo.replace('/', '__')}/{day}.json")
    return data


def replay_commit(repo: str, day: str, sha: str) -> CommitInput:
    """One commit of a replay day, by the start of its sha, as the analysers see it."""
    raw = next(c for c in replay_day(repo, day)["commits"] if c["sha"].startswith(sha))
    return CommitInput.from_github(raw, repo=repo)


def replay_pushes(repo: str, day: str) -> list[dict[str, Any]]:
    data = load_json(REPLAY / f"{repo.replace('/', '__')}/{day}.pushes.json")
    pushes: list[dict[str, Any]] = data["pushes"]
    return pushes


def late_push(
    commits: dict[str, Any], repo: str, day: str, sha: str, message: str
) -> dict[str, Any]:
    """The day's first push again, carrying one new commit `sha` (a push that reaches the App
    late: a redelivery, an outage); the fake repository (`commits`) serves that commit."""
    first = replay_pushes(repo, day)[0]["payload"]
    push = copy.deepcopy(first)
    push["commits"][0]["id"] = push["after"] = sha
    push["commits"][0]["message"] = message
    commits[sha] = {**copy.deepcopy(commits[first["after"]]), "sha": sha}
    return push


def sign(body: bytes, secret: str = TEST_SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


async def deliver(
    client: TestClient[Any, Any],
    event: str,
    payload: Any,
    *,
    delivery: str | None = None,
    secret: str = TEST_SECRET,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any]]:
    """POST a signed delivery as GitHub would; returns (status, JSON answer)."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    all_headers = {
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery or str(uuid.uuid4()),
        "X-Hub-Signature-256": sign(body, secret),
        "Content-Type": "application/json",
        "User-Agent": "GitHub-Hookshot/test",
    }
    all_headers.update(headers or {})
    response = await client.post("/webhook", data=body, headers=all_headers)
    answer = await response.json() if response.content_type == "application/json" else {}
    return response.status, answer


async def deliver_replay(client: TestClient[Any, Any], push: dict[str, Any]) -> int:
    """Send one recorded push with its original delivery id."""
    status, _ = await deliver(
        client, "push", push["payload"], delivery=push["headers"]["X-GitHub-Delivery"]
    )
    return status


@dataclass
class FakeClock:
    """A clock that only moves when told (or when something sleeps on it)."""

    current: datetime = datetime(2026, 7, 10, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> None:
        self.current += timedelta(**delta)

    async def sleep(self, seconds: float) -> None:
        self.current += timedelta(seconds=max(0.0, seconds))
        await asyncio.sleep(0)


async def publish_round(client: TestClient[Any, Any]) -> datetime:
    """One scheduler round, then the jobs it enqueued (and any other due work) run;
    returns when the scheduler would wake next."""
    wake_at: datetime = await client.app[SCHEDULER].run_once()
    await client.app[EXECUTOR].drain()
    return wake_at


# PostgreSQL converts between timestamp and timestamptz in the session's zone, which a
# server's configuration may set to anything: this one is far from UTC, by a fraction of an hour.
ODD_SESSION_ZONE = "Asia/Kathmandu"


@cache
def _zone_setter(zone: str) -> Callable[[Any, Any], None]:
    def set_zone(dbapi_connection: Any, _record: Any) -> None:
        # On the driver's connection itself: through SQLAlchemy's cursor the SET would be
        # part of a transaction, undone when the connection first goes back to the pool.
        dbapi_connection.run_async(lambda conn: conn.execute(f"SET TIME ZONE '{zone}'"))

    return set_zone


async def in_session_zone(engine: AsyncEngine, zone: str = ODD_SESSION_ZONE) -> None:
    """Every PostgreSQL connection `engine` opens from now on has `zone` as its session time
    zone (those open now are closed). SQLite has no session zone: nothing to do."""
    setter = _zone_setter(zone)
    if engine.dialect.name != "postgresql" or event.contains(engine.sync_engine, "connect", setter):
        return
    event.listen(engine.sync_engine, "connect", setter)
    await engine.dispose()


# SQLite compares text: an instant sorts as its time only in one fixed-width form.
_CANONICAL = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}")


async def assert_one_form_of_instant(engine: AsyncEngine) -> None:
    """Every instant column holds one form: timestamptz on PostgreSQL; on SQLite, text in the
    fixed-width form whose order is time order (checked on the values as stored)."""
    instants = [
        (table.name, column.name)
        for table in metadata.sorted_tables
        for column in table.columns
        if isinstance(column.type, UTCDateTime)
    ]
    async with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            rows = await conn.execute(
                sa.text(
                    "SELECT table_name, column_name, data_type FROM information_schema.columns "
                    "WHERE table_schema = current_schema()"
                )
            )
            types = {(t, c): kind for t, c, kind in rows}
            assert {types[i] for i in instants} == {"timestamp with time zone"}
            return
        for table, column in instants:
            values = await conn.exec_driver_sql(
                f'SELECT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL'
            )
            odd = [v for (v,) in values if not (isinstance(v, str) and _CANONICAL.fullmatch(v))]
            assert odd == [], (table, column, odd[:3])


def whole_commit(*files: tuple[str, str | None, str | None]) -> CommitInput:
    """A commit of `(path, before, after)` files whose both sides are known whole (None: the
    file is added or removed), as the App reads them; their patches are never read."""
    changes = []
    for path, before, after in files:
        status = "added" if before is None else "removed" if after is None else "modified"
        changes.append(
            FileChange(
                filename=path,
                status=status,
                before=textwrap.dedent(before) if before is not None else None,
                after=textwrap.dedent(after) if after is not None else None,
                patch="@@ -1 +1 @@\n-unused\n+unused",
            )
        )
    return CommitInput(sha="a" * 40, message="change", files=changes)
