"""Words a commit's own files disprove: an extra's requirement said as the package's, metadata
moved between setup.py and pyproject.toml said as new, a CLI command's function renamed said
as removed, the author's "(BREAKING)" unheard, and dev tooling rated medium."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.paths import dev_tooling
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

# a setup.py whose metadata moves whole to pyproject.toml, beside a build-system table
_SETUP_PY = """\
from setuptools import setup

setup(
    name="envfile",
    version="1.0",
    packages=["envfile"],
    package_dir={"": "src"},
    python_requires=">=3.9",
    extras_require={
        "cli": [
            "click>=5.0",
        ],
    },
    entry_points={
        "console_scripts": [
            "envfile=envfile.__main__:cli",
        ],
    },
)
"""
_PYPROJECT_BEFORE = """\
[tool.black]
line-length = 88
"""
_PYPROJECT_AFTER = """\
[build-system]
requires = ["setuptools >= 77.0"]
build-backend = "setuptools.build_meta"

[project]
name = "envfile"
version = "1.0"
requires-python = ">=3.9"

[project.optional-dependencies]
cli = [
    "click>=5.0",
]

[project.scripts]
envfile = "envfile.__main__:cli"

[tool.setuptools]
packages = ["envfile"]
package-dir = {"" = "src"}

[tool.black]
line-length = 88
"""


def test_metadata_moved_from_setup_py_says_only_what_differs(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"setup.py": _SETUP_PY, "pyproject.toml": _PYPROJECT_BEFORE, "src/envfile/__init__.py": ""},
        {"setup.py": None, "pyproject.toml": _PYPROJECT_AFTER},
        "Move project metadata to pyproject.toml",
    )
    text = entry_text(analysis)
    # the extra's requirement was the extra's on both sides: not the package's, not new
    assert "click" not in text
    assert "python>=3.9" not in text
    assert "uilding the package now requires `setuptools>=77.0`" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    assert "command" not in text and "extra" not in text


def test_the_checker_holds_an_extras_pin_and_a_moved_one_no_new_requirement(
    tmp_path: Path,
) -> None:
    root, commit = second_commit(
        tmp_path,
        {"setup.py": _SETUP_PY, "pyproject.toml": _PYPROJECT_BEFORE},
        {"setup.py": None, "pyproject.toml": _PYPROJECT_AFTER},
        "Move project metadata to pyproject.toml",
    )
    said = "Requires `click>=5.0`; building the package now requires `setuptools>=77.0`."
    assert verdicts_of(root, commit.sha, said) == [
        (Kind.REQUIRES, Verdict.FALSE),
        (Kind.REQUIRES, Verdict.TRUE),
    ]
    # an extra's pin raised in place is still the extra's, not the package's
    bumped = _PYPROJECT_AFTER.replace("click>=5.0", "click>=8.0")
    root, commit = second_commit(
        tmp_path / "bump", {"pyproject.toml": _PYPROJECT_AFTER}, {"pyproject.toml": bumped}, "Bump"
    )
    assert verdicts_of(root, commit.sha, "Requires `click>=8.0`.") == [
        (Kind.REQUIRES, Verdict.FALSE)
    ]
    # the same pin among the dependencies is the package's
    needs = bumped.replace('version = "1.0"\n', 'version = "1.0"\ndependencies = ["click>=8.0"]\n')
    root, commit = second_commit(
        tmp_path / "dep", {"pyproject.toml": _PYPROJECT_AFTER}, {"pyproject.toml": needs}, "Need"
    )
    assert verdicts_of(root, commit.sha, "Requires `click>=8.0`.") == [
        (Kind.REQUIRES, Verdict.TRUE)
    ]


_CLI_BEFORE = '''\
import click


@click.group()
def cli():
    """Manage the file."""


@cli.command()
@click.option("--format", default="simple")
def list(format):
    """Display all the stored key/value."""
    click.echo(format)


@cli.command()
@click.argument("key")
def set(key):
    """Store the given key."""
    click.echo(key)


@cli.command()
@click.argument("key")
def unset(key):
    """Remove the given key."""
    click.echo(key)
'''
# the functions renamed off the builtins they shadowed, their commands kept by name; one
# command whose name follows its function's (`unset` → `remove_key`, `remove-key`) is gone
_CLI_AFTER = (
    _CLI_BEFORE.replace("@cli.command()\n@click.option", '@cli.command(name="list")\n@click.option')
    .replace("def list(format)", "def list_values(format)")
    .replace(
        '@cli.command()\n@click.argument("key")\ndef set(',
        '@cli.command("set")\n@click.argument("key")\ndef set_value(',
    )
    .replace("def unset(key)", "def remove_key(key)")
)


def test_a_cli_commands_function_renamed_under_the_same_command_is_not_removed(
    tmp_path: Path,
) -> None:
    assert _CLI_AFTER.count("def ") == 4 and "def set_value" in _CLI_AFTER
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/envfile/__init__.py": "", "src/envfile/cli.py": _CLI_BEFORE},
        {"src/envfile/cli.py": _CLI_AFTER},
        "Stop shadowing builtins",
    )
    text = entry_text(analysis)
    for name in ("`list`", "`set`", "`list_values`", "`set_value`"):
        assert name not in text
    # `unset`'s command is `remove-key` now: the command `unset` is gone, and said
    assert "`unset`" in text
    assert all(v is Verdict.TRUE for v in verdicts)


_RUN = '''\
import click


@click.command()
@click.argument("commandline", nargs=-1)
def run(commandline):
    """Run a command with the file's values."""
    click.echo(" ".join(commandline))
