"""The fake GitHub as the App's webhook sender: it POSTs signed deliveries to the App, keeps
the delivery log GitHub keeps (one row per attempt), and redelivers on request.

As GitHub does (FACTS.md §1): every attempt is recorded with the App's answer; a refused
connection, a timeout or a non-2xx answer is a failed delivery and is never retried by itself;
a redelivery is a new attempt (a new row, `redelivery: true`) of the same payload under the
same `X-GitHub-Delivery` GUID, and is accepted only within 3 days. The log is listed newest
first and paged with an opaque cursor in the `Link` header.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import aiohttp

from bot.runtime.clock import Clock
from tests.support import TEST_SECRET, sign

# GitHub redelivers only deliveries of the past 3 days (7 on GHES).
REDELIVERY_WINDOW = timedelta(days=3)
# github.com drops a delivery the App has not answered within 10 s, and records it failed.
HOOK_TIMEOUT = 10.0
HOOK_ID = "561230987"


@dataclass
class HookAttempt:
    """One row of the delivery log."""

    id: int
    guid: str
    event: str
    action: str | None
    installation_id: int | None
    repository_id: int | None
    body: bytes
    delivered_at: datetime
    redelivery: bool
    status: str = "pending"
    status_code: int = 0
    duration: float = 0.0
    response: str = ""
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return 200 <= self.status_code < 300

    def item(self) -> dict[str, Any]:
        """The `hook-delivery-item` shape of GET /app/hook/deliveries."""
        return {
            "id": self.id,
            "guid": self.guid,
            "delivered_at": self.delivered_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "redelivery": self.redelivery,
            "duration": round(self.duration, 2),
            "status": self.status,
            "status_code": self.status_code,
            "event": self.event,
            "action": self.action,
            "installation_id": self.installation_id,
            "repository_id": self.repository_id,
            "throttled_at": None,
        }


class HookLog:
    """Deliveries to the App's webhook URL (`url`; None or a closed port: the App is down)."""

    def __init__(self, clock: Clock, *, app_id: str, new_id: Callable[[], int]) -> None:
        self.clock = clock
        self.app_id = app_id
        self.url: str | None = None
        self.secret = TEST_SECRET
        self.timeout = HOOK_TIMEOUT
        self.attempts: list[HookAttempt] = []
        self._new_id = new_id
        self._in_flight: set[asyncio.Task[None]] = set()

    # --- sending ---------------------------------------------------------------------------

    async def send(
        self,
        event: str,
        payload: dict[str, Any],
        *,
        guid: str | None = None,
        at: datetime | None = None,
    ) -> HookAttempt:
        """Deliver an event now (as GitHub does when it happens); `at` backdates the row."""
        installation = payload.get("installation") or {}
        repository = payload.get("repository") or {}
        attempt = HookAttempt(
            id=self._new_id(),
            guid=guid or str(uuid.uuid4()),
            event=event,
            action=payload.get("action"),
            installation_id=installation.get("id"),
            repository_id=repository.get("id"),
            body=json.dumps(payload).encode(),
            delivered_at=at or self.clock.now(),
            redelivery=False,
        )
        self.attempts.append(attempt)
        await self._post(attempt)
        return attempt

    async def send_push(self, push: dict[str, Any], *, at: datetime | None = None) -> HookAttempt:
        """A replay push, under its recorded delivery GUID."""
        return await self.send(
            "push", push["payload"], guid=push["headers"]["X-GitHub-Delivery"], at=at
        )

    def redeliver(self, original: HookAttempt) -> HookAttempt:
        """A new attempt of the same payload and GUID, sent in the background (GitHub answers
        the request with 202 and delivers afterwards)."""
        attempt = HookAttempt(
            id=self._new_id(),
            guid=original.guid,
            event=original.event,
            action=original.action,
            installation_id=original.installation_id,
            repository_id=original.repository_id,
            body=original.body,
            delivered_at=self.clock.now(),
            redelivery=True,
        )
        self.attempts.append(attempt)
        task = asyncio.get_running_loop().create_task(self._post(attempt))
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)
        return attempt

    async def settled(self) -> None:
        """Wait for the redeliveries GitHub has accepted to be made."""
        while self._in_flight:
            await asyncio.gather(*list(self._in_flight))

    def _headers(self, attempt: HookAttempt) -> dict[str, str]:
        sha1 = hmac.new(self.secret.encode(), attempt.body, hashlib.sha1).hexdigest()
        return {
            "X-GitHub-Event": attempt.event,
            "X-GitHub-Delivery": attempt.guid,
            "X-GitHub-Hook-ID": HOOK_ID,
            "X-GitHub-Hook-Installation-Target-Type": "integration",
            "X-GitHub-Hook-Installation-Target-ID": self.app_id,
            "X-Hub-Signature": f"sha1={sha1}",
            "X-Hub-Signature-256": sign(attempt.body, self.secret),
            "User-Agent": "GitHub-Hookshot/fake",
            "Content-Type": "application/json",
        }

    async def _post(self, attempt: HookAttempt) -> None:
        attempt.headers = self._headers(attempt)
        started = time.monotonic()
        try:
            if self.url is None:
                raise aiohttp.ClientConnectionError("no webhook URL")
            timeout = aiohttp.ClientTimeout(total=self.timeout)
            async with (
                aiohttp.ClientSession(timeout=timeout) as session,
                session.post(self.url, data=attempt.body, headers=attempt.headers) as response,
            ):
                attempt.response = (await response.text())[:1000]
                attempt.status_code = response.status
                attempt.status = "OK" if attempt.ok else f"Invalid HTTP Response: {response.status}"
        except TimeoutError:
            attempt.status_code, attempt.status = 504, "timed out"
        except aiohttp.ClientError:
            # The shape of GitHub's own example of a delivery that never reached the App.
            attempt.status_code, attempt.status = 502, "failed to connect to host"
        attempt.duration = time.monotonic() - started

    # --- reading ---------------------------------------------------------------------------

    def find(self, delivery_id: int) -> HookAttempt | None:
        return next((a for a in self.attempts if a.id == delivery_id), None)

    def listed(self, status: str | None) -> list[HookAttempt]:
        """The log newest first, without attempts still in flight; `status` as GitHub's filter:
        success is a status code 200-399, failure 400-599."""
        rows = [a for a in self.attempts if a.status != "pending"]
        if status == "success":
            rows = [a for a in rows if 200 <= a.status_code <= 399]
        elif status == "failure":
            rows = [a for a in rows if 400 <= a.status_code <= 599]
        return sorted(rows, key=lambda a: (a.delivered_at, a.id), reverse=True)

    def of(self, guid: str) -> list[HookAttempt]:
        return [a for a in self.attempts if a.guid == guid]

    def redeliveries(self) -> list[HookAttempt]:
        return [a for a in self.attempts if a.redelivery]
