"""`refresh_config`: read a repository's `.github/commit-digest.yml` and put it in force.

A file that cannot be read or parsed (invalid YAML, not UTF-8, nested too deep) is recorded
as the repository's config error and the last good config stays; nothing here can stop
other repositories' work, and a refused fetch backs off instead of spinning.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from structlog.contextvars import bound_contextvars

from bot.github.calls import InstallationClient
from bot.github.conditional import get_file_if_changed
from bot.github.errors import GitHubError, NotInstalled, RateLimited, RepositoryGone
from bot.jobs.context import JobContext
from bot.jobs.outcomes import Defer, Done, Outcome, Retry, RetryPolicy
from bot.jobs.publish.week import never_due
from bot.periods.period import Period
from bot.repo_config import (
    BASE,
    CONFIG_PATH,
    EXTENDS,
    FILE,
    ConfigError,
    ConfigOrigin,
    RepoConfig,
    base_repo,
    build_config,
    default_config,
    read_mapping,
)
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


@dataclass(frozen=True)
class _Found:
    """The config the files give (None: no file anywhere, the defaults), with the
    repository file's blob, where each value came from and the base file's blob and ETag."""

    config: RepoConfig | None
    sha: str | None
    origin: ConfigOrigin | None
    base_sha: str | None = None
    base_etag: str | None = None


class _Rejected(Exception):
    """A file is not a valid config: the error to record and the repository file's blob."""

    def __init__(self, error: str, sha: str | None) -> None:
        super().__init__(error)
        self.error = error
        self.sha = sha


def _message(exc: Exception) -> str:
    return str(exc) if isinstance(exc, ConfigError) else f"{CONFIG_PATH}: nested too deeply"


