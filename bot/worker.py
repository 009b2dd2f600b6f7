"""The background worker: reads configs, expands push ranges, fetches and analyses commits.

Each round it refreshes the configs of repositories whose config may have changed, expands
pushes whose payload did not list every commit (compare API), then claims a batch of pending
commits under a lease, fetches each commit with its pull request, and stores its analysis.
Work that fails is retried with backoff and, after `WORKER_MAX_ATTEMPTS`, marked failed with
the reason (the digest lists it as "not analysed"); a rate limit postpones it without
spending an attempt; a repository the App lost ends its work quietly.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import aiohttp
from structlog.contextvars import bound_contextvars

from bot.analysis import AnalysisResult, Analyzer
from bot.background import BackgroundService
from bot.batching import batch_ready
from bot.clock import Clock
from bot.github import GitHubApp, InstallationClient
from bot.github.calls import CommitMissing
from bot.github.conditional import get_file_if_changed
from bot.github.errors import GitHubError, NotInstalled, RateLimited, RepositoryGone
from bot.governor import Governor
from bot.handlers.context import RepoViews
from bot.logs import get_logger
from bot.metrics import Metrics
from bot.models import CommitInput, FileChange, PullRequestInfo
from bot.payloads import pr_number
from bot.prefetch import Prefetched, prefetch
from bot.repo_config import CONFIG_PATH, ConfigError, RepoConfig, default_config, parse_config
from bot.settings import Settings
from bot.store import Store
from bot.store.etags import ConfigETags
from bot.store.queue import ClaimedCommit, ClaimedRange
from bot.store.records import NewCommit
from bot.store.repos import RepoRow
from bot.store.usage import UsageLedger

log = get_logger(__name__)

# Retries wait 30 s, 1 min, 2 min, … up to this.
MAX_BACKOFF = timedelta(minutes=30)


def config_of(stored: dict[str, Any] | None, default_language: str) -> RepoConfig:
    """The config in force for a repository (the stored one was validated when saved)."""
    if stored is None:
        return default_config(default_language)
    return RepoConfig.model_validate(stored)


def details_of(commit: CommitInput) -> dict[str, Any]:
    """What is kept of a fetched commit: enough for the rules to run later, no patches."""
    return {
        "files": [f.model_dump(exclude={"patch"}) for f in commit.files],
        "pull_request": commit.pull_request.model_dump() if commit.pull_request else None,
    }


def commit_from_details(sha: str, message: str, details: dict[str, Any] | None) -> CommitInput:
    """A commit for the analysers from the stored row (details may not be fetched yet)."""
    if not details:
        return CommitInput(sha=sha, message=message, files_known=False)
    pr = details.get("pull_request")
    return CommitInput(
        sha=sha,
        message=message,
        files=[FileChange.model_validate(f) for f in details.get("files") or []],
        pull_request=PullRequestInfo.model_validate(pr) if pr else None,
    )


class Worker(BackgroundService):
    name = "worker"

    def __init__(
        self,
        store: Store,
        github: GitHubApp,
        analyzer: Analyzer,
        *,
        clock: Clock,
        settings: Settings,
        metrics: Metrics,
        repo_views: RepoViews,
    ) -> None:
        super().__init__()
        self._store = store
        self._github = github
        self._analyzer = analyzer
        self._governor = Governor(
            UsageLedger(store.engine), analyzer, settings=settings, metrics=metrics, clock=clock
        )
        self._clock = clock
        self._settings = settings
        self._metrics = metrics
        self._views = repo_views
        self._lease = timedelta(seconds=settings.worker_lease_seconds)
        self._slots = asyncio.Semaphore(settings.worker_concurrency)
        self._wakeup = asyncio.Event()
        # Claimed and not yet completed: given back if the process stops.
        self._held: dict[tuple[int, str], ClaimedCommit] = {}
        # The round's commits and pull requests fetched together (see bot/prefetch.py).
        self._prefetched = Prefetched()
        self._etags = ConfigETags(store.engine)

    async def stop(self) -> None:
        """Cancel the loop, then give back what it held so another replica takes it now."""
        await super().stop()
        if self._held:
            held = list(self._held.values())
            self._held.clear()
            try:
                await self._store.queue.release(held)
                log.info("worker_released_commits", count=len(held))
            except Exception as exc:  # the store is going away too: their leases will expire
                log.warning("worker_release_failed", error=repr(exc))

    def wake(self) -> None:
        """New work was stored: start a round now instead of at the next poll."""
        self._wakeup.set()

    async def run(self) -> None:
        while True:
            try:
                busy = await self.run_once()
            except Exception:
                # A round that fails (the database gone) must not end the worker.
                log.exception("worker_round_failed")
                busy = 0
            if not busy:
                try:
                    async with asyncio.timeout(self._settings.worker_poll_seconds):
                        await self._wakeup.wait()
                except TimeoutError:
                    pass
                self._wakeup.clear()

    async def run_once(self) -> int:
        """One round; returns how many items it handled (0: nothing to do)."""
        handled = await self.refresh_configs()
        handled += await self.expand_ranges()
        window = timedelta(seconds=self._settings.worker_batch_seconds)
        if window and not await batch_ready(self._store.engine, self._clock.now(), window):
            return handled
        claims = await self._store.queue.claim_commits(
            self._clock.now(),
            limit=self._settings.worker_concurrency * 2,
            lease=self._lease,
            max_attempts=self._settings.worker_max_attempts,
        )
        self._held.update({(c.repo_id, c.sha): c for c in claims})
        self._prefetched = await prefetch(
            claims,
            engine=self._store.engine,
            client_for=lambda c: self._client(c.installation_id, c.full_name, c.repo_id),
        )
        await asyncio.gather(*(self._bounded(claim) for claim in claims))
        return handled + len(claims)

    async def drain(self, *, rounds: int = 100) -> None:
        """Run rounds until there is nothing left to do now (tests and the offline commands)."""
        for _ in range(rounds):
            if not await self.run_once():
                return

    async def _client(
        self, installation_id: int | None, full_name: str, repo_id: int
    ) -> InstallationClient:
        if installation_id is None:
            # A push without `installation` (a repository hook, not the App's): ask once with
            # the App's JWT, and remember it for the repository's later work.
            installation_id = await self._github.installation_for(full_name)
            await self._store.repos.set_installation(repo_id, installation_id)
        return self._github.installation(installation_id)

    # --- configs -------------------------------------------------------------------------

    async def refresh_configs(self, limit: int = 10) -> int:
        repos = await self._store.repos.stale_configs(limit)
        for repo in repos:
            with bound_contextvars(repo=repo.full_name):
                await self._refresh_config(repo)
        return len(repos)

    async def _refresh_config(self, repo: RepoRow) -> None:
        repos = self._store.repos
        try:
            client = await self._client(repo.installation_id, repo.full_name, repo.id)
            # Pushes carry the default branch; ask GitHub only when no push has told it yet.
            branch = (
                repo.default_branch or (await client.get_repository(repo.full_name)).default_branch
            )
            # Conditional when the ETag names the blob in force: a 304 costs no rate limit.
            known = await self._etags.get(repo.id)
            check = await get_file_if_changed(
                client,
                repo.full_name,
                CONFIG_PATH,
                ref=branch,
                etag=known.etag if known and known.sha == repo.config_sha else None,
            )
            content = check.content
            if not check.unchanged:
                await self._etags.save(repo.id, check.etag, content.sha if content else None)
        except (RepositoryGone, NotInstalled) as exc:
            log.info("repo_config_unreachable", error=str(exc))
            await repos.config_unchanged(repo.id, default_branch=None)
            return
        except (GitHubError, RateLimited, aiohttp.ClientError) as exc:
            log.warning("repo_config_fetch_failed", error=str(exc))
            return  # still stale: the next round tries again

        if check.unchanged or (content is not None and content.sha == repo.config_sha):
            await repos.config_unchanged(repo.id, default_branch=branch)
            return
        try:
            config = (
                parse_config(content.text, default_language=self._settings.default_language)
                if content is not None
                else None
            )
        except ConfigError as exc:
            assert content is not None
            if await repos.save_config_error(
                repo.id, error=str(exc), sha=content.sha, default_branch=branch
            ):
                log.warning("repo_config_invalid", error=str(exc))
            return
        moved = await repos.save_config(
            repo.id,
            config=config,
            sha=content.sha if content else None,
            default_branch=branch,
            now=self._clock.now(),
        )
        self._views.invalidate(repo.id)
        log.info("repo_config_loaded", present=config is not None, days_moved=moved)

    # --- push ranges ---------------------------------------------------------------------

    async def expand_ranges(self, limit: int = 2) -> int:
        claims = await self._store.queue.claim_ranges(
            self._clock.now(), limit=limit, lease=self._lease
        )
        for claim in claims:
            with bound_contextvars(repo=claim.full_name, delivery_id=claim.delivery_id):
                await self._expand(claim)
        return len(claims)

    async def _expand(self, claim: ClaimedRange) -> None:
        queue = self._store.queue
        base = claim.before or claim.default_branch
        if base is None:
            await queue.release_range(
                claim, "no base to compare with", not_before=None, give_up=True
            )
            return
        try:
            client = await self._client(claim.installation_id, claim.full_name, claim.repo_id)
            comparison = await client.compare(
                claim.full_name, base, claim.after, limit=self._settings.max_range_commits
            )
        except (RepositoryGone, NotInstalled) as exc:
            await queue.release_range(claim, str(exc), not_before=None, give_up=True)
            return
        except RateLimited as exc:
            await queue.release_range(claim, str(exc), not_before=exc.until, give_up=False)
            return
        except (GitHubError, aiohttp.ClientError) as exc:
            give_up = claim.attempts >= self._settings.worker_max_attempts
            await queue.release_range(
                claim, str(exc), not_before=self._retry_at(claim.attempts), give_up=give_up
            )
            return
        config = config_of(claim.config, self._settings.default_language)
        commits = [_range_commit(raw, i) for i, raw in enumerate(comparison.commits)]
        new = await queue.complete_range(
            claim,
            commits,
            day=config.schedule.day_of(claim.pushed_at),
            truncated=comparison.truncated,
            now=self._clock.now(),
        )
        log.info("range_expanded", commits=len(commits), new=new, truncated=comparison.truncated)

    # --- commits -------------------------------------------------------------------------

    def _retry_at(self, attempts: int) -> Any:
        delay = min(MAX_BACKOFF, timedelta(seconds=30) * 2 ** max(0, attempts - 1))
        return self._clock.now() + delay

    async def _bounded(self, claim: ClaimedCommit) -> None:
        async with self._slots:
            with bound_contextvars(repo=claim.full_name, sha=claim.sha):
                try:
                    await self._process(claim)
                except Exception as exc:
                    log.exception("commit_processing_crashed")
                    await self._store.queue.retry(
                        claim,
                        f"internal error: {type(exc).__name__}",
                        self._retry_at(claim.attempts),
                    )
                self._held.pop((claim.repo_id, claim.sha), None)

    async def _process(self, claim: ClaimedCommit) -> None:
        queue = self._store.queue
        config = config_of(claim.config, self._settings.default_language)
        try:
            commit = await self._fetch(claim)
        except (RepositoryGone, NotInstalled) as exc:
            # The App lost access: nothing to retry, nothing to shout about.
            log.info("commit_unreachable", error=str(exc))
            await queue.fail(claim, f"repository not accessible: {exc}")
            return
        except RateLimited as exc:
            await queue.defer(claim, str(exc), exc.until)
            return
        except (GitHubError, aiohttp.ClientError) as exc:
            log.warning("commit_fetch_failed", error=str(exc), attempt=claim.attempts)
            await queue.retry(claim, str(exc), self._retry_at(claim.attempts))
            return

        excluded = config.exclude.reason(
            author=claim.author_name,
            login=claim.author_login,
            message=commit.message,
            paths=[f.filename for f in commit.files],
        )
        result: AnalysisResult = await self._governor.analyze(
            commit,
            repo_id=claim.repo_id,
            installation_id=claim.installation_id,
            config=config,
            excluded=excluded,
        )
        if not await queue.complete(claim, result, self._clock.now()):
            log.warning("commit_lease_lost")
            return
        log.info(
            "commit_analyzed",
            analyzer=result.analysis.analyzer,
            importance=result.analysis.importance.value,
            fallback=result.fallback_reason,
            route=result.route,
        )

    async def _fetch(self, claim: ClaimedCommit) -> CommitInput:
        client = await self._client(claim.installation_id, claim.full_name, claim.repo_id)
        key = (claim.repo_id, claim.sha)
        try:
            raw = self._prefetched.commits.pop(key, None) or await client.get_commit(
                claim.full_name, claim.sha
            )
        except CommitMissing as exc:
            # Force-pushed away: the push's own message is all there is; analyse that.
            log.info("commit_missing", error=str(exc))
            return CommitInput(
                sha=claim.sha, message=claim.message, repo=claim.full_name, files_known=False
            )
        try:
            pr = self._prefetched.pulls.pop(key, None) or await client.pull_request_for(
                claim.full_name, claim.sha, number=claim.pr_number
            )
        except RateLimited:
            raise
        except GitHubError as exc:
            # The PR adds context; the commit stands without it.
            log.info("pull_request_unavailable", error=str(exc))
            pr = None
        commit = CommitInput.from_github(raw, repo=claim.full_name, pull_request=pr)
        await self._store.queue.save_details(claim, details_of(commit))
        return commit


def _range_commit(raw: dict[str, Any], position: int) -> NewCommit:
    inner = raw.get("commit") or {}
    message = str(inner.get("message") or "")
    title = message.split("\n", 1)[0].strip()
    author = inner.get("author") or {}
    account = raw.get("author") or {}
    return NewCommit(
        sha=str(raw["sha"]),
        position=position,
        title=title[:1000],
        message=message[:65_536],
        author_name=str(author.get("name") or account.get("login") or "")[:255],
        author_login=account.get("login"),
        author_email=author.get("email"),
        url=str(raw.get("html_url") or ""),
        pr_number=pr_number(title),
    )
