"""Release commits recognised from their version files and changelog: medium, named by the
version, their notes in order of consequence; a version opened for development stays low."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.analysis.tiering import rules_sure
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import CommitInput, Importance
from tests.clones import _git, checked_entry, commit_files, second_commit, verdicts_of

_MANIFEST = '{{\n  ".": "{version}"\n}}\n'
_PYPROJECT = '[project]\nname = "xmltodict"\nversion = "{version}"\nrequires-python = ">=3.9"\n'
_OLD_SECTION = (
    "## [1.0.0](https://github.com/martinblech/xmltodict/compare/v0.15.1...v1.0.0)"
    " (2025-09-12)\n\n\n### Features\n\n* **unparse:** add comment round-trip"
    " ([e43537e](https://github.com/martinblech/xmltodict/commit/e43537e))\n"
)
# xmltodict 656e6af ("chore(master): release 1.0.1"): release-please's section, the docs
# first in the file's own order after the two fixes
_RELEASE_101 = (
    "## [1.0.1](https://github.com/martinblech/xmltodict/compare/v1.0.0...v1.0.1)"
    " (2025-09-17)\n\n\n### Documentation\n\n"
    "* add SECURITY.md ([6413023](https://github.com/martinblech/xmltodict/commit/6413023))\n"
    "* update CONTRIBUTING.md ([db39180](https://github.com/martinblech/xmltodict/commit/db39180))\n"
    "\n\n### Bug Fixes\n\n"
    "* fail closed when entities disabled"
    " ([c986d2d](https://github.com/martinblech/xmltodict/commit/c986d2d))\n"
    "* validate XML comments ([3d4d2d3](https://github.com/martinblech/xmltodict/commit/3d4d2d3))\n\n"
)
_RELEASE_100 = (
    "## [1.0.0](https://github.com/martinblech/xmltodict/compare/v0.15.1...v1.0.0)"
    " (2025-09-12)\n\n\n### ⚠ BREAKING CHANGES\n\n"
    "* modernize for Python 3.9+; drop legacy compat paths\n\n### Features\n\n"
    "* **unparse:** add selective `force_cdata` support (bool/tuple/callable)"
    " ([a497fed](https://github.com/martinblech/xmltodict/commit/a497fed)),"
    " closes [#375](https://github.com/martinblech/xmltodict/issues/375)\n\n\n### Bug Fixes\n\n"
    "* **streaming:** avoid parent accumulation at item_depth"
    " ([220240c](https://github.com/martinblech/xmltodict/commit/220240c))\n\n\n"
    "### Documentation\n\n* **readme:** mention types-xmltodict stub package"
    " ([58ec03e](https://github.com/martinblech/xmltodict/commit/58ec03e))\n\n"
)


def _release_please(version: str, section: str) -> dict[str, str | None]:
    return {
        ".release-please-manifest.json": _MANIFEST.format(version=version),
        "pyproject.toml": _PYPROJECT.format(version=version),
        "CHANGELOG.md": "# Changelog\n\n" + section + _OLD_SECTION,
    }


def test_a_release_please_release_is_medium_and_leads_with_its_fixes(tmp_path: Path) -> None:
    before = _release_please("1.0.0", "")
    after = _release_please("1.0.1", _RELEASE_101)
    analysis, verdicts = checked_entry(tmp_path, before, after, "chore(master): release 1.0.1")
    assert analysis.importance is Importance.MEDIUM
    assert not analysis.breaking
    assert analysis.summary.startswith("Releases 1.0.1. `CHANGELOG.md` lists 4 new items: ")
    # the fixes come before the docs the section lists first; the commit links are gone
    assert "“fail closed when entities disabled” (Bug Fixes), “validate XML comments”" in (
        analysis.summary
    )
    assert "SECURITY" not in analysis.summary and "c986d2d" not in analysis.summary
    assert verdicts and set(verdicts) == {Verdict.TRUE}


def test_a_breaking_release_says_its_first_break_and_is_breaking_by_its_words(
    tmp_path: Path,
) -> None:
    before = _release_please("0.15.1", "")
    after = _release_please("1.0.0", _RELEASE_100)
    before["CHANGELOG.md"] = "# Changelog\n\n## v0.15.1\n* Security: reject names\n"
    after["CHANGELOG.md"] = (
        "# Changelog\n\n" + _RELEASE_100 + "## v0.15.1\n* Security: reject names\n"
    )
    analysis, verdicts = checked_entry(tmp_path, before, after, "chore(master): release 1.0.0")
    # (the changelog's words are the author's: upgrading to 1.0.0 is a break, said so, and
    # high; issue 27's rule 3)
    assert analysis.importance is Importance.HIGH
    assert analysis.breaking
    assert analysis.summary.startswith(
        "Releases 1.0.0. The 1.0.0 changelog lists breaking changes: “modernize for Python"
        " 3.9+; drop legacy compat paths”. `CHANGELOG.md` lists 4 new items: “avoid parent"
        " accumulation at item_depth” (Bug Fixes), “add selective `force_cdata` support"
    )
    assert "closes" not in analysis.summary and "**" not in analysis.summary
    assert verdicts and set(verdicts) == {Verdict.TRUE}


def test_a_hand_written_release_names_the_version_from_its_module(tmp_path: Path) -> None:
    """xmltodict 48b47c9 ("Bump version and update CHANGELOG."): `__version__` and a
    heading over dashes; items without headings ranked by their words."""
    head = "CHANGELOG\n=========\n\n"
    old = "v0.13.0\n-------\n\n* Add item_depth\n"
    new = (
        "v0.14.0\n-------\n\n* Tests in gh-action.\n  * Thanks, @almaz.kun!\n"
        "* Add Python 3.13 support and tests.\n"
        "* fix attributes not appearing in streaming mode\n  * Thanks, @timnguyen001!\n"
        "* Fix Travis CI status badge URL\n\n"
    )
    module = "__author__ = 'Martin Blech'\n__version__ = '{v}'\n__license__ = 'MIT'\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.md": head + old, "xmltodict.py": module.format(v="0.13.0")},
        {"CHANGELOG.md": head + new + old, "xmltodict.py": module.format(v="0.14.0")},
        "Bump version and update CHANGELOG.",
    )
    assert analysis.importance is Importance.MEDIUM
    assert analysis.summary == (
        "Releases 0.14.0. `CHANGELOG.md` lists 4 new items: “fix attributes not appearing in"
        " streaming mode”, “Add Python 3.13 support and tests.” and 2 more."
    )
    assert verdicts and set(verdicts) == {Verdict.TRUE}


def test_a_pre_release_finalised_without_changelog_says_the_version_it_was(
    tmp_path: Path,
) -> None:
    """pathspec 3a94667 ("Release v1.0.0"): `1.0.0.dev2` → `1.0.0` in two version files."""
    version = '"""This module defines the version."""\n\n__version__ = "{v}"\n'
    project = '[project]\nname = "pathspec"\nversion = "{v}"\n'
    analysis, _ = checked_entry(
        tmp_path,
        {
            "pathspec/_version.py": version.format(v="1.0.0.dev2"),
            "pyproject.toml": project.format(v="1.0.0.dev2"),
        },
        {
            "pathspec/_version.py": version.format(v="1.0.0"),
            "pyproject.toml": project.format(v="1.0.0"),
        },
        "Release v1.0.0",
    )
    assert analysis.importance is Importance.MEDIUM
    assert analysis.summary == "Releases 1.0.0 (the version was 1.0.0.dev2)."


def test_a_version_opened_for_development_stays_low(tmp_path: Path) -> None:
    """pyparsing ef50789 ("Update for 3.3.3 development"): the version is final in
    `version_info`, but the changelog's new heading says it is in development; a `.dev0`
    bump and the next final version opened for work ("Prep for 3.2.1 work") are no release
    either."""
    changes = "Change log\n\n\n{new}Version 3.3.2 - January, 2026\n-----------------------------\n- Fixed x\n"
    init = '__version_info__ = version_info(3, 3, {micro}, "final", 1)\n__version_time__ = "{t}"\n'
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGES": changes.format(new=""), "pyparsing/__init__.py": init.format(micro=2, t="a")},
        {
            "CHANGES": changes.format(
                new="Version 3.3.3 - in development\n------------------------------\n\n\n"
            ),
            "pyparsing/__init__.py": init.format(micro=3, t="b"),
        },
        "Update for 3.3.3 development",
    )
    assert analysis.importance is Importance.LOW
    assert "Releases" not in analysis.summary
    dev = '__version__ = "{v}"\n'
    for title, old, new in (
        ("Bump version to 2.1.0.dev0", "2.0.0", "2.1.0.dev0"),
        ("Prep for 3.2.1 work", "3.2.0", "3.2.1"),
    ):
        analysis, _ = checked_entry(
            tmp_path / title.split()[-1],
            {"pkg/__init__.py": dev.format(v=old)},
            {"pkg/__init__.py": dev.format(v=new)},
            title,
        )
        assert analysis.importance is Importance.LOW, title
        assert "Releases" not in analysis.summary, title


def test_a_changelog_heading_dated_is_a_release_where_the_title_says_one(tmp_path: Path) -> None:
    """pyparsing 6413afc ("Prep for 3.3.0 release"): the heading's "under development"
    becomes its month; the same rename in a fix's commit (4dace94) releases nothing."""
    body = "- Added `show_best_practices()`.\n- Fixed `nested_expr`.\n"
    old = (
        "Changes\n\n\nVersion 3.3.0 - under development\n---------------------------------\n" + body
    )
    new = "Changes\n\n\nVersion 3.3.0 - December, 2025\n------------------------------\n" + body
    analysis, _ = checked_entry(
        tmp_path / "a", {"CHANGES": old}, {"CHANGES": new}, "Prep for 3.3.0 release"
    )
    assert analysis.importance is Importance.MEDIUM
    assert analysis.summary == "Releases 3.3.0."
    fix = {"CHANGES": new, "pyparsing/core.py": "def nested_expr():\n    return 2\n"}
    analysis, _ = checked_entry(
        tmp_path / "b",
        {"CHANGES": old, "pyparsing/core.py": "def nested_expr():\n    return 1\n"},
        fix,
        "Fixed bug in nested_expr introduced in 3.2.2",
    )
    assert "Releases" not in analysis.summary


