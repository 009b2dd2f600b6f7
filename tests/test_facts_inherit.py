"""A public base class's new `@abstractmethod` said as what subclasses must now define, and a
subclass's method over a base class's said as an override, not new API (platformdirs
816747e "add site_bin_dir property": `PlatformDirsABC` gains the abstract `site_bin_dir`,
each platform implements it, and `Unix.user_bin_dir` now overrides `_UnixDefaults`'s).
Each a clone shaped like the commit, every sentence checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_claims, entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

API = '''"""Base API."""

from abc import ABC, abstractmethod


class DirsABC(ABC):
    """Abstract base class for platform directories."""

    @property
    @abstractmethod
    def user_bin_dir(self) -> str:
        """:return: bin directory tied to the user"""
{site}
'''
API_SITE = '''
    @property
    @abstractmethod
    def site_bin_dir(self) -> str:
        """:return: bin directory shared by users"""

    @property
    def site_bin_path(self) -> str:
        """:return: bin path shared by users"""
        return self.site_bin_dir
'''
PLATFORM = '''"""{name} directories."""

from .api import DirsABC


class {name}(DirsABC):
    """{name} directories."""

    @property
    def user_bin_dir(self) -> str:
        """:return: bin directory tied to the user"""
        return "{root}/bin"
{site}
'''
UNIX = '''"""Unix directories."""

from .api import DirsABC


class _UnixDefaults(DirsABC):
    """Unix defaults."""

    @property
    def user_bin_dir(self) -> str:
        """:return: bin directory tied to the user"""
        return "~/.local/bin"
{site}

class Unix(_UnixDefaults):
    """Unix directories, site ones for root when asked."""
{override}
'''
UNIX_OVERRIDE = '''
    @property
    def user_bin_dir(self) -> str:
        """:return: bin directory tied to the user, or the site one for root"""
        return self.site_bin_dir if self.use_site else super().user_bin_dir
'''
INIT = '''"""Directories."""

from .unix import Unix


def user_bin_dir() -> str:
    """:return: bin directory tied to the user"""
    return Unix().user_bin_dir
{site}
'''
INIT_SITE = '''

def site_bin_dir() -> str:
    """:return: bin directory shared by users"""
    return Unix().site_bin_dir


def site_bin_path() -> str:
    """:return: bin path shared by users"""
    return Unix().site_bin_path
'''


def _site(root: str) -> str:
    return f'\n    @property\n    def site_bin_dir(self) -> str:\n        return "{root}"\n'


def _tree(*, site: bool) -> dict[str, str | None]:
    def platform(name: str, root: str) -> str:
        return PLATFORM.format(name=name, root=root, site=_site(root) if site else "")

    return {
        "src/dirs/__init__.py": INIT.format(site=INIT_SITE if site else ""),
        "src/dirs/android.py": platform("Android", "/data/files"),
        "src/dirs/api.py": API.format(site=API_SITE if site else ""),
        "src/dirs/macos.py": platform("MacOS", "/usr/local"),
        "src/dirs/unix.py": UNIX.format(
            site=_site("/usr/local/bin") if site else "",
            override=UNIX_OVERRIDE if site else "    use_site = False\n",
        ),
        "src/dirs/windows.py": platform("Windows", "C:/ProgramData"),
    }


def test_a_new_abstract_member_is_what_subclasses_must_now_define(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _tree(site=False), _tree(site=True), "feat(api): add site_bin_dir property"
    )
    text = entry_text(analysis)
    assert "`DirsABC` gains the abstract `site_bin_dir`: subclasses must now define it." in text
    # the base class's members before its subclasses': "and N more" never hides them
    assert "`DirsABC.site_bin_dir`" in text.split(" and ", 1)[0]
    assert not analysis.breaking
    kinds = {c.kind for c in entry_claims(analysis)[0]}
    assert {Kind.ABSTRACT_NEW, Kind.OVERRIDES} <= kinds
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_method_over_a_base_class_one_is_an_override_not_an_addition(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path, _tree(site=False), _tree(site=True), "feat(api): add site_bin_dir property"
    )
    text = entry_text(analysis)
    assert "`Unix` now overrides `user_bin_dir` of `_UnixDefaults`." in text
    assert "Unix.user_bin_dir" not in text
    # the platforms' implementations of the new abstract member are new API still
    assert "`Android.site_bin_dir`" in text or "more" in text


def test_the_checker_refutes_abstract_members_and_overrides_the_code_does_not_hold(
    tmp_path: Path,
) -> None:
    root, commit = second_commit(
        tmp_path, _tree(site=False), _tree(site=True), "feat(api): add site_bin_dir property"
    )
    cases = {
        "`DirsABC` gains the abstract `site_bin_dir`: subclasses must now define it.": True,
        # abstract at the parent already; concrete; not in the class
        "`DirsABC` gains the abstract `user_bin_dir`: subclasses must now define it.": False,
        "`DirsABC` gains the abstract `site_bin_path`: subclasses must now define it.": False,
        "`Unix` gains the abstract `site_bin_dir`: subclasses must now define it.": False,
        "`Unix` now overrides `user_bin_dir` of `_UnixDefaults`.": True,
        # the base's own member is new with the commit; no base of it; not Unix's own
        "`Android` now overrides `site_bin_dir` of `DirsABC`.": False,
        "`Unix` now overrides `user_bin_dir` of `Android`.": False,
        "`Unix` now overrides `site_bin_dir` of `_UnixDefaults`.": False,
    }
    for sentence, holds in cases.items():
        (kind, verdict), *_ = verdicts_of(root, commit.sha, sentence)
        assert kind in (Kind.ABSTRACT_NEW, Kind.OVERRIDES), sentence
        assert (verdict is Verdict.TRUE) is holds, sentence


def test_a_new_class_abstract_members_break_no_subclass(tmp_path: Path) -> None:
    _, commit = second_commit(
        tmp_path,
        {"src/dirs/__init__.py": '"""Directories."""\n'},
        {"src/dirs/__init__.py": '"""Directories."""\n', **_tree(site=True)},
        "feat: the directories API",
    )
    assert "abstract" not in entry_text(analyze(commit))
