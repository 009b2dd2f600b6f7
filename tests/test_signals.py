"""What the rules read from a commit: severity, impact, breaking evidence among its facts,
where it lands."""

from __future__ import annotations

import pytest

from bot.analysis.paths import PathKind
from bot.analysis.signals import read_signals
from bot.models import CommitInput, FileChange, PullRequestInfo


def commit(message: str, *changed: FileChange, pr: PullRequestInfo | None = None) -> CommitInput:
    return CommitInput(sha="f" * 40, message=message, files=list(changed), pull_request=pr)


def change(path: str, patch: str = "", status: str = "modified") -> FileChange:
    plus = sum(line.startswith("+") for line in patch.split("\n"))
    minus = sum(line.startswith("-") for line in patch.split("\n"))
    return FileChange(
        filename=path, status=status, additions=plus or 1, deletions=minus, patch=patch or None
    )


@pytest.mark.parametrize(
    ("message", "title_words", "body_words"),
    [
        # Symptoms as their author wrote them: `NaN`, not `nan`.
        ("[Bugfix] Fix NaN in attention (#1)", ("NaN",), ()),
        ("Fix NaN, nan and CVE-2024-1234 (#1)", ("NaN", "CVE-2024-1234"), ()),
        (
            "Fix decode\n\nOutput was silently corrupted for long prompts.",
            (),
            ("silently corrupted",),
        ),
        ("Fix save\n\n`save_pretrained` silently drops `lm_head.weight`.", (), ("silently drops",)),
        (
            "[CI] Fix CI bug\n\nFixes script injection in comment workflows.",
            (),
            ("script injection",),
        ),
        ("Fix start-up\n\nRank 0 waits forever: a deadlock at init.", (), ("deadlock",)),
        ("[BugFix] Fix the issue of DP services getting stuck", ("stuck",), ()),
        ("Fix x\n\nThis can race with the device copy.", (), ("race",)),
        # Tests and CI "regressions" are not symptoms users see.
        ("Fix x\n\nAdds regression coverage for the copy.", (), ()),
        ("Fix x\n\nFixes the CI regression from last week.", (), ()),
        ("Fix x\n\nCaused a performance regression in draft models.", (), ()),
        # The template's test section is not the description.
        ("Fix x\n\n### How was this patch tested?\nNo crash in 1000 runs.", (), ()),
        # Words that name code, a test or a quotation do not describe this change.
        ("[Test] Add test_crash_on_empty_batch (#3)", (), ()),
        ("Fix test crashes in CI (#3)", (), ()),
        ('Rename `hang_timeout` (#3)\n\nThe "deadlock" example moves to docs.', (), ()),
        # flash-attention 2ee8023: values that "leak into" a key are no leak
        (
            "Fix compile key churn (#2507)\n\nThe arithmetic produces tensor results that leak "
            "into the compile key tuple, causing infinite kernel recompilation.",
            (),
            (),
        ),
        ("Fix x\n\nThe pool leaks a buffer on every retry.", (), ("leaks",)),
        ("Harden the tar extraction against path traversal", ("path traversal",), ()),
        ("Fix x\n\nA malicious file can execute arbitrary code.", (), ("execute arbitrary code",)),
    ],
)
def test_severity_words_come_from_title_and_description(
    message: str, title_words: tuple[str, ...], body_words: tuple[str, ...]
) -> None:
    sig = read_signals(commit(message))
    assert (sig.severity_title, sig.severity_body) == (title_words, body_words)


def test_impact_statement_fixes_and_numbers_are_read() -> None:
    message = (
        "Fix decode output (#77)\n\nDecode output was corrupted for 94 % of requests with "
        "paged KV. Fixes #1234.\n\n## Results\nThroughput improves: TPOT -12.5% on 8 GPUs."
    )
    sig = read_signals(commit(message))
    assert sig.impact == "94 % of requests"
    assert sig.fixes == (1234,)
    assert sig.perf_number == "Throughput improves: TPOT -12.5%"
    # The author's case is kept, also beside a letter whose lower case is longer.
    assert read_signals(commit("Fix İ decode\n\nSegfault for 3 % of Users.")).impact == (
        "3 % of Users"
    )
    assert read_signals(commit("Fix decode\n\nSegfault for 3 % of Users.")).impact == (
        "3 % of Users"
    )


def test_removed_exports_env_vars_flags_and_config_keys_are_breaking_evidence() -> None:
    init = change(
        "src/pkg/__init__.py",
        "@@ -1,3 +1,2 @@\n from .core import run\n-from .core import legacy_run\n"
        ' __all__ = [\n-    "legacy_run",\n     "run",',
    )
    envs = change(
        "src/pkg/envs.py",
        '@@ -10,2 +10,1 @@\n-    "PKG_FAST_PATH": lambda: os.getenv("PKG_FAST_PATH", "0"),\n'
        '     "PKG_LOG": lambda: os.getenv("PKG_LOG", "info"),',
    )
    cli = change(
        "src/pkg/cli.py",
        '@@ -5,2 +5,2 @@\n-    parser.add_argument("--legacy-mode", action="store_true")\n'
        '-    parser.add_argument("--batch", type=int, default=8)\n'
        '+    parser.add_argument("--batch", type=int, default=16)',
    )
    config = change(
        "src/pkg/ascend_config.py",
        '@@ -3,2 +3,1 @@\n-        self.prefetch = cfg.get("weight_prefetch_config", {})\n'
        '         self.mode = cfg.get("mode", "auto")',
    )
    sig = read_signals(commit("Tidy up", init, envs, cli, config))
    assert [s.name for s in sig.removed_exports] == ["legacy_run"]
    assert sig.env_removed == ("PKG_FAST_PATH",)
    assert sig.flags_removed == ("--legacy-mode",)
    assert sig.config_keys_removed == ("weight_prefetch_config",)
    assert [(d.name, d.old, d.new) for d in sig.defaults_changed] == [("--batch", "8", "16")]


