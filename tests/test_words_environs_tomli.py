"""What readers and the claims checker found on environs and tomli: a Python requirement
bound to a module name, `setup.cfg` requirement lists, extras moved to dependency groups,
a condition differing only by a renamed constant, removals no release shipped, and a
released package's rename; each a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import Importance
from tests.clones import _git, checked_entry, commit_files, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_SETUP = 'from setuptools import setup\n\n{head}\nsetup(\n    name="envs",\n{args})\n'


def test_a_python_requirement_bound_to_a_module_name_is_read_through_it(tmp_path: Path) -> None:
    """environs f2ef6a9 "Drop support for Python 2": `setup(python_requires=PYTHON_REQUIRES)`
    with `PYTHON_REQUIRES = ">=3.5"` above the call; "Requires `python>=3.5`" is true."""
    before = {"setup.py": _SETUP.format(head="", args='    version="1.0",\n')}
    after = {
        "setup.py": _SETUP.format(
            head='PYTHON_REQUIRES = ">=3.5"\n',
            args='    version="1.0",\n    python_requires=PYTHON_REQUIRES,\n',
        )
    }
    root, commit = second_commit(tmp_path, before, after, "Drop support for Python 2")
    assert verdicts_of(root, commit.sha, "Requires `python>=3.5`.") == [
        (Kind.REQUIRES, Verdict.TRUE)
    ]
    assert verdicts_of(root, commit.sha, "Requires `python>=3.6`.") == [
        (Kind.REQUIRES, Verdict.FALSE)
    ]


def test_a_name_bound_twice_is_no_proof_of_the_requirement(tmp_path: Path) -> None:
    """A name the module binds more than once (or to no string literal) says no one value."""
    before = {"setup.py": _SETUP.format(head="", args='    version="1.0",\n')}
    after = {
        "setup.py": _SETUP.format(
            head='PYTHON_REQUIRES = ">=3.5"\nif OLD:\n    pass\nPYTHON_REQUIRES = ">=3.4"\n',
            args="    python_requires=PYTHON_REQUIRES,\n",
        )
    }
    root, commit = second_commit(tmp_path, before, after, "Drop support for Python 2")
    assert verdicts_of(root, commit.sha, "Requires `python>=3.5`.") == [
        (Kind.REQUIRES, Verdict.FALSE)
    ]


_CFG = "[metadata]\nname = envs\n\n[options]\npackages = envs\ninstall_requires = {requires}\npython_requires = >=3.8\n"
_TOML = '[project]\nname = "envs"\nrequires-python = ">=3.8"\ndependencies = [{requires}]\n'


def test_a_one_line_setup_cfg_list_moved_to_pyproject_requires_nothing_new(
    tmp_path: Path,
) -> None:
    """environs 12653d2 "Dev chores": `install_requires = marshmallow>=3.0.0; python-dotenv`
    (setuptools' `list-semi`: one line, `;`-separated) moved to PEP 621's `dependencies`;
    the entry had said "Requires `marshmallow>=3.0.0`" though the parent required it."""
    before = {"setup.cfg": _CFG.format(requires="marshmallow>=3.0.0; python-dotenv")}
    after = {
        "setup.cfg": None,
        "pyproject.toml": _TOML.format(requires='"python-dotenv", "marshmallow>=3.0.0"'),
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Migrate to pyproject.toml")
    assert "marshmallow" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_marker_on_a_setup_cfg_list_s_own_line_is_no_separator(tmp_path: Path) -> None:
    """A dangling list is one requirement a line: `a>=1; python_version<"3.8"` is one
    requirement and its marker, moved as it was; a one-line list's bump is said."""
    listed = '\n    marshmallow>=3.0.0\n    importlib-metadata>=1.0; python_version<"3.8"'
    before = {"setup.cfg": _CFG.format(requires=listed)}
    after = {
        "setup.cfg": None,
        "pyproject.toml": _TOML.format(
            requires='"marshmallow>=3.0.0", "importlib-metadata>=1.0; python_version<\'3.8\'"'
        ),
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Migrate to pyproject.toml")
    assert "Requires" not in entry_text(analysis)


def test_a_bump_inside_a_one_line_setup_cfg_list_is_said(tmp_path: Path) -> None:
    before = {"setup.cfg": _CFG.format(requires="marshmallow>=3.0.0; python-dotenv")}
    after = {"setup.cfg": _CFG.format(requires="marshmallow>=3.13.0; python-dotenv")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Bump marshmallow")
    assert "Requires `marshmallow>=3.13.0` (was `>=3.0.0`)" in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


_EXTRAS = """[project]
name = "envs"
dependencies = ["marshmallow>=3.13.0"]

[project.optional-dependencies]
django = ["dj-database-url"]
{extras}
"""


def test_extras_made_dependency_groups_are_said_moved(tmp_path: Path) -> None:
    """environs 5d23f85 "Migrate to uv and use dependency groups": the extras `tests` and
    `dev` became PEP 735 groups of their names; the entry had said "Adds the dev dependencies
    `backports-strenum`, … and 5 more" (all but one listed by the parent's extras) and left
    the extras' removal unsaid."""
    before = {
        "pyproject.toml": _EXTRAS.format(
            extras='tests = ["envs[django]", "pytest"]\ndev = ["envs[tests]", "tox"]\n'
        )
    }
    after = {
        "pyproject.toml": _EXTRAS.format(
            extras='\n[dependency-groups]\ndjango = ["dj-database-url"]\n'
            'tests = [{include-group = "django"}, "pytest"]\n'
            'dev = [{include-group = "tests"}, "tox", "tox-uv"]\n'
        )
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Use dependency groups")
    # (a group is never published: `pip install envs[dev]` now asks for nothing, which only
    # the developers installed)
    assert analysis.summary == (
        "Moves the extras `tests`, `dev` to the dependency groups of their names: they are gone"
        " from the published metadata."
    )
    assert analysis.importance is Importance.MEDIUM
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts


_PARSER = """import string

{ws} = frozenset(" \\t")
{bare} = frozenset(string.ascii_letters + "-_")
{comment} = {ctrl} - frozenset("\\t")
{basic} = {ctrl} - frozenset("\\t")


def loads(s):
    out = []
    for char in s:
        if char in {bare} or char in "'":
            out.append(char)
    return out


def parse_comment(s):
    for char in s:
        if char in {comment}:
            raise ValueError("bad comment")


def parse_basic(s):
    for char in s:
        if char in {basic}:
            raise ValueError("bad string")
"""


def test_a_condition_differing_only_by_a_constant_renamed_alike_is_the_same(
    tmp_path: Path,
) -> None:
    """tomli b5c4a19 "Naming": `_BARE_KEY_CHARS` became `BARE_KEY_CHARS` (and two constants
    of one value, `_ILLEGAL_COMMENT_CHARS`, `_ILLEGAL_BASIC_STR_CHARS`, lost their leading
    underscore); the entry had said "`loads` now tests `char in BARE_KEY_CHARS or …` (was
    `char in _BARE_KEY_CHARS or …`)" under Compatibility."""
    names = ("ws", "bare", "comment", "basic", "ctrl")
    old = dict(zip(names, ("_WS", "_BARE", "_COMMENT", "_BASIC", "_CTRL"), strict=True))
    new = {k: v.lstrip("_") for k, v in old.items()}
    ctrl = "frozenset(chr(i) for i in range(32))\n"
    before = {"pkg/_parser.py": f"_CTRL = {ctrl}" + _PARSER.format(**old)}
    after = {"pkg/_parser.py": f"CTRL = {ctrl}" + _PARSER.format(**new)}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Naming")
    assert "now tests" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts
    # a constant bound anew to another value is no rename: the test changed
    other = {**new, "bare": "BARE"}
    after = {
        "pkg/_parser.py": f"CTRL = {ctrl}" + _PARSER.format(**other).replace('+ "-_"', '+ "-_."')
    }
    analysis, _ = checked_entry(tmp_path / "other", before, after, "Naming")
    assert "`loads` now tests `char in BARE or char in" in entry_text(analysis)


_STUB = (
    '__all__ = ("loads", "dumps")\n\n\ndef loads(s):\n    return dict(s)\n\n\n'
    "def dumps(*args, **kwargs):\n    raise NotImplementedError\n"
)


def _first_release_clone(tmp_path: Path, *, branch_release: bool = False) -> Path:
    """A stub `dumps`, dropped by the second commit; `0.1.0` tagged after it (its tests
    calling `json.dumps`); `branch_release`: `0.0.9` tagged on a branch from the stub."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/__init__.py": _STUB}, "Add the parser")
    if branch_release:
        _git(root, "checkout", "-q", "-b", "preview")
        commit_files(root, {"NOTES.md": "0.0.9\n"}, "Preview")
        _git(root, "tag", "0.0.9")
        _git(root, "checkout", "-q", "main")
    dropped = _STUB.split("\n\n\ndef dumps", maxsplit=1)[0].replace(', "dumps"', ",")
    commit_files(root, {"pkg/__init__.py": dropped + "\n"}, "Drop dumps")
    commit_files(root, {"tests/test_json.py": "import json\n\njson.dumps({})\n"}, "Test")
    _git(root, "tag", "0.1.0")
    return root


def test_a_removal_before_the_first_release_breaks_no_user(tmp_path: Path) -> None:
    """tomli 17e0a06 "Move parser to _parser module" dropped the stub `dumps` before any
    release (every version tag holds the commit); the entry had said it high and breaking,
    "Code that imports `dumps` from `lil_toml` fails"."""
    root = _first_release_clone(tmp_path)
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~2..HEAD~1"))
    analysis = analyze(commit)
    assert commit.release is not None and "dumps" in commit.release.absent
    assert "Removes `dumps` (before the first release, never released)" in analysis.summary
    assert not analysis.breaking and analysis.risks == []
    assert analysis.importance is not Importance.HIGH
    verdicts = verdicts_of(root, commit.sha, entry_text(analysis))
    assert (Kind.NEVER_RELEASED, Verdict.TRUE) in verdicts
    assert all(v is Verdict.TRUE for _, v in verdicts)


def test_a_release_that_lacks_the_removal_still_makes_it_breaking(tmp_path: Path) -> None:
    root = _first_release_clone(tmp_path, branch_release=True)
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~2..HEAD~1"))
    analysis = analyze(commit)
    assert analysis.breaking and "never released" not in analysis.summary
    claimed = "Removes `dumps` (before the first release, never released) from `pkg/__init__.py`."
    assert (Kind.NEVER_RELEASED, Verdict.FALSE) in verdicts_of(root, commit.sha, claimed)


def _renamed_package_clone(tmp_path: Path, *, tagged: bool) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    init = 'from ltoml._parser import TOMLDecodeError, loads\n\n__all__ = ("loads", "TOMLDecodeError")\n'
    parser = "class TOMLDecodeError(ValueError):\n    pass\n\n\ndef loads(s):\n    return {}\n"
    files = {"ltoml/__init__.py": init, "ltoml/_parser.py": parser}
    files["pyproject.toml"] = '[project]\nname = "ltoml"\nversion = "0.1.0"\n'
    commit_files(root, files, "Add the parser")
    if tagged:
        _git(root, "tag", "0.1.0")
    renamed = {k: None for k in files if k.startswith("ltoml/")}
    renamed["tomli/__init__.py"] = init.replace("ltoml", "tomli")
    renamed["tomli/_parser.py"] = parser
    renamed["pyproject.toml"] = '[project]\nname = "tomli"\nversion = "0.1.0"\n'
    commit_files(root, renamed, "Rename to Tomli")
    return root


def test_a_released_package_renamed_whole_is_breaking(tmp_path: Path) -> None:
    """tomli 9e4e1d1 "Rename to Tomli": `ltoml/` became `tomli/` after `0.1.0`; the entry
    had rated it low, not breaking, though `import ltoml` fails from then on."""
    root = _renamed_package_clone(tmp_path, tagged=True)
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    analysis = analyze(commit)
    assert analysis.breaking and analysis.importance is Importance.HIGH
    assert any(
        "`import ltoml`" in (r.consequence or "") or "imports `ltoml`" in (r.consequence or "")
        for r in analysis.risks
    )
    assert Verdict.FALSE not in [v for _, v in verdicts_of(root, commit.sha, entry_text(analysis))]


def test_a_package_renamed_before_any_release_breaks_nobody(tmp_path: Path) -> None:
    root = _renamed_package_clone(tmp_path, tagged=False)
    _git(root, "tag", "0.1.0")
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    assert not analyze(commit).breaking


def test_a_version_a_changelog_names_is_no_requirement(tmp_path: Path) -> None:
    """environs cceffd6 "Bump minimum required marshmallow version to 3.13.0": the parent's
    changelog already said "Fix compatibility with marshmallow>=3.13.0"; the checker had
    judged "Requires `marshmallow>=3.13.0` (was `>=3.0.0`)" false for it."""
    log = "# Changelog\n\n- Fix compatibility with marshmallow>=3.13.0\n"
    before = {"CHANGELOG.md": log, "pyproject.toml": _TOML.format(requires='"marshmallow>=3.0.0"')}
    after = {
        "CHANGELOG.md": log.replace("\n\n", "\n\n- Bump marshmallow to 3.13.0.\n", 1),
        "pyproject.toml": _TOML.format(requires='"marshmallow>=3.13.0"'),
    }
    root, commit = second_commit(tmp_path, before, after, "Bump marshmallow")
    said = "Requires `marshmallow>=3.13.0` (was `>=3.0.0`)."
    assert verdicts_of(root, commit.sha, said) == [(Kind.REQUIRES, Verdict.TRUE)]


def test_a_released_distribution_renamed_is_breaking(tmp_path: Path) -> None:
    """The name `pip install` asks for changed (tomli 9e4e1d1's Poetry `name = "ltoml"` to
    `"tomli"`): a requirement on the old name gets no new release."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    poetry = '[tool.poetry]\nname = "{name}"\nversion = "0.1.0"\n'
    code = {"pkg/__init__.py": "def loads(s):\n    return {}\n"}
    commit_files(root, {"pyproject.toml": poetry.format(name="ltoml"), **code}, "Start")
    _git(root, "tag", "0.1.0")
    commit_files(root, {"pyproject.toml": poetry.format(name="tomli")}, "Rename to Tomli")
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    analysis = analyze(commit)
    assert analysis.breaking and analysis.importance is Importance.HIGH
    assert [r.description for r in analysis.risks] == [
        "Publishes the package as `tomli` (was `ltoml`)."
    ]
    assert Verdict.FALSE not in [v for _, v in verdicts_of(root, commit.sha, entry_text(analysis))]


def test_the_checker_reads_extras_made_groups_and_the_published_name(tmp_path: Path) -> None:
    before = {"pyproject.toml": _EXTRAS.format(extras='dev = ["tox"]\n')}
    after = {
        "pyproject.toml": _EXTRAS.format(extras='\n[dependency-groups]\ndev = ["tox"]\n').replace(
            'name = "envs"', 'name = "envs2"'
        )
    }
    root, commit = second_commit(tmp_path, before, after, "Use dependency groups")
    said = "Moves the extras `dev`, `django` to the dependency groups of their names."
    assert verdicts_of(root, commit.sha, said) == [
        (Kind.EXTRA_GROUPED, Verdict.TRUE),
        (Kind.EXTRA_GROUPED, Verdict.FALSE),
    ]
    assert verdicts_of(root, commit.sha, "Publishes the package as `envs2` (was `envs`).") == [
        (Kind.PUBLISHED_AS, Verdict.TRUE)
    ]
    assert verdicts_of(root, commit.sha, "Publishes the package as `envs3` (was `envs`).") == [
        (Kind.PUBLISHED_AS, Verdict.FALSE)
    ]
