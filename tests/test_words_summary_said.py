"""An insight says what the summary and the title did not: one whose names the summary
already says is left out (the summary's "`load`, `find` now call `_is_file_or_fifo`, whose
docstring says …", then "Adds `_is_file_or_fifo` to `pkg/main.py`"); the tests a change adds
are never an "Architecture" insight; where a fix lies is not said where the title names it
("Fix naturaldelta sub second precision": not "The fix is in `naturaldelta`"). Clones shaped
like such commits, shortened."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_MAIN = """import os
import stat


def load(path):
    if path and @CHECK@(path):
        with open(path) as stream:
            return stream.read()
    return ""


def find(dirname, filename=".env"):
    check_path = os.path.join(dirname, filename)
    if @CHECK@(check_path):
        return check_path
    return ""
"""

_HELPER = '''

def _is_file_or_fifo(path):
    """Return True if `path` exists and is either a regular file or a FIFO."""
    if os.path.isfile(path):
        return True
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISFIFO(st.st_mode)
'''


def test_an_insight_naming_only_what_the_summary_said_is_left_out(tmp_path: Path) -> None:
    before = {"pkg/main.py": _MAIN.replace("@CHECK@", "os.path.isfile")}
    after = {"pkg/main.py": _MAIN.replace("@CHECK@", "_is_file_or_fifo") + _HELPER}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Support reading from FIFOs")
    assert "`_is_file_or_fifo`" in analysis.summary
    insights = analysis.insights
    architecture = (insights.architecture if insights else None) or ""
    assert "Adds `_is_file_or_fifo`" not in architecture
    assert Verdict.FALSE not in verdicts


_REWRITE = """import os
import tempfile


def rewrite(path):
@BODY@
"""
_OLD = """    try:
        with tempfile.NamedTemporaryFile(mode="w+", delete=False) as dest:
            yield dest
    except BaseException:
        if os.path.isfile(dest.name):
            os.unlink(dest.name)
        raise"""
_NEW = """    dest = None
    try:
        dest = tempfile.NamedTemporaryFile(mode="w+", delete=False)
        yield dest
    except BaseException:
        if dest and os.path.isfile(dest.name):
            os.unlink(dest.name)
        raise"""
_TESTS = """from pkg.main import rewrite


def test_rewrite():
    assert rewrite
"""
_TEST_NEW = """

def test_rewrite_invalid_file():
    assert rewrite(None)
"""


def test_an_added_test_is_no_architecture(tmp_path: Path) -> None:
    before = {"pkg/main.py": _REWRITE.replace("@BODY@", _OLD), "tests/test_main.py": _TESTS}
    after = {
        "pkg/main.py": _REWRITE.replace("@BODY@", _NEW),
        "tests/test_main.py": _TESTS + _TEST_NEW,
    }
    analysis, verdicts = checked_entry(
        tmp_path, before, after, 'fix: out of scope error when "dest" is undefined'
    )
    insights = analysis.insights
    architecture = (insights.architecture if insights else None) or ""
    assert "test_rewrite_invalid_file" not in architecture
    assert Verdict.FALSE not in verdicts


_TIME = '''def naturaldelta(value):
    """A delta in words."""
    seconds = @SECONDS@
    if seconds < 1:
        return "a moment"
    return f"{seconds} seconds"


def naturaltime(value):
    return naturaldelta(value) + " ago"
'''


_TIME_TESTS = """from pkg.time import naturaldelta


def test_naturaldelta():
    assert naturaldelta(@VALUE@)
"""


def _time(seconds: str, value: str) -> dict[str, str | None]:
    return {
        "pkg/time.py": _TIME.replace("@SECONDS@", seconds),
        "tests/test_time.py": _TIME_TESTS.replace("@VALUE@", value),
    }


def test_the_fix_place_the_title_names_is_not_said_again(tmp_path: Path) -> None:
    before, after = _time("int(value)", "1"), _time("float(value)", "0.5")
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Fix naturaldelta sub second precision"
    )
    text = entry_text(analysis)
    assert "The fix is in `naturaldelta`" not in text
    assert Verdict.FALSE not in verdicts


def test_a_fix_place_the_title_does_not_name_is_still_said(tmp_path: Path) -> None:
    before, after = _time("int(value)", "1"), _time("float(value)", "0.5")
    analysis, verdicts = checked_entry(tmp_path, before, after, "Fix sub second precision")
    text = entry_text(analysis)
    assert "The fix is in `naturaldelta`" in text
    assert Verdict.FALSE not in verdicts
