"""The `recover_deliveries` job: ask GitHub to redeliver the webhooks the App missed.

GitHub never redelivers a failed webhook by itself, and accepts a request to redeliver one
only within 3 days (7 on GHES; FACTS.md §1); its delivery log is served only to the App's JWT
(`GET /app/hook/deliveries`, newest first, cursor-paged). A redelivery keeps its GUID, so the
webhook's dedupe makes a second copy harmless.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

import gidgethub

from bot.github.client import GitHubAPI
from bot.github.errors import GitHubError, RateLimited
from bot.github.github_app import GitHubApp
from bot.github.hooks import HookDelivery, hook_deliveries, redeliver
from bot.jobs.context import JobContext
from bot.jobs.outcomes import Done, Outcome, RetryPolicy
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.runtime.metrics import Metrics
from bot.store import Store
from bot.store.job_payloads import RecoverDeliveriesPayload
from bot.store.jobs import Job, Jobs
from bot.store.redeliveries import CLAIM_STALE_AFTER, REFUSED, Ask
from bot.web.handlers import ROUTED_EVENTS

log = get_logger(__name__)

# GitHub redelivers only deliveries of the past 3 days (7 on GitHub Enterprise Server).
REDELIVERY_WINDOW = timedelta(days=3)
PER_PAGE = 100
# A later round lists back to this long before the previous one began, so a row GitHub
# records late, or a claim left by a replica that died, is seen again.
OVERLAP = timedelta(hours=1)
# Answers that refuse this one delivery for good (gone, malformed, past the window).
_REFUSALS = frozenset({400, 404, 410, 422})
# The webhook refuses longer delivery ids: such a GUID can never be stored.
_MAX_GUID = 64


class Reason(StrEnum):
    # No attempt got a 2xx: the App was down, answered 5xx, or timed out.
    FAILED = "failed"
    # The App answered 202 (stored) but the store does not have it (a restored database).
    LOST = "lost"


@dataclass(frozen=True)
class Redelivery:
    """A GUID to ask for, and the row of the log to redeliver (its latest attempt)."""

    guid: str
    hook_delivery_id: int
    event: str
    reason: Reason
    attempts: int
    first_attempt_at: datetime
    last_status: str


def plan_redeliveries(
    deliveries: Iterable[HookDelivery],
    *,
    since: datetime,
    recorded: Set[str],
    asked: Set[str],
    events: Set[str] = ROUTED_EVENTS,
    again: Sequence[Ask] = (),
) -> list[Redelivery]:
    """Which GUIDs to ask GitHub to redeliver, oldest first.

    Attempts before `since` (GitHub's window) are ignored. A GUID is left alone when the
    store recorded it, when it is `asked` (asked for already and not due again), when the
    App does not use its event, or when the App answered it with a 2xx other than 202:
    ping, an ignored push or a duplicate, which a redelivery would only repeat. `again`:
    asks due again whose GUID the listing may no longer show; each is asked for the row
    it asked for last, unless the listing or the store says it arrived.
    """
    by_guid: dict[str, list[HookDelivery]] = {}
    for delivery in deliveries:
        if delivery.delivered_at >= since:
            by_guid.setdefault(delivery.guid, []).append(delivery)
    plan: list[Redelivery] = []
    for guid, attempts in by_guid.items():
        attempts.sort(key=lambda d: (d.delivered_at, d.id))
        latest = attempts[-1]
        if (
            not guid
            or len(guid) > _MAX_GUID
            or guid in recorded
            or guid in asked
            or latest.event not in events
        ):
            continue
        answered = [d for d in attempts if d.answered_2xx]
        if any(d.status_code != 202 for d in answered):
            continue
        plan.append(
            Redelivery(
                guid=guid,
                hook_delivery_id=latest.id,
                event=latest.event,
                reason=Reason.LOST if answered else Reason.FAILED,
                attempts=len(attempts),
                first_attempt_at=attempts[0].delivered_at,
                last_status=f"{latest.status_code} {latest.status}".strip(),
            )
        )
    for ask in again:
        if ask.guid in by_guid or ask.guid in recorded:
            continue  # listed: decided above from what GitHub's log says now
        plan.append(
            Redelivery(
                guid=ask.guid,
                hook_delivery_id=ask.hook_delivery_id,
                event=ask.event,
                reason=Reason(ask.reason),
                attempts=ask.asks,
                first_attempt_at=ask.delivered_at or ask.asked_at,
                last_status="",
            )
        )
    plan.sort(key=lambda r: (r.first_attempt_at, r.hook_delivery_id))
    return plan


@dataclass
class RecoveryReport:
    """What one round saw and did."""

    listed: int = 0
    pages: int = 0
    # The listing reached the start of what it had to cover (or the end of GitHub's log).
    complete: bool = False
    asked: list[Redelivery] = field(default_factory=list)
    refused: list[Redelivery] = field(default_factory=list)
    # The ask may not have reached GitHub (5xx, timeout, rate limit): asked again next round.
    deferred: list[Redelivery] = field(default_factory=list)
    # Claimed by another replica's round at the same time.
    taken: int = 0
    # Asked for before, and stored since: never asked again.
    delivered: int = 0


async def _list_deliveries(
    app_api: GitHubAPI, since: datetime, report: RecoveryReport
) -> list[HookDelivery]:
    """Deliveries newer than `since`; GitHub lists newest first, so paging stops at `since`."""
    found: list[HookDelivery] = []
    try:
        async for rows in hook_deliveries(app_api, per_page=PER_PAGE):
            report.pages += 1
            report.listed += len(rows)
            found += [row for row in rows if row.delivered_at >= since]
            if not rows or any(row.delivered_at < since for row in rows):
                break
    except (GitHubError, gidgethub.GitHubException) as exc:
        # Act on what was listed (the newest deliveries); the next round lists again.
        log.warning("hook_deliveries_unavailable", error=str(exc), pages=report.pages)
        return found
    report.complete = True
    return found


async def recover_deliveries(
    app_api: GitHubAPI,
    store: Store,
    now: datetime,
    *,
    window: timedelta = REDELIVERY_WINDOW,
    since: datetime | None = None,
    metrics: Metrics | None = None,
) -> RecoveryReport:
    """One round: list the App's deliveries back to `since` (at most `window`), find the
    GUIDs that never got a 2xx from the App, or that it acknowledged as stored (202) but the
    store does not have, and ask GitHub to redeliver each
    (`POST /app/hook/deliveries/{id}/attempts`). Asking is tracked like a job: a GUID whose
    redelivery is still not stored when its backoff runs out is asked again, with a capped
    backoff, until GitHub's window for it closes (`bot.store.redeliveries`); one stored is
    never asked again. `app_api` is authenticated as the App (a JWT)."""
    window_start = now - window
    listed_from = max(window_start, since) if since is not None else window_start
    report = RecoveryReport()
    deliveries = await _list_deliveries(app_api, listed_from, report)
    stale_before = now - CLAIM_STALE_AFTER
    again = await store.redeliveries.due(
        now=now, stale_before=stale_before, window_start=window_start
    )
    guids = {d.guid for d in deliveries}
    recorded = await store.redeliveries.recorded(guids | {a.guid for a in again})
    held = await store.redeliveries.held(
        guids, now=now, stale_before=stale_before, window_start=window_start
    )
    # What was asked for and has arrived since (stored, or answered with another 2xx: an
    # ignored push) is settled, never asked again.
    answered = {d.guid for d in deliveries if d.answered_2xx and d.status_code != 202}
    arrived = (recorded | answered) & (held | {a.guid for a in again})
    report.delivered = await store.redeliveries.delivered(arrived)
    again = [a for a in again if a.guid not in arrived]
    plan = plan_redeliveries(
        deliveries, since=window_start, recorded=recorded, asked=held, again=again
    )
    for position, item in enumerate(plan):
        claimed = await store.redeliveries.claim(
            item.guid,
            hook_delivery_id=item.hook_delivery_id,
            event=item.event,
            reason=item.reason,
            delivered_at=item.first_attempt_at,
            now=now,
            stale_before=stale_before,
            window_start=window_start,
        )
        if not claimed:
            report.taken += 1
            continue
        context = {
            "delivery_id": item.guid,
            "hook_event": item.event,
            "reason": str(item.reason),
            "hook_delivery_id": item.hook_delivery_id,
            "attempts": item.attempts,
            "last_status": item.last_status,
            "first_attempt_at": item.first_attempt_at.isoformat(),
        }
        try:
            await redeliver(app_api, item.hook_delivery_id)
        except gidgethub.BadRequest as exc:
            status = int(exc.status_code)
            if status not in _REFUSALS:
                # 401/403: the App's own credentials were refused; every ask would be too.
                await store.redeliveries.release(item.guid)
                report.deferred += plan[position:]
                log.warning("delivery_redelivery_deferred", error=f"HTTP {status}", **context)
                break
            # GitHub will not redeliver it (gone, or past its window): not asked again.
            answer = f"HTTP {status}: {exc}"
            await store.redeliveries.settle(item.guid, state=REFUSED, answer=answer[:500])
            report.refused.append(item)
            log.warning("delivery_redelivery_refused", answer=answer[:200], **context)
            continue
        except RateLimited as exc:
            await store.redeliveries.release(item.guid)
            report.deferred += plan[position:]
            log.warning("delivery_redelivery_deferred", error=str(exc), **context)
            break
        except (GitHubError, gidgethub.GitHubException) as exc:
            await store.redeliveries.release(item.guid)
            report.deferred.append(item)
            log.warning("delivery_redelivery_deferred", error=str(exc), **context)
            continue
        asks, last = await store.redeliveries.asked(item.guid, now=now, window=window)
        report.asked.append(item)
        log.info("delivery_redelivery_requested", asks=asks, **context)
        if last:
            # Its next ask would fall past GitHub's window: this was the last one.
            log.warning("delivery_redelivery_exhausted", asks=asks, **context)

    if metrics is not None:
        for outcome, items in (
            ("asked", report.asked),
            ("refused", report.refused),
            ("deferred", report.deferred),
        ):
            metrics.redeliveries.labels(outcome=outcome).inc(len(items))
    busy = report.asked or report.refused or report.deferred or report.delivered
    summary = log.info if busy else log.debug
    summary(
        "deliveries_recovery_round",
        listed=report.listed,
        pages=report.pages,
        complete=report.complete,
        asked=len(report.asked),
        refused=len(report.refused),
        deferred=len(report.deferred),
        taken=report.taken,
        delivered=report.delivered,
    )
    return report


class DeliveryRecovery:
    """A round lists back to shortly before the previous complete round (the first: GitHub's
    whole window). The `recover_deliveries` job runs a round at start-up and then every
    interval, carrying where the last complete round began from one round to the next."""

    def __init__(
        self,
        store: Store,
        github: GitHubApp,
        *,
        clock: Clock,
        metrics: Metrics,
        window: timedelta,
    ) -> None:
        self._metrics = metrics
        self._store = store
        self._github = github
        self._clock = clock
        self._window = window
        self._covered_since: datetime | None = None

    async def round(self, since: datetime | None) -> tuple[RecoveryReport, datetime | None]:
        """One round listing back to `since` (None: the whole window); returns its report and
        where the next round may list back to."""
        started = self._clock.now()
        report = await recover_deliveries(
            self._github.as_app(),
            self._store,
            started,
            window=self._window,
            since=since,
            metrics=self._metrics,
        )
        if report.complete and not report.deferred:
            return report, started - OVERLAP
        return report, since

    async def run_once(self) -> RecoveryReport:
        """A round that carries on from this object's previous one (the CLI, tests)."""
        report, self._covered_since = await self.round(self._covered_since)
        return report


class RecoverDeliveries:
    """The `recover_deliveries` job: one (key `app`) for the whole App. It runs at start-up
    (`schedule_now`) and, each time it ends, arms itself again `RECOVERY_INTERVAL_SECONDS`
    later in the same transaction, carrying where its last complete round began, so every
    replica shares one round per interval and a round after a restart lists only what is new
    since the last one. A process with `RECOVERY_ENABLED=false` neither schedules nor claims
    it."""

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
