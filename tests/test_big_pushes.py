"""A push over GitHub's 2,048-commit payload cap and the App's range limit: the day keeps the
newest commits, and its footer counts exactly the commits it could not list."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

import bot.web.handlers.push
from bot.app import EXECUTOR
from bot.store.jobs import JobKind
from bot.store.schema import commits, pushes
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.scenarios import COMPRESSOR, cutoff, rows
from tests.support import FakeClock, deliver, publish_round, replay_pushes

REPO = COMPRESSOR
DAY = "2026-06-22"
CAP = 2048  # GitHub's payload cap (FACTS §2)


def _grow(
    repo: FakeRepo, total: int, *, listed: int, newest: bool
) -> tuple[list[str], dict[str, Any]]:
    """`total` new commits on the default branch, pushed at once; the payload lists `listed`
    of them, the newest or the oldest. Returns the commits (oldest first) and the payload."""
    first = replay_pushes(REPO, DAY)[0]["payload"]
    template = {k: v for k, v in repo.commits[first["after"]].items() if k != "files"}
    base = repo.history[-1]
    shas = [f"{i:040x}" for i in range(1, total + 1)]
    for i, sha in enumerate(shas):
        commit = copy.deepcopy(template)
        commit["sha"] = sha
        commit["commit"]["message"] = f"Import module {i} (#{i + 1})"
        commit["html_url"] = f"https://github.com/{REPO}/commit/{sha}"
        commit["files"] = []
        repo.commits[sha] = commit
        repo.history.append(sha)
    payload = copy.deepcopy(first)
    payload["before"], payload["after"] = base, shas[-1]
    entry = payload["commits"][0]
    shown = shas[-listed:] if newest else shas[:listed]
    payload["commits"] = [
        {**entry, "id": sha, "message": repo.commits[sha]["commit"]["message"]} for sha in shown
    ]
    payload["head_commit"] = {**entry, "id": shas[-1]}
    return shas, payload


@pytest.mark.parametrize(
    ("total", "newest", "unlisted"),
    [
        # The payload lists the newest 2,048: the compare's newest 1,000 add nothing.
        (2300, True, 2300 - CAP),
        # It lists the oldest 2,048: the compare adds the newest 1,000.
        (3500, False, 3500 - CAP - 1000),
    ],
    ids=["payload-newest", "payload-oldest"],
)
async def test_a_push_over_the_cap_keeps_the_newest_and_counts_the_rest_exactly(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    total: int,
    newest: bool,
    unlisted: int,
) -> None:
    repo = github.serve_replay_day(REPO, DAY)
    shas, payload = _grow(repo, total, listed=CAP, newest=newest)
    clock.current = cutoff(DAY) - timedelta(minutes=30)
    client = await app_client(max_range_commits=1000)
    assert (await deliver(client, "push", payload))[0] == 202
    await client.app[EXECUTOR].drain(kinds=[JobKind.REFRESH_CONFIG, JobKind.EXPAND_RANGE])
    (push,) = await rows(client, pushes)
    assert push.expand_state == "done" and push.truncated == unlisted
    stored = {r.sha for r in await rows(client, commits)}
    assert len(stored) == total - unlisted
    # The newest commits are in the day; the ones left out are the oldest.
    assert set(shas[-1000:]) <= stored
    assert not stored & set(shas[: unlisted if newest else 0])
    if not newest:
        assert not stored & set(shas[CAP : total - 1000])


async def test_the_footer_counts_the_commits_it_could_not_list(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The same shape, scaled down so that the day is analysed and posted: a payload at its
    # cap of 8 listing the newest, 12 commits in the push, a range limit of 5.
    monkeypatch.setattr(bot.web.handlers.push, "PAYLOAD_COMMIT_CAP", 8)
    repo = github.serve_replay_day(REPO, DAY)
    _, payload = _grow(repo, 12, listed=8, newest=True)
    clock.current = cutoff(DAY) - timedelta(minutes=30)
    client = await app_client(max_range_commits=5)
    assert (await deliver(client, "push", payload))[0] == 202
    await client.app[EXECUTOR].drain()
    clock.current = cutoff(DAY) + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = repo.discussions
    body = discussion["body"]
    assert "4 commits of very large pushes are not listed." in body
    assert "Import module 11" in body and "Import module 4" in body
    assert "Import module 3 " not in body
