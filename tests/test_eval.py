"""`python -m bot eval`: labels in both formats, the report, and the LLM's tokens."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openai
import pytest

from bot.__main__ import main
from bot.analysis import rules
from bot.analysis.cost import Prices
from bot.analysis.llm import LLMAnalyzer
from bot.cli.evaluation import evaluate, label_type, labelled_commits, replay_commits
from bot.models import ChangeType, Importance
from tests.clones import _git, repo
from tests.fakes.llm import VALID_BODY, FakeLLM
from tests.support import REPLAY, replay_day

__all__ = ["repo"]  # the offline tests' clone fixture

I = Importance  # noqa: E741


pytestmark = pytest.mark.usefixtures("keep_test_logging")


def write(tmp_path: Path, rows: list[Any]) -> Path:
    path = tmp_path / "labels.jsonl"
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.usefixtures("environ_clean")
def test_titles_only_labels_give_agreement_confusion_and_high_recall(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = write(
        tmp_path,
        [
            {
                "sha": "a1",
                "title": "[Doc] Fix typo in the guide",
                "importance": "low",
                "change_type_raw": "文档更新",
            },
            {
                "sha": "a2",
                "title": "[Kernel] Add topk_sigmoid kernel (#31246)",
                "importance": "high",
                "change_type_raw": "功能增强 / 架构变更",
            },
            {"sha": "a3", "title": "[CI] Pin the runner image", "importance": "high"},
            "not json",
            {"sha": "a4", "title": "x", "importance": "urgent"},
            "[" * 100_000 + "]" * 100_000,
        ],
    )
    assert main(["eval", str(labels), "--show-disagreements"]) == 0
    out = capsys.readouterr().out
    assert "analyser: rules" in out
    assert "line 6: invalid JSON: nested too deeply" in out
    assert "commits: 3 (3 lines skipped)" in out
    assert "importance agreement: 2/3 = 67%" in out
    assert "| high | 1 | 0 | 1 |" in out and "| low | 0 | 0 | 1 |" in out
    assert "high recall: 1/2 = 50%" in out and "high precision: 1/1 = 100%" in out
    assert "high rated low: 1" in out
    assert "primary type agreement: 2/2 = 100%" in out
    assert "line 4: invalid JSON" in out and "line 5: `importance` must be" in out
    assert "  high -> low    [CI] Pin the runner image" in out


@pytest.mark.usefixtures("environ_clean")
def test_full_commits_are_looked_up_by_sha_in_replay_days(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    day = replay_day("vllm-project/vllm-ascend", "2026-07-15")
    docs = next(c for c in day["commits"] if "(#11979)" in c["commit"]["message"])
    labels = write(
        tmp_path,
        [
            # Judged high on purpose: the analyser sees the files (docs only) and says low.
            {
                "repo": "vllm-project/vllm-ascend",
                "day": "2026-07-15",
                "sha": docs["sha"],
                "title": "[Doc] Fix incorrect A3 NPU count",
                "importance": "high",
                "type": "docs",
                "breaking": False,
                "why": "docs only",
            },
            {"sha": "0" * 40, "importance": "low"},
        ],
    )
    assert main(["eval", str(labels), "--replay", str(REPLAY), "--show-disagreements"]) == 0
    out = capsys.readouterr().out
    assert "commits: 1 (1 lines skipped)" in out
    assert "| high | 0 | 0 | 1 |" in out
    assert "breaking agreement: 1/1 = 100%" in out
    assert "line 2: sha 000000000000 is not in the replay directory" in out
    assert "[docs only]" in out


async def test_inline_commits_and_the_llms_tokens_are_counted(
    aiohttp_server: Callable[..., Any], tmp_path: Path
) -> None:
    fake = FakeLLM()
    server = await aiohttp_server(fake.app())
    client = openai.AsyncOpenAI(
        base_url=str(server.make_url("/v1")), api_key="test-key", max_retries=0
    )
    analyzer = LLMAnalyzer(
        client,
        model="fake-model",
        max_input_tokens=12_000,
        max_output_tokens=2_000,
        concurrency=2,
        timeout_seconds=5.0,
    )
    raw = replay_day("vllm-project/llm-compressor", "2026-06-22")["commits"][0]
    lines = [
        json.dumps({"sha": raw["sha"], "importance": "medium", "commit": raw}),
        json.dumps({"title": "Add a thing", "importance": "low"}),
    ]
    fake.cache = "deepseek"
    prices = Prices(input=0.28, cached_input=0.028, output=0.42)
    report = await evaluate(analyzer, lines, prices=prices)
    await client.close()
    assert report.analyzer == "llm:fake-model" and report.total == 2
    assert report.fallbacks == 0
    assert len(fake.requests) == 2
    # The fake reports usage like the real API (about four characters a token); the report
    # adds it up over both calls.
    answer = len(json.dumps(VALID_BODY, ensure_ascii=False)) // 4
    assert report.output_tokens == 2 * answer
    assert report.input_tokens > 2 * 1_000  # each prompt carries the schema and the rubric
    # The second call's shared system prompt is served from the (fake) provider's cache, and
    # the run's cost prices cached input at its own rate.
    assert 0 < report.cached_input_tokens < report.input_tokens
    cost = (
        (report.input_tokens - report.cached_input_tokens) * 0.28
        + report.cached_input_tokens * 0.028
        + report.output_tokens * 0.42
    ) / 1_000_000
    text = "\n".join(report.lines())
    assert f"({report.cached_input_tokens} cached)" in text
    assert f"estimated cost: {cost:.4f} at the configured prices" in text


def test_label_types_accept_the_apps_names_and_the_batch_jobs_raw_types() -> None:
    assert label_type({"type": "bugfix"}) is ChangeType.BUGFIX
    assert label_type({"type": "build/dependencies"}) is ChangeType.BUILD
    assert label_type({"change_type_raw": "功能移除 / 代码清理（Deprecation）"}) is (
        ChangeType.DEPRECATION
    )
    assert label_type({"type": "something else"}) is None


def test_replay_directory_is_indexed_by_sha() -> None:
    commits = replay_commits(REPLAY)
    assert len(commits) == 214
    repo, raw = commits[replay_day("vllm-project/llm-compressor", "2025-09-16")["after"]]
    assert repo == "vllm-project/llm-compressor" and raw["files"]


@pytest.mark.usefixtures("environ_clean")
def test_without_labels_every_replay_commit_is_measured_per_day(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["eval", "--replay", str(REPLAY), "--lang", "zh-CN"]) == 0
    out = capsys.readouterr().out
    assert "commits: 214" in out
    rows = [line for line in out.splitlines() if line.startswith("| vllm-project/")]
    assert len(rows) == 10 and "| vllm-project/vllm-ascend 2026-07-15 | 29 |" in out
    assert out.splitlines()[-1].startswith("| all | 214 |")
    # One day file alone is one set.
    day = REPLAY / "vllm-project__llm-compressor" / "2026-06-22.json.gz"
    assert main(["eval", "--replay", str(day)]) == 0
    out = capsys.readouterr().out
    assert "commits: 10" in out and "| all |" not in out
    assert "n/a (en)" in out and "n/a (no fact guard)" in out


@pytest.mark.usefixtures("environ_clean")
def test_eval_needs_something_to_read(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval"]) == 2
    assert "eval needs LABELS.jsonl, --replay DIR or --git PATH" in capsys.readouterr().err


@pytest.mark.usefixtures("environ_clean", "repo")
def test_labels_are_scored_on_a_clones_full_commits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The title alone ("Small tidy-up") says nothing; the clone's commit adds a function,
    # which the rules see only with --git (its files, patches and both sides). A sha the
    # clone lacks is reported, not guessed from its title.
    widgets = tmp_path / "widgets"  # the `repo` fixture's clone
    tidy = _git(widgets, "rev-parse", "HEAD~1")
    guide = _git(widgets, "rev-parse", "HEAD")
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        "\n".join(
            json.dumps(row)
            for row in (
                {"sha": tidy, "title": "Small tidy-up (#12)", "importance": "low"},
                {"sha": guide, "title": "Write the guide (#13)", "importance": "low"},
                {"sha": "0" * 40, "title": "Gone", "importance": "high"},
            )
        ),
        encoding="utf-8",
    )
    assert main(["eval", str(labels), "--git", str(widgets), "--show-disagreements"]) == 0
    out = capsys.readouterr().out
    assert "commits: 2 (1 lines skipped)" in out
    assert "importance agreement: 2/2 = 100%" in out
    assert "line 3: sha 000000000000 is not in the clone" in out
    # Each label's commit is the clone's: its files with both sides, read as the App would.
    commits = labelled_commits(widgets, [tidy, "0" * 40])
    assert list(commits) == [tidy]
    (changed,) = commits[tidy].files
    assert changed.sides is not None and "compute_checksum" in changed.sides[1]
    assert "`compute_checksum(data) -> int`" in rules.analyze(commits[tidy]).summary
