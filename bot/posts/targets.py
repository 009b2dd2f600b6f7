"""Where posts go (a Discussion, its comments, an issue, its comments), and bringing GitHub in
line with what is wanted there: reconcile, then create, adopt or edit, each step recorded.

Before every create the intent is recorded inside the job holder's lease-checked transaction:
a holder that lost its lease never creates, and a create whose answer was lost (a crash, a
5xx or a timeout after GitHub carried it out) is searched for by its marker on the next
attempt instead of being sent again. Only the App's own posts count as found: the markers
are predictable, and anyone may comment or open an issue with one copied in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.digest.markers import read_marker
from bot.github import InstallationClient
from bot.github.calls import Category, DiscussionSetup, Forbidden, GraphQLFailed
from bot.github.errors import IssueGone
from bot.posts.reconcile import Adopt, Create, Found, Keep, Search, Update, Wanted, reconcile
from bot.runtime.clock import Clock
from bot.store import Store
from bot.store.jobs import Job
from bot.store.posts import PostState, Recorded


class Busy(Exception):
    """Another job started creating this post since it was read (two jobs of a repository
    share its tracking issue): try again once that create has had time to finish."""


@dataclass(frozen=True)
class Channel:
    """One place posts of one kind go, with GitHub's calls to search, create and edit there."""

    kind: str
    parent: str | None
    search: Callable[[], AsyncIterator[Found]]
    create: Callable[[Wanted], Awaitable[Found]]
    update: Callable[[str, str], Awaitable[Any]]  # (node id, body)


def discussions(
    client: InstallationClient, full_name: str, setup: DiscussionSetup, category: Category
) -> Channel:
    async def search() -> AsyncIterator[Found]:
        # `repository.discussions` has no body filter: page the newest and look.
        async for d in client.recent_discussions(full_name, category.id):
            if d.get("viewerDidAuthor"):
                yield Found(str(d["id"]), d.get("url"), d.get("body") or "", d.get("number"))

    async def create(w: Wanted) -> Found:
        made = await client.create_discussion(
            setup.repository_id, category.id, title=w.title or "", body=w.body
        )
        return Found(str(made["id"]), made.get("url"), w.body, made.get("number"))

    async def update(node_id: str, body: str) -> Any:
        return await client.update_discussion(node_id, body=body)

    return Channel("discussion", None, search, create, update)


def discussion_comments(client: InstallationClient, discussion_id: str) -> Channel:
    async def search() -> AsyncIterator[Found]:
        async for c in client.discussion_comments(discussion_id):
            if c.get("viewerDidAuthor"):
                yield Found(str(c["id"]), c.get("url"), c.get("body") or "")

    async def create(w: Wanted) -> Found:
        made = await client.add_discussion_comment(discussion_id, body=w.body)
        return Found(str(made["id"]), made.get("url"), w.body)

    async def update(node_id: str, body: str) -> Any:
        return await client.update_discussion_comment(node_id, body=body)

    return Channel("discussion-comment", discussion_id, search, create, update)


def discussion_replies(client: InstallationClient, discussion_id: str, reply_to: str) -> Channel:
    """Threaded replies under one top-level discussion comment (answers to a command)."""

    async def search() -> AsyncIterator[Found]:
        async for c in client.discussion_replies(reply_to):
            if c.get("viewerDidAuthor"):
                yield Found(str(c["id"]), c.get("url"), c.get("body") or "")

    async def create(w: Wanted) -> Found:
        made = await client.reply_in_discussion(discussion_id, reply_to, body=w.body)
        return Found(str(made["id"]), made.get("url"), w.body)

    async def update(node_id: str, body: str) -> Any:
        return await client.update_discussion_comment(node_id, body=body)

    return Channel("discussion-comment", reply_to, search, create, update)


