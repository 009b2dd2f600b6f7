"""The rules analyser, by tables of real titles and file lists (replay days and dev labels)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.analysis.messages import first_paragraph
from bot.analysis.paths import PathKind, area_of, path_kind
from bot.analysis.rules import _fitted, analyze
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
        # python-tabulate 0a6554e: AppVeyor's build, no shipped code
        ("appveyor.yml", PathKind.CI),
        (".travis.yml", PathKind.CI),
        ("requirements/common.txt", PathKind.BUILD),
        ("Dockerfile.310p", PathKind.BUILD),
        ("pyproject.toml", PathKind.BUILD),
        ("csrc/matmul_allreduce_add_rmsnorm/op_kernel/kernel.cpp", PathKind.KERNEL),
        ("vllm_ascend/ops/triton/fla/chunk.py", PathKind.KERNEL),
        ("src/llmcompressor/entrypoints/oneshot.py", PathKind.PUBLIC_API),
        ("vllm_ascend/worker/model_runner_v1.py", PathKind.SOURCE),
        # A code file is code whatever its name says: never configuration.
        ("vllm_ascend/ascend_config.py", PathKind.SOURCE),
        ("vllm_ascend/_310p/quantization/modelslim_config.py", PathKind.SOURCE),
        (
            "vllm_ascend/distributed/kv_transfer/kv_pool/ascend_store/config_data.py",
            PathKind.SOURCE,
        ),
        ("csrc/torch_binding.cpp", PathKind.KERNEL),
        ("src/server/main.cpp", PathKind.SOURCE),
        # A tuning table is data, even beside kernels or in a `configs/` folder.
        (
            "vllm/model_executor/layers/fused_moe/configs/E=64,N=640,device_name=NVIDIA_H100.json",
            PathKind.DATA,
        ),
        ("csrc/moe/tuning/topk_sigmoid_sm90.json", PathKind.DATA),
        ("assets/logo.png", PathKind.DATA),
        # A licence is legal text wherever it lies.
        ("LICENSE", PathKind.LEGAL),
        ("csrc/third_party/cutlass/LICENSE.txt", PathKind.LEGAL),
        # Settings files are configuration.
        ("recipes/configs/quant.yaml", PathKind.CONFIG),
        ("src/pkg/config.json", PathKind.CONFIG),
        (".coveragerc", PathKind.CONFIG),
        ("CMakeLists.txt", PathKind.BUILD),
        # A version stamp is build metadata, even beside kernels.
        ("csrc/version.info", PathKind.BUILD),
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
        # A fix of shipped code is not a tweak however small: of limited reach, medium.
        I.MEDIUM,
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
        # The title names a removal, but no public name, option or variable is shown to go.
        "[Quantization][Deprecation] Remove RTN (#32697)",
        files(("vllm/model_executor/layers/quantization/rtn.py", 400)),
        T.DEPRECATION,
        I.MEDIUM,
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
        "The message declares a breaking change: “`config.yaml` is no longer read.”"
    ]


# distro 2a89f76's shape: defaults `True` become `None`, a new `ValueError`, and a title the
# author opens with `[BREAKING]` (the facts alone prove no removal, rename or changed default)
_MARKED_PATCH = (
    "@@ -1,4 +1,8 @@\n"
    " class Reader:\n"
    "-    def __init__(self, include_lsb: bool = True, root_dir=None):\n"
    "-        self.include_lsb = include_lsb\n"
    "+    def __init__(self, include_lsb: Optional[bool] = None, root_dir=None):\n"
    "+        if root_dir is not None and include_lsb:\n"
    '+            raise ValueError("not with root_dir")\n'
    "+        self.include_lsb = (\n"
    "+            include_lsb if include_lsb is not None else root_dir is None\n"
    "+        )\n"
)


@pytest.mark.parametrize(
    ("title", "mark"),
    [
        ("[BREAKING] Exclude subprocess data sources when `root_dir` is given", "[BREAKING]"),
        ("[core][Breaking] Exclude subprocess data sources", "[Breaking]"),
        ("BREAKING: exclude subprocess data sources", "BREAKING:"),
        ("BREAKING CHANGE: exclude subprocess data sources", "BREAKING CHANGE:"),
        ("(breaking) Exclude subprocess data sources", "(breaking)"),
    ],
)
def test_a_title_the_author_marks_breaking_is_a_high_breaking_change(title: str, mark: str) -> None:
    changed = [
        FileChange(filename="src/pkg/reader.py", additions=6, deletions=2, patch=_MARKED_PATCH)
    ]
    analysis = analyze(CommitInput(sha="b" * 40, message=title, files=changed))
    assert analysis.breaking is True
    assert analysis.importance is Importance.HIGH
    assert f"The title marks this change as breaking (`{mark}`)." in [
        r.description for r in analysis.risks
    ]


@pytest.mark.parametrize(
    "title",
    [
        "Exclude subprocess data sources when `root_dir` is given",
        # words that open a title without being the author's mark
        "Breaking up the reader into modules",
        "Fix BREAKING_CHANGES.md link",
    ],
)
def test_a_title_without_the_mark_is_not_breaking_by_its_words(title: str) -> None:
    changed = [
        FileChange(filename="src/pkg/reader.py", additions=6, deletions=2, patch=_MARKED_PATCH)
    ]
    analysis = analyze(CommitInput(sha="b" * 40, message=title, files=changed))
    assert analysis.breaking is False
    assert not any("title marks" in r.description for r in analysis.risks)


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


# --- importance from what the change does (the rubric in bot/analysis/rubric.py) ----------


def _fix(path: str, lines: int) -> FileChange:
    return FileChange(filename=path, additions=lines // 2, deletions=lines - lines // 2)


IMPORTANCE_CASES: list[tuple[str, str, list[FileChange], Importance, bool]] = [
    (
        "a 30-line fix of silently corrupted output is high",
        "[Bugfix] Fix decode output\n\nDecode output was silently corrupted for 94 % of "
        "requests when the prefix cache was on.",
        [_fix("vllm/v1/worker/decode.py", 30)],
        I.HIGH,
        False,
    ),
    (
        "a deadlock at start-up is high",
        "[Bugfix] Fix multi-rank start-up\n\nRank 0 waits on a barrier the others never reach: "
        "a deadlock at start-up with more than one rank.",
        [_fix("vllm/distributed/parallel_state.py", 12), _fix("tests/test_init.py", 20)],
        I.HIGH,
        False,
    ),
    (
        "the same symptom on one platform is medium",
        "[Bugfix][310P] Fix crash\n\nThe sampler crashes on 310P when the draft mask is on NPU.",
        [_fix("vllm_ascend/_310p/sample/sampler.py", 60)],
        I.MEDIUM,
        False,
    ),
    (
        "a build broken on a supported toolchain is medium, not low",
        "Fix build on CUDA 13\n\nThe build fails with an undefined symbol on CUDA 13.0.",
        [_fix("CMakeLists.txt", 6)],
        I.MEDIUM,
        False,
    ),
    (
        "a 5,000-line refactor with no change in behaviour is medium",
        "[Refactor] Split the model runner into modules",
        [_fix(f"vllm/v1/worker/runner_{i}.py", 500) for i in range(10)],
        I.MEDIUM,
        False,
    ),
    (
        "a large docs change is low",
        "[Doc] Rewrite the quantization guide",
        [_fix("docs/source/quantization.md", 3000)],
        I.LOW,
        False,
    ),
    (
        "a removed configuration key is breaking and high",
        "[Refactor] Remove weight prefetch config",
        [
            FileChange(
                filename="vllm_ascend/ascend_config.py",
                deletions=1,
                patch='@@ -3,1 +3,0 @@\n-        self.w = cfg.get("weight_prefetch_config", {})',
            )
        ],
        I.HIGH,
        True,
    ),
    (
        "breaking evidence in experimental code only is medium",
        "feat(experimental)!: drop the v0 sampler",
        [_fix("src/pkg/experimental/sampler.py", 40)],
        I.MEDIUM,
        True,
    ),
    (
        "a new kernel is a new capability",
        "[Kernel] Add topk_sigmoid kernel",
        [FileChange(filename="csrc/moe/topk_sigmoid.cu", status="added", additions=300)],
        I.HIGH,
        False,
    ),
    (
        "performance backed by numbers is high",
        "[Perf] Faster paged attention\n\nDecode throughput is 2.1x faster on H100.",
        [_fix("vllm/attention/ops/paged_attn.py", 120)],
        I.HIGH,
        False,
    ),
    (
        "performance without numbers is medium",
        "[Perf] Faster paged attention",
        [_fix("vllm/attention/ops/paged_attn.py", 120)],
        I.MEDIUM,
        False,
    ),
    (
        "a security fix is high even where only CI workflows change",
        "[CI] Fix CI bug\n\nFixes script injection in comment-triggered workflows that hold a "
        "token.",
        [_fix(".github/workflows/pr_command.yml", 40)],
        I.HIGH,
        False,
    ),
    (
        "a revert, even of a default change, is medium",
        'Revert "[Feat] enable hierarchical mc2 ops by default (#5545)" (#5611)',
        [_fix("vllm_ascend/ascend_config.py", 30)],
        I.MEDIUM,
        False,
    ),
    (
        "a crash under a condition named in the title is medium",
        "[BugFix] Fix crash when routed experts are returned with async scheduling\n\n"
        "The engine crashes because the buffer is overwritten.",
        [_fix("vllm_ascend/worker/model_runner.py", 60)],
        I.MEDIUM,
        False,
    ),
    (
        "dropping a supported dependency version is breaking",
        "[Misc] Drop vLLM v0.22.1 compatibility from main",
        [_fix("vllm_ascend/utils.py", 80)],
        I.HIGH,
        True,
    ),
    (
        "an upgrade of the images users build from is not CI-only, whatever its tags",
        "[CI][Doc] Upgrade the base toolkit to 9.0.1",
        [_fix(f"Dockerfile.{v}", 2) for v in ("a2", "a3", "a5")]
        + [_fix(".github/workflows/nightly.yaml", 40), _fix("csrc/version.info", 20)],
        I.MEDIUM,
        False,
    ),
    (
        "a fix of crashes that changes only tests and their requirements is a low test change",
        "[Bugfix] Fix crashes and hangs in the spec decode tests\n\nThe e2e spec decode tests "
        "crashed on teardown and hung the CI job; this gives each test its own port.",
        [_fix("tests/e2e/test_spec_decode.py", 40), _fix("requirements/test.txt", 2)],
        I.LOW,
        False,
    ),
    (
        "a new kernel for one model family the title names is medium",
        "[Kernel] Add fused Kimi K3 decode kernel",
        [FileChange(filename="csrc/kda/fused_decode.cu", status="added", additions=300)],
        I.MEDIUM,
        False,
    ),
    (
        "a revert whose diff removes a configuration key is medium and not breaking",
        'Revert "[Feat] Add weight prefetch config (#11)" (#12)',
        [
            FileChange(
                filename="vllm_ascend/ascend_config.py",
                deletions=1,
                patch='@@ -3,1 +3,0 @@\n-        self.w = cfg.get("weight_prefetch_config", {})',
            )
        ],
        I.MEDIUM,
        False,
    ),
    (
        "the same removal said breaking by its author stays high",
        'Revert "[Feat] Add weight prefetch config (#11)" (#12)\n\nBREAKING CHANGE: the '
        "weight_prefetch_config key is gone.",
        [
            FileChange(
                filename="vllm_ascend/ascend_config.py",
                deletions=1,
                patch='@@ -3,1 +3,0 @@\n-        self.w = cfg.get("weight_prefetch_config", {})',
            )
        ],
        I.HIGH,
        True,
    ),
    (
        "dropping a version floor widens support: nobody must move",
        "perf(moe): mainloop workaround, drop the 4.6.1 runtime floor",
        [_fix("flashinfer/fused_moe/cute_dsl/mainloop.py", 80)],
        I.MEDIUM,
        False,
    ),
    (
        "a speed-up of compile time is not a hot path",
        "[Perf] Split the routing kernels to reduce compile time\n\nThe kernels now build "
        "3.1x faster.",
        [_fix("csrc/routing/routing_kernels.cu", 400)],
        I.MEDIUM,
        False,
    ),
    (
        "a fix that makes a test pass is medium, whatever output the test saw",
        "fix: make the mxfp8 gemm test pass by quantizing along k\n\nThe test fed scales "
        "in the wrong layout, which gives wrong output; a warning now says so.",
        [_fix("flashinfer/gemm/gemm_base.py", 40), _fix("tests/gemm/test_mxfp8.py", 30)],
        I.MEDIUM,
        False,
    ),
    (
        "regression in a description is no symptom",
        "fix(comm): align the two-shot workspace stages\n\nAligns each buffer to 32 bytes "
        "and adds a large-workspace regression test. TP2 regression: 1 passed.",
        [_fix("flashinfer/comm/allreduce.py", 13)],
        I.MEDIUM,
        False,
    ),
    (
        "an accuracy regression in a description is a symptom",
        "[BugFix] Restore the decode mask handling\n\nThe decode mask optimization of #11266 "
        "causes an accuracy regression in graph mode; restoring the mask fixes it.",
        [_fix("vllm_ascend/attention/attention_v1.py", 40)],
        I.HIGH,
        False,
    ),
    (
        "a page that explains security is a docs change",
        "security docs for TRUSTED_HOSTS",
        [_fix("docs/web-security.rst", 40)],
        I.LOW,
        False,
    ),
    (
        "a test change that turns a test on by default is no changed default",
        "test: enable the MoE fuzzer by default and prune legacy tests",
        [_fix("tests/moe/test_fuzz.py", 300), _fix("flashinfer/fused_moe/runners.py", 30)],
        I.MEDIUM,
        False,
    ),
    (
        "a deprecation type alone is not breaking",
        "[Deprecation] Warn when `use_fast` is passed",
        [_fix("src/pkg/loader.py", 10)],
        I.MEDIUM,
        False,
    ),
]


@pytest.mark.parametrize(
    ("message", "changed", "importance", "breaking"),
    [c[1:] for c in IMPORTANCE_CASES],
    ids=[c[0] for c in IMPORTANCE_CASES],
)
def test_importance_follows_what_the_change_does(
    message: str, changed: list[FileChange], importance: Importance, breaking: bool
) -> None:
    analysis = analyze(CommitInput(sha="9" * 40, message=message, files=changed))
    assert (analysis.importance, analysis.breaking) == (importance, breaking)


def test_a_severe_title_without_a_description_is_medium() -> None:
    # Titles alone do not show how common the affected path is.
    commit = CommitInput(sha="8" * 40, message="[Bugfix] Fix GPU memory leak", files_known=False)
    assert analyze(commit).importance is Importance.MEDIUM


def test_a_named_class_of_vulnerability_is_a_security_fix() -> None:
    # flash-attention 0816ef12 and 12f0ce1d: a path traversal in a build script's archive
    # extraction, and a checkpoint loader that could execute arbitrary code
    tar = CommitInput(
        sha="6" * 40,
        message=(
            "hopper/setup.py: harden tarfile extraction against path traversal (#2702)\n\n"
            "download_and_copy() extracted archives with a bare tarfile.extractall(), "
            "allowing arbitrary file write at build time via a malicious archive member."
        ),
        files=[FileChange(filename="hopper/setup.py", additions=40, deletions=3)],
    )
    load = CommitInput(
        sha="5" * 40,
        message=(
            "fix: add weights_only=True to all torch.load call sites (#2622)\n\n"
            "A malicious .pt file can execute arbitrary code on the machine loading it."
        ),
        files=[FileChange(filename="flash_attn/utils/pretrained.py", additions=4, deletions=4)],
    )
    assert analyze(tar).importance is Importance.HIGH
    assert analyze(load).importance is Importance.HIGH


_RULES_CHANGE = [_fix("bot/analysis/rules.py", 60), _fix("tests/test_rules.py", 40)]


@pytest.mark.parametrize(
    ("message", "files"),
    [
        # this repository's own days (a892a5d, e8581db, 6195deb, 933f025, 857fabb): changes of
        # a checker that reads advisories, whose titles talk about security
        (
            "Rules: a published advisory's id in the author's words (GHSA-…, CVE-…, Sphinx's "
            ":ghsa: role in a changelog) makes the change a security fix; a merge lands its "
            "branch's changelog entry",
            _RULES_CHANGE,
        ),
        (
            "Golden replay set as test data; eval test asserting the targets met; security, "
            "silent data loss, reverts and conditions in the rules",
            _RULES_CHANGE,
        ),
        (
            "Security: a path traversal, arbitrary code or file execution/writes, remote code "
            "execution are security words\n\nflash-attention 0816ef12 (tar extraction 'against "
            "path traversal', 'allowing arbitrary file write') was rated low.",
            _RULES_CHANGE,
        ),
        (
            "Rules text: symptoms and performance numbers keep the case their author wrote "
            "(NaN, CVE-2024-1234, TPOT), not lower case",
            _RULES_CHANGE,
        ),
        (
            "Guard tests: option values, units, quotes, security and commands",
            [_fix("tests/test_guard.py", 120)],
        ),
        # pluggy 00ba431: the author says no hole was there
        (
            "fix: use the safe pattern against template injection\n\nNot actually vulnerable, "
            "but better use the safe pattern anyway; code injection stays impossible.",
            [_fix("src/pkg/hooks.py", 8)],
        ),
    ],
)
def test_a_title_about_security_is_no_security_fix(message: str, files: list[FileChange]) -> None:
    analysis = analyze(CommitInput(sha="7" * 40, message=message, files=files))
    assert analysis.importance is not Importance.HIGH


@pytest.mark.parametrize(
    "title",
    [
        "Rules: a security advisory's id (GHSA-…) is a security word",
        "Golden replay set as test data; security, silent data loss and reverts in the rules",
    ],
)
def test_the_word_security_in_a_title_types_no_change_security(title: str) -> None:
    analysis = analyze(CommitInput(sha="7" * 40, message=title, files=_RULES_CHANGE))
    assert ChangeType.SECURITY not in analysis.change_types


@pytest.mark.parametrize(
    ("message", "files", "labels"),
    [
        # werkzeug's and flask's advisories land as "Merge pull request from GHSA-…"
        ("Merge pull request from GHSA-2g68-c3qc-8985", [_fix("src/pkg/debug.py", 30)], []),
        ("Prevent path traversal in send_from_directory", [_fix("src/pkg/helpers.py", 12)], []),
        (
            "fix: escape the name in the error page\n\nFixes a reflected XSS (CVE-2023-30861).",
            [_fix("src/pkg/errors.py", 6)],
            [],
        ),
        ("Fix a security issue in the cookie signer", [_fix("src/pkg/signer.py", 8)], []),
        # httpcore d1e17c5: the advisory a dependency floor avoids, linked in a squash's log
        (
            "Update h11 dependency, resolving security fix. (#1008)\n\n* Update pyproject.toml"
            "\n\nTo address the Critical-level CVE:\n\n"
            "https://github.com/advisories/GHSA-vqfr-h8mv-ghfj\n\n* Update pyproject.toml",
            [_fix("pyproject.toml", 2)],
            [],
        ),
        ("[Security] Sanitize chat template inputs", [_fix("vllm/chat.py", 8)], []),
        ("Check the header length (#41)", [_fix("src/pkg/loader.py", 12)], ["security"]),
    ],
)
def test_the_author_closing_a_hole_or_naming_its_advisory_is_a_security_fix(
    message: str, files: list[FileChange], labels: list[str]
) -> None:
    pr = PullRequestInfo(number=41, labels=labels) if labels else None
    commit = CommitInput(sha="8" * 40, message=message, files=files, pull_request=pr)
    assert analyze(commit).importance is Importance.HIGH


# --- text that names its facts, or none -------------------------------------------------


def test_risks_and_recommendations_name_the_removed_key() -> None:
    case = next(c for c in IMPORTANCE_CASES if "configuration key" in c[0])
    analysis = analyze(CommitInput(sha="7" * 40, message=case[1], files=case[2]))
    texts = [r.description for r in analysis.risks] + [r.text for r in analysis.recommendations]
    assert texts and all("`weight_prefetch_config`" in t for t in texts)


def test_removals_of_several_names_speak_of_them_in_the_plural() -> None:
    envs = FileChange(
        filename="src/pkg/envs.py",
        status="modified",
        additions=0,
        deletions=2,
        patch='@@ -1,3 +1,1 @@\n-    "PKG_A": lambda: os.getenv("PKG_A"),\n'
        '-    "PKG_B": lambda: os.getenv("PKG_B"),\n     "PKG_C": lambda: os.getenv("PKG_C"),',
    )
    config = FileChange(
        filename="src/pkg/ascend_config.py",
        status="modified",
        additions=0,
        deletions=2,
        patch='@@ -3,3 +3,1 @@\n-        self.a = cfg.get("key_a", {})\n'
        '-        self.b = cfg.get("key_b", {})\n         self.mode = cfg.get("mode", "auto")',
    )
    analysis = analyze(CommitInput(sha="5" * 40, message="Tidy up", files=[envs, config]))
    risks = {r.description: r.consequence for r in analysis.risks}
    assert risks == {
        "No longer reads the environment variables `PKG_A`, `PKG_B`.": (
            "Setting `PKG_A`, `PKG_B` has no effect."
        ),
        "Stops reading the configuration keys `key_a`, `key_b`.": (
            "Configurations that set `key_a`, `key_b` lose their effect."
        ),
    }


def test_a_removed_setting_names_its_replacement_where_the_change_shows_it() -> None:
    envs = FileChange(
        filename="src/pkg/envs.py",
        deletions=1,
        additions=4,
        patch='@@ -1,1 +1,4 @@\n-    "PKG_ATTENTION_BACKEND": lambda: os.getenv("PKG_ATTENTION_BACKEND"),\n'
        "+    warnings.warn(\n"
        '+        "PKG_ATTENTION_BACKEND is deprecated; use `--attention-backend` instead",\n'
        "+        DeprecationWarning)",
    )
    analysis = analyze(CommitInput(sha="4" * 40, message="Drop the variable", files=[envs]))
    (risk,) = analysis.risks
    assert risk.description == ("No longer reads the environment variable `PKG_ATTENTION_BACKEND`.")
    assert risk.mitigation == "Use `--attention-backend` instead."


def test_a_fix_names_what_it_changes_and_asks_for_a_test_only_when_none_changed() -> None:
    patch = "@@ -10,3 +10,3 @@ class Cache:\n     def lookup(self, key):\n-        return self.d[key]\n+        return self.d.get(key)"
    message = "[Bugfix] Fix stale cache\n\nThe cache returned stale entries. Fixes #12."
    fix = [FileChange(filename="src/pkg/cache.py", additions=1, deletions=1, patch=patch)]
    analysis = analyze(CommitInput(sha="6" * 40, message=message, files=fix))
    # The edited method is named with what happened to it (the fix), never in a bare list.
    assert analysis.insights is None or analysis.insights.architecture is None
    (hint,) = [r.text for r in analysis.recommendations if r.audience.value == "maintainers"]
    assert hint == "No test changed with this fix of `Cache.lookup`: ask for a regression test."
    tested = [*fix, FileChange(filename="tests/test_cache.py", additions=5)]
    analysis = analyze(CommitInput(sha="6" * 40, message=message, files=tested))
    assert not [r for r in analysis.recommendations if r.audience.value == "maintainers"]
    # Without the diff, nothing is known of where the fix lies: no hint, no insight.
    analysis = analyze(CommitInput(sha="6" * 40, message=message, files_known=False))
    assert not analysis.recommendations and analysis.insights is None


def _digest_sentences(analyses: list[Analysis]) -> Counter[str]:
    """Every sentence the rules wrote, counted once per commit."""
    counts: Counter[str] = Counter()
    for a in analyses:
        texts = [r.description for r in a.risks] + [r.text for r in a.recommendations]
        if a.insights is not None:
            texts += [t for t in a.insights.model_dump().values() if t]
        if a.importance is not Importance.LOW:
            texts.append(a.summary)
        sentences = {s.strip() for t in texts for s in re.split(r"(?<=[.!?])\s+|(?<=[。！？])", t)}
        sentences.discard("")
        counts.update(sentences)
    return counts


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_no_sentence_of_paths_and_counts_repeats_across_the_commits_of_a_replay_day(
    language: str,
) -> None:
    # A sentence a day says of two commits must name something of each (a function, a key):
    # one whose particulars are only paths and counts is a template.
    for day in replay_index():
        analyses = [
            analyze(CommitInput.from_github(raw, repo=day["repo"]), language=language)
            for raw in replay_day(day["repo"], day["date"])["commits"]
        ]
        repeated = [
            s for s, n in _digest_sentences(analyses).items() if n > 1 and not _NAMES_CODE.search(s)
        ]
        assert not repeated, (day["repo"], day["date"], repeated)


# A code span that is neither a path nor a number: the sentence names code.
_NAMES_CODE = re.compile(r"`(?![^`]*/)(?![\d.,+−-]+`)[^`]*[A-Za-z_][^`]*`")


def test_summaries_read_as_the_author_wrote_them() -> None:
    for _, raw in _replay_commits():
        analysis = analyze(CommitInput.from_github(raw))
        summary = analysis.summary
        assert not summary.rstrip().endswith(":"), summary
        assert "**" not in summary and "\\_" not in summary and "<!--" not in summary
        assert "- [ ]" not in summary and "preferred method" not in summary


@pytest.mark.parametrize(
    ("body", "summary"),
    [
        (
            "<!-- Thanks for your contribution! -->\n## Purpose\nMakes **paged KV** the default "
            "for `sm100` kernels.\n\n## Test Plan\n- [ ] ran it\n",
            "Makes paged KV the default for `sm100` kernels.",
        ),
        (
            "## Purpose\n(or used your preferred method)\n\nAdds the \\_fast path to cuDNN "
            "attention.",
            "Adds the _fast path to cuDNN attention.",
        ),
        (
            "The goals are:\n\n- decode workers initialise the store\n- errors stay hard\n",
            "The goals are: decode workers initialise the store; errors stay hard.",
        ),
        (
            # A pointer to another change is not what this one does.
            "Removes the shim. This PR is a follow-up to\nhttps://github.com/o/r/pull/9.\n",
            "Removes the shim.",
        ),
        (
            "Removes the shim. The changes are listed in\n\n```\nshim.py\n```\n",
            "Removes the shim.",
        ),
        # Escaped markers are markup too: no `\\` or `*` left over.
        (
            "Makes \\*\\*paged KV\\*\\* the \\*real\\* default for `__init__` users.",
            "Makes paged KV the real default for `__init__` users.",
        ),
        # A line that only asks people to look is not the description.
        (
            "cc @octocat @org/team-x\n\nFixes wrong results in `topk` for long prompts.",
            "Fixes wrong results in `topk` for long prompts.",
        ),
    ],
)
def test_summary_drops_template_markup_and_dangling_lead_ins(body: str, summary: str) -> None:
    commit = CommitInput(
        sha="5" * 40, message=f"[Feature] Paged KV by default\n\n{body}", files=[_fix("a/b.py", 50)]
    )
    assert analyze(commit).summary == summary


def test_identifiers_keep_their_case_in_one_line_summaries() -> None:
    for title, summary in (
        ("sm100 kernels skip the fp8 path", "sm100 kernels skip the fp8 path"),
        ("cuDNN attention for Blackwell", "cuDNN attention for Blackwell"),
        ("fix typo in docs", "Fix typo in docs"),
    ):
        commit = CommitInput(sha="4" * 40, message=title, files=[_fix("docs/a.md", 2)])
        assert analyze(commit).summary == summary


def test_an_empty_message_gets_a_placeholder_summary() -> None:
    analysis = analyze(CommitInput(sha="3" * 40, message="", files=[_fix("src/a.py", 3)]))
    assert analysis.summary == "(no commit message)"


@pytest.mark.parametrize("label", ["security", "critical", "type: regression"])
def test_a_maintainers_severity_label_makes_a_fix_high(label: str) -> None:
    commit = CommitInput(
        sha="2" * 40,
        message="Tweak the loader (#5)\n\nThe loader now checks the header before reading.",
        files=[_fix("src/pkg/loader.py", 12)],
        pull_request=PullRequestInfo(number=5, labels=["bug", label]),
    )
    assert analyze(commit).importance is Importance.HIGH
    unlabelled = commit.model_copy(
        update={"pull_request": PullRequestInfo(number=5, labels=["bug"])}
    )
    assert analyze(unlabelled).importance is Importance.MEDIUM


@pytest.mark.parametrize(
    "message",
    [
        # The titles and messages that quote the author inside a sentence of the App's.
        "[Deprecation] Drop support for " + "the old loader and its many options, " * 12 + "(#9)",
        'Revert "' + "Add a very long feature name that goes on and on, " * 10 + '" (#9)',
        'Reland "' + "Add a very long feature name that goes on and on, " * 10 + '" (#9)',
        "Change the loader (#9)\n\nBREAKING CHANGE: " + "the loader now needs a path, " * 20,
    ],
)
def test_the_authors_long_words_are_quoted_in_part_never_crashing_the_rules(
    message: str,
) -> None:
    commit = CommitInput(
        sha="c" * 40,
        message=message,
        files=[FileChange(filename="pkg/loader.py", additions=3, deletions=40, patch=None)],
    )
    analysis = analyze(commit)
    insights = analysis.insights.model_dump().values() if analysis.insights else []
    quoted = [r.description for r in analysis.risks] + [v for v in insights if v]
    # Each holds a shortened quotation, marked as cut.
    assert any("…" in text for text in quoted), quoted


_WORDS = st.sampled_from(
    [
        "Remove",
        "Revert",
        "Reland",
        "Deprecate",
        "Fix",
        "crash",
        "BREAKING",
        "CHANGE:",
        "[Deprecation]",
        "[Bugfix]",
        "feat!:",
        '"',
        "(#12)",
        "`x`",
        "--flag",
        "VLLM_X",
        "the",
        "loader",
        "e.g.",
        "\n",
        "\n\n",
        "- ",
        "## ",
        "**1.",
        "**",
        "DeprecationWarning(",
        "x" * 400,
        "。",
        "移除",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    title=st.tuples(
        st.sampled_from(["", "[Deprecation] ", "[Bugfix] ", "feat!: ", "[Refactor] "]),
        st.sampled_from(["Remove ", 'Revert "', 'Reland "', "Deprecate ", "Fix ", ""]),
        st.lists(_WORDS.filter(lambda w: "\n" not in w), min_size=1, max_size=40).map(" ".join),
    ).map("".join),
    body=st.lists(_WORDS, max_size=60).map(" ".join),
    language=st.sampled_from(["en", "zh-CN"]),
)
def test_the_rules_analyse_any_message_within_the_analysis_bounds(
    title: str, body: str, language: str
) -> None:
    """Whatever an author writes, the rules give an analysis (the model's validators hold
    every field to its bound, so a sentence that outgrows one would raise here)."""
    commit = CommitInput(
        sha="d" * 40,
        message=f"{title.strip() or 'x'}\n\n{body}",
        files=[FileChange(filename="pkg/mod.py", additions=2, deletions=30, patch=None)],
    )
    analysis = analyze(commit, language=language)
    assert analysis.summary


def test_a_message_of_control_characters_alone_is_summarised_as_no_message() -> None:
    # Found by the guard's property test: the shielded rules once built an empty summary.
    commit = CommitInput(sha="9" * 40, message="\x00", files=[], files_known=True)
    assert analyze(commit, language="en").summary == "(no commit message)"


@pytest.mark.parametrize(
    ("title", "primary"),
    [
        # 0d7bc21: code that names errors is no bug fix.
        ("Unify the three error classes that said the same", ChangeType.REFACTOR),
        ("Clearer error messages for a missing key", ChangeType.OTHER),
        ("Move the error handling into one module", ChangeType.REFACTOR),
        # An error that happens still is.
        ("Raise no error on an empty config", ChangeType.BUGFIX),
        ("Fix the error message of the loader", ChangeType.BUGFIX),
    ],
)
def test_an_error_is_a_bug_but_code_that_names_errors_is_not(
    title: str, primary: ChangeType
) -> None:
    commit = CommitInput(sha="e" * 40, message=title, files=files(("src/pkg/errors.py", 30)))
    assert analyze(commit).change_types[0] is primary


def test_an_insight_keeps_its_sentences_whole_within_the_bound() -> None:
    # this repository's 1ca91ed24 in zh-CN: docstring quotations end in "”" with no "。", and
    # the sentences joined without a space held no sentence end within 600 characters (the
    # whole analysis raised ValueError)
    quoted = "`f` 的文档字符串：“" + "x" * 200 + "”"
    kept = _fitted([quoted, quoted, quoted, "短句。"], "", 600)
    assert kept == quoted + quoted + "短句。"
    # a sentence longer than the bound is left out, never cut
    assert _fitted(["y" * 700, "Short one."], " ", 600) == "Short one."
    assert _fitted(["y" * 700], " ", 600) is None
