"""Time as a collaborator: the app asks a clock, so tests move time instead of sleeping."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current instant, timezone-aware UTC."""

    async def sleep(self, seconds: float) -> None:
        """Wait; a fake clock returns at once after moving its time."""


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))
