"""`analyse_commit`: fetch a landed commit with its pull request, analyse it, store both."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import aiohttp
from structlog.contextvars import bound_contextvars

from bot.analysis import AnalysisResult, Analyzer
from bot.analysis.daynames import day_names
from bot.analysis.facts.kept import units_kept
from bot.analysis.sources import blob_cache
from bot.analysis.titles import names_a_revert
from bot.github.calls import CommitMissing, InstallationClient
from bot.github.errors import GitHubError, NotInstalled, RateLimited, RepositoryGone
from bot.jobs.alert_jobs import after_analysis
from bot.jobs.analyse.batching import batch_ready
from bot.jobs.analyse.governor import Governor
from bot.jobs.analyse.prefetch import Prefetched, prefetch
from bot.jobs.analyse.texts import with_pull_request
from bot.jobs.context import JobContext
from bot.jobs.outcomes import Defer, Done, Fail, Outcome, Retry, RetryPolicy
from bot.models import CommitInput
from bot.runtime.logs import get_logger
from bot.store.commits import CommitState, CommitWork, details_of
from bot.store.job_payloads import AnalyseCommitPayload
from bot.store.jobs import Job
from bot.store.ratings import Ratings
from bot.store.usage import UsageLedger

log = get_logger(__name__)


class AnalyseCommit:
    kind = AnalyseCommitPayload.kind

    def __init__(self, ctx: JobContext, analyzer: Analyzer) -> None:
        self._ctx = ctx
        self._governor = Governor(
            UsageLedger(ctx.store.engine),
            analyzer,
            settings=ctx.settings,
            metrics=ctx.metrics,
            clock=ctx.clock,
        )
        self.retry = RetryPolicy(ctx.settings.worker_max_attempts)
        # The round's commits and pull requests fetched together (see prefetch.py).
        self._prefetched = Prefetched()
        # Files' texts by revision, so neither a round nor the next commit asks twice for one.
        self._blobs = blob_cache()

    @property
    def governor(self) -> Governor:
        """The LLM cost governor, shared with `/digest explain`."""
        return self._governor

    async def ready(self, now: datetime) -> bool:
        """The batching window (WORKER_BATCH_SECONDS): due analyses wait until one has waited
        the window out or its day ends within it, then all are claimed together."""
        window = timedelta(seconds=self._ctx.settings.worker_batch_seconds)
        return not window or await batch_ready(self._ctx.store.engine, now, window)

    async def prepare(self, jobs: Sequence[Job[AnalyseCommitPayload]]) -> None:
        """Fetch the round's commits and pull requests together where GitHub allows it."""
        store, language = self._ctx.store, self._ctx.settings.default_language
        works = []
        for job in jobs:
            work = await store.commits.for_analysis(job.payload.repo_id, job.payload.sha, language)
            if work is not None and work.state == CommitState.PENDING:
                works.append(work)
        by_key = {(job.payload.repo_id, job.payload.sha): job for job in jobs}

        async def client_for(work: CommitWork) -> InstallationClient:
            job = by_key[(work.repo_id, work.sha)]
            return await self._ctx.client(job, work.installation_id, work.full_name, work.repo_id)

        self._prefetched = await prefetch(
            works, engine=store.engine, client_for=client_for, blobs=self._blobs
        )

    async def run(self, job: Job[AnalyseCommitPayload]) -> Outcome:
        store, language = self._ctx.store, self._ctx.settings.default_language
        work = await store.commits.for_analysis(job.payload.repo_id, job.payload.sha, language)
        if work is None or work.state != CommitState.PENDING:
            return Done()  # deleted with its repository, or settled at the cutoff
        with bound_contextvars(repo=work.full_name, sha=work.sha):
            return await self._analyse(job, work)

    async def _analyse(self, job: Job[AnalyseCommitPayload], work: CommitWork) -> Outcome:
        ctx = self._ctx
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

        config = work.config
        excluded = config.exclude.reason(
            author=work.author_name,
            login=work.author_login,
            message=commit.message,
            paths=[f.filename for f in commit.files],
        )
        reverts = names_a_revert(work.title, commit.message)
        details = details_of(commit) if commit.files_known else None
        try:
            # The governor picks rules, reuse or the LLM within the day's caps; excluded
            # commits are left out of the digest, and the cheap rules keep a record anyway.
            # (the names read again from the texts the analyser parsed, kept for the block)
            with units_kept():
                result: AnalysisResult = await self._governor.analyze(
                    commit,
                    repo_id=work.repo_id,
                    installation_id=work.installation_id,
                    config=config,
                    excluded=excluded,
                    day=config.schedule.window(config.schedule.day_of(work.landed_at)),
                )
                if details is not None:
                    # what the day's digest reads beside the day's other commits
                    details["names"] = day_names(commit, result.analysis).stored()
        except Exception:
            # Keep what was fetched: the rules analyse a failed commit from it at the cutoff.
            if details is not None:
                async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
                    await ctx.store.commits.save_details(conn, work.repo_id, work.sha, details)
            raise
        # One transaction: the details, the analysis, the alerts it asks for, the job done.
        now = ctx.clock.now()
        async with ctx.store.jobs.holding(job, now, finish=True) as conn:
            if details is not None:
                await ctx.store.commits.save_details(conn, work.repo_id, work.sha, details)
            stored = await ctx.store.commits.complete(conn, work.repo_id, work.sha, result, now)
            if stored:
                # A maintainer's rate made before the analysis decides its alert, as it would
                # have made after (`/digest rate`): the alert shows the commit as rated.
                rated = await Ratings.importance_in(conn, work.repo_id, work.sha)
                await after_analysis(
                    conn,
                    work.repo_id,
                    work.sha,
                    result.analysis.as_rated(rated),
                    config,
                    excluded=excluded,
                    reverts=reverts,
                    landed_at=work.landed_at,
                    now=now,
                )
        if stored:
            log.info(
                "commit_analyzed",
                analyzer=result.analysis.analyzer,
                importance=result.analysis.importance.value,
                fallback=result.fallback_reason,
                route=result.route,
            )
        return Done(recorded=True)

    async def _fetch(self, job: Job[AnalyseCommitPayload], work: CommitWork) -> CommitInput:
        ctx = self._ctx
        client = await ctx.client(job, work.installation_id, work.full_name, work.repo_id)
        key = (work.repo_id, work.sha)
        try:
            raw = self._prefetched.commits.pop(key, None) or await client.get_commit(
                work.full_name, work.sha
            )
        except CommitMissing as exc:
            # Force-pushed away: the push's own message is all there is; analyse that.
            log.info("commit_missing", error=str(exc))
            return CommitInput(
                sha=work.sha, message=work.message, repo=work.full_name, files_known=False
            )
        pr = self._prefetched.pulls.pop(key, None) or await with_pull_request(
            client, work.full_name, work.sha, raw, number=work.pr_number, blobs=self._blobs
        )
        return CommitInput.from_github(raw, repo=work.full_name, pull_request=pr)

    async def given_up(self, job: Job[AnalyseCommitPayload], reason: str) -> None:
        """The digest lists it, analysed by the rules from its stored message."""
        async with self._ctx.store.writer().begin() as conn:
            await self._ctx.store.commits.fail(conn, job.payload.repo_id, job.payload.sha, reason)
