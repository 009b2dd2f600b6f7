"""Where posts go (a Discussion, its comments, an issue, its comments), and bringing GitHub in
line with what is wanted there: reconcile, then create, adopt or edit, each step recorded.

Before every create the intent is recorded inside the job holder's lease-checked transaction:
a holder that lost its lease never creates, and a create whose answer was lost (a crash, a
5xx or a timeout after GitHub carried it out) is searched for by its marker on the next
attempt instead of being sent again. Only the App's own posts count as found: the markers
are predictable, and anyone may comment or open an issue with one copied in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from bot.github.calls import (
    Category,
    DiscussionSetup,
    Forbidden,
    GraphQLFailed,
    InstallationClient,
    NotFound,
)
from bot.github.errors import IssueGone, PostGone
from bot.posts.reconcile import Adopt, Create, Found, Keep, Search, Update, Wanted, reconcile
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.store import Store
from bot.store.jobs import Job
from bot.store.posts import PostKind, Recorded

T = TypeVar("T")

log = get_logger(__name__)


class Busy(Exception):
    """Another job started creating this post since it was read (two jobs of a repository
    share its tracking issue): try again once that create has had time to finish."""


def refused(exc: Exception) -> bool:
    """GitHub refused a create (it answered, and made nothing)."""
    if isinstance(exc, Forbidden):
        return True
    return isinstance(exc, GraphQLFailed) and "UNPROCESSABLE" in exc.types


@dataclass(frozen=True)
class Channel:
    """One place posts of one kind go, with GitHub's calls to search, create and edit there.
    `parent` is where a create goes (a discussion's category id, a comment's discussion or
    issue); `search` looks where an earlier create went (its recorded parent; None: unknown,
    look everywhere this channel can)."""

    kind: PostKind
    parent: str | None
    search: Callable[[str | None], AsyncIterator[Found]]
    create: Callable[[Wanted], Awaitable[Found]]
    update: Callable[[str, str], Awaitable[Any]]  # (node id, body)


def discussions(
    client: InstallationClient, full_name: str, setup: DiscussionSetup, category: Category
) -> Channel:
    async def listed(category_id: str | None) -> AsyncIterator[Found]:
        # `repository.discussions` has no body filter: page the newest and look.
        async for d in client.recent_discussions(full_name, category_id):
            if d.viewer_did_author:
                yield Found(d.id, d.url, d.body, d.number, d.category_id)

    async def search(place: str | None) -> AsyncIterator[Found]:
        # Where the create went, whatever category is configured now; every category when
        # that is not known (or the category is gone: its discussions moved elsewhere).
        if place is not None and all(c.id != place for c in setup.categories):
            place = None
        try:
            async for found in listed(place):
                yield found
        except NotFound:
            if place is None:
                raise
            async for found in listed(None):
                yield found

    async def create(w: Wanted) -> Found:
        made = await client.confirmed(
            full_name,
            None,
            client.create_discussion(
                setup.repository_id, category.id, title=w.title or "", body=w.body
            ),
        )
        return Found(made.id, made.url, w.body, made.number, category.id)

    async def update(node_id: str, body: str) -> Any:
        return await client.confirmed(
            full_name, node_id, client.update_discussion(node_id, body=body)
        )

    return Channel(PostKind.DISCUSSION, category.id, search, create, update)


def discussion_comments(client: InstallationClient, full_name: str, discussion_id: str) -> Channel:
    async def search(place: str | None) -> AsyncIterator[Found]:
        where = place or discussion_id
        try:
            async for c in client.discussion_comments(where):
                if c.viewer_did_author:
                    yield Found(c.id, c.url, c.body, place=where)
        except NotFound as exc:
            raise await client.not_found(full_name, where) from exc

    async def create(w: Wanted) -> Found:
        made = await client.confirmed(
            full_name,
            discussion_id,
            client.add_discussion_comment(discussion_id, body=w.body),
        )
        return Found(made.id, made.url, w.body, place=discussion_id)

    async def update(node_id: str, body: str) -> Any:
        return await client.confirmed(
            full_name, node_id, client.update_discussion_comment(node_id, body=body)
        )

    return Channel(PostKind.DISCUSSION_COMMENT, discussion_id, search, create, update)


def discussion_replies(client: InstallationClient, discussion_id: str, reply_to: str) -> Channel:
    """Threaded replies under one top-level discussion comment (answers to a command)."""

    async def search(place: str | None) -> AsyncIterator[Found]:
        # Replies are found under the comment they answer (the channel's own place).
        async for c in client.discussion_replies(reply_to):
            if c.viewer_did_author:
                yield Found(c.id, c.url, c.body, place=reply_to)

    async def create(w: Wanted) -> Found:
        made = await client.reply_in_discussion(discussion_id, reply_to, body=w.body)
        return Found(made.id, made.url, w.body)

    async def update(node_id: str, body: str) -> Any:
        return await client.update_discussion_comment(node_id, body=body)

    return Channel(PostKind.DISCUSSION_COMMENT, reply_to, search, create, update)


def issue_comments(client: InstallationClient, full_name: str, number: int) -> Channel:
    async def search(place: str | None) -> AsyncIterator[Found]:
        where = int(place) if place and place.isdigit() else number
        async for c in client.issue_comments(full_name, where):
            if c.viewer_did_author:
                yield Found(c.id, c.url, c.body, where, str(where))

    async def create(w: Wanted) -> Found:
        made = await client.create_comment(full_name, number, body=w.body)
        return Found(made.id, made.url, w.body, number, str(number))

    async def update(node_id: str, body: str) -> Any:
        return await client.update_comment(full_name, int(node_id), body=body)

    return Channel(PostKind.ISSUE_COMMENT, str(number), search, create, update)


def issues(client: InstallationClient, full_name: str) -> Channel:
    async def search(place: str | None) -> AsyncIterator[Found]:
        async for i in client.recent_issues(full_name):
            if i.viewer_did_author:
                yield Found(str(i.number), i.url, i.body, i.number)

    async def create(w: Wanted) -> Found:
        made = await client.create_issue(full_name, title=w.title or "", body=w.body)
        assert made.number is not None
        return Found(str(made.number), made.url, w.body, made.number)

    async def update(node_id: str, body: str) -> Any:
        # The tracking issue's text never changes once posted; its comments carry the news.
        return None

    return Channel(PostKind.ISSUE, None, search, create, update)


async def sync_posts(
    store: Store,
    clock: Clock,
    job: Job[Any],
    channel: Channel,
    wanted: Sequence[Wanted],
    *,
    repo_id: int,
    period: str,
) -> list[Recorded]:
    """Make GitHub hold the wanted posts (in order), each once; returns their records. Every
    write runs in `job`'s lease-checked transaction."""
    recorded = await store.posts.recorded(repo_id, period)
    actions = reconcile(wanted, recorded, None)
    if actions and isinstance(actions[0], Search):
        by_marker = await _search(channel, wanted, actions[0], recorded)
        actions = reconcile(wanted, recorded, by_marker)

    async def record(posted: Recorded) -> Recorded:
        async with store.jobs.holding(job, clock.now()) as conn:
            await store.posts.record(conn, repo_id, period, posted, now=clock.now())
        return posted

    async def create(w: Wanted, *, first: bool) -> Recorded:
        async with store.jobs.holding(job, clock.now()) as conn:
            intended = await store.posts.intend(
                conn,
                repo_id,
                period,
                key=w.key,
                kind=channel.kind,
                parent=channel.parent,
                now=clock.now(),
                job_id=job.id,
                first=first,
            )
        if not intended:
            raise Busy(f"another job is creating the post {period}/{w.key}")
        try:
            made = await channel.create(w)
        except (Forbidden, GraphQLFailed, IssueGone, PostGone) as exc:
            # Only a refusal is sure to have made nothing; GitHub's untyped "something
            # went wrong" (a timeout inside it) may have: that intent stays.
            if isinstance(exc, GraphQLFailed) and not refused(exc):
                raise
            async with store.jobs.holding(job, clock.now()) as conn:
                await store.posts.withdraw(conn, repo_id, period, key=w.key)
            raise
        return await record(made.posted(w.key, channel.kind, made.place, w.hash))

    out: list[Recorded] = []
    for action in actions:
        match action:
            case Keep(recorded=rec):
                out.append(rec)
            case Update(wanted=w, recorded=rec):
                assert rec.node_id is not None
                if rec.kind != channel.kind:
                    # Made elsewhere (a discussion, the channel an issue's comments): its id
                    # means nothing here. It is left as it is, never edited through the wrong
                    # calls nor made twice.
                    log.warning("post_elsewhere", key=w.key, kind=rec.kind, channel=channel.kind)
                    out.append(rec)
                    continue
                try:
                    await channel.update(rec.node_id, w.body)
                except (IssueGone, PostGone) as exc:
                    if isinstance(exc, IssueGone) and exc.disabled:
                        raise
                    if isinstance(exc, PostGone) and exc.node_id != rec.node_id:
                        raise
                    # The post was deleted, alone or with its issue or discussion: it is made
                    # again (where its issue or discussion is gone too, that create says so).
                    async with store.jobs.holding(job, clock.now()) as conn:
                        await store.posts.forget(
                            conn, repo_id, period, key=w.key, node_id=rec.node_id
                        )
                    out.append(await create(w, first=True))
                    continue
                out.append(await record(replace(rec, body_hash=w.hash)))
            case Adopt(wanted=w, found=found):
                if action.needs_update:
                    await channel.update(found.node_id, w.body)
                place = found.place or channel.parent
                out.append(await record(found.posted(w.key, channel.kind, place, w.hash)))
            case Create(wanted=w):
                out.append(await create(w, first=w.key not in recorded))
    return out


async def _search(
    channel: Channel, wanted: Sequence[Wanted], search: Search, recorded: Mapping[str, Recorded]
) -> dict[str, Found]:
    """The unclear creates' posts, each looked for where its create went."""
    places: dict[str | None, list[Wanted]] = {}
    for w in wanted:
        if w.key in search.keys:
            rec = recorded[w.key]
            place = rec.parent if rec.kind == channel.kind else None
            places.setdefault(place, []).append(w)
    found: dict[str, Found] = {}
    for place, looked_for in places.items():
        async for item in channel.search(place):
            # Every post opens with its marker; one further in is quoted commit text (an
            # author's name in a code span), not the post it names.
            key = next((w.key for w in looked_for if item.body.startswith(w.marker)), None)
            if key is not None and key not in found:
                found[key] = item
            if all(w.key in found for w in looked_for):
                break
    return found
