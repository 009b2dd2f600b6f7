"""`publish` by hand at the edges, through the jobs and the fake GitHub: a create GitHub made but
answered 502 is settled at once (published, status 0); a publication backing off is tried
again now; a dead holder's lease is waited out and its work taken over, a live one's waited
for only so long, and never reported as posted."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from bot.app import SETTINGS, STORE
from bot.cli.publish import publish_day
from bot.store.jobs import JobKind
from tests.fakes.github import FakeGitHub
from tests.support import FakeClock
from tests.test_publish import END, REPO, landed_day

DAY = date(2026, 6, 22)


def creates(github: FakeGitHub) -> int:
    return len(
        [
            c
            for c in github.calls_to("POST", r"^/graphql$")
            if c.operation == "CreateDigestDiscussion"
        ]
    )


async def test_publish_after_a_create_github_made_but_answered_502_says_published(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await landed_day(app_client, github, clock)
    clock.current = END + timedelta(seconds=1)
    github.lose_discussion_create()
    state, url = await publish_day(client.app, REPO, DAY)
    (discussion,) = repo.discussions
    assert (state, url) == ("published", discussion["url"])
    assert creates(github) == 1  # found by its marker, not made again


async def test_publish_again_tries_a_publication_backing_off_at_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await landed_day(app_client, github, clock)
    clock.current = END + timedelta(seconds=1)
    # GitHub fails the next two creates (and makes nothing).
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", times=2)
    assert await publish_day(client.app, REPO, DAY) == ("deferred", None)
    assert repo.discussions == []
    # Run again a few seconds later: the job backing off is tried now.
    clock.advance(seconds=3)
    state, url = await publish_day(client.app, REPO, DAY)
    (discussion,) = repo.discussions
    assert (state, url) == ("published", discussion["url"])
    assert creates(github) == 3


async def test_publish_after_its_holder_died_waits_out_the_lease_and_posts(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await landed_day(app_client, github, clock)
    clock.current = END + timedelta(seconds=1)
    app = client.app
    store = app[STORE]
    row = await store.repos.by_name(REPO)
    assert row is not None
    lease = timedelta(seconds=app[SETTINGS].worker_lease_seconds)
    assert lease <= timedelta(minutes=1)  # a dead holder's work is taken over within a minute
    # A process claimed the day's publication and was killed before it posted anything.
    await store.jobs.enqueue(
        JobKind.PUBLISH_PERIOD,
        f"{row.id}/day/{DAY.isoformat()}",
        {"repo_id": row.id, "period_kind": "day", "start": DAY.isoformat()},
        clock.now(),
    )
    dead, _ = await store.jobs.claim(
        clock.now(),
        owner="killed",
        limit=1,
        lease=lease,
        max_attempts={JobKind.PUBLISH_PERIOD: 8},
        kinds=[JobKind.PUBLISH_PERIOD],
    )
    assert len(dead) == 1
    began = clock.now()
    state, url = await publish_day(app, REPO, DAY)
    (discussion,) = repo.discussions
    assert (state, url) == ("published", discussion["url"])
    assert began + lease <= clock.now() <= began + 2 * lease  # it waited for the lease, no more


async def test_publish_behind_a_live_holder_waits_a_while_then_says_busy(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await landed_day(app_client, github, clock)
    clock.current = END + timedelta(seconds=1)
    app = client.app
    store = app[STORE]
    row = await store.repos.by_name(REPO)
    assert row is not None
    await store.jobs.enqueue(
        JobKind.PUBLISH_PERIOD,
        f"{row.id}/day/{DAY.isoformat()}",
        {"repo_id": row.id, "period_kind": "day", "start": DAY.isoformat()},
        clock.now(),
    )
    # Another process holds it, its heartbeat renewing its lease all along.
    live, _ = await store.jobs.claim(
        clock.now(),
        owner="alive",
        limit=1,
        lease=timedelta(hours=1),
        max_attempts={JobKind.PUBLISH_PERIOD: 8},
        kinds=[JobKind.PUBLISH_PERIOD],
    )
    assert len(live) == 1
    assert await publish_day(app, REPO, DAY) == ("busy", None)
    assert repo.discussions == []
    assert clock.now() - END < timedelta(minutes=5)  # the wait is bounded
