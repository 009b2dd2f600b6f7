"""False words a reader found on real days of python-distro/distro, each a clone shaped like
the commit: a last `return` become an `if`/`else` that returns either way is no early
return; a commit that only edits the changelog records what it names, it does not do it; a
docstring re-wrapped fixes no code; a single top-level module a package names ships."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# distro c2798a3 "Add OpenBSD support": `_lsb_release_info` ended `return
# self._parse_lsb_release_content(content)`; it now ends with a choice between two parsers
_LSB = '''import subprocess


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
'''
_UNAME = '''
    @staticmethod
    def _parse_uname_content(lines):
        name, version = lines[0].split()
        return {'id': name.lower(), 'release': version}
'''


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
