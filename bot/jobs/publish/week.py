"""`publish_week`: post a repository's weekly roll-up once, after the week's cutoff.

Built from the stored commits and analyses alone, through the same exclude rules as the
daily digests (so its counts are the sum of theirs), with links to each day's digest from
the post ledger. It waits a little for the days still being posted, so their links exist.
With an LLM configured, one call writes the narrative, kept with the week's digest record
before anything is posted: a retried post reuses it instead of paying again. The post goes
through the post ledger, so a crash or an unclear create never posts twice; a week the
config no longer has (its weekday moved) still settles its unclear create where it was sent,
or, begun and not made, is still posted (it was owed); a week sharing days with a roll-up
posted, or made but unclear, is not posted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.analysis.narrative import Narrator
from bot.analysis.rollup import (
    Counts,
    Narrative,
    Rollup,
    RollupCommit,
    build_rollup,
    commits_a_day,
    wanted,
)
from bot.digest.sameday import settled_week
from bot.digest.weekly import render_weekly
from bot.jobs.context import JobContext
from bot.jobs.digest_build import shown_commits
from bot.jobs.outcomes import Defer, Done, Outcome, RetryPolicy, hourly
from bot.jobs.publish.day import LATE_AFTER
from bot.jobs.publish.posting import poster as poster_of
from bot.jobs.publish.posting import posting
from bot.periods.period import Period
from bot.periods.weeks import WEEKDAYS, Week, WeekSchedule
from bot.posts.poster import HEAD, Delivery, Draft, Poster
from bot.posts.thread import Thread
from bot.repo_config import RepoConfig
from bot.runtime.logs import get_logger
from bot.store.digests import DayCommit, DigestState
from bot.store.job_payloads import PublishWeekPayload
from bot.store.jobs import Job, JobState
from bot.store.posts import PostState
from bot.store.repos import RepoRow, config_of
from bot.store.store import Store

log = get_logger(__name__)

# The days of the week are usually posted at the same cutoff, just before: while one still
# has commits to post, the week waits this long at most, looking again every WAIT_STEP.
WAIT_FOR_DAYS = timedelta(minutes=30)
WAIT_STEP = timedelta(minutes=1)
POST_KEY = HEAD
ENDED = (DigestState.PUBLISHED, DigestState.SKIPPED, DigestState.FAILED)


def week_job(repo_id: int, week: Week) -> PublishWeekPayload:
    """The job that publishes `week`'s roll-up (key `{repo_id}/week/{first day}`)."""
    return PublishWeekPayload(repo_id=repo_id, first=week.first)


def never_due(before: RepoConfig, after: RepoConfig, now: datetime) -> Week | None:
    """The newest week whose cutoff has passed under `after` but was no roll-up's under
    `before` (weekly turned on, or its weekday or cutoff moved, since): nobody was waiting
    for it, so it gets no post, rather than one posted at once and marked late."""
    if not after.weekly.enabled:
        return None
    week = after.week_schedule.latest_due(now)
    if before.weekly.enabled and before.week_schedule.latest_due(now).first == week.first:
        return None
    return week


@dataclass(frozen=True)
class Overlap:
    """A roll-up that shares days with a week: posted, or `unclear` (its create's answer was
    lost, so GitHub may have made it: it is taken until that is settled)."""

    first: date
    unclear: bool = False


async def posted_overlap(store: Store, repo_id: int, week: Week) -> Overlap | None:
    """A roll-up posted, or whose create is unclear, that shares days with `week` (one made
    under an earlier `weekly:` weekday), if any: periods never overlap, so no day is rolled
    up twice. The one rule of the scheduler's roll-ups and of `publish --week`."""
    span = timedelta(days=len(week.days) - 1)
    starts = await store.digests.published_starts(repo_id, "week", week.first - span, week.last)
    posted = next((s for s in starts if s != week.first), None)
    if posted is not None:
        return Overlap(posted)
    # The ledger too: a post recorded before its week's record says so, or one unclear.
    others = [week.first - span + timedelta(days=n) for n in range(2 * len(week.days) - 1)]
    keys = {Period.week(d).key: d for d in others if d != week.first}
    made = await store.posts.made_or_unclear(repo_id, keys)
    clashes = sorted((keys[k], unclear) for k, unclear in made.items())
    return next((Overlap(first, unclear=unclear) for first, unclear in clashes), None)