'''
_RUN_AFTER = _RUN.replace(
    "@click.command()", '@click.command(context_settings={"allow_interspersed_args": False})'
)


def test_a_bullet_its_author_marks_breaking_makes_the_change_breaking(tmp_path: Path) -> None:
    message = (
        "Make run forward flags to the given command (#60)\n\nChanges for users:\n\n"
        "- (BREAKING) Forward flags passed after `run` to the given\n"
        "  command instead of interpreting them.\n"
        "    - This means that `run ls --help` shows the help of `ls`.\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/envfile/__init__.py": "", "src/envfile/cli.py": _RUN},
        {"src/envfile/cli.py": _RUN_AFTER},
        message,
    )
    assert analysis.breaking and analysis.importance.value == "high"
    assert analysis.summary == (
        "Forward flags passed after `run` to the given command instead of interpreting them."
    )
    assert all(v is not Verdict.FALSE for v in verdicts)
    for i, said in enumerate(
        (
            "- breaking: flags after `run` go to the command",
            "* **BREAKING**: flags after `run` go to the command",
        )
    ):
        analysis, _ = checked_entry(
            tmp_path / f"marked{i}",
            {"src/envfile/__init__.py": "", "src/envfile/cli.py": _RUN},
            {"src/envfile/cli.py": _RUN_AFTER},
            f"Forward flags\n\n{said}\n",
        )
        assert analysis.breaking, said
    # the words that deny a break are no mark
    for i, said in enumerate(
        (
            "- non-breaking: flags after `run` go to the command",
            "No breaking changes.",
            "Not breaking: the flags were ignored before.",
            "Breaking changes: none",
            "- [ ] Breaking change: describe it",
            "Bumps a dependency.\n\n> - BREAKING: its own flags changed",
        )
    ):
        analysis, _ = checked_entry(
            tmp_path / f"denied{i}",
            {"src/envfile/__init__.py": "", "src/envfile/cli.py": _RUN},
            {"src/envfile/cli.py": _RUN_AFTER},
            f"Forward flags\n\n{said}\n",
        )
        assert not analysis.breaking, said


_MAKEFILE = """\
.PHONY: clean test sdist

clean:
\trm -rf build dist

sdist: clean
\tpython -m build -d dist .
\tls -l dist

test:
\tpytest tests/
"""
_RELEASE_YML = """\
name: Release
on:
  release:
    types: [created]
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
    - uses: actions/checkout@v4
    - name: Build and publish
      run: make release
"""
_PACKAGE = {
    "src/envfile/__init__.py": "",
    "src/envfile/main.py": "def load():\n    return 1\n",
}


def test_a_fix_confined_to_the_makefiles_dev_targets_is_low(tmp_path: Path) -> None:
    # the release workflow only re-indented: every runner reads the same workflow
    reindented = _RELEASE_YML.replace("    - ", "      - ").replace("      run:", "        run:")
    reindented = reindented.replace("      name: Build", "        name: Build")
    analysis, _ = checked_entry(
        tmp_path,
        {**_PACKAGE, "Makefile": _MAKEFILE, ".github/workflows/release.yml": _RELEASE_YML},
        {
            "Makefile": _MAKEFILE.replace("-d dist", "-o dist"),
            ".github/workflows/release.yml": reindented,
        },
        "Fix build command",
    )
    assert analysis.importance.value == "low"
    # a recipe that compiles is what a build runs
    compiled = _MAKEFILE + "\next:\n\t$(CC) -O2 -shared -o _speedups.so _speedups.c\n"
    analysis, _ = checked_entry(
        tmp_path / "cc",
        {**_PACKAGE, "Makefile": compiled},
        {"Makefile": compiled.replace("-O2", "-O3")},
        "Fix build command",
    )
    assert analysis.importance.value != "low"


_SETUP_CFG_TOOLS = """\
[bumpversion]
current_version = 1.2.0
commit = True

[bumpversion:file:src/envfile/version.py]

[flake8]
max-line-length = 120

[mypy]
check_untyped_defs = true

[tool:pytest]
testpaths = tests
"""


def test_tool_settings_moved_out_of_setup_cfg_are_low(tmp_path: Path) -> None:
    tools = '\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n\n[tool.mypy]\ncheck_untyped_defs = true\n'
    analysis, _ = checked_entry(
        tmp_path,
        {
            **_PACKAGE,
            "setup.cfg": _SETUP_CFG_TOOLS,
            "pyproject.toml": _PYPROJECT_AFTER,
            "Makefile": _MAKEFILE,
        },
        {
            "setup.cfg": None,
            "pyproject.toml": _PYPROJECT_AFTER + tools,
            ".bumpversion.cfg": "[bumpversion]\ncurrent_version = 1.2.0\n",
            "Makefile": _MAKEFILE.replace("test:\n", "fmt:\n\truff format src tests\n\ntest:\n"),
        },
        "Move more config pyproject.toml",
    )
    assert analysis.importance.value == "low"
    # a setup.cfg that held the package's metadata too is no dev tooling
    metadata = _SETUP_CFG_TOOLS + "\n[options]\ninstall_requires =\n    click>=8\n"
    _, commit = second_commit(
        tmp_path / "metadata",
        {**_PACKAGE, "setup.cfg": metadata},
        {"setup.cfg": None, "pyproject.toml": _PYPROJECT_AFTER + tools},
        "Move more config pyproject.toml",
    )
    gone = next(f for f in commit.files if f.filename == "setup.cfg")
    assert not dev_tooling(gone)
    _, commit = second_commit(
        tmp_path / "tools",
        {**_PACKAGE, "setup.cfg": _SETUP_CFG_TOOLS},
        {"setup.cfg": None},
        "Drop setup.cfg",
    )
    assert dev_tooling(next(f for f in commit.files if f.filename == "setup.cfg"))


_MAIN = '''\
import os


