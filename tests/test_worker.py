"""The worker end to end: real replay pushes in through /webhook, commits fetched from the fake
GitHub exactly once, details and analyses stored, restarts, faults and config."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import sqlalchemy as sa
from aiohttp.test_utils import TestClient

from bot.analysis import AnalysisResult
from bot.analysis.rules import analyze
from bot.app import STORE, WORKER
from bot.models import CommitInput
from bot.store.schema import analyses, commits, pushes, repositories
from tests.fakes.github import FakeGitHub
from tests.fakes.llm import FakeLLM
from tests.support import FakeClock, deliver, deliver_replay, replay_day, replay_pushes

Client = TestClient[Any, Any]
REPO = "vllm-project/llm-compressor"
DAY = "2026-06-22"
REPO_ID = 794532817
INSTALLATION = 60292384


async def rows(client: Client, table: sa.Table, *where: Any) -> list[Any]:
    async with client.app[STORE].engine.connect() as conn:
        return list(await conn.execute(sa.select(table).where(*where)))


def serve_day(github: FakeGitHub, repo: str = REPO, day: str = DAY) -> dict[str, Any]:
    data = replay_day(repo, day)
    first = replay_pushes(repo, day)[0]["payload"]
    github.load_replay(
        repo, day, installation_id=first["installation"]["id"], repo_id=first["repository"]["id"]
    )
    return data


async def test_a_replay_day_is_fetched_once_and_analysed(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    day = serve_day(github)
    client = await app_client()
    for push in replay_pushes(REPO, DAY):
        assert await deliver_replay(client, push) == 202
    await client.app[WORKER].drain()

    stored = {r.sha: r for r in await rows(client, commits)}
    assert {r.state for r in stored.values()} == {"analyzed"}
    for raw in day["commits"]:
        sha = raw["sha"]
        assert github.fetches_of(REPO, sha) == 1
        details = stored[sha].details
        assert [f["filename"] for f in details["files"]] == [f["filename"] for f in raw["files"]]
        assert all("patch" not in f for f in details["files"])
        assert details["pull_request"]["number"] == stored[sha].pr_number
    assert {r.sha for r in await rows(client, analyses)} == set(stored)
    # Every token request and every read used the installation's token; no JWT on repo calls.
    assert {
        c.auth for c in github.calls if "/repos/" in c.path and "/installation" not in c.path
    } == {"token"}


async def test_restart_in_the_middle_loses_and_repeats_nothing(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    day = serve_day(github)
    recorded = replay_pushes(REPO, DAY)
    first = await app_client()
    for push in recorded[:5]:
        await deliver_replay(first, push)
    await first.app[WORKER].drain()
    await first.close()

    second = await app_client()
    for push in recorded[5:]:
        await deliver_replay(second, push)
    await second.app[WORKER].drain()
    for raw in day["commits"]:
        assert github.fetches_of(REPO, raw["sha"]) == 1
    assert {r.state for r in await rows(second, commits)} == {"analyzed"}


async def test_a_crashed_workers_lease_expires_and_the_commit_is_taken_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    serve_day(github)
    client = await app_client(worker_lease_seconds=300)
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    store = client.app[STORE]
    # A worker claims the commit and dies before finishing.
    (lost,) = await store.queue.claim_commits(
        clock.now(), limit=5, lease=timedelta(seconds=300), max_attempts=5
    )
    worker = client.app[WORKER]
    await worker.refresh_configs()
    assert await worker.run_once() == 0  # still leased: nobody else touches it
    clock.advance(seconds=301)
    await worker.drain()
    (row,) = await rows(client, commits)
    assert row.state == "analyzed" and row.attempts == 2
    # The dead worker's late completion is refused: its lease token is no longer valid.
    late = AnalysisResult(analyze(CommitInput(sha=lost.sha, message="late")))
    assert await store.queue.complete(lost, late, clock.now()) is False
    (analysis,) = await rows(client, analyses)
    assert analysis.data["summary"] != "Late"


async def test_config_is_read_and_moves_days_to_the_repository_zone(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    serve_day(github)
    github.repos[REPO].files[".github/commit-digest.yml"] = (
        "timezone: Asia/Shanghai\nlanguage: zh-CN\n"
    )
    client = await app_client()
    push = replay_pushes(REPO, DAY)[0]  # landed 2026-06-22 16:43 UTC = 06-23 00:43 in Shanghai
    await deliver_replay(client, push)
    (before,) = await rows(client, commits)
    assert before.day == date(2026, 6, 22)  # ingest knew no config yet
    await client.app[WORKER].drain()
    (repo,) = await rows(client, repositories)
    assert (repo.timezone, repo.config["language"], repo.config_error) == (
        "Asia/Shanghai",
        "zh-CN",
        None,
    )
    (after,) = await rows(client, commits)
    assert after.day == date(2026, 6, 23)
    # Pushes after the config is known are dated in its zone straight away.
    await deliver_replay(client, replay_pushes(REPO, DAY)[1])
    assert {r.day for r in await rows(client, commits)} == {date(2026, 6, 23)}


async def test_invalid_config_keeps_the_last_good_one_and_is_reported_once(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    serve_day(github)
    files = github.repos[REPO].files
    files[".github/commit-digest.yml"] = "timezone: Asia/Shanghai\n"
    client = await app_client()
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    worker = client.app[WORKER]
    await worker.drain()

    files[".github/commit-digest.yml"] = "timezone: Nowhere/Special\ncutoff: '9am'\n"
    store = client.app[STORE]
    async with store.engine.begin() as conn:
        await conn.execute(sa.update(repositories).values(config_stale=True))
    await worker.refresh_configs()
    (repo,) = await rows(client, repositories)
    assert repo.timezone == "Asia/Shanghai"  # the last good config stays in force
    assert "`timezone`" in repo.config_error and "`cutoff`" in repo.config_error
    assert repo.config_error_reported is False
    # The same broken blob is not parsed or reported again.
    await store.repos.config_error_reported(REPO_ID)
    async with store.engine.begin() as conn:
        await conn.execute(sa.update(repositories).values(config_stale=True))
    await worker.refresh_configs()
    (repo,) = await rows(client, repositories)
    assert repo.config_error_reported is True


async def test_push_at_the_payload_cap_is_expanded_through_compare(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    day = serve_day(github)
    client = await app_client()
    # One push that lands the whole day, its payload cut to the first commit (as if capped).
    payload = copy.deepcopy(replay_pushes(REPO, DAY)[0]["payload"])
    payload["before"], payload["after"] = day["before"], day["after"]
    payload["commits"] = payload["commits"] * 2048
    await deliver(client, "push", payload)
    await client.app[WORKER].drain()
    (push,) = await rows(client, pushes)
    assert (push.expand_state, push.expanded, push.truncated) == ("done", day["commit_count"], 0)
    stored = {r.sha: r for r in await rows(client, commits)}
    assert set(stored) == {c["sha"] for c in day["commits"]}
    assert {r.state for r in stored.values()} == {"analyzed"}


async def test_a_commit_that_keeps_failing_is_marked_failed_with_its_reason(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    serve_day(github)
    github.fail("GET", r"/commits/[0-9a-f]+$", 502, times=1000)
    client = await app_client(worker_max_attempts=3)
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    worker = client.app[WORKER]
    for _ in range(6):
        await worker.run_once()
        clock.advance(hours=1)  # past each retry's backoff
    (row,) = await rows(client, commits)
    assert row.state == "failed"
    assert "gave up after 3 attempts" in row.last_error or "HTTP 502" in row.last_error
    github.faults.clear()


async def test_lost_access_ends_the_work_quietly(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    serve_day(github)
    client = await app_client()
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    worker = client.app[WORKER]
    await worker.refresh_configs()
    github.revoke(REPO)
    await worker.drain()
    (row,) = await rows(client, commits)
    assert row.state == "failed" and row.attempts == 1
    assert "repository not accessible" in row.last_error


async def test_a_long_rate_limit_defers_without_spending_an_attempt(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    serve_day(github)
    client = await app_client()
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    worker = client.app[WORKER]
    await worker.refresh_configs()
    github.secondary_rate_limit("GET", r"/commits/[0-9a-f]+$", retry_after=1800)
    await worker.run_once()
    (row,) = await rows(client, commits)
    assert (row.state, row.attempts) == ("pending", 0)
    assert row.lease_until >= clock.now() + timedelta(minutes=29)
    assert await worker.run_once() == 0  # not hammered before the limit resets
    clock.advance(minutes=31)
    await worker.drain()
    (row,) = await rows(client, commits)
    assert row.state == "analyzed"


async def test_push_without_installation_finds_it_with_the_app_jwt(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    serve_day(github)
    client = await app_client()
    payload = copy.deepcopy(replay_pushes(REPO, DAY)[0]["payload"])
    del payload["installation"]
    await deliver(client, "push", payload)
    await client.app[WORKER].drain()
    assert [c.auth for c in github.calls_to("GET", r"/installation$")] == ["jwt"]
    (row,) = await rows(client, commits)
    assert row.state == "analyzed"


async def test_llm_analysis_and_its_token_usage_are_stored(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any
) -> None:
    serve_day(github)
    llm = FakeLLM()
    server = await aiohttp_server(llm.app())
    client = await app_client(
        llm_base_url=str(server.make_url("/v1")), llm_api_key="test-key", llm_model="fake-model"
    )
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    await client.app[WORKER].drain()
    (analysis,) = await rows(client, analyses)
    assert analysis.analyzer == "llm:fake-model"
    assert analysis.input_tokens > 0 and analysis.output_tokens > 0
    assert analysis.fallback_reason is None
    # The diff made it into the prompt.
    assert "@@" in llm.requests[0]["messages"][1]["content"]


async def test_excluded_authors_skip_the_llm(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any
) -> None:
    serve_day(github)
    github.repos[REPO].files[".github/commit-digest.yml"] = "exclude:\n  authors: [Kyle Sayers]\n"
    llm = FakeLLM()
    server = await aiohttp_server(llm.app())
    client = await app_client(
        llm_base_url=str(server.make_url("/v1")), llm_api_key="test-key", llm_model="fake-model"
    )
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])  # authored by Kyle Sayers
    await client.app[WORKER].drain()
    (analysis,) = await rows(client, analyses)
    assert analysis.analyzer == "rules"
    assert llm.requests == []


async def test_stopping_gives_back_the_commits_in_flight(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any
) -> None:
    serve_day(github)
    llm = FakeLLM().then("hang")
    server = await aiohttp_server(llm.app())
    client = await app_client(
        llm_base_url=str(server.make_url("/v1")), llm_api_key="test-key", llm_model="fake-model"
    )
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    worker = client.app[WORKER]
    await worker.refresh_configs()
    worker.start()
    await llm.wait_for_requests(1)  # the commit is claimed and its analysis under way
    (row,) = await rows(client, commits)
    assert (row.state, row.attempts) == ("analyzing", 1)
    await worker.stop()  # SIGTERM: the loop is cancelled and the claim given back
    llm.release.set()
    (row,) = await rows(client, commits)
    assert (row.state, row.attempts, row.lease_token) == ("pending", 0, None)
