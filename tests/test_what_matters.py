"""Only what matters (issue 27, items 4 and 5): importance from facts, hardware and model
scope, merges read as their branch, facts ranked by consequence, no sentence that only lists
names, and a regression test asked for only where code that runs changed without one."""

from __future__ import annotations

import re

import pytest

from bot.analysis.phrases import EN
from bot.analysis.rules import analyze
from bot.analysis.signals import read_signals
from bot.analysis.titles import merged_message
from bot.analysis.wording import statements
from bot.models import Analysis, CommitInput, FileChange, Importance

I = Importance  # noqa: E741 - short, like the rubric's column
SHA = "7" * 40


def _file(path: str, patch: str | None = None, *, lines: int = 20, status: str = "modified"):
    return FileChange(
        filename=path,
        status=status,
        additions=lines // 2,
        deletions=lines - lines // 2,
        patch=patch,
    )


def _analyse(message: str, files: list[FileChange]) -> Analysis:
    return analyze(CommitInput(sha=SHA, message=message, files=files))


def _sentences(a: Analysis) -> list[str]:
    texts = [a.summary]
    if a.insights:
        texts += [v for v in a.insights.model_dump().values() if v]
    texts += [r.description for r in a.risks] + [r.text for r in a.recommendations]
    return [s for t in texts for s in re.split(r"(?<=\.)\s+", t) if s]


# --- importance from facts: hardware, platform and model scope ---------------------------

_HOPPER_FIX = "@@ -1,2 +1,2 @@ def launch(x):\n-    return run(x, 64)\n+    return run(x, 128)"
SCOPE_CASES: list[tuple[str, str, list[FileChange], Importance]] = [
    (
        "a kernel for one SM architecture named in the title is at most medium",
        "[Kernel] Add FP8 GEMM kernel for SM100\n\nA new kernel with 1.8x faster GEMMs.",
        [_file("csrc/gemm/fp8_gemm.cu", status="added", lines=300)],
        I.MEDIUM,
    ),
    (
        "the same kernel with no hardware named is a new capability, high",
        "[Kernel] Add FP8 GEMM kernel\n\nA new kernel with 1.8x faster GEMMs.",
        [_file("csrc/gemm/fp8_gemm.cu", status="added", lines=300)],
        I.HIGH,
    ),
    (
        "a gfx target in the title confines a performance change",
        "[Perf] Tune the paged attention launch for gfx942\n\nDecode is 40% faster.",
        [_file("vllm/attention/ops/paged_attn.py", _HOPPER_FIX)],
        I.MEDIUM,
    ),
    (
        "every shipped file under one architecture's folder confines it",
        "[Perf] Retune the attention tiles\n\nDecode is 40% faster.",
        [_file("csrc/attention/sm90/tiles.cu"), _file("csrc/attention/sm90/launch.cu")],
        I.MEDIUM,
    ),
    (
        "every shipped file in one model's module confines it",
        "[Perf] Fuse the rotary embedding\n\nPrefill is 35% faster.",
        [_file("vllm/model_executor/models/qwen3.py", _HOPPER_FIX)],
        I.MEDIUM,
    ),
    (
        "a removed option in one platform's code is breaking but medium",
        "[Refactor] Drop the old launcher option",
        [
            _file(
                "vllm/platforms/rocm/config.py",
                '@@ -3,1 +3,0 @@\n-        self.w = cfg.get("legacy_launcher", {})',
                lines=1,
            )
        ],
        I.MEDIUM,
    ),
    (
        "a crash on one platform fixed, with the reach stated, stays high",
        "[Bugfix][ROCm] Fix crash in the sampler\n\nThe sampler crashes for 90% of requests "
        "on ROCm.",
        [_file("vllm/v1/sample/sampler.py", _HOPPER_FIX)],
        I.HIGH,
    ),
    (
        "a 5 % tuning is not high, however it is measured",
        "[Perf] Tune the MoE block size\n\nThroughput is 5% higher on the benchmark.",
        [_file("vllm/model_executor/layers/fused_moe/config.py", _HOPPER_FIX)],
        I.MEDIUM,
    ),
    (
        "a 2x speed-up of shared code is high",
        "[Perf] Cache the block table\n\nDecode is 2x faster with long prompts.",
        [_file("vllm/v1/worker/block_table.py", _HOPPER_FIX)],
        I.HIGH,
    ),
    (
        "an out-of-bounds read the author says leaves outputs unaffected is not high",
        "[Bugfix] Fix out-of-bounds read in the top-k kernel\n\nThe kernel reads past the "
        "end of the buffer; the outputs are unaffected because the values are masked.",
        [_file("csrc/topk.cu", _HOPPER_FIX)],
        I.MEDIUM,
    ),
]


