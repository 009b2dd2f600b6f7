"""`analyse_commit`: fetch a landed commit with its pull request, analyse it, store both."""

from __future__ import annotations

import time
from typing import Any

import aiohttp
from structlog.contextvars import bound_contextvars

from bot.analysis import AnalysisResult, Analyzer, RulesAnalyzer
from bot.github.calls import CommitMissing
from bot.github.errors import GitHubError, NotInstalled, RateLimited, RepositoryGone
from bot.jobs.context import JobContext
from bot.jobs.kinds import Defer, Done, Fail, Job, JobKind, Outcome, Retry
from bot.logs import get_logger
from bot.models import CommitInput
from bot.store.commits import CommitState, CommitWork, details_of
from bot.store.repos import config_of

log = get_logger(__name__)


class AnalyseCommit:
    kind = JobKind.ANALYSE_COMMIT

    def __init__(self, ctx: JobContext, analyzer: Analyzer) -> None:
        self._ctx = ctx
        self._analyzer = analyzer
        self._rules = RulesAnalyzer()
        self.max_attempts = ctx.settings.worker_max_attempts

    async def run(self, job: Job) -> Outcome:
        store = self._ctx.store
        work = await store.commits.for_analysis(int(job.payload["repo_id"]), job.payload["sha"])
        if work is None or work.state != CommitState.PENDING:
            return Done()  # deleted with its repository, or settled at the cutoff
        with bound_contextvars(repo=work.full_name, sha=work.sha):
            return await self._analyse(job, work)

    async def _analyse(self, job: Job, work: CommitWork) -> Outcome:
        ctx = self._ctx
        config = config_of(work.config, ctx.settings.default_language)
        try:
            commit = await self._fetch(job, work)
        except (RepositoryGone, NotInstalled) as exc:
            # The App lost access: nothing to retry, nothing to shout about.
            log.info("commit_unreachable", error=str(exc))
            return Fail(f"repository not accessible: {exc}")
        except RateLimited as exc:
            return Defer(str(exc), exc.until)
        except (GitHubError, aiohttp.ClientError) as exc:
            log.warning("commit_fetch_failed", error=str(exc), attempt=job.attempts)
            async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
                await ctx.store.commits.note_error(conn, work.repo_id, work.sha, str(exc))
            return Retry(str(exc))

        excluded = config.exclude.reason(
            author=work.author_name,
            login=work.author_login,
            message=commit.message,
            paths=[f.filename for f in commit.files],
        )
        # Excluded commits are left out of the digest; the cheap rules keep a record anyway.
        analyzer = self._rules if excluded else self._analyzer
        details = details_of(commit) if commit.files_known else None
        started = time.perf_counter()
        try:
            result: AnalysisResult = await analyzer.analyze(commit, language=config.language)
        except Exception:
            # Keep what was fetched: the rules analyse a failed commit from it at the cutoff.
            if details is not None:
                await self._save_details(job, work, details)
            raise
        if analyzer.name == "rules":  # the LLM analyser times its own calls
            ctx.metrics.analysis_seconds.labels(analyzer="rules").observe(
                time.perf_counter() - started
            )
        # One transaction: the details, the analysis, and the job done.
        async with ctx.store.jobs.holding(job, ctx.clock.now(), finish=True) as conn:
            if details is not None:
                await ctx.store.commits.save_details(conn, work.repo_id, work.sha, details)
            stored = await ctx.store.commits.complete(
                conn, work.repo_id, work.sha, result, ctx.clock.now()
            )
        if stored:
            log.info(
                "commit_analyzed",
                analyzer=result.analysis.analyzer,
                importance=result.analysis.importance.value,
                fallback=result.fallback_reason,
                excluded=excluded,
            )
        return Done(recorded=True)

    async def _save_details(self, job: Job, work: CommitWork, details: dict[str, Any]) -> None:
        ctx = self._ctx
        async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
            await ctx.store.commits.save_details(conn, work.repo_id, work.sha, details)

    async def _fetch(self, job: Job, work: CommitWork) -> CommitInput:
        ctx = self._ctx
        client = await ctx.client(job, work.installation_id, work.full_name, work.repo_id)
        try:
            raw = await client.get_commit(work.full_name, work.sha)
        except CommitMissing as exc:
            # Force-pushed away: the push's own message is all there is; analyse that.
            log.info("commit_missing", error=str(exc))
            return CommitInput(
                sha=work.sha, message=work.message, repo=work.full_name, files_known=False
            )
        try:
            pr = await client.pull_request_for(work.full_name, work.sha, number=work.pr_number)
        except RateLimited:
            raise
        except GitHubError as exc:
            # The PR adds context; the commit stands without it.
            log.info("pull_request_unavailable", error=str(exc))
            pr = None
        return CommitInput.from_github(raw, repo=work.full_name, pull_request=pr)

    async def given_up(self, job: Job, reason: str) -> None:
        """The digest lists it, analysed by the rules from its stored message."""
        async with self._ctx.store.writer().begin() as conn:
            await self._ctx.store.commits.fail(
                conn, int(job.payload["repo_id"]), job.payload["sha"], reason
            )
