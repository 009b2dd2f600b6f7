"""`recover_deliveries`: ask GitHub to redeliver the webhooks the App missed (bot/jobs/recovery.py).

One job (key `app`) for the whole App: it runs at start-up (`schedule_now`) and, each time it
ends, arms itself again `RECOVERY_INTERVAL_SECONDS` later in the same transaction, carrying
where its last complete round began, so every replica shares one round per interval and a
round after a restart lists only what is new since the last one. A process with
`RECOVERY_ENABLED=false` neither schedules nor claims it.
"""

from __future__ import annotations

from datetime import timedelta

from bot.jobs.context import JobContext
from bot.jobs.outcomes import Done, Outcome, RetryPolicy
from bot.jobs.recovery import DeliveryRecovery
from bot.runtime.logs import get_logger
from bot.store.job_payloads import RecoverDeliveriesPayload
from bot.store.jobs import Job, Jobs

log = get_logger(__name__)


class RecoverDeliveries:
    kind = RecoverDeliveriesPayload.kind

    def __init__(self, ctx: JobContext, recovery: DeliveryRecovery) -> None:
        self._ctx = ctx
        self._recovery = recovery
        self.retry = RetryPolicy(ctx.settings.worker_max_attempts)
        self._interval = timedelta(seconds=ctx.settings.recovery_interval_seconds)

    async def schedule_now(self) -> None:
        """Start-up: a round now (the job made due at once, whatever its state)."""
        await self._ctx.store.jobs.schedule_now(RecoverDeliveriesPayload(), self._ctx.clock.now())

    async def run(self, job: Job[RecoverDeliveriesPayload]) -> Outcome:
        ctx = self._ctx
        # Errors (the store or GitHub unreachable) retry with the kind's backoff.
        _, covered = await self._recovery.round(job.payload.covered_since)
        now = ctx.clock.now()
        payload = RecoverDeliveriesPayload(covered_since=covered)
        async with ctx.store.jobs.holding(job, now, finish=True) as conn:
            await Jobs.enqueue_in(conn, [payload], now, rearm=True, not_before=now + self._interval)
        return Done(recorded=True)

    async def given_up(self, job: Job[RecoverDeliveriesPayload], reason: str) -> None:
        """Recovery must not stop for good: the next interval tries again from scratch."""
        ctx = self._ctx
        now = ctx.clock.now()
        await ctx.store.jobs.enqueue(job.payload, now, rearm=True, not_before=now + self._interval)
        log.warning("delivery_recovery_rearmed", reason=reason[:200])
