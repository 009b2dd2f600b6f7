"""The LLM cost governor on real replay days: the rules decide what they are sure of, the
day's caps and budgets send the rest to the rules once reached, identical diffs are analysed
once, and the digest's footer and /metrics say what was done and what it cost."""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import openai
import pytest
from aiohttp.test_utils import TestClient

from bot.analysis.cost import Prices
from bot.analysis.llm import LLMAnalyzer
from bot.analysis.tiering import rules_sure
from bot.cli.offline import offline_digest
from bot.digest.usage import usage_lines
from bot.models import CommitInput, DigestUsage, FileChange
from bot.repo_config import ConfigError, RepoConfig, parse_config, parse_with_origin
from bot.store.schema import analyses
from tests.clones import _git
from tests.fakes.github import FakeGitHub
from tests.fakes.llm import FakeLLM
from tests.scenarios import land, llm_settings, rows
from tests.support import (
    FakeClock,
    publish_round,
    replay_day,
    replay_index,
    replay_pushes,
)

Client = TestClient[Any, Any]
REPO = "vllm-project/llm-compressor"
DAY = "2026-06-22"
END = datetime(2026, 6, 23, tzinfo=UTC)


def commit(title: str, *paths: str, patch: str = "@@ -1 +1 @@\n-a\n+b") -> CommitInput:
    return CommitInput(
        sha="a" * 40,
        message=title,
        files=[FileChange(filename=p, additions=1, deletions=1, patch=patch) for p in paths],
    )


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        (commit("[Doc] Fix a typo (#1)", "docs/source/index.md", "README.md"), "docs"),
        (commit("Fix flaky test", "tests/test_x.py", "tests/conftest.py"), "tests"),
        (commit("[CI] Pin runner", ".github/workflows/ci.yml"), "ci"),
        (commit("Tune numbers", "benchmarks/run.py"), "benchmarks"),
        (commit("Update locks", "uv.lock", "web/package-lock.json"), "lockfile"),
        (commit("[CI] Fix e2e", ".github/workflows/e2e.yml", "tests/e2e/test_a.py"), "ci+tests"),
        (commit("Bump version to 0.9.0", "pyproject.toml", "src/pkg/version.py"), "version bump"),
        (commit("Release v1.2.3", "setup.py", "CHANGELOG.md"), "version bump"),
        (
            commit("Reformat", "src/pkg/core.py", patch="@@ -1 +1 @@\n-x=1\n+x = 1"),
            "formatting",
        ),
        # Anything touching source code needs a closer look.
        (commit("[Doc] Fix typo", "docs/a.md", "src/pkg/core.py"), None),
        (commit("Bump version to 0.9.0", "src/pkg/core.py"), None),
        (commit("style: tidy", "src/pkg/core.py", patch="@@ -1 +1 @@\n-x = 1\n+x = 2"), None),
        (CommitInput(sha="b" * 40, message="[Doc] typo", files_known=False), None),
    ],
)
def test_the_rules_are_sure_only_from_paths_and_titles(
    case: CommitInput, expected: str | None
) -> None:
    assert rules_sure(case) == expected


def test_a_third_of_the_replay_commits_are_decided_without_the_llm() -> None:
    decided = total = 0
    for d in replay_index():
        for raw in replay_day(d["repo"], d["date"])["commits"]:
            total += 1
            decided += rules_sure(CommitInput.from_github(raw)) is not None
    assert decided / total >= 0.30


async def llm_day(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    aiohttp_server: Any,
    clock: FakeClock,
    *,
    config: str | None = None,
    llm: FakeLLM | None = None,
    pushes: list[dict[str, Any]] | None = None,
    **settings: Any,
) -> tuple[Client, FakeLLM]:
    """The replay day delivered and analysed with the fake LLM configured."""
    llm = llm or FakeLLM()
    served = await llm_settings(aiohttp_server, llm)
    client, _ = await land(
        app_client,
        github,
        clock,
        REPO,
        DAY,
        config=config,
        pushes=pushes or None,
        **served,
        **settings,
    )
    return client, llm


async def stored(client: Client) -> dict[str, Any]:
    return {r.sha: r for r in await rows(client, analyses)}


async def publish(client: Client, clock: FakeClock, github: FakeGitHub) -> str:
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    (discussion,) = github.repos[REPO].discussions
    body: str = discussion["body"]
    return body