def test_a_moved_function_is_not_removed_and_a_lone_swap_is_a_rename() -> None:
    moved = [
        change("src/pkg/a.py", "@@ -1,2 +1,1 @@\n-def helper(x):\n-    return x"),
        change("src/pkg/b.py", "@@ -1,1 +1,2 @@\n+def helper(x):\n+    return x"),
    ]
    assert read_signals(commit("Move helper", *moved)).removed_symbols == ()
    renamed = change(
        "src/pkg/api/run.py", "@@ -1,2 +1,2 @@\n-def do_finalize(x):\n+def finalize(x):"
    )
    sig = read_signals(commit("Rename", renamed))
    assert [(r.old.name, r.new.name) for r in sig.renamed_symbols] == [("do_finalize", "finalize")]


def test_deprecation_warnings_are_quoted() -> None:
    patch = (
        "@@ -1,1 +1,3 @@\n+    warnings.warn(\n"
        '+        "`use_fast` is deprecated and will be removed in 0.9", DeprecationWarning)'
    )
    sig = read_signals(commit("Deprecate use_fast", change("src/pkg/loader.py", patch)))
    assert sig.deprecations == ("`use_fast` is deprecated and will be removed in 0.9",)


@pytest.mark.parametrize(
    ("paths", "only"),
    [
        (["docs/guide.md", "README.md"], PathKind.DOCS),
        (["tests/test_x.py", "benchmarks/bench_y.py"], PathKind.TESTS),
        ([".github/workflows/ci.yml"], PathKind.CI),
        (["tests/test_x.py", "docs/x.md"], PathKind.DOCS),
        (["src/pkg/core.py", "tests/test_core.py"], None),
    ],
)
def test_where_the_change_lands(paths: list[str], only: PathKind | None) -> None:
    assert read_signals(commit("Change", *(change(p) for p in paths))).only is only


def test_experimental_landing_and_narrowing_tags() -> None:
    sig = read_signals(commit("Add op", change("src/pkg/experimental/new_op.py")))
    assert sig.experimental == ("src/pkg/experimental/new_op.py",)
    assert read_signals(commit("[Bugfix][310P] Fix crash")).narrowed_by == "310p"
    assert read_signals(commit("[Bugfix][ROCm] Fix crash")).narrowed_by == "rocm"
    assert read_signals(commit("[Bugfix][Qwen3Next] Fix crash")).narrowed_by == "qwen3next"
    assert read_signals(commit("[Bugfix][Core] Fix crash")).narrowed_by is None


def test_reverts_relands_capabilities_and_defaults_from_the_title() -> None:
    revert = read_signals(commit('[Revert] Revert "[Feat] enable mc2 by default (#5545)" (#5611)'))
    assert revert.reverted_title == "enable mc2 by default"
    assert revert.by_default
    assert read_signals(commit("Reland: faster sampler (#9)")).reland
    assert read_signals(commit("[Kernel] Add topk_sigmoid kernel")).capability == "kernel"
    # An example of a capability is not the capability.
    assert read_signals(commit("Add FP8 quantization example for Granite4")).capability is None
    # A new thing that comes with a default changes nobody's default.
    assert not read_signals(commit("Provide a parser with thinking enabled by default")).by_default
    assert read_signals(commit("[Frontend][2/N] Make pooling consistent")).series


def test_an_upper_case_field_is_a_constant_not_a_default() -> None:
    # A dataclass's field named in upper case (a cubin's path) is a constant by Python's
    # convention; a lower-case field's new value is a default users may rely on.
    before = (
        "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Artifacts:\n"
        '    GEMM: str = "46d3f356/gemm/"\n    retries: int = 3\n'
    )
    after = before.replace("46d3f356", "10f64528").replace("= 3", "= 5")
    sig = read_signals(
        commit(
            "Upgrade the gemm cubins",
            FileChange(
                filename="src/pkg/artifacts.py",
                additions=2,
                deletions=2,
                patch='@@ -6,2 +6,2 @@\n-    GEMM: str = "46d3f356/gemm/"\n-    retries: int = 3\n'
                '+    GEMM: str = "10f64528/gemm/"\n+    retries: int = 5',
                before=before,
                after=after,
            ),
        )
    )
    assert [(d.name, d.old, d.new) for d in sig.facts.defaults_changed] == [
        ("Artifacts.GEMM", "'46d3f356/gemm/'", "'10f64528/gemm/'"),
        ("Artifacts.retries", "3", "5"),
    ]
    assert [(d.name, d.old, d.new) for d in sig.defaults_changed] == [
        ("Artifacts.retries", "3", "5")
    ]


@pytest.mark.parametrize(
    ("title", "confined"),
    [
        ("[Kernel] Add fused Kimi K3 decode kernel", "Kimi"),
        ("Add CuTe DSL HCA backend for DeepSeek V4 sparse MLA", "DeepSeek V4"),
        ("[Feature] Adapt FlashComm1 SP for Step3.5", "Step3.5"),
        ("Fix Whisper/encoder-decoder GPU memory leak", "Whisper"),
        # English words and projects named after a family are none
        ("Skip step 2 of the warm-up", None),
        ("Serve GGUF models through llama.cpp", None),
        ("Add a phi value to the rotary table", None),
    ],
)
def test_a_model_family_the_title_names_confines_the_change(
    title: str, confined: str | None
) -> None:
    sig = read_signals(commit(title, change("src/pkg/engine.py", "@@ -1,1 +1,1 @@\n-a\n+b")))
    assert sig.confined_to == confined