@pytest.mark.parametrize(
    ("message", "files", "importance"),
    [c[1:] for c in SCOPE_CASES],
    ids=[c[0] for c in SCOPE_CASES],
)
def test_importance_follows_the_scope_and_size_the_facts_show(
    message: str, files: list[FileChange], importance: Importance
) -> None:
    assert _analyse(message, files).importance is importance


@pytest.mark.parametrize(
    ("title", "scope"),
    [
        ("[Kernel] Add FP8 GEMM for SM100", "SM100"),
        ("Tune decode for gfx942", "gfx942"),
        ("[ROCm] Fix the build", "rocm"),
        ("Use sm_90a features in the attention kernel", "sm_90a"),
        ("Reduce CPU overhead of the scheduler", None),
        ("Speed up the sampler", None),
    ],
)
def test_the_title_confines_a_change_only_by_unambiguous_hardware(
    title: str, scope: str | None
) -> None:
    commit = CommitInput(sha=SHA, message=title, files_known=False)
    assert read_signals(commit).confined_to == scope


@pytest.mark.parametrize(
    ("paths", "scope"),
    [
        (["vllm_ascend/_310p/sampler.py", "vllm_ascend/_310p/worker.py"], "310p"),
        (["csrc/attention/sm90/tiles.cu"], "sm90"),
        (["vllm/model_executor/models/deepseek_v2.py"], "models/deepseek_v2"),
        # One shared file of the models package: no one model's change.
        (["vllm/model_executor/models/registry.py"], None),
        # Two scopes, or one file outside them: not confined.
        (["csrc/attention/sm90/tiles.cu", "csrc/attention/sm100/tiles.cu"], None),
        (["csrc/attention/sm90/tiles.cu", "vllm/attention/layer.py"], None),
        (["bot/models.py"], None),
        (["vllm/platforms/xpu.py", "vllm/v1/worker/xpu_worker.py"], "xpu"),
        # A word that names no platform in a path: not confined.
        (["pkg/kv_pool/cpu_offload/manager.py"], None),
    ],
)
def test_a_change_is_confined_only_when_every_shipped_file_shares_one_scope(
    paths: list[str], scope: str | None
) -> None:
    commit = CommitInput(sha=SHA, message="Tune it", files=[_file(p) for p in paths])
    assert read_signals(commit).confined_to == scope


# --- a changed default, a removal the title names -----------------------------------------


def test_a_changed_default_of_a_public_option_is_high_and_never_config() -> None:
    patch = (
        "@@ -10,3 +10,3 @@\n"
        ' parser.add_argument("--redirect-code", type=int, default=302)\n'
        '-DEFAULTS = {"redirect_code": 302}\n'
        '+DEFAULTS = {"redirect_code": 303}\n'
    )
    a = _analyse(
        "Change the default redirect code to 303\n\nredirect() now answers 303 by default.",
        [_file("src/app/helpers.py", patch, lines=2)],
    )
    assert a.importance is I.HIGH
    assert "config" not in [t.value for t in a.change_types]


@pytest.mark.parametrize(
    ("message", "importance", "breaking"),
    [
        # The title names a removal; nothing shows a public name, option or variable going.
        ("[Deprecation] Remove the RTN quantization method", I.MEDIUM, False),
        ("[Misc] Remove pad_for_cudagraphs from config", I.MEDIUM, False),
        # The author's words that support ends: no diff can prove it, the words count.
        ("[Misc] Drop vLLM v0.22.1 compatibility from main", I.HIGH, True),
        # A clean-up's removal stays low.
        ("[Cleanup] Remove unused helper methods", I.LOW, False),
    ],
)
def test_high_or_breaking_only_behind_a_proven_fact_or_the_authors_words(
    message: str, importance: Importance, breaking: bool
) -> None:
    a = analyze(CommitInput(sha=SHA, message=message, files_known=False))
    assert (a.importance, a.breaking) == (importance, breaking)


