"""What no release ever had breaks no user: a parameter added after the last version tag and
dropped before the next (typeguard 658a3d6 dropped `typechecked`'s `check_arguments`,
`check_return` and `check_yield`, added after 3.0.0b2) is said, never called breaking.
Read from a clone's tags only: without a version tag the verdict is the same as before."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.cli.clone_release import absent_from
from bot.cli.evaluation import git_history, with_sides
from bot.models import Analysis, CommitInput, Importance
from tests.clones import _git, commit_files, verdicts_of

# At the release: the decorator in the package's `__init__.py`, taking `always`.
RELEASED = {
    "src/pkg/__init__.py": (
        '__all__ = ["typechecked"]\n\n\n'
        "def typechecked(func=None, *, always=False):\n"
        '    """Check the types of `func`."""\n'
        "    return func\n"
    ),
}
# After it: moved into a private module its `__init__.py` hands out, with three new options.
MOVED = {
    "src/pkg/__init__.py": 'from ._decorators import typechecked\n\n__all__ = ["typechecked"]\n',
    "src/pkg/_decorators.py": (
        "def typechecked(\n"
        "    func=None,\n"
        "    *,\n"
        "    check_arguments: bool = True,\n"
        "    check_return: bool = True,\n"
        "    check_yield: bool = True,\n"
        "):\n"
        '    """Check the types of `func`."""\n'
        "    return func\n"
    ),
}
# The commit: the options dropped again, never having been implemented.
DROPPED = {
    "src/pkg/_decorators.py": (
        'def typechecked(func=None):\n    """Check the types of `func`."""\n    return func\n'
    ),
}
TITLE = "Reduced the number of mypy errors\n\nAlso removed unimplemented parameters."


def _clone(tmp_path: Path, tag_at: str | None, *, side_tag: bool = False) -> Path:
    """The three commits; `tag_at` names the one tagged `v1.0.0` (annotated), if any;
    `side_tag`: `v1.1.0` tagged on a release branch forked from the moved layout, never
    merged back."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    for name, files in (("released", RELEASED), ("moved", MOVED)):
        commit_files(root, files, f"The {name} layout")
        if tag_at == name:
            _git(root, "tag", "-a", "v1.0.0", "-m", "Version 1.0.0")
    if side_tag:
        _git(root, "checkout", "-q", "-b", "release-1.1")
        commit_files(root, {"NOTES.md": "1.1.0\n"}, "Release 1.1.0")
        _git(root, "tag", "v1.1.0")
        _git(root, "checkout", "-q", "main")
    commit_files(root, DROPPED, TITLE)
    return root


def _read(root: Path) -> tuple[CommitInput, Analysis]:
    """The last commit as `eval --git` reads it from the clone, and the rules' analysis."""
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    return commit, analyze(commit)


def test_parameters_added_after_the_last_release_and_dropped_break_nobody(tmp_path: Path) -> None:
    root = _clone(tmp_path, "released")
    commit, analysis = _read(root)
    assert commit.release is not None and commit.release.tag == "v1.0.0"
    assert {"check_arguments", "check_return", "check_yield"} <= commit.release.absent
    # the loss is said, with what makes it none of the users'
    assert "`typechecked` no longer takes" in analysis.summary
    assert "(added after v1.0.0, never released)" in analysis.summary
    assert not analysis.breaking and analysis.risks == []
    assert analysis.importance is not Importance.HIGH
    assert not any("check_arguments" in r.text for r in analysis.recommendations)
    # the claims checker reads the clause, and the tags, its own way
    verdicts = verdicts_of(root, commit.sha, entry_text(analysis))
    assert verdicts.count((Kind.NEVER_RELEASED, Verdict.TRUE)) == 3
    assert all(v is Verdict.TRUE for _, v in verdicts)


def test_parameters_the_last_release_had_still_break_their_callers(tmp_path: Path) -> None:
    root = _clone(tmp_path, "moved")
    commit, analysis = _read(root)
    assert commit.release is not None and commit.release.tag == "v1.0.0"
    assert commit.release.absent.isdisjoint({"check_arguments", "check_return", "check_yield"})
    assert analysis.breaking
    assert any("check_arguments" in r.description for r in analysis.risks)
    assert "never released" not in analysis.summary
    # were it said, the checker would call it false: `v1.0.0` holds the names
    claimed = (
        "`typechecked` no longer takes the parameter `check_yield`"
        " (added after v1.0.0, never released)."
    )
    assert verdicts_of(root, commit.sha, claimed) == [
        (Kind.NEVER_RELEASED, Verdict.FALSE),
        (Kind.PARAM_GONE, Verdict.TRUE),
    ]


