"""Test scenarios through the fake GitHub, one verb a step: `land` a replay day's commits (the
webhook, then the jobs), run the jobs (`tests/support.py`: `publish_round`), read what GitHub
shows (`written`, `heads`) and what the store holds (`rows`); and the replay commits tests name."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa
from aiohttp.test_utils import TestClient

from bot.app import EXECUTOR, STORE
from bot.store.jobs import JobKind
from bot.store.schema import posts
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.fakes.llm import FakeLLM
from tests.support import (
    FakeClock,
    deliver,
    deliver_replay,
    late_push,
    replay_commit,
    replay_pushes,
)

Client = TestClient[Any, Any]
CONFIG = ".github/commit-digest.yml"  # where a repository keeps the App's config
ASCEND = "vllm-project/vllm-ascend"
COMPRESSOR = "vllm-project/llm-compressor"
ALERT_DAY = "2026-06-17"  # ASCEND: one commit the rules read as breaking (it drops a config switch)
BUSY_DAY = "2026-07-15"  # ASCEND: seven high commits, four of them breaking
ALERTS = "alerts:\n  on: [breaking]\n"
# An alert's hidden marker, and that of the post folding the alerts past `max_per_day`, as the
# README documents them ("Alerts").
ALERT_MARKER = re.compile(r"<!-- commit-digest:[^:]+/[^:]+:alert:(?P<sha>[0-9a-f]{40}) -->")
COMMIT_LINK = re.compile(r"/commit/([0-9a-f]{40})")
# The App's own issue, as the README documents its marker.
TRACKING = re.compile(r"^<!-- commit-digest:[^:]+/[^:]+:tracking-issue -->")
FOLD = re.compile(r"<!-- commit-digest:[^:]+/[^:]+:\d{4}-\d\d-\d\d:alerts-more -->")


def cutoff(day: str) -> datetime:
    """A day's default cutoff: the next midnight, UTC."""
    return datetime.combine(date.fromisoformat(day) + timedelta(days=1), time(), UTC)


def day_marker(repo: str, day: str, key: str = "part-1") -> str:
    """The hidden marker of a day's post, as the README documents it."""
    return f"<!-- commit-digest:{repo}:{day}:{key} -->"


def landing(push: dict[str, Any]) -> datetime:
    """When a recorded push landed: its repository's `pushed_at`, as the App reads it."""
    return datetime.fromtimestamp(push["payload"]["repository"]["pushed_at"], UTC)


async def rows(client: Client, table: sa.Table, *where: Any) -> list[Any]:
    """The rows of `table` (those matching `where`) in the App's database, for what no read of
    the store's gives."""
    async with client.app[STORE].engine.connect() as conn:
        return list(await conn.execute(sa.select(table).where(*where)))


async def first_post_kind(client: Client, record: Any) -> str | None:
    """Where a digest record's period went first, as the post ledger keeps it: the kind of
    its first post (None: nothing recorded)."""
    period = f"{record.period_kind}:{record.period_start.isoformat()}"
    p = posts.c
    found = await rows(
        client, posts, p.repo_id == record.repo_id, p.period == period, p.key == "part-1"
    )
    return str(found[0].kind) if found else None


async def land(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock | None,
    repo: str,
    day: str,
    *,
    before: timedelta = timedelta(minutes=30),
    config: str | None = None,
    pushes: Sequence[dict[str, Any]] | None = None,
    extra: Sequence[dict[str, Any]] = (),
    analyse: bool = True,
    roles: Mapping[str, str] | None = None,
    **settings: Any,
) -> tuple[Client, FakeRepo]:
    """`repo`'s replay `day` served by the fake GitHub, with `config` as its config file and
    `roles` (login: permission) among its people; its recorded pushes (or `pushes`), then the
    `extra` push payloads, delivered `before` its cutoff on `clock` (when one is given); then
    every job due run, or only the config refreshes unless `analyse`. `settings`: the App's,
    overridden."""
    served = github.serve_replay_day(repo, day)
    if config is not None:
        served.files[CONFIG] = config
    served.roles.update(roles or {})
    if clock is not None:
        clock.current = cutoff(day) - before
    client: Client = await app_client(**settings)
    for push in replay_pushes(repo, day) if pushes is None else pushes:
        assert await deliver_replay(client, push) == 202
    for payload in extra:
        assert (await deliver(client, "push", payload))[0] == 202
    executor = client.app[EXECUTOR]
    if analyse:
        await executor.drain()
    else:
        await executor.drain(kinds=[JobKind.REFRESH_CONFIG])
    return client, served


