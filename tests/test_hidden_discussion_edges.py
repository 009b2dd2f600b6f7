"""A day whose discussion GitHub hides for a while (Discussions turned off), through the
webhook, the jobs and the fake GitHub: a part or an addendum sent to the issue meanwhile is
never made again in the discussion once it is back, and a rate made during a brief toggle
waits for it even when an older edit was left pending. A comment GitHub refuses on the day's
discussion (no write permission, or the discussion locked) goes to the issue instead."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import bot.digest.render
from bot.app import EXECUTOR
from bot.store.schema import digests
from tests.command_support import (
    ASCEND,
    DAY,
    Client,
    command,
    day_text,
    in_issue,
    land_command_day,
    section_of,
    stored,
)
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.scenarios import COMPRESSOR, cutoff, land, rows, written
from tests.scenarios import day_marker as marker_of
from tests.support import FakeClock, deliver, late_push, publish_round

CUTOFF_PASSED = datetime(2026, 6, 18, 0, 30, tzinfo=UTC)


async def published(app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock) -> Any:
    client, fake = await land_command_day(app_client, github, clock)
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    assert len(fake.discussions) == 1
    return client, fake


SPLIT_DAY = "2026-06-22"


async def split_day(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Client, FakeRepo]:
    """A day of three parts or more: part 2 made despite a 502, Discussions then off for good:
    past the wait the remaining parts go to the issue."""
    monkeypatch.setattr(bot.digest.render, "BODY_LIMIT", 4_000)
    client, repo = await land(app_client, github, clock, COMPRESSOR, SPLIT_DAY)
    github.fail(
        "POST", r"^/graphql$", 502, operation="AddDigestComment", after_write=True, message="Bad"
    )
    clock.current = cutoff(SPLIT_DAY) + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert github.written_then_failed and len(discussion["comments"]) == 1
    repo.has_discussions = False
    for _ in range(9):
        clock.advance(hours=1)
        await publish_round(client)
    assert repo.comments
    return client, repo


async def test_an_addendum_made_on_the_issue_despite_a_502_is_not_made_again_in_the_discussion(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """Discussions off for a working day: past the wait the addendum goes to the issue, and
    GitHub makes that comment but answers 502. The maintainer turns Discussions back on during
    the backoff. The retry must find the comment on the issue, not post the addendum again in
    the discussion."""
    client, fake = await published(app_client, github, clock)
    fake.has_discussions = False
    clock.advance(hours=1)
    sha = "b" * 40
    late = late_push(fake.commits, ASCEND, DAY, sha, "Fix the late bug (#4242)\n\nDetails.")
    assert (await deliver(client, "push", late))[0] == 202
    await client.app[EXECUTOR].drain()
    github.fail("POST", r"^/repos/[^/]+/[^/]+/issues/\d+/comments$", 502, after_write=True)
    for _ in range(16):
        clock.advance(minutes=30)
        await publish_round(client)
        if github.written_then_failed:
            break
    assert github.written_then_failed, "the addendum's issue comment was made, answered 502"
    fake.has_discussions = True
    for _ in range(4):
        clock.advance(hours=1)
        await publish_round(client)
    shown = [b for b in written(fake) if "Fix the late bug" in b]
    assert len(shown) == 1, f"the addendum is posted {len(shown)} times"


async def test_a_split_days_part_made_on_the_issue_despite_a_502_is_not_made_again(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Part 2's create in the discussion fails (502, nothing made); Discussions are turned off
    during the backoff and stay off past the wait; part 2 then goes to the issue, where GitHub
    makes it but answers 502. Discussions come back during that backoff: part 2 should not be
    posted again, in the discussion."""
    monkeypatch.setattr(bot.digest.render, "BODY_LIMIT", 4_000)
    client, repo = await land(app_client, github, clock, COMPRESSOR, SPLIT_DAY)
    github.fail("POST", r"^/graphql$", 502, operation="AddDigestComment", message="Bad")
    clock.current = cutoff(SPLIT_DAY) + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert discussion["comments"] == []
    repo.has_discussions = False
    github.fail("POST", r"^/repos/[^/]+/[^/]+/issues/\d+/comments$", 502, after_write=True)
    for _ in range(9):
        clock.advance(hours=1)
        await publish_round(client)
        if github.written_then_failed:
            break
    assert github.written_then_failed and len(repo.comments) == 1
    repo.has_discussions = True
    for _ in range(4):
        clock.advance(hours=1)
        await publish_round(client)
    part2 = marker_of(COMPRESSOR, SPLIT_DAY, "part-2")
    copies = [b for b in written(repo) if b.startswith(part2)]
    assert len(copies) == 1, f"part 2 is posted {len(copies)} times"


