"""Packaging metadata said from pyproject.toml and setup.cfg read whole, and checked."""

from __future__ import annotations

from pathlib import Path

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.models import Analysis, Importance
from tests.clones import checked_entry, second_commit, verdicts_of

# httpcore 12834e3 ("Version 1.0"): `anyio` leaves the dependencies for a new extra
_HTTPCORE_BEFORE = """\
[build-system]
requires = ["hatchling", "hatch-fancy-pypi-readme"]
build-backend = "hatchling.build"

[project]
name = "httpcore"
dynamic = ["readme", "version"]
description = "A minimal low-level HTTP client."
requires-python = ">=3.8"
dependencies = [
    "anyio>=3.0,<5.0",
    "certifi",
    "h11>=0.13,<0.15",
    "sniffio==1.*",
]

[project.optional-dependencies]
http2 = [
    "h2>=3,<5",
]
socks = [
    "socksio==1.*",
]

[project.urls]
Documentation = "https://www.encode.io/httpcore"
"""
_HTTPCORE_AFTER = (
    _HTTPCORE_BEFORE.replace('    "anyio>=3.0,<5.0",\n', "")
    .replace('    "sniffio==1.*",\n', "")
    .replace(
        '    "socksio==1.*",\n]\n',
        '    "socksio==1.*",\n]\ntrio = [\n    "trio>=0.22.0,<0.23.0",\n]\n'
        'asyncio = [\n    "anyio>=4.0,<5.0",\n]\n',
    )
)

# pluggy 6c9d274e ("Add uv dependency management and dev tooling"): the extras become
# dependency groups, which `pip install pluggy[testing]` does not see
_PLUGGY_BEFORE = """\
[build-system]
requires = [
  "setuptools>=65.0",
  "setuptools-scm[toml]>=8.0",
]
build-backend = "setuptools.build_meta"

[project]
name = "pluggy"
license = {text = "MIT"}
description = "plugin and hook calling mechanisms for python"
requires-python = ">=3.9"

dynamic = ["version"]
[project.optional-dependencies]
dev = ["pre-commit", "tox"]
testing = ["pytest", "pytest-benchmark", "coverage"]

[tool.setuptools]
packages = ["pluggy"]
"""
_PLUGGY_AFTER = _PLUGGY_BEFORE.replace(
    "[project.optional-dependencies]", "[dependency-groups]"
).replace(
    'packages = ["pluggy"]\n',
    'packages = ["pluggy"]\n\n[tool.uv]\ndefault-groups = ["dev", "testing"]\n',
)

# pluggy's setup.cfg of 2021 (1424ab0a), given a pytest plugin and a command
_SETUP_CFG = """\
[bdist_wheel]
universal=1

[metadata]
name = pluggy
description = plugin and hook calling mechanisms for python
license = MIT

[options]
packages =
    pluggy
install_requires =
    importlib-metadata>=0.12;python_version<"3.8"
python_requires = >=3.6
package_dir =
    =src
[options.extras_require]
dev =
    pre-commit
    tox
testing =
    pytest
    pytest-benchmark
"""
_ENTRY_POINTS = """\
[options.entry_points]
console_scripts =
    pluggy-trace = pluggy._tracing:main
pytest11 =
    pluggy_helpers = pluggy._pytest_plugin
"""


def _text(analysis: Analysis) -> str:
    return entry_text(analysis)