def changed_lines(details: Mapping[str, Any] | None) -> dict[str, int]:
    """Changed lines per path from a commit's stored details (additions + deletions)."""
    out: dict[str, int] = {}
    for f in (details or {}).get("files") or []:
        if not isinstance(f, Mapping) or not f.get("filename"):
            continue
        lines = _count(f.get("additions")) + _count(f.get("deletions"))
        out[str(f["filename"])] = out.get(str(f["filename"]), 0) + lines
    return out


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def rollup_commits(config: RepoConfig, commits: list[DayCommit]) -> list[RollupCommit]:
    """The commits the daily digests list (excluded ones left out), with their changes."""
    shown, _ = shown_commits(config, commits)
    details = {c.sha: c.details for c in commits}
    return [RollupCommit(c, changed_lines(details[c.sha])) for c in shown]


@dataclass(frozen=True)
class _Run:
    """One attempt at one week: the claimed job and what it publishes."""

    job: Job[PublishWeekPayload]
    repo: RepoRow
    config: RepoConfig
    week: Week
    poster: Poster

    @property
    def period(self) -> Period:
        return Period.week(self.week.first)

    @property
    def thread(self) -> Thread:
        return Thread.of(self.repo.id, self.repo.full_name, self.period)


class PublishWeek:
    kind = PublishWeekPayload.kind
    retry = RetryPolicy(attempts=8, trouble=hourly, log_as="weekly")

    def __init__(self, ctx: JobContext, narrator: Narrator) -> None:
        self._ctx = ctx
        self._narrator = narrator

    async def run(self, job: Job[PublishWeekPayload]) -> Outcome:
        week = job.payload.first.isoformat()
        return await posting(
            self._ctx, job, partial(self._publish, job), retry=self.retry, week=week
        )

    async def given_up(self, job: Job[PublishWeekPayload], reason: str) -> None:
        ctx = self._ctx
        payload = job.payload
        await ctx.store.digests.fail(payload.repo_id, payload.period, reason, ctx.clock.now())
        ctx.metrics.weekly.labels(outcome="failed").inc()

    async def _publish(
        self, job: Job[PublishWeekPayload], repo: RepoRow, poster: Poster
    ) -> Outcome:
        ctx, first = self._ctx, job.payload.first
        config = config_of(repo.config, ctx.settings.default_language)
        now = ctx.clock.now()
        schedule = config.week_schedule
        if not config.weekly.enabled or schedule.week_of_day(first).first != first:
            # Turned off, or the week moved, since it was enqueued (the scheduler enqueues the
            # new one): a create left unclear is settled all the same, as its days are taken
            # if GitHub made it.
            if await self._settle(job, repo, config, first, finish=True):
                return Done(recorded=True)
            owed = await self._owed(job, repo, config, first)
            if owed is None:
                return Done(recorded=True)
            schedule = owed
        week = schedule.week_of_day(first)
        if now < week.due:
            return Done()  # the config moved the cutoff: the scheduler enqueues it again
        run = _Run(job, repo, config, week, poster)
        record = await ctx.store.digests.get(repo.id, run.period)
        if record is not None and record.state in ENDED:
            return Done()
        clash = await posted_overlap(ctx.store, repo.id, week)
        settled: set[date] = set()
        while clash is not None and clash.unclear:
            # A roll-up sharing days with this week, left unclear under an earlier weekday
            # (its job backing off, or given up): looked for where it was sent, so that no
            # day is counted twice, nor this week held up. One being posted is waited for.
            other = await ctx.store.jobs.get(
                self.kind, PublishWeekPayload(repo_id=repo.id, first=clash.first).key
            )
            running = other is not None and other.state == JobState.RUNNING
            if clash.first in settled or (running and other.lease_until > now):
                return Defer("an overlapping roll-up is not settled yet", now + WAIT_STEP)
            await self._settle(job, repo, config, clash.first, finish=False)
            settled.add(clash.first)
            clash = await posted_overlap(ctx.store, repo.id, week)
        if clash is not None:
            # `weekly:` moved its weekday after a roll-up: its days are counted already.
            await self._finish(run, DigestState.SKIPPED, late=False)
            ctx.metrics.weekly.labels(outcome="skipped").inc()
            log.warning("weekly_overlaps_posted", posted=clash.first.isoformat())
            return Done(recorded=True)
        commits = await ctx.store.digests.window_commits(repo.id, week.start, week.end)
        if now < week.due + WAIT_FOR_DAYS and any(c.published_part is None for c in commits):
            return Defer("waiting for the week's daily digests", now + WAIT_STEP)
        before = await self._previous(run, schedule)
        rollup = build_rollup(
            repo.full_name,
            week,
            schedule.days,
            settled_week(rollup_commits(config, commits), schedule.days),
            previous=before[0] if before else None,
            previous_days=before[1] if before else None,
        )
        if not wanted(rollup, skip_empty_days=config.skip_empty_days):
            await self._finish(run, DigestState.SKIPPED, late=False)
            ctx.metrics.weekly.labels(outcome="skipped").inc()
            log.info("weekly_skipped")
            return Done(recorded=True)
        narrative, started = await self._prepare(run, rollup, record)
        grace = timedelta(minutes=ctx.settings.grace_minutes)
        # Late is decided by when the week's first attempt began, so a retry hours later
        # (GitHub down) does not turn a post made on time into a late one.
        late = started > week.due + grace + LATE_AFTER
        urls = await self._digest_urls(repo.id, week)

        def drafted(d: Delivery) -> Draft:
            post = render_weekly(
                rollup,
                language=config.language,
                timezone=config.timezone,
                digest_urls=urls,
                narrative=narrative,
                late=late,
                with_title=d.issue,
                fallback_note=d.note if d.issue else None,
            )
            return Draft([(POST_KEY, post.body)], post.title)

        published = await poster.publish(run.thread, config.place("weekly"), drafted, what="weekly")
        await self._finish(run, DigestState.PUBLISHED, late=late)
        ctx.metrics.weekly.labels(outcome="published").inc()
        log.info("weekly_published", url=published.url, late=late, commits=rollup.counts.commits)
        return Done(recorded=True)

    async def _owed(
        self, job: Job[PublishWeekPayload], repo: RepoRow, config: RepoConfig, first: date
    ) -> WeekSchedule | None:
        """A week its job began building (its record pending: it was due under the config in
        force at its cutoff) whose weekday has moved since: it was owed, so it is still
        posted, by the schedule that made it (returned); the new schedule's week sharing its
        days is then refused as already built. With weekly turned off, or a week never
        begun, None: the job ends (a pending record ends skipped, saying so)."""
        ctx = self._ctx
        period = Period.week(first)
        record = await ctx.store.digests.get(repo.id, period)
        if config.weekly.enabled and record is not None and record.state == DigestState.PENDING:
            made = config.week_schedule
            for weekday in range(len(WEEKDAYS)):
                owed = replace(made, weekday=weekday)
                if owed.week_of_day(first).first == first:
                    log.info("weekly_owed_after_move", weekday=WEEKDAYS[weekday])
                    return owed
        now = ctx.clock.now()
        async with ctx.store.jobs.holding(job, now, finish=True) as conn:
            if record is not None and record.state == DigestState.PENDING:
                await _finished(ctx.store, conn, repo.id, period, DigestState.SKIPPED, now=now)
                log.warning("weekly_not_posted", reason="weekly turned off before it was posted")
        return None

    async def _settle(
        self,
        job: Job[PublishWeekPayload],
        repo: RepoRow,
        config: RepoConfig,
        first: date,
        *,
        finish: bool,
    ) -> bool:
        """The roll-up of the week from `first`, its create left unclear: looked for where it
        was sent, whatever the config says now; found, it is recorded, and the week with it
        as published (`finish`: this job's own week, its run ends). Whether it was found."""
        ctx = self._ctx
        period = Period.week(first)
        poster = poster_of(ctx, job, repo)
        thread = Thread.of(repo.id, repo.full_name, period)
        rec = (await poster.recorded(thread)).get(POST_KEY)
        if rec is None or rec.state is not PostState.CREATING:
            return False
        found = await poster.settle(
            thread, rec, thread.marker(POST_KEY), category=config.place("weekly").category
        )
        if found is None:
            return False
        now = ctx.clock.now()
        async with ctx.store.jobs.holding(job, now, finish=finish) as conn:
            await ctx.store.digests.ensure(conn, repo.id, period, now)
            await _finished(ctx.store, conn, repo.id, period, DigestState.PUBLISHED, now=now)
        ctx.metrics.weekly.labels(outcome="published").inc()
        log.info("weekly_settled", settled=first.isoformat())
        return True

    async def _previous(
        self, run: _Run, schedule: WeekSchedule
    ) -> tuple[Counts, tuple[int, ...]] | None:
        """The week before's counts and commits a day, the same way; None when the App did
        not see all of it."""
        before = schedule.previous(run.week)
        if run.repo.active_since > before.start:
            return None
        store = self._ctx.store
        commits = await store.digests.window_commits(run.repo.id, before.start, before.end)
        shown = [c.commit for c in rollup_commits(run.config, commits)]
        return Counts.of(shown), commits_a_day(before, schedule.days, shown)

    async def _prepare(
        self, run: _Run, rollup: Rollup, record: Any
    ) -> tuple[Narrative | None, datetime]:
        """The week's narrative and when its first attempt began, both kept with its record:
        the LLM is asked once a week, whatever happens to the post afterwards."""
        ctx, repo = self._ctx, run.repo
        kept = record.narrative if record is not None else None
        ask = kept is None and self._narrator.enabled and not rollup.empty
        if record is None or ask:
            began = ctx.clock.now()
            fresh: dict[str, Any] | None = None
            if ask:
                written = await self._narrator.write(rollup, language=run.config.language)
                fresh = (
                    {"text": written.text, "analyzer": written.analyzer}
                    if written is not None
                    else {"text": None}
                )
            async with ctx.store.jobs.holding(run.job, ctx.clock.now()) as conn:
                await ctx.store.digests.ensure(conn, repo.id, run.period, began)
                if fresh is not None:
                    await ctx.store.digests.keep_narrative(conn, repo.id, run.period, fresh)
            record = await ctx.store.digests.get(repo.id, run.period)
            kept = record.narrative
        narrative = None
        if isinstance(kept, dict) and kept.get("text"):
            narrative = Narrative(str(kept["text"]), str(kept.get("analyzer") or "llm"))
        started: datetime = record.created_at
        return narrative, started

    async def _digest_urls(self, repo_id: int, week: Week) -> dict[date, str]:
        """Each day's digest post (its first part), where one was posted."""
        urls: dict[date, str] = {}
        for day in week.days:
            recorded = await self._ctx.store.posts.recorded(repo_id, Period.day(day).key)
            head = recorded.get(POST_KEY)
            if head is not None and head.state is PostState.POSTED and head.url:
                urls[day] = head.url
        return urls

    async def _finish(self, run: _Run, state: DigestState, *, late: bool) -> None:
        ctx = self._ctx
        now = ctx.clock.now()
        async with ctx.store.jobs.holding(run.job, now, finish=True) as conn:
            await ctx.store.digests.ensure(conn, run.repo.id, run.period, now)
            await _finished(ctx.store, conn, run.repo.id, run.period, state, now=now, late=late)


async def _finished(
    store: Store,
    conn: AsyncConnection,
    repo_id: int,
    period: Period,
    state: DigestState,
    *,
    now: datetime,
    late: bool = False,
) -> None:
    """A week's record ended as `state` (its roll-up is one post: no parts of its own)."""
    await store.digests.finish(
        conn,
        repo_id,
        period,
        state=state,
        first=True,
        shas=[],
        part_key=POST_KEY,
        late=late,
        now=now,
    )