def test_a_release_that_only_sets_the_version_is_the_rules_to_say(tmp_path: Path) -> None:
    """Never asked of the LLM: the rules name the version and the notes. A release that
    also changes code (or a dev bump) is left to the closer look."""
    module = "__version__ = '{v}'\n\ndef parse():\n    return {r}\n"
    head = "CHANGELOG\n=========\n\n"
    section = "v0.14.0\n-------\n\n* fix attributes not appearing in streaming mode\n\n"
    old = {"CHANGELOG.md": head, "xmltodict.py": module.format(v="0.13.0", r=1)}
    _, commit = second_commit(
        tmp_path / "bare",
        old,
        {"CHANGELOG.md": head + section, "xmltodict.py": module.format(v="0.14.0", r=1)},
        "Bump version and update CHANGELOG.",
    )
    assert rules_sure(commit) == "release"
    _, commit = second_commit(
        tmp_path / "code",
        old,
        {"CHANGELOG.md": head + section, "xmltodict.py": module.format(v="0.14.0", r=2)},
        "Bump version and update CHANGELOG.",
    )
    assert rules_sure(commit) is None


# glom on 2023-01-18/19: the version is bumped, then "write changelog" adds the 23.1.0
# section and is what v23.1.0 tags; its first item's list says what the change broke
_GLOM_CHANGELOG = (
    "# glom Changelog\n\n22.1.0\n------\n*(January 24, 2022)*\n\n* Added star paths.\n"
)
_GLOM_SECTION = (
    "23.1.0\n------\n*(January 18, 2023)*\n\n"
    "* Enabled the star/wildcard (`*`/`**`) behavior initially released in 22.1.0 by default.\n"
    "  * If you had a spec broken by this, you can quick-fix it without downgrading by setting"
    " `glom.core.PATH_STAR = False`.\n"
    "* Rationalized argument behavior for several spec types\n"
    "* Tweaked `Iter()` to use `Pipe()` for `.all()`, mostly for benefits to the repr.\n\n"
)


