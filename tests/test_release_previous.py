"""Which release a release commit comes after, and what it ships since it.

jmespath.py tags its releases on `master` and merges each release branch into `develop`:
0b007c9 (2022-03-15) merges `release-1.0.0` into develop, bumping 0.10.0 → 1.0.0, and the
last tag develop reaches is the old 0.0.1. The entry said "the last release was 0.0.1" and
487 commits; the previous release is 0.10.0, the version the diff bumps from, whose tag is
no ancestor: 21 commits (`git rev-list --count 0.10.0..0b007c9`). Where the bumped-from
version has no tag and the last tag reached is older (lark ae207df: 1.2.0 never tagged,
1.1.9 before it), no previous release is named and no count given."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import Analysis, CommitInput
from tests.clones import _git, commit_files, verdicts_of

_PYPROJECT = '[project]\nname = "pkg"\nversion = "{v}"\n'


def _read(root: Path) -> tuple[CommitInput, Analysis]:
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    return commit, analyze(commit)


def _count(root: Path, since: str) -> int:
    """What a reader's `git rev-list --count SINCE..HEAD` prints."""
    return int(_git(root, "rev-list", "--count", f"{since}..HEAD"))


def _side_branch(tmp_path: Path, *, spelling: str = "{v}") -> Path:
    """develop: 0.1.0 (tagged), a feature, then its version bumped to 0.2.0 by merging a release branch
    whose 0.2.0 tag is cut on `master` (no ancestor of develop), two features, then the
    release of 0.3.0 bumping from 0.2.0."""
    root = tmp_path / "pkg"
    root.mkdir()
    _git(root, "init", "-q", "-b", "develop")
    commit_files(root, {"pyproject.toml": _PYPROJECT.format(v="0.1.0"), "a.py": "A = 1\n"}, "0.1.0")
    _git(root, "tag", spelling.format(v="0.1.0"))
    commit_files(root, {"x.py": "X = 1\n"}, "Add x")
    _git(root, "checkout", "-q", "-b", "master")
    commit_files(root, {"pyproject.toml": _PYPROJECT.format(v="0.2.0")}, "Release 0.2.0")
    _git(root, "tag", spelling.format(v="0.2.0"))
    _git(root, "checkout", "-q", "develop")
    commit_files(root, {"pyproject.toml": _PYPROJECT.format(v="0.2.0")}, "Merge release 0.2.0")
    commit_files(root, {"b.py": "B = 1\n"}, "Add b")
    commit_files(root, {"c.py": "C = 1\n"}, "Add c")
    commit_files(root, {"pyproject.toml": _PYPROJECT.format(v="0.3.0")}, "Release 0.3.0")
    return root


def test_the_bumped_from_tag_is_the_previous_release_ancestor_or_not(tmp_path: Path) -> None:
    root = _side_branch(tmp_path)
    # 0.2.0 is no ancestor: the last tag develop reaches is 0.1.0
    assert _git(root, "describe", "--tags", "--abbrev=0", "HEAD~1") == "0.1.0"
    commit, analysis = _read(root)
    count = _count(root, "0.2.0")
    assert count == 4 and _count(root, "0.1.0") == 5
    assert commit.carried is not None
    assert (commit.carried.since, commit.carried.count) == ("0.2.0", count)
    said = f"Releases 0.3.0 (the last release was 0.2.0). It ships {count} commits since `0.2.0`"
    assert said in analysis.summary
    assert "0.1.0" not in analysis.summary
    verdicts = verdicts_of(root, commit.sha, entry_text(analysis))
    assert (Kind.LAST_RELEASE, Verdict.TRUE) in verdicts
    assert (Kind.SHIPS_COUNT, Verdict.TRUE) in verdicts
    assert all(v is Verdict.TRUE for _, v in verdicts)


def test_the_checker_refutes_the_ancestor_tag_when_the_bump_names_another(tmp_path: Path) -> None:
    root = _side_branch(tmp_path)
    sha = _git(root, "rev-parse", "HEAD")
    wrong = f"Releases 0.3.0 (the last release was 0.1.0). It ships {_count(root, '0.1.0')} commits since `0.1.0`."
    assert sorted(verdicts_of(root, sha, wrong)) == sorted(
        [(Kind.LAST_RELEASE, Verdict.FALSE), (Kind.SHIPS_COUNT, Verdict.FALSE)]
    )
    right = "Releases 0.3.0 (the last release was 0.2.0). It ships 4 commits since `0.2.0`."
    assert all(v is Verdict.TRUE for _, v in verdicts_of(root, sha, right))
    # a wrong count of the right tag is refuted
    assert (Kind.SHIPS_COUNT, Verdict.FALSE) in verdicts_of(
        root, sha, "It ships 5 commits since `0.2.0`."
    )


