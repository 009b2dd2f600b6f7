"""A fix whose every edited line came after every release mended nothing a release's user ran
(tinydb 3e66d33, e64468d and 6f8663d on 2020-02-19 fixed code 52c04e1 and 7c1525f added that
week, after v3.15.1): it says so, from the clone's tags and `git blame`, and is at most medium.
A fix of a line a release held, even on a release branch, says nothing of it."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import Analysis, Importance
from tests.clones import _git, commit_files, verdicts_of

RELEASED = "class Table:\n    def __len__(self):\n        return len(self._read())\n"
# after the release: the table counts its documents by a new helper, wrongly for none
REWORKED = RELEASED.replace(
    "        return len(self._read())\n",
    "        tables = self._storage.read()\n        return len(tables[self.name])\n",
)
FIXED = REWORKED.replace(
    "        return len(tables[self.name])\n",
    "        try:\n            return len(tables[self.name])\n        except KeyError:\n"
    "            return 0\n",
)
FIX = "fix(table): make `len(db)` work with empty databases"


def _fix(tmp_path: Path, *, release_after_rework: bool = False, side_tag: bool = False) -> Analysis:
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/table.py": RELEASED}, "Table")
    _git(root, "tag", "-a", "v1.0.0", "-m", "Version 1.0.0")
    commit_files(root, {"pkg/table.py": REWORKED}, "refactor(table): read the tables once")
    if release_after_rework:
        _git(root, "tag", "v1.1.0")
    if side_tag:
        # a backport release cut from the reworked code on a branch never merged back
        _git(root, "checkout", "-q", "-b", "release-1.1")
        commit_files(root, {"NOTES.md": "1.1.0\n"}, "Release 1.1.0")
        _git(root, "tag", "v1.1.0")
        _git(root, "checkout", "-q", "main")
    commit_files(root, {"pkg/table.py": FIXED}, FIX)
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    analysis = analyze(commit)
    # the claims checker reads the sentence, and the trees, its own way (`git diff`)
    verdicts = verdicts_of(root, commit.sha, entry_text(analysis))
    assert all(v is Verdict.TRUE for _, v in verdicts), verdicts
    return analysis


def _head(root: Path) -> str:
    return _git(root, "rev-parse", "HEAD")


def _said(analysis: Analysis) -> str:
    return (analysis.insights.compatibility if analysis.insights else None) or ""


def test_a_fix_of_code_added_after_the_last_release_says_no_release_had_it(
    tmp_path: Path,
) -> None:
    analysis = _fix(tmp_path)
    assert "bugfix" in [t.value for t in analysis.change_types]
    assert (
        "Fixes code added after `v1.0.0` (never released): users of releases were not affected."
        in _said(analysis)
    )
    assert analysis.importance is not Importance.HIGH
    said = verdicts_of(tmp_path / "repo", _head(tmp_path / "repo"), entry_text(analysis))
    assert (Kind.FIXES_UNRELEASED, Verdict.TRUE) in said


def test_a_fix_of_released_code_says_nothing_of_releases(tmp_path: Path) -> None:
    assert "never released" not in _said(_fix(tmp_path / "a", release_after_rework=True))
    # a release branch's tag holds the reworked line: a backport's users ran it
    assert "never released" not in _said(_fix(tmp_path / "b", side_tag=True))


def test_the_checker_finds_a_fix_of_released_code_false(tmp_path: Path) -> None:
    _fix(tmp_path, release_after_rework=True)
    root = tmp_path / "repo"
    said = "Fixes code added after `v1.0.0` (never released): users of releases were not affected."
    assert verdicts_of(root, _head(root), said) == [(Kind.FIXES_UNRELEASED, Verdict.FALSE)]


def test_a_fix_of_developers_tools_settings_says_nothing_of_releases(tmp_path: Path) -> None:
    """platformdirs 5d16771 "this fixes the coverage reporting": a line of `tox.ini` added
    after the last release, fixed; tox runs on no user's machine, so no release's user was
    spared anything (the entry had said "Fixes code added after `2.6.0` (never released)")."""
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/table.py": RELEASED, "tox.ini": "[tox]\nenvlist = py\n"}, "Table")
    _git(root, "tag", "-a", "v1.0.0", "-m", "Version 1.0.0")
    commit_files(root, {"tox.ini": "[tox]\nenvlist = py\n[testenv]\ndeps = coverage\n"}, "ci")
    commit_files(
        root,
        {"tox.ini": "[tox]\nenvlist = py\n[testenv]\ndeps = coverage[toml]\n"},
        "fix: coverage",
    )
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    assert "never released" not in _said(analyze(commit))


def test_a_follow_up_of_an_unreleased_security_fix_is_at_most_medium(tmp_path: Path) -> None:
    # sqlparse 519e416: the same day's ReDoS fix (d1d8060, after 0.5.5) mistokenized a
    # delimiter inside a string; the follow-up names the advisory, and no release had the bug
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/table.py": RELEASED}, "Table")
    _git(root, "tag", "-a", "v1.0.0", "-m", "Version 1.0.0")
    commit_files(root, {"pkg/table.py": REWORKED}, "Fix quadratic reads (GHSA-prg7-hcfm-mfcr)")
    commit_files(
        root,
        {"pkg/table.py": FIXED},
        "Count an empty table at the reader's position\n\nThe ReDoS fix for "
        "GHSA-prg7-hcfm-mfcr read every table up front; an empty one raised KeyError.",
    )
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    analysis = analyze(commit)
    assert analysis.importance is Importance.MEDIUM
    assert [t.value for t in analysis.change_types][:2] == ["security", "bugfix"]
    assert "(never released)" in _said(analysis)
