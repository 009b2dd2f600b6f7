"""Posts at the edges, through the webhook, the jobs and the fake GitHub: two jobs that meet at
the tracking issue make it once; a deleted post is made again, not taken for a repository
gone; an unclear create is looked for where it went, whatever the config says now."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

import bot.digest.render
import bot.posts.targets
from bot.app import EXECUTOR, SCHEDULER, STORE
from bot.store.jobs import JobKind
from bot.store.schema import digests, jobs, posts
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.scenarios import (
    ALERT_DAY,
    BUSY_DAY,
    COMMIT_LINK,
    COMPRESSOR,
    CONFIG,
    FOLD,
    TRACKING,
    add_issue,
    breaking_sha,
    cutoff,
    day_marker,
    first_post_kind,
    heads,
    land,
    land_alert_day,
    land_late,
    landing_again,
    rows,
    written,
)
from tests.scenarios import ALERT_MARKER as ALERT
from tests.scenarios import ASCEND as ALERT_REPO
from tests.support import FakeClock, deliver, late_push, publish_round, replay_pushes

REPO = COMPRESSOR
DAY = "2026-06-22"
END = cutoff(DAY)
MARKER = day_marker(REPO, DAY)


Client = TestClient[Any, Any]


async def test_a_job_that_finds_the_tracking_issue_being_created_waits_and_never_makes_a_second(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "publish:\n  to: issue-comment\nalerts:\n  on: [breaking]\n  to: issue\n"
    # GitHub takes its time creating the tracking issue the day's alert asks for.
    github.hold("POST", rf"^/repos/{ALERT_REPO}/issues$")
    landing = asyncio.create_task(land_alert_day(app_client, github, clock, config=config))
    await asyncio.wait_for(github.hanging.wait(), timeout=60)
    # Meanwhile a maintainer publishes the day by hand, on another replica.
    other = await app_client()
    row = await other.app[STORE].repos.by_name(ALERT_REPO)
    await other.app[SCHEDULER].publish_now(row, date.fromisoformat(ALERT_DAY))
    await other.app[EXECUTOR].drain(kinds=[JobKind.PUBLISH_PERIOD])
    assert len(github.calls_to("POST", rf"^/repos/{ALERT_REPO}/issues$")) == 1
    (waiting,) = await rows(other, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert waiting.state == "pending" and "creating" in waiting.last_error
    github.release.set()
    client, repo = await landing
    clock.advance(minutes=2)
    await other.app[EXECUTOR].drain()
    await client.app[EXECUTOR].drain()
    (issue,) = repo.issues.values()
    assert TRACKING.match(issue["body"])
    assert len(github.calls_to("POST", rf"^/repos/{ALERT_REPO}/issues$")) == 1
    firsts = {c["body"].split("\n", 1)[0]: c["issue_number"] for c in repo.comments}
    assert firsts == {
        f"<!-- commit-digest:{ALERT_REPO}:alert:{breaking_sha()} -->": issue["number"],
        day_marker(ALERT_REPO, ALERT_DAY): issue["number"],
    }
    (tracking,) = await rows(client, posts, posts.c.key == "tracking-issue")
    assert (tracking.state, tracking.number) == ("posted", issue["number"])
    done = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert [(j.state, j.last_error) for j in done] == [("done", None)]


async def test_a_job_that_finds_the_tracking_issue_posted_just_before_it_takes_over_makes_no_second(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = "publish:\n  to: issue-comment\nalerts:\n  on: [breaking]\n  to: issue\n"
    github.hold("POST", rf"^/repos/{ALERT_REPO}/issues$")
    landing = asyncio.create_task(land_alert_day(app_client, github, clock, config=config))
    await asyncio.wait_for(github.hanging.wait(), timeout=60)
    other = await app_client()
    searched = bot.posts.targets._search

    async def search_then_let_the_first_finish(*args: Any) -> Any:
        # The other job's search found nothing; the first job's create ends and is recorded
        # before the other job records its own intent.
        found = await searched(*args)
        github.release.set()
        for _ in range(10_000):
            row = await rows(other, posts, posts.c.key == "tracking-issue")
            if row and row[0].state == "posted":
                break
            await asyncio.sleep(0)
        return found

    monkeypatch.setattr(bot.posts.targets, "_search", search_then_let_the_first_finish)
    row = await other.app[STORE].repos.by_name(ALERT_REPO)
    await other.app[SCHEDULER].publish_now(row, date.fromisoformat(ALERT_DAY))
    await other.app[EXECUTOR].drain(kinds=[JobKind.PUBLISH_PERIOD])
    client, repo = await landing
    clock.advance(minutes=2)
    await other.app[EXECUTOR].drain()
    await client.app[EXECUTOR].drain()
    assert len(github.calls_to("POST", rf"^/repos/{ALERT_REPO}/issues$")) == 1
    (issue,) = repo.issues.values()
    (tracking,) = await rows(client, posts, posts.c.key == "tracking-issue")
    assert (tracking.state, tracking.number) == ("posted", issue["number"])
    firsts = {c["body"].split("\n", 1)[0]: c["issue_number"] for c in repo.comments}
    assert firsts == {
        f"<!-- commit-digest:{ALERT_REPO}:alert:{breaking_sha()} -->": issue["number"],
        day_marker(ALERT_REPO, ALERT_DAY): issue["number"],
    }
    done = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert [(j.state, j.last_error) for j in done] == [("done", None)]


async def test_a_deleted_digest_is_posted_whole_again_when_a_late_commit_comes(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (old,) = repo.discussions
    github.delete_discussion(REPO, old["id"])  # a maintainer deletes the day's digest
    await land_late(client, repo, clock, REPO, DAY)
    await publish_round(client)
    (new,) = repo.discussions
    assert new["id"] != old["id"] and new["body"].startswith(MARKER)
    assert "Fix the late bug" in new["body"] and new["comments"] == []
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert (job.state, job.last_error) == ("done", None)
    (record,) = await rows(client, digests)
    assert record.state == "published"
    (head,) = await rows(client, posts, posts.c.period == f"day:{DAY}")
    assert (head.key, head.node_id, head.state) == ("part-1", new["id"], "posted")


async def test_a_deleted_fold_of_alerts_is_made_again_and_later_alerts_go_on(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 1\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    github.delete_discussion(ALERT_REPO, fold["id"])  # a maintainer deletes "more alerts"
    high = next(
        c["id"]
        for p in replay_pushes(ALERT_REPO, BUSY_DAY)
        for c in p["payload"]["commits"]
        if c["message"].startswith("[Refactor] remove layer sharding")
    )
    again = landing_again(repo, BUSY_DAY, high, "d" * 40)
    assert (await deliver(client, "push", again))[0] == 202
    await client.app[EXECUTOR].drain()
    clock.advance(minutes=1)  # the fold is edited (or made again) at most once a minute
    await client.app[EXECUTOR].drain()
    (remade,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    assert remade["id"] != fold["id"]
    assert set(COMMIT_LINK.findall(fold["body"])) < set(COMMIT_LINK.findall(remade["body"]))
    done = await rows(client, jobs, jobs.c.kind == JobKind.SEND_ALERTS.value)
    assert {(j.state, j.last_error) for j in done} == {("done", None)}


async def test_one_not_found_on_a_continuation_part_is_retried_and_the_day_completed(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.digest.render, "BODY_LIMIT", 4_000)
    client, repo = await land(app_client, github, clock, REPO, DAY)
    # GitHub answers NOT_FOUND once for the discussion it has just made.
    github.graphql_not_found("AddDigestComment", "addDiscussionComment")
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert discussion["comments"] == []
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "pending" and "NOT_FOUND" in job.last_error
    assert await rows(client, digests) == []  # not failed: not finished yet
    clock.advance(minutes=5)
    await publish_round(client)
    (same,) = repo.discussions
    bodies = [same["body"]] + [c["body"] for c in same["comments"]]
    keys = [b.split(":part-")[1].split(" ")[0] for b in bodies]
    assert len(keys) >= 2 and keys == [str(i) for i in range(1, len(bodies) + 1)]
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert (job.state, job.last_error) == ("done", None)
    assert [r.state for r in await rows(client, digests)] == ["published"]


async def test_a_repository_gone_is_told_by_a_repository_lookup_and_ends_quietly(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    await land_late(client, repo, clock, REPO, DAY)
    github.revoke(REPO)  # the repository deleted, or the App removed from it
    await publish_round(client)
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert (job.state, job.attempts) == ("failed", 1)
    assert github.calls_to("POST", r"^/graphql$")[-1].operation == "RepoDiscussionSetup"
    # Nothing forgotten: the repository is not the App's to post in.
    (head,) = await rows(client, posts, posts.c.key == "part-1")
    assert head.node_id == repo.discussions[0]["id"]


async def config_moves(client: Client, repo: FakeRepo, config: str, *, day: str) -> None:
    """A push changes the repository's config, and the App reads it."""
    repo.files[CONFIG] = config
    change = copy.deepcopy(replay_pushes(repo.full_name, day)[0]["payload"])
    change["commits"][0]["modified"].append(CONFIG)
    assert (await deliver(client, "push", change))[0] in {200, 202}
    await client.app[EXECUTOR].drain(kinds=[JobKind.REFRESH_CONFIG])


