"""Where a repository's posts go: the Discussion category asked for, or the tracking issue."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from bot.digest.markers import tracking_marker
from bot.github import InstallationClient
from bot.github.calls import Category, DiscussionSetup, Forbidden, GraphQLFailed
from bot.github.errors import IssueGone, PostGone
from bot.jobs.context import POSTING_TROUBLE, JobContext
from bot.jobs.outcomes import Defer, Outcome, RetryPolicy
from bot.posts import targets
from bot.posts.reconcile import Found, Wanted, body_hash
from bot.runtime.logs import get_logger
from bot.store.jobs import Job
from bot.store.posts import PostState, Recorded
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)

TRACKING_ISSUE_TITLE = "Commit digest"
# The tracking issue is the repository's, not any period's: its ledger rows live here.
TRACKING_PERIOD = "repository"


# A run may find gone the issue a day's first post went to, the configured issue and the
# tracking issue; more is someone deleting issues as they are made: the job tries again later.
MAX_GONE_PER_RUN = 3


# How long an unclear create that cannot be looked for (Discussions turned off, or the App's
# Discussions permission revoked) waits before it is taken for "not made". GitHub hides a
# repository's discussions while Discussions are off: a brief toggle would only delay the
# post, so the App waits for the place to come back rather than post twice; after this long a
# reader can see only the issue anyway, and the post goes where posts go now.
UNCLEAR_WAIT = timedelta(hours=6)
# While it waits, the job looks again this often at most (sooner while the wait is young).
UNCLEAR_STEP_MAX = timedelta(hours=1)
UNCLEAR_STEP_MIN = timedelta(minutes=2)


class FallBack(Exception):
    """Discussions cannot be used here; the reason is told to readers."""


class Unsettled(Exception):
    """An unclear create whose place cannot be looked at now: the job waits until `until`
    (spending no attempt), as GitHub may have made the post there."""

    def __init__(self, reason: str, until: datetime) -> None:
        super().__init__(reason)
        self.until = until


class GoneIssues:
    """The issues one run of a job found gone (each forgotten in the ledger already)."""

    def __init__(self) -> None:
        self.numbers: set[int] = set()

    def usable(self, configured: int | None) -> int | None:
        """The configured issue, unless it is gone (then: the tracking issue)."""
        return None if configured in self.numbers else configured

    def note(self, configured: int | None) -> str | None:
        """Why readers find the post on the tracking issue and not the configured one."""
        if configured is None or configured not in self.numbers:
            return None
        return (
            f"issue #{configured} (`publish.issue`) does not exist or was deleted, "
            "so this went to the App's tracking issue."
        )


def joined(*notes: str | None) -> str | None:
    return " ".join(n for n in notes if n) or None


async def posting(
    ctx: JobContext,
    job: Job[Any],
    repo: RepoRow,
    attempt: Callable[[GoneIssues], Awaitable[Outcome]],
    *,
    retry: RetryPolicy,
) -> Outcome:
    """A posting job's run: `attempt`, made again where an issue it posted on is gone, and
    GitHub's trouble read as `JobContext.posting_outcome` says for the kind's `retry`."""
    configured = config_of(repo.config, ctx.settings.default_language).publish.issue
    try:
        return await _recover_gone_issues(ctx, job, repo.id, attempt, configured=configured)
    except Unsettled as exc:
        return Defer(str(exc), exc.until)
    except POSTING_TROUBLE as exc:
        return ctx.posting_outcome(exc, job=job, retry=retry)


async def _recover_gone_issues(
    ctx: JobContext,
    job: Job[Any],
    repo_id: int,
    attempt: Callable[[GoneIssues], Awaitable[Outcome]],
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
            return await attempt(gone)
        except PostGone as exc:
            # A deleted discussion (or comment) the run meant to add to or edit: it is
            # forgotten with its comments, and the next pass makes what is still wanted again.
            if exc.node_id in posts_gone or len(posts_gone) >= MAX_GONE_PER_RUN:
                raise
            async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
                forgotten = await ctx.store.posts.forget_post(conn, repo_id, exc.node_id)
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
                own, forgotten = await ctx.store.posts.forget_issue(conn, repo_id, number)
            gone.numbers.add(number)
            if own:
                event = "tracking_issue_gone"
            elif number == configured:
                event = "configured_issue_gone"
            else:
                event = "issue_gone"
            log.warning(event, issue=number, posts_forgotten=forgotten)


async def discussion_target(
    client: InstallationClient, full_name: str, wanted: str | None
) -> tuple[DiscussionSetup, Category]:
    """The repository's Discussions and the category named `wanted` (name or slug, any
    case); None: General, else the first. Raises FallBack when there is none to post in."""
    setup = await client.discussion_setup(full_name)
    return setup, _category(setup, wanted)


def _category(setup: DiscussionSetup, wanted: str | None) -> Category:
    if not setup.enabled:
        raise FallBack("Discussions are turned off in this repository.")
    if wanted:
        key = wanted.casefold()
        category = next(
            (c for c in setup.categories if key in (c.name.casefold(), c.slug.casefold())), None
        )
        if category is None:
            raise FallBack(f"the discussion category “{wanted}” does not exist.")
        return category
    # Announcement-format categories take posts from maintainers only: prefer General.
    category = next((c for c in setup.categories if c.slug == "general"), None)
    if category is None and setup.categories:
        category = setup.categories[0]
    if category is None:
        raise FallBack("the repository has no discussion category.")
    return category


async def sent_channel(
    client: InstallationClient, full_name: str, rec: Recorded, *, category: str | None
) -> targets.Channel | None:
    """Where a recorded post was sent, to look for it or edit it there, whatever the config
    says now: its issue, or Discussions in its recorded category (a remake goes there; that
    category gone: `category`, the one configured now, else the default one). None where
    that place cannot be read any more (Discussions turned off or not the App's)."""
    channel, _ = await _sent_place(client, full_name, rec, category=category)
    return channel


async def _sent_place(
    client: InstallationClient, full_name: str, rec: Recorded, *, category: str | None
) -> tuple[targets.Channel | None, str | None]:
    """`sent_channel`, and why none (None: there is no such place, so nothing is there;
    a reason: the place may hold the post, but it cannot be looked at now)."""
    if rec.kind == "issue-comment" and rec.parent is not None and rec.parent.isdigit():
        return targets.issue_comments(client, full_name, int(rec.parent)), None
    if rec.kind not in ("discussion", "discussion-comment") or (
        rec.kind == "discussion-comment" and rec.parent is None
    ):
        return None, None
    setup, hidden = await _readable_discussions(client, full_name)
    if setup is None:
        return None, hidden
    if rec.kind == "discussion-comment":
        assert rec.parent is not None
        # A day's later part, sent as a comment on its first part's discussion.
        return targets.discussion_comments(client, full_name, rec.parent), None
    found = next((c for c in setup.categories if c.id == rec.parent), None)
    try:
        found = found or _category(setup, category)
    except FallBack:
        try:
            found = _category(setup, None)
        except FallBack:
            return None, None
    return targets.discussions(client, full_name, setup, found), None


async def _readable_discussions(
    client: InstallationClient, full_name: str
) -> tuple[DiscussionSetup | None, str | None]:
    """The repository's Discussions, or why they cannot be read now (GitHub hides them while
    they are turned off; without the permission even their categories are FORBIDDEN)."""
    try:
        setup = await client.discussion_setup(full_name)
    except Forbidden:
        return None, "the App may not read discussions here (no Discussions permission)"
    if not setup.enabled:
        return None, "Discussions are turned off in this repository"
    return setup, None


async def discussions_hidden(client: InstallationClient, full_name: str) -> str | None:
    """Why the repository's discussions cannot be read or written now; None when they can."""
    _, hidden = await _readable_discussions(client, full_name)
    return hidden


def still_waiting(now: datetime, since: datetime, what: str, reason: str) -> Unsettled | None:
    """The wait of work on a place that cannot be looked at (`reason`), due since `since`:
    until when the job defers, the step growing with the wait; None once UNCLEAR_WAIT has
    passed."""
    waited = now - since
    if waited >= UNCLEAR_WAIT:
        return None
    step = min(UNCLEAR_STEP_MAX, max(UNCLEAR_STEP_MIN, waited))
    return Unsettled(f"{what}: {reason}", now + step)


async def settle_sent(
    ctx: JobContext,
    job: Job[Any],
    client: InstallationClient,
    *,
    repo_id: int,
    full_name: str,
    period: str,
    rec: Recorded,
    marker: str,
    category: str | None,
) -> targets.Channel | None:
    """An unclear create (`rec`) looked for by its marker where it was sent, whatever the
    config says now: recorded as posted when it is there (returned: the channel it is in),
    else withdrawn (nothing was made: None), so that it may be made where posts go now.
    Where it cannot be looked for (Discussions off, or not the App's), it is not taken for
    absent: raises Unsettled (the job defers) until UNCLEAR_WAIT has passed since the create."""
    channel, unreachable = await _sent_place(client, full_name, rec, category=category)
    if unreachable is not None:
        now = ctx.clock.now()
        waiting = still_waiting(
            now, rec.created_at or now, "an unclear create cannot be looked for", unreachable
        )
        log.warning(
            "unclear_create_unreachable",
            period=period,
            key=rec.key,
            reason=unreachable,
            gave_up=waiting is None,
        )
        if waiting is not None:
            raise waiting
    made: Found | None = None
    if channel is not None:
        async for item in channel.search(rec.parent):
            # Every post opens with its marker; one further in is quoted commit text.
            if item.body.startswith(marker):
                made = item
                break
    async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
        if made is None:
            await ctx.store.posts.withdraw(conn, repo_id, period, key=rec.key)
        else:
            await ctx.store.posts.record(
                conn,
                repo_id,
                period,
                key=rec.key,
                kind=rec.kind,
                parent=made.place or rec.parent,
                node_id=made.node_id,
                number=made.number,
                url=made.url,
                body_hash=body_hash(made.body),
                now=ctx.clock.now(),
            )
    log.info("unclear_create_settled", period=period, key=rec.key, kind=rec.kind, made=bool(made))
    return channel if made is not None else None


async def settle_elsewhere(
    ctx: JobContext,
    job: Job[Any],
    client: InstallationClient,
    wanted: list[Wanted],
    *,
    repo_id: int,
    full_name: str,
    period: str,
    category: str | None,
) -> None:
    """Before the wanted posts are made (each as its `kind`: a day falling back to its issue,
    or back in its discussion): each create left unclear in another place (a later part sent
    to the day's discussion, or to the issue) is settled there first (`settle_sent`), so that
    a part GitHub may have made is not made again elsewhere. Raises Unsettled while such a
    place cannot be looked at."""
    recorded = await ctx.store.posts.recorded(repo_id, period)
    for w in wanted:
        rec = recorded.get(w.key)
        if rec is not None and rec.state is PostState.CREATING and rec.kind != w.kind:
            await settle_sent(
                ctx,
                job,
                client,
                repo_id=repo_id,
                full_name=full_name,
                period=period,
                rec=rec,
                marker=w.marker,
                category=category,
            )


async def tracking_issue(
    ctx: JobContext, job: Job[Any], client: InstallationClient, repo_id: int, full_name: str
) -> int:
    """The issue the App created once for its comments (found by its marker, too)."""
    body = (
        f"{tracking_marker(full_name)}\n"
        "The App posts the digests of this repository's commits here as comments: the daily\n"
        "digest, and alerts and the weekly roll-up where they are configured to come here."
    )
    wanted = Wanted(
        "tracking-issue", "issue", tracking_marker(full_name), body, TRACKING_ISSUE_TITLE
    )
    channel = targets.issues(client, full_name)
    (posted,) = await targets.sync_posts(
        ctx.store, ctx.clock, job, channel, [wanted], repo_id=repo_id, period=TRACKING_PERIOD
    )
    assert posted.number is not None
    return posted.number


async def comment_issue(
    ctx: JobContext,
    job: Job[Any],
    client: InstallationClient,
    repo: RepoRow,
    *,
    configured: int | None,
    gone: GoneIssues,
) -> int:
    """The issue a repository's comments go to: `publish.issue`, unless this run found it
    gone, else the tracking issue."""
    return gone.usable(configured) or await tracking_issue(
        ctx, job, client, repo.id, repo.full_name
    )


async def sync_discussions(
    ctx: JobContext,
    job: Job[Any],
    client: InstallationClient,
    full_name: str,
    wanted: list[Wanted],
    *,
    category: str | None,
    repo_id: int,
    period: str,
) -> list[Recorded]:
    """New Discussions in the category, each once. Raises FallBack where GitHub will not
    take them (no permission, Discussions off, no such category) and none was made before."""
    try:
        try:
            # Without the Discussions permission at all, even the categories are FORBIDDEN.
            setup = await client.discussion_setup(full_name)
            channel = targets.discussions(client, full_name, setup, _category(setup, category))
        except (FallBack, Forbidden):
            # A create sent before, its answer lost, is settled first, where it was sent.
            sent = await _sent_before(
                ctx,
                job,
                client,
                full_name,
                wanted,
                category=category,
                repo_id=repo_id,
                period=period,
            )
            if sent is None:
                raise
            channel = sent
        return await targets.sync_posts(
            ctx.store, ctx.clock, job, channel, wanted, repo_id=repo_id, period=period
        )
    except Forbidden as exc:
        raise FallBack(
            "the App may not create discussions here (it needs the Discussions: write permission)."
        ) from exc
    except GraphQLFailed as exc:
        if "UNPROCESSABLE" in exc.types:
            raise FallBack("GitHub refused to create the discussion.") from exc
        raise


async def _sent_before(
    ctx: JobContext,
    job: Job[Any],
    client: InstallationClient,
    full_name: str,
    wanted: list[Wanted],
    *,
    category: str | None,
    repo_id: int,
    period: str,
) -> targets.Channel | None:
    """With no category to post in now (renamed, removed, no longer the configured one):
    the channel where the wanted posts already are, once each create left unclear is
    settled where it was sent; None when one is still to be made (the caller falls back)."""
    recorded = await ctx.store.posts.recorded(repo_id, period)
    channel: targets.Channel | None = None
    for w in wanted:
        rec = recorded.get(w.key)
        if rec is None or rec.kind != "discussion":
            return None
        if rec.state is PostState.CREATING:
            channel = await settle_sent(
                ctx,
                job,
                client,
                repo_id=repo_id,
                full_name=full_name,
                period=period,
                rec=rec,
                marker=w.marker,
                category=category,
            )
        else:
            channel = await sent_channel(client, full_name, rec, category=category)
        if channel is None:
            return None
    return channel
