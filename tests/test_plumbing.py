"""Release plumbing said as what it is, shaped like doc2dash's days of 2024-01-14/15: a
`pyproject.toml` whose tables only moved (9185f28 "Shuffle") parses the same and is low; a
fix of the dev tools' release session (c75dd03, `noxfile.py`) asks for no regression test and
says it is the tooling's; a release workflow whose per-platform binaries move to another
runner (a504296 "Use older Ubuntu for building binaries") is medium and says so; what only
`[build-system] requires` lists is what building needs, and a raised Python floor asks no
developer to "update their environment"."""

from __future__ import annotations

import configparser
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.analysis.facts import layout, parses
from bot.analysis.facts.layout import same_settings
from bot.analysis.facts.workflows import release_runners
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.models import FileChange, Importance
from tests.bombs import alias_bomb
from tests.clones import checked_entry, second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_PROJECT = """[project]
name = "doc2dash"
description = "Convert any Sphinx, pydoctor, or MkDocs documentation into Dash docsets."
authors = [{ name = "Hynek Schlawack", email = "hs@ox.cx" }]
requires-python = ">=3.8"
license = "MIT"
dynamic = ["version", "readme"]
dependencies = [
    "attrs>=21.3",
    "beautifulsoup4",
    "click>8",
    "rich",
]

[project.optional-dependencies]
tests = ["coverage[toml]", "pytest"]
typing = ["mypy", "types-beautifulsoup4"]
docs = ["mkdocs-material", "mkdocstrings[python]"]
dev = ["doc2dash[tests,typing,docs]", "nox"]

[project.scripts]
doc2dash = "doc2dash.__main__:main"
"""
_URLS = """[project.urls]
Documentation = "https://doc2dash.rtfd.io/"
Changelog = "https://github.com/hynek/doc2dash/blob/main/CHANGELOG.md"
Funding = "https://github.com/sponsors/hynek"
GitHub = "https://github.com/hynek/doc2dash"
Mastodon = "https://mastodon.social/@hynek"
Twitter = "https://twitter.com/hynek"
"""
_README = r'''[tool.hatch.metadata.hooks.fancy-pypi-readme]
content-type = "text/markdown"

[[tool.hatch.metadata.hooks.fancy-pypi-readme.fragments]]
text = "# doc2dash\n"

[[tool.hatch.metadata.hooks.fancy-pypi-readme.fragments]]
path = "README.md"
start-after = "<!-- begin-short -->\n"
end-before = "## Project Links"

[[tool.hatch.metadata.hooks.fancy-pypi-readme.fragments]]
path = "README.md"
start-at = "## Credits"

[[tool.hatch.metadata.hooks.fancy-pypi-readme.fragments]]
text = """


## Release Information

"""

[[tool.hatch.metadata.hooks.fancy-pypi-readme.fragments]]
path = "CHANGELOG.md"
start-after = "<!-- changelog follows -->"
pattern = "\n(###.+?\n)## "

[[tool.hatch.metadata.hooks.fancy-pypi-readme.fragments]]
path = "docs/usage.md"
start-after = "<!-- begin-usage -->"
end-before = "## Environment Variables"

[[tool.hatch.metadata.hooks.fancy-pypi-readme.substitutions]]
pattern = '\[(.+?)\]\(((?!https?://)\S+?.\.(png|gif))\)'
replacement = '[\1](https://raw.githubusercontent.com/hynek/doc2dash/main/\g<2>)'
'''
_MYPY = """[tool.mypy]
strict = true
disallow_untyped_decorators = false

[tool.black]
line-length = 79
"""
_RUFF = """[tool.ruff]
src = ["src", "tests", "noxfile.py"]
ignore = [
    "A001",  # shadowing is fine
    "A002",  # shadowing is fine
    "A003",  # shadowing is fine
    "ANN",  # Mypy is better at this
    "ARG",  # unused arguments are normal when implementing interfaces
    "COM",  # Black takes care of our commas
    "D",  # We prefer our own docstring style.
    "E501",  # leave line-length enforcement to Black
    "FBT",  # we don't hate bool args around here
    "FIX",  # Yes, we want XXX as a marker.
    "INP001",  # sometimes we want Python files outside of packages
    "PLR0913",  # yes, many arguments, but most have defaults
    "PLR2004",  # numbers are sometimes fine
    "PTH",  # we like path strings
    "RUF001",  # leave my smart characters alone
    "SLF001",  # private members are accessed by friendly functions
    "TCH",  # TYPE_CHECKING blocks break autodocs
    "TD",  # we don't follow other people's todo style
    "TRY",  # no
    "UP",  # we still support 3.8
    "N",  # our names are fine
    "PGH",  # blanket ignores are fine
    "S101",  # assert is fine
    "T201",  # print is fine
    "B904",  # raise from is not always needed
    "BLE001",  # broad excepts at the top are fine
    "EM101",  # messages as literals are fine
    "EM102",  # f-string messages are fine
    "ERA001",  # commented-out code is sometimes documentation
    "G004",  # f-strings in logging are fine
    "ISC001",  # conflicts with the formatter
    "PD",  # no pandas here
    "PLC0415",  # imports inside functions are fine
    "PLW2901",  # loop variables may be rebound
    "RET504",  # a name before a return reads better
    "RSE102",  # parentheses on raised exceptions are fine
    "S603",  # subprocess calls are trusted
    "S607",  # partial paths are fine
    "SIM108",  # ternaries are not always clearer
]

[tool.ruff.isort]
lines-between-types = 1
lines-after-imports = 2
"""
_TOOLS = _MYPY + "\n\n" + _README + "\n\n" + _RUFF
_SHUFFLED = _MYPY + "\n\n" + _RUFF + "\n\n" + _README
_SYSTEM = """[build-system]
requires = ["hatchling", "hatch-vcs", "hatch-fancy-pypi-readme"]
build-backend = "hatchling.build"
"""