def test_a_release_branch_tag_the_parent_does_not_reach_still_counts(tmp_path: Path) -> None:
    # v1.0.0 before the options, v1.1.0 shipped them from a branch main never merged
    commit, analysis = _read(_clone(tmp_path, "released", side_tag=True))
    assert commit.release is not None and commit.release.tag == "v1.0.0"
    assert commit.release.absent.isdisjoint({"check_arguments", "check_return", "check_yield"})
    assert analysis.breaking and "never released" not in analysis.summary


def test_without_a_version_tag_the_verdict_is_unchanged(tmp_path: Path) -> None:
    root = _clone(tmp_path, None)
    _git(root, "tag", "docs-preview", "HEAD~2")  # a tag, but no version
    commit, analysis = _read(root)
    assert commit.release is None
    assert analysis.breaking
    assert any("check_arguments" in r.description for r in analysis.risks)
    assert "never released" not in analysis.summary


def test_a_longer_word_held_does_not_hide_a_shorter_one_absent(tmp_path: Path) -> None:
    root = _clone(tmp_path, "moved")
    # `check_return` is in v1.0.0's tree, `check` alone is not (`\b` lets the longer match)
    assert absent_from(root, ["v1.0.0"], ["check", "check_return", "func"]) == {"check"}


CLIENT = '''class _Connection:
    def close(self) -> None:
        pass
@PING@

def connect() -> "_Connection":
    """A connection to the server."""
    return _Connection()
'''
PING = """
    def ping(self) -> bool:
        return True
"""


def test_a_member_no_release_had_is_said_without_a_break(tmp_path: Path) -> None:
    # async-lru caeb9a0 took `cache_open()` from what `alru_cache` hands out, added after
    # v1.0.3 (b8df413) and never released
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    # (the package hands `connect` out, as async-lru's `__init__.py` defines `alru_cache`)
    client = {
        "src/db/__init__.py": "from .client import connect\n",
        "src/db/client.py": CLIENT.replace("@PING@", ""),
    }
    commit_files(root, client, "Release")
    _git(root, "tag", "2.0.0")
    commit_files(root, {"src/db/client.py": CLIENT.replace("@PING@", PING)}, "Add ping")
    commit_files(root, client, "Drop ping again")
    _, analysis = _read(root)
    assert "What `connect` returns no longer has `ping()`" in analysis.summary
    assert "(added after 2.0.0, never released)" in analysis.summary
    assert not analysis.breaking and analysis.risks == []


def _member_clone(tmp_path: Path, *, released_with_ping: bool) -> Path:
    """A public class's method `ping`, in the release or added after it, then removed."""
    base = "class Client:\n    def get(self):\n        return 1\n"
    ping = "\n    def ping(self):\n        return True\n"
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"src/pkg/client.py": base + (ping if released_with_ping else "")}, "One")
    _git(root, "tag", "v1.0.0")
    commit_files(
        root, {"src/pkg/client.py": base + ping + "\n    def close(self):\n        pass\n"}, "Two"
    )
    commit_files(
        root, {"src/pkg/client.py": base + "\n    def close(self):\n        pass\n"}, "Drop ping"
    )
    return root


def test_a_method_no_release_had_is_removed_without_a_break(tmp_path: Path) -> None:
    # a public class's own method removed breaks its callers (tenacity c18dcfb), unless no
    # release ever had it
    commit, analysis = _read(_member_clone(tmp_path, released_with_ping=False))
    assert commit.release is not None and "ping" in commit.release.absent
    assert not analysis.breaking
    assert "Calls to `Client.ping()` fail" not in entry_text(analysis)
    commit, analysis = _read(_member_clone(tmp_path / "kept", released_with_ping=True))
    assert analysis.breaking
    assert "Calls to `Client.ping()` fail" in entry_text(analysis)
