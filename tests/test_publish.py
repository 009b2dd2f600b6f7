"""Publishing at the cutoff, exactly once, against the fake GitHub: discussions, continuation
comments, crashes between a post and its record, racing schedulers, fallbacks, late commits."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

import bot.digest.render
from bot.app import EXECUTOR, SCHEDULER, STORE
from bot.cli.publish import publish_day
from bot.store.jobs import Job, JobKind
from bot.store.posts import PostLedger
from bot.store.schema import commits, digests, posts
from tests.fakes.github import FakeGitHub
from tests.processes import run_bot, serve_env
from tests.scenarios import (
    COMPRESSOR,
    Client,
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
END = cutoff(DAY)  # the day's cutoff (UTC, 00:00)
MARKER = day_marker(REPO, DAY)


async def test_the_day_is_posted_as_a_discussion_at_its_cutoff(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY, scheduler_max_sleep_seconds=86_400
    )
    wake_at = await publish_round(client)
    assert repo.discussions == []  # not before the cutoff
    assert wake_at == END  # it wakes for the earliest cutoff
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert discussion["title"] == f"Daily digest — {REPO} — {DAY}"
    assert discussion["category"]["slug"] == "general"
    assert discussion["body"].startswith(MARKER)
    assert "**10 commits**" in discussion["body"] and "Published late" not in discussion["body"]
    (record,) = await rows(client, digests)
    assert (record.state, record.late, await first_post_kind(client, record)) == (
        "published",
        False,
        "discussion",
    )
    (post,) = await rows(client, posts)
    assert (post.key, post.state, post.url) == ("part-1", "posted", discussion["url"])
    assert {r.published_part for r in await rows(client, commits)} == {"main"}
    # Nothing more to do: the next round posts nothing.
    clock.advance(hours=1)
    await publish_round(client)
    assert len(repo.discussions) == 1
    assert len(github.calls_to("POST", "/graphql")) == len(
        [c for c in github.calls if c.path == "/graphql"]
    )


async def test_pending_commits_get_a_grace_period_then_the_rules(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client,
        github,
        clock,
        REPO,
        DAY,
        analyse=False,
        grace_minutes=10,
        scheduler_max_sleep_seconds=86_400,
    )
    scheduler = client.app[SCHEDULER]
    clock.current = END + timedelta(seconds=1)
    assert await scheduler.run_once() == END + timedelta(minutes=10)
    assert repo.discussions == []
    clock.current = END + timedelta(minutes=10)
    await scheduler.run_once()
    # Only the publication runs: the analyses were not done in time.
    await client.app[EXECUTOR].drain(kinds=[JobKind.PUBLISH_PERIOD])
    (discussion,) = repo.discussions
    assert "not analysed by the cutoff's grace period" in discussion["body"]
    assert set(await client.app[STORE].count_commits_by_state()) == {"analyzed"}
    # The analyses, had they been slow rather than idle, may not overwrite what was published.
    assert await client.app[EXECUTOR].run_once() == 0


async def test_a_crash_between_posting_and_recording_does_not_post_twice(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    real = PostLedger.record
    crashed = False

    async def crash_once(*args: Any, **kwargs: Any) -> None:
        nonlocal crashed
        if not crashed:
            crashed = True
            raise RuntimeError("process killed after the post, before its record")
        await real(*args, **kwargs)

    monkeypatch.setattr(PostLedger, "record", staticmethod(crash_once))
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)  # the job dies: recorded as an error, retried later
    assert len(repo.discussions) == 1
    # The retry finds its post by the marker instead of creating it again.
    clock.advance(hours=1)
    await publish_round(client)
    assert len(repo.discussions) == 1
    creates = [c for c in github.calls if c.operation == "CreateDigestDiscussion"]
    assert len(creates) == 1
    (record,) = await rows(client, digests)
    (post,) = await rows(client, posts)
    assert record.state == "published" and post.node_id == repo.discussions[0]["id"]


async def test_continuation_parts_are_comments_posted_once_across_a_crash(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.digest.render, "BODY_LIMIT", 4_000)
    client, repo = await land(app_client, github, clock, REPO, DAY)
    real = PostLedger.record
    calls = 0

    async def crash_on_second(*args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("killed after posting part 2")
        await real(*args, **kwargs)

    monkeypatch.setattr(PostLedger, "record", staticmethod(crash_on_second))
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    clock.advance(hours=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    bodies = [discussion["body"]] + [c["body"] for c in discussion["comments"]]
    keys = [b.split(":part-")[1].split(" ")[0] for b in bodies]
    assert keys == [str(i) for i in range(1, len(bodies) + 1)]  # each part once, in order
    assert len(bodies) >= 2
    assert all(len(b) <= 4_000 for b in bodies)
    recorded = await rows(client, posts)
    assert sorted(p.key for p in recorded) == sorted(f"part-{i}" for i in range(1, len(bodies) + 1))
    assert {p.state for p in recorded} == {"posted"}


async def test_two_schedulers_racing_post_one_digest(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    first, repo = await land(app_client, github, clock, REPO, DAY)
    second = await app_client()  # another replica on the same database
    clock.current = END + timedelta(seconds=1)
    await asyncio.gather(publish_round(first), publish_round(second))
    assert len(repo.discussions) == 1
    assert len([c for c in github.calls if c.operation == "CreateDigestDiscussion"]) == 1


@pytest.mark.parametrize(
    ("setup", "config", "reason"),
    [
        ("disabled", None, "Discussions are turned off in this repository."),
        (None, "publish:\n  category: Daily\n", "the discussion category “Daily” does not exist."),
        ("forbidden", None, "Discussions: write"),
    ],
)
async def test_discussion_impossible_falls_back_to_an_issue_comment(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    setup: str | None,
    config: str | None,
    reason: str,
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY, config=config)
    repo.has_discussions = setup != "disabled"
    repo.discussions_forbidden = setup == "forbidden"
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    assert repo.discussions == []
    (issue,) = repo.issues.values()
    assert issue["title"] == "Commit digest"
    (comment,) = repo.comments
    assert comment["body"].startswith(MARKER)
    assert f"## Daily digest — {REPO} — {DAY}" in comment["body"]
    assert reason in comment["body"]
    (tracking,) = await rows(client, posts, posts.c.key == "tracking-issue")
    assert (tracking.number, tracking.state) == (issue["number"], "posted")
    assert issue["body"].startswith(f"<!-- commit-digest:{REPO}:tracking-issue -->")


async def test_the_tracking_issue_is_created_once_and_reused(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY, config="publish:\n  to: issue-comment\n"
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    # The next day lands (a later push of the same history) and is published to the same issue.
    push = copy.deepcopy(replay_pushes(REPO, DAY)[0]["payload"])
    push["repository"]["pushed_at"] = int((END + timedelta(hours=3)).timestamp())
    push["commits"][0]["id"] = push["after"] = "a" * 40
    repo.commits["a" * 40] = {
        **copy.deepcopy(repo.commits[replay_pushes(REPO, DAY)[0]["payload"]["after"]]),
        "sha": "a" * 40,
    }
    await deliver(client, "push", push)
    await client.app[EXECUTOR].drain()
    clock.current = END + timedelta(days=1, seconds=1)
    await publish_round(client)
    assert len(repo.issues) == 1
    assert [c["body"].split("\n")[0] for c in repo.comments] == [
        MARKER,
        f"<!-- commit-digest:{REPO}:2026-06-23:part-1 -->",
    ]


async def test_a_configured_issue_gets_the_comment(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY, config="publish:\n  to: issue-comment\n  issue: 7\n"
    )
    repo.issues[7] = {
        "id": 1,
        "number": 7,
        "title": "Digests",
        "body": "",
        "html_url": "u",
        "node_id": "I_1",
        "state": "open",
    }
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (comment,) = repo.comments
    assert comment["issue_number"] == 7 and comment["body"].startswith(MARKER)


async def test_a_late_commit_is_added_as_an_addendum(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    # A push of that day arrives hours after the digest went out (a redelivery, an outage).
    await land_late(client, repo, clock, REPO, DAY)
    await publish_round(client)
    (discussion,) = repo.discussions
    (addendum,) = discussion["comments"]
    assert addendum["body"].startswith(f"<!-- commit-digest:{REPO}:{DAY}:addendum-1 -->")
    assert "Addendum: 1 more commits of 2026-06-22" in addendum["body"]
    assert "Fix the late bug" in addendum["body"]
    (row,) = await rows(client, commits, commits.c.sha == "b" * 40)
    assert row.published_part == "addendum-1"
    await publish_round(client)
    assert len(discussion["comments"]) == 1


async def test_a_day_of_excluded_commits_posts_nothing(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY, config="exclude:\n  messages: ['.']\n"
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    assert repo.discussions == [] and repo.comments == []
    (record,) = await rows(client, digests)
    assert record.state == "skipped"


async def test_quiet_days_are_posted_when_asked(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY, config="skip_empty_days: false\n"
    )
    clock.current = END + timedelta(days=2, seconds=1)  # two more days passed, both quiet
    await publish_round(client)
    titles = sorted(d["title"] for d in repo.discussions)
    assert titles == [f"Daily digest — {REPO} — 2026-06-2{i}" for i in (2, 3, 4)]
    quiet = next(d for d in repo.discussions if d["title"].endswith("2026-06-23"))
    assert "No commits landed on 2026-06-23." in quiet["body"]


async def test_days_missed_while_down_are_caught_up_once_and_marked_late(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(days=3)  # the App was down at the cutoff
    await publish_round(client)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert "Published late" in discussion["body"]
    (record,) = await rows(client, digests)
    assert record.late is True


async def test_a_config_error_is_reported_in_the_next_digest_only(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY, config="timezone: Mars/Olympus\n"
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert "`timezone`" in discussion["body"] and "IANA" in discussion["body"]
    (stored,) = await client.app[STORE].repos.all()
    assert stored.config_error_reported is True


async def test_publish_command_path_publishes_now_with_rules_for_the_rest(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY, analyse=False)
    stored = await client.app[STORE].repos.by_name(REPO)
    assert stored is not None
    executor = client.app[EXECUTOR]
    await client.app[SCHEDULER].publish_now(stored, date(2026, 6, 22))
    await executor.drain(kinds=[JobKind.PUBLISH_PERIOD])
    (record,) = await rows(client, digests)
    assert record.state == "published" and len(repo.discussions) == 1
    assert "not analysed by the cutoff's grace period" in repo.discussions[0]["body"]
    await client.app[SCHEDULER].publish_now(stored, date(2026, 6, 22))
    await executor.drain(kinds=[JobKind.PUBLISH_PERIOD])
    assert len(repo.discussions) == 1


async def test_publish_command_runs_the_publication_armed_again_behind_another_replica(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two `publish` commands at once: replica A holds the job when this one asks, so asking
    # arms it to run once more, and A's run ends after this one's drain found nothing to claim.
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    app = client.app
    store, scheduler, executor = app[STORE], app[SCHEDULER], app[EXECUTOR]
    held: list[Job] = []
    ask, drain = scheduler.publish_now, executor.drain

    async def asked_while_replica_a_holds_it(repo_row: Any, day: date) -> None:
        await ask(repo_row, day)
        held.extend(
            (
                await store.jobs.claim(
                    clock.now(),
                    owner="replica-a",
                    limit=1,
                    lease=timedelta(minutes=5),
                    max_attempts={JobKind.PUBLISH_PERIOD: 8},
                    kinds=[JobKind.PUBLISH_PERIOD],
                )
            )[0]
        )
        await ask(repo_row, day)

    async def replica_a_ends_after_this_drain(**kwargs: Any) -> None:
        await drain(**kwargs)
        if held:
            assert await store.jobs.finish(held.pop(), clock.now())

    monkeypatch.setattr(scheduler, "publish_now", asked_while_replica_a_holds_it)
    monkeypatch.setattr(executor, "drain", replica_a_ends_after_this_drain)
    state, url = await publish_day(app, REPO, date(2026, 6, 22))
    assert state == "published"
    (discussion,) = repo.discussions
    assert url == discussion["url"]


async def test_publish_command_says_what_its_own_run_posted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    day = date(2026, 6, 22)
    state, url = await publish_day(client.app, REPO, day)
    (discussion,) = repo.discussions
    assert (state, url) == ("published", discussion["url"])
    assert await publish_day(client.app, REPO, day) == ("skipped", discussion["url"])
    # A push of that day arrives after the digest went out: this run posts its addendum.
    late = late_push(repo.commits, REPO, DAY, "b" * 40, "Fix the late bug (#4242)\n\nDetails.")
    clock.advance(hours=5)
    assert (await deliver(client, "push", late))[0] == 202
    assert await publish_day(client.app, REPO, day) == ("addendum", discussion["url"])
    assert len(discussion["comments"]) == 1
    assert await publish_day(client.app, REPO, day) == ("skipped", discussion["url"])


async def test_publish_command_that_could_not_post_exits_non_zero(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    github_url: str,
    database_url: str,
    private_key_pem: str,
) -> None:
    _, repo = await land(app_client, github, clock, REPO, DAY)
    # The same database, and a GitHub that holds the App off for an hour: nothing can be
    # posted now. (Not one that does not answer: the command would spend seconds in
    # backoff before saying so.) The command runs on the real clock, so the fake does too.
    clock.current = datetime.now(UTC)
    github.secondary_rate_limit("POST", r"/access_tokens$", retry_after=3600, times=10)
    before = len(github.calls)
    env = serve_env(
        database_url=database_url, private_key_pem=private_key_pem, github_url=github_url
    )
    publish = await run_bot(
        "publish", "--repo", REPO, "--day", DAY, env=env, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await publish.communicate()
    assert publish.returncode == 1, out
    assert b"deferred" in out and b"not posted" in out
    assert [(c.path.rsplit("/", 1)[-1], c.status) for c in github.calls[before:]] == [
        ("access_tokens", 403)
    ]
    assert repo.discussions == []


async def test_metrics_count_deliveries_commits_github_calls_and_digests(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, _ = await land(app_client, github, clock, REPO, DAY)
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])  # a redelivery
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    response = await client.get("/metrics")
    assert response.status == 200
    text = await response.text()
    assert 'commit_digest_deliveries_total{event="push",outcome="ok",status="202"} 10.0' in text
    assert 'commit_digest_deliveries_total{event="push",outcome="ok",status="200"} 1.0' in text
    assert 'commit_digest_commits{state="analyzed"} 10.0' in text
    assert 'commit_digest_jobs{kind="analyse_commit",state="done"} 10.0' in text
    assert 'commit_digest_jobs{kind="publish_period",state="done"} 1.0' in text
    assert 'commit_digest_github_calls_total{method="GET",status="200"}' in text
    assert 'commit_digest_digests_total{outcome="published"} 1.0' in text
    assert 'commit_digest_analysis_seconds_count{analyzer="rules"} 10.0' in text


async def test_a_config_change_seen_late_by_another_replica_still_puts_commits_in_their_day(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """The day of a commit is decided when the day is published, from the config then in
    force; a replica whose cached view of the repository is a minute old changes nothing."""
    repo = github.serve_replay_day(REPO, DAY)
    repo.files[".github/commit-digest.yml"] = "timezone: Asia/Shanghai\n"
    clock.current = END - timedelta(minutes=30)
    first, second = await app_client(), await app_client()  # two replicas, one database
    pushes = [copy.deepcopy(p["payload"]) for p in replay_pushes(REPO, DAY)[:4]]
    # All four landed after 16:00 UTC on the 22nd: the 23rd in Shanghai, the 22nd in UTC.
    await deliver(first, "push", pushes[0])
    await first.app[EXECUTOR].drain()
    await deliver(second, "push", pushes[1])  # the second replica now knows the repository
    await second.app[EXECUTOR].drain()
    # The file is deleted (UTC applies again), through the first replica.
    del repo.files[".github/commit-digest.yml"]
    pushes[2]["commits"][0]["removed"].append(".github/commit-digest.yml")
    await deliver(first, "push", pushes[2])
    await first.app[EXECUTOR].drain()
    # A push reaches the second replica while its view of the repository is still cached.
    await deliver(second, "push", pushes[3])
    await second.app[EXECUTOR].drain()
    clock.current = END + timedelta(seconds=1)
    await publish_round(first)
    (discussion,) = repo.discussions
    assert discussion["title"].endswith(DAY)
    assert "**4 commits**" in discussion["body"]
    clock.current = END + timedelta(days=1, seconds=1)
    await publish_round(first)
    assert len(repo.discussions) == 1  # nothing was left behind for the 23rd


async def test_a_fix_links_the_commit_it_fixes_however_long_ago_it_landed(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY, config="language: en\n")
    await publish_round_at(client, clock, END + timedelta(seconds=1))
    # Three weeks later, a fix names one of that day's pull requests.
    first = replay_pushes(REPO, DAY)[0]["payload"]["commits"][0]
    fixed_pr = int(first["message"].split("\n", 1)[0].rsplit("(#", 1)[1].rstrip(")"))
    later = END + timedelta(days=21)
    fix = late_push(
        repo.commits, REPO, DAY, "f" * 40, f"Fix a crash introduced in #{fixed_pr} (#99999)"
    )
    fix["repository"]["pushed_at"] = int((later - timedelta(hours=2)).timestamp())
    clock.current = later - timedelta(hours=2)
    assert (await deliver(client, "push", fix))[0] == 202
    await client.app[EXECUTOR].drain()
    await publish_round_at(client, clock, later + timedelta(seconds=1))
    (digest,) = [
        d for d in repo.discussions if f":{(later - timedelta(days=1)).date()}:part-1" in d["body"]
    ]
    assert f"follow-up fix to [`{first['id'][:7]}`]" in digest["body"]
    assert f"/commit/{first['id']})" in digest["body"]


async def publish_round_at(client: Client, clock: FakeClock, at: datetime) -> None:
    clock.current = at
    await publish_round(client)