async def test_commits_the_rules_are_sure_of_never_reach_the_llm(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    client, llm = await llm_day(app_client, github, aiohttp_server, clock)
    rows = await stored(client)
    sure = {sha for sha, r in rows.items() if (r.route or "").startswith("sure:")}
    # The day's docs-only, tests-only and version-bump commits.
    assert {rows[s].route for s in sure} == {"sure:docs", "sure:tests", "sure:version bump"}
    assert all(rows[s].analyzer == "rules" and rows[s].input_tokens == 0 for s in sure)
    assert len(llm.requests) == len(rows) - len(sure)
    asked = {r["messages"][1]["content"] for r in llm.requests}
    for s in sure:
        assert not any(f"Commit: {s}" in text for text in asked)
    body = await publish(client, clock, github)
    assert f"Analyser choice: LLM {len(rows) - len(sure)}" in body
    assert f"rules, sure from the paths and title {len(sure)}" in body


async def test_the_daily_share_sends_the_rest_of_the_day_to_the_rules(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    client, llm = await llm_day(
        app_client,
        github,
        aiohttp_server,
        clock,
        config="llm:\n  for: [high, medium, low]\n  max_commits_per_day: 2\n",
    )
    rows = await stored(client)
    assert len(llm.requests) == 2
    capped = [r for r in rows.values() if r.route == "cap"]
    assert capped and all(r.analyzer == "rules" for r in capped)
    body = await publish(client, clock, github)
    assert (
        f"The day's LLM share (`llm.max_commits_per_day`) was reached: the remaining "
        f"{len(capped)} commits got the rules analysis." in body
    )


async def test_llm_for_keeps_the_llm_to_the_rules_verdicts_named(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    client, llm = await llm_day(
        app_client, github, aiohttp_server, clock, config="llm:\n  for: [high, medium]\n"
    )
    rows = await stored(client)
    asked = [r for r in rows.values() if r.route == "llm"]
    # Only the commits the rules rate high or medium go to the LLM; the lows stay rules.
    assert len(llm.requests) == len(asked) > 0
    others = {r.route for r in rows.values() if r.route != "llm"}
    assert "verdict:low" in others
    assert not {route for route in others if route.startswith("verdict:")} - {"verdict:low"}


async def test_an_installation_budget_once_spent_leaves_the_day_to_the_rules(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    # One call of this day costs a few thousand tokens: the budget allows one.
    client, llm = await llm_day(
        app_client,
        github,
        aiohttp_server,
        clock,
        llm_daily_token_budget=1_000,
        worker_concurrency=1,
        llm_price_input_per_mtok=0.28,
        llm_price_cached_input_per_mtok=0.028,
        llm_price_output_per_mtok=0.42,
    )
    rows = await stored(client)
    assert len(llm.requests) == 1
    spent = [r for r in rows.values() if r.route == "budget"]
    assert spent and all(r.analyzer == "rules" for r in spent)
    (used,) = [r for r in rows.values() if r.route == "llm"]
    body = await publish(client, clock, github)
    assert (
        f"The day's LLM token budget was spent: the remaining {len(spent)} commits got the "
        "rules analysis." in body
    )
    cost = (used.input_tokens * 0.28 + used.output_tokens * 0.42) / 1e6
    assert (
        f"LLM tokens: {used.input_tokens:,} input (0 cached), {used.output_tokens:,} output; "
        f"estimated cost {cost:.4f}." in body
    )


async def test_a_repository_token_budget_applies_to_its_own_day(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    client, llm = await llm_day(
        app_client,
        github,
        aiohttp_server,
        clock,
        config="llm:\n  daily_tokens: 1\n",
        worker_concurrency=1,
    )
    assert len(llm.requests) == 1
    assert "budget" in {r.route for r in (await stored(client)).values()}


def cherry_pick(github: FakeGitHub) -> tuple[list[dict[str, Any]], str, str]:
    """The day's pushes plus one more: the first commit cherry-picked again (new sha)."""
    pushes = replay_pushes(REPO, DAY)
    repo = github.repos[REPO]
    original = pushes[0]["payload"]["after"]
    picked = copy.deepcopy(repo.commits[original])
    new_sha = uuid.uuid4().hex + "00000000"
    picked["sha"] = new_sha
    picked["commit"]["message"] += f"\n\n(cherry picked from commit {original})"
    for f in picked["files"]:  # another base: the same change at other line numbers
        f["patch"] = (f.get("patch") or "").replace("@@ -", "@@ -1").replace(" +", " +1", 1)
    repo.commits[new_sha] = picked
    repo.history.append(new_sha)
    last = copy.deepcopy(pushes[-1])
    payload = last["payload"]
    payload["before"], payload["after"] = payload["after"], new_sha
    payload["commits"][0]["id"] = new_sha
    payload["commits"][0]["message"] = picked["commit"]["message"]
    payload["head_commit"] = payload["commits"][0]
    last["headers"] = {**last["headers"], "X-GitHub-Delivery": str(uuid.uuid4())}
    return [*pushes, last], original, new_sha


async def test_a_cherry_pick_reuses_the_analysis_of_the_same_diff(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    github.serve_replay_day(REPO, DAY)
    pushes, original, picked = cherry_pick(github)
    client, llm = await llm_day(app_client, github, aiohttp_server, clock, pushes=pushes)
    rows = await stored(client)
    assert rows[picked].patch_id == rows[original].patch_id is not None
    assert rows[picked].route == "reused" and rows[picked].input_tokens == 0
    assert rows[picked].data["summary"] == rows[original].data["summary"]
    asked = [r["messages"][1]["content"] for r in llm.requests]
    assert not any(f"Commit: {picked}" in text for text in asked)
    assert sum(f"Commit: {original}" in text for text in asked) == 1


async def test_metrics_count_routes_cached_tokens_and_cost(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    client, llm = await llm_day(
        app_client,
        github,
        aiohttp_server,
        clock,
        llm=FakeLLM(cache="deepseek"),
        worker_concurrency=1,
        llm_price_input_per_mtok=0.28,
        llm_price_cached_input_per_mtok=0.028,
        llm_price_output_per_mtok=0.42,
    )
    rows = await stored(client)
    cached = sum(r.cached_input_tokens for r in rows.values())
    assert cached > 0
    text = await (await client.get("/metrics")).text()
    assert f"commit_digest_llm_cached_input_tokens_total {float(cached)}" in text
    assert 'commit_digest_analysis_routes_total{route="sure"} 3.0' in text
    assert f'commit_digest_analysis_routes_total{{route="llm"}} {float(len(llm.requests))}' in text
    cost_line = next(
        line for line in text.splitlines() if line.startswith("commit_digest_llm_estimated_cost")
    )
    assert float(cost_line.split()[-1]) > 0


def test_the_footer_lines_in_both_languages() -> None:
    usage = DigestUsage(
        routes={"llm": 3, "sure:docs": 2, "sure:ci": 1, "budget": 4},
        input_tokens=12_000,
        cached_input_tokens=9_000,
        output_tokens=900,
        cost=0.0012,
    )
    assert usage_lines(usage, "en") == [
        "Analyser choice: LLM 3 · rules, sure from the paths and title 3 (ci 1, docs 2) · "
        "rules, token budget spent 4.",
        "The day's LLM token budget was spent: the remaining 4 commits got the rules analysis.",
        "LLM tokens: 12,000 input (9,000 cached), 900 output; estimated cost 0.0012.",
    ]
    assert (
        usage_lines(usage, "zh-CN")[1] == "当天的 LLM token 预算已用完：其余 4 个提交使用规则分析。"
    )
    # Without an LLM the footer's "analysed by rules" says it all.
    assert usage_lines(DigestUsage(routes={"rules": 5, "excluded": 1}), "en") == []


async def test_the_offline_digest_keeps_what_the_rules_are_sure_of_from_the_llm(
    tmp_path: Path, aiohttp_server: Any
) -> None:
    def run(*args: str) -> None:
        _git(tmp_path, *args, when="2026-07-10T10:00:00Z", author="Dev")

    run("init", "-q", "-b", "main")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n")
    run("add", "-A")
    run("commit", "-q", "-m", "[Doc] Add a guide (#1)")
    (tmp_path / "engine.py").write_text("def run():\n    return 1\n")
    run("add", "-A")
    run("commit", "-q", "-m", "[Feature] Add the engine (#2)")

    llm = FakeLLM()
    server = await aiohttp_server(llm.app())
    client = openai.AsyncOpenAI(
        base_url=str(server.make_url("/v1")), api_key="test-key", max_retries=0
    )
    analyzer = LLMAnalyzer(
        client,
        model="fake-model",
        max_input_tokens=12_000,
        max_output_tokens=2_000,
        concurrency=1,
        timeout_seconds=5.0,
    )
    _, parts = await offline_digest(tmp_path, analyzer)
    await client.close()
    assert len(llm.requests) == 1
    assert "[Feature] Add the engine" in llm.requests[0]["messages"][1]["content"]
    # (The fake's default answer, a bugfix, has its type overruled for a feature: the line
    # goes on with that drop.)
    assert (
        "Analyser choice: LLM 1 · rules, sure from the paths and title 1 (docs 1)" in parts[-1].body
    )


def test_the_llm_config_keys_are_checked_like_the_others() -> None:
    config = parse_config("llm:\n  for: [high]\n  max_commits_per_day: 5\n  daily_tokens: 9000\n")
    assert (config.llm.for_, config.llm.max_commits_per_day, config.llm.daily_tokens) == (
        ["high"],
        5,
        9000,
    )
    # Stored as JSON and read back (the worker keeps the validated config in the database).
    assert RepoConfig.model_validate(config.model_dump(mode="json")) == config
    assert parse_config("").llm.for_ == ["high", "medium", "low"]
    with pytest.raises(ConfigError, match=r"`llm\.for\.0`"):
        parse_config("llm:\n  for: [urgent]\n")
    with pytest.raises(ConfigError, match=r"`llm\.max_commits_per_day`"):
        parse_config("llm:\n  max_commits_per_day: -1\n")
    # An unknown key is left out, said, and the rest applies.
    kept, origin = parse_with_origin("llm:\n  budget: 5\n  max_commits_per_day: 2\n")
    assert kept.llm.max_commits_per_day == 2
    assert origin.ignored == ("`llm.budget`",)


def test_the_cost_counts_cached_input_at_its_own_price() -> None:
    # A run's cost, as `bot eval` prints it, is tested with its run in test_eval.py.
    prices = Prices(input=0.28, cached_input=0.028, output=0.42)
    # 1M input of which 0.8M cached, 0.1M output: 0.2*0.28 + 0.8*0.028 + 0.1*0.42
    assert prices.cost(1_000_000, 800_000, 100_000) == pytest.approx(0.056 + 0.0224 + 0.042)
    assert not Prices().known and Prices().cost(10**6, 0, 10**6) == 0
