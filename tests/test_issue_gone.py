"""Posts on an issue that is gone, through the webhook, the jobs and the fake GitHub: the App's
tracking issue deleted is made again (once, whatever runs at the same time) and a day posted
on it is posted whole on the new one when a late commit comes; a configured issue that does
not exist gives way to the tracking issue, saying why; Issues turned off are waited out; a
repository that is gone still ends its work quietly."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import structlog
from structlog.testing import LogCapture

from bot.app import EXECUTOR, SCHEDULER
from bot.jobs.publish import posting
from bot.store.jobs import JobKind
from bot.store.schema import commits, digests, jobs, posts
from tests.fakes.github import FakeGitHub
from tests.scenarios import (
    ALERT_DAY,
    ASCEND,
    BUSY_DAY,
    COMMIT_LINK,
    COMPRESSOR,
    FOLD,
    TRACKING,
    add_issue,
    breaking_sha,
    cutoff,
    day_marker,
    first_post_kind,
    land,
    land_alert_day,
    land_late,
    landing_again,
    rows,
)
from tests.support import FakeClock, deliver, publish_round, replay_pushes

REPO = COMPRESSOR
DAY = "2026-06-22"
END = cutoff(DAY)
MARKER = day_marker(REPO, DAY)
ALERT_END = cutoff(ALERT_DAY)
TO_ISSUE = "publish:\n  to: issue-comment\n"


def quoted(body: str) -> list[str]:
    """The post's quoted lines (where a digest tells readers why it is where it is)."""
    return [line for line in body.splitlines() if line.startswith("> ")]


async def test_a_deleted_tracking_issue_is_made_again_once_for_a_digest_and_alerts_at_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "publish:\n  to: issue-comment\nalerts:\n  on: [breaking]\n  to: issue\n"
    client, repo = await land_alert_day(app_client, github, clock, config=config)
    clock.current = ALERT_END + timedelta(seconds=1)
    await publish_round(client)
    (old,) = repo.issues.values()
    assert TRACKING.match(old["body"])
    assert len(repo.comments) == 2  # the day's alert, then its digest
    github.delete_issue(ASCEND, old["number"])
    # The next day a breaking commit lands: its alert is due at once, and so is the day's
    # digest at the cutoff; two replicas run them side by side.
    sha = breaking_sha()
    tomorrow = landing_again(repo, ALERT_DAY, sha, "d" * 40)
    tomorrow["repository"]["pushed_at"] = int((ALERT_END + timedelta(hours=1)).timestamp())
    clock.current = ALERT_END + timedelta(hours=1)
    assert (await deliver(client, "push", tomorrow))[0] == 202
    await client.app[EXECUTOR].drain(
        kinds=[JobKind.REFRESH_CONFIG, JobKind.EXPAND_RANGE, JobKind.ANALYSE_COMMIT]
    )
    clock.current = ALERT_END + timedelta(days=1, seconds=1)
    await client.app[SCHEDULER].run_once()
    other = await app_client()
    await asyncio.gather(
        client.app[EXECUTOR].drain(kinds=[JobKind.SEND_ALERTS]),
        other.app[EXECUTOR].drain(kinds=[JobKind.PUBLISH_PERIOD]),
    )
    clock.advance(minutes=2)  # one of them may have waited for the other's new issue
    await asyncio.gather(client.app[EXECUTOR].drain(), other.app[EXECUTOR].drain())
    (new,) = repo.issues.values()
    assert new["number"] != old["number"] and TRACKING.match(new["body"])
    assert len(github.calls_to("POST", rf"^/repos/{ASCEND}/issues$")) == 2
    bodies = {c["body"].split("\n", 1)[0]: c["issue_number"] for c in repo.comments}
    assert bodies == {
        f"<!-- commit-digest:{ASCEND}:alert:{'d' * 40} -->": new["number"],
        day_marker(ASCEND, "2026-06-18"): new["number"],
    }
    done = await rows(
        client, jobs, jobs.c.kind.in_([JobKind.SEND_ALERTS.value, JobKind.PUBLISH_PERIOD.value])
    )
    assert {(j.state, j.last_error) for j in done} == {("done", None)}
    (tracking,) = await rows(client, posts, posts.c.key == "tracking-issue")
    assert (tracking.state, tracking.number) == ("posted", new["number"])


