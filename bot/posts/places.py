"""Where a repository's posts may go: the Discussion category asked for, where a recorded post
was sent, whether Discussions can be read now, and how long work waits for them to come back.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.github.calls import Category, DiscussionSetup, Forbidden, InstallationClient
from bot.posts import targets
from bot.store.posts import PostKind, Recorded

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


def category_in(setup: DiscussionSetup, wanted: str | None) -> Category:
    """The category named `wanted` (name or slug, any case); None: General, else the first.
    Raises FallBack when there is none to post in."""
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


async def sent_place(
    client: InstallationClient, full_name: str, rec: Recorded, *, category: str | None
) -> tuple[targets.Channel | None, str | None]:
    """Where a recorded post was sent, to look for it or edit it there, whatever the config
    says now: its issue, or Discussions in its recorded category (a remake goes there; that
    category gone: `category`, the one configured now, else the default one). None where
    that place cannot be read any more (Discussions turned off or not the App's), with why
    (None: there is no such place, so nothing is there; a reason: the place may hold the
    post, but it cannot be looked at now)."""
    if rec.kind == PostKind.ISSUE_COMMENT and rec.parent is not None and rec.parent.isdigit():
        return targets.issue_comments(client, full_name, int(rec.parent)), None
    if rec.kind not in (PostKind.DISCUSSION, PostKind.DISCUSSION_COMMENT) or (
        rec.kind == PostKind.DISCUSSION_COMMENT and rec.parent is None
    ):
        return None, None
    setup, hidden = await readable_discussions(client, full_name)
    if setup is None:
        return None, hidden
    if rec.kind == PostKind.DISCUSSION_COMMENT:
        assert rec.parent is not None
        # A day's later part, sent as a comment on its first part's discussion.
        return targets.discussion_comments(client, full_name, rec.parent), None
    found = next((c for c in setup.categories if c.id == rec.parent), None)
    try:
        found = found or category_in(setup, category)
    except FallBack:
        try:
            found = category_in(setup, None)
        except FallBack:
            return None, None
    return targets.discussions(client, full_name, setup, found), None


async def readable_discussions(
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


def still_waiting(now: datetime, since: datetime, what: str, reason: str) -> Unsettled | None:
    """The wait of work on a place that cannot be looked at (`reason`), due since `since`:
    until when the job defers, the step growing with the wait; None once UNCLEAR_WAIT has
    passed."""
    waited = now - since
    if waited >= UNCLEAR_WAIT:
        return None
    step = min(UNCLEAR_STEP_MAX, max(UNCLEAR_STEP_MIN, waited))
    return Unsettled(f"{what}: {reason}", now + step)
