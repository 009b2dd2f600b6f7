"""What a release ships, counted as a reader counts it, and a tagged commit's own change.

tenacity tags the merge of a fix (8.3.0 on cb15300 "Lazy import asyncio.sleep as it's
expensive", 26 commits after 8.2.3, three of them merges): "It ships N commits since `T`"
says what `git log --oneline T..RELEASE` lists, the release's merges and the release itself
counted (the old count, merges and the release aside, said 22), and the release's own change
is said after the release, not hidden by it. soupsieve 05e92be "Update changelog and bump
version" (`__version_info__ = Version(2, 9, 1, "final")`) changes nothing of its own."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import Analysis, CommitInput, Importance
from tests.clones import _git, commit_files, verdicts_of

_PYPROJECT = '[project]\nname = "pkg"\nversion = "{v}"\nrequires-python = "{python}"\n'
_CODE = "def parse(text):\n    return text.split()\n"


def _read(root: Path) -> tuple[CommitInput, Analysis]:
    """The last commit as `eval --git` reads it from the clone, and the rules' analysis."""
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    return commit, analyze(commit)


def _listed(root: Path, since: str, *options: str) -> int:
    """How many lines a reader's `git log --oneline SINCE..HEAD` prints."""
    return len(_git(root, "log", "--oneline", *options, f"{since}..HEAD").splitlines())


def _merged(tmp_path: Path) -> tuple[Path, str]:
    """v1.0.0 tagged; a branch of two commits (the second raises `requires-python` to 3.9)
    merged with a merge commit; a commit on main; then the release commit (version 1.1.0,
    tagged). The branch's breaking commit's sha."""
    root = tmp_path / "pkg"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(
        root,
        {"pyproject.toml": _PYPROJECT.format(v="1.0.0", python=">=3.8"), "pkg/core.py": _CODE},
        "Release 1.0.0",
    )
    _git(root, "tag", "v1.0.0")
    _git(root, "checkout", "-q", "-b", "floor")
    commit_files(root, {"tests/test_core.py": "def test_parse():\n    pass\n"}, "Add a test")
    floor = commit_files(
        root, {"pyproject.toml": _PYPROJECT.format(v="1.0.0", python=">=3.9")}, "Drop Python 3.8"
    )
    _git(root, "checkout", "-q", "main")
    commit_files(root, {"README.md": "# pkg\n"}, "Write the readme")
    _git(root, "merge", "-q", "--no-ff", "-m", "Merge branch 'floor'", "floor")
    commit_files(
        root, {"pyproject.toml": _PYPROJECT.format(v="1.1.0", python=">=3.9")}, "Release 1.1.0"
    )
    _git(root, "tag", "v1.1.0")
    return root, floor


def test_the_count_is_what_git_log_lists_merges_and_the_release_counted(tmp_path: Path) -> None:
    root, floor = _merged(tmp_path)
    commit, analysis = _read(root)
    # the reader's command: the two branch commits, the readme, the merge, the release
    assert _listed(root, "v1.0.0") == 5
    assert commit.carried is not None and commit.carried.count == 5
    said = (
        "It ships 5 commits since `v1.0.0`, 1 of them breaking or high: "
        f"`{floor[:7]}` “Drop Python 3.8” (breaking)."
    )
    assert said in analysis.summary
    # the merge is counted, never named: its branch's commits are read one by one
    assert [c.sha for c in commit.carried.notable] == [floor]
    verdicts = verdicts_of(root, commit.sha, entry_text(analysis))
    assert (Kind.SHIPS_COUNT, Verdict.TRUE) in verdicts
    assert all(v is Verdict.TRUE for _, v in verdicts)


def test_the_checker_reads_the_count_from_git_not_from_the_digest(tmp_path: Path) -> None:
    """The old count (merges and the release aside: 3), `--no-merges`' (4) and one too many
    are each refuted; the count with or without the tag's quotes holds."""
    root, floor = _merged(tmp_path)
    release = _git(root, "rev-parse", "HEAD")
    assert _listed(root, "v1.0.0", "--no-merges") == 4
    for wrong in (3, 4, 6):
        for tag in ("v1.0.0", "`v1.0.0`"):
            assert verdicts_of(root, release, f"It ships {wrong} commits since {tag}.") == [
                (Kind.SHIPS_COUNT, Verdict.FALSE)
            ], (wrong, tag)
    for tag in ("v1.0.0", "`v1.0.0`"):
        assert verdicts_of(root, release, f"It ships 5 commits since {tag}.") == [
            (Kind.SHIPS_COUNT, Verdict.TRUE)
        ]
    # the merge and the release are among what it ships; the tag's own commit is not
    merge = _git(root, "rev-parse", "HEAD~1")
    tagged = _git(root, "rev-parse", "v1.0.0")
    shipped = (
        f"It ships 5 commits since `v1.0.0`, 2 of them breaking or high: `{merge[:7]}`"
        f" “Merge branch 'floor'”, `{floor[:7]}` “Drop Python 3.8”."
    )
    assert all(v is Verdict.TRUE for _, v in verdicts_of(root, release, shipped))
    named = f"It ships 5 commits since `v1.0.0`, 1 of them breaking or high: `{tagged[:7]}` “x”."
    assert (Kind.SHIPS_COMMIT, Verdict.FALSE) in verdicts_of(root, release, named)
    breaking = f"It ships the breaking commit `{floor[:7]}` “Drop Python 3.8” (since `v1.0.0`)."
    assert verdicts_of(root, release, breaking) == [(Kind.SHIPS_COMMIT, Verdict.TRUE)]


