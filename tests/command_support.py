"""What the `/digest` command tests share: an installed repository with a maintainer, a
replay day landed, a command delivered and its jobs run, and its one reply checked."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.app import EXECUTOR, STORE
from bot.store.digests import DayCommit
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.markdown import parse as parse_md
from tests.scenarios import ASCEND, Client, land
from tests.support import FakeClock, deliver, replay_pushes, webhook_payload

REPO = "octo-org/widgets"
MAINTAINER = "maria"
# GitHub's limit on a comment's body (FACTS.md §3).
BODY_LIMIT = 65_536
DAY = "2026-06-17"


async def app_with_repo(
    app_client: Callable[..., Any], github: FakeGitHub, *, repo: str = REPO, **roles: str
) -> tuple[Client, FakeRepo]:
    """The App installed on the repository (its config read), `maria` a maintainer."""
    fake = github.repos.get(repo) or github.add_repo(repo, repo_id=4242, installation_id=77)
    fake.roles.update({MAINTAINER: "maintain", **roles})
    client = await app_client()
    installed = webhook_payload("installation/created")
    installed["installation"]["id"] = fake.installation_id
    installed["repositories"] = [
        {
            "id": fake.id,
            "node_id": fake.node_id,
            "name": repo.split("/")[1],
            "full_name": repo,
            "private": False,
        }
    ]
    assert (await deliver(client, "installation", installed))[0] == 202
    await client.app[EXECUTOR].drain()
    return client, fake


async def command(
    client: Client, github: FakeGitHub, payload: dict[str, Any], *, delivery: str | None = None
) -> int:
    """Deliver a comment's webhook, then run every job it made."""
    event = "issue_comment" if "issue" in payload else "discussion_comment"
    status, _ = await deliver(client, event, payload, delivery=delivery)
    await client.app[EXECUTOR].drain()
    return status


def in_issue(github: FakeGitHub, body: str, *, by: str = MAINTAINER, repo: str = REPO) -> Any:
    number = github.open_issue(repo)
    return github.comment_on_issue(repo, number, body, by=by)


def only_reply(github: FakeGitHub, payload: dict[str, Any], repo: str = REPO) -> str:
    (reply,) = github.replies_to(repo, payload["comment"]["id"])
    assert len(reply) <= BODY_LIMIT
    doc = parse_md(reply)
    assert doc.pings_and_references() == [], "a reply pings nobody and references nothing"
    assert doc.autolinks() == []
    assert [h.strip() for h in doc.html()] == [reply.split("\n", 1)[0]], "only the marker"
    return reply


async def land_command_day(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    *,
    config: str | None = None,
    analyse: bool = True,
) -> tuple[Client, FakeRepo]:
    """ASCEND's DAY landed (`land`) two hours before its cutoff, `maria` an admin."""
    return await land(
        app_client,
        github,
        clock,
        ASCEND,
        DAY,
        before=timedelta(hours=2),
        config=config,
        analyse=analyse,
        roles={MAINTAINER: "admin"},
    )


def day_commits() -> list[dict[str, Any]]:
    return [c for p in replay_pushes(ASCEND, DAY) for c in p["payload"]["commits"]]


# --- a replay day as rated (`/digest rate`) -----------------------------------------------


async def stored(client: Client) -> list[DayCommit]:
    start = datetime(2026, 6, 17, tzinfo=UTC)
    end = datetime(2026, 6, 18, tzinfo=UTC)
    repo = await client.app[STORE].repos.by_name(ASCEND)
    assert repo is not None
    return await client.app[STORE].digests.window_commits(repo.id, start, end)


async def a_low_commit(client: Client) -> DayCommit:
    """A commit of the day the analyser rated low (so a rate of high moves it)."""
    return next(c for c in await stored(client) if (c.analysis or {}).get("importance") == "low")


def day_discussion(fake: FakeRepo) -> dict[str, Any]:
    """The day's Discussion (there is one), as GitHub shows it."""
    (discussion,) = [d for d in fake.discussions if DAY in d["body"].split("\n", 1)[0]]
    return discussion


def day_text(fake: FakeRepo) -> str:
    """The day's digest as posted: the Discussion and its continuation comments."""
    discussion = day_discussion(fake)
    return "\n".join([discussion["body"], *(c["body"] for c in discussion["comments"])])


def section_of(text: str, sha: str) -> str | None:
    """The importance section (its heading) whose full entry or line shows the commit."""
    section = None
    for line in text.splitlines():
        if line.startswith("## ") and "importance (" in line:
            section = line
        elif section and f"`{sha[:7]}`" in line and not line.startswith("|"):
            return section
    return None
