"""`publish` by hand at the edges, through the jobs and the fake GitHub: a create GitHub made but
answered 502 is settled at once (published, status 0); a publication backing off is tried
again now; a dead holder's lease is waited out and its work taken over, a live one's waited
for only so long, and never reported as posted; a `publish` killed mid-create is followed by
one that waits out its lease and finds its post."""

from __future__ import annotations

import asyncio
import signal
from asyncio.subprocess import PIPE
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from bot.app import EXECUTOR, SETTINGS, STORE
from bot.cli.publish import publish_day
from bot.periods.period import Period
from bot.store.job_payloads import PublishPeriodPayload
from bot.store.jobs import JobKind
from tests.fakes.github import FakeGitHub
from tests.processes import run_bot, serve_env
from tests.scenarios import COMPRESSOR, cutoff, day_marker, heads, land
from tests.support import FakeClock, deliver, late_push, publish_round

REPO = COMPRESSOR
DAY_TEXT = "2026-06-22"
END = cutoff(DAY_TEXT)
MARKER = day_marker(REPO, DAY_TEXT)


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
    client, repo = await land(app_client, github, clock, REPO, DAY_TEXT)
    clock.current = END + timedelta(seconds=1)
    github.lose_discussion_create()
    state, url = await publish_day(client.app, REPO, DAY)
    (discussion,) = repo.discussions
    assert (state, url) == ("published", discussion["url"])
    assert creates(github) == 1  # found by its marker, not made again


async def test_publish_again_tries_a_publication_backing_off_at_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY_TEXT)
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
    client, repo = await land(app_client, github, clock, REPO, DAY_TEXT)
    clock.current = END + timedelta(seconds=1)
    app = client.app
    store = app[STORE]
    row = await store.repos.by_name(REPO)
    assert row is not None
    lease = timedelta(seconds=app[SETTINGS].worker_lease_seconds)
    assert lease <= timedelta(minutes=1)  # a dead holder's work is taken over within a minute
    # A process claimed the day's publication and was killed before it posted anything.
    await store.jobs.enqueue(PublishPeriodPayload.of(row.id, Period.day(DAY)), clock.now())
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
    client, repo = await land(app_client, github, clock, REPO, DAY_TEXT)
    clock.current = END + timedelta(seconds=1)
    app = client.app
    store = app[STORE]
    row = await store.repos.by_name(REPO)
    assert row is not None
    await store.jobs.enqueue(PublishPeriodPayload.of(row.id, Period.day(DAY)), clock.now())
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


@pytest.mark.slow
async def test_publish_after_one_killed_mid_create_waits_out_its_lease_and_posts_once(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    github_url: str,
    database_url: str,
    private_key_pem: str,
) -> None:
    _, repo = await land(app_client, github, clock, REPO, DAY_TEXT)
    clock.current = datetime.now(UTC)  # the commands run on the real clock, so the fake does too
    # The default lease: a killed holder's is waited out (half a minute), never reported.
    env = serve_env(
        database_url=database_url, private_key_pem=private_key_pem, github_url=github_url
    )
    command = ("publish", "--repo", REPO, "--day", DAY.isoformat())
    # The first `publish` is killed while GitHub answers the create it has carried out.
    github.lose_discussion_create(hang=True)
    killed = await run_bot(*command, env=env)
    await asyncio.wait_for(github.hanging.wait(), timeout=120)
    assert len(repo.discussions) == 1
    killed.send_signal(signal.SIGKILL)
    await killed.wait()
    github.release.set()
    again = await run_bot(*command, env=env, stdout=PIPE, stderr=PIPE)
    out, err = await asyncio.wait_for(again.communicate(), timeout=120)
    (discussion,) = repo.discussions
    assert again.returncode == 0, (out, err)
    assert out.decode().strip() == f"commit-digest: published: {discussion['url']}"
    assert b"waiting for another process" in err
    assert creates(github) == 1  # the killed one's post, found by its marker


async def test_publish_of_a_day_whose_digest_a_maintainer_deleted_posts_it_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY_TEXT)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (old,) = repo.discussions
    github.delete_discussion(REPO, old["id"])  # a maintainer deletes it
    clock.advance(hours=1)
    state, url = await publish_day(client.app, REPO, DAY)
    # Not "skipped" with the address of a post that is gone: posted again, through the ledger.
    (new,) = repo.discussions
    assert new["id"] != old["id"] and new["url"] != old["url"]
    assert (state, url) == ("published", new["url"])
    # A day whose digest is there costs one look, and is not posted again.
    clock.advance(minutes=5)
    assert await publish_day(client.app, REPO, DAY) == ("skipped", new["url"])
    assert repo.discussions == [new]


async def test_publish_of_a_day_whose_issue_comment_a_maintainer_deleted_posts_it_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY_TEXT, config="publish:\n  to: issue-comment\n"
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (old,) = repo.comments
    github.delete_comment(REPO, old["id"])  # a maintainer deletes it
    clock.advance(hours=1)
    state, url = await publish_day(client.app, REPO, DAY)
    (new,) = repo.comments
    assert new["id"] != old["id"] and (state, url) == ("published", new["html_url"])
    clock.advance(minutes=5)
    assert await publish_day(client.app, REPO, DAY) == ("skipped", new["html_url"])
    assert repo.comments == [new]


async def test_publish_while_discussions_are_off_does_not_take_the_hidden_digest_for_deleted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY_TEXT)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    repo.has_discussions = False  # GitHub hides the discussions, NOT_FOUND by id
    clock.advance(hours=2)
    state, url = await publish_day(client.app, REPO, DAY)
    assert (state, url) == ("skipped", discussion["url"])
    repo.has_discussions = True
    assert heads(repo, MARKER) == [discussion]


async def test_a_late_commit_while_discussions_are_off_does_not_post_the_day_twice(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY_TEXT)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    repo.has_discussions = False
    late = late_push(repo.commits, REPO, DAY_TEXT, "b" * 40, "Fix the late bug (#4242)\n\nX.")
    clock.advance(hours=2)
    assert (await deliver(client, "push", late))[0] == 202
    await client.app[EXECUTOR].drain()
    for _ in range(4):
        await publish_round(client)
        clock.advance(minutes=30)
    repo.has_discussions = True
    for _ in range(4):
        await publish_round(client)
        clock.advance(hours=1)
    # The day is in its one discussion, the late commit added there once it can be reached.
    assert heads(repo, MARKER) == [discussion]
    assert "Fix the late bug" in "".join(
        [discussion["body"], *(c["body"] for c in discussion["comments"])]
    )


async def test_publish_while_issues_are_off_does_not_take_the_hidden_comment_for_deleted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY_TEXT, config="publish:\n  to: issue-comment\n"
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (comment,) = repo.comments
    repo.has_issues = False  # GitHub answers 410 and keeps the comments
    clock.advance(hours=1)
    await publish_day(client.app, REPO, DAY)
    repo.has_issues = True
    for _ in range(3):
        clock.advance(hours=1)
        await publish_round(client)
    assert await publish_day(client.app, REPO, DAY) == ("skipped", comment["html_url"])
    assert heads(repo, MARKER) == [comment]
