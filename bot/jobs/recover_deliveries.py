"""`recover_deliveries`: the slot for asking GitHub to redeliver webhooks that failed.

The recovery itself (`GET /app/hook/deliveries`, `POST …/attempts`) is built in
`bot/recovery.py`; until it is wired here, this kind has a handler that does nothing and
nothing enqueues it. Wiring it is this module's job: call the recovery and report Done,
or Retry / Defer on GitHub's answers, like the other kinds.
"""

from __future__ import annotations

from bot.jobs.context import JobContext
from bot.jobs.kinds import Done, Job, JobKind, Outcome


class RecoverDeliveries:
    kind = JobKind.RECOVER_DELIVERIES

    def __init__(self, ctx: JobContext) -> None:
        self._ctx = ctx
        self.max_attempts = ctx.settings.worker_max_attempts

    async def run(self, job: Job) -> Outcome:
        return Done()

    async def given_up(self, job: Job, reason: str) -> None:
        return None