async def test_a_deleted_comment_the_app_would_edit_is_posted_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 1\n  to: issue\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    (issue,) = repo.issues.values()
    (fold,) = [c for c in repo.comments if FOLD.search(c["body"])]
    repo.comments.remove(fold)  # a maintainer deletes the "more alerts" comment
    # Another high commit of the day is analysed: the fold, edited as it grows, is gone.
    high = next(
        c["id"]
        for p in replay_pushes(ASCEND, BUSY_DAY)
        for c in p["payload"]["commits"]
        if c["message"].startswith("[Refactor] remove layer sharding")
    )
    assert (await deliver(client, "push", landing_again(repo, BUSY_DAY, high, "d" * 40)))[0] == 202
    await client.app[EXECUTOR].drain()
    clock.advance(minutes=1)  # the fold is written at most once a minute
    await client.app[EXECUTOR].drain()
    (again,) = [c for c in repo.comments if FOLD.search(c["body"])]
    assert again["id"] != fold["id"] and again["issue_number"] == issue["number"]
    assert set(COMMIT_LINK.findall(fold["body"])) < set(COMMIT_LINK.findall(again["body"]))
    assert list(repo.issues) == [issue["number"]]
    clock.advance(minutes=1)  # a fold job asked to run again meanwhile waits out its minute
    await client.app[EXECUTOR].drain()
    kinds = [JobKind.SEND_ALERTS.value, JobKind.FOLD_ALERTS.value]
    done = await rows(client, jobs, jobs.c.kind.in_(kinds))
    assert {(j.state, j.last_error) for j in done} == {("done", None)}


async def test_a_late_commit_of_a_day_posted_on_a_deleted_issue_posts_the_day_whole_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY, config=TO_ISSUE)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (old,) = repo.issues.values()
    (first,) = repo.comments
    (published,) = await rows(client, digests)
    github.delete_issue(REPO, old["number"])
    await land_late(client, repo, clock, REPO, DAY)
    await publish_round(client)
    (new,) = repo.issues.values()
    assert new["number"] != old["number"] and TRACKING.match(new["body"])
    (comment,) = repo.comments
    assert comment["issue_number"] == new["number"]
    # The day as a reader needs it: all of it, the late commit with the rest, not an addendum
    # to a post nobody can see any more.
    assert comment["body"].startswith(MARKER)
    assert "**11 commits**" in comment["body"] and "Fix the late bug" in comment["body"]
    assert first["body"].split("**10 commits**")[0] in comment["body"]
    (record,) = await rows(client, digests)
    assert (record.state, await first_post_kind(client, record)) == ("published", "issue-comment")
    assert record.published_at == published.published_at  # first published then, not now
    assert {r.published_part for r in await rows(client, commits)} == {"main"}
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert (job.state, job.attempts) == ("done", 1)
    clock.advance(hours=1)
    await publish_round(client)
    assert len(repo.comments) == 1 and len(repo.issues) == 1