def _tagged(tmp_path: Path, tag: str, *, annotated: bool) -> tuple[Path, CommitInput]:
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(
        root,
        {"glom/core.py": "PATH_STAR = False\n", "CHANGELOG.md": _GLOM_CHANGELOG},
        "glom",
    )
    _git(root, "tag", "v22.1.0")
    commit_files(root, {"glom/core.py": "PATH_STAR = True\n"}, "star on by default")
    commit_files(
        root,
        {"CHANGELOG.md": _GLOM_CHANGELOG.replace("22.1.0\n", _GLOM_SECTION + "22.1.0\n", 1)},
        "write changelog",
    )
    _git(root, "tag", *(["-a", "-m", f"Version {tag}"] if annotated else []), tag)
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    return root, commit


def test_a_commit_a_version_tag_points_at_is_that_release(tmp_path: Path) -> None:
    for annotated in (False, True):
        root, commit = _tagged(tmp_path / str(annotated), "v23.1.0", annotated=annotated)
        analysis = analyze(commit)
        text = entry_text(analysis)
        assert analysis.summary.startswith("Releases 23.1.0."), analysis.summary
        # the release brings the break, and says it in its changelog's words: high, breaking
        assert "The 23.1.0 changelog lists breaking changes: “Enabled the star" in text
        assert analysis.importance is Importance.HIGH and analysis.breaking
        assert Verdict.FALSE not in [v for _, v in verdicts_of(root, commit.sha, text)]