# --- merge commits ------------------------------------------------------------------------

_REMOVED_EXPORT = "@@ -1,3 +1,2 @@\n-from pkg.loader import load_v1\n from pkg.core import run\n"


@pytest.mark.parametrize(
    ("message", "landed"),
    [
        (
            "Merge pull request #12 from octo/fix-crash\n\nFix crash in loader\n\nDetails.",
            "Fix crash in loader (#12)\n\nDetails.",
        ),
        (
            "Merge branch 'feature/new-api' into main\n\n* feature/new-api:\n  Add the new API",
            "new api\n\n- Add the new API",
        ),
        ("Merge tag 'v1.2'", "v1.2"),
        ("Merge the two caches (#4)", None),
        ("Fix crash in loader", None),
    ],
)
def test_a_merge_reads_as_the_branch_it_lands(message: str, landed: str | None) -> None:
    assert merged_message(message) == landed


# ... and the function itself, so that no file still defines it: a removal for callers
_REMOVED_DEF = "@@ -1,3 +1,1 @@\n-def load_v1(path):\n-    return path\n def load(path):\n"


def test_a_merge_is_never_breaking_by_its_own_diff() -> None:
    files = [
        _file("src/pkg/__init__.py", _REMOVED_EXPORT, lines=1),
        _file("src/pkg/loader.py", _REMOVED_DEF, lines=2),
    ]
    plain = _analyse("Remove load_v1", files)
    merge = _analyse("Merge branch 'cleanup' into main\n\n* cleanup:\n  Remove load_v1", files)
    assert plain.breaking and plain.importance is I.HIGH
    # The branch's diff still shows the removal, but the merge is not the day's breaking news.
    assert not merge.breaking and merge.importance is I.MEDIUM
    assert any("load_v1" in r.description for r in merge.risks)


def test_a_merge_whose_author_says_breaking_is_breaking() -> None:
    files = [
        _file("src/pkg/__init__.py", _REMOVED_EXPORT, lines=1),
        _file("src/pkg/loader.py", _REMOVED_DEF, lines=2),
    ]
    message = (
        "Merge pull request #7 from octo/v2\n\nDrop the v1 loader\n\nBREAKING CHANGE: "
        "`load_v1` is gone; call `load`."
    )
    a = _analyse(message, files)
    assert a.breaking and a.importance is I.HIGH


def test_a_merges_importance_is_its_branchs() -> None:
    files = [_file("src/pkg/loader.py", _HOPPER_FIX)]
    message = (
        "Merge pull request #9 from octo/fix\n\nFix silently corrupted output of the loader\n\n"
        "The loader silently corrupted every batch after the first."
    )
    assert _analyse(message, files).importance is I.HIGH
    assert _analyse("Merge branch 'docs' into main", files).importance is not I.HIGH


# --- facts ranked by consequence -----------------------------------------------------------

_RANKED_PATCH = (
    "@@ -1,12 +1,14 @@\n"
    "-def old_entry(x):\n"
    "-    return x\n"
    "+def helper_a(x):\n"
    "+    return x\n"
    "+def helper_b(x):\n"
    "+    return x\n"
    "+def helper_c(x):\n"
    "+    return x\n"
    "+def helper_d(x):\n"
    "+    return x\n"
    '+    mode = os.environ.get("PKG_ATTENTION_BACKEND", "auto")\n'
)


def test_facts_come_ranked_by_consequence() -> None:
    commit = CommitInput(
        sha=SHA, message="Rework the entry points", files=[_file("src/pkg/entry.py", _RANKED_PATCH)]
    )
    clauses = [s.clause for s in statements(read_signals(commit), EN)]
    removal = next(i for i, c in enumerate(clauses) if c.startswith("removes"))
    setting = next(i for i, c in enumerate(clauses) if "PKG_ATTENTION_BACKEND" in c)
    added = next(i for i, c in enumerate(clauses) if c.startswith("adds `helper"))
    assert removal < setting < added


def test_and_n_more_never_hides_a_higher_ranked_fact_than_one_it_shows() -> None:
    a = _analyse("Rework the entry points", [_file("src/pkg/entry.py", _RANKED_PATCH)])
    text = " ".join(_sentences(a))
    # The environment variable a user sets is said; the fourth helper may be the one hidden.
    assert "`PKG_ATTENTION_BACKEND`" in text
    assert "and 1 more" in text and "`helper_d`" not in text
    # The summary is the top fact: what callers lose.
    assert a.summary.startswith("Removes `old_entry`")


