"""Periodic upkeep: forget webhook delivery ids (and redelivery requests) past their use, jobs
that finished as long ago (a repeated one finds its work done and ends at once), and `/digest`
commands older than any limit looks back (their replies stay in the post ledger)."""

from __future__ import annotations

from datetime import timedelta

from bot.runtime.background import BackgroundService
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
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
        older_than = self._clock.now() - self._retention
        pruned = await self._store.prune_deliveries(older_than)
        if pruned:
            log.info("deliveries_pruned", count=pruned)
        # Past GitHub's window a redelivery cannot be asked for again anyway.
        asked = await self._store.redeliveries.prune(older_than)
        if asked:
            log.info("redeliveries_pruned", count=asked)
        jobs = await self._store.jobs.prune_done(older_than)
        if jobs:
            log.info("jobs_pruned", count=jobs)
        commands = await self._store.commands.prune(older_than)
        if commands:
            log.info("commands_pruned", count=commands)
        return pruned + jobs

    async def run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception as exc:
                log.warning("housekeeping_failed", error=repr(exc))
            await self._clock.sleep(self._every.total_seconds())
