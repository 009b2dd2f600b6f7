"""What every job handler receives, and the small helpers they share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.clock import Clock
from bot.github import GitHubApp, InstallationClient
from bot.jobs.kinds import Job
from bot.metrics import Metrics
from bot.settings import Settings
from bot.store.store import Store

# Retries wait 30 s, 1 min, 2 min, … up to this.
MAX_BACKOFF = timedelta(minutes=30)


def backoff(now: datetime, attempts: int) -> datetime:
    """When a job that failed its `attempts`-th try is tried again."""
    delay: timedelta = min(MAX_BACKOFF, timedelta(seconds=30) * 2 ** max(0, attempts - 1))
    return now + delay


@dataclass(frozen=True)
class JobContext:
    store: Store
    github: GitHubApp
    clock: Clock
    settings: Settings
    metrics: Metrics

    async def client(
        self, job: Job, installation_id: int | None, full_name: str, repo_id: int
    ) -> InstallationClient:
        if installation_id is None:
            # A push without `installation` (a repository hook, not the App's): ask once with
            # the App's JWT, and remember it for the repository's later work.
            installation_id = await self.github.installation_for(full_name)
            async with self.store.jobs.holding(job, self.clock.now()) as conn:
                await self.store.repos.set_installation_in(conn, repo_id, installation_id)
        return self.github.installation(installation_id)