def test_a_commit_a_pre_release_tag_points_at_is_no_release(tmp_path: Path) -> None:
    _, commit = _tagged(tmp_path, "v23.1.0rc1", annotated=True)
    analysis = analyze(commit)
    assert "Releases" not in entry_text(analysis)
    assert analysis.importance is Importance.LOW


_LARK_INIT = '__version__ = "{v}"\n\nfrom .lark import Lark\n'


def _lark(tmp_path: Path, *, tagged: bool) -> tuple[Path, CommitInput]:
    """lark ae207df ("Bump version"): `__version__` 1.2.0 → 1.2.1, where 1.2.0 was never
    tagged (the last release tag is 1.1.9): tags or none."""
    root = tmp_path / "lark"
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"lark/__init__.py": _LARK_INIT.format(v="1.1.9")}, "Bump version")
    if tagged:
        _git(root, "tag", "-a", "-m", "Version 1.1.9", "1.1.9")
    commit_files(root, {"lark/__init__.py": _LARK_INIT.format(v="1.2.0")}, "Bump version")
    commit_files(root, {"lark/__init__.py": _LARK_INIT.format(v="1.2.1")}, "Bump version")
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    return root, commit


def test_a_release_bumped_from_an_untagged_version_names_no_last_release(
    tmp_path: Path,
) -> None:
    root, commit = _lark(tmp_path / "tags", tagged=True)
    analysis = analyze(commit)
    # 1.2.0, the version bumped from, has no tag, and the 1.1.9 tag reached is older: which
    # release came before is not told, so none is named and nothing counted
    assert analysis.summary == "Releases 1.2.1."
    assert Verdict.FALSE not in [v for _, v in verdicts_of(root, commit.sha, entry_text(analysis))]
    said = "Releases 1.2.1 (the last release was 1.1.9). It ships 2 commits since `1.1.9`."
    assert [v for _, v in verdicts_of(root, commit.sha, said)] == [Verdict.FALSE] * 2
    # without tags, what the version file said is all there is to say
    _, untagged = _lark(tmp_path / "none", tagged=False)
    assert analyze(untagged).summary == "Releases 1.2.1 (the version was 1.2.0)."


