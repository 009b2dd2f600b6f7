"""False words a reader found on real days of python-distro/distro, each a clone shaped like
the commit: a last `return` become an `if`/`else` that returns either way is no early
return; a commit that only edits the changelog records what it names, it does not do it; a
docstring re-wrapped fixes no code; a single top-level module a package names ships."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import Analysis, ChangeType, Importance
from tests.clones import _git, checked_entry, commit_files, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# distro c2798a3 "Add OpenBSD support": `_lsb_release_info` ended `return
# self._parse_lsb_release_content(content)`; it now ends with a choice between two parsers
_LSB = """import subprocess


class LinuxDistribution(object):
    def __init__(self, include_lsb=True):
        self.include_lsb = include_lsb

    def _lsb_release_info(self):
        if not self.include_lsb:
            return {{}}
        try:
            cmd = ('lsb_release', '-a')
            stdout = subprocess.check_output(cmd)
        except OSError:
{caught}
        content = stdout.decode('utf-8').splitlines()
{tail}

    @staticmethod
    def _parse_lsb_release_content(lines):
        return dict(line.split(':', 1) for line in lines)
"""
_UNAME = """
    @staticmethod
    def _parse_uname_content(lines):
        name, version = lines[0].split()
        return {'id': name.lower(), 'release': version}
