"""The scheduler: at each repository's cutoff, enqueue the publication of the period that ended.

It wakes for the earliest cutoff across repositories (at least once a minute, for late
commits) and enqueues a `publish_period` job for every (repository, day) whose cutoff has
passed and that has commits not yet posted: on start that includes days missed while the
App was down. Which day a commit belongs to is computed here, from its landing time and the
config in force now. Commits still unanalysed at the cutoff get `GRACE_MINUTES` first. The
scheduler does no publishing itself; the executor runs the jobs, and the job table makes
sure one replica runs each.

For a repository with `weekly.enabled` it also enqueues a `publish_week` job for the newest
week whose cutoff (plus the same grace) has passed and that has no final record yet: after
downtime that is the catch-up, posted late and marked so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime, timedelta
from functools import cache

from structlog.contextvars import bound_contextvars

from bot.jobs.publish.week import week_job
from bot.periods.period import Period
from bot.periods.weeks import Week, WeekSchedule
from bot.repo_config import RepoConfig
from bot.runtime.background import BackgroundService
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.settings import Settings
from bot.store import Store
from bot.store.job_payloads import (
    JobPayload,
    PublishPeriodPayload,
    PublishWeekPayload,
    publish_key,
)
from bot.store.jobs import JobKind
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)


# How far back the records of due weeks are looked for: a week's first day is at most 13
# days before the day it is due (plus a day for time zones).
WEEKS_BACK = timedelta(days=15)


class Scheduler(BackgroundService):
    name = "scheduler"

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock,
        settings: Settings,
        on_enqueued: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self._store = store
        self._clock = clock
        self._settings = settings
        self._on_enqueued = on_enqueued
        self._grace = timedelta(minutes=settings.grace_minutes)
        self._max_sleep = timedelta(seconds=settings.scheduler_max_sleep_seconds)

    async def run(self) -> None:
        while True:
            try:
                wake_at = await self.run_once()
            except Exception:
                log.exception("scheduler_round_failed")
                wake_at = self._clock.now() + self._max_sleep
            delay = (wake_at - self._clock.now()).total_seconds()
            await self._clock.sleep(min(self._max_sleep.total_seconds(), max(0.5, delay)))

    async def run_once(self) -> datetime:
        """Enqueue what is due; return when something next falls due."""
        now = self._clock.now()
        wake_at = now + self._max_sleep
        # A few queries for all repositories, not a few per repository: a round over 1,000
        # repositories takes 0.1–0.2 s on a shared 2-core machine (bench/RESULTS.md §10).
        landings = await self._store.digests.unpublished_landings()
        last = await self._store.digests.last_periods()
        failed = await self._store.digests.failed_periods()
        gave_up = await self._store.jobs.failed_at(JobKind.PUBLISH_PERIOD)
        # A due week started at most two weeks ago, in any zone.
        weeks_ended = await self._store.digests.ended_periods("week", now.date() - WEEKS_BACK)
        weeks_failed = await self._store.jobs.failed_at(JobKind.PUBLISH_WEEK)
        due: list[tuple[int, Period]] = []
        weeks: list[PublishWeekPayload] = []
        # Repositories mostly share a few schedules: each one's weeks are worked out once.
        weeks_of = cache(lambda schedule: _due_and_next(schedule, now))
        for repo in await self._store.repos.all():
            with bound_contextvars(repo=repo.full_name):
                try:
                    config = config_of(repo.config, self._settings.default_language)
                    landed = landings.get(repo.id, {})
                    days = self._days(repo, config, now, landed, last.get(repo.id))
                    periods, next_at = await self._due(
                        repo, config, now, days, failed=failed, landed=landed, gave_up=gave_up
                    )
                    week, week_at = self._week(
                        repo, config, now, weeks_ended, weeks_failed, weeks_of=weeks_of
                    )
                except Exception:
                    # One repository's trouble (a config the code cannot use) is its own.
                    log.exception("scheduler_repository_failed")
                    continue
                due += [(repo.id, p) for p in periods]
                weeks += [week] if week is not None else []
                wake_at = min(wake_at, next_at, week_at)
        if due:
            await self.enqueue(due)
        if weeks:
            await self._enqueue(weeks)
            log.info("scheduler_enqueued_weeks", weeks=len(weeks))
        return wake_at

    async def enqueue(self, due: list[tuple[int, Period]], *, now: bool = False) -> None:
        """Enqueue (or re-arm, when it ran before) the publication of these periods;
        `now`: even before the period's cutoff (the `publish` command)."""
        await self._enqueue(
            [PublishPeriodPayload.of(repo_id, period, now=now) for repo_id, period in due]
        )
        log.info("scheduler_enqueued", periods=len(due))

    async def _enqueue(self, items: Sequence[JobPayload]) -> None:
        # Re-armed when it ran before: a week whose job ended without its record (weekly
        # turned off, then on again) is started again; one running now runs once more and
        # finds its record.
        async with self._store.writer().begin() as conn:
            await self._store.jobs.enqueue_in(conn, items, self._clock.now(), rearm=True)
        if self._on_enqueued is not None:
            self._on_enqueued()

    def _week(
        self,
        repo: RepoRow,
        config: RepoConfig,
        now: datetime,
        ended: set[tuple[int, date]],
        failed: dict[str, datetime],
        *,
        weeks_of: Callable[[WeekSchedule], tuple[Week, Week]],
    ) -> tuple[PublishWeekPayload | None, datetime]:
        """The week to enqueue now, if any, and when this repository's next week is due."""
        if not config.weekly.enabled:
            return None, now + self._max_sleep
        week, following = weeks_of(config.week_schedule)
        upcoming = following.due + self._grace
        if now < week.due + self._grace:
            return None, week.due + self._grace
        if week.end <= repo.active_since or (repo.id, week.first) in ended:
            return None, upcoming
        job = week_job(repo.id, week)
        if job.key in failed:
            return None, upcoming  # given up (its record could not be written): not again
        return job, upcoming

    def _days(
        self,
        repo: RepoRow,
        config: RepoConfig,
        now: datetime,
        landings: Iterable[datetime],
        last: date | None,
    ) -> list[date]:
        schedule = config.schedule
        days = {schedule.day_of(instant) for instant in landings}
        if not config.skip_empty_days:
            # Quiet days get a post too: from the last digest (or the install), but never
            # more than CATCH_UP_DAYS back.
            last_ended = schedule.day_of(now) - timedelta(days=1)
            first = (last + timedelta(days=1)) if last else schedule.day_of(repo.active_since)
            first = max(first, last_ended - timedelta(days=self._settings.catch_up_days - 1))
            day = first
            while day <= last_ended:
                days.add(day)
                day += timedelta(days=1)
        return sorted(days)

    async def _due(
        self,
        repo: RepoRow,
        config: RepoConfig,
        now: datetime,
        days: list[date],
        *,
        failed: set[tuple[int, str, date]],
        landed: dict[datetime, datetime],
        gave_up: dict[str, datetime],
    ) -> tuple[list[Period], datetime]:
        schedule = config.schedule
        wake_at = schedule.end_of(schedule.day_of(now))
        due = []
        for day in days:
            start, end = schedule.window(day)
            if now < end:
                wake_at = min(wake_at, end)
                continue
            if (repo.id, "day", day) in failed:
                continue
            failed_at = gave_up.get(publish_key(repo.id, Period.day(day)))
            if failed_at is not None and not any(
                start <= instant < end and stored_at > failed_at
                for instant, stored_at in landed.items()
            ):
                # Its publication (an addendum to a posted day) ran out of attempts: started
                # again only for a commit stored since, not round after round.
                continue
            if now < end + self._grace and await self._store.digests.unfinished(
                repo.id, start, end
            ):
                wake_at = min(wake_at, end + self._grace)
                continue
            due.append(Period.day(day))
        return due, wake_at

    async def publish_now(self, repo: RepoRow, day: date) -> None:
        """Enqueue the day's publication now (the `publish` command): unanalysed commits get
        the rules' analysis when it runs; a published day is not posted again; one backing
        off after a failure is tried now."""
        period = Period.day(day)
        await self._store.digests.reopen(repo.id, period)
        await self.enqueue([(repo.id, period)], now=True)
        key = publish_key(repo.id, period)
        await self._store.jobs.bring_forward(JobKind.PUBLISH_PERIOD, key, self._clock.now())

    async def publish_week_now(self, repo: RepoRow, week: Week) -> None:
        """Enqueue (or re-arm) the week's roll-up (the `publish` command): a failed or skipped
        week is built again, and posted if it has something to say; a posted one is not; one
        backing off is tried now."""
        await self._store.digests.reopen(
            repo.id, Period.week(week.first), skipped_too_at=self._clock.now()
        )
        spec = week_job(repo.id, week)
        await self._enqueue([spec])
        await self._store.jobs.bring_forward(spec.kind, spec.key, self._clock.now())
        log.info("scheduler_enqueued_weeks", weeks=1)


def _due_and_next(schedule: WeekSchedule, now: datetime) -> tuple[Week, Week]:
    """The newest week whose posting time has passed at `now`, and the one after it."""
    week = schedule.latest_due(now)
    return week, schedule.following(week)
