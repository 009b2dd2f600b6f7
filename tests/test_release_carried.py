"""A release commit says what it ships since its previous release: how many commits, and
those breaking or high by their own analysis (lark's 1.2.1, after 1.1.9, ships bb9b01e "Update config", which raises `requires-python` to `>=3.8`). It is
breaking, and high, only by its author's words (its changelog section's, its message's) or a
commit it ships that is breaking; never by its own diff. A changelog entry's words that say a
change breaks code are its author's (wrapt 7deecea)."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.messages import entry_break_words
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import Analysis, CommitInput, FileChange, Importance
from tests.clones import _git, commit_files, verdicts_of


def _pyproject(python: str, about: str = "A parser") -> str:
    return f'[project]\nname = "lark"\ndescription = "{about}"\nrequires-python = "{python}"\n'


def _init(version: str) -> str:
    return f'__version__ = "{version}"\n\n\ndef parse(text):\n    return text.split()\n'


def _read(root: Path) -> tuple[CommitInput, Analysis]:
    """The last commit as `eval --git` reads it from the clone, and the rules' analysis."""
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    return commit, analyze(commit)


def _lark(tmp_path: Path, *, floor: str) -> tuple[Path, str]:
    """lark's 1.1.9 → 1.2.1 in small: the release 1.1.9 tagged, a test, the config update
    (`requires-python` set to `floor`), a docs change, then "Version bump (1.2.1)"
    (`__version__` 1.1.9 → 1.2.1: the bumped-from version is the tag's; ae207df's own bump
    from an untagged 1.2.0 names no last release, `test_release_commits`). The config update's sha; its message's second line follows
    its first without a blank line (python-tabulate 7d67fee's): its title is the first."""
    root = tmp_path / "lark"
    root.mkdir()
    _git(root, "init", "-q", "-b", "master")
    commit_files(
        root, {"pyproject.toml": _pyproject(">=3.6"), "lark/__init__.py": _init("1.1.9")}, "1.1.9"
    )
    _git(root, "tag", "1.1.9")
    commit_files(root, {"tests/test_parse.py": "def test_parse():\n    pass\n"}, "Add a test")
    config = commit_files(
        root, {"pyproject.toml": _pyproject(floor, "A toolkit")}, "Update config\nand tox"
    )
    commit_files(root, {"docs/index.md": "# lark\n"}, "Update docs")
    commit_files(root, {"lark/__init__.py": _init("1.2.1")}, "Version bump (1.2.1)")
    return root, config


def test_a_release_names_the_breaking_commit_it_ships_since_the_last_tag(tmp_path: Path) -> None:
    """lark ae207df: 1.2.1 ships bb9b01e, whose `requires-python` drops 3.6 and 3.7."""
    root, config = _lark(tmp_path, floor=">=3.8")
    commit, analysis = _read(root)
    assert commit.carried is not None
    # what `git log --oneline 1.1.9..HEAD` lists: the three before it and the release itself
    assert (commit.carried.since, commit.carried.count) == ("1.1.9", 4)
    assert [c.sha for c in commit.carried.notable] == [config]
    assert analysis.summary == (
        "Releases 1.2.1 (the last release was 1.1.9). It ships 4 commits since `1.1.9`, 1 of"
        f" them breaking or high: `{config[:7]}` “Update config” (breaking)."
    )
    assert analysis.breaking and analysis.importance is Importance.HIGH
    # every claim of the entry holds against the clone, checked from git's histories
    verdicts = verdicts_of(root, commit.sha, entry_text(analysis))
    assert (Kind.SHIPS_COUNT, Verdict.TRUE) in verdicts
    assert verdicts.count((Kind.SHIPS_COMMIT, Verdict.TRUE)) == 2  # the summary and the risk
    assert all(v is not Verdict.FALSE for _, v in verdicts)


