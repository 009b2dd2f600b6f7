"""`send_alerts`: post an alert for a commit analysed as breaking or high, as it lands.

One job per commit (repository and sha), enqueued in the transaction that stores an analysis
the config alerts on. A run reads the config in force then: the commit's day and where its
alert goes are worked out at run time, never fixed when it was enqueued, and the post ledger
says, whatever the day, whether the commit was alerted or folded already. A day's first
`max_per_day` alerts get a post of their own (decided one commit at a time, under a lock per
repository); the rest are recorded as folded, and the day's `fold_alerts` job brings its one
"more alerts" post up to date, at most once a minute (`bot.jobs.publish.fold`). A commit
reverted before its alert went out gets none. A run reads the commit, the few reverts near
it and the ledger, so its cost does not grow with the size of the day. Every post goes
through the post ledger: a crash or an unclear create never posts twice, and a create left
unclear is settled where it was sent, whatever the config says now.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from bot.digest.alerts import plan_alerts, reads_as_revert, render_alert, wants_alert
from bot.digest.sameday import settled
from bot.jobs.alert_jobs import FOLD_EVERY, NEARBY
from bot.jobs.context import JobContext
from bot.jobs.digest_build import shown_commits
from bot.jobs.outcomes import Done, Outcome, RetryPolicy
from bot.jobs.publish.posting import posting
from bot.models import DigestCommit
from bot.posts import targets
from bot.posts.poster import Poster
from bot.posts.thread import Thread
from bot.repo_config import RepoConfig
from bot.runtime.logs import get_logger
from bot.store.alert_ledger import ALERT_PREFIX, AlertLedger, alert_period, day_of_period
from bot.store.job_payloads import FoldAlertsPayload, SendAlertsPayload
from bot.store.jobs import Job, JobKind, Jobs
from bot.store.posts import PostState, Recorded
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)


async def settle(
    poster: Poster, config: RepoConfig, period: str, rec: Recorded
) -> targets.Channel | None:
    """An alert's or fold's unclear create, looked for where it was sent whatever the config
    says now (`Poster.settle`): the channel it is in, or None (withdrawn)."""
    thread = Thread.alerts(poster.repo_id, poster.full_name, day_of_period(period))
    return await poster.settle(
        thread, rec, thread.marker(rec.key), category=config.place("alerts").category
    )


class AlertJob:
    """What the alert jobs (this one and the fold's) share: their retry policy, and a failed
    alert counted when one gives up."""

    retry = RetryPolicy(attempts=8, log_as="alerts")

    def __init__(self, ctx: JobContext) -> None:
        self._ctx = ctx

    async def given_up(self, job: Job[Any], reason: str) -> None:
        self._ctx.metrics.alerts.labels(outcome="failed").inc()


class SendAlerts(AlertJob):
    kind = JobKind.SEND_ALERTS

    async def run(self, job: Job[SendAlertsPayload]) -> Outcome:
        sha = job.payload.sha
        if sha is None:
            return await self._by_day(job)

        async def attempt(repo: RepoRow, poster: Poster) -> Outcome:
            return await self._send(job, repo, sha, poster)

        return await posting(self._ctx, job, attempt, retry=self.retry, sha=sha)

    async def _by_day(self, job: Job[SendAlertsPayload]) -> Outcome:
        """A job of a day, enqueued before alerts were kept per commit: one per commit now."""
        ctx = self._ctx
        repo = await ctx.store.repos.get(job.payload.repo_id)
        if repo is None or job.payload.day is None:
            return Done()
        config = config_of(repo.config, ctx.settings.default_language)
        start, end = config.schedule.window(job.payload.day)
        worthy = await ctx.store.digests.alert_worthy_between(repo.id, start, end)
        now = ctx.clock.now()
        async with ctx.store.jobs.holding(job, now, finish=True) as conn:
            await Jobs.enqueue_in(
                conn, [SendAlertsPayload(repo_id=repo.id, sha=c.sha) for c in worthy], now
            )
        return Done(recorded=True)

    async def _commit(self, repo: RepoRow, config: RepoConfig, sha: str) -> DigestCommit | None:
        """The commit as an alert shows it; None when it is gone, or excluded by the config.
        A break of names an earlier commit of its day added is none, as the day's digest says
        (`bot/digest/sameday.py`): read with its day so far."""
        digests = self._ctx.store.digests
        shown, _ = shown_commits(config, await digests.commits_of(repo.id, [sha]))
        if not shown or shown[0].analysis is None:
            return None
        commit = shown[0]
        if commit.analysis is not None and commit.analysis.breaking and commit.names is not None:
            start, _ = config.schedule.window(config.schedule.day_of(commit.landed_at))
            rows = await digests.window_commits(repo.id, start, commit.landed_at)
            earlier, _ = shown_commits(config, [r for r in rows if r.sha != sha])
            commit = settled([*earlier, commit])[-1]
        return commit

    async def _send(
        self, job: Job[SendAlertsPayload], repo: RepoRow, sha: str, poster: Poster
    ) -> Outcome:
        ctx = self._ctx
        config = config_of(repo.config, ctx.settings.default_language)
        found = await ctx.store.alert_ledger.find(repo.id, sha)
        if found is not None and found[1].state is PostState.POSTED:
            return Done()  # alerted (or folded) already, whatever its day is now
        if not config.alerts.on:
            # Turned off since the analysis: an unclear create is settled all the same.
            if found is not None:
                await settle(poster, config, *found)
            return Done()
        commit = await self._commit(repo, config, sha)
        if commit is None:
            return Done()
        if found is not None:
            # A create whose answer was lost is looked for where it was sent, whatever the
            # config says now: adopted if it is there; if not, nothing was made, and the
            # alert is decided afresh under the config in force (its day, its place).
            period, rec = found
            channel = await settle(poster, config, period, rec)
            if channel is not None:
                # Made: brought to what the alert says now, where it is.
                await self._post(poster, config, channel, commit, period)
                return Done()
        if not wants_alert(commit.analysis, config.alerts) or await self._withheld(
            repo, config, commit
        ):
            return Done()
        day = config.schedule.day_of(commit.landed_at)
        period = alert_period(day)
        # Where a post of its own would go is asked of GitHub only once the day has room for
        # one: a commit that folds costs no GitHub call.
        if (
            await self._own_post(job, repo, config=config, channel=None, commit=commit, day=day)
            is False
        ):
            return Done()

        async def attempt(channel: targets.Channel) -> bool:
            """The alert intended there, then posted: False when the day filled up meanwhile
            (the commit folded instead)."""
            if not await self._own_post(
                job, repo, config=config, channel=channel, commit=commit, day=day
            ):
                return False
            await self._post(poster, config, channel, commit, period)
            return True

        if await poster.to_place(config.place("alerts"), attempt):
            log.info("alert_posted")
            ctx.metrics.alerts.labels(outcome="posted").inc()
        return Done()

    async def _withheld(self, repo: RepoRow, config: RepoConfig, commit: DigestCommit) -> bool:
        """A revert landed before the alert went out (none is sent), or this commit reverts
        one whose alert was withheld so (the pair cancels out)."""
        store = self._ctx.store
        start, end = config.schedule.window(config.schedule.day_of(commit.landed_at))
        reverts, _ = shown_commits(
            config, await store.digests.reverts_between(repo.id, start - NEARBY, end + NEARBY)
        )
        reverts = [c for c in reverts if c.sha != commit.sha]
        reverted: list[DigestCommit] = []
        if reads_as_revert(commit):
            worthy = await store.digests.alert_worthy_between(
                repo.id, start - NEARBY, commit.landed_at + timedelta(microseconds=1)
            )
            reverted, _ = shown_commits(config, [c for c in worthy if c.sha != commit.sha])
        alerted = await store.alert_ledger.own_alerts(repo.id, [c.sha for c in reverted])
        plan = plan_alerts(
            [commit, *reverted], config=config.alerts, posted=alerted, others=reverts
        )
        if commit.sha in plan.reverted:
            log.info("alert_withheld_reverted", revert=plan.reverted[commit.sha])
            return True
        if commit.sha in plan.cancelled:
            log.info("alert_withheld_cancelled", reverts=plan.cancelled[commit.sha])
            return True
        return False

    async def _own_post(
        self,
        job: Job[SendAlertsPayload],
        repo: RepoRow,
        *,
        config: RepoConfig,
        channel: targets.Channel | None,
        commit: DigestCommit,
        day: date,
    ) -> bool | None:
        """Within the day's `max_per_day`, the commit's own alert is intended (there, before
        the create); past it, the commit is folded and the day's fold job armed. One commit
        decided at a time per repository, so the day never has more own alerts. None: there
        is room, and nothing is written until `channel` says where the post goes."""
        ctx = self._ctx
        now = ctx.clock.now()
        period = alert_period(day)
        async with ctx.store.jobs.holding(job, now) as conn:
            await AlertLedger.lock(conn, repo.id)
            taken = await AlertLedger.own_count(conn, repo.id, period)
            taken += await AlertLedger.undecided_before(
                conn,
                repo.id,
                job_kind=JobKind.SEND_ALERTS.value,
                sha=commit.sha,
                landed_at=commit.landed_at,
                since=config.schedule.window(day)[0],
            )
            if taken < config.alerts.max_per_day:
                if channel is None:
                    return None
                await ctx.store.posts.intend(
                    conn,
                    repo.id,
                    period,
                    key=ALERT_PREFIX + commit.sha,
                    kind=channel.kind,
                    parent=channel.parent,
                    now=now,
                    job_id=job.id,
                )
                return True
            await AlertLedger.fold_in(conn, repo.id, period, commit.sha, now)
            written = await AlertLedger.fold_written_at(conn, repo.id, period)
            due = max(now, written + FOLD_EVERY) if written is not None else now
            fold = FoldAlertsPayload(repo_id=repo.id, day=day)
            await Jobs.enqueue_in(conn, [fold], now, rearm=True, not_before=due)
        log.info("alert_folded", fold_due=due.isoformat())
        ctx.metrics.alerts.labels(outcome="folded").inc()
        return False

    async def _post(
        self,
        poster: Poster,
        config: RepoConfig,
        channel: targets.Channel,
        commit: DigestCommit,
        period: str,
    ) -> None:
        day = day_of_period(period)
        post = render_alert(
            commit,
            repo=poster.full_name,
            day=day,
            language=config.language,
            timezone=config.timezone,
        )
        thread = Thread.alerts(poster.repo_id, poster.full_name, day)
        wanted = thread.wanted(post.key, channel.kind, post.body, post.title)
        await poster.send(thread, channel, [wanted])
