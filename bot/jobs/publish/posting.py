"""A posting job's run: its attempt made again where an issue or a post it used is gone, and
GitHub's trouble read as a job outcome."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from structlog.contextvars import bound_contextvars

from bot.github.errors import IssueGone, PostGone
from bot.jobs.context import POSTING_TROUBLE, JobContext
from bot.jobs.outcomes import Defer, Done, Outcome, RetryPolicy
from bot.posts.places import GoneIssues, Unsettled
from bot.posts.poster import Poster
from bot.runtime.logs import get_logger
from bot.store.jobs import Job
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)

# A run may find gone the issue a day's first post went to, the configured issue and the
# tracking issue; more is someone deleting issues as they are made: the job tries again later.
MAX_GONE_PER_RUN = 3


def poster(ctx: JobContext, job: Job[Any], repo: RepoRow, gone: GoneIssues | None = None) -> Poster:
    """The run's poster for `repo` (its GitHub client made when first needed)."""
    return Poster(
        ctx.store,
        ctx.clock,
        job,
        repo_id=repo.id,
        full_name=repo.full_name,
        client=lambda: ctx.client(job, repo.installation_id, repo.full_name, repo.id),
        gone=gone,
    )


async def posting(
    ctx: JobContext,
    job: Job[Any],
    attempt: Callable[[RepoRow, Poster], Awaitable[Outcome]],
    *,
    retry: RetryPolicy,
    **context: str,
) -> Outcome:
    """A posting job's run for its payload's repository (none when that is gone), logged with
    `context`: `attempt` with a fresh poster, made again where an issue it posted on is gone,
    and GitHub's trouble read as `JobContext.posting_outcome` says for the kind's `retry`."""
    repo = await ctx.store.repos.get(job.payload.repo_id)
    if repo is None:
        return Done()
    configured = config_of(repo.config, ctx.settings.default_language).publish.issue
    with bound_contextvars(repo=repo.full_name, **context):
        try:
            return await _recover_gone_issues(ctx, job, repo, attempt, configured=configured)
        except Unsettled as exc:
            return Defer(str(exc), exc.until)
        except POSTING_TROUBLE as exc:
            return ctx.posting_outcome(exc, job=job, retry=retry)


async def _recover_gone_issues(
    ctx: JobContext,
    job: Job[Any],
    repo: RepoRow,
    attempt: Callable[[RepoRow, Poster], Awaitable[Outcome]],
    *,
    configured: int | None,
) -> Outcome:
    """Runs `attempt`, and again when an issue it posted on is gone (deleted, or a configured
    number with no issue): that issue's posts are forgotten first (they went with it), so
    the next pass makes the tracking issue again or uses it instead of the configured one.
    A deleted discussion is forgotten the same way, and made again where still wanted.
    Issues turned off, or the repository gone, are the caller's to handle."""
    gone = GoneIssues()
    posts_gone: set[str] = set()
    while True:
        try:
            return await attempt(repo, poster(ctx, job, repo, gone))
        except PostGone as exc:
            # A deleted discussion (or comment) the run meant to add to or edit: it is
            # forgotten with its comments, and the next pass makes what is still wanted again.
            if exc.node_id in posts_gone or len(posts_gone) >= MAX_GONE_PER_RUN:
                raise
            async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
                forgotten = await ctx.store.posts.forget_post(conn, repo.id, exc.node_id)
            posts_gone.add(exc.node_id)
            log.warning("post_gone", node_id=exc.node_id, posts_forgotten=forgotten)
        except IssueGone as exc:
            number = exc.issue
            if (
                exc.disabled
                or number is None
                or number in gone.numbers
                or len(gone.numbers) >= MAX_GONE_PER_RUN
            ):
                raise
            async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
                own, forgotten = await ctx.store.posts.forget_issue(conn, repo.id, number)
            gone.numbers.add(number)
            if own:
                event = "tracking_issue_gone"
            elif number == configured:
                event = "configured_issue_gone"
            else:
                event = "issue_gone"
            log.warning(event, issue=number, posts_forgotten=forgotten)