def test_a_release_before_any_tag_names_no_last_release(tmp_path: Path) -> None:
    """The clone has version tags, but none before the commit: no release came before it
    that the tags tell, and the file's old version may never have been one."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/__init__.py": '__version__ = "0.9.0"\n'}, "Start")
    commit_files(root, {"pkg/__init__.py": '__version__ = "1.0.0"\n'}, "Release 1.0.0")
    _git(root, "tag", "v1.0.0")
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    assert analyze(commit).summary == "Releases 1.0.0."


_WRAPT_INIT = (
    "__version_info__ = {info}\n__version__ = '.'.join(__version_info__)\n\n"
    "from .__wrapt__ import ObjectProxy\n\n__all__ = ('ObjectProxy',)\n"
)
_WRAPT_CHANGES = (
    "Release Notes\n=============\n\n{section}Version 1.17.2\n--------------\n\n* Fix.\n"
)
_WRAPT_SECTION = (
    "Version 2.0.0\n--------------\n\n**New Features**\n\n"
    "* Added `__all__` attribute to `wrapt` module to expose the public API.\n\n"
)


def test_a_development_version_opening_a_section_quotes_the_section(tmp_path: Path) -> None:
    """wrapt fde75dc ("Move up to version 2.0.0 for latest changes."): `__version_info__`
    ('1', '17', '2') → ('2', '0', '0', 'dev1') and a new "Version 2.0.0" section whose item
    an earlier commit made (`__all__` was there at the parent): the section's words, never
    the commit's own "Added …"."""
    root = tmp_path / "wrapt"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    init = "src/wrapt/__init__.py"
    commit_files(
        root,
        {
            init: _WRAPT_INIT.format(info="('1', '17', '2')"),
            "docs/changes.rst": _WRAPT_CHANGES.format(section=""),
        },
        "Add __all__.",
    )
    _git(root, "tag", "1.17.2")
    commit_files(
        root,
        {
            init: _WRAPT_INIT.format(info="('2', '0', '0', 'dev1')"),
            "docs/changes.rst": _WRAPT_CHANGES.format(section=_WRAPT_SECTION),
        },
        "Move up to version 2.0.0 for latest changes.",
    )
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    analysis = analyze(commit)
    assert analysis.summary == (
        "Opens version 2.0.0 (`2.0.0.dev1`); its changelog section lists “Added `__all__`"
        " attribute to `wrapt` module to expose the public API.”"
    )
    # a development version is no release users install unasked
    assert analysis.importance is Importance.LOW
    assert "Releases" not in entry_text(analysis)
    assert Verdict.FALSE not in [v for _, v in verdicts_of(root, commit.sha, entry_text(analysis))]


def test_a_version_info_tuple_counts_only_where_the_file_joins_it(tmp_path: Path) -> None:
    """A `__version_info__` tuple that `__version__` is not joined from may spell another
    version (`__version__ = "2.0.0a1"`): no version is read from it."""
    init = "__version_info__ = {info}\n__version__ = '1.17.2'\n"
    before = {
        "wrapt/__init__.py": init.format(info="('1', '17', '2')"),
        "docs/changes.rst": _WRAPT_CHANGES.format(section=""),
    }
    after = {
        "wrapt/__init__.py": init.format(info="('2', '0', '0', 'dev1')"),
        "docs/changes.rst": _WRAPT_CHANGES.format(section=_WRAPT_SECTION),
    }
    _, commit = second_commit(tmp_path, before, after, "Move up to version 2.0.0")
    assert "Opens version" not in entry_text(analyze(commit))
    # joined, the same change opens 2.0.0
    joined = {k: v.replace("'1.17.2'", "'.'.join(__version_info__)") for k, v in after.items()}
    joined_before = {
        k: v.replace("'1.17.2'", "'.'.join(__version_info__)") for k, v in before.items()
    }
    _, commit = second_commit(tmp_path / "joined", joined_before, joined, "Move up to 2.0.0")
    assert entry_text(analyze(commit)).count("Opens version 2.0.0 (`2.0.0.dev1`)") == 1
