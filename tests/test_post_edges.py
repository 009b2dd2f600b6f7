"""Posts at the edges, through the webhook, the jobs and the fake GitHub: two jobs that meet at
the tracking issue make it once; a deleted post is made again, not taken for a repository
gone; an unclear create is looked for where it went, whatever the config says now."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import date
from typing import Any

import sqlalchemy as sa
from aiohttp.test_utils import TestClient

from bot.app import EXECUTOR, SCHEDULER, STORE
from bot.store.jobs import JobKind
from bot.store.schema import jobs, posts
from tests.fakes.github import FakeGitHub
from tests.support import FakeClock
from tests.test_alert_posts import DAY as ALERT_DAY
from tests.test_alert_posts import REPO as ALERT_REPO
from tests.test_alert_posts import breaking_sha
from tests.test_alert_posts import landed as alert_day_landed
from tests.test_issue_gone import TRACKING, day_marker

Client = TestClient[Any, Any]


async def rows(client: Client, table: sa.Table, *where: Any) -> list[Any]:
    async with client.app[STORE].engine.connect() as conn:
        return list(await conn.execute(sa.select(table).where(*where)))


async def test_a_job_that_finds_the_tracking_issue_being_created_waits_and_never_makes_a_second(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "publish:\n  to: issue-comment\nalerts:\n  on: [breaking]\n  to: issue\n"
    # GitHub takes its time creating the tracking issue the day's alert asks for.
    github.hold("POST", rf"^/repos/{ALERT_REPO}/issues$")
    landing = asyncio.create_task(alert_day_landed(app_client, github, clock, config=config))
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