# --- no sentence that only lists names -----------------------------------------------------

_EDITS = (
    "@@ -10,6 +10,6 @@ class Cache:\n     def lookup(self, key):\n-        return self.d[key]\n"
    "+        return self.d.get(key)\n@@ -30,3 +30,3 @@ class Cache:\n     def store(self, k, v):\n"
    "-        self.d[k] = v\n+        self.d[k] = v or None\n"
)
_NAME_ONLY = re.compile(r"^(?:Changes|changes) (?:`[^`]+`(?:, | and )?)+(?: in `[^`]+`)?\.$")


@pytest.mark.parametrize(
    "message",
    ["[Refactor] Rework the cache", "[Bugfix] Fix stale cache entries\n\nIt returned stale ones."],
)
def test_no_sentence_only_lists_names(message: str) -> None:
    a = _analyse(message, [_file("src/pkg/cache.py", _EDITS)])
    assert [s for s in _sentences(a) if _NAME_ONLY.match(s)] == []


def test_a_fixed_method_is_named_with_what_happened_to_it() -> None:
    a = _analyse(
        "[Bugfix] Fix crash in the cache\n\nThe cache crashes on a missing key.",
        [_file("src/pkg/cache.py", _EDITS)],
    )
    assert a.insights is not None and a.insights.architecture is not None
    assert a.insights.architecture.startswith("The fix is in `Cache.lookup`")
    # the symptom's words scraped from the message ("Fixes “crash” in …") are no sentence
    # (tomlkit 8cd44f5's "Fixes “silently lost, corruption, wrong value” in …")
    assert not [s for s in _sentences(a) if "“crash”" in s]


_FIELD_ONLY = "@@ -3,3 +3,4 @@ class PagePhrases:\n     title: str\n+    unreachable: str\n"


@pytest.mark.parametrize(
    ("strings", "fixes"),
    [
        # a strings class that only gained a field is not where the crash went away
        (_FIELD_ONLY, "The fix is in `Cache.lookup`, `Cache.store`."),
        # a class whose line of code changed still is one: three places are no place (a
        # guess a reader skips), and the symptom alone would only echo the title
        (
            "@@ -3,3 +3,3 @@ class PagePhrases:\n-    title = load()\n+    title = load(strict=False)\n",
            None,
        ),
    ],
)
def test_a_fix_is_placed_in_code_that_runs_not_in_a_class_that_only_gained_a_field(
    strings: str, fixes: str | None
) -> None:
    a = _analyse(
        "[Bugfix] Fix crash in the cache\n\nThe cache crashes on a missing key.",
        [_file("src/pkg/a_strings.py", strings), _file("src/pkg/cache.py", _EDITS)],
    )
    assert (a.insights.architecture if a.insights else None) == fixes
    # Only fields changed: no place, and the symptom alone would only echo the title.
    a = _analyse(
        "[Bugfix] Fix crash in the status page\n\nThe page crashes when GitHub is down.",
        [_file("src/pkg/a_strings.py", _FIELD_ONLY)],
    )
    assert not [s for s in _sentences(a) if s.startswith("Fixes")]


# --- asking for a regression test ----------------------------------------------------------

_DOCSTRING_FIX = (
    "@@ -1,5 +1,5 @@ def load(path):\n"
    '     """Load the file.\n'
    "-    Retruns the data.\n"
    "+    Returns the data.\n"
    '     """\n'
    "-    # retrun the data\n"
    "+    # return the data\n"
)
ASK_CASES: list[tuple[str, str, list[FileChange], bool]] = [
    (
        "a fix of code that runs with no test asks for one",
        "[Bugfix] Fix stale cache entries",
        [_file("src/pkg/cache.py", _EDITS)],
        True,
    ),
    (
        "a fix that adds a test does not",
        "[Bugfix] Fix stale cache entries",
        [_file("src/pkg/cache.py", _EDITS), _file("tests/test_cache.py", lines=10)],
        False,
    ),
    (
        "a fix of docstrings and comments does not",
        "[Bugfix] Fix typos in the loader's docstring",
        [_file("src/pkg/loader.py", _DOCSTRING_FIX, lines=4)],
        False,
    ),
    (
        "a fix of a build script does not",
        "[Bugfix] Fix the wheel build",
        [_file("setup.py", "@@ -3,1 +3,1 @@ def build():\n-    a = 1\n+    a = 2", lines=2)],
        False,
    ),
    (
        "a test-only fix does not",
        "[Bugfix] Fix the flaky cache test",
        [_file("tests/test_cache.py", "@@ -3,1 +3,1 @@ def test_a():\n-    a\n+    b", lines=2)],
        False,
    ),
    (
        "a docs fix does not",
        "[Bugfix] Fix the install guide",
        [_file("docs/install.md", "@@ -3,1 +3,1 @@\n-pip install x\n+pip install y", lines=2)],
        False,
    ),
]


