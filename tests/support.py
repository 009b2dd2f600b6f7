"""Test helpers: the shared reference data, signed deliveries, a clock that tests move."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import hmac
import json
import os
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from bot.app import EXECUTOR, SCHEDULER
from bot.models import CommitInput

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("COMMIT_DIGEST_SHARED", ROOT.parent / "shared"))
WEBHOOKS = SHARED / "github" / "webhooks"
REPLAY = SHARED / "replay"
TEST_SECRET = "It's a Secret to Everybody"


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


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
