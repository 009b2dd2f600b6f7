"""A merge is typed and told by what it lands (issue 27, dacite's merges): its branch's word,
a public name new, a fix its test pins, a guard narrowed past a raise, a config field gained;
never "other" with its pull request's words that say nothing it does."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.analysis.titles import merged_branch_words
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.evaluation import git_history
from bot.models import Analysis, ChangeType
from tests.clones import _git, commit_files, second_commit, verdicts_of

T = ChangeType

# dacite 71c365a's shape: `__concretize` assigned a read-only `__args__` (an AttributeError
# for `list[str]`); the branch guards and catches it, and a test pins it.
_GENERICS = (
    "from typing import Any, get_args, get_origin\n\n"
    "from pkg.exceptions import DaciteError\n\n\n"
    "def concrete(hint: Any) -> Any:\n    return __concretize(hint)\n\n\n"
    "def __concretize(hint: Any) -> Any:\n"
    "    hint_args = get_args(hint)\n"
    "    if get_origin(hint) and hint_args:\n"
    "{body}"
    "    return hint\n"
)
_ASSIGNS = "        hint.__args__ = tuple(__concretize(a) for a in hint_args)\n"
_CATCHES = (
    "        concretized = tuple(__concretize(a) for a in hint_args)\n"
    "        if concretized != hint_args:\n"
    "            try:\n"
    "                hint.__args__ = concretized\n"
    "            except AttributeError as err:\n"
    '                raise DaciteError(f"Could not set __args__ on {hint}") from None\n'
)
_EXCEPTIONS = "class DaciteError(Exception):\n    pass\n"
_TEST = (
    "from pkg.generics import concrete\n\n\n"
    "def test_from_dict_iterables():\n    assert concrete(list[str]) == list[str]\n"
)
# dacite 4a7c517's shape: with `strict_unions_match` and no match, `popitem()` of the empty
# dict raised `KeyError`; the guard narrowed by `union_matches` lets the final raise run.
_UNION = (
    "class UnionMatchError(Exception):\n    pass\n\n\n"
    "class StrictUnionMatchError(Exception):\n    pass\n\n\n"
    "def build(union, data, config):\n    return _build_value_for_union(union, data, config)\n\n\n"
    "def _build_value_for_union(union, data, config):\n"
    "    union_matches = {{}}\n"
    "    for inner_type in union:\n"
    "        if isinstance(data, inner_type):\n"
    "            if config.strict_unions_match:\n"
    "                union_matches[inner_type] = data\n"
    "            else:\n"
    "                return data\n"
    "    if {test}:\n"
    "        if len(union_matches) > 1:\n"
    "            raise StrictUnionMatchError(union_matches)\n"
    "        return union_matches.popitem()[1]\n"
    "    if not config.check_types:\n"
    "        return data\n"
    "    raise UnionMatchError(union)\n"
)
_CONFIG = (
    "from dataclasses import dataclass, field\n"
    "from typing import Callable\n\n\n"
    "@dataclass\nclass Config:\n"
    "    check_types: bool = True\n"
    "{fields}"
)
_CONVERT_KEY = (
    "    convert_key: Callable[[str], str] = field(default_factory=lambda: lambda x: x)\n"
)


def _merged(
    tmp_path: Path,
    base: dict[str, str | None],
    branch: dict[str, str | None],
    message: str,
) -> Analysis:
    """The rules' analysis of a real merge (`--no-ff`, as GitHub's button makes one) of a
    branch holding `branch`'s files into `main` holding `base`'s, read as `eval --git` reads a
    first-parent merge: its files and patches against its first parent."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, base, "Initial layout")
    _git(root, "checkout", "-q", "-b", "topic")
    commit_files(root, branch, "Work on the branch")
    _git(root, "checkout", "-q", "main")
    _git(root, "merge", "-q", "--no-ff", "topic", "-m", message)
    read = dict(git_history(root, branch="HEAD~1..HEAD", merges=True))
    commits = [c for _, c in git_history(root, merges=True) if c.parents > 1]
    assert read and len(commits) == 1
    return analyze(commits[0])


def _said(analysis: Analysis) -> str:
    insights = analysis.insights.model_dump().values() if analysis.insights else ()
    return " ".join([analysis.summary, *(v for v in insights if v)])