"""


def test_a_last_return_become_a_choice_is_no_early_return(tmp_path: Path) -> None:
    before = {
        "distro.py": _LSB.format(
            caught="            return {}",
            tail="        return self._parse_lsb_release_content(content)",
        )
    }
    after = {
        "distro.py": _LSB.format(
            caught="            try:\n                cmd = ('uname', '-rs')\n"
            "                stdout = subprocess.check_output(cmd)\n"
            "            except OSError:\n                return {}",
            tail="        if cmd[0] == 'lsb_release':\n"
            "            return self._parse_lsb_release_content(content)\n"
            "        else:\n            return self._parse_uname_content(content)",
        )
        + _UNAME
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Add OpenBSD support")
    assert "returns early" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


@pytest.mark.parametrize(
    ("tail", "early"),
    [
        # the old last statement still runs when the new test is false: early
        (
            "        if cmd[0] == 'uname':\n            return {}\n"
            "        return self._parse_lsb_release_content(content)",
            True,
        ),
        # the `if` ends the function: a choice, whatever its `else` does
        (
            "        if cmd[0] == 'lsb_release':\n"
            "            return self._parse_lsb_release_content(content)",
            False,
        ),
        # both branches return: nothing after them runs
        (
            "        if cmd[0] == 'uname':\n            return {}\n"
            "        else:\n            return self._parse_lsb_release_content(content)\n"
            "        print(content)",
            False,
        ),
    ],
)
def test_the_checker_reads_returns_early_as_code_that_still_runs_otherwise(
    tmp_path: Path, tail: str, early: bool
) -> None:
    before = {
        "distro.py": _LSB.format(
            caught="            return {}",
            tail="        return self._parse_lsb_release_content(content)",
        )
    }
    after = {"distro.py": _LSB.format(caught="            return {}", tail=tail)}
    root, commit = second_commit(tmp_path, before, after, "Read uname")
    test = "cmd[0] == 'uname'" if "'uname'" in tail else "cmd[0] == 'lsb_release'"
    said = f"`LinuxDistribution._lsb_release_info` now returns early when `{test}`."
    assert verdicts_of(root, commit.sha, said) == [
        (Kind.GUARD, Verdict.TRUE if early else Verdict.FALSE)
    ]


# distro c7fa438 "Add changelog entry": the commit's one file is `CHANGES`, its one item the
# features three earlier commits added
_CHANGES = "{new}**1.2.0 (2017.12.24)**\n\n* Lazily load parsers to speed up import time.\n"
_ITEM = "**Unreleased**\n\n* Added support for OpenBSD, FreeBSD, and NetBSD\n\n"


def test_a_commit_that_only_writes_the_changelog_records_what_it_says(tmp_path: Path) -> None:
    before = {"CHANGES": _CHANGES.format(new=""), "distro.py": "def id():\n    return ''\n"}
    after = {"CHANGES": _CHANGES.format(new=_ITEM)}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Add changelog entry")
    assert analysis.summary == (
        "Records “Added support for OpenBSD, FreeBSD, and NetBSD” in the changelog."
    )
    assert analysis.importance is Importance.LOW
    assert ChangeType.FEATURE not in analysis.change_types
    assert Verdict.FALSE not in verdicts


def test_a_changelog_item_beside_the_code_it_tells_is_the_change_s_summary(
    tmp_path: Path,
) -> None:
    before = {"CHANGES": _CHANGES.format(new=""), "distro.py": "def id():\n    return ''\n"}
    after = {
        "CHANGES": _CHANGES.format(new=_ITEM),
        "distro.py": "import platform\n\n\ndef id():\n    return platform.system().lower()\n",
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Add BSD support")
    assert analysis.summary.startswith("Added support for OpenBSD")


# distro a419786 "Fix lint error for long lines": the single module `distro.py` at the root,
# which `setup.py` names in `py_modules`; after `v1.2.0` a parameter came with its docstring
# lines, and the commit re-wraps them
_SETUP = (
    "from setuptools import setup\n\nsetup(\n    name='distro',\n    py_modules=['distro'],\n)\n"
)
_MODULE = '''class LinuxDistribution(object):
    def __init__(self, include_lsb=True{param}):
        """
        Parameters:

        * ``include_lsb`` (bool): Whether the lsb information will be loaded.
{doc}
        """
        self.include_lsb = include_lsb
{body}
'''
_WIDE = (
    "        * ``include_uname`` (bool): The result of the ``include_uname`` parameter.\n"
    "          This controls whether the uname information will be loaded."
)
_WRAPPED = (
    "        * ``include_uname`` (bool): The result of the ``include_uname``\n"
    "          parameter. This controls whether the uname information will\n"
    "          be loaded."
)
_ADDED = _MODULE.format(
    param=", include_uname=True", doc=_WIDE, body="        self.include_uname = include_lsb"
)
_FIXES = "Fixes code added after `v1.2.0` (never released): users of releases were not affected."


def _single_module(tmp_path: Path, after: dict[str, str | None], title: str) -> Analysis:
    """The package released as `v1.2.0`, the parameter added after it, then the commit."""
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    released = _MODULE.format(param="", doc="", body="")
    commit_files(
        root, {"setup.py": _SETUP, "distro.py": released, "query.py": "import distro\n"}, "1.2.0"
    )
    _git(root, "tag", "-a", "v1.2.0", "-m", "Version 1.2.0")
    commit_files(
        root, {"distro.py": _ADDED, "query.py": "import distro\nprint(distro)\n"}, "Add uname"
    )
    commit_files(root, after, title)
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    return analyze(commit)


def test_a_fix_of_the_single_module_a_package_names_is_a_shipped_fix(tmp_path: Path) -> None:
    fixed = _ADDED.replace("self.include_uname = include_lsb", "self.include_uname = include_uname")
    analysis = _single_module(tmp_path, {"distro.py": fixed}, "Fix include_uname being ignored")
    assert _FIXES in (analysis.insights.compatibility if analysis.insights else "")
    root = tmp_path / "repo"
    said = verdicts_of(root, _git(root, "rev-parse", "HEAD"), entry_text(analysis))
    assert (Kind.FIXES_UNRELEASED, Verdict.TRUE) in said


def test_a_docstring_re_wrapped_fixes_no_code_never_released(tmp_path: Path) -> None:
    wrapped = _ADDED.replace(_WIDE, _WRAPPED)
    analysis = _single_module(tmp_path, {"distro.py": wrapped}, "Fix lint error for long lines")
    assert "never released" not in entry_text(analysis)
    # the checker, told it anyway, finds no code of a shipped file changed
    root = tmp_path / "repo"
    said = verdicts_of(root, _git(root, "rev-parse", "HEAD"), _FIXES)
    assert said == [(Kind.FIXES_UNRELEASED, Verdict.FALSE)]


def test_a_root_script_the_package_does_not_name_is_not_shipped(tmp_path: Path) -> None:
    _single_module(
        tmp_path, {"query.py": "import distro\nprint(distro.LinuxDistribution)\n"}, "Fix"
    )
    root = tmp_path / "repo"
    said = verdicts_of(root, _git(root, "rev-parse", "HEAD"), _FIXES)
    assert said == [(Kind.FIXES_UNRELEASED, Verdict.FALSE)]
