"""A module's own helpers and data out of *Compatibility*: a public-looking function its
module's `__all__` leaves out, a `_private` table, a package's `__main__.py` table; and one
`if` said once (platformdirs 7a47ac4 "add site_applications_dir property": the helper
`get_win_folder_if_csidl_name_not_env_var` "now checks for" and "now returns early when"
the same string, `PROPS` and `_KNOWN_FOLDER_GUIDS` gain one, all said as Compatibility)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.phrases import analysis_phrases
from bot.analysis.signals import read_signals
from bot.analysis.wording import statements
from bot.cli.claim_check import Verdict
from bot.cli.claims import claims_in
from tests.clones import second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

WINDOWS = '''"""Windows directories."""

import os

_KNOWN_GUIDS = {{
    "CSIDL_APPDATA": "3EB685DB",
{guid}}}


class Windows:
    """Windows directories."""

    @property
    def user_data_dir(self) -> str:
        return get_folder("CSIDL_APPDATA")
{method}

def get_folder(csidl_name: str) -> str | None:
    """A folder by its CSIDL name, from the environment."""
{guard}    return os.environ.get(csidl_name)


__all__ = [
    "Windows",
]
'''
MAIN = '''"""Print the directories."""

PROPS = (
    "user_data_dir",
{prop})


def main() -> None:
    for prop in PROPS:
        print(prop)
'''


def _tree(*, new: bool) -> dict[str, str | None]:
    return {
        "src/dirs/__main__.py": MAIN.format(prop='    "site_applications_dir",\n' if new else ""),
        "src/dirs/windows.py": WINDOWS.format(
            guid='    "CSIDL_COMMON_PROGRAMS": "0139D44E",\n' if new else "",
            method=(
                "\n    @property\n    def site_applications_dir(self) -> str:\n"
                '        return get_folder("CSIDL_COMMON_PROGRAMS")\n'
                if new
                else ""
            ),
            guard=(
                '    if csidl_name == "CSIDL_COMMON_PROGRAMS":\n'
                '        return "C:/ProgramData/Start Menu/Programs"\n'
                if new
                else ""
            ),
        ),
    }


def test_a_module_s_own_helpers_and_data_are_no_compatibility_items(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path, _tree(new=False), _tree(new=True), "feat(api): add site_applications_dir"
    )
    said = statements(read_signals(commit), analysis_phrases("en"))
    compatibility = " ".join(s.clause for s in said if s.theme == "compatibility")
    for internal in ("get_folder", "PROPS", "_KNOWN_GUIDS"):
        assert internal not in compatibility, compatibility
    text = " ".join(s.clause[:1].upper() + s.clause[1:] + "." for s in said)
    # one `if`, one sentence: the guard says the string it compares with
    assert "`get_folder` now returns early when" in text
    assert "now checks for" not in text
    assert claims_in(text)[0]
    assert Verdict.FALSE not in {v for _, v in verdicts_of(root, commit.sha, text)}


def test_a_private_table_that_only_registers_the_new_names_is_not_said(tmp_path: Path) -> None:
    # platformdirs 5e8fe0d, 29993a0, 816747e …: "`PROPS` gains `"site_state_dir"`" beside
    # "Adds `site_state_dir` …" said the addition again; a key that is no new name still
    # says something (`_KNOWN_GUIDS` gains `"CSIDL_COMMON_PROGRAMS"`)
    _, commit = second_commit(
        tmp_path, _tree(new=False), _tree(new=True), "feat(api): add site_applications_dir"
    )
    said = " ".join(s.clause for s in statements(read_signals(commit), analysis_phrases("en")))
    assert "`Windows.site_applications_dir`" in said or "site_applications_dir" in said
    assert "`PROPS`" not in said
    assert '`_KNOWN_GUIDS` gains the key `"CSIDL_COMMON_PROGRAMS"`' in said


def test_what_a_private_function_now_catches_is_no_compatibility_item(tmp_path: Path) -> None:
    # environs b9871ed: "*Compatibility*: `_dj_email_url_parser` now catches `Exception`",
    # a private helper's insides; what callers import is unchanged
    before = (
        "def _url_parser(value):\n    return parse(value)\n\n\n"
        "class Env:\n    def url(self, value):\n        return _url_parser(value)\n"
    )
    after = before.replace(
        "    return parse(value)\n",
        "    try:\n        return parse(value)\n    except Exception as error:\n"
        "        raise ValueError(value) from error\n",
    )
    _, commit = second_commit(
        tmp_path, {"env/core.py": before}, {"env/core.py": after}, "Fix deferred validation"
    )
    said = statements(read_signals(commit), analysis_phrases("en"))
    caught = [s for s in said if "now catches" in s.clause]
    assert [s.clause for s in caught] == ["`_url_parser` now catches `Exception`"]
    assert caught[0].theme == "architecture"