@pytest.mark.parametrize(
    ("message", "files", "asks"),
    [c[1:] for c in ASK_CASES],
    ids=[c[0] for c in ASK_CASES],
)
def test_a_regression_test_is_asked_for_only_where_code_that_runs_changed_without_one(
    message: str, files: list[FileChange], asks: bool
) -> None:
    a = _analyse(message, files)
    assert any("regression test" in r.text for r in a.recommendations) is asks


def test_a_fix_without_a_named_symptom_says_where_it_lies_once() -> None:
    tested = [_file("src/pkg/cache.py", _EDITS), _file("tests/test_cache.py", lines=10)]
    a = _analyse("[Bugfix] Fix stale cache entries", tested)
    assert a.insights is not None
    assert a.insights.architecture == "The fix is in `Cache.lookup`, `Cache.store`."
    # Without a test, the request for one names the place; it is not said twice.
    a = _analyse("[Bugfix] Fix stale cache entries", tested[:1])
    assert a.insights is None and len(a.recommendations) == 1


_TEST_ADDED = "@@ -1,1 +1,3 @@\n import pkg\n+def test_lookup_returns_none():\n+    assert pkg\n"


def test_the_tests_a_change_adds_are_named_only_when_nothing_weightier_is_said() -> None:
    test_file = _file("tests/test_cache.py", _TEST_ADDED, lines=2)
    weighty = _analyse(
        "Rework the entry points", [_file("src/pkg/entry.py", _RANKED_PATCH), test_file]
    )
    assert "test_lookup_returns_none" not in " ".join(_sentences(weighty))
    alone = _analyse("[Feature] Rework the cache", [_file("src/pkg/cache.py", _EDITS), test_file])
    assert "test_lookup_returns_none" in " ".join(_sentences(alone))


def test_the_tests_beside_the_fact_that_became_the_summary_are_no_architecture() -> None:
    added = "@@ -1,1 +1,3 @@\n import os\n+def lookup_all(keys):\n+    return keys\n"
    test_file = _file("tests/test_cache.py", _TEST_ADDED, lines=2)
    a = _analyse("Lookups of many keys", [_file("src/pkg/cache.py", added, lines=60), test_file])
    assert a.summary.startswith("Adds `lookup_all`")
    # (the tests a change adds are never an Architecture insight)
    assert a.insights is None or "test_lookup_returns_none" not in (a.insights.architecture or "")


# tomlkit 43668dd "fix: keep newline after dotted inline table (#533)": no body, one method
# edited and one test added; the whole summary had been "Adds the test `test_add_key_…`"
_FIX_TEST_ADDED = (
    "@@ -40,3 +40,8 @@ def test_other():\n     assert True\n+\n+\n"
    "+def test_add_key_after_dotted_inline_table_without_ending_newline():\n"
    "+    assert render() == 'x = 1\\n'\n+\n"
)


@pytest.mark.parametrize(
    ("message", "tested"),
    [("fix: keep newline after dotted inline table (#533)", False), ("Rework the cache", True)],
)
def test_a_fix_is_never_summarised_by_the_name_of_the_test_it_adds(
    message: str, tested: bool
) -> None:
    a = _analyse(
        message, [_file("src/pkg/cache.py", _EDITS), _file("tests/test_cache.py", _FIX_TEST_ADDED)]
    )
    assert ("test_add_key_after" in a.summary) is tested, a.summary
    # a fix's tests, never its summary, are still said (what it pins)
    assert "test_add_key_after" in " ".join(_sentences(a))
