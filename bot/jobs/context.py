"""What every job handler receives, and the small helpers they share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import aiohttp

from bot.github.calls import InstallationClient
from bot.github.errors import GitHubError, IssueGone, NotInstalled, RateLimited, RepositoryGone
from bot.github.github_app import GitHubApp
from bot.jobs.outcomes import Defer, Fail, Outcome, Retry, RetryPolicy, hourly
from bot.posts.targets import Busy
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.runtime.metrics import Metrics
from bot.settings import Settings
from bot.store.jobs import Job
from bot.store.store import Store

log = get_logger(__name__)

# What a job that posts may meet: GitHub's answers, the network, another job's create.
POSTING_TROUBLE = (GitHubError, aiohttp.ClientError, Busy)


@dataclass(frozen=True)
class JobContext:
    store: Store
    github: GitHubApp
    clock: Clock
    settings: Settings
    metrics: Metrics

    async def client(
        self, job: Job[Any], installation_id: int | None, full_name: str, repo_id: int
    ) -> InstallationClient:
        if installation_id is None:
            # A push without `installation` (a repository hook, not the App's): ask once with
            # the App's JWT, and remember it for the repository's later work.
            installation_id = await self.github.installation_for(full_name)
            async with self.store.jobs.holding(job, self.clock.now()) as conn:
                await self.store.repos.set_installation_in(conn, repo_id, installation_id)
        return self.github.installation(installation_id)

    def posting_outcome(
        self, exc: GitHubError | aiohttp.ClientError | Busy, *, job: Job[Any], retry: RetryPolicy
    ) -> Outcome:
        """What a job that posts makes of trouble: a rate limit, or another job creating the
        same post, waits without spending an attempt; lost access ends the job quietly;
        Issues turned off wait, hourly, for them to be turned back on; anything else is tried
        again when the kind's `retry` says."""
        now = self.clock.now()
        what = retry.log_as
        if isinstance(exc, Busy):
            # The other job's create has ended by then, one way or another (a write with no
            # answer within GITHUB_TIMEOUT_SECONDS gives up), and its post is recorded or
            # findable.
            return Defer(
                str(exc), now + 2 * timedelta(seconds=self.settings.github_timeout_seconds)
            )
        if isinstance(exc, RateLimited):
            return Defer(str(exc), exc.until)
        if isinstance(exc, RepositoryGone | NotInstalled):
            log.info(f"{what}_unpostable", error=str(exc))
            return Fail(str(exc))
        if isinstance(exc, IssueGone):
            # Not lost access: a maintainer turning Issues back on lets the post go out.
            event = f"{what}_issues_disabled" if exc.disabled else f"{what}_issue_gone"
            log.warning(event, issue=exc.issue, error=str(exc), attempt=job.attempts)
            return Retry(str(exc), at=hourly(now, job.attempts))
        log.warning(f"{what}_failed", error=str(exc), attempt=job.attempts)
        return Retry(str(exc), at=retry.trouble(now, job.attempts) if retry.trouble else None)
