"""A linter's, formatter's or type checker's commit is low and typed a refactor, never a bug
fix for its title's "fix"; where its shipped code is proven the same it says so in one
sentence the claims checker verifies with its own reading. Shaped like natsort d16790e ("Add
pyupgrade checks"), lark 4cc6bd7 ("Cleanup with Ruff"), lark 77b7f49 ("Minir linting
fixes"), natsort 211212a ("Move linting from flake8 to ruff check") and natsort 607b35d
("Fix mypy errors"), built as clones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.layout import respelled_code
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.same_check import judged_same
from bot.models import ChangeType, FileChange, Importance
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# natsort d16790e's `natsort/compat/fastnumbers.py` (its first function), before and after
FASTNUMBERS = (
    "# -*- coding: utf-8 -*-\n"
    '"""\nInterface for natsort to access fastnumbers functions.\n"""\n\n'
    "import re\nfrom typing import Tuple\n\n\n"
    "def is_supported_fastnumbers(\n"
    "    fastnumbers_version: str, minimum: Tuple[int, int, int] = (2, 0, 0)\n"
    ") -> bool:\n"
    "    match = re.match(\n"
    '        r"^(\\d+)\\.(\\d+)(\\.(\\d+))?([ab](\\d+))?$",\n'
    "        fastnumbers_version,\n"
    "        flags=re.ASCII,\n"
    "    )\n\n"
    "    if not match:\n"
    "        raise ValueError(\n"
    "            \"Invalid fastnumbers version number '{}'\".format(fastnumbers_version)\n"
    "        )\n\n"
    "    (major, minor, patch) = match.group(1, 2, 4)\n\n"
    "    return (int(major), int(minor), int(patch)) >= minimum\n"
)
UPGRADED = FASTNUMBERS.replace("# -*- coding: utf-8 -*-\n", "").replace(
    "\"Invalid fastnumbers version number '{}'\".format(fastnumbers_version)",
    "f\"Invalid fastnumbers version number '{fastnumbers_version}'\"",
)
RUFF = '[tool.ruff]\ntarget-version = "py38"\n\n[tool.ruff.lint]\nselect = ["F", "E"]\n'
RUFF_UP = RUFF.replace('"py38"', '"py37"').replace('"E"]', '"E", "UP"]')


def _said(analysis: object) -> str:
    summary = getattr(analysis, "summary", "")
    insights = getattr(analysis, "insights", None)
    return f"{summary} {insights.architecture if insights else ''}"


def test_a_pyupgrade_rewrite_proven_the_same_is_low_and_says_so(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"natsort/compat/fastnumbers.py": FASTNUMBERS, "pyproject.toml": RUFF},
        {"natsort/compat/fastnumbers.py": UPGRADED, "pyproject.toml": RUFF_UP},
        "Add pyupgrade checks",
    )
    assert analysis.importance is Importance.LOW
    assert analysis.change_types[0] is ChangeType.REFACTOR
    assert ChangeType.FEATURE not in analysis.change_types
    assert analysis.summary == (
        "No behaviour change: `natsort/compat/fastnumbers.py` is the same code as before but"
        " for layout, comments and docstrings, and `str.format` calls written as f-strings;"
        " other files not compared."
    )
    assert verdicts == [Verdict.TRUE]


# lark 4cc6bd7's `LALR_Analyzer.compute_includes_lookback` (shortened)
LOOKBACK = (
    "class LALR_Analyzer:\n"
    "    def compute_includes_lookback(self):\n"
    "        for rp in self.items:\n"
    "            for j in range(len(rp.rule.expansion)):\n"
    "                if not rp.rule.expansion[j] in self.NULLABLE:\n"
    "                    break\n"
    "        return self.includes\n"
)


def test_a_negation_respelled_is_the_same_code(tmp_path: Path) -> None:
    after = LOOKBACK.replace(
        "not rp.rule.expansion[j] in self.NULLABLE", "rp.rule.expansion[j] not in self.NULLABLE"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"lark/parsers/lalr_analysis.py": LOOKBACK},
        {"lark/parsers/lalr_analysis.py": after},
        "Cleanup with Ruff",
    )
    assert analysis.importance is Importance.LOW
    assert analysis.change_types == [ChangeType.REFACTOR]
    # the respelling is no change of what the loop tests
    assert "now tests" not in _said(analysis)
    assert "`not x in y` written as `x not in y`" in _said(analysis)
    assert verdicts == [Verdict.TRUE]


# lark 77b7f49's `TreeMatcher.__init__` (shortened): `== False` became `not`, which differs for
# `None` (`None == False` is false, `not None` is true): no proof, but a linter's rewrite
MATCHER = (
    "class TreeMatcher:\n"
    "    def __init__(self, parser):\n"
    "        assert parser.options.maybe_placeholders == False\n"
    "        self.parser = parser\n"
)


def test_a_linters_fix_not_proven_the_same_is_low_and_no_bug_fix(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"lark/tree_matcher.py": MATCHER},
        {
            "lark/tree_matcher.py": MATCHER.replace(
                "maybe_placeholders == False", "not parser.options.maybe_placeholders"
            ).replace("assert parser.options.not ", "assert not ")
        },
        "Minir linting fixes",
    )
    assert analysis.importance is Importance.LOW
    assert ChangeType.BUGFIX not in analysis.change_types
    assert "No behaviour change" not in _said(analysis)
    assert Verdict.FALSE not in verdicts


# natsort 211212a's `natsort/__main__.py` (flake8-bugbear's B904): `raise … from None` hides
# the exception the error was raised while handling, which a traceback showed
MAIN = (
    "def check_filters(filters):\n"
    "    try:\n"
    "        return [float(x) for x in filters]\n"
    "    except ValueError as err:\n"
    '        raise ValueError("Error in --filter: " + str(err))\n'
)
FROM_NONE = MAIN.replace("str(err))\n", "str(err)) from None\n")


def test_a_rewrite_that_changes_what_runs_is_not_said_the_same(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {"natsort/__main__.py": MAIN},
        {"natsort/__main__.py": FROM_NONE},
        "Move linting from flake8 to ruff check",
    )
    # the checker's own reading: the sentence would be false on this commit
    said = (
        "No behaviour change: `natsort/__main__.py` is the same code as before but for layout,"
        " comments and docstrings."
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.SAME_CODE, Verdict.FALSE)]


def test_fix_mypy_errors_is_no_bug_fix(tmp_path: Path) -> None:
    # natsort 607b35d: a conditional expression split into an `if` for mypy
    before = (
        "from functools import partial\nfrom unicodedata import normalize\n\n\n"
        "def _normalize_input_factory(alg, ns):\n"
        '    normalization_form = "NFKD" if alg & ns.COMPATIBILITYNORMALIZE else "NFD"\n'
        "    return partial(normalize, normalization_form)\n"
    )
    after = before.replace(
        '    normalization_form = "NFKD" if alg & ns.COMPATIBILITYNORMALIZE else "NFD"\n'
        "    return partial(normalize, normalization_form)\n",
        "    if alg & ns.COMPATIBILITYNORMALIZE:\n"
        '        return partial(normalize, "NFKD")\n'
        "    else:\n"
        '        return partial(normalize, "NFD")\n',
    )
    analysis, verdicts = checked_entry(
        tmp_path, {"natsort/utils.py": before}, {"natsort/utils.py": after}, "Fix mypy errors"
    )
    assert analysis.importance is Importance.LOW
    assert ChangeType.BUGFIX not in analysis.change_types
    assert Verdict.FALSE not in verdicts


def test_a_checkers_fix_in_files_no_user_runs_is_no_bug_fix(tmp_path: Path) -> None:
    # wrapt 4391a45 ("Ensure enforce strict mode for mypy test checking", its `Justfile`),
    # under the title of that kind
    just = "test-mypy test:\n    MYPYPATH=src/ uv run mypy tests/mypy/{{test}}.py\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"Justfile": just, "tests/mypy/test_a.py": "x: int = 1\n"},
        {
            "Justfile": just.replace("mypy tests", "mypy --strict --show-error-codes tests"),
            "tests/mypy/test_a.py": "x: int = 1\ny: str = 'a'\n",
        },
        "fix: enable mypy strict mode in test files",
    )
    assert analysis.importance is Importance.LOW
    assert ChangeType.BUGFIX not in analysis.change_types


def test_the_checker_reads_each_respelling_only_where_the_sentence_names_it() -> None:
    # natsort d16790e's rewrite: the same code by `str.format`'s rule, not without it
    assert judged_same(FASTNUMBERS, UPGRADED, "`str.format` calls written as f-strings")[0]
    assert judged_same(FASTNUMBERS, UPGRADED, "layout, comments and docstrings")[0] is False
    # a field that reads an attribute is no plain argument: not read as the same
    assert (
        judged_same("'{0.x}'.format(a)\n", "f'{a.x}'\n", "`str.format` calls written as f-strings")[
            0
        ]
        is False
    )
    # imports from one module regrouped (natsort 211212a's `compat/fastnumbers.py`)
    grouped = "from fastnumbers import fast_float, fast_int, __version__ as fn_ver\n"
    split = "from fastnumbers import __version__ as fn_ver\nfrom fastnumbers import fast_float, fast_int\n"
    assert judged_same(grouped, split, "imports regrouped")[0]
    assert judged_same(grouped, split, "layout, comments and docstrings")[0] is False


def test_an_else_after_a_return_left_out_is_said_and_checked(tmp_path: Path) -> None:
    # natsort 65b1078 ("Add flake8-return and flake8-raise checks"): RET505 on `__main__.py`
    before = (
        "def range_check(low, high):\n"
        "    if low >= high:\n"
        '        raise ValueError("low >= high")\n'
        "    else:\n"
        "        return low, high\n"
    )
    after = before.replace("    else:\n        return low, high\n", "    return low, high\n")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"natsort/__main__.py": before},
        {"natsort/__main__.py": after},
        "Add flake8-return and flake8-raise checks",
    )
    assert analysis.importance is Importance.LOW
    assert "an `else` after an exit left out" in analysis.summary
    assert verdicts == [Verdict.TRUE]


def test_a_percent_format_is_not_read_as_the_same_code() -> None:
    # python-tabulate 4c39df9 ("Apply ruff/pyupgrade rule UP031"): `%s` calls `str`, an
    # f-string `format`, which a class may define otherwise (an `IntEnum` before 3.12)
    before = 'def _padleft(width, s):\n    fmt = "{0:>%ds}" % width\n    return fmt.format(s)\n'
    after = before.replace('"{0:>%ds}" % width', 'f"{{0:>{width}s}}"')
    change = FileChange(
        filename="tabulate/__init__.py", status="modified", before=before, after=after
    )
    assert respelled_code(change) is None
    upgraded = FileChange(
        filename="natsort/compat/fastnumbers.py",
        status="modified",
        before=FASTNUMBERS,
        after=UPGRADED,
    )
    assert respelled_code(upgraded) == {"format"}
