"""A fix whose every edited line came after every release mended nothing a release's user ran
(tinydb 3e66d33, e64468d and 6f8663d on 2020-02-19 fixed code 52c04e1 and 7c1525f added that
week, after v3.15.1): it says so, from the clone's tags and `git blame`, and is low (the
unreleased change's upkeep: python-tabulate 3f0757e "fix FutureWarning about SEPARATING_LINE"
mended code dab256d added that day), medium where a severe word made it high.
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
    assert analysis.importance is Importance.LOW
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


# mistune b77ee58 "fix: prevent deep alt parsing": the branch it mends was in v3.3.3's
# `inline_parser.py`; 0396492 moved it into `_inline/links.py` the same day, so `git blame`
# of the edited lines starts at the move. The entry had said "never released".
PARSER = (
    "def parse_link(state, marker, pos, depth):\n"
    "    if depth > state.max_image_depth:\n"
    '        state.append_token({"type": "text", "raw": marker})\n'
    "        return pos\n"
    "    return None\n"
)
MOVED_FIX = PARSER.replace(
    '        state.append_token({"type": "text", "raw": marker})\n        return pos\n',
    '        state.append_token({"type": "text", "raw": marker + "]"})\n        return pos + 1\n',
)
SHIM = "from pkg._inline.links import parse_link\n"


def _moved_then_fixed(tmp_path: Path, moved: dict[str, str | None], fixed: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/inline_parser.py": PARSER}, "Parser")
    _git(root, "tag", "-a", "v1.0.0", "-m", "Version 1.0.0")
    commit_files(root, moved, "refactor: split the inline parser into modules")
    commit_files(root, fixed, "fix: prevent deep alt parsing")
    return root


def test_a_fix_of_code_moved_to_another_file_after_the_release_is_of_released_code(
    tmp_path: Path,
) -> None:
    root = _moved_then_fixed(
        tmp_path,
        {"pkg/inline_parser.py": SHIM, "pkg/_inline/links.py": PARSER},
        {"pkg/_inline/links.py": MOVED_FIX},
    )
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    assert commit.release is not None and not commit.release.edits_unreleased
    assert "never released" not in _said(analyze(commit))
    # and the checker, reading the trees by path, no longer takes the sentence for true
    said = "Fixes code added after `v1.0.0` (never released): users of releases were not affected."
    assert verdicts_of(root, _head(root), said) == [(Kind.FIXES_UNRELEASED, Verdict.FALSE)]


def test_a_fix_of_code_rewrapped_after_the_release_is_of_released_code(tmp_path: Path) -> None:
    """A call re-wrapped over three lines after the release: no line is as the release had
    it, yet its text (spaces aside) is the release's."""
    wrapped = PARSER.replace(
        '        state.append_token({"type": "text", "raw": marker})\n',
        '        state.append_token(\n            {"type": "text", "raw": marker}\n        )\n',
    )
    fixed = wrapped.replace('"raw": marker}', '"raw": marker + "]"}')
    root = _moved_then_fixed(
        tmp_path, {"pkg/inline_parser.py": wrapped}, {"pkg/inline_parser.py": fixed}
    )
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    assert commit.release is not None and not commit.release.edits_unreleased
    assert "never released" not in _said(analyze(commit))


def test_a_fix_whose_removed_lines_tell_nothing_says_nothing_of_releases(tmp_path: Path) -> None:
    """Only `return pos` changed, in a function added after the release: a line any release
    may hold tells nothing of where the code came from, so no claim is made."""
    added = PARSER + "\n\ndef skip(pos):\n    return pos\n"
    root = _moved_then_fixed(
        tmp_path,
        {"pkg/inline_parser.py": added},
        {"pkg/inline_parser.py": PARSER + "\n\ndef skip(pos):\n    return pos + 1\n"},
    )
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    assert commit.release is not None and not commit.release.edits_unreleased


def test_a_fix_of_a_copy_the_parent_still_keeps_the_original_of_is_of_new_code(
    tmp_path: Path,
) -> None:
    # python-pathspec 3ef1451 "Fix hyperscan bug": the hyperscan backend, new after v0.12.1,
    # began as a copy of the loop `gitignore.py` had and still has; a fix of the copy mends
    # code no release held, and the checker, finding the lines in the release, must not call
    # the sentence false for the original that stays
    root = _moved_then_fixed(
        tmp_path,
        {"pkg/_inline/links.py": PARSER},
        {"pkg/_inline/links.py": MOVED_FIX},
    )
    said = "Fixes code added after `v1.0.0` (never released): users of releases were not affected."
    assert verdicts_of(root, _head(root), said) == [(Kind.FIXES_UNRELEASED, Verdict.TRUE)]


def _setup_py(pins: str, version: str) -> str:
    return (
        "from setuptools import setup\n\n"
        "setup(name='glom',\n"
        f"      version='{version}',\n"
        "      packages=['glom'],\n"
        f"      install_requires=['boltons>=19.3.0', 'attrs', {pins}])\n"
    )