def test_a_pyproject_whose_tables_only_moved_is_low_and_asks_nothing(tmp_path: Path) -> None:
    # 9185f28: the readme hook's tables moved from the middle to the end: tomllib reads the
    # same dict at both revisions
    before = {"pyproject.toml": _SYSTEM + "\n\n" + _PROJECT + "\n" + _URLS + "\n\n" + _TOOLS}
    after = {"pyproject.toml": _SYSTEM + "\n\n" + _PROJECT + "\n" + _URLS + "\n\n" + _SHUFFLED}
    _, commit = second_commit(tmp_path, before, after, "Shuffle")
    assert commit.files[0].changes > 60
    analysis = analyze(commit)
    assert analysis.importance is Importance.LOW
    assert not analysis.recommendations
    assert analysis.summary == (
        "`pyproject.toml` parses to the same settings at both revisions: only their order,"
        " spacing or comments change."
    )


def test_a_pyproject_with_a_value_changed_among_the_moves_is_not_the_same(tmp_path: Path) -> None:
    before = {"pyproject.toml": _SYSTEM + "\n\n" + _PROJECT + "\n" + _URLS + "\n\n" + _TOOLS}
    moved = _SYSTEM + "\n\n" + _PROJECT + "\n" + _URLS + "\n\n" + _SHUFFLED
    # (a requirement: the PyPI page's text, `fancy-pypi-readme`, is no install's)
    after = {"pyproject.toml": moved.replace('    "rich",', '    "rich>=13",')}
    _, commit = second_commit(tmp_path, before, after, "Shuffle")
    assert not same_settings(commit.files[0])
    assert analyze(commit).importance is Importance.MEDIUM


def _settings(path: str, before: str, after: str) -> FileChange:
    return FileChange(filename=path, status="modified", patch="@@", before=before, after=after)


