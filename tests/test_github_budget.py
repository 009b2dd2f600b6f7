"""GitHub calls per commit: commits of consecutive pushes through one compare patch series,
their pull requests through one GraphQL query (checked against GitHub's schema by the fake),
the per-commit calls only where batching cannot be trusted, and nothing lost either way."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bot.app import EXECUTOR, STORE
from bot.github.patches import commits_from_series
from bot.store.job_payloads import RefreshConfigPayload
from bot.store.jobs import JobKind
from bot.store.schema import commits
from tests.fakes.github import FakeGitHub, format_patch_series
from tests.scenarios import Client, land, rows
from tests.support import FakeClock, deliver_replay, replay_day, replay_pushes

REPO = "vllm-project/vllm-ascend"
DAY = "2026-07-10"


async def details(client: Client) -> dict[str, Any]:
    return {r.sha: r for r in await rows(client, commits)}


async def test_a_day_costs_at_most_1_2_github_calls_per_commit(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    client, _ = await land(app_client, github, None, REPO, DAY)
    day = replay_day(REPO, DAY)
    stored = await details(client)
    assert {r.state for r in stored.values()} == {"analyzed"}
    assert len(github.calls) <= 1.2 * len(day["commits"])
    for raw in day["commits"]:
        # Each commit's files as "get a commit" gives them, each fetched once.
        assert github.fetches_of(REPO, raw["sha"]) == 1
        got = [
            (f["filename"], f["status"], f["additions"], f["deletions"])
            for f in stored[raw["sha"]].details["files"]
        ]
        assert got == [
            (f["filename"], f["status"], f["additions"], f["deletions"]) for f in raw["files"]
        ]
        # The pull request from the squash title, with the body GitHub has for it.
        pr = stored[raw["sha"]].details["pull_request"]
        assert pr["number"] == int(raw["commit"]["message"].split("\n")[0].rsplit("(#", 1)[1][:-1])
    queries = [c for c in github.calls if c.operation == "PullRequestsByNumber"]
    assert queries and all(c.status == 200 for c in queries)
    assert not github.calls_to("GET", r"/commits/[0-9a-f]+/pulls$")
    # The config was read without asking for the repository: the pushes name the branch.
    assert not github.calls_to("GET", rf"^/repos/{REPO}$")


async def test_numbers_that_are_not_pull_requests_fall_back_to_the_commit_lookup(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    repo = github.serve_replay_day(REPO, DAY)
    # Two titles point at numbers GitHub has no pull request for (an issue, say).
    moved = list(repo.pulls)[:2]
    for sha in moved:
        repo.pulls[sha] = [{**repo.pulls[sha][0], "number": 999_000 + moved.index(sha)}]
    client: Client = await app_client()
    for push in replay_pushes(REPO, DAY):
        await deliver_replay(client, push)
    await client.app[EXECUTOR].drain()
    stored = await details(client)
    for sha in moved:
        assert stored[sha].details["pull_request"]["number"] == 999_000 + moved.index(sha)
    # one lookup each, by the commit (its files riding on it), none through REST
    assert len([c for c in github.calls if c.operation == "PullRequestsOfCommit"]) == 2
    assert not github.calls_to("GET", r"/commits/[0-9a-f]+/pulls$")


async def test_a_failing_series_falls_back_to_one_call_per_commit(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    github.fail("GET", r"/compare/", 502, times=100)
    github.fail("POST", r"^/graphql$", 502, times=100, operation="PullRequestsByNumber")
    client, _ = await land(app_client, github, None, REPO, DAY)
    day = replay_day(REPO, DAY)
    stored = await details(client)
    # The batched calls were tried, and GitHub's errors cost nothing but the calls.
    assert github.calls_to("GET", r"/compare/") and github.calls_to("POST", r"^/graphql$")
    assert {r.state for r in stored.values()} == {"analyzed"}
    for raw in day["commits"]:
        assert len(github.calls_to("GET", rf"/commits/{raw['sha']}$")) == 1
        assert stored[raw["sha"]].details["pull_request"] is not None
    # each commit's pull request looked up on its own, by the commit
    lookups = [c for c in github.calls if c.operation == "PullRequestsOfCommit"]
    assert len(lookups) == len(day["commits"]) and all(c.status == 200 for c in lookups)


def test_a_series_is_split_per_commit_and_checked_against_its_diffstat() -> None:
    day = replay_day(REPO, DAY)["commits"][:3]
    text = format_patch_series(day)
    found = commits_from_series(text, [c["sha"] for c in day])
    assert list(found) == [c["sha"] for c in day]
    for c in day:
        assert [f.get("patch") for f in found[c["sha"]]] == [f.get("patch") for f in c["files"]]
    # A commit whose hunks do not add up to its diffstat is left to "get a commit".
    first = day[0]["files"][0]
    broken = text.replace(first["patch"], first["patch"] + "\n+one more line", 1)
    assert day[0]["sha"] not in commits_from_series(broken, [c["sha"] for c in day])
    # A commit missing from the series (a merge, which format-patch leaves out) is not made up.
    assert commits_from_series(text, ["f" * 40]) == {}


async def test_the_config_is_read_again_conditionally(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo = github.serve_replay_day(REPO, DAY)
    repo.files[".github/commit-digest.yml"] = "timezone: Asia/Shanghai\n"
    client: Client = await app_client()
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    worker = client.app[EXECUTOR]

    async def stale() -> None:
        # What a push that touches the file, or the repository seen anew, does: read it again.
        (repo,) = await client.app[STORE].repos.all()
        repo_id = repo.id
        await client.app[STORE].jobs.enqueue(
            RefreshConfigPayload(repo_id=repo_id), clock.now(), rearm=True
        )

    async def config() -> Any:
        (repo,) = await client.app[STORE].repos.all()
        return repo.config

    await worker.drain(kinds=[JobKind.REFRESH_CONFIG])
    (first,) = github.calls_to("GET", r"/contents/")
    assert first.status == 200 and (await config())["timezone"] == "Asia/Shanghai"

    # Read again (the repository was seen anew, say): GitHub answers 304, nothing changes.
    await stale()
    await worker.drain(kinds=[JobKind.REFRESH_CONFIG])
    second = github.calls_to("GET", r"/contents/")[-1]
    assert second.status == 304
    assert (await config())["timezone"] == "Asia/Shanghai"

    # The file changed: the same conditional request gets the new content.
    repo.files[".github/commit-digest.yml"] = "timezone: Europe/Paris\n"
    await stale()
    await worker.drain(kinds=[JobKind.REFRESH_CONFIG])
    assert github.calls_to("GET", r"/contents/")[-1].status == 200
    assert (await config())["timezone"] == "Europe/Paris"


async def test_a_batching_window_fetches_commits_landing_close_together_at_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    github.serve_replay_day(REPO, DAY)
    pushes = replay_pushes(REPO, DAY)
    clock.current = datetime(2026, 7, 10, 1, 0, tzinfo=UTC)
    client: Client = await app_client(worker_batch_seconds=1800)
    worker = client.app[EXECUTOR]
    for push in pushes[:3]:  # three pushes ten minutes apart
        await deliver_replay(client, push)
        await worker.drain()
        clock.advance(minutes=10)
    assert not github.calls_to("GET", r"/commits/|/compare/")
    assert {r.state for r in (await details(client)).values()} == {"pending"}
    clock.advance(minutes=1)  # the first has waited 31 minutes: all three go together
    await worker.drain()
    assert {r.state for r in (await details(client)).values()} == {"analyzed"}
    assert len(github.calls_to("GET", r"/compare/")) == 1
    assert not github.calls_to("GET", r"/commits/")
    assert len([c for c in github.calls if c.operation == "PullRequestsByNumber"]) == 1

    # A commit whose day ends within the window is taken at once.
    clock.current = datetime(2026, 7, 10, 23, 45, tzinfo=UTC)
    await deliver_replay(client, pushes[3])
    await worker.drain()
    assert {r.state for r in (await details(client)).values()} == {"analyzed"}
