"""`send_alerts`: post a day's alerts (a commit analysed as breaking or high) as they land.

One job per repository and digest day, enqueued in the transaction that stores an analysis
the config alerts on (`alerts.on`); a commit analysed while the job runs makes it run once
more (`jobs.rerun`). Each run plans the day from the ledgers alone (`bot.digest.alerting`): the
alerts recorded count toward `max_per_day`, the rest fold into one "more alerts" post that
is edited as it grows, and a commit reverted before its alert went out gets none. Every
post goes through the post ledger, so a crash or an unclear create never posts twice.
"""

from __future__ import annotations

from datetime import date, timedelta

from structlog.contextvars import bound_contextvars

from bot.digest.alert import render_alert, render_alert_fold
from bot.digest.alerting import plan_alerts, wants_alert
from bot.digest.markers import alert_marker, fold_marker
from bot.jobs.context import JobContext
from bot.jobs.outcomes import Done, Outcome
from bot.jobs.publish import places
from bot.jobs.publish.build import shown_commits
from bot.models import Analysis, DigestCommit
from bot.posts import targets
from bot.posts.reconcile import Wanted
from bot.repo_config import RepoConfig
from bot.runtime.logs import get_logger
from bot.store.job_payloads import SendAlertsPayload
from bot.store.jobs import Job
from bot.store.posts import PostState, Recorded
from bot.store.repos import RepoRow, config_of
from bot.store.store import Store

log = get_logger(__name__)

MAX_ALERT_ATTEMPTS = 8
# A revert landing this long after the day still withholds an alert not yet sent; commits
# this long before it are where a revert of the day finds what it names.
NEARBY = timedelta(days=2)
ALERT_PREFIX = "alert-"
ALERT_PERIOD = "alerts:"


def alert_period(day: date) -> str:
    """The post ledger's period of a day's alerts (the digest's own is `day:<date>`)."""
    return f"{ALERT_PERIOD}{day.isoformat()}"


def alert_job(repo_id: int, day: date) -> SendAlertsPayload:
    return SendAlertsPayload(repo_id=repo_id, day=day)


def alerts_on(analysis: Analysis, config: RepoConfig, *, excluded: str | None) -> bool:
    """Whether storing this analysis should (re)start its day's alerts."""
    return excluded is None and wants_alert(analysis, config.alerts)


async def sent_alerts(store: Store, repo_id: int, day: date) -> dict[str, str]:
    """The day's alerts posted so far: commit sha -> the alert's URL (the digest links them)."""
    recorded = await store.posts.recorded(repo_id, alert_period(day))
    return {
        key.removeprefix(ALERT_PREFIX): rec.url
        for key, rec in recorded.items()
        if key.startswith(ALERT_PREFIX) and rec.state is PostState.POSTED and rec.url
    }