async def _off_loop(read: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`read(*args, **kwargs)` in a thread, so webhooks and heartbeats go on meanwhile, and
    refused past PARSE_SECONDS."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(read, *args, **kwargs), PARSE_SECONDS)
    except TimeoutError:
        # The thread cannot be stopped, but the YAML bounds keep it short; the job goes on.
        raise ConfigError(
            f"{CONFIG_PATH}: took over {PARSE_SECONDS:g} s to read, so it is refused"
        ) from None


def _prefixed(base: str | None, read: Callable[[str], dict[Any, Any]], text: str) -> dict[Any, Any]:
    """The base file's mapping; its error says which repository's file it is."""
    try:
        return read(text)
    except ConfigError as exc:
        raise ConfigError(f"{base}: {exc}") from None


class RefreshConfig:
    kind = RefreshConfigPayload.kind

    def __init__(self, ctx: JobContext, views: RepoViews) -> None:
        self._ctx = ctx
        self._views = views
        self._etags = ConfigETags(ctx.store.engine)
        self.retry = RetryPolicy(ctx.settings.worker_max_attempts)

    async def run(self, job: Job[RefreshConfigPayload]) -> Outcome:
        repo = await self._ctx.store.repos.get(job.payload.repo_id)
        if repo is None:
            return Done()
        with bound_contextvars(repo=repo.full_name):
            return await self._refresh(job, repo)

    async def _refresh(self, job: Job[RefreshConfigPayload], repo: RepoRow) -> Outcome:
        ctx = self._ctx
        repos = ctx.store.repos
        branch = repo.default_branch
        try:
            client = await ctx.client(job, repo.installation_id, repo.full_name, repo.id)
            # Pushes carry the default branch; ask GitHub only when no push has told it yet.
            branch = (
                repo.default_branch or (await client.get_repository(repo.full_name)).default_branch
            )
            found = await self._read(client, repo, branch)
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
        except _Rejected as exc:
            return await self._invalid(job, repo, exc.error, exc.sha, branch)

        if found is None:
            async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
                await repos.config_unchanged(conn, repo.id, default_branch=branch)
            return Done()
        now = ctx.clock.now()
        before = config_of(repo.config, ctx.settings.default_language)
        after = found.config or default_config(ctx.settings.default_language)
        passed = never_due(before, after, now)
        if passed is not None and passed.end <= repo.active_since:
            passed = None  # over before the App saw the repository: never posted anyway
        async with ctx.store.jobs.holding(job, now) as conn:
            if passed is not None:
                await ctx.store.digests.pass_over(conn, repo.id, Period.week(passed.first), now)
            moved = await repos.save_config(
                conn,
                repo.id,
                config=found.config,
                sha=found.sha,
                default_branch=branch,
                now=ctx.clock.now(),
                origin=found.origin,
                base_sha=found.base_sha,
                base_etag=found.base_etag,
            )
        self._views.invalidate(repo.id)
        log.info(
            "repo_config_loaded",
            present=found.config is not None,
            base=found.origin.base if found.origin else None,
            ignored=len(found.origin.ignored) if found.origin else 0,
            schedule_changed=moved,
            week_passed_over=passed.first.isoformat() if passed else None,
        )
        return Done()

    async def _read(self, client: InstallationClient, repo: RepoRow, branch: str) -> _Found | None:
        """The config the files give now, or None when neither file changed since it was
        put in force. _Rejected when one of them is not a valid config."""
        # Conditional when the ETag names the blob in force: a 304 costs no rate limit.
        known = await self._etags.get(repo.id)
        own = await get_file_if_changed(
            client,
            repo.full_name,
            CONFIG_PATH,
            ref=branch,
            etag=known.etag if known and known.sha == repo.config_sha else None,
        )
        base_check = None
        in_force_base = repo.config_origin.base if repo.config_origin else None
        if own.unchanged:
            in_force = in_force_base
            if in_force is None:
                return None
            # The repository's file is the same; its base may not be (an org-wide change).
            base_check = await get_file_if_changed(
                client, in_force, CONFIG_PATH, ref=None, etag=repo.config_base_etag
            )
            if base_check.unchanged:
                return None
            own = await get_file_if_changed(
                client, repo.full_name, CONFIG_PATH, ref=branch, etag=None
            )
        await self._etags.save(repo.id, own.etag, own.content.sha if own.content else None)
        content = own.content
        sha = content.sha if content else None
        try:
            mapping = await _off_loop(read_mapping, content.text) if content is not None else None
            base_name = base_repo(repo.full_name, mapping)
        except (ConfigError, RecursionError) as exc:
            raise _Rejected(_message(exc), sha) from None
        base = base_check if base_check and base_check.content else None
        if base_name is not None and (base is None or in_force_base != base_name):
            same = in_force_base == base_name
            base = await get_file_if_changed(
                client,
                base_name,
                CONFIG_PATH,
                ref=None,
                etag=repo.config_base_etag if same else None,
            )
            if base.unchanged:
                if sha == repo.config_sha:
                    return None  # neither file changed (an org's file, read by its repositories)
                base = await get_file_if_changed(
                    client, base_name, CONFIG_PATH, ref=None, etag=None
                )
        base_content = base.content if base else None
        if base_name is not None and base_content is None and mapping is not None:
            # GitHub answers 404 alike for a missing file and a repository the installation
            # cannot read.
            raise _Rejected(
                f"{CONFIG_PATH}: `{EXTENDS}`: no {CONFIG_PATH} in {base_name} that the App can "
                f"read (is the App installed on {base_name}?)",
                sha,
            )
        base_sha = base_content.sha if base_content else None
        if sha == repo.config_sha and base_sha == repo.config_base_sha and (sha or base_sha):
            return None
        layers = []
        try:
            if base_content is not None:
                layers.append(
                    (BASE, await _off_loop(_prefixed, base_name, read_mapping, base_content.text))
                )
            if mapping is not None:
                layers.append((FILE, mapping))
            if not layers:
                return _Found(None, None, None)
            config, origin = await _off_loop(
                build_config,
                layers,
                default_language=self._ctx.settings.default_language,
                base=base_name if base_content is not None else None,
            )
        except (ConfigError, RecursionError) as exc:
            raise _Rejected(_message(exc), sha) from None
        return _Found(config, sha, origin, base_sha, base.etag if base and base_content else None)

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