@pytest.mark.parametrize(
    ("path", "before", "after", "same"),
    [
        ("tox.ini", "[a]\nx = 1\n\n[b]\ny = 2\n", "[b]\ny = 2\n; why\n[a]\nx = 1\n", True),
        ("tox.ini", "[a]\nx = 1\n", "[a]\nx = 2\n", False),
        (
            ".readthedocs.yaml",
            "version: 2\nbuild: {os: x}\n",
            "build:\n  os: 'x'\nversion: 2\n",
            True,
        ),
        (".readthedocs.yaml", "version: 2\n", "version: 3\n", False),
        ("config.json", '{"a": 1, "b": [1, 2]}', '{"b": [1, 2],\n "a": 1}', True),
        ("config.json", '{"b": [1, 2]}', '{"b": [2, 1]}', False),
        ("pyproject.toml", "[a]\nx = 'y'\n", '[a]\nx = "y"  # quoted\n', True),
        ("pyproject.toml", "[a]\nx = 'y'\n", "[a\nx = 'y'\n", False),
    ],
)
def test_same_settings_compares_what_each_format_parses_to(
    path: str, before: str, after: str, same: bool
) -> None:
    assert same_settings(_settings(path, before, after)) is same


_NOXFILE = '''from __future__ import annotations

import shutil
from pathlib import Path

import nox

DEFAULT_PYTHON = "3.12"


@nox.session(python=DEFAULT_PYTHON)
def mypy(session: nox.Session) -> None:
    session.install(".[typing]")

    session.run("mypy", "src", "noxfile.py")


@nox.session(python=False)
def download_and_package_binaries(session: nox.Session) -> None:
    """
    Download latest binaries and package them up for release upload.
    """
    shutil.rmtree("binaries", ignore_errors=True)

    tag = session.run(
        "git", "describe", "--abbrev=0", "--tags", external=True, silent=True
    ).strip()

    print("Downloading for git tag", tag)

    run_id = session.run(
        "gh", "run", "list", "-w", "Build binaries", "--json", "databaseId",
        "-q", ".[0].databaseId", external=True, silent=True,
    ).strip()

    session.run("gh", "run", "download", run_id, external=True)

    for arch_path in Path("binaries").glob("*"):
        arch = arch_path.name
        with session.chdir(arch_path / "release/install"):
            d = Path("doc2dash")
            if d.exists():  # i.e. not Windows
                d.chmod(0o755)
            session.run(
                "zip",
                f"../../../doc2dash.{arch}.zip",
                "COPYING.txt",
                "doc2dash",
                "doc2dash.exe",
                external=True,
            )
'''
_NOXFILE_FIXED = (
    _NOXFILE.replace('session.install(".[typing]")', 'session.install(".[typing]", "nox")')
    .replace(
        '    shutil.rmtree("binaries", ignore_errors=True)\n',
        '    bins = Path("binaries")\n    shutil.rmtree(bins, ignore_errors=True)\n'
        "    bins.mkdir()\n",
    )
    .replace(").strip()\n", ").strip()  # type: ignore[union-attr]\n")
    .replace(
        '    session.run("gh", "run", "download", run_id, external=True)\n',
        "    with session.chdir(bins):\n"
        '        session.run("gh", "run", "download", run_id, external=True)\n',
    )
    .replace(
        "        arch = arch_path.name\n"
        '        with session.chdir(arch_path / "release/install"):\n',
        '        (triple_path,) = tuple(arch_path.glob("*"))\n'
        '        with session.chdir(triple_path / "release/install"):\n',
    )
    .replace('f"../../../doc2dash.{arch}.zip"', 'f"../../../../doc2dash.{triple_path.name}.zip"')
)
_SOURCE = "def main() -> None:\n    print('doc2dash')\n"


def test_a_fix_of_the_release_session_asks_for_no_regression_test(tmp_path: Path) -> None:
    # c75dd03 "Fix binaries re-packaging for upload@v4": only `noxfile.py` changes
    analysis, verdicts = checked_entry(
        tmp_path,
        {"noxfile.py": _NOXFILE, "src/doc2dash/__main__.py": _SOURCE},
        {"noxfile.py": _NOXFILE_FIXED},
        "Fix binaries re-packaging for upload@v4",
    )
    assert not any("regression test" in r.text for r in analysis.recommendations)
    said = analysis.insights.architecture if analysis.insights else ""
    assert said is not None
    assert "the project's own tooling" in said
    assert "`download_and_package_binaries`" in said
    assert "`noxfile.py`" in said
    assert "the code the package ships is the same" in said
    assert Verdict.FALSE not in verdicts


