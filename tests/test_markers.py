"""A post found by its marker is the App's own: the markers are predictable, and anyone may
copy one into a comment or an issue; adopting that post would edit a stranger's text and leave
the App's real post as a second copy."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

import bot.digest.render
from bot.store.schema import posts
from tests.fakes.github import FakeGitHub
from tests.scenarios import COMPRESSOR, cutoff, day_marker, land, rows
from tests.support import FakeClock, publish_round

REPO = COMPRESSOR
DAY = "2026-06-22"
END = cutoff(DAY)


async def test_a_discussion_comment_carrying_a_copied_marker_is_not_adopted(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The markers are predictable; anyone may comment on a Discussion. Once the App's create
    # of part 2 is answered with a 502 (after GitHub made it), its marker search must find
    # its own comment, not a stranger's comment that carries the same marker.
    monkeypatch.setattr(bot.digest.render, "BODY_LIMIT", 4_000)
    client, repo = await land(app_client, github, clock, REPO, DAY)
    github.fail(
        "POST", r"^/graphql$", 502, operation="AddDigestComment", after_write=True, message="Bad"
    )
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    own = discussion["comments"][0]
    stranger = {
        "id": "DC_mallory",
        "databaseId": 1,
        "body": f"Me too <!-- commit-digest:{REPO}:{DAY}:part-2 -->",
        "url": f"{discussion['url']}#discussioncomment-1",
        "author_login": "mallory",
    }
    discussion["comments"].insert(0, stranger)  # older than the App's own, so found first
    clock.advance(hours=1)
    await publish_round(client)
    assert stranger["body"].startswith("Me too")  # not edited into the App's part
    part_2 = day_marker(REPO, DAY, "part-2")
    assert len([c for c in discussion["comments"] if part_2 in c["body"]]) == 2
    (post,) = [p for p in await rows(client, posts) if p.key == "part-2"]
    assert post.node_id == own["id"]


async def test_an_issue_carrying_the_tracking_marker_is_not_adopted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY, config="publish:\n  to: issue-comment\n"
    )
    github.fail("POST", r"/issues$", 502, after_write=True, message="Bad Gateway")
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (own,) = repo.issues.values()
    repo.issues[own["number"] + 1] = {
        **own,
        "id": 99,
        "number": own["number"] + 1,
        "html_url": f"https://github.com/{REPO}/issues/{own['number'] + 1}",
        "user": {"login": "mallory", "type": "User"},
    }
    clock.advance(hours=1)
    await publish_round(client)
    (comment,) = repo.comments
    assert comment["issue_number"] == own["number"]  # the App's own tracking issue


async def test_an_issue_comment_carrying_a_copied_marker_is_not_adopted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(
        app_client, github, clock, REPO, DAY, config="publish:\n  to: issue-comment\n"
    )
    github.fail("POST", r"/issues/\d+/comments$", 502, after_write=True, message="Bad Gateway")
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (own,) = repo.comments
    stranger = {
        **own,
        "id": 1,
        "node_id": "IC_1",
        "body": f"<!-- commit-digest:{REPO}:{DAY}:part-1 --> spam",
        "user": {"login": "mallory", "type": "User"},
    }
    repo.comments.insert(0, stranger)
    clock.advance(hours=1)
    await publish_round(client)
    assert stranger["body"].endswith("spam")
    (post,) = [p for p in await rows(client, posts) if p.key == "part-1"]
    assert post.node_id == str(own["id"])
