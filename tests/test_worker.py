"""Commit analysis as jobs, end to end: real replay pushes in through /webhook, commits fetched from the fake
GitHub exactly once, details and analyses stored, restarts, faults and config."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
import structlog
from aiohttp.test_utils import TestClient
from structlog.testing import LogCapture

from bot.app import EXECUTOR, STORE
from bot.jobs import executor as executor_module
from bot.jobs.executor import GivenBack
from bot.models import DayNames
from bot.store.housekeeping import Housekeeping
from bot.store.job_payloads import AnalyseCommitPayload, JobPayload, RefreshConfigPayload
from bot.store.jobs import JobKind, LeaseLost, job_row
from bot.store.schema import analyses, commits, jobs, pushes, repositories
from tests.fakes.github import FakeGitHub
from tests.fakes.llm import FakeLLM
from tests.scenarios import llm_settings, rows
from tests.support import (
    FakeClock,
    deliver,
    deliver_replay,
    publish_round,
    replay_day,
    replay_pushes,
)

Client = TestClient[Any, Any]
REPO = "vllm-project/llm-compressor"
DAY = "2026-06-22"
REPO_ID = 794532817
INSTALLATION = 60292384


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
    await client.app[EXECUTOR].drain()

    stored = {r.sha: r for r in await rows(client, commits)}
    assert {r.state for r in stored.values()} == {"analyzed"}
    for raw in day["commits"]:
        sha = raw["sha"]
        assert github.fetches_of(REPO, sha) == 1
        details = stored[sha].details
        assert [f["filename"] for f in details["files"]] == [f["filename"] for f in raw["files"]]
        assert all("patch" not in f for f in details["files"])
        assert details["pull_request"]["number"] == stored[sha].pr_number
        # what the day's digest reads beside the day's other commits (`sameday.py`)
        names = DayNames.from_stored(details["names"])
        assert names is not None
        # online too: the lines it adds and removes, for `undone.py` (patches are not kept)
        counted = (
            sum(f["additions"] for f in raw["files"]),
            sum(f["deletions"] for f in raw["files"]),
        )
        if all(f.get("patch") is not None for f in raw["files"]) and max(counted) <= 400:
            assert names.added_lines is not None and names.removed_lines is not None
            assert (len(names.added_lines), len(names.removed_lines)) == counted
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
    await first.app[EXECUTOR].drain()
    await first.close()

    second = await app_client()
    for push in recorded[5:]:
        await deliver_replay(second, push)
    await second.app[EXECUTOR].drain()
    for raw in day["commits"]:
        assert github.fetches_of(REPO, raw["sha"]) == 1
    assert set(await second.app[STORE].count_commits_by_state()) == {"analyzed"}


async def analyse_job(client: Client, sha: str) -> Any:
    (job,) = await rows(client, jobs, jobs.c.key == f"{REPO_ID}/{sha}")
    return job


async def test_a_crashed_workers_lease_expires_and_the_commit_is_taken_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    serve_day(github)
    client = await app_client(worker_lease_seconds=300)
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    store = client.app[STORE]
    executor = client.app[EXECUTOR]
    await executor.drain(kinds=[JobKind.REFRESH_CONFIG])
    # A replica claims the commit's job, starts it (its first attempt) and dies before finishing.
    (lost,), _ = await store.jobs.claim(
        clock.now(),
        owner="dead",
        limit=5,
        lease=timedelta(seconds=300),
        max_attempts=dict.fromkeys(JobKind, 5),
    )
    assert await store.jobs.started(lost, clock.now(), timedelta(seconds=300))
    assert await executor.run_once() == 0  # still leased: nobody else touches it
    clock.advance(seconds=301)
    await executor.drain()
    (row,) = await rows(client, commits)
    assert row.state == "analyzed"
    job = await analyse_job(client, row.sha)
    assert (job.state, job.attempts) == ("done", 2)
    # The dead holder's late write is refused: its lease is no longer valid.
    with pytest.raises(LeaseLost):
        async with store.jobs.holding(lost, clock.now()):
            pass


async def test_config_is_read_and_decides_the_day_when_it_is_published(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    serve_day(github)
    github.repos[REPO].files[".github/commit-digest.yml"] = (
        "timezone: Asia/Shanghai\nlanguage: zh-CN\n"
    )
    client = await app_client()
    push = replay_pushes(REPO, DAY)[0]  # landed 2026-06-22 16:43 UTC = 06-23 00:43 in Shanghai
    await deliver_replay(client, push)
    await client.app[EXECUTOR].drain()
    (repo,) = await rows(client, repositories)
    assert (repo.timezone, repo.config["language"], repo.config_error) == (
        "Asia/Shanghai",
        "zh-CN",
        None,
    )
    # The commit is in Shanghai's 06-23, which ends at 06-23 16:00 UTC.
    clock.current = datetime(2026, 6, 23, 15, 59, tzinfo=UTC)
    await publish_round(client)
    assert github.repos[REPO].discussions == []
    clock.current = datetime(2026, 6, 23, 16, 0, 1, tzinfo=UTC)
    await publish_round(client)
    (discussion,) = github.repos[REPO].discussions
    assert "2026-06-23" in discussion["title"]


async def test_invalid_config_keeps_the_last_good_one_and_is_reported_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    serve_day(github)
    files = github.repos[REPO].files
    files[".github/commit-digest.yml"] = "timezone: Asia/Shanghai\n"
    client = await app_client()
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    worker = client.app[EXECUTOR]
    await worker.drain()

    files[".github/commit-digest.yml"] = "timezone: Nowhere/Special\ncutoff: '9am'\n"
    store = client.app[STORE]

    async def refresh() -> None:
        # What a push that touches the file does: read it again.
        await store.jobs.enqueue(RefreshConfigPayload(repo_id=REPO_ID), clock.now(), rearm=True)
        await worker.drain()

    await refresh()
    (repo,) = await rows(client, repositories)
    assert repo.timezone == "Asia/Shanghai"  # the last good config stays in force
    assert "`timezone`" in repo.config_error and "`cutoff`" in repo.config_error
    assert repo.config_error_reported is False
    # The same broken blob is not parsed or reported again.
    await store.repos.config_error_reported(REPO_ID)
    await refresh()
    (repo,) = await store.repos.all()
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
    await client.app[EXECUTOR].drain()
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
    worker = client.app[EXECUTOR]
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
    worker = client.app[EXECUTOR]
    await worker.drain(kinds=[JobKind.REFRESH_CONFIG])
    github.revoke(REPO)
    await worker.drain()
    (row,) = await rows(client, commits)
    assert row.state == "failed" and (await analyse_job(client, row.sha)).attempts == 1
    assert "repository not accessible" in row.last_error


async def test_a_long_rate_limit_defers_without_spending_an_attempt(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    serve_day(github)
    client = await app_client()
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    worker = client.app[EXECUTOR]
    await worker.drain(kinds=[JobKind.REFRESH_CONFIG])
    github.secondary_rate_limit("GET", r"/commits/[0-9a-f]+$", retry_after=1800)
    await worker.run_once()
    (row,) = await rows(client, commits)
    job = await analyse_job(client, row.sha)
    assert (row.state, job.state, job.attempts) == ("pending", "pending", 0)
    assert job.not_before >= clock.now() + timedelta(minutes=29)
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
    await client.app[EXECUTOR].drain()
    assert [c.auth for c in github.calls_to("GET", r"/installation$")] == ["jwt"]
    (row,) = await rows(client, commits)
    assert row.state == "analyzed"


async def test_llm_analysis_and_its_token_usage_are_stored(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any
) -> None:
    serve_day(github)
    llm = FakeLLM()
    client = await app_client(**await llm_settings(aiohttp_server, llm))
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    await client.app[EXECUTOR].drain()
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
    client = await app_client(**await llm_settings(aiohttp_server, llm))
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])  # authored by Kyle Sayers
    await client.app[EXECUTOR].drain()
    (analysis,) = await rows(client, analyses)
    assert analysis.analyzer == "rules"
    assert llm.requests == []


async def test_stopping_gives_back_the_commits_in_flight(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any
) -> None:
    serve_day(github)
    llm = FakeLLM().then("hang")
    client = await app_client(**await llm_settings(aiohttp_server, llm), shutdown_grace_seconds=0.1)
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    worker = client.app[EXECUTOR]
    await worker.drain(kinds=[JobKind.REFRESH_CONFIG])
    worker.start()
    await llm.wait_for_requests(1)  # the commit is claimed and its analysis under way
    (row,) = await rows(client, commits)
    job = await analyse_job(client, row.sha)
    assert (job.state, job.attempts) == ("running", 1)
    # SIGTERM: nothing more is claimed, the job gets its short grace, then is given back.
    await worker.stop()
    llm.release.set()
    (row,) = await rows(client, commits)
    job = await analyse_job(client, row.sha)
    assert (row.state, job.state, job.attempts, job.lease_owner) == ("pending", "pending", 0, None)
    # What `serve` says it gave back as it stops.
    assert worker.given_back == GivenBack(finished=0, released=1, not_released=0)


async def test_finished_jobs_are_forgotten_and_a_repeat_finds_its_work_done(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    serve_day(github)
    client = await app_client()
    push = replay_pushes(REPO, DAY)[0]
    await deliver_replay(client, push)
    await client.app[EXECUTOR].drain()
    clock.advance(days=9)
    store = client.app[STORE]
    housekeeping = Housekeeping(store, clock, delivery_retention=timedelta(days=8))
    assert await housekeeping.run_once() == 2 + 1  # the delivery; the config and commit jobs
    assert await store.jobs.count_by_state() == {}
    # The same commits arrive again (another push of the same history): nothing is redone.
    assert (await deliver(client, "push", push["payload"]))[0] == 202
    await client.app[EXECUTOR].drain()
    sha = push["payload"]["after"]
    assert len(github.calls_to("GET", rf"/commits/{sha}$")) == 1
    assert {j.state for j in await rows(client, jobs)} == {"done"}


@pytest.mark.parametrize("payload", ["garbage", [1, 2], 7])
async def test_a_job_with_a_garbage_payload_fails_alone(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, payload: Any
) -> None:
    # A row no version of the App wrote (a hand edit, a restore): it must end failed with its
    # reason, and the jobs claimed in the same round must still run.
    serve_day(github)
    client = await app_client(worker_max_attempts=3)
    async with client.app[STORE].engine.begin() as conn:
        row = {**job_row(RefreshConfigPayload(repo_id=0), clock.now()), "key": "garbage"}
        row["payload"] = payload
        await conn.execute(sa.insert(jobs), [row])
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    executor = client.app[EXECUTOR]
    for _ in range(6):  # past each backoff
        await executor.drain()
        clock.advance(hours=1)
    assert set(await client.app[STORE].count_commits_by_state()) == {"analyzed"}
    (bad,) = await rows(client, jobs, jobs.c.key == "garbage")
    assert bad.state == "failed" and bad.last_error


@pytest.mark.parametrize(
    ("spec", "payload", "named"),
    [
        (RefreshConfigPayload(repo_id=0), {}, "repo_id: Field required"),
        (RefreshConfigPayload(repo_id=0), {"repo_id": "seven"}, "repo_id:"),
        (AnalyseCommitPayload(repo_id=0, sha="0" * 40), {"repo_id": 1}, "sha: Field required"),
    ],
)
async def test_a_job_whose_payload_fits_no_model_fails_for_good_at_once(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    spec: JobPayload,
    payload: dict[str, Any],
    named: str,
) -> None:
    # A JSON object no version of the App wrote for its kind: validated once when claimed, it
    # ends failed on that first claim with one line saying why (no retry loop), and the jobs
    # claimed with it still run.
    logged = LogCapture()
    monkeypatch.setattr(executor_module, "log", structlog.wrap_logger(None, processors=[logged]))
    serve_day(github)
    client = await app_client(worker_max_attempts=3)
    async with client.app[STORE].engine.begin() as conn:
        row = {**job_row(spec, clock.now()), "key": "unfit", "payload": payload}
        await conn.execute(sa.insert(jobs), [row])
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    executor = client.app[EXECUTOR]
    for _ in range(3):
        await executor.drain()
        clock.advance(hours=1)
    assert {r.state for r in await rows(client, commits)} == {"analyzed"}
    (bad,) = await rows(client, jobs, jobs.c.key == "unfit")
    assert (bad.state, bad.attempts) == ("failed", 1)
    assert bad.last_error.startswith(f"payload does not fit {spec.kind.value}: ")
    assert named in bad.last_error
    (line,) = [e for e in logged.entries if e["event"] == "job_payload_invalid"]
    assert line["reason"] == bad.last_error and line["log_level"] == "warning"