_WORKFLOW = """---
name: Build binaries using pyOxidizer

on:
  push:
    tags: ["*"]
  workflow_dispatch:

env:
  PIP_DISABLE_PIP_VERSION_CHECK: "1"

permissions: {}

jobs:
  build:
    name: Build binary for ${{ matrix.runs-on }}
    runs-on: ${{ matrix.runs-on }}
    strategy:
      fail-fast: false
      matrix:
        runs-on: [ubuntu-latest, windows-latest, macos-latest]

    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # get correct version
      - uses: actions/setup-python@v5
        with:
          python-version: "3.10"

      - run: python -Im pip install nox
      - run: nox -e oxidize

      - name: check binary
        shell: bash
        run: |
          cd build/*/release/install/
          ./doc2dash --version
        if: runner.os != 'Windows'

      - uses: actions/upload-artifact@v4
        with:
          name: binary-${{ matrix.runs-on }}
          path: build/*
"""


def test_release_binaries_built_on_another_runner_are_said_and_medium(tmp_path: Path) -> None:
    # a504296 "Use older Ubuntu for building binaries"
    path = ".github/workflows/pyoxidizer.yml"
    analysis, verdicts = checked_entry(
        tmp_path,
        {path: _WORKFLOW, "src/doc2dash/__main__.py": _SOURCE},
        {path: _WORKFLOW.replace("[ubuntu-latest,", "[ubuntu-20.04,")},
        "Use older Ubuntu for building binaries\n\nEven Go binaries break if compiled on Jammy.",
    )
    assert analysis.importance is Importance.MEDIUM
    assert analysis.insights is not None
    assert analysis.insights.compatibility == (
        "The release binaries are now built on `ubuntu-20.04` (was `ubuntu-latest`)."
    )
    assert Verdict.FALSE not in verdicts


@pytest.mark.parametrize(
    "edit",
    [
        # a test run on every push: nothing is released
        lambda w: w.replace('    tags: ["*"]\n', '    branches: ["main"]\n'),
        # a release that builds on one system: a pure-Python wheel is the same anywhere
        lambda w: w.replace("[ubuntu-latest, windows-latest, macos-latest]", "[ubuntu-latest]"),
        # built and checked, never uploaded
        lambda w: w.split("      - uses: actions/upload-artifact@v4")[0],
    ],
)
def test_a_runner_change_elsewhere_stays_low(tmp_path: Path, edit: object) -> None:
    path = ".github/workflows/pyoxidizer.yml"
    assert callable(edit)
    workflow = edit(_WORKFLOW)
    _, commit = second_commit(
        tmp_path,
        {path: workflow, "src/doc2dash/__main__.py": _SOURCE},
        {path: workflow.replace("ubuntu-latest", "ubuntu-20.04")},
        "Use older Ubuntu for building binaries",
    )
    analysis = analyze(commit)
    assert analysis.importance is Importance.LOW
    assert "release binaries" not in str(analysis.insights)


_TEST_MATRIX = """---
name: CI

on:
  push:
    branches: [main]
    tags: ["*"]
  pull_request:

jobs:
  tests:
    name: Tests on ${{ matrix.os }}
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os: [ubuntu-latest, windows-latest, macos-latest]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
      - run: python -Im pip install tox
      - run: python -Im tox run -e py
      - name: Upload coverage data
        uses: actions/upload-artifact@v4
        with:
          name: coverage-data-${{ matrix.os }}
          path: .coverage.*
          include-hidden-files: true
"""