def test_a_release_without_a_break_is_medium_and_counts_what_it_ships(tmp_path: Path) -> None:
    """The same history with the floor kept (the description changed): nothing it ships is
    breaking or high."""
    root, _ = _lark(tmp_path, floor=">=3.6")
    commit, analysis = _read(root)
    assert analysis.summary == (
        "Releases 1.2.1 (the last release was 1.1.9). It ships 4 commits since `1.1.9`."
    )
    assert not analysis.breaking and analysis.importance is Importance.MEDIUM
    assert verdicts_of(root, commit.sha, "It ships 4 commits since `1.1.9`.") == [
        (Kind.SHIPS_COUNT, Verdict.TRUE)
    ]


def test_the_checker_refutes_a_wrong_count_commit_or_title(tmp_path: Path) -> None:
    root, config = _lark(tmp_path, floor=">=3.8")
    release = _git(root, "rev-parse", "HEAD")
    first = _git(root, "rev-parse", "1.1.9")
    wrong = [
        "It ships 5 commits since 1.1.9.",
        # the old count, the release left out: `git log 1.1.9..HEAD` lists it
        "It ships 3 commits since `1.1.9`.",
        # the tagged commit itself is not shipped since the tag
        f"It ships 4 commits since 1.1.9, 1 of them breaking or high: `{first[:7]}` “1.1.9”.",
        f"It ships 4 commits since 1.1.9, 1 of them breaking or high: `{config[:7]}` “Fix”.",
        "It ships 4 commits since 9.9.9.",
    ]
    for text in wrong:
        verdicts = verdicts_of(root, release, text)
        assert Verdict.FALSE in [v for _, v in verdicts], text


def test_a_release_is_not_breaking_by_its_own_diff(tmp_path: Path) -> None:
    """A release commit that also drops a public function, without a word of a break: the
    release is medium (a tag after it, as python-tabulate's v0.10.0 on 3b4cd50)."""
    root = tmp_path / "pkg"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/__init__.py": _init("1.0.0")}, "1.0.0")
    _git(root, "tag", "v1.0.0")
    commit_files(root, {"README.md": "# pkg\n"}, "Write the readme")
    commit_files(root, {"pkg/__init__.py": '__version__ = "1.1.0"\n'}, "Release 1.1.0")
    _git(root, "tag", "v1.1.0")
    _, analysis = _read(root)
    assert not analysis.breaking and analysis.importance is Importance.MEDIUM
    assert "It ships 2 commits since `v1.0.0`." in entry_text(analysis)


def test_a_release_changelog_that_drops_pythons_is_breaking_in_its_words(tmp_path: Path) -> None:
    """python-tabulate bf58e37 (v0.9.0): "- 0.8.11: Future version. Drop support for Python
    2.7, 3.5, 3.6. …" becomes "- 0.9.0: Drop support for Python 2.7, 3.5, 3.6." — the
    release's words, though an earlier commit wrote them."""
    root = tmp_path / "tabulate"
    root.mkdir()
    _git(root, "init", "-q", "-b", "master")
    old = "- 0.8.10: Python 3.10 support. Bug fixes. Column width parameter.\n"
    commit_files(
        root, {"CHANGELOG": old, "tabulate.py": "def tabulate(rows):\n    return ''\n"}, "0.8.10"
    )
    _git(root, "tag", "v0.8.10")
    future = "- 0.8.11: Future version. Drop support for Python 2.7, 3.5, 3.6. New formats.\n"
    commit_files(root, {"CHANGELOG": future + old}, "Update CHANGELOG")
    released = (
        "- 0.9.1: Future version.\n- 0.9.0: Drop support for Python 2.7, 3.5, 3.6.\n"
        "  New output formats.\n"
    )
    commit_files(root, {"CHANGELOG": released + old}, "version bump to 0.9.0, update CHANGELOG")
    _git(root, "tag", "v0.9.0")
    _, analysis = _read(root)
    assert analysis.breaking and analysis.importance is Importance.HIGH
    assert any("Drop support for Python 2.7, 3.5, 3.6" in r.description for r in analysis.risks)