async def test_a_day_that_fell_back_to_a_deleted_issue_is_posted_again_where_posts_go_now(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    repo.has_discussions = False
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (old,) = repo.issues.values()
    (first,) = repo.comments
    assert first["body"].startswith(MARKER) and not repo.discussions
    github.delete_issue(REPO, old["number"])
    repo.has_discussions = True
    await land_late(client, repo, clock, REPO, DAY)
    await publish_round(client)
    # The issue took the day's posts with it, and nothing keeps the day there: it is posted
    # whole where posts go now, a Discussion, as a first publication would be.
    (discussion,) = repo.discussions
    assert discussion["body"].startswith(MARKER) and "**11 commits**" in discussion["body"]
    assert not repo.comments and not repo.issues
    (record,) = await rows(client, digests)
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")


async def test_a_configured_issue_that_does_not_exist_gives_way_to_the_tracking_issue(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    logged = LogCapture()
    monkeypatch.setattr(
        posting, "log", raising=False, value=structlog.wrap_logger(None, processors=[logged])
    )
    client, repo = await land(
        app_client,
        github,
        clock,
        REPO,
        DAY,
        config="publish:\n  to: issue-comment\n  issue: 99999\n",
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (issue,) = repo.issues.values()
    assert TRACKING.match(issue["body"])
    (comment,) = repo.comments
    assert comment["issue_number"] == issue["number"] and comment["body"].startswith(MARKER)
    (why,) = [line for line in quoted(comment["body"]) if "99999" in line]
    assert "`publish.issue`" in why and "tracking issue" in why
    assert "#99999" not in why.replace("`#99999`", "")  # no reference to an issue (FACTS §9)
    (record,) = await rows(client, digests)
    assert (record.state, await first_post_kind(client, record)) == ("published", "issue-comment")
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert (job.state, job.attempts) == ("done", 1)
    warned = [(e["event"], e.get("issue")) for e in logged.entries if e["log_level"] == "warning"]
    assert warned == [("configured_issue_gone", 99999)]


@pytest.mark.parametrize("where", ["tracking", "configured"])
async def test_issues_turned_off_are_waited_out_and_the_post_goes_out_once_they_are_back(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, where: str
) -> None:
    # No Discussions either: the digest can only be an issue comment. Either the tracking
    # issue is still to be made, or the comment goes to a configured issue that exists.
    config = None if where == "tracking" else "publish:\n  to: issue-comment\n  issue: 7\n"
    client, repo = await land(app_client, github, clock, REPO, DAY, config=config)
    if where == "configured":
        add_issue(repo, 7)
    repo.has_discussions = False
    repo.has_issues = False
    clock.current = END + timedelta(seconds=1)
    for attempt in (1, 2):
        await publish_round(client)
        (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
        assert (job.state, job.attempts) == ("pending", attempt)  # tried again, not failed
        assert "Issues are turned off" in job.last_error
        assert job.not_before - clock.now() == timedelta(minutes=2**attempt)
        clock.current = job.not_before
    assert await rows(client, digests, digests.c.state == "failed") == []
    assert repo.comments == [] and list(repo.issues) == ([7] if where == "configured" else [])
    repo.has_issues = True
    await publish_round(client)
    (comment,) = repo.comments
    assert comment["body"].startswith(MARKER)
    number = 7 if where == "configured" else next(iter(repo.issues))
    assert comment["issue_number"] == number and len(repo.issues) == 1
    (record,) = await rows(client, digests)
    assert record.state == "published"
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "done"


async def test_a_repository_gone_still_ends_its_posting_quietly(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY, config=TO_ISSUE)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (issue,) = repo.issues.values()
    await land_late(client, repo, clock, REPO, DAY)
    github.revoke(REPO)  # the repository deleted, or the App removed from it
    await publish_round(client)
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert (job.state, job.attempts) == ("failed", 1)
    assert github.calls_to("GET", rf"^/repos/{REPO}$")[-1].status == 404
    # Nothing forgotten, nothing made again: the repository is not the App's to post in.
    (tracking,) = await rows(client, posts, posts.c.key == "tracking-issue")
    assert tracking.number == issue["number"]
    assert len(github.calls_to("POST", rf"^/repos/{REPO}/issues$")) == 1
    clock.advance(hours=2)
    await publish_round(client)
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert (job.state, job.attempts) == ("failed", 1)


async def test_a_404_from_an_issue_that_is_there_forgets_nothing_and_makes_nothing_twice(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # GitHub may answer the first comment on an issue it has just made with a 404 (a read
    # replica behind, an outage): the issue is there, so nothing is made again.
    client, repo = await land(app_client, github, clock, REPO, DAY, config=TO_ISSUE)
    github.fail("POST", rf"^/repos/{REPO}/issues/\d+/comments$", 404, message="Not Found")
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (issue,) = repo.issues.values()
    assert repo.comments == []
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert (job.state, job.attempts) == ("pending", 1)
    (tracking,) = await rows(client, posts, posts.c.key == "tracking-issue")
    assert (tracking.state, tracking.number) == ("posted", issue["number"])
    clock.current = job.not_before
    await publish_round(client)
    (comment,) = repo.comments
    assert comment["issue_number"] == issue["number"] and comment["body"].startswith(MARKER)
    assert list(repo.issues) == [issue["number"]]
    assert len(github.calls_to("POST", rf"^/repos/{REPO}/issues$")) == 1
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "done"
