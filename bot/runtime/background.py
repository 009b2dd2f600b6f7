"""A long-running task owned by the app: started in a cleanup context, cancelled at exit."""

from __future__ import annotations

import abc
import asyncio
import contextlib

from bot.runtime.logs import get_logger

log = get_logger(__name__)


class BackgroundService(abc.ABC):
    """Subclasses implement `run()`; the app keeps the task referenced and awaits its end."""

    name = "background"

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._guarded(), name=self.name)

    @property
    def dead(self) -> bool:
        """Started, not stopped, and its loop has ended: it does no work any more."""
        return self._task is not None and self._task.done()

    async def stop(self) -> None:
        if self._task is None:
            return
        self._task.cancel()
        # A loop that already died was logged when it did; stopping it is not an error.
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        self._task = None

    async def _guarded(self) -> None:
        try:
            await self.run()
        except asyncio.CancelledError:
            raise
        except Exception:
            # A bug must not silently end the service: say so loudly; /healthz answers 503
            # from now on, so the orchestrator restarts the process.
            log.exception("background_service_crashed", service=self.name)
            raise

    @abc.abstractmethod
    async def run(self) -> None:
        """The service's loop; runs until cancelled."""