# wrapt 7deecea's `docs/changes.rst` hunk (its item under "Features Changed" cut short)
WRAPT_PATCH = "\n".join(
    [
        "--- a/docs/changes.rst",
        "+++ b/docs/changes.rst",
        "@@ -4,10 +4,18 @@ Release Notes",
        " Version 2.0.0",
        " --------------",
        " ",
        "+A major version bump is being done due to subtle changes in the behaviour of",
        "+the `ObjectProxy` class which may break code which relied on the previous",
        "+behaviour. Not being sure if this will be the case or not, so a major version",
        "+bump seen as being the safest option.",
        "+",
        " **New Features**",
        " ",
        " * Added `__all__` attribute to `wrapt` module to expose the public API.",
        " ",
        "+**Features Changed**",
        "+",
        "+* The `ObjectProxy` class now raises a `WrapperNotInitializedError` exception",
        "+  rather than Python builtin `ValueError` exception.",
        "+",
        " Version 1.17.2",
        " --------------",
        " ",
        "",
    ]
)


WRAPT_CODE = "\n".join(
    [
        "--- a/src/wrapt/wrappers.py",
        "+++ b/src/wrapt/wrappers.py",
        "@@ -10,2 +10,5 @@",
        " ",
        "+class WrapperNotInitializedError(ValueError, AttributeError):",
        '+    """Exception raised when a wrapper is accessed before it has been initialized."""',
        "+",
        " ",
        "",
    ]
)


def test_a_changelog_sentence_that_says_code_may_break_is_the_authors_word() -> None:
    """wrapt 7deecea: its 2.0.0 notes say the change "may break code which relied on the
    previous behaviour"."""
    files = [
        FileChange(filename="docs/changes.rst", patch=WRAPT_PATCH),
        FileChange(filename="src/wrapt/wrappers.py", patch=WRAPT_CODE, additions=3),
    ]
    assert entry_break_words(files) == (
        "docs/changes.rst",
        "A major version bump is being done due to subtle changes in the behaviour of the"
        " `ObjectProxy` class which may break code which relied on the previous behaviour.",
    )
    commit = CommitInput(
        sha="7deeceaf70f999d65f052740109905cc09c2fc36",
        message="Raise custom exception for access to unitialized wrapper.",
        files=files,
    )
    analysis = analyze(commit)
    assert analysis.breaking
    assert any("may break code which relied" in r.description for r in analysis.risks)


def test_an_item_under_a_breaking_heading_is_the_authors_word_and_a_moved_one_is_not() -> None:
    added = (
        "--- a/CHANGES.md\n+++ b/CHANGES.md\n@@ -1,3 +1,6 @@\n ## Unreleased\n \n"
        "+### Breaking changes\n+\n+- `connect()` takes no `timeout` any more.\n+\n"
        " - Fix a typo.\n"
    )
    files = [FileChange(filename="CHANGES.md", patch=added)]
    assert entry_break_words(files) == ("CHANGES.md", "`connect()` takes no `timeout` any more.")
    # the sentence of a release written before (python-tabulate bf58e37), moved: no new word
    moved = (
        "--- a/CHANGELOG\n+++ b/CHANGELOG\n@@ -1,2 +1,2 @@\n"
        "-- 0.8.11: Future version. Drop support for Python 2.7, 3.5, 3.6.\n"
        "+- 0.9.0: Drop support for Python 2.7, 3.5, 3.6.\n"
        " - 0.8.10: Python 3.10 support.\n"
    )
    files = [FileChange(filename="CHANGELOG", patch=moved)]
    assert entry_break_words(files) is None
    assert entry_break_words(files, new_only=False) == (
        "CHANGELOG",
        "Drop support for Python 2.7, 3.5, 3.6.",
    )