async def test_a_rate_during_a_brief_toggle_waits_even_when_an_older_edit_was_kept(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """An edit kept pending after a long Discussions-off spell (README: made by the day's
    next run). Weeks later Discussions are off for ten minutes while a maintainer rates
    another commit: that rate is the day's next run, and should wait its own 6 hours, not
    give up at once because the older rating is old."""
    client, fake = await published(app_client, github, clock)
    lows = [c for c in await stored(client) if (c.analysis or {}).get("importance") == "low"]
    first, second = lows[0], lows[1]
    fake.has_discussions = False
    await command(
        client, github, in_issue(github, f"/digest rate {first.sha[:7]} high", repo=ASCEND)
    )
    for _ in range(16):
        clock.advance(minutes=30)
        await publish_round(client)
    fake.has_discussions = True
    clock.advance(days=3)
    await publish_round(client)
    fake.has_discussions = False  # a brief toggle, ten minutes
    await command(
        client, github, in_issue(github, f"/digest rate {second.sha[:7]} high", repo=ASCEND)
    )
    await publish_round(client)
    clock.advance(minutes=10)
    fake.has_discussions = True
    for _ in range(6):
        clock.advance(minutes=30)
        await publish_round(client)
    assert "🔴" in (section_of(day_text(fake), second.sha) or ""), "the brief toggle lost it"


async def test_a_late_commit_is_not_lost_when_the_app_may_read_but_not_write_discussions(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await published(app_client, github, clock)
    fake.discussions_forbidden = True  # read kept, write taken away: comments are refused
    clock.advance(hours=1)
    late = late_push(fake.commits, ASCEND, DAY, "b" * 40, "Fix the late bug (#4242)\n\nDetails.")
    assert (await deliver(client, "push", late))[0] == 202
    await client.app[EXECUTOR].drain()
    for _ in range(3):
        clock.advance(hours=1)
        await publish_round(client)
    (record,) = await rows(client, digests)
    shown = [b for b in written(fake) if "Fix the late bug" in b]
    assert (record.state, len(shown)) == ("published", 1), (record.state, record.last_error)
    (on_issue,) = [c["body"] for c in fake.comments if "Fix the late bug" in c["body"]]
    assert "GitHub refused a comment on the day's discussion" in on_issue


async def test_later_parts_github_refuses_as_comments_go_to_the_issue_saying_why(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.digest.render, "BODY_LIMIT", 4_000)
    client, repo = await land(app_client, github, clock, COMPRESSOR, SPLIT_DAY)
    # The discussion is made; GitHub refuses every comment on it (FORBIDDEN).
    github.graphql_forbidden("AddDigestComment", "addDiscussionComment", times=1000)
    clock.current = cutoff(SPLIT_DAY) + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    assert discussion["comments"] == []
    later = [c["body"] for c in repo.comments if ":part-" in c["body"].split("\n", 1)[0]]
    assert len(later) >= 2 and all(":part-1 " not in b.split("\n", 1)[0] for b in later)
    assert all("GitHub refused a comment on the day's discussion" in b for b in later)
    (record,) = await rows(client, digests)
    assert record.state == "published"