def issue_comments(client: InstallationClient, full_name: str, number: int) -> Channel:
    async def search() -> AsyncIterator[Found]:
        async for c in client.issue_comments(full_name, number):
            # REST has no `viewerDidAuthor`: the App's comments are its bot account's, and
            # only an installed App's token can post as a Bot (no user can).
            if (c.get("user") or {}).get("type") != "Bot":
                continue
            yield Found(
                str(c["id"]), c.get("html_url") or c.get("url"), c.get("body") or "", number
            )

    async def create(w: Wanted) -> Found:
        made = await client.create_comment(full_name, number, body=w.body)
        return Found(str(made["id"]), made.get("html_url") or made.get("url"), w.body, number)

    async def update(node_id: str, body: str) -> Any:
        return await client.update_comment(full_name, int(node_id), body=body)

    return Channel("issue-comment", str(number), search, create, update)


def issues(client: InstallationClient, full_name: str) -> Channel:
    async def search() -> AsyncIterator[Found]:
        async for i in client.recent_issues(full_name):
            if i.get("viewerDidAuthor"):
                yield Found(str(i["number"]), i.get("url"), i.get("body") or "", int(i["number"]))

    async def create(w: Wanted) -> Found:
        made = await client.create_issue(full_name, title=w.title or "", body=w.body)
        return Found(str(made["number"]), made.get("html_url"), w.body, int(made["number"]))

    async def update(node_id: str, body: str) -> Any:
        # The tracking issue's text never changes once posted; its comments carry the news.
        return None

    return Channel("issue", None, search, create, update)


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
        actions = reconcile(wanted, recorded, await _search(channel, wanted, actions[0]))

    async def record(w: Wanted, node_id: str, url: str | None, number: int | None) -> Recorded:
        async with store.jobs.holding(job, clock.now()) as conn:
            await store.posts.record(
                conn,
                repo_id,
                period,
                key=w.key,
                kind=channel.kind,
                parent=channel.parent,
                node_id=node_id,
                number=number,
                url=url,
                body_hash=w.hash,
                now=clock.now(),
            )
        return Recorded(
            w.key, channel.kind, PostState.POSTED, channel.parent, node_id, number, url, w.hash
        )

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
                first=first,
            )
        if not intended:
            raise Busy(f"another job is creating the post {period}/{w.key}")
        try:
            made = await channel.create(w)
        except (Forbidden, GraphQLFailed, IssueGone) as exc:
            # Only a refusal is sure to have made nothing; GitHub's untyped "something
            # went wrong" (a timeout inside it) may have: that intent stays.
            if isinstance(exc, GraphQLFailed) and "UNPROCESSABLE" not in exc.types:
                raise
            async with store.jobs.holding(job, clock.now()) as conn:
                await store.posts.withdraw(conn, repo_id, period, key=w.key)
            raise
        return await record(w, made.node_id, made.url, made.number)

    out: list[Recorded] = []
    for action in actions:
        match action:
            case Keep(recorded=rec):
                out.append(rec)
            case Update(wanted=w, recorded=rec):
                assert rec.node_id is not None
                try:
                    await channel.update(rec.node_id, w.body)
                except IssueGone as exc:
                    if exc.disabled:
                        raise
                    # The comment was deleted, alone or with its issue: it is made again
                    # (where the issue is gone too, that create says so).
                    async with store.jobs.holding(job, clock.now()) as conn:
                        await store.posts.forget(
                            conn, repo_id, period, key=w.key, node_id=rec.node_id
                        )
                    out.append(await create(w, first=True))
                    continue
                out.append(await record(w, rec.node_id, rec.url, rec.number))
            case Adopt(wanted=w, found=found):
                if action.needs_update:
                    await channel.update(found.node_id, w.body)
                out.append(await record(w, found.node_id, found.url, found.number))
            case Create(wanted=w):
                out.append(await create(w, first=w.key not in recorded))
    return out


async def _search(channel: Channel, wanted: Sequence[Wanted], search: Search) -> dict[str, Found]:
    markers = {w.marker: w.key for w in wanted if w.key in search.keys}
    found: dict[str, Found] = {}
    async for item in channel.search():
        # Every post opens with its marker; one further in is quoted commit text (an
        # author's name in a code span), not the post it names.
        opening = read_marker(item.body)
        key = markers.get(str(opening)) if opening is not None else None
        if key is not None and key not in found:
            found[key] = item
        if len(found) == len(markers):
            break
    return found
