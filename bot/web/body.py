"""Reading a webhook body: uncompressed, within a time limit and a budget of bytes read at once.

Every body being read is held in memory until its request is answered, so the sum of what is
being read is what bounds the process's memory under a flood; a request that would take it
over the budget is refused with 503 (GitHub's delivery can be redelivered), not queued.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from aiohttp import web
from aiohttp.client_exceptions import ClientConnectionResetError
from aiohttp.http_exceptions import HttpProcessingError

from bot.runtime.logs import get_logger

log = get_logger(__name__)


class BodyRefused(Exception):
    """The body was not read: `status` and `message` are the answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ReadBudget:
    """How many body bytes all requests together may hold while they are read and handled."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self._moved = asyncio.Event()

    def fits(self, size: int) -> bool:
        return self.used + size <= self.limit

    def take(self, size: int) -> bool:
        if not self.fits(size):
            return False
        self.used += size
        self._notify()
        return True

    def give(self, size: int) -> None:
        self.used -= size
        self._notify()

    async def until(self, check: Callable[[int], bool]) -> None:
        """Return once `check(used)` holds (for probes and tests: no polling)."""
        while not check(self.used):
            await self._moved.wait()

    def _notify(self) -> None:
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()


@asynccontextmanager
async def read_body(
    request: web.Request, *, budget: ReadBudget, max_bytes: int, read_timeout: float
) -> AsyncIterator[bytearray]:
    """The body, charged to `budget` until the block ends; raises BodyRefused."""
    declared = request.content_length
    if declared is not None and declared > max_bytes:
        raise BodyRefused(413, "payload larger than GitHub's 25 MB limit")
    if declared is not None and not budget.fits(declared):
        raise BodyRefused(503, "too many deliveries being read at once; redeliver later")
    held = 0
    body = bytearray()
    try:
        try:
            async with asyncio.timeout(read_timeout):
                while chunk := await request.content.readany():
                    if len(body) + len(chunk) > max_bytes:
                        raise BodyRefused(413, "payload larger than GitHub's 25 MB limit")
                    if not budget.take(len(chunk)):
                        raise BodyRefused(
                            503, "too many deliveries being read at once; redeliver later"
                        )
                    held += len(chunk)
                    body += chunk
        except TimeoutError:
            # A slow sender is not an error of ours: one quiet line, not a traceback.
            log.info("webhook_body_timeout", received=len(body), declared=declared)
            raise BodyRefused(408, f"body not received within {read_timeout:g} s") from None
        except (ConnectionError, ClientConnectionResetError, HttpProcessingError) as exc:
            log.info("webhook_body_incomplete", received=len(body), error=type(exc).__name__)
            raise BodyRefused(400, "body incomplete") from None
        yield body
    finally:
        budget.give(held)
