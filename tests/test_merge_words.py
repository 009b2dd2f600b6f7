"""A merge commit's words say what its branch brought (issue 27, item 4): its author's note,
its pull request or a fact of consequence, never only a fact of the code's insides."""

from __future__ import annotations

import pytest

from bot.analysis.rules import analyze
from bot.analysis.titles import merged_branch, merged_message
from bot.models import Analysis
from tests.support import whole_commit

# A private helper gains a parameter: true, but nothing a reader of the day needs.
_INTERNAL = (
    "pkg/rules.py",
    "def _assess(x):\n    return x\n"
    + "".join(f"def f{i}():\n    return {i}\n" for i in range(10)),
    "def _assess(x, merge=False):\n    return x\n"
    + "".join(f"def f{i}():\n    return {i + 1}\n" for i in range(10)),
)
# A public function gains one: what callers meet.
_PUBLIC = (
    "pkg/api.py",
    "def load(x):\n    return x\n",
    "def load(x, strict=False):\n    return x\n",
)


def _analyse(message: str, *files: tuple[str, str | None, str | None]) -> Analysis:
    commit = whole_commit(*files).model_copy(update={"message": message})
    return analyze(commit)


@pytest.mark.parametrize(
    ("message", "landed", "branch"),
    [
        (
            "Merge branch 'words' (issue 27: only what matters said)",
            "words\n\nIssue 27: only what matters said",
            "words",
        ),
        ("Merge branch 'langs'", "langs", "langs"),
        ("Merge main into cmdfix2", "main", "main"),
        (
            "Merge main into edges3 (cmds: its migration first)",
            "main\n\nCmds: its migration first",
            "main",
        ),
        ("Merge pull request #12 from octo/fix\n\nFix crash", "Fix crash (#12)", None),
        ("Merge main sort into the loader", None, None),
        ("Merge the two caches (#4)", None, None),
    ],
)
def test_a_merge_title_keeps_its_authors_note(
    message: str, landed: str | None, branch: str | None
) -> None:
    assert merged_message(message) == landed
    assert merged_branch(message) == branch


def test_a_merge_of_internal_facts_only_says_the_branch_it_lands() -> None:
    plain = _analyse("Tidy the rules", _INTERNAL)
    merge = _analyse("Merge branch 'langs'", _INTERNAL)
    # the same diff, not a merge: a fact is its summary (what a private helper now takes
    # never is one)
    assert plain.summary == "`f0` now returns `1` instead of `0`."
    assert merge.summary == "Lands the branch `langs`."


def test_a_merge_says_its_authors_note_before_any_fact() -> None:
    merge = _analyse("Merge branch 'words' (issue 27: only what matters said)", _INTERNAL)
    assert merge.summary == "Issue 27: only what matters said"


def test_a_merge_says_a_fact_of_consequence() -> None:
    merge = _analyse("Merge branch 'api'", _INTERNAL, _PUBLIC)
    assert merge.summary == "`load` gains the parameter `strict=False`."


def test_a_merge_in_chinese_lands_its_branch() -> None:
    commit = whole_commit(_INTERNAL).model_copy(update={"message": "Merge branch 'langs'"})
    assert analyze(commit, language="zh-CN").summary.startswith("合入分支 `langs`")
