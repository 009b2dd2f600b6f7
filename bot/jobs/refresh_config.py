"""`refresh_config`: read a repository's `.github/commit-digest.yml` and put it in force.

A file that cannot be read or parsed (invalid YAML, not UTF-8, nested too deep) is recorded
as the repository's config error and the last good config stays; nothing here can stop
other repositories' work, and a refused fetch backs off instead of spinning.
"""

from __future__ import annotations

import asyncio

import aiohttp
from structlog.contextvars import bound_contextvars

from bot.github.conditional import get_file_if_changed
from bot.github.errors import GitHubError, NotInstalled, RateLimited, RepositoryGone
from bot.jobs.context import JobContext
from bot.jobs.outcomes import Defer, Done, Outcome, Retry
from bot.jobs.publish.week import never_due
from bot.periods.period import Period
from bot.repo_config import CONFIG_PATH, ConfigError, RepoConfig, default_config, parse_config
from bot.runtime.logs import get_logger
from bot.store.etags import ConfigETags
from bot.store.job_payloads import RefreshConfigPayload
from bot.store.jobs import Job
from bot.store.repos import RepoRow, config_of
from bot.web.handlers.context import RepoViews

log = get_logger(__name__)

# A file within the YAML bounds reads in milliseconds; its `exclude.messages` patterns are
# probed for backtracking for up to a second more.
PARSE_SECONDS = 5.0


class RefreshConfig:
    kind = RefreshConfigPayload.kind

    def __init__(self, ctx: JobContext, views: RepoViews) -> None:
        self._ctx = ctx
        self._views = views
        self._etags = ConfigETags(ctx.store.engine)
        self.max_attempts = ctx.settings.worker_max_attempts

    async def run(self, job: Job[RefreshConfigPayload]) -> Outcome:
        repo = await self._ctx.store.repos.get(job.payload.repo_id)
        if repo is None:
            return Done()
        with bound_contextvars(repo=repo.full_name):
            return await self._refresh(job, repo)

    async def _refresh(self, job: Job[RefreshConfigPayload], repo: RepoRow) -> Outcome:
        ctx = self._ctx
        repos = ctx.store.repos
        try:
            client = await ctx.client(job, repo.installation_id, repo.full_name, repo.id)
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
            return Done()
        except RateLimited as exc:
            return Defer(str(exc), exc.until)
        except (GitHubError, aiohttp.ClientError) as exc:
            log.warning("repo_config_fetch_failed", error=str(exc))
            return Retry(str(exc))
        except UnicodeDecodeError as exc:
            # A file that is not text (raised after the branch was known): as bad as invalid YAML.
            error = f"{CONFIG_PATH}: not UTF-8 text ({exc.reason} at byte {exc.start})"
            return await self._invalid(job, repo, error, None, branch)

        if check.unchanged or (content is not None and content.sha == repo.config_sha):
            async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
                await repos.config_unchanged(conn, repo.id, default_branch=branch)
            return Done()
        try:
            config = await self._parse(content.text) if content is not None else None
        except (ConfigError, RecursionError) as exc:
            assert content is not None
            message = (
                str(exc) if isinstance(exc, ConfigError) else f"{CONFIG_PATH}: nested too deeply"
            )
            return await self._invalid(job, repo, message, content.sha, branch)
        now = ctx.clock.now()
        before = config_of(repo.config, ctx.settings.default_language)
        after = config or default_config(ctx.settings.default_language)
        passed = never_due(before, after, now)
        if passed is not None and passed.end <= repo.active_since:
            passed = None  # over before the App saw the repository: never posted anyway
        async with ctx.store.jobs.holding(job, now) as conn:
            if passed is not None:
                await ctx.store.digests.pass_over(conn, repo.id, Period.week(passed.first), now)
            moved = await repos.save_config(
                conn,
                repo.id,
                config=config,
                sha=content.sha if content else None,
                default_branch=branch,
                now=ctx.clock.now(),
            )
        self._views.invalidate(repo.id)
        log.info(
            "repo_config_loaded",
            present=config is not None,
            schedule_changed=moved,
            week_passed_over=passed.first.isoformat() if passed else None,
        )
        return Done()

    async def _parse(self, text: str) -> RepoConfig:
        """The file's config, read in a thread so webhooks and heartbeats go on meanwhile."""
        language = self._ctx.settings.default_language
        try:
            return await asyncio.wait_for(
                asyncio.to_thread(parse_config, text, default_language=language),
                PARSE_SECONDS,
            )
        except TimeoutError:
            # The thread cannot be stopped, but the YAML bounds keep it short; the job goes on.
            raise ConfigError(
                f"{CONFIG_PATH}: took over {PARSE_SECONDS:g} s to read, so it is refused"
            ) from None

    async def _invalid(
        self,
        job: Job[RefreshConfigPayload],
        repo: RepoRow,
        error: str,
        sha: str | None,
        branch: str | None,
    ) -> Outcome:
        ctx = self._ctx
        async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
            new = await ctx.store.repos.save_config_error(
                conn, repo.id, error=error, sha=sha, default_branch=branch
            )
        if new:
            log.warning("repo_config_invalid", error=error)
        return Done()

    async def given_up(self, job: Job[RefreshConfigPayload], reason: str) -> None:
        """The last good config (or the defaults) stays in force; a later push retries."""
        log.warning("repo_config_given_up", reason=reason)
