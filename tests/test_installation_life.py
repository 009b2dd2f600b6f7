"""An installation's life, end to end: suspended across a cutoff (the day waits, then posts
late), a repository removed and added again (its post ledger kept), the installation deleted
while a digest's create is in flight (nothing written after the purge). Each day is posted
exactly once."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bot.app import EXECUTOR, STORE
from bot.github.errors import suspended_reason
from bot.store.jobs import JobKind
from bot.store.schema import commits, digests, jobs, posts, repositories
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.scenarios import COMPRESSOR, cutoff, land, land_late, rows
from tests.support import (
    FakeClock,
    deliver,
    publish_round,
    replay_pushes,
    webhook_payload,
)

REPO = COMPRESSOR
DAY = "2026-06-22"
END = cutoff(DAY)


def _ids() -> tuple[int, dict[str, Any]]:
    """The replay's installation id and its repository, as installation events name it."""
    payload = replay_pushes(REPO, DAY)[0]["payload"]
    repo = payload["repository"]
    ref = {
        "id": repo["id"],
        "node_id": repo["node_id"],
        "name": repo["name"],
        "full_name": repo["full_name"],
        "private": False,
    }
    return int(payload["installation"]["id"]), ref


def _installation_event(action: str) -> dict[str, Any]:
    installation_id, ref = _ids()
    event = copy.deepcopy(webhook_payload("installation/created"))
    event["action"] = action
    event["installation"]["id"] = installation_id
    event["repositories"] = [ref]
    return event


def _repositories_event(action: str) -> dict[str, Any]:
    installation_id, ref = _ids()
    event = copy.deepcopy(webhook_payload(f"installation_repositories/{action}"))
    event["installation"]["id"] = installation_id
    event["repositories_added"] = [ref] if action == "added" else []
    event["repositories_removed"] = [ref] if action == "removed" else []
    return event


def _bodies(repo: FakeRepo) -> list[str]:
    return [d["body"] for d in repo.discussions] + [
        c["body"] for d in repo.discussions for c in d["comments"]
    ]


async def test_a_suspension_across_the_cutoff_posts_the_day_late_once_unsuspended(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    installation_id, _ = _ids()
    # Suspended at 23:30, half an hour before the cutoff.
    github.suspend(installation_id)
    assert (await deliver(client, "installation", _installation_event("suspend")))[0] == 202
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    assert repo.discussions == []
    # The day's job waits, no attempt spent, instead of failing as "not installed".
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "pending" and job.attempts == 0
    assert job.last_error == suspended_reason(installation_id)
    clock.advance(minutes=30)
    await publish_round(client)
    assert repo.discussions == []
    # Unsuspended at 01:00: the event wakes the day's job, and it posts, saying it is late.
    clock.current = END + timedelta(hours=1)
    github.unsuspend(installation_id)
    assert (await deliver(client, "installation", _installation_event("unsuspend")))[0] == 202
    await client.app[EXECUTOR].drain()
    (discussion,) = repo.discussions
    assert "Published late" in discussion["body"]
    (record,) = await rows(client, digests)
    assert record.state == "published"
    for _ in range(3):
        clock.advance(hours=1)
        await publish_round(client)
    assert len(repo.discussions) == 1


async def test_a_job_of_a_suspended_installation_waits_even_before_the_event_comes(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # No `suspend` event yet (or lost): the token's 403 alone pauses the job.
    client, repo = await land(app_client, github, clock, REPO, DAY)
    installation_id, _ = _ids()
    github.suspend(installation_id)
    clock.current = END + timedelta(seconds=1)
    for _ in range(3):
        await publish_round(client)
        clock.advance(minutes=20)
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_PERIOD.value)
    assert job.state == "pending" and job.attempts == 0
    # Nothing woke it, so it asks again after the recheck interval, and then posts.
    github.unsuspend(installation_id)
    clock.advance(hours=6)
    await publish_round(client)
    assert len(repo.discussions) == 1


async def test_a_repository_removed_and_added_again_adds_a_late_commit_to_its_posted_day(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    ledger = await rows(client, posts)
    assert ledger
    # Unticked in the installation's settings: its work stops, its rows stay.
    clock.advance(hours=1)
    removed = _repositories_event("removed")
    assert (await deliver(client, "installation_repositories", removed))[0] == 202
    assert await client.app[STORE].repos.all() == []
    assert [tuple(p) for p in await rows(client, posts)] == [tuple(p) for p in ledger]
    clock.advance(hours=1)
    await publish_round(client)
    # Ticked again, then a commit of the posted day reaches the App late.
    added = _repositories_event("added")
    assert (await deliver(client, "installation_repositories", added))[0] == 202
    (row,) = await rows(client, repositories)
    assert row.removed_at is None
    await land_late(client, repo, clock, REPO, DAY, hours=1)
    for _ in range(3):
        await publish_round(client)
        clock.advance(hours=1)
    # One Discussion for the day; the late commit is its addendum.
    assert [d["id"] for d in repo.discussions] == [discussion["id"]]
    assert "Fix the late bug" not in discussion["body"]
    assert sum("Fix the late bug" in body for body in _bodies(repo)) == 1


async def test_a_deletion_during_a_create_leaves_no_row_after_the_purge(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    clock.current = END + timedelta(seconds=1)
    # The Discussion's create is in flight (GitHub takes its time), then carried out.
    github.hold("POST", r"^/graphql$", operation="CreateDigestDiscussion")
    publishing = asyncio.create_task(publish_round(client))
    await github.hanging.wait()
    installation_id, _ = _ids()
    deleted = copy.deepcopy(webhook_payload("installation/deleted"))
    deleted["installation"]["id"] = installation_id
    assert (await deliver(client, "installation", deleted))[0] == 202
    github.installations.pop(installation_id)
    github.release.set()
    await publishing
    for _ in range(2):
        clock.advance(hours=1)
        await publish_round(client)
    # Nothing of the repository is left, and nothing was written after the purge.
    for table in (repositories, posts, digests, commits):
        assert await rows(client, table) == [], table.name
    assert len(repo.discussions) == 1  # made on GitHub before the deletion reached it


async def test_a_removed_repository_waits_and_its_day_posts_once_when_added_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land(app_client, github, clock, REPO, DAY)
    removed = _repositories_event("removed")
    assert (await deliver(client, "installation_repositories", removed))[0] == 202
    calls = len(github.calls)
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    # Its work stopped: nothing asked of GitHub for it, nothing posted, no job failed.
    assert repo.discussions == [] and len(github.calls) == calls
    assert "failed" not in {j.state for j in await rows(client, jobs)}
    clock.advance(hours=2)
    added = _repositories_event("added")
    assert (await deliver(client, "installation_repositories", added))[0] == 202
    await client.app[EXECUTOR].drain()
    for _ in range(3):
        await publish_round(client)
        clock.advance(hours=1)
    (discussion,) = repo.discussions
    assert "Published late" in discussion["body"]
