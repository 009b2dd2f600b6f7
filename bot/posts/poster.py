"""The poster: every kind of post (a day's digest, a roll-up, an alert, a fold, a command's
reply) goes through it, exactly once, where the config sends it.

A thread's post once sent stays where it went, whatever the config says now: the retry of a
create GitHub may have carried out looks for its marker there, never posts elsewhere. A
Discussion GitHub will not take (Discussions off, no such category, no permission, the
discussion locked) falls back to the issue, the post saying why; an issue found gone is the
job's to recover (`GoneIssues` carries what it found to the next pass).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from bot.digest.markers import tracking_marker
from bot.github.calls import Forbidden, GraphQLFailed, InstallationClient
from bot.posts import targets
from bot.posts.places import (
    FallBack,
    GoneIssues,
    category_in,
    joined,
    readable_discussions,
    sent_place,
    still_waiting,
)
from bot.posts.reconcile import Found, Wanted, body_hash
from bot.posts.thread import Thread
from bot.repo_config import Place
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.store import Store
from bot.store.jobs import Job
from bot.store.posts import PostKind, PostState, Recorded

T = TypeVar("T")

log = get_logger(__name__)

# The key of a thread's first post (a day's first part, a week's roll-up).
HEAD = "part-1"
TRACKING_ISSUE_TITLE = "Commit digest"
TRACKING_KEY = "tracking-issue"
# Why a thread's later part went to the issue when GitHub refused it as a comment on the
# thread's discussion (no Discussions write permission, or the discussion locked).
COMMENT_REFUSED = (
    "GitHub refused a comment on the day's discussion (the App needs the Discussions: write "
    "permission, and the discussion must not be locked)."
)


def issue_of(head: Recorded | None) -> int | None:
    """The issue a thread's first post went to as a comment (None: not an issue comment)."""
    if head is None or head.kind != PostKind.ISSUE_COMMENT or not (head.parent or "").isdigit():
        return None
    return int(head.parent or "")


@dataclass(frozen=True)
class Delivery:
    """How a thread's posts are sent, for rendering them: comments on an issue (`issue`,
    each part with its title) or a Discussion; `note`, why readers find them on the issue;
    `head_stays`: the first part stayed in its discussion, so every part says why."""

    issue: bool
    note: str | None = None
    head_stays: bool = False


@dataclass(frozen=True)
class Draft:
    """What a thread posts: its parts (key, body) in order, and the title of the Discussion
    the first part opens."""

    parts: Sequence[tuple[str, str]]
    title: str | None = None


@dataclass(frozen=True)
class Published:
    url: str | None  # the first part's
    count: int