_LOADER = (
    "def parse(text):\n    return text.split()\n\n\n"
    "def load(path):\n    import json\n\n    with open(path) as f:\n        return json.load(f)\n"
)
_EAGER = _LOADER.replace("    import json\n\n", "").replace(
    "def parse", "import json\n\n\ndef parse"
)


def _tagged_fix(tmp_path: Path, *, between: bool) -> Path:
    """v1.0.0 tagged (`load` imports `json` at the top); optionally a readme commit; then a
    commit that moves the import into `load`, its description saying why, tagged v1.0.1
    (no version file: the tag alone makes it the release, as tenacity's)."""
    root = tmp_path / ("between" if between else "alone")
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/core.py": _EAGER}, "First release")
    _git(root, "tag", "v1.0.0")
    if between:
        commit_files(root, {"README.md": "# pkg\n"}, "Write the readme")
    commit_files(
        root,
        {"pkg/core.py": _LOADER},
        "Import json lazily (#7)\n\nImporting json at start-up costs users who never call"
        " `load` 5 ms.",
    )
    _git(root, "tag", "v1.0.1")
    return root


def test_a_tagged_commit_says_its_own_change_after_the_release(tmp_path: Path) -> None:
    """tenacity cb15300: the release first, then what the commit itself does (its author's
    words, as its entry would say them untagged)."""
    root = _tagged_fix(tmp_path, between=True)
    commit, analysis = _read(root)
    assert commit.tagged == "1.0.1"
    own = "Importing json at start-up costs users who never call `load` 5 ms."
    assert analysis.summary == (
        "Releases 1.0.1 (the last release was v1.0.0). It ships 2 commits since `v1.0.0`. " + own
    )
    assert analysis.importance is Importance.MEDIUM and not analysis.breaking
    # untagged, the same words are its summary: the release hid nothing of it
    untagged = analyze(commit.model_copy(update={"tagged": "", "carried": None}))
    assert untagged.summary == own
    assert all(v is Verdict.TRUE for _, v in verdicts_of(root, commit.sha, entry_text(analysis)))


def test_a_release_that_ships_itself_alone_counts_nothing_and_says_its_change(
    tmp_path: Path,
) -> None:
    """tenacity ee6a8f7 (8.4.1, the only commit since 8.4.0): "It ships 1 commit" would name
    the entry's own commit; its change is said instead."""
    root = _tagged_fix(tmp_path, between=False)
    commit, analysis = _read(root)
    assert commit.carried is not None and commit.carried.count == 1 == _listed(root, "v1.0.0")
    assert "It ships" not in entry_text(analysis)
    assert analysis.summary == (
        "Releases 1.0.1 (the last release was v1.0.0). Importing json at start-up costs users"
        " who never call `load` 5 ms."
    )


def test_a_version_bump_and_its_changelog_carry_no_change_of_their_own(tmp_path: Path) -> None:
    """soupsieve 05e92be: the changelog and `__version_info__ = Version(2, 9, 1, "final")`
    changed, "Bugfix added to wrong changelog entry" its description: no change of its own,
    the release alone is said."""
    root = tmp_path / "soupsieve"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    meta = '__version_info__ = Version(2, 9, {micro}, "final")\n__version__ = "x"\n'
    log = "# Changelog\n\n## 2.9\n\n- **FIX**: A fix.\n"
    commit_files(root, {"soupsieve/__meta__.py": meta.format(micro=0), "changelog.md": log}, "2.9")
    _git(root, "tag", "2.9")
    commit_files(root, {"soupsieve/css_parser.py": _CODE}, "Fix the parser")
    released = "# Changelog\n\n## 2.9.1\n\n- **FIX**: The parser.\n\n## 2.9\n\n- **FIX**: A fix.\n"
    commit_files(
        root,
        {"soupsieve/__meta__.py": meta.format(micro=1), "changelog.md": released},
        "Update changelog and bump version\n\nBugfix added to wrong changelog entry",
    )
    _git(root, "tag", "2.9.1")
    commit, analysis = _read(root)
    assert analysis.summary == (
        "Releases 2.9.1. It ships 2 commits since `2.9`. `changelog.md` lists 1 new item:"
        " “FIX: The parser.”"
    )
    assert "Bugfix added" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for _, v in verdicts_of(root, commit.sha, entry_text(analysis)))
