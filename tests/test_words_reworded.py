"""Words that change without the thing changing (issue 27): a warning whose message is only
reworded is not added, and a requirement pinned for the dev tools or an extra is not what
the package requires."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# pathspec 92a9066 "Improve debugging": `match_files` warned before, in other words
_UTIL = '''import warnings


def match_file(patterns, file):
    return any(p.match(file) for p in patterns)


def match_files(patterns, files):
    """DEPRECATED: use match_file with a loop."""
    warnings.warn((
{words}
    ), DeprecationWarning, stacklevel=2)
    return {{f for f in files if match_file(patterns, f)}}
{extra}'''
_OLD = '''        "util.match_files() is deprecated. Use util.match_file() with a "
        "loop for better results."'''
_NEW = '''        f"{__name__}.match_files() is deprecated. Use {__name__}.match_file() with "
        f"a loop for better results."'''
_ITER = """

def iter_tree(root):
    warnings.warn("iter_tree() is deprecated. Use iter_tree_files().", DeprecationWarning)
    return []
"""


def test_a_deprecation_warning_only_reworded_is_not_added(tmp_path: Path) -> None:
    before = {"pathspec/__init__.py": "", "pathspec/util.py": _UTIL.format(words=_OLD, extra="")}
    after = {"pathspec/util.py": _UTIL.format(words=_NEW, extra="")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Improve debugging")
    assert "deprecation warning" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_warning_in_a_function_that_had_none_is_added_beside_a_reworded_one(
    tmp_path: Path,
) -> None:
    before = {"pathspec/__init__.py": "", "pathspec/util.py": _UTIL.format(words=_OLD, extra="")}
    after = {"pathspec/util.py": _UTIL.format(words=_NEW, extra=_ITER)}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Improve debugging")
    text = entry_text(analysis)
    assert "deprecation warning: “iter_tree() is deprecated" in text
    assert "match_files() is deprecated" not in text
    assert Verdict.FALSE not in verdicts