def test_the_projects_own_tag_spelling_is_found(tmp_path: Path) -> None:
    root = _side_branch(tmp_path, spelling="pkg-{v}")
    commit, analysis = _read(root)
    assert commit.carried is not None and commit.carried.since == "pkg-0.2.0"
    assert "(the last release was pkg-0.2.0)" in analysis.summary
    verdicts = verdicts_of(root, commit.sha, entry_text(analysis))
    assert (Kind.LAST_RELEASE, Verdict.TRUE) in verdicts
    assert all(v is Verdict.TRUE for _, v in verdicts)


def _untagged_bump(tmp_path: Path) -> Path:
    """v1.1.9 tagged; the version then set to 1.2.0, never tagged; 1.2.1 released from it."""
    root = tmp_path / "lark"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pyproject.toml": _PYPROJECT.format(v="1.1.9"), "a.py": "A = 1\n"}, "1.1.9")
    _git(root, "tag", "v1.1.9")
    commit_files(root, {"pyproject.toml": _PYPROJECT.format(v="1.2.0")}, "Set version 1.2.0")
    commit_files(root, {"b.py": "B = 1\n"}, "Add b")
    commit_files(root, {"pyproject.toml": _PYPROJECT.format(v="1.2.1")}, "Release 1.2.1")
    return root


def test_an_untagged_old_version_names_no_previous_release_and_no_count(tmp_path: Path) -> None:
    root = _untagged_bump(tmp_path)
    commit, analysis = _read(root)
    assert commit.carried is None
    assert "Releases 1.2.1" in analysis.summary
    assert "last release was" not in analysis.summary
    assert "It ships" not in analysis.summary
    sha = commit.sha
    wrong = "Releases 1.2.1 (the last release was v1.1.9). It ships 3 commits since `v1.1.9`."
    assert _count(root, "v1.1.9") == 3
    assert sorted(verdicts_of(root, sha, wrong)) == sorted(
        [(Kind.LAST_RELEASE, Verdict.FALSE), (Kind.SHIPS_COUNT, Verdict.FALSE)]
    )


def test_online_names_no_release_only_the_old_version(tmp_path: Path) -> None:
    """Without a clone's tags (the App online: no `release`, no `carried`) the entry says the
    version file's old version, never a last release nor a count."""
    root = _side_branch(tmp_path)
    commit, _ = _read(root)
    online = analyze(commit.model_copy(update={"release": None, "carried": None}))
    assert "Releases 0.3.0 (the version was 0.2.0)" in online.summary
    assert "last release" not in online.summary and "It ships" not in online.summary


def test_a_version_file_that_lagged_behind_does_not_name_the_previous_release(
    tmp_path: Path,
) -> None:
    """backoff 4a4b565 ("Prepare v1.11.1 release") bumps `__version__` from 1.10.0, which an
    earlier release forgot to move, and pyproject from 1.11.0: the previous release is
    v1.11.0, the highest version bumped from, and the commit's parent reaches it."""
    root = tmp_path / "pkg"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    init = "__version__ = '{v}'\n"
    commit_files(
        root,
        {"pyproject.toml": _PYPROJECT.format(v="0.1.0"), "pkg/__init__.py": init.format(v="0.1.0")},
        "Release 0.1.0",
    )
    _git(root, "tag", "v0.1.0")
    commit_files(root, {"pyproject.toml": _PYPROJECT.format(v="0.2.0")}, "Release 0.2.0")
    _git(root, "tag", "v0.2.0")
    commit_files(root, {"pkg/a.py": "A = 1\n"}, "Add a")
    commit_files(
        root,
        {"pyproject.toml": _PYPROJECT.format(v="0.2.1"), "pkg/__init__.py": init.format(v="0.2.1")},
        "Release 0.2.1",
    )
    commit, analysis = _read(root)
    count = _count(root, "v0.2.0")
    assert count == 2
    assert commit.carried is not None
    assert (commit.carried.since, commit.carried.count) == ("v0.2.0", count)
    assert "v0.1.0" not in analysis.summary
    verdicts = verdicts_of(root, commit.sha, entry_text(analysis))
    assert (Kind.SHIPS_COUNT, Verdict.TRUE) in verdicts
    assert all(v is Verdict.TRUE for _, v in verdicts)