async def test_a_digest_created_despite_a_502_is_found_in_its_category_after_the_config_moves(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    github.lose_discussion_create()
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    assert github.written_then_failed and len(repo.discussions) == 1
    await config_moves(client, repo, "publish:\n  category: Announcements\n", day=DAY)
    clock.advance(hours=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert discussion["category"]["slug"] == "general"  # where it was sent
    (record,) = await rows(client, digests)
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")
    (head,) = await rows(client, posts, posts.c.key == "part-1")
    assert (head.state, head.node_id, head.parent) == (
        "posted",
        discussion["id"],
        discussion["category"]["id"],
    )


def category_goes(repo: FakeRepo, how: str) -> None:
    """The Announcements category is renamed, or removed (its discussions move to General)."""
    (announcements,) = [c for c in repo.categories if c["slug"] == "announcements"]
    if how == "renamed":
        announcements.update(name="News", slug="news")
        for d in repo.discussions:
            if d["category"]["id"] == announcements["id"]:
                d["category"].update(name="News", slug="news")
        return
    repo.categories.remove(announcements)
    for d in repo.discussions:
        if d["category"]["id"] == announcements["id"]:
            d["category"] = dict(repo.categories[0])


@pytest.mark.parametrize("how", ["config names none", "renamed", "removed"])
async def test_a_digest_created_despite_a_502_is_not_posted_again_when_its_category_is_gone(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, how: str
) -> None:
    # GitHub made the day's discussion and answered 502; before the retry, the category the
    # config names no longer exists (the config names another, or the category was renamed
    # or removed). The retry looks where the create went: the day is not posted again on
    # the tracking issue.
    announcements = "publish:\n  category: Announcements\n"
    client, repo = await land(app_client, github, clock, REPO, DAY, config=announcements)
    github.lose_discussion_create()
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    assert github.written_then_failed and len(repo.discussions) == 1
    if how == "config names none":
        await config_moves(client, repo, "publish:\n  category: Ideas\n", day=DAY)
    else:
        category_goes(repo, how)
    clock.advance(hours=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert [c for c in repo.comments if MARKER in c["body"]] == []
    assert repo.issues == {}  # no tracking issue was made for a fallback
    (record,) = await rows(client, digests)
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")
    (head,) = await rows(client, posts, posts.c.key == "part-1")
    assert (head.state, head.kind, head.node_id) == ("posted", "discussion", discussion["id"])


async def test_an_alert_created_despite_a_502_is_found_in_its_category_after_the_config_moves(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    github.lose_discussion_create()
    client, repo = await land_alert_day(app_client, github, clock)
    assert github.written_then_failed
    config = "alerts:\n  on: [breaking]\n  category: Announcements\n"
    await config_moves(client, repo, config, day=ALERT_DAY)
    clock.advance(minutes=5)
    await client.app[EXECUTOR].drain()
    (alert,) = [d for d in repo.discussions if ALERT.search(d["body"])]
    assert alert["category"]["slug"] == "general"
    done = await rows(client, jobs, jobs.c.kind == JobKind.SEND_ALERTS.value)
    assert {(j.state, j.last_error) for j in done} == {("done", None)}


async def test_an_alert_comment_created_despite_a_502_is_found_on_its_issue_after_the_config_moves(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    github.fail("POST", rf"^/repos/{ALERT_REPO}/issues/\d+/comments$", 502, after_write=True)
    config = "alerts:\n  on: [breaking]\n  to: issue\n"
    client, repo = await land_alert_day(app_client, github, clock, config=config)
    assert github.written_then_failed
    (tracking,) = repo.issues.values()
    add_issue(repo, 4242)  # a maintainer opens an issue for the digests, and names it
    await config_moves(client, repo, config + "publish:\n  issue: 4242\n", day=ALERT_DAY)
    clock.advance(minutes=5)
    await client.app[EXECUTOR].drain()
    (alert,) = [c for c in repo.comments if ALERT.search(c["body"])]
    assert alert["issue_number"] == tracking["number"]  # where it was sent
    done = await rows(client, jobs, jobs.c.kind == JobKind.SEND_ALERTS.value)
    assert {(j.state, j.last_error) for j in done} == {("done", None)}


# --- an unclear create whose place cannot be looked at (issue 18) -----------------------------


@pytest.mark.parametrize("how", ["off", "forbidden"])
async def test_a_digest_made_despite_a_502_waits_while_its_discussions_cannot_be_read(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, how: str
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    github.lose_discussion_create()
    await publish_round(client)
    assert github.written_then_failed and len(repo.discussions) == 1
    # Turned off (or the App's Discussions permission revoked) during the backoff.
    if how == "off":
        repo.has_discussions = False
    else:
        repo.discussions_unreadable = True
    for _ in range(4):
        clock.advance(minutes=30)
        await publish_round(client)
    assert not repo.comments  # no copy on the tracking issue
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "pending" and "cannot be looked for" in (job.last_error or "")
    repo.has_discussions, repo.discussions_unreadable = True, False
    clock.advance(hours=1)
    await publish_round(client)
    assert heads(repo, MARKER) == repo.discussions
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "done"
    (record,) = await rows(client, digests)
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")


async def test_a_digest_left_unclear_while_discussions_stay_off_goes_to_the_issue_in_the_end(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", message="Bad")
    await publish_round(client)
    assert not repo.discussions
    repo.has_discussions = False
    for _ in range(8):
        clock.advance(hours=1)
        await publish_round(client)
    (head,) = heads(repo, MARKER)  # nothing lost: past the wait, on the tracking issue
    assert head in repo.comments
    (record,) = await rows(client, digests)
    assert (record.state, await first_post_kind(client, record)) == ("published", "issue-comment")


async def test_the_wait_for_an_unclear_create_runs_from_the_create_sent_last(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    # The first create fails plainly (nothing made), and the job backs off.
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", message="Bad")
    await publish_round(client)
    assert not repo.discussions
    # Seven hours later the create is sent again: GitHub makes it but answers 502.
    clock.advance(hours=7)
    github.lose_discussion_create()
    await publish_round(client)
    assert github.written_then_failed and len(repo.discussions) == 1
    repo.has_discussions = False  # turned off before the job could look for it
    clock.advance(minutes=30)
    await publish_round(client)
    # Six hours have not passed since that create: the job waits, no copy on the issue.
    assert not repo.comments
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "pending" and "cannot be looked for" in (job.last_error or "")
    repo.has_discussions = True
    clock.advance(hours=1)
    await publish_round(client)
    assert heads(repo, MARKER) == repo.discussions


async def part_two_unclear_then_discussions_off(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Client, FakeRepo]:
    """A day of three parts or more: GitHub makes its second part, a comment on the day's
    discussion, then answers 502; a maintainer turns Discussions off during the backoff."""
    monkeypatch.setattr(bot.digest.render, "BODY_LIMIT", 4_000)
    client, repo = await land(app_client, github, clock, REPO, DAY)
    github.fail(
        "POST", r"^/graphql$", 502, operation="AddDigestComment", after_write=True, message="Bad"
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert github.written_then_failed and len(discussion["comments"]) == 1
    repo.has_discussions = False
    return client, repo


async def test_a_part_made_despite_a_502_waits_while_discussions_are_off_not_split_or_twice(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, repo = await part_two_unclear_then_discussions_off(
        app_client, github, clock, monkeypatch
    )
    for _ in range(4):
        clock.advance(minutes=30)
        await publish_round(client)
    assert not repo.comments  # no part on the tracking issue: the day is not split
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "pending" and "cannot be looked for" in (job.last_error or "")
    repo.has_discussions = True
    clock.advance(hours=1)
    await publish_round(client)
    assert not repo.comments
    (same,) = repo.discussions
    bodies = [same["body"]] + [c["body"] for c in same["comments"]]
    keys = [b.split(":part-")[1].split(" ")[0] for b in bodies]
    assert len(keys) >= 3 and keys == [str(i) for i in range(1, len(bodies) + 1)]
    (record,) = await rows(client, digests)
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")


# --- late commits while the day's discussion is hidden (issue 18) -------------------------


async def published_with_addendum(
    client: Client, github: FakeGitHub, clock: FakeClock, repo: FakeRepo, sha: str, title: str
) -> None:
    late = late_push(repo.commits, REPO, DAY, sha, f"{title}\n\nDetails.")
    assert (await deliver(client, "push", late))[0] == 202
    await client.app[EXECUTOR].drain()


async def test_an_addendum_made_despite_a_502_then_discussions_off_waits_not_fails_the_day(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    # A late commit: its addendum, a comment on the day's discussion, is made but answered 502.
    clock.advance(hours=2)
    github.fail(
        "POST", r"^/graphql$", 502, operation="AddDigestComment", after_write=True, message="Bad"
    )
    await published_with_addendum(client, github, clock, repo, "b" * 40, "Fix the late bug (#4242)")
    await publish_round(client)
    assert github.written_then_failed and len(discussion["comments"]) == 1
    # A maintainer turns Discussions off during the backoff, for an afternoon (5 hours).
    repo.has_discussions = False
    for _ in range(10):
        clock.advance(minutes=30)
        await publish_round(client)
    # As for a day's later part (README): the day waits, spending no attempt; it is not failed.
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "pending", (job.state, job.last_error)
    repo.has_discussions = True
    for _ in range(3):
        clock.advance(hours=1)
        await publish_round(client)
    assert sum("Fix the late bug" in b for b in written(repo)) == 1
    (record,) = await rows(client, digests)
    assert record.state == "published"
    added = await rows(client, posts, posts.c.key.like("addendum-1%"))
    assert added and {a.state for a in added} == {"posted"}


async def test_an_addendum_while_discussions_stay_off_for_hours_is_not_lost(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    repo.has_discussions = False  # turned off for a working day (8 hours)
    clock.advance(hours=2)
    await published_with_addendum(client, github, clock, repo, "b" * 40, "Fix the late bug (#4242)")
    for _ in range(16):
        await publish_round(client)
        clock.advance(minutes=30)
    repo.has_discussions = True
    for _ in range(4):
        await publish_round(client)
        clock.advance(hours=1)
    # The late commit is posted once, somewhere; the day is not failed.
    assert sum("Fix the late bug" in b for b in written(repo)) == 1
    (record,) = await rows(client, digests)
    assert record.state == "published", record.last_error


async def test_a_day_split_after_the_wait_says_why_on_the_issue(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, repo = await part_two_unclear_then_discussions_off(
        app_client, github, clock, monkeypatch
    )
    for _ in range(9):  # Discussions stay off past the 6-hour wait
        clock.advance(hours=1)
        await publish_round(client)
    assert repo.comments, "past the wait the remaining parts are on the issue"
    (record,) = await rows(client, digests)
    assert record.state == "published"
    # Part 1 stays in the hidden discussion: each part on the issue says why.
    on_issue = [c["body"] for c in repo.comments if c["body"].startswith(MARKER.split(":part")[0])]
    assert on_issue and all("Posted as an issue comment" in b for b in on_issue)
