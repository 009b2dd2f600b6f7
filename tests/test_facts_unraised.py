"""A raise the parent reached on a condition, gone at the commit: "`f` no longer raises `E`
when `t`", said where both revisions' whole files prove it (python-pathspec 24374be "Allow
empty pattern list": the backends' `if not patterns: raise ValueError(…)` went)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_claims
from bot.models import Analysis
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

PATH = "pathspec/_backends/re2/pathspec.py"
_REST = "".join(f"\n\ndef helper{i}(value):\n    return value + {i}\n" for i in range(4))
# python-pathspec 24374be's `Re2PsBackend.__init__`, shortened
BACKEND = (
    "from pathspec.pattern import RegexPattern\n\n"
    "try:\n    import re2\n    re2_error = None\nexcept ImportError as e:\n"
    "    re2 = None\n    re2_error = e\n\n\n"
    "class Re2PsBackend:\n"
    "    def __init__(self, patterns):\n"
    "        if re2_error is not None:\n"
    "            raise re2_error\n\n"
    "        if not patterns:\n"
    "            raise ValueError(f'{patterns=!r} cannot be empty.')\n"
    "        elif not isinstance(patterns[0], RegexPattern):\n"
    "            raise TypeError(f'{patterns[0]=!r} must be a RegexPattern.')\n\n"
    "        self._patterns = dict(enumerate(patterns))\n"
    "        self._set = self._make_set()\n\n"
    "    def _make_set(self):\n"
    "        return re2.Set.SearchSet()\n" + _REST
)
BACKEND_EMPTY = BACKEND.replace(
    "        if not patterns:\n"
    "            raise ValueError(f'{patterns=!r} cannot be empty.')\n"
    "        elif not isinstance(patterns[0], RegexPattern):\n",
    "        if patterns and not isinstance(patterns[0], RegexPattern):\n",
)
TEST = "def test_spec():\n    assert True\n"
TEST_EMPTY = TEST + "\n\ndef test_empty():\n    assert True\n"


def _said(tmp_path: Path, before: str, after: str, title: str) -> str:
    _, commit = second_commit(
        tmp_path,
        {PATH: before, "tests/test_spec.py": TEST},
        {PATH: after, "tests/test_spec.py": TEST_EMPTY},
        title,
    )
    analysis: Analysis = analyze(commit)
    insights = analysis.insights
    return " ".join(
        [analysis.summary, *(v for v in (insights.model_dump() if insights else {}).values() if v)]
    )


def test_a_raise_gone_with_its_condition_is_said_as_what_callers_no_longer_meet(
    tmp_path: Path,
) -> None:
    said = _said(tmp_path, BACKEND, BACKEND_EMPTY, "Allow empty pattern list")
    assert "`Re2PsBackend` no longer raises `ValueError` when `not patterns`" in said
    # the `TypeError` is still raised, on another condition
    assert "`TypeError`" not in said


def test_a_raise_moved_into_a_helper_it_calls_is_still_raised(tmp_path: Path) -> None:
    moved = BACKEND_EMPTY.replace(
        "        self._patterns = dict(enumerate(patterns))\n",
        "        self._patterns = self._numbered(patterns)\n",
    ).replace(
        "    def _make_set(self):\n",
        "    def _numbered(self, patterns):\n"
        "        if not patterns:\n"
        "            raise ValueError('cannot be empty.')\n"
        "        return dict(enumerate(patterns))\n\n"
        "    def _make_set(self):\n",
    )
    said = _said(tmp_path, BACKEND, moved, "Check patterns in one place")
    assert "no longer raises" not in said


def test_a_raise_of_another_class_on_the_same_condition_is_not_said_gone(
    tmp_path: Path,
) -> None:
    other = BACKEND.replace("raise ValueError(f'{patterns=!r}", "raise LookupError(f'{patterns=!r}")
    said = _said(tmp_path, BACKEND, other, "Raise LookupError for empty pattern lists")
    assert "no longer raises" not in said


def test_a_raise_after_an_early_return_is_not_proven_reached(tmp_path: Path) -> None:
    early = "    def __init__(self, patterns):\n        if patterns is None:\n            return\n"
    before = BACKEND.replace("    def __init__(self, patterns):\n", early)
    after = BACKEND_EMPTY.replace("    def __init__(self, patterns):\n", early)
    said = _said(tmp_path, before, after, "Allow empty pattern list")
    assert "no longer raises" not in said


# a public method that handed its argument to a private helper that refused an empty one;
# the commit returns early on that case before the call
LOADER = (
    "class Loader:\n"
    "    def load(self, items):\n"
    "        return self._compile(items)\n\n"
    "    def _compile(self, patterns):\n"
    "        if not patterns:\n"
    "            raise ValueError('nothing to compile')\n"
    "        return [p.strip() for p in patterns]\n" + _REST
)
LOADER_GUARDED = LOADER.replace(
    "    def load(self, items):\n",
    "    def load(self, items):\n        if not items:\n            return []\n",
)


def test_a_new_guard_that_skips_a_raising_callee_says_the_raise_gone(tmp_path: Path) -> None:
    said = _said(tmp_path, LOADER, LOADER_GUARDED, "Allow loading nothing")
    assert "`Loader.load` no longer raises `ValueError` when `not items`" in said


def test_a_guard_on_another_condition_than_the_callees_says_no_raise_gone(
    tmp_path: Path,
) -> None:
    other = LOADER.replace(
        "    def load(self, items):\n",
        "    def load(self, items):\n        if items is None:\n            return []\n",
    )
    said = _said(tmp_path, LOADER, other, "Allow loading None")
    assert "no longer raises" not in said


def test_a_guard_after_a_statement_that_raises_the_same_says_no_raise_gone(
    tmp_path: Path,
) -> None:
    checked = LOADER.replace(
        "    def load(self, items):\n",
        "    def load(self, items):\n        self._compile(items)\n"
        "        if not items:\n            return []\n",
    )
    said = _said(tmp_path, LOADER, checked, "Allow loading nothing")
    assert "no longer raises" not in said


def test_a_callee_that_rebinds_what_it_tests_is_not_read_through(tmp_path: Path) -> None:
    rebinding = LOADER.replace(
        "    def _compile(self, patterns):\n",
        "    def _compile(self, patterns):\n        patterns = [p for p in patterns if p]\n",
    )
    guarded = rebinding.replace(
        "    def load(self, items):\n",
        "    def load(self, items):\n        if not items:\n            return []\n",
    )
    said = _said(tmp_path, rebinding, guarded, "Allow loading nothing")
    assert "no longer raises" not in said


def test_the_checker_reads_the_sentence_and_finds_it_true(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {PATH: BACKEND, "tests/test_spec.py": TEST},
        {PATH: BACKEND_EMPTY, "tests/test_spec.py": TEST_EMPTY},
        "Allow empty pattern list",
    )
    claims, _ = entry_claims(analysis)
    gone = [c for c in claims if c.kind is Kind.RAISES_GONE_WHEN]
    assert [(c.name, c.old, c.new) for c in gone] == [
        ("Re2PsBackend", "raise ValueError", "not patterns")
    ]
    assert Verdict.FALSE not in verdicts and Verdict.TRUE in verdicts


def test_the_checker_refutes_a_raise_said_gone_that_the_commit_still_makes(
    tmp_path: Path,
) -> None:
    # the words of the sentence against a commit that kept the raise, and one whose parent
    # never raised on that test
    kept = BACKEND + "\n\nLIMIT = 3\n"
    root, commit = second_commit(tmp_path, {PATH: BACKEND}, {PATH: kept}, "Tidy")
    said = "`Re2PsBackend` no longer raises `ValueError` when `{}`."
    assert verdicts_of(root, commit.sha, said.format("not patterns")) == [
        (Kind.RAISES_GONE_WHEN, Verdict.FALSE)
    ]
    assert verdicts_of(root, commit.sha, said.format("patterns is None")) == [
        (Kind.RAISES_GONE_WHEN, Verdict.FALSE)
    ]


def test_a_raise_a_guard_skips_in_a_callee_is_not_refuted(tmp_path: Path) -> None:
    # the checker reads the function's own code: the callee's raise is not read, never false
    analysis, verdicts = checked_entry(
        tmp_path, {"loader.py": LOADER}, {"loader.py": LOADER_GUARDED}, "Allow loading nothing"
    )
    claims, _ = entry_claims(analysis)
    kinds = dict(zip((c.kind for c in claims), verdicts, strict=True))
    assert kinds.get(Kind.RAISES_GONE_WHEN) is Verdict.UNVERIFIABLE
    assert Verdict.FALSE not in verdicts
