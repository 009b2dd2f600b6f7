"""`expand_range`: list, through the compare API, the commits of a push whose payload did
not list them all, and store them (each with its own `analyse_commit` job)."""

from __future__ import annotations

import aiohttp
from structlog.contextvars import bound_contextvars

from bot.github.errors import GitHubError, NotInstalled, RateLimited, RepositoryGone
from bot.jobs.context import JobContext
from bot.jobs.outcomes import Defer, Done, Fail, Outcome, Retry, RetryPolicy
from bot.runtime.logs import get_logger
from bot.store.commits import RangeWork
from bot.store.job_payloads import ExpandRangePayload
from bot.store.jobs import Job
from bot.store.records import NewCommit

log = get_logger(__name__)


class ExpandRange:
    kind = ExpandRangePayload.kind

    def __init__(self, ctx: JobContext) -> None:
        self._ctx = ctx
        self.retry = RetryPolicy(ctx.settings.worker_max_attempts)

    async def run(self, job: Job[ExpandRangePayload]) -> Outcome:
        work = await self._ctx.store.commits.range_for_expansion(job.payload.delivery_id)
        if work is None or work.state != "pending":
            return Done()
        with bound_contextvars(repo=work.full_name, delivery_id=work.delivery_id):
            return await self._expand(job, work)

    async def _expand(self, job: Job[ExpandRangePayload], work: RangeWork) -> Outcome:
        ctx = self._ctx
        base = work.before or work.default_branch
        if base is None:
            return Fail("no base to compare with")
        try:
            client = await ctx.client(job, work.installation_id, work.full_name, work.repo_id)
            comparison = await client.compare(
                work.full_name, base, work.after, limit=ctx.settings.max_range_commits
            )
        except (RepositoryGone, NotInstalled) as exc:
            return Fail(str(exc))
        except RateLimited as exc:
            return Defer(str(exc), exc.until)
        except (GitHubError, aiohttp.ClientError) as exc:
            return Retry(str(exc))
        commits = [_range_commit(raw, i) for i, raw in enumerate(comparison.commits)]
        async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
            new = await ctx.store.commits.complete_range(
                conn, work, commits, total=comparison.total, now=ctx.clock.now()
            )
        log.info("range_expanded", commits=len(commits), new=new, total=comparison.total)
        return Done()

    async def given_up(self, job: Job[ExpandRangePayload], reason: str) -> None:
        async with self._ctx.store.writer().begin() as conn:
            await self._ctx.store.commits.fail_range(conn, job.payload.delivery_id, reason)


def _range_commit(raw: dict[str, object], position: int) -> NewCommit:
    inner = raw.get("commit") or {}
    assert isinstance(inner, dict)
    author = inner.get("author") or {}
    account = raw.get("author") or {}
    assert isinstance(author, dict) and isinstance(account, dict)
    return NewCommit.build(
        sha=str(raw["sha"]),
        position=position,
        message=str(inner.get("message") or ""),
        author_name=author.get("name"),
        author_login=account.get("login"),
        author_email=author.get("email"),
        url=str(raw.get("html_url") or ""),
    )