async def land_late(
    client: Client, repo: FakeRepo, clock: FakeClock, name: str, day: str, *, hours: float = 5
) -> None:
    """A commit of `day` reaching the App `hours` later (a redelivery, an outage): the day's
    first push again with one new commit, "Fix the late bug", accepted and analysed."""
    late = late_push(repo.commits, name, day, "b" * 40, "Fix the late bug (#4242)\n\nDetails.")
    clock.advance(hours=hours)
    assert (await deliver(client, "push", late))[0] == 202
    await client.app[EXECUTOR].drain()


def written(repo: FakeRepo) -> list[str]:
    """Every body the App wrote: discussions (hidden ones too), their comments, issue comments."""
    out = []
    for d in repo.discussions:
        out.append(d["body"])
        out += [c["body"] for c in d["comments"]]
    out += [c["body"] for c in repo.comments]
    return out


def heads(repo: FakeRepo, marker: str) -> list[dict[str, Any]]:
    """The posts that start with `marker` (a day's first post, say), wherever they are:
    discussions (hidden ones too), then issue comments."""
    found = [d for d in repo.discussions if d["body"].startswith(marker)]
    return found + [c for c in repo.comments if c["body"].startswith(marker)]


async def llm_settings(aiohttp_server: Callable[..., Any], llm: FakeLLM) -> dict[str, Any]:
    """The App's settings for an LLM: `llm`, served."""
    server = await aiohttp_server(llm.app())
    return {
        "llm_base_url": str(server.make_url("/v1")),
        "llm_api_key": "test-key",
        "llm_model": "fake-model",
    }


# --- alerts: vllm-ascend's days with breaking commits ------------------------------------------


async def land_alert_day(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    *,
    day: str = ALERT_DAY,
    config: str = ALERTS,
    extra: Sequence[dict[str, Any]] = (),
    **settings: Any,
) -> tuple[Client, FakeRepo]:
    """An ASCEND day with alerts on, landed two hours before its cutoff (its alerts sent, its
    digest not yet due)."""
    return await land(
        app_client,
        github,
        clock,
        ASCEND,
        day,
        before=timedelta(hours=2),
        config=config,
        extra=extra,
        **settings,
    )


def breaking_sha() -> str:
    """ALERT_DAY's breaking commit. Read from the replay itself: the commit dropping
    `multistream_dsv4_dsa_overlap`."""
    for push in replay_pushes(ASCEND, ALERT_DAY):
        for commit in push["payload"]["commits"]:
            if commit["message"].startswith("[Attention] [BugFix]Enable multistream"):
                return str(commit["id"])
    raise AssertionError("the replay day changed")


def landing_again(repo: FakeRepo, day: str, original: str, sha: str) -> dict[str, Any]:
    """A push landing a copy of ASCEND's `day`'s commit `original` (message, files) as `sha`."""
    message = next(
        c["message"]
        for p in replay_pushes(ASCEND, day)
        for c in p["payload"]["commits"]
        if c["id"] == original
    )
    push = late_push(repo.commits, ASCEND, day, sha, message)
    repo.commits[sha] = {**repo.commits[original], "sha": sha}
    return push


# --- replay commits the analysis tests name -------------------------------------------------

# [Ascend950][Bugfix] Fix allgatherEP MXFPW4A8 quantization (#11663): one file, +3 -2.
MXFP = replay_commit(ASCEND, "2026-07-10", "8d808fdd")
# Dynamic memory-aware GPU scheduling (#2976): "Validated on 2× NVIDIA RTX PRO 6000 Blackwell".
SCHEDULER = replay_commit(COMPRESSOR, "2026-08-18", "be460a37")
# Granite4 FP8 example (#1814): "compute capability > 8.9 (Ada Lovelace, Hopper)".
GRANITE = replay_commit(COMPRESSOR, "2025-09-16", "84575f23")
# Speed up subgraph tracing (#2992): "a **3.14x speedup**".
TRACING = replay_commit(COMPRESSOR, "2026-08-18", "8f648668")
# SlidingWindowManager block size (#11383): "the prefix-cache hit rate ... from 33% to 86%".
PREFIX = replay_commit(ASCEND, "2026-07-10", "4ad76e0e")
# GLM5.2 documents (#10544): its commands pass `--enforce-eager`.
GLM_DOCS = replay_commit(ASCEND, "2026-06-17", "3ac10c80")


def add_issue(repo: FakeRepo, number: int) -> None:
    """An issue a maintainer opened (for `publish.issue`)."""
    repo.issues[number] = {
        "id": number,
        "number": number,
        "title": "Digests",
        "body": "",
        "html_url": f"https://github.com/{repo.full_name}/issues/{number}",
        "node_id": f"I_{number}",
        "state": "open",
        "user": {"login": "maintainer", "type": "User"},
    }
