"""The scheduler: at each repository's cutoff, publish the day that ended.

It wakes for the earliest cutoff across repositories (at least once a minute, for late
commits), and publishes every (repository, day) whose cutoff has passed: on start that
includes days missed while the App was down (posted once, marked late). Commits still
unanalysed at the cutoff get `GRACE_MINUTES`; after that the rules analyse them, so a slow
LLM never holds a digest back. Every replica runs a scheduler; the store's claim makes sure
one of them publishes.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from structlog.contextvars import bound_contextvars

from bot.analysis import AnalysisResult, rules
from bot.background import BackgroundService
from bot.clock import Clock
from bot.digest.publish import Outcome, Publisher
from bot.logs import get_logger
from bot.settings import Settings
from bot.store import Store
from bot.store.digests import DayCommit
from bot.store.repos import RepoRow
from bot.worker import commit_from_details, config_of

log = get_logger(__name__)

# A digest posted later than this after its cutoff (plus grace) says it is late.
LATE_AFTER = timedelta(minutes=15)


class Scheduler(BackgroundService):
    name = "scheduler"

    def __init__(
        self, store: Store, publisher: Publisher, *, clock: Clock, settings: Settings
    ) -> None:
        super().__init__()
        self._store = store
        self._publisher = publisher
        self._clock = clock
        self._settings = settings
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
        """Publish what is due; return when something next falls due."""
        now = self._clock.now()
        wake_at = now + self._max_sleep
        # Two queries for all repositories, not two per repository: a round over 1,000
        # repositories stays in the tens of milliseconds.
        unpublished = await self._store.digests.days_to_publish()
        last_days = await self._store.digests.last_days()
        for repo in await self._store.repos.all():
            with bound_contextvars(repo=repo.full_name):
                days = self._days(
                    repo, now, unpublished.get(repo.id, set()), last_days.get(repo.id)
                )
                due = await self._repository(repo, now, days)
                wake_at = min(wake_at, due)
        return wake_at

    def _days(
        self, repo: RepoRow, now: datetime, unpublished: set[date], last: date | None
    ) -> list[date]:
        config = config_of(repo.config, self._settings.default_language)
        schedule = config.schedule
        days = set(unpublished)
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

    async def _repository(self, repo: RepoRow, now: datetime, days: list[date]) -> datetime:
        config = config_of(repo.config, self._settings.default_language)
        schedule = config.schedule
        wake_at = schedule.end_of(schedule.day_of(now))
        for day in days:
            end = schedule.end_of(day)
            if now < end:
                wake_at = min(wake_at, end)
                continue
            record = await self._store.digests.get(repo.id, day)
            if record is not None and record.state == "failed":
                continue
            if record is not None and record.lease_until is not None and record.lease_until > now:
                wake_at = min(wake_at, record.lease_until)
                continue
            if await self._unfinished(repo, day) and now < end + self._grace:
                wake_at = min(wake_at, end + self._grace)
                continue
            late = now > end + self._grace + LATE_AFTER
            outcome = await self.publish_now(repo, day, late=late)
            log.info("scheduler_published", day=day.isoformat(), outcome=outcome.state, late=late)
        return wake_at

    async def _unfinished(self, repo: RepoRow, day: date) -> list[DayCommit]:
        commits = await self._store.digests.day_commits(repo.id, day)
        return [c for c in commits if c.state in ("pending", "analyzing") and not c.published_part]

    async def publish_now(self, repo: RepoRow, day: date, *, late: bool = False) -> Outcome:
        """Publish the day now: commits still unanalysed get the rules' analysis first."""
        language = config_of(repo.config, self._settings.default_language).language
        for commit in await self._unfinished(repo, day):
            await self._rules_instead(repo, commit.sha, commit.message, commit.details, language)
        return await self._publisher.publish(repo, day, late=late)

    async def _rules_instead(
        self, repo: RepoRow, sha: str, message: str, details: dict[str, Any] | None, language: str
    ) -> None:
        commit = commit_from_details(sha, message, details)
        result = AnalysisResult(
            rules.analyze(commit, language=language),
            fallback_reason="not analysed by the cutoff's grace period; rules analysis used",
        )
        await self._store.digests.force_analysis(repo.id, sha, result, self._clock.now())
        log.info("commit_analysed_at_cutoff", sha=sha)
