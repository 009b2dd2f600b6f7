"""Exactly once under GitHub's real faults: a create carried out then answered with a 502 or
never answered, a publisher whose lease expires mid-publish while another replica takes
over, and bad items (a config, a commit, a render) that must not stop or spin the rest."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

import bot.digest.render
import bot.jobs.publish.day
from bot.app import EXECUTOR, STORE
from bot.jobs.publish.day import PublishPeriod
from bot.store.jobs import JobKind
from bot.store.schema import commits, digests, jobs, posts
from tests.fakes.github import FakeGitHub
from tests.scenarios import (
    ASCEND,
    COMPRESSOR,
    CONFIG,
    cutoff,
    day_marker,
    first_post_kind,
    land,
    land_late,
    rows,
)
from tests.support import (
    FakeClock,
    deliver,
    deliver_replay,
    late_push,
    publish_round,
    replay_pushes,
)

REPO = COMPRESSOR
DAY = "2026-06-22"
END = cutoff(DAY)
OTHER = ASCEND


def marked(bodies: list[str], key: str) -> list[str]:
    return [b for b in bodies if day_marker(REPO, DAY, key) in b]


# --- a create GitHub carried out, answered with a 502 or not at all ----------------------------


@pytest.mark.parametrize("fault", ["502", "timeout"])
async def test_a_discussion_created_despite_a_502_or_a_timeout_is_not_created_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, fault: str
) -> None:
    # A timeout long enough for a loaded machine's answers, short enough for the hang.
    client, repo = await land(app_client, github, clock, REPO, DAY, github_timeout_seconds=2.0)
    github.lose_discussion_create(hang=fault == "timeout")
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    github.release.set()
    assert github.written_then_failed  # GitHub made the discussion; the App heard no success
    assert len(repo.discussions) == 1
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "pending" and job.last_error  # backed off, with the reason
    clock.advance(hours=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    creates = [c for c in github.calls if c.operation == "CreateDigestDiscussion"]
    assert len(creates) == 1  # never sent twice: the retry found it by its marker
    (record,) = await rows(client, digests)
    (post,) = await rows(client, posts)
    assert record.state == "published"
    assert (post.state, post.node_id) == ("posted", discussion["id"])


@pytest.mark.parametrize("path", [r"/issues$", r"/issues/\d+/comments$"])
async def test_an_issue_or_comment_created_despite_a_502_is_not_created_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, path: str
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY, config="publish:\n  to: issue-comment\n"
    )
    github.fail("POST", path, 502, after_write=True, message="Bad Gateway")
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    clock.advance(hours=1)
    await publish_round(client)
    assert github.written_then_failed
    (issue,) = repo.issues.values()  # the tracking issue carries a marker: found, not repeated
    assert issue["body"].startswith(f"<!-- commit-digest:{REPO}:tracking-issue -->")
    (comment,) = repo.comments
    assert marked([comment["body"]], "part-1")
    (record,) = await rows(client, digests)
    assert record.state == "published"


async def test_a_discussion_created_despite_a_502_stays_the_days_post_when_the_config_moves_it(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # GitHub made the day's discussion and answered 502; before the retry, the config sends
    # digests to issue comments. The retry finds the discussion by its marker where it was
    # sent: the day is not posted a second time, as a comment.
    client, repo = await land(app_client, github, clock, REPO, DAY)
    github.lose_discussion_create()
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    assert github.written_then_failed and len(repo.discussions) == 1
    repo.files[CONFIG] = "publish:\n  to: issue-comment\n"
    change = copy.deepcopy(replay_pushes(REPO, DAY)[0]["payload"])
    change["commits"][0]["modified"].append(CONFIG)
    await deliver(client, "push", change)
    await client.app[EXECUTOR].drain(kinds=[JobKind.REFRESH_CONFIG])
    clock.advance(hours=1)
    await publish_round(client)
    assert len(repo.discussions) == 1
    assert marked([c["body"] for c in repo.comments], "part-1") == []
    (record,) = await rows(client, digests)
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")


# --- a publisher that outlives its lease -------------------------------------------------------


async def test_a_publisher_whose_lease_expires_mid_publish_posts_nothing_more(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.digest.render, "BODY_LIMIT", 4_000)  # a digest of several posts
    first, repo = await land(app_client, github, clock, REPO, DAY, worker_lease_seconds=300)
    second = await app_client(worker_lease_seconds=300)  # another replica, same database
    # The first replica's second post hangs in flight (then fails) ...
    github.fail("POST", r"^/graphql$", 502, operation="AddDigestComment", hang=True)
    clock.current = END + timedelta(seconds=1)
    stalled = asyncio.create_task(publish_round(first))
    await github.hanging.wait()
    # ... past its lease: the second replica takes the job over and finishes the digest.
    clock.advance(seconds=301)
    await publish_round(second)
    (discussion,) = repo.discussions
    github.release.set()
    await stalled  # the first replica's create fails; it lost its lease and stops
    bodies = [discussion["body"]] + [c["body"] for c in discussion["comments"]]
    assert len(bodies) >= 2
    for number in range(1, len(bodies) + 1):
        assert len(marked(bodies, f"part-{number}")) == 1
    (record,) = await rows(client := second, digests)
    assert record.state == "published"
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "done" and job.lease_owner is None


# --- one bad item never stops or spins the others ---------------------------------------------


@pytest.mark.parametrize(
    "bad",
    ["not-utf-8", "recursion", "forbidden"],
)
async def test_a_bad_config_elsewhere_leaves_other_repositories_on_time_and_does_not_spin(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, bad: str
) -> None:
    github.serve_replay_day(REPO, DAY)
    other = github.serve_replay_day(OTHER, "2026-07-10")
    if bad == "not-utf-8":
        other.files[CONFIG] = b"timezone: \xff\xfe Asia/Shanghai\n"
    elif bad == "recursion":
        # Deeper than Python's recursion limit, well under the 64 KB a config may have.
        other.files[CONFIG] = "a: " + "[" * 5_000 + "]" * 5_000 + "\n"
    else:
        github.fail(
            "GET",
            rf"^/repos/{OTHER}/contents/",
            403,
            times=1_000,
            message="Resource not accessible by integration",
        )
    clock.current = END - timedelta(minutes=30)
    client = await app_client()
    for push in replay_pushes(OTHER, "2026-07-10")[:3] + replay_pushes(REPO, DAY):
        assert await deliver_replay(client, push) == 202
    executor = client.app[EXECUTOR]
    await executor.drain()
    stored = await rows(client, commits)
    assert {r.state for r in stored} == {
        "analyzed"
    }  # every repository's commits, the bad one's too
    fetches = len(github.calls_to("GET", rf"^/repos/{OTHER}/contents/"))
    assert 1 <= fetches <= 2
    # No hot loop: with nothing due, rounds find nothing and ask GitHub nothing.
    calls = len(github.calls)
    for _ in range(5):
        assert await executor.run_once() == 0
    assert len(github.calls) == calls
    stored_other = await client.app[STORE].repos.by_name(OTHER)
    assert stored_other is not None
    if bad != "forbidden":  # unreadable: said so (in the next digest), the defaults in force
        assert stored_other.config_error and CONFIG in stored_other.config_error
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = github.repos[REPO].discussions
    assert "**10 commits**" in discussion["body"]
    github.faults.clear()


async def test_an_empty_commit_message_still_ends_in_a_posted_digest(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo = github.serve_replay_day(REPO, DAY)
    clock.current = END - timedelta(minutes=30)
    client = await app_client(grace_minutes=10)
    push = copy.deepcopy(replay_pushes(REPO, DAY)[0]["payload"])
    sha = push["after"]
    push["commits"][0]["message"] = ""
    repo.commits[sha]["commit"]["message"] = ""
    assert (await deliver(client, "push", push))[0] == 202
    executor = client.app[EXECUTOR]
    for _ in range(10):  # whatever the analysers make of it, it settles or keeps backing off
        await executor.drain()
        clock.advance(minutes=1)
    clock.current = END + timedelta(minutes=11)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert sha[:7] in discussion["body"]
    (record,) = await rows(client, digests)
    assert record.state == "published"


async def test_a_render_error_ends_in_a_clearly_failed_job_not_a_loop(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)

    def broken(*_: Any, **__: Any) -> Any:
        raise ValueError("the renderer met something it cannot draw")

    monkeypatch.setattr(bot.jobs.publish.day, "render", broken)
    clock.current = END + timedelta(seconds=1)
    for _ in range(PublishPeriod.retry.attempts + 4):
        await publish_round(client)
        clock.advance(hours=2)  # past each backoff
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert (job.state, job.attempts) == ("failed", PublishPeriod.retry.attempts)
    assert "ValueError" in job.last_error and "cannot draw" in job.last_error
    (record,) = await rows(client, digests)
    assert record.state == "failed" and "cannot draw" in record.last_error
    assert repo.discussions == []


async def test_a_skipped_day_then_a_late_commit_gets_posted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # Every commit of the day is excluded, except the one that lands late.
    client, repo = await land(
        app_client,
        github,
        clock,
        REPO,
        DAY,
        config="exclude:\n  messages: ['^(?!Fix the late bug)']\n",
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    assert repo.discussions == []
    (record,) = await rows(client, digests)
    assert record.state == "skipped"
    await land_late(client, repo, clock, REPO, DAY)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert "Fix the late bug" in discussion["body"]
    (record,) = await rows(client, digests)
    assert record.state == "published"
    (row,) = await rows(client, commits, commits.c.sha == "b" * 40)
    assert row.published_part == "main"
    await publish_round(client)  # and nothing more: no busy loop, no second post
    assert len(repo.discussions) == 1


async def test_six_hundred_failed_commits_fit_in_posts_within_githubs_limit(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo = github.serve_replay_day(REPO, DAY)
    github.fail("GET", r"/commits/[0-9a-f]+$", 502, times=100_000)
    clock.current = END - timedelta(minutes=30)
    client = await app_client(worker_max_attempts=1, worker_concurrency=16)
    push = copy.deepcopy(replay_pushes(REPO, DAY)[0]["payload"])
    template = push["commits"][0]
    push["commits"] = [
        {
            **template,
            "id": f"{i:040x}",
            "message": f"[Bugfix] Repair the {i}th widget of the frobnicator " + "x" * 150,
        }
        for i in range(600)
    ]
    assert (await deliver(client, "push", push))[0] == 202
    await client.app[EXECUTOR].drain(rounds=1_000)
    assert set(await client.app[STORE].count_commits_by_state()) == {"failed"}
    clock.current = END + timedelta(seconds=1)
    github.faults.clear()
    await publish_round(client)
    (discussion,) = repo.discussions
    bodies = [discussion["body"]] + [c["body"] for c in discussion["comments"]]
    assert all(len(b) <= 65_536 for b in bodies)
    text = "\n".join(bodies)
    # Failed commits still appear, analysed by the rules from their stored message.
    assert "**600 commits**" in discussion["body"]
    assert "rules analysis of the stored message" in text


async def test_a_skipped_day_whose_late_publication_keeps_failing_ends_failed_not_looping(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, repo = await land(
        app_client,
        github,
        clock,
        REPO,
        DAY,
        config="exclude:\n  messages: ['^(?!Fix the late bug)']\n",
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    late = late_push(repo.commits, REPO, DAY, "b" * 40, "Fix the late bug (#4242)\n\nDetails.")
    assert (await deliver(client, "push", late))[0] == 202

    def broken(*_: Any, **__: Any) -> Any:
        raise ValueError("the renderer met something it cannot draw")

    monkeypatch.setattr(bot.jobs.publish.day, "render", broken)
    for _ in range(3 * PublishPeriod.retry.attempts):
        await publish_round(client)
        clock.advance(hours=2)  # past each backoff
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    # It ends failed once, with its reason; the scheduler does not start it over and over.
    assert job.state == "failed" and "cannot draw" in job.last_error
    (record,) = await rows(client, digests)
    assert record.state == "failed"
    assert repo.discussions == []


async def test_a_failed_addendum_is_not_started_over_until_a_new_commit_is_stored(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    assert len(repo.discussions) == 1

    async def late_commit(sha: str) -> None:
        message = f"Fix the late bug {sha[:4]} (#4242)\n\nDetails."
        push = late_push(repo.commits, REPO, DAY, sha, message)
        assert (await deliver(client, "push", push))[0] == 202

    await late_commit("b" * 40)

    def broken(*_: Any, **__: Any) -> Any:
        raise ValueError("the renderer met something it cannot draw")

    with monkeypatch.context() as patch:
        patch.setattr(bot.jobs.publish.day, "render_addendum", broken)
        for _ in range(3 * PublishPeriod.retry.attempts):
            await publish_round(client)
            clock.advance(hours=2)  # past each backoff
        (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
        # The addendum ended failed once, with its reason, and stays so: not a slow loop.
        assert job.state == "failed" and "cannot draw" in job.last_error
        assert job.attempts == PublishPeriod.retry.attempts
    (record,) = await rows(client, digests)
    assert record.state == "published"
    assert len(repo.discussions) == 1 and repo.discussions[0]["comments"] == []

    # A commit stored after the failure starts the publication again, and both late commits
    # go out in one addendum.
    await late_commit("c" * 40)
    await publish_round(client)
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "done"
    (comment,) = repo.discussions[0]["comments"]
    assert "b" * 7 in comment["body"] and "c" * 7 in comment["body"]