class SendAlerts:
    kind = SendAlertsPayload.kind
    max_attempts = MAX_ALERT_ATTEMPTS

    def __init__(self, ctx: JobContext) -> None:
        self._ctx = ctx

    async def run(self, job: Job[SendAlertsPayload]) -> Outcome:
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
                lambda gone: self._send(job, repo, day, gone),
                what="alerts",
                slow=False,
            )

    async def given_up(self, job: Job[SendAlertsPayload], reason: str) -> None:
        self._ctx.metrics.alerts.labels(outcome="failed").inc()

    async def _send(
        self, job: Job[SendAlertsPayload], repo: RepoRow, day: date, gone: places.GoneIssues
    ) -> Outcome:
        ctx = self._ctx
        config = config_of(repo.config, ctx.settings.default_language)
        if not config.alerts.on:
            return Done()  # turned off since the analysis
        start, end = config.schedule.window(day)
        nearby = await ctx.store.digests.window_commits(repo.id, start - NEARBY, end + NEARBY)
        shown, _ = shown_commits(config, nearby)
        today = [c for c in shown if start <= c.landed_at < end]
        others = [c for c in shown if not start <= c.landed_at < end]
        period = alert_period(day)
        recorded = await ctx.store.posts.recorded(repo.id, period)
        ours = {
            k.removeprefix(ALERT_PREFIX): r
            for k, r in recorded.items()
            if k.startswith(ALERT_PREFIX)
        }
        # A commit the config moved to this day (a new zone or cutoff) keeps the alert it got.
        moved = await ctx.store.posts.recorded_anywhere(
            repo.id,
            [
                ALERT_PREFIX + c.sha
                for c in today
                if c.sha not in ours and wants_alert(c.analysis, config.alerts)
            ],
            period_prefix=ALERT_PERIOD,
        )
        posted = {*ours, *(k.removeprefix(ALERT_PREFIX) for k in moved)}
        plan = plan_alerts(today, config=config.alerts, posted=posted, others=others)
        # A create whose answer was lost is settled first (found by its marker, or sent).
        unclear = [c for c in today if (r := ours.get(c.sha)) and r.state is PostState.CREATING]
        alerts = [*unclear, *plan.post]
        for sha, revert in plan.reverted.items():
            log.info("alert_withheld_reverted", sha=sha, revert=revert)
        if not alerts and not plan.fold:
            return Done()
        client = await ctx.client(job, repo.installation_id, repo.full_name, repo.id)
        to_discussion = config.alerts.to == "discussion"
        if to_discussion:
            try:
                wanted = _unmade(
                    recorded, self._wanted(repo, config, day, alerts, plan.fold, for_issue=False)
                )
                await places.sync_discussions(
                    ctx,
                    job,
                    client,
                    repo.full_name,
                    wanted,
                    category=config.alerts.category or config.publish.category,
                    repo_id=repo.id,
                    period=period,
                )
            except places.FallBack as reason:
                log.info("alerts_fallback_to_issue", reason=str(reason))
                to_discussion = False
        if not to_discussion:
            number = await places.comment_issue(
                ctx, job, client, repo, configured=config.publish.issue, gone=gone
            )
            channel = targets.issue_comments(client, repo.full_name, number)
            # Read again: the discussions' attempt may have made some before it fell back.
            made = await ctx.store.posts.recorded(repo.id, period)
            wanted = _unmade(
                made, self._wanted(repo, config, day, alerts, plan.fold, for_issue=True)
            )
            await targets.sync_posts(
                ctx.store, ctx.clock, job, channel, wanted, repo_id=repo.id, period=period
            )
        for c in alerts:
            log.info("alert_posted", sha=c.sha)
        ctx.metrics.alerts.labels(outcome="posted").inc(len(alerts))
        return Done()

    @staticmethod
    def _wanted(
        repo: RepoRow,
        config: RepoConfig,
        day: date,
        alerts: list[DigestCommit],
        fold: tuple[DigestCommit, ...],
        *,
        for_issue: bool,
    ) -> list[Wanted]:
        kind = "issue-comment" if for_issue else "discussion"
        language, zone = config.language, config.timezone
        out = []
        for c in alerts:
            post = render_alert(c, repo=repo.full_name, day=day, language=language, timezone=zone)
            out.append(
                Wanted(post.key, kind, alert_marker(repo.full_name, c.sha), post.body, post.title)
            )
        if fold:
            post = render_alert_fold(
                fold,
                repo=repo.full_name,
                day=day,
                language=language,
                max_per_day=config.alerts.max_per_day,
                timezone=zone,
                with_title=for_issue,
            )
            out.append(
                Wanted(post.key, kind, fold_marker(repo.full_name, day), post.body, post.title)
            )
        return out


def _unmade(made: dict[str, Recorded], wanted: list[Wanted]) -> list[Wanted]:
    """Leaves out posts recorded in the other place (made before a fallback, or before the
    config moved them): they stay where they are, and are never made twice."""
    return [w for w in wanted if w.key not in made or made[w.key].kind == w.kind]