def test_a_tags_test_matrix_that_uploads_coverage_builds_no_release(tmp_path: Path) -> None:
    # a CI workflow a tag starts too: its jobs run tests and upload coverage, no distribution
    path = ".github/workflows/ci.yml"
    _, commit = second_commit(
        tmp_path,
        {path: _TEST_MATRIX, "src/doc2dash/__main__.py": _SOURCE},
        {path: _TEST_MATRIX.replace("[ubuntu-latest,", "[ubuntu-22.04,")},
        "ci: pin the Ubuntu runner",
    )
    analysis = analyze(commit)
    assert analysis.importance is Importance.LOW
    assert "release binaries" not in str(analysis.insights)
    # the same matrix building wheels and uploading them is a release's build
    wheels = _TEST_MATRIX.replace(
        "      - run: python -Im tox run -e py\n",
        "      - uses: pypa/cibuildwheel@v2.21\n",
    ).replace("coverage-data-${{ matrix.os }}", "wheels-${{ matrix.os }}")
    wheels = wheels.replace("path: .coverage.*", "path: ./wheelhouse/*.whl")
    _, commit = second_commit(
        tmp_path / "wheels",
        {path: wheels, "src/doc2dash/__main__.py": _SOURCE},
        {path: wheels.replace("[ubuntu-latest,", "[ubuntu-22.04,")},
        "ci: pin the Ubuntu runner",
    )
    assert analyze(commit).importance is Importance.MEDIUM


def test_the_build_systems_requirement_is_what_building_needs(tmp_path: Path) -> None:
    # svcs b184b3c "Ensure hatchling is new enough"; doc2dash 0f97ac2's Python floor
    before = _SYSTEM + "\n" + _PROJECT + "\n" + _TOOLS
    after = before.replace('requires = ["hatchling",', 'requires = ["hatchling>=1.27.0",')
    after = after.replace('requires-python = ">=3.8"', 'requires-python = ">=3.10"')
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": before, "src/doc2dash/__main__.py": _SOURCE},
        {"pyproject.toml": after},
        "Drop Python 3.8 and 3.9; ensure hatchling is new enough",
    )
    words = " ".join(
        [analysis.summary, str(analysis.insights), *(r.text for r in analysis.recommendations)]
    )
    assert "Requires `python>=3.10` (was `>=3.8`); building the package now requires " in words
    assert "`hatchling>=1.27.0`." in words
    assert "Requires `hatchling" not in words
    assert "development environments" not in words
    assert "`python>=3.10`" in words
    assert Verdict.FALSE not in verdicts


_SETUP_CFG = "[metadata]\nname = doc2dash\n\n[options.entry_points]\nconsole_scripts =\n    doc2dash = doc2dash.__main__:main\n\n[flake8]\nmax-line-length = 88\n"


def test_each_settings_file_side_is_parsed_once_a_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a release's commit touching its metadata, its linters' settings and its release
    # workflow: the packaging facts, the requirements, the towncrier table, the runners and
    # the same-settings comparison each read them, from one parse of each side
    parsed: list[str] = []

    def counted(kind: str, parse: Callable[..., Any]) -> Callable[..., Any]:
        def parse_counted(*args: Any, **kwargs: Any) -> Any:
            parsed.append(kind)
            return parse(*args, **kwargs)

        return parse_counted

    monkeypatch.setattr(tomllib, "loads", counted("toml", tomllib.loads))
    monkeypatch.setattr(yaml, "load", counted("yaml", yaml.load))
    monkeypatch.setattr(yaml, "load_all", counted("yaml", yaml.load_all))
    read = configparser.RawConfigParser.read_string
    monkeypatch.setattr(configparser.RawConfigParser, "read_string", counted("ini", read))
    pyproject = (
        _SYSTEM
        + "\n"
        + _PROJECT
        + "\n"
        + _TOOLS
        + '\n[tool.towncrier]\ndirectory = "changelog.d"\n'
    )
    workflow = ".github/workflows/pyoxidizer.yml"
    _, commit = second_commit(
        tmp_path,
        {
            "pyproject.toml": pyproject,
            "setup.cfg": _SETUP_CFG,
            workflow: _WORKFLOW,
            "src/doc2dash/__main__.py": _SOURCE,
        },
        {
            "pyproject.toml": pyproject.replace('    "rich",', '    "rich>=13",'),
            "setup.cfg": _SETUP_CFG.replace("88", "100"),
            workflow: _WORKFLOW.replace("[ubuntu-latest,", "[ubuntu-20.04,"),
        },
        "Prepare the release",
    )
    parsed.clear()
    analysis = analyze(commit)
    assert analysis.insights is not None
    assert analysis.insights.compatibility is not None
    assert "`ubuntu-20.04`" in analysis.insights.compatibility
    # two sides of each file, whoever reads them
    assert sorted(parsed) == ["ini", "ini", "toml", "toml", "yaml", "yaml"]