def test_a_merged_crash_fix_its_test_pins_is_a_fix_told_by_its_code(tmp_path: Path) -> None:
    analysis = _merged(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/exceptions.py": _EXCEPTIONS,
            "pkg/generics.py": _GENERICS.format(body=_ASSIGNS),
        },
        {"pkg/generics.py": _GENERICS.format(body=_CATCHES), "tests/test_base.py": _TEST},
        "Merge pull request #274 from konradhalas/bug/273-readonly-attribute\n\n"
        "A hotfix and not a definitive solution for sure",
    )
    assert analysis.change_types[0] is T.BUGFIX
    assert analysis.importance.value == "medium"
    # the pull request's sentence says nothing it does: the code's facts say what changed
    assert "hotfix" not in analysis.summary
    # what it now catches is the fix; the new `DaciteError` callers reach is the risk's
    assert analysis.summary == "`__concretize` now catches `AttributeError`."
    assert any("DaciteError" in r.description for r in analysis.risks)
    said = _said(analysis)
    assert "`test_from_dict_iterables`" in said


def test_a_fix_its_test_pins_is_a_fix_without_a_word_of_its_branch(tmp_path: Path) -> None:
    analysis = _merged(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/exceptions.py": _EXCEPTIONS,
            "pkg/generics.py": _GENERICS.format(body=_ASSIGNS),
        },
        {"pkg/generics.py": _GENERICS.format(body=_CATCHES), "tests/test_base.py": _TEST},
        "Merge pull request #274 from someone/readonly-attribute\n\nA first step",
    )
    assert analysis.change_types == [T.BUGFIX]


def test_a_guard_narrowed_past_a_raise_is_said_with_the_raise(tmp_path: Path) -> None:
    analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/core.py": _UNION.format(test="config.strict_unions_match")},
        {"pkg/core.py": _UNION.format(test="config.strict_unions_match and union_matches")},
        "Merge pull request #233 from kkg4theweb/nounionmatchfix\n\n",
    )
    assert analysis.change_types == [T.BUGFIX]
    assert analysis.importance.value == "medium"
    assert analysis.summary.startswith(
        "`_build_value_for_union` now raises `UnionMatchError` if "
        "`config.strict_unions_match and not union_matches` (unless `not config.check_types`: "
        "then it returns `data`), where it returned `union_matches.popitem()[1]`"
    )
    assert "`union_matches.popitem()` raised `KeyError` there" in analysis.summary
    # the narrowed test is no new early return
    assert "returns early" not in _said(analysis)


def test_a_guard_narrowed_over_a_raise_the_branch_adds_is_not_said_narrowed(
    tmp_path: Path,
) -> None:
    # the parent ended in `return data`: what follows the guard changed too, and no raise it
    # kept from running is proven
    before = _UNION.format(test="config.strict_unions_match").replace(
        "    raise UnionMatchError(union)\n", "    return None\n"
    )
    analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/core.py": before},
        {"pkg/core.py": _UNION.format(test="config.strict_unions_match and union_matches")},
        "Merge pull request #9 from o/unions\n\nUnions",
    )
    assert "now raises `UnionMatchError` if" not in _said(analysis)


def test_a_dataclass_field_gained_is_said_with_its_default(tmp_path: Path) -> None:
    analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/config.py": _CONFIG.format(fields="")},
        {"pkg/config.py": _CONFIG.format(fields=_CONVERT_KEY)},
        "Merge pull request #272 from konradhalas/feature/keys\n\nSupport converting keys",
    )
    assert "`Config` gains the field `convert_key` (default `lambda x: x`)" in _said(analysis)
    assert analysis.change_types[0] is T.FEATURE


def test_a_plain_class_annotation_is_no_field(tmp_path: Path) -> None:
    plain = _CONFIG.replace("@dataclass\n", "")
    analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/config.py": plain.format(fields="")},
        {"pkg/config.py": plain.format(fields=_CONVERT_KEY)},
        "Merge pull request #272 from konradhalas/keys\n\nSupport converting keys",
    )
    assert "gains the field" not in _said(analysis)


def test_a_last_branch_before_the_final_return_is_a_case_accepted(tmp_path: Path) -> None:
    before = (
        "def is_instance(value, type_):\n"
        "    if type_ is int:\n        return isinstance(value, int)\n"
        "    return False\n"
    )
    after = before.replace(
        "    return False\n",
        "    if is_generic(type_):\n        return isinstance(value, type_.origin)\n"
        "    return False\n",
    )
    analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/types.py": before + "\n\ndef is_generic(t):\n    return 0\n"},
        {"pkg/types.py": after + "\n\ndef is_generic(t):\n    return 0\n"},
        "Merge pull request #5 from o/generic-instances\n\nGeneric instances",
    )
    said = _said(analysis)
    assert (
        "`is_instance` now returns `isinstance(value, type_.origin)` when `is_generic(type_)`, "
        "where it returned `False`"
    ) in said
    assert "returns early" not in said


