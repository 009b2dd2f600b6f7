"""The rules analyser, by tables of real titles and file lists (replay days and dev labels)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.analysis.messages import first_paragraph
from bot.analysis.paths import PathKind, area_of, path_kind
from bot.analysis.rules import analyze
from bot.analysis.titles import parse_title
from bot.models import Analysis, ChangeType, CommitInput, FileChange, Importance, PullRequestInfo
from tests.support import replay_day, replay_index

T = ChangeType
I = Importance  # noqa: E741 - reads as the column header of the tables below


@pytest.mark.parametrize(
    ("title", "tags", "conventional", "bang", "revert", "text"),
    [
        (
            "[ROCm][Perf] Faster paged attention (#123)",
            ("rocm", "perf"),
            None,
            False,
            False,
            "Faster paged attention",
        ),
        ("[CI/Build] Pin torch (#9)", ("ci", "build"), None, False, False, "Pin torch"),
        ("fix(scheduler)!: drop v1 queue", (), "fix", True, False, "drop v1 queue"),
        ("feat: add GLM5 support (#4)", (), "feat", False, False, "add GLM5 support"),
        ('Revert "[Core] Add X (#1)" (#2)', (), None, False, True, 'Revert "[Core] Add X (#1)"'),
        (
            "[Doc]:  Update additional_config.md (#10)",
            ("doc",),
            None,
            False,
            False,
            "Update additional_config.md",
        ),
        (
            "[Frontend][2/n] Make pooling consistent (#32574)",
            ("frontend", "2"),
            None,
            False,
            False,
            "Make pooling consistent",
        ),
        ("Plain title without tags", (), None, False, False, "Plain title without tags"),
    ],
)
def test_titles_are_parsed(
    title: str, tags: tuple[str, ...], conventional: str | None, bang: bool, revert: bool, text: str
) -> None:
    parsed = parse_title(title)
    assert parsed.tags[: len(tags)] == tags
    assert (parsed.conventional, parsed.bang, parsed.revert) == (conventional, bang, revert)
    assert parsed.text == text


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("docs/source/tutorials/models/GLM5.md", PathKind.DOCS),
        ("README.md", PathKind.DOCS),
        ("examples/quantization_w8a8_fp8/llama3_example.py", PathKind.DOCS),
        ("tests/e2e/singlecard/test_sampler.py", PathKind.TESTS),
        ("tests/ut/conftest.py", PathKind.TESTS),
        (".github/workflows/vllm_ascend_test.yaml", PathKind.CI),
        ("requirements/common.txt", PathKind.BUILD),
        ("Dockerfile.310p", PathKind.BUILD),
        ("pyproject.toml", PathKind.BUILD),
        ("csrc/matmul_allreduce_add_rmsnorm/op_kernel/kernel.cpp", PathKind.KERNEL),
        ("vllm_ascend/ops/triton/fla/chunk.py", PathKind.KERNEL),
        ("src/llmcompressor/entrypoints/oneshot.py", PathKind.PUBLIC_API),
        ("vllm_ascend/worker/model_runner_v1.py", PathKind.SOURCE),
    ],
)
def test_path_kinds(path: str, kind: PathKind) -> None:
    assert path_kind(path) is kind


def test_areas_group_two_directory_levels() -> None:
    assert area_of("vllm_ascend/worker/model_runner_v1.py") == "vllm_ascend/worker"
    assert area_of("vllm_ascend/envs.py") == "vllm_ascend"
    assert area_of("setup.py") == "setup.py"


def files(*specs: tuple[str, int]) -> list[FileChange]:
    return [FileChange(filename=name, additions=n, deletions=0) for name, n in specs]


# (title, files, expected primary type, expected importance) — real titles from the replay days
# and the dev labels, with file lists of the shape those commits have.
CASES: list[tuple[str, list[FileChange], ChangeType, Importance]] = [
    (
        "[Doc] Correct product name from 'A5' to 'Ascend 950 Products' (#10533)",
        files(("docs/source/tutorials/a.md", 30), ("docs/source/b.md", 24)),
        T.DOCS,
        I.LOW,
    ),
    (
        "[CI] Add wangzhishenghw into ALLOWED_USERS (#11809)",
        files((".github/workflows/ci.yaml", 2)),
        T.CI,
        I.LOW,
    ),
    (
        "[UT]add triton ops ut :  test_fused_qkvzba_split_reshape_cat (#5474)",
        files(("tests/ut/ops/test_x.py", 100)),
        T.TESTS,
        I.LOW,
    ),
    (
        "[BugFix][kernel] fix matmul_allreduce_add_rmsnorm_kernel (#5335)",
        files(("csrc/matmul/op_kernel/k.cpp", 5)),
        T.BUGFIX,
        I.LOW,
    ),
    (
        "[BugFix][SpecDecode] Fix low MTP acceptance rate for SFA+DSA_CP (MTP>1) (#11724)",
        files(("vllm_ascend/attention/sfa.py", 40), ("vllm_ascend/spec_decode/mtp.py", 15)),
        T.BUGFIX,
        I.MEDIUM,
    ),
    (
        "[Feature][Scheduler] Add ShortRequestFirst scheduling (#11576)",
        files(
            ("vllm_ascend/core/scheduler.py", 300),
            ("vllm_ascend/core/queue.py", 250),
            ("tests/ut/test_q.py", 200),
        ),
        T.FEATURE,
        # A new scheduling policy of 750 lines: size alone does not make it high.
        I.MEDIUM,
    ),
    (
        "[Refactor] Remove dynamic batch slo (#11933)",
        files(("vllm_ascend/core/dyn.py", 500), ("docs/source/dyn.md", 275)),
        T.REFACTOR,
        I.MEDIUM,
    ),
    (
        "[Quantization][Deprecation] Remove RTN (#32697)",
        files(("vllm/model_executor/layers/quantization/rtn.py", 400)),
        T.DEPRECATION,
        I.HIGH,
    ),
    (
        "Bump Flashinfer to v0.6.1 (#30993)",
        files(("requirements/cuda.txt", 2), ("docker/Dockerfile", 2)),
        T.BUILD,
        I.LOW,
    ),
    (
        'Revert "Enable Cross layers KV cache layout at NIXL Connector (#30207)" (#33241)',
        files(("vllm/distributed/kv_transfer/nixl.py", 180)),
        T.REVERT,
        I.MEDIUM,
    ),
    (
        "fix(api)!: drop the v1 completions endpoint",
        files(("src/pkg/api/v1.py", 12)),
        T.BUGFIX,
        I.HIGH,
    ),
    ("[Docs] Fix typo in quantization guide", files(("docs/guide.md", 1)), T.DOCS, I.LOW),
    (
        "[Security] Sanitize chat template inputs",
        files(("vllm/entrypoints/chat.py", 8)),
        T.SECURITY,
        I.HIGH,
    ),
    (
        "[Perf] Only clone when needed for `moe_permute` (#32273)",
        files(("vllm/model_executor/layers/fused_moe/permute.py", 60)),
        T.PERFORMANCE,
        I.MEDIUM,
    ),
]


@pytest.mark.parametrize(
    ("title", "changed", "primary", "importance"), CASES, ids=[c[0][:40] for c in CASES]
)
def test_rules_classify_real_commits(
    title: str, changed: list[FileChange], primary: ChangeType, importance: Importance
) -> None:
    analysis = analyze(CommitInput(sha="a" * 40, message=title, files=changed))
    assert analysis.change_types[0] is primary
    assert analysis.importance is importance


def test_breaking_footer_makes_a_high_breaking_change_with_its_risk() -> None:
    message = "feat: new config loader\n\nBREAKING CHANGE: `config.yaml` is no longer read."
    analysis = analyze(
        CommitInput(sha="b" * 40, message=message, files=files(("src/config.py", 80)))
    )
    assert analysis.breaking is True
    assert analysis.importance is Importance.HIGH
    # The risk names the fact: the footer's own text, not a generic "Breaking change".
    assert [r.description for r in analysis.risks] == [
        "The message declares a breaking change: `config.yaml` is no longer read."
    ]


def test_pr_labels_count_as_tags() -> None:
    commit = CommitInput(
        sha="c" * 40,
        message="Tweak the loader (#5)",
        files=files(("src/loader.py", 30)),
        pull_request=PullRequestInfo(number=5, labels=["bug"]),
    )
    assert analyze(commit).change_types[0] is ChangeType.BUGFIX


def test_low_importance_is_types_and_one_line() -> None:
    analysis = analyze(CommitInput(sha="d" * 40, message="[Doc] Fix typo\n\nLong body.\n" * 3))
    assert analysis.importance is Importance.LOW
    assert "\n" not in analysis.summary and len(analysis.summary) <= 200
    assert not analysis.risks and not analysis.recommendations and analysis.insights is None


def _replay_commits() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for day in replay_index():
        for commit in replay_day(day["repo"], day["date"])["commits"]:
            out.append((day["repo"], commit))
    return out


def test_every_replay_commit_gets_a_valid_deterministic_analysis() -> None:
    seen = 0
    for repo, raw in _replay_commits():
        commit = CommitInput.from_github(raw, repo=repo)
        first = analyze(commit)
        assert first == analyze(commit)
        # Round-trips through its own schema: what the store keeps is what the renderer reads.
        assert Analysis.model_validate_json(first.model_dump_json()) == first
        assert first.analyzer == "rules"
        for text in (first.summary, *(r.description for r in first.risks)):
            assert "Signed-off-by" not in text and "vLLM version" not in text
        seen += 1
    assert seen == 214


def test_summary_skips_pr_template_boilerplate() -> None:
    day = replay_day("vllm-project/vllm-ascend", "2026-07-10")
    message = next(
        c["commit"]["message"] for c in day["commits"] if "(#11663)" in c["commit"]["message"]
    )
    body = message.split("\n", 1)[1]
    paragraph = first_paragraph(body)
    assert paragraph == "This PR fixes the allgatherEP W4A8_MXFP4 quantization path on Ascend 950."


def test_summary_skips_test_sections() -> None:
    body = (
        "### What this PR does?\n\n### How was this patch tested?\n"
        "Ran `pytest -k foo` locally on a box.\n"
    )
    assert first_paragraph(body) is None


def test_templated_text_follows_the_repository_language() -> None:
    message = "feat!: remove the v1 loader"
    commit = CommitInput(sha="e" * 40, message=message, files=files(("src/loader.py", 300)))
    assert analyze(commit, language="zh-CN").risks[0].description == (
        "标题将此变更标记为破坏性变更（`feat!`）。"
    )
    assert analyze(commit, language="en").risks[0].description == (
        "The title marks this change as breaking (`feat!`)."
    )