_RELEASE_BOMB = alias_bomb(9, under="env:\n  LEVELS: ")


@pytest.mark.parametrize("levels", [6, 9])
def test_an_alias_bomb_in_a_settings_file_is_refused_before_any_value_is_built(
    monkeypatch: pytest.MonkeyPatch, levels: int
) -> None:
    # 9 levels of nine aliases: a 447-byte file, 9**9 values once expanded, which the
    # comparison walked value by value. Refused as a file that does not parse: each distinct
    # node is read once, nothing is built or compared
    bomb = alias_bomb(levels, under="version: 2\nbuild: ")
    built: list[object] = []
    compared: list[object] = []
    construct = yaml.constructor.SafeConstructor.construct_object
    monkeypatch.setattr(
        yaml.constructor.SafeConstructor,
        "construct_object",
        lambda self, node, deep=False: built.append(node) or construct(self, node, deep),
    )
    typed = layout._typed
    monkeypatch.setattr(layout, "_typed", lambda v: compared.append(v) or typed(v))
    assert not same_settings(_settings(".readthedocs.yaml", bomb, bomb + "# same\n"))
    assert built == []
    assert compared == []
    # each node the file writes read once, an alias as one: the mapping, its two keys and
    # the version, the outer list, and each level's list and its nine items
    with pytest.raises(parses.YamlTooLarge) as refused:
        parses.Parses().yaml(bomb)
    assert refused.value.walked == 5 + 10 * levels


def test_an_alias_bomb_in_a_release_workflow_says_nothing_of_its_runners() -> None:
    bombed = _WORKFLOW.replace("permissions: {}\n", _RELEASE_BOMB + "\npermissions: {}\n")
    change = FileChange(
        filename=".github/workflows/pyoxidizer.yml",
        status="modified",
        patch="@@ -1 +1 @@\n-        runs-on: [ubuntu-latest]\n+        runs-on: [ubuntu-20.04]\n",
        before=bombed,
        after=bombed.replace("[ubuntu-latest,", "[ubuntu-20.04,"),
    )
    assert release_runners(change) == []
    # the same workflow without its bomb says the runner it moved to
    plain = change.model_copy(
        update={
            "before": _WORKFLOW,
            "after": _WORKFLOW.replace("[ubuntu-latest,", "[ubuntu-20.04,"),
        }
    )
    assert [(r.old, r.new) for r in release_runners(plain)] == [("ubuntu-latest", "ubuntu-20.04")]


@pytest.mark.parametrize(
    "text",
    [
        # a self-reference, and a nesting deeper than any settings file's
        "a: &a [1, *a]\n",
        "a: " + "[" * 120 + "]" * 120 + "\n",
    ],
)
def test_yaml_that_holds_itself_or_nests_too_deeply_is_not_the_same(text: str) -> None:
    assert not same_settings(_settings(".readthedocs.yaml", text, text + "# same\n"))


def test_anchors_a_real_file_repeats_are_compared() -> None:
    before = "defaults: &d {os: ubuntu, python: '3.12'}\nbuild: *d\ndocs:\n  <<: *d\n  x: 1\n"
    after = "defaults: &d {python: '3.12', os: ubuntu}\nbuild: *d\ndocs:\n  <<: *d\n  x: 1\n"
    assert same_settings(_settings(".readthedocs.yaml", before, after))