def load(path):
    """Load the file."""
    if _disabled():
        return False
    return os.path.exists(path)


def _disabled():
    return "ENVFILE_DISABLED" in os.environ
'''
# the helper moved to the top, a tab-indented continuation re-indented, a docstring line added
_MAIN_AFTER = '''\
import os


def _disabled():
    return "ENVFILE_DISABLED" in os.environ


def load(path):
    """Load the file.

    Set `ENVFILE_DISABLED` to skip loading.
    """
    if _disabled():
        return False
    return os.path.exists(
        path
    )
'''


def test_a_helper_moved_and_the_spacing_and_docs_updated_is_low(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {
            "src/envfile/__init__.py": "",
            "src/envfile/main.py": _MAIN,
            "CHANGELOG.md": "# Changes\n",
        },
        {
            "src/envfile/main.py": _MAIN_AFTER,
            "CHANGELOG.md": "# Changes\n\n- Document the switch.\n",
        },
        "Update spacing and docs",
    )
    assert analysis.importance.value == "low"
    # a call at import time pins the order: the helper defined after it was a NameError
    called = _MAIN + "\nSKIPPED = _disabled()\n"
    moved = _MAIN_AFTER.replace("def _disabled", "SKIPPED = _disabled()\n\n\ndef _disabled", 1)
    analysis, _ = checked_entry(
        tmp_path / "called",
        {"src/envfile/__init__.py": "", "src/envfile/main.py": called},
        {"src/envfile/main.py": moved},
        "Update spacing and docs",
    )
    assert analysis.importance.value != "low"