def test_a_merge_nothing_types_stays_other(tmp_path: Path) -> None:
    analysis = _merged(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/a.py": "def f():\n    return 1\n"},
        {"pkg/a.py": "def f():\n    return 2\n"},
        "Merge pull request #7 from o/master\n\nSome work",
    )
    assert analysis.change_types == [T.OTHER]


def test_a_branch_is_read_as_its_words_without_its_owner() -> None:
    assert merged_branch_words(
        "Merge pull request #274 from konradhalas/bug/273-readonly-attribute\n\nA hotfix"
    ) == ("bug", "273", "readonly", "attribute")
    assert merged_branch_words("Merge branch 'feature/generics' into main") == (
        "feature",
        "generics",
    )
    assert merged_branch_words("Fix the bug/feature split") == ()


def test_the_checker_reads_a_field_gained_from_the_class(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/config.py": _CONFIG.format(fields="")},
        {"pkg/config.py": _CONFIG.format(fields=_CONVERT_KEY)},
        "Add convert_key",
    )
    said = "`Config` gains the field `convert_key` (default `lambda x: x`)."
    assert verdicts_of(root, commit.sha, said) == [(Kind.FIELD_NEW, Verdict.TRUE)]
    for false in (
        "`Config` gains the field `convert_key` (default `None`).",
        "`Config` gains the field `check_types` (default `True`).",
        "`Config` gains the fields `convert_key` (default `lambda x: x`), `strict` (required).",
    ):
        assert Verdict.FALSE in [v for _, v in verdicts_of(root, commit.sha, false)], false


def test_the_checker_reads_a_case_accepted_before_the_final_return(tmp_path: Path) -> None:
    before = (
        "def is_instance(value, type_):\n"
        "    if type_ is int:\n        return isinstance(value, int)\n"
        "    return False\n"
    )
    after = before.replace(
        "    return False\n",
        "    if is_generic(type_):\n        return isinstance(value, type_.origin)\n"
        "    return False\n",
    )
    root, commit = second_commit(
        tmp_path, {"pkg/types.py": before}, {"pkg/types.py": after}, "Generic instances"
    )
    said = (
        "`is_instance` now returns `isinstance(value, type_.origin)` when `is_generic(type_)`, "
        "where it returned `False`."
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.RETURNS_WHEN, Verdict.TRUE)]
    for false in (
        "`is_instance` now returns `True` when `is_generic(type_)`, where it returned `False`.",
        "`is_instance` now returns `isinstance(value, int)` when `type_ is int`.",
        "`is_instance` now returns `isinstance(value, type_.origin)` when `is_generic(type_)`, "
        "where it returned `None`.",
    ):
        assert [v for _, v in verdicts_of(root, commit.sha, false)] == [Verdict.FALSE], false


def test_the_checker_reads_a_guard_narrowed_past_a_raise(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {"pkg/core.py": _UNION.format(test="config.strict_unions_match")},
        {"pkg/core.py": _UNION.format(test="config.strict_unions_match and union_matches")},
        "Check for non empty union matches",
    )
    head = "`_build_value_for_union` now raises "
    said = (
        f"{head}`UnionMatchError` if `config.strict_unions_match and not union_matches` "
        "(unless `not config.check_types`: then it returns `data`), where it returned "
        "`union_matches.popitem()[1]` (`union_matches.popitem()` raised `KeyError` there)."
    )
    assert (Kind.RAISES_PAST, Verdict.TRUE) in verdicts_of(root, commit.sha, said)
    for false in (
        f"{head}`ValueError` if `config.strict_unions_match and not union_matches`, "
        "where it returned `union_matches.popitem()[1]`.",
        f"{head}`UnionMatchError` if `config.check_types and not union_matches`, "
        "where it returned `union_matches.popitem()[1]`.",
        f"{head}`UnionMatchError` if `config.strict_unions_match and not union_matches`, "
        "where it returned `data`.",
    ):
        verdicts = [v for k, v in verdicts_of(root, commit.sha, false) if k is Kind.RAISES_PAST]
        assert verdicts == [Verdict.FALSE], false


def test_a_trunk_merged_into_a_branch_is_not_typed_by_what_the_trunk_brings(
    tmp_path: Path,
) -> None:
    analysis = _merged(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/exceptions.py": _EXCEPTIONS,
            "pkg/generics.py": _GENERICS.format(body=_ASSIGNS),
        },
        {"pkg/generics.py": _GENERICS.format(body=_CATCHES), "tests/test_base.py": _TEST},
        "Merge main into cmdfix2",
    )
    assert T.BUGFIX not in analysis.change_types
