"""`fold_alerts`: bring a day's "more alerts" post up to date, at most once a minute.

One job per repository and day. The commits past the day's `max_per_day` are recorded as
folded by their own alert jobs (`bot.jobs.publish.alerts`), which arm this one: when the
post was written less than a minute ago, for a minute after it, so a burst of alerts makes
one edit, not one per commit. A run renders the post whole from the folded commits (less
any reverted since) and writes it where it was first made, whatever the config says now.
"""

from __future__ import annotations

from datetime import date, datetime

from structlog.contextvars import bound_contextvars

from bot.digest.alert import render_alert_fold
from bot.digest.alerting import plan_alerts, wants_alert
from bot.digest.markers import fold_marker
from bot.github.calls import Forbidden, GraphQLFailed
from bot.jobs.context import JobContext
from bot.jobs.outcomes import Defer, Done, Outcome
from bot.jobs.publish import places
from bot.jobs.publish.alerts import (
    FOLD_EVERY,
    NEARBY,
    alert_category,
    alert_channel,
    alert_period,
    refused,
    settle,
)
from bot.jobs.publish.build import shown_commits
from bot.posts import targets
from bot.posts.reconcile import Wanted
from bot.runtime.logs import get_logger
from bot.store.alert_ledger import FOLD_KEY
from bot.store.job_payloads import FoldAlertsPayload
from bot.store.jobs import Job
from bot.store.posts import PostState
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)


def fold_due(written: datetime | None, now: datetime) -> datetime | None:
    """When the fold may be written next; None: now."""
    if written is None or now >= written + FOLD_EVERY:
        return None
    return written + FOLD_EVERY


class FoldAlerts:
    kind = FoldAlertsPayload.kind
    max_attempts = 8

    def __init__(self, ctx: JobContext) -> None:
        self._ctx = ctx

    async def run(self, job: Job[FoldAlertsPayload]) -> Outcome:
        ctx = self._ctx
        repo = await ctx.store.repos.get(job.payload.repo_id)
        if repo is None:
            return Done()
        day = job.payload.day
        with bound_contextvars(repo=repo.full_name, day=day.isoformat()):
            return await places.posting(
                ctx,
                job,
                repo,
                lambda gone: self._fold(job, repo, day, gone),
                what="alerts",
                slow=False,
            )

    async def given_up(self, job: Job[FoldAlertsPayload], reason: str) -> None:
        self._ctx.metrics.alerts.labels(outcome="failed").inc()

    async def _fold(
        self, job: Job[FoldAlertsPayload], repo: RepoRow, day: date, gone: places.GoneIssues
    ) -> Outcome:
        ctx = self._ctx
        config = config_of(repo.config, ctx.settings.default_language)
        period = alert_period(day)
        made = await ctx.store.alert_ledger.fold_post(repo.id, period)
        if not config.alerts.on:
            # Turned off since: an unclear create is settled all the same.
            if made is not None and made[0].state is PostState.CREATING:
                client = await ctx.client(job, repo.installation_id, repo.full_name, repo.id)
                marker = fold_marker(repo.full_name, day)
                await settle(
                    ctx, job, client, repo, config, period=period, rec=made[0], marker=marker
                )
            return Done()
        until = fold_due(made[1] if made else None, ctx.clock.now())
        if until is not None:
            return Defer("the fold was written less than a minute ago", until)
        shas = await ctx.store.alert_ledger.folded(repo.id, period)
        folded, _ = shown_commits(config, await ctx.store.digests.commits_of(repo.id, shas))
        folded = [c for c in folded if wants_alert(c.analysis, config.alerts)]
        if not folded:
            return Done()
        reverts, _ = shown_commits(
            config,
            await ctx.store.digests.reverts_between(
                repo.id, folded[0].landed_at - NEARBY, folded[-1].landed_at + NEARBY
            ),
        )
        plan = plan_alerts(folded, config=config.alerts, posted=(), others=reverts)
        # A folded commit reverted since leaves the fold, as it would have had no alert.
        kept = [c for c in folded if c.sha not in plan.reverted and c.sha not in plan.cancelled]
        if not kept:
            return Done()
        client = await ctx.client(job, repo.installation_id, repo.full_name, repo.id)
        channel = (
            await places.sent_channel(
                client, repo.full_name, made[0], category=alert_category(config)
            )
            if made
            else None
        )
        discussion = True
        while True:
            if channel is None:
                channel = await alert_channel(
                    ctx, job, client, repo, config=config, gone=gone, discussion=discussion
                )
            post = render_alert_fold(
                kept,
                repo=repo.full_name,
                day=day,
                language=config.language,
                max_per_day=config.alerts.max_per_day,
                timezone=config.timezone,
                with_title=channel.kind != "discussion",
            )
            wanted = Wanted(
                FOLD_KEY, channel.kind, fold_marker(repo.full_name, day), post.body, post.title
            )
            try:
                await targets.sync_posts(
                    ctx.store, ctx.clock, job, channel, [wanted], repo_id=repo.id, period=period
                )
            except (Forbidden, GraphQLFailed) as exc:
                if made is not None or channel.kind != "discussion" or not refused(exc):
                    raise
                log.info("alerts_fallback_to_issue", reason=str(exc)[:200])
                channel, discussion = None, False
                continue
            return Done()