def test_new_extras_are_said_with_their_requirements_and_not_as_the_packages_own(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": _HTTPCORE_BEFORE},
        {"pyproject.toml": _HTTPCORE_AFTER},
        "Version 1.0 (#809)",
    )
    text = _text(analysis)
    assert "Adds the extras `trio` (`trio>=0.22.0,<0.23.0`), `asyncio` (`anyio>=4.0,<5.0`)." in text
    # `anyio` is the new extra's, no longer the package's requirement
    assert "Requires `anyio" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_developers_extras_removed_are_gone_from_installs_but_break_no_user(
    tmp_path: Path,
) -> None:
    """The `[project.optional-dependencies]` table dropped whole: `dev` and `testing` are the
    developers' own extras (issue 27: not breaking unless documented for users), so medium,
    said with what `pip install pluggy[dev]` no longer installs."""
    gone = _PLUGGY_BEFORE.replace(
        '[project.optional-dependencies]\ndev = ["pre-commit", "tox"]\n'
        'testing = ["pytest", "pytest-benchmark", "coverage"]\n',
        "",
    )
    assert gone != _PLUGGY_BEFORE
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": _PLUGGY_BEFORE},
        {"pyproject.toml": gone},
        "Drop the dev extras",
    )
    text = entry_text(analysis)
    assert "Removes the extras `dev`, `testing`." in text
    assert "`pip install pluggy[dev]` no longer installs `pre-commit`, `tox`" in text
    assert not analysis.risks
    assert not analysis.breaking
    assert analysis.importance is Importance.MEDIUM
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_users_extra_removed_is_a_risk_for_installs_that_name_it(tmp_path: Path) -> None:
    before = _PLUGGY_BEFORE.replace('dev = ["pre-commit", "tox"]', 'cli = ["click"]')
    gone = before.replace('cli = ["click"]\n', "")
    analysis, verdicts = checked_entry(
        tmp_path, {"pyproject.toml": before}, {"pyproject.toml": gone}, "Drop the cli extra"
    )
    risks = [r for r in analysis.risks if "extra" in r.description]
    assert [r.description for r in risks] == ["Removes the extra `cli`."]
    assert (
        risks[0].consequence
        == "`pip install pluggy[cli]` no longer installs `click` (pip only warns)."
    )
    assert analysis.breaking
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_extras_made_dependency_groups_are_gone_from_the_published_metadata(
    tmp_path: Path,
) -> None:
    # pluggy ddb06db "Add uv dependency management and dev tooling", stamina 0c4e625 and
    # structlog d887c003 "Use dependency groups": each extra became a PEP 735 group of its
    # name, which no published metadata carries; the entries were ⚠️ breaking for "Removes
    # the extras `dev`, `testing`", then said nothing of the installs (a reader: "the extras
    # `pluggy[dev]`/`pluggy[testing]` are gone from published metadata")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": _PLUGGY_BEFORE},
        {"pyproject.toml": _PLUGGY_AFTER},
        "Add uv dependency management and dev tooling",
    )
    text = entry_text(analysis)
    assert (
        "Moves the extras `dev`, `testing` to the dependency groups of their names: they are"
        " gone from the published metadata." in text
    )
    assert "`pip install pluggy[dev]` no longer installs `pre-commit`, `tox`" in text
    assert not [r for r in analysis.risks if "extras" in r.description]
    assert not analysis.breaking
    assert analysis.importance is Importance.MEDIUM
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_setup_cfg_entry_points_added_and_removed(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"setup.cfg": _SETUP_CFG},
        {"setup.cfg": _SETUP_CFG + _ENTRY_POINTS},
        "Ship a tracing command and the pytest helpers",
    )
    # a command before a plugin: what users run first
    assert analysis.summary == "Adds the command `pluggy-trace` (`pluggy._tracing:main`)."
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    plugin = _ENTRY_POINTS.replace(
        "console_scripts =\n    pluggy-trace = pluggy._tracing:main\n", ""
    )
    analysis, verdicts = checked_entry(
        tmp_path / "plugin", {"setup.cfg": _SETUP_CFG}, {"setup.cfg": _SETUP_CFG + plugin}, "Plugin"
    )
    assert analysis.summary == (
        "Adds the `pytest11` entry point `pluggy_helpers` (`pluggy._pytest_plugin`)."
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    removed, verdicts = checked_entry(
        tmp_path / "again",
        {"setup.cfg": _SETUP_CFG + _ENTRY_POINTS},
        {"setup.cfg": _SETUP_CFG},
        "Drop the tracing command",
    )
    risk = next(r for r in removed.risks if "command" in r.description)
    assert risk.description == "Removes the command `pluggy-trace`."
    assert risk.consequence == "Scripts that run `pluggy-trace` fail after upgrading."
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_new_build_backend_is_said_by_what_building_needs(tmp_path: Path) -> None:
    after = _PLUGGY_BEFORE.replace(
        '"setuptools>=65.0",\n  "setuptools-scm[toml]>=8.0",', '"hatchling"'
    ).replace('"setuptools.build_meta"', '"hatchling.build"')
    analysis, verdicts = checked_entry(
        tmp_path, {"pyproject.toml": _PLUGGY_BEFORE}, {"pyproject.toml": after}, "Move to Hatch"
    )
    # what whoever builds from the sdist must have is the news; the backend's module says less
    assert _text(analysis) == (
        "Building from the sdist now needs `hatchling` (was `setuptools`, `setuptools-scm`)."
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_metadata_moved_out_of_setup_py_is_no_new_extra(tmp_path: Path) -> None:
    """pluggy 9f38f39f moved its metadata from setup.py to setup.cfg: the extras were
    there before, in code that is not read."""
    setup_py = (
        "from setuptools import setup\n\nsetup(\n    name='pluggy',\n"
        "    extras_require={'dev': ['pre-commit', 'tox'], 'testing': ['pytest']},\n)\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"setup.py": setup_py, "setup.cfg": "[bdist_wheel]\nuniversal=1\n"},
        {"setup.py": "from setuptools import setup\n\nsetup()\n", "setup.cfg": _SETUP_CFG},
        "Move metadata from setup.py to setup.cfg",
    )
    assert "extra" not in _text(analysis)


def test_the_checker_reads_the_formats_rules(tmp_path: Path) -> None:
    """An extra the parent had, an extra named with other requirements, and a command
    written in another group are false; extras compare by PEP 685's normal form."""
    root, commit = second_commit(
        tmp_path,
        {"pyproject.toml": _HTTPCORE_BEFORE},
        {"pyproject.toml": _HTTPCORE_AFTER.replace("asyncio = [", "AsyncIO = [")},
        "Version 1.0 (#809)",
    )
    said = (
        "Adds the extra `socks`. Adds the extra `trio` (`trio>=0.23`). "
        "Adds the extra `asyncio` (`anyio >= 4.0, < 5.0`). Adds the command `trio`. "
        "Removes the extra `http2`. Changes the build backend from `a` to `hatchling.build`."
    )
    assert verdicts_of(root, commit.sha, said) == [
        (Kind.EXTRA_NEW, Verdict.FALSE),
        (Kind.EXTRA_NEW, Verdict.FALSE),
        (Kind.EXTRA_NEW, Verdict.TRUE),
        (Kind.COMMAND_NEW, Verdict.FALSE),
        (Kind.EXTRA_GONE, Verdict.FALSE),
        (Kind.BACKEND, Verdict.FALSE),
    ]


def test_extras_left_to_setup_py_or_dynamic_are_unverifiable(tmp_path: Path) -> None:
    """PEP 621's `dynamic` hands the field to the backend (setup.py here): whether the
    parent had the extra is not read from any file."""
    before = _HTTPCORE_BEFORE.replace(
        'dynamic = ["readme", "version"]',
        'dynamic = ["readme", "version", "optional-dependencies"]',
    )
    root, commit = second_commit(
        tmp_path,
        {"pyproject.toml": before, "setup.py": "from setuptools import setup\nsetup()\n"},
        {"pyproject.toml": _HTTPCORE_AFTER, "setup.py": "from setuptools import setup\nsetup()\n"},
        "Declare the extras statically",
    )
    assert verdicts_of(root, commit.sha, "Adds the extra `trio`. Removes the extra `brotli`.") == [
        (Kind.EXTRA_NEW, Verdict.UNVERIFIABLE),
        (Kind.EXTRA_GONE, Verdict.UNVERIFIABLE),
    ]


def test_a_backend_change_beside_setup_py_is_said_without_its_extras(tmp_path: Path) -> None:
    """attrs d4934b14 ("switch to 100% static packaging configuration"): setup.py goes, the
    extras arrive in pyproject.toml (they were setup.py's), and Hatch replaces setuptools;
    `[build-system]` is the one table setup.py had no say in."""
    before = '[build-system]\nrequires = ["setuptools>=40.6.0", "wheel"]\nbuild-backend = "setuptools.build_meta"\n\n[tool.black]\nline-length = 79\n'
    after = (
        '[build-system]\nrequires = ["hatchling", "hatch-vcs"]\nbuild-backend = "hatchling.build"\n\n'
        '[project]\nname = "attrs"\ndynamic = ["version"]\n\n[project.optional-dependencies]\n'
        'tests = ["attrs[tests-no-zope]", "zope.interface"]\n\n[tool.black]\nline-length = 79\n'
    )
    # (attrs computed its extras: `EXTRAS_REQUIRE`, not read)
    setup_py = "import setuptools\n\nEXTRAS_REQUIRE = {'tests': ['zope.interface']}\nsetuptools.setup(name='attrs', extras_require=EXTRAS_REQUIRE)\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": before, "setup.py": setup_py},
        {"pyproject.toml": after, "setup.py": None},
        "Drop 3.6 & switch to 100% static packaging configuration (#993)",
    )
    text = _text(analysis)
    assert "Changes the build backend from `setuptools.build_meta` to `hatchling.build`." in text
    assert "extra" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


