"""Group commit: the writes of concurrent deliveries share one transaction and one fsync."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from bot.runtime.logs import get_logger
from bot.store.records import IngestUnit
from bot.store.store import IngestOutcome, Store

log = get_logger(__name__)


class IngestClosed(Exception):
    """The process is shutting down and takes no more deliveries."""


class GroupCommit:
    """Queue of delivery units; one writer applies whatever queued during its last commit."""

    def __init__(
        self,
        store: Store,
        *,
        max_batch: int = 256,
        on_stored: Callable[[], None] | None = None,
    ) -> None:
        self._store = store
        self._on_stored = on_stored
        self._max_batch = max_batch
        self._pending: list[tuple[IngestUnit, asyncio.Future[IngestOutcome]]] = []
        self._wakeup = asyncio.Event()
        self._closed = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="group-commit")

    async def close(self) -> None:
        """Stop taking units, write what is queued, then end the writer."""
        self._closed = True
        self._wakeup.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def submit(self, unit: IngestUnit) -> bool:
        """Store a unit durably: True if new, False if its delivery was already stored."""
        if self._closed:
            raise IngestClosed("shutting down")
        future: asyncio.Future[IngestOutcome] = asyncio.get_running_loop().create_future()
        self._pending.append((unit, future))
        self._wakeup.set()
        outcome = await future
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    async def _run(self) -> None:
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            while self._pending:
                batch = self._pending[: self._max_batch]
                del self._pending[: self._max_batch]
                await self._write(batch)
            if self._closed:
                return

    async def _write(self, batch: list[tuple[IngestUnit, asyncio.Future[IngestOutcome]]]) -> None:
        outcomes: list[IngestOutcome]
        try:
            outcomes = await self._store.ingest([unit for unit, _ in batch])
        except Exception as exc:
            log.warning("ingest_batch_failed", size=len(batch), error=repr(exc))
            outcomes = [exc] * len(batch)
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if not future.done():
                future.set_result(outcome)
        if self._on_stored is not None and any(o is True for o in outcomes):
            self._on_stored()