class Poster:
    """One job run's posts for one repository. Every ledger write runs in `job`'s
    lease-checked transaction."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        job: Job[Any],
        *,
        repo_id: int,
        full_name: str,
        client: Callable[[], Awaitable[InstallationClient]],
        gone: GoneIssues | None = None,
    ) -> None:
        self._store, self._clock, self._job = store, clock, job
        self.repo_id, self.full_name = repo_id, full_name
        self._connect = client
        self._client: InstallationClient | None = None
        self.gone = gone or GoneIssues()

    async def client(self) -> InstallationClient:
        if self._client is None:
            self._client = await self._connect()
        return self._client

    async def recorded(self, thread: Thread) -> dict[str, Recorded]:
        return await self._store.posts.recorded(self.repo_id, thread.period)

    async def send(
        self, thread: Thread, channel: targets.Channel, wanted: Sequence[Wanted]
    ) -> list[Recorded]:
        """The wanted posts made or brought up to date in `channel`, each once."""
        return await targets.sync_posts(
            self._store,
            self._clock,
            self._job,
            channel,
            wanted,
            repo_id=self.repo_id,
            period=thread.period,
        )

    # --- a thread's first publication, its edits and later posts -------------------------

    async def publish(
        self, thread: Thread, place: Place, render: Callable[[Delivery], Draft], *, what: str
    ) -> Published:
        """A thread's first publication (`what` names it in logs): where its first post was
        sent if one was, else where `place` says; a Discussion GitHub will not take falls
        back to the issue, the posts saying why."""
        head = (await self.recorded(thread)).get(HEAD)
        to_discussion = head.kind == PostKind.DISCUSSION if head is not None else place.discussion
        gone = self.gone.note(place.issue)
        if not to_discussion:
            draft = render(Delivery(issue=True, note=gone))
            return await self._issue(thread, place, draft, number=issue_of(head))
        try:
            return await self._discussion(thread, place, render(Delivery(issue=False)))
        except (FallBack, Forbidden) as exc:
            # Forbidden: a later part refused as a comment on the thread's discussion.
            reason = str(exc) if isinstance(exc, FallBack) else COMMENT_REFUSED
            log.info(f"{what}_fallback_to_issue", reason=reason)
        made = (await self.recorded(thread)).get(HEAD)
        # The first part stays in its discussion: the parts on the issue say why.
        stays = made is not None and made.kind == PostKind.DISCUSSION
        draft = render(Delivery(issue=True, note=joined(reason, gone), head_stays=stays))
        return await self._issue(thread, place, draft)

    async def revise(
        self, thread: Thread, head: Recorded, place: Place, render: Callable[[Delivery], Draft]
    ) -> None:
        """A published thread's first posts edited where they are."""
        if head.kind == PostKind.DISCUSSION:
            await self._discussion(thread, place, render(Delivery(issue=False)))
        else:
            await self._issue(thread, place, render(Delivery(issue=True)), number=issue_of(head))

    async def add(
        self,
        thread: Thread,
        head: Recorded,
        place: Place,
        render: Callable[[Delivery], Draft],
        *,
        since: datetime,
    ) -> None:
        """Later posts (an addendum) where the thread's first post went. While that is a
        discussion GitHub hides (Discussions turned off, or not the App's), they wait for it
        up to UNCLEAR_WAIT since `since`; then, or at once where GitHub refuses the comment,
        they go to the issue, saying why, so that nothing is lost."""
        if head.kind != PostKind.DISCUSSION or not head.node_id:
            await self._issue(thread, place, render(Delivery(issue=True)), number=issue_of(head))
            return
        hidden = await self.hidden_since(
            since, "the day's discussion cannot be looked at", event="addendum_place_hidden"
        )
        if hidden is None:
            parts = render(Delivery(issue=False)).parts
            try:
                await self._comments(thread, place, head.node_id, parts)
            except Forbidden:
                # GitHub refuses the comment (its create withdrawn): to the issue, at once.
                why = COMMENT_REFUSED
                log.warning("addendum_comment_refused")
            else:
                return
        else:
            why = f"{hidden}."
        note = joined(why, self.gone.note(place.issue))
        await self._issue(thread, place, render(Delivery(issue=True, note=note)))

    async def hidden_since(self, since: datetime, what: str, *, event: str) -> str | None:
        """Why the repository's discussions cannot be read or written now (None: they can).
        While that has lasted less than UNCLEAR_WAIT since `since`, raises Unsettled: the job
        waits for them to come back."""
        _, hidden = await readable_discussions(await self.client(), self.full_name)
        if hidden is not None:
            self._wait(since, what, hidden, event=event)
        return hidden

    def _wait(self, since: datetime, what: str, reason: str, *, event: str, **logged: Any) -> None:
        """Raises Unsettled (the job defers) while work on a place that cannot be looked at
        (`reason`) has waited less than UNCLEAR_WAIT since `since`; logs `event` either way."""
        waiting = still_waiting(self._clock.now(), since, what, reason)
        log.warning(event, **logged, reason=reason, gave_up=waiting is None)
        if waiting is not None:
            raise waiting

    async def still_there(self, head: Recorded) -> Recorded | None:
        """A thread's first post, unless GitHub confirms it gone (a maintainer deleted it):
        then it is forgotten with its comments (None), so that it may be posted again."""
        if head.state is not PostState.POSTED or not head.node_id:
            return head
        client = await self.client()
        if head.kind == PostKind.DISCUSSION:
            gone = await client.post_gone(self.full_name, head.node_id)
        elif head.kind == PostKind.ISSUE_COMMENT and head.node_id.isdigit():
            gone = await client.comment_gone(self.full_name, int(head.node_id))
        else:
            return head
        if not gone:
            return head
        async with self._store.jobs.holding(self._job, self._clock.now()) as conn:
            forgotten = await self._store.posts.forget_post(conn, self.repo_id, head.node_id)
        log.warning("post_gone", node_id=head.node_id, posts_forgotten=forgotten)
        return None

    async def _discussion(self, thread: Thread, place: Place, draft: Draft) -> Published:
        """The first part as a new Discussion, later parts as its comments."""
        (key, body), *later = draft.parts
        head = thread.wanted(key, PostKind.DISCUSSION, body, draft.title)
        posted = await self._new_discussion(thread, head, place.category)
        assert posted.node_id is not None
        if later:
            await self._comments(thread, place, posted.node_id, later)
        return Published(posted.url, len(draft.parts))

    async def _comments(
        self, thread: Thread, place: Place, discussion_id: str, parts: Sequence[tuple[str, str]]
    ) -> None:
        """Parts as comments on the thread's discussion, each create left unclear on the issue
        settled there first."""
        client = await self.client()
        channel = targets.discussion_comments(client, self.full_name, discussion_id)
        wanted = [thread.wanted(k, PostKind.DISCUSSION_COMMENT, b) for k, b in parts]
        await self.settle_elsewhere(thread, wanted, category=place.category)
        await self.send(thread, channel, wanted)

    async def _issue(
        self, thread: Thread, place: Place, draft: Draft, *, number: int | None = None
    ) -> Published:
        """The parts as comments on issue `number`, where the thread's first post went; None:
        the issue posts go to now, each create left unclear in the discussion settled there
        first."""
        wanted = [thread.wanted(k, PostKind.ISSUE_COMMENT, b) for k, b in draft.parts]
        if number is None:
            await self.settle_elsewhere(thread, wanted, category=place.category)
            number = await self.comment_issue(place.issue)
        channel = targets.issue_comments(await self.client(), self.full_name, number)
        posted = await self.send(thread, channel, wanted)
        return Published(posted[0].url if posted else None, len(wanted))

    # --- a single post where a place says (alerts, folds) ---------------------------------

    async def channel(self, place: Place, *, discussion: bool = True) -> targets.Channel:
        """Where a new post goes under `place`: its Discussion category, or the issue
        (`place.issue`, else the tracking issue) where Discussions cannot be used."""
        if discussion and place.discussion:
            client = await self.client()
            try:
                return await self._discussions(client, place.category)
            except FallBack as reason:
                log.info("alerts_fallback_to_issue", reason=str(reason))
            except Forbidden:
                # Without the Discussions permission at all, even the categories are FORBIDDEN.
                log.info("alerts_fallback_to_issue", reason="no Discussions permission")
        number = await self.comment_issue(place.issue)
        return targets.issue_comments(await self.client(), self.full_name, number)

    async def to_place(self, place: Place, attempt: Callable[[targets.Channel], Awaitable[T]]) -> T:
        """`attempt` in the channel `place` gives; a Discussion create GitHub refuses (its
        intent withdrawn) is attempted again on the issue."""
        channel = await self.channel(place)
        try:
            return await attempt(channel)
        except (Forbidden, GraphQLFailed) as exc:
            if channel.kind != PostKind.DISCUSSION or not targets.refused(exc):
                raise
            log.info("alerts_fallback_to_issue", reason=str(exc)[:200])
        return await attempt(await self.channel(place, discussion=False))

    # --- a command's reply ---------------------------------------------------------------

    async def answer(
        self,
        thread: Thread,
        key: str,
        body: str,
        *,
        issue: int | None,
        discussion: str | None,
        reply_to: str | None,
    ) -> None:
        """A reply where the command was made: a comment on its issue, or a threaded reply
        under its discussion comment."""
        client = await self.client()
        if issue is not None:
            channel = targets.issue_comments(client, self.full_name, issue)
        else:
            assert reply_to is not None
            channel = targets.discussion_replies(client, str(discussion), reply_to)
        await self.send(thread, channel, [thread.wanted(key, channel.kind, body)])

    # --- unclear creates, settled where they were sent -----------------------------------

    async def settle(
        self, thread: Thread, rec: Recorded, marker: str, *, category: str | None
    ) -> targets.Channel | None:
        """An unclear create (`rec`) looked for by its marker where it was sent, whatever the
        config says now: recorded as posted when it is there (returned: the channel it is in),
        else withdrawn (nothing was made: None), so that it may be made where posts go now.
        Where it cannot be looked for (Discussions off, or not the App's), it is not taken for
        absent: raises Unsettled (the job defers) until UNCLEAR_WAIT has passed since the
        create."""
        client = await self.client()
        channel, unreachable = await sent_place(client, self.full_name, rec, category=category)
        if unreachable is not None:
            what = "an unclear create cannot be looked for"
            since = rec.created_at or self._clock.now()
            self._wait(
                since,
                what,
                unreachable,
                event="unclear_create_unreachable",
                period=thread.period,
                key=rec.key,
            )
        made: Found | None = None
        if channel is not None:
            async for item in channel.search(rec.parent):
                # Every post opens with its marker; one further in is quoted commit text.
                if item.body.startswith(marker):
                    made = item
                    break
        posted = (
            None
            if made is None
            else made.posted(rec.key, rec.kind, made.place or rec.parent, body_hash(made.body))
        )
        store = self._store
        async with store.jobs.holding(self._job, self._clock.now()) as conn:
            if posted is None:
                await store.posts.withdraw(conn, self.repo_id, thread.period, key=rec.key)
            else:
                await store.posts.record(
                    conn, self.repo_id, thread.period, posted, now=self._clock.now()
                )
        log.info(
            "unclear_create_settled",
            period=thread.period,
            key=rec.key,
            kind=rec.kind,
            made=bool(made),
        )
        return channel if made is not None else None

    async def settle_elsewhere(
        self, thread: Thread, wanted: Sequence[Wanted], *, category: str | None
    ) -> None:
        """Before the wanted posts are made (each as its `kind`: a day falling back to its
        issue, or back in its discussion): each create left unclear in another place (a later
        part sent to the day's discussion, or to the issue) is settled there first, so that a
        part GitHub may have made is not made again elsewhere. Raises Unsettled while such a
        place cannot be looked at."""
        recorded = await self.recorded(thread)
        for w in wanted:
            rec = recorded.get(w.key)
            if rec is not None and rec.state is PostState.CREATING and rec.kind != w.kind:
                await self.settle(thread, rec, w.marker, category=category)

    async def _new_discussion(self, thread: Thread, head: Wanted, category: str | None) -> Recorded:
        """The thread's first post as a new Discussion in the category, once. Raises FallBack
        where GitHub will not take it (no permission, Discussions off, no such category) and
        it was not made before."""
        client = await self.client()
        try:
            try:
                channel = await self._discussions(client, category)
            except (FallBack, Forbidden):
                # A create sent before, its answer lost, is settled first, where it was sent.
                sent = await self._sent_before(thread, head, category=category)
                if sent is None:
                    raise
                channel = sent
            (posted,) = await self.send(thread, channel, [head])
        except Forbidden as exc:
            raise FallBack(
                "the App may not create discussions here (it needs the Discussions: write "
                "permission)."
            ) from exc
        except GraphQLFailed as exc:
            if targets.refused(exc):
                raise FallBack("GitHub refused to create the discussion.") from exc
            raise
        return posted

    async def _discussions(
        self, client: InstallationClient, category: str | None
    ) -> targets.Channel:
        """New Discussions in `category`. Raises FallBack where there is none to post in, and
        Forbidden without the Discussions permission (even the categories are FORBIDDEN)."""
        setup = await client.discussion_setup(self.full_name)
        found = category_in(setup, category)
        return targets.discussions(client, self.full_name, setup, found)

    async def _sent_before(
        self, thread: Thread, head: Wanted, *, category: str | None
    ) -> targets.Channel | None:
        """With no category to post in now (renamed, removed, no longer the configured one):
        the channel where the first post already is, once a create left unclear is settled
        where it was sent; None when it is still to be made (the caller falls back)."""
        rec = (await self.recorded(thread)).get(head.key)
        if rec is None or rec.kind != PostKind.DISCUSSION:
            return None
        if rec.state is PostState.CREATING:
            return await self.settle(thread, rec, head.marker, category=category)
        channel, _ = await sent_place(await self.client(), self.full_name, rec, category=category)
        return channel

    # --- the issue ------------------------------------------------------------------------

    async def comment_issue(self, configured: int | None) -> int:
        """The issue a repository's comments go to: `publish.issue`, unless this run found it
        gone, else the tracking issue."""
        return self.gone.usable(configured) or await self.tracking_issue()

    async def tracking_issue(self) -> int:
        """The issue the App created once for its comments (found by its marker, too)."""
        full_name = self.full_name
        body = (
            f"{tracking_marker(full_name)}\n"
            "The App posts the digests of this repository's commits here as comments: the daily\n"
            "digest, and alerts and the weekly roll-up where they are configured to come here."
        )
        thread = Thread.tracking(self.repo_id, full_name)
        wanted = thread.wanted(TRACKING_KEY, PostKind.ISSUE, body, TRACKING_ISSUE_TITLE)
        channel = targets.issues(await self.client(), full_name)
        (posted,) = await self.send(thread, channel, [wanted])
        assert posted.number is not None
        return posted.number