# python-dotenv's setup.py (b8fa111 "Optional cli (#99)" to 8b4e13d): the extra `cli`
_DOTENV_SETUP = """\
from setuptools import setup

setup(
    name="python-dotenv",
    package_dir={"": "src"},
    packages=["dotenv"],
    extras_require={
        "cli": [
            "click>=5.0",
        ],
    },
    entry_points={"console_scripts": ["dotenv=dotenv.__main__:cli"]},
)
"""


def test_an_extras_pin_bumped_in_place_is_said_and_checked(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"setup.py": _DOTENV_SETUP},
        {"setup.py": _DOTENV_SETUP.replace("click>=5.0", "click>=8.0")},
        "Require click 8 for the CLI",
    )
    text = _text(analysis)
    assert "The extra `cli` now requires `click>=8.0` (was `click>=5.0`)." in text
    assert "Requires `click" not in text
    assert analysis.importance.value != "high"
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_an_extras_requirement_gained_or_dropped_is_said_and_checked(tmp_path: Path) -> None:
    gained = _DOTENV_SETUP.replace('"click>=5.0",', '"click>=5.0",\n            "rich",')
    analysis, verdicts = checked_entry(
        tmp_path / "gained", {"setup.py": _DOTENV_SETUP}, {"setup.py": gained}, "Use rich"
    )
    assert "The extra `cli` now also requires `rich`." in _text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    analysis, verdicts = checked_entry(
        tmp_path / "dropped", {"setup.py": gained}, {"setup.py": _DOTENV_SETUP}, "Drop rich"
    )
    assert "The extra `cli` no longer requires `rich`." in _text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_an_extra_added_in_setup_py_is_said_and_checked(tmp_path: Path) -> None:
    """python-dotenv b8fa111 "Optional cli": `click` leaves `install_requires` for `cli`."""
    before = _DOTENV_SETUP.replace(
        'extras_require={\n        "cli": [\n            "click>=5.0",\n        ],\n    },',
        'install_requires=["click>=5.0"],',
    )
    analysis, verdicts = checked_entry(
        tmp_path, {"setup.py": before}, {"setup.py": _DOTENV_SETUP}, "Optional cli (#99)"
    )
    assert "Adds the extra `cli` (`click>=5.0`)." in _text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_extras_moved_from_setup_py_to_pyproject_say_only_what_differs(tmp_path: Path) -> None:
    """python-dotenv 8b4e13d moved its metadata to pyproject.toml, `cli` as it was; a pin
    moved on the way is what differs."""
    pyproject = (
        '[project]\nname = "python-dotenv"\ndynamic = ["version"]\n\n'
        '[project.optional-dependencies]\ncli = [\n    "click>=5.0",\n]\n'
    )
    analysis, _ = checked_entry(
        tmp_path / "same",
        {"setup.py": _DOTENV_SETUP, "pyproject.toml": "[tool.black]\nline-length = 88\n"},
        {"setup.py": None, "pyproject.toml": pyproject},
        "Move project metadata and config to pyproject.toml (#583)",
    )
    assert "extra" not in _text(analysis)
    analysis, verdicts = checked_entry(
        tmp_path / "bumped",
        {"setup.py": _DOTENV_SETUP, "pyproject.toml": "[tool.black]\nline-length = 88\n"},
        {"setup.py": None, "pyproject.toml": pyproject.replace("click>=5.0", "click>=8.0")},
        "Move project metadata and config to pyproject.toml (#583)",
    )
    text = _text(analysis)
    assert "The extra `cli` now requires `click>=8.0` (was `click>=5.0`)." in text
    assert "Adds the extra" not in text and "Removes the extra" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_pyproject_extras_pin_is_said_and_checked(tmp_path: Path) -> None:
    """prettytable 696a30d "Temporarily pin pytest<8": the extra `tests` pins `pytest`."""
    before = (
        '[project]\nname = "prettytable"\ndynamic = ["version"]\ndependencies = ["wcwidth"]\n'
        '[project.optional-dependencies]\ntests = [\n  "pytest",\n  "pytest-cov",\n]\n'
    )
    after = before.replace('  "pytest",\n', '  # pytest-lazy-fixture#65\n  "pytest<8",\n')
    analysis, verdicts = checked_entry(
        tmp_path, {"pyproject.toml": before}, {"pyproject.toml": after}, "Pin pytest<8"
    )
    assert "The extra `tests` now requires `pytest<8` (was `pytest`)." in _text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_reads_an_extras_pins_by_the_formats_rules(tmp_path: Path) -> None:
    """A pin the extra had before, one it never had, an extra of another project and a
    requirement whose package the other side names are false; a `setup.py` computing its
    extras is unverifiable."""
    root, commit = second_commit(
        tmp_path / "literal",
        {"setup.py": _DOTENV_SETUP},
        {"setup.py": _DOTENV_SETUP.replace("click>=5.0", "Click >= 8.0")},
        "Require click 8",
    )
    said = (
        "The extra `cli` now requires `click>=8.0` (was `click>=5.0`). "
        "The extra `CLI` now requires `click>=8.0` (was `click>=4.0`). "
        "The extra `cli` now requires `click>=9.0` (was `click>=5.0`). "
        "The extra `docs` now requires `click>=8.0` (was `click>=5.0`). "
        "The extra `cli` now also requires `click>=8.0`. "
        "The extra `cli` no longer requires `click>=5.0`."
    )
    assert verdicts_of(root, commit.sha, said) == [
        (Kind.EXTRA_PIN, Verdict.TRUE),
        (Kind.EXTRA_PIN, Verdict.FALSE),
        (Kind.EXTRA_PIN, Verdict.FALSE),
        (Kind.EXTRA_PIN, Verdict.FALSE),
        (Kind.EXTRA_REQUIRES_NEW, Verdict.FALSE),
        (Kind.EXTRA_REQUIRES_GONE, Verdict.FALSE),
    ]
    computed = "EXTRAS = {'cli': ['click>=5.0']}\n\nsetup(extras_require=EXTRAS)\n"
    root, commit = second_commit(
        tmp_path / "computed",
        {"setup.py": computed},
        {"setup.py": computed.replace("5.0", "8.0")},
        "Require click 8",
    )
    said = "The extra `cli` now requires `click>=8.0` (was `click>=5.0`)."
    assert verdicts_of(root, commit.sha, said) == [(Kind.EXTRA_PIN, Verdict.UNVERIFIABLE)]