def _pin_fixed_after_release(tmp_path: Path) -> Path:
    """glom on 2023-01-19: `face<22.0.0` pinned (d4f4028), v23.1.0 tagged, the version set
    to the next dev one (`glom/_version.py`, new after the tag), then "fix face dep and
    bump version for v23.1.1 release" sets the pin and the version."""
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(
        root,
        {
            "setup.py": _setup_py("'face'", "23.0.0"),
            "glom/__init__.py": "from glom._version import __version__\n",
            "glom/_version.py": "__version__ = '23.0.0'\n",
        },
        "glom",
    )
    commit_files(root, {"setup.py": _setup_py("'face<22.0.0'", "23.0.0")}, "pin face")
    commit_files(
        root,
        {
            "setup.py": _setup_py("'face<22.0.0'", "23.1.0"),
            "glom/_version.py": "__version__ = '23.1.0'\n",
        },
        "bump version for v23.1.0 release",
    )
    _git(root, "tag", "v23.1.0")
    commit_files(
        root, {"glom/_version.py": "__version__ = '23.1.1dev'\n"}, "bump version for v23.1.1dev"
    )
    commit_files(
        root,
        {
            "setup.py": _setup_py("'face==20.1.1'", "23.1.1"),
            "glom/_version.py": "__version__ = '23.1.1'\n",
        },
        "fix face dep and bump version for v23.1.1 release",
    )
    return root


def test_a_fix_of_a_pin_a_release_shipped_is_of_released_code(tmp_path: Path) -> None:
    """glom 53666f5 said "Fixes code added after `v23.1.0` (never released)": the only shipped
    line blame found new was the dev version; the pin it mends is setup.py's, which v23.1.0
    (tagged that morning) installed with."""
    root = _pin_fixed_after_release(tmp_path)
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    analysis = analyze(commit)
    assert "never released" not in _said(analysis)
    # the checker, reading the metadata's lines against the tag's, finds the old claim false
    said = "Fixes code added after `v23.1.0` (never released): users of releases were not affected."
    assert verdicts_of(root, _head(root), said) == [(Kind.FIXES_UNRELEASED, Verdict.FALSE)]


def test_a_fix_of_a_pin_added_after_the_release_is_of_new_code(tmp_path: Path) -> None:
    """The same fix with the pin set after the tag: no release installed with it, and the
    version lines the fix sets beside it say nothing of that."""
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(
        root, {"setup.py": _setup_py("'face'", "23.1.0"), "glom/core.py": RELEASED}, "glom"
    )
    _git(root, "tag", "v23.1.0")
    commit_files(root, {"setup.py": _setup_py("'face<22.0.0'", "23.1.0")}, "pin face")
    commit_files(root, {"setup.py": _setup_py("'face==20.1.1'", "23.1.1")}, "fix: face dep")
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    said = "Fixes code added after `v23.1.0` (never released): users of releases were not affected."
    assert "never released" in _said(analyze(commit))
    assert verdicts_of(root, _head(root), said) == [(Kind.FIXES_UNRELEASED, Verdict.TRUE)]


# tenacity 6a2a08b's shape: `"types.TracebackType| None"` was in every release since 2022, on
# a signature whose other annotations a later commit rewrote after the last tag (`9.1.4`);
# the fix only spaces the old annotation.
_EXIT = (
    "import types\nimport typing as t\n\n\nclass AttemptManager:\n"
    "    def __exit__(self, exc_type: {a}, exc_value: {b}, traceback: {c}) -> None:\n"
    "        return None\n"
)
_OLD_TB = '"types.TracebackType| None"'


def _respaced(tmp_path: Path, fixed_tb: str, upgraded_b: str = '"BaseException | None"') -> Path:
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    released = _EXIT.format(
        a="t.Optional[t.Type[BaseException]]", b="t.Optional[BaseException]", c=_OLD_TB
    )
    commit_files(root, {"tenacity/__init__.py": released}, "Add AttemptManager")
    _git(root, "tag", "9.1.4")
    upgraded = _EXIT.format(a='"type[BaseException] | None"', b=upgraded_b, c=_OLD_TB)
    commit_files(root, {"tenacity/__init__.py": upgraded}, "Use PEP 604 annotations")
    fixed = upgraded.replace(_OLD_TB, fixed_tb).replace(
        '"BaseException| None"', '"BaseException | None"'
    )
    commit_files(root, {"tenacity/__init__.py": fixed}, "Fix missing space in annotation")
    return root


def test_a_fix_of_text_a_release_held_on_a_line_rewritten_since_says_nothing_of_releases(
    tmp_path: Path,
) -> None:
    """tenacity 6a2a08b said "Fixes code added after `9.1.4` (never released)": blame found
    the line new (its other annotations rewritten after the tag), yet the text it edits,
    `"types.TracebackType| None"`, was the release's; the checker, reading the tag's file,
    calls that sentence false."""
    root = _respaced(tmp_path, '"types.TracebackType | None"')
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    assert commit.release is not None and not commit.release.edits_unreleased
    assert "never released" not in _said(analyze(commit))
    said = "Fixes code added after `9.1.4` (never released): users of releases were not affected."
    assert verdicts_of(root, _head(root), said) == [(Kind.FIXES_UNRELEASED, Verdict.FALSE)]


def test_a_fix_of_text_written_after_the_release_on_that_line_is_of_new_code(
    tmp_path: Path,
) -> None:
    """The same line, but the fix spaces `"BaseException| None"`, which the rewrite after the
    tag wrote: no release held that text, and both the analyser and the checker say so."""
    root = _respaced(tmp_path, _OLD_TB, upgraded_b='"BaseException| None"')
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    assert commit.release is not None and commit.release.edits_unreleased
    said = "Fixes code added after `9.1.4` (never released): users of releases were not affected."
    assert verdicts_of(root, _head(root), said) == [(Kind.FIXES_UNRELEASED, Verdict.TRUE)]
