"""Periodic upkeep: forget webhook delivery ids (and redelivery requests) past their use."""

from __future__ import annotations

from datetime import timedelta

from bot.background import BackgroundService
from bot.clock import Clock
from bot.logs import get_logger
from bot.store import Store

log = get_logger(__name__)


class Housekeeping(BackgroundService):
    name = "housekeeping"

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        delivery_retention: timedelta,
        every: timedelta = timedelta(hours=1),
    ) -> None:
        super().__init__()
        self._store = store
        self._clock = clock
        self._retention = delivery_retention
        self._every = every

    async def run_once(self) -> int:
        cutoff = self._clock.now() - self._retention
        pruned = await self._store.prune_deliveries(cutoff)
        if pruned:
            log.info("deliveries_pruned", count=pruned)
        # Past GitHub's window a redelivery cannot be asked for again anyway.
        asked = await self._store.redeliveries.prune(cutoff)
        if asked:
            log.info("redeliveries_pruned", count=asked)
        return pruned

    async def run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception as exc:
                log.warning("housekeeping_failed", error=repr(exc))
            await self._clock.sleep(self._every.total_seconds())
