"""A build backend switched is said by what building from the sdist now needs (issue 27), and
the claims checker reads `[build-system] requires` at both revisions to verify it."""

from __future__ import annotations

from pathlib import Path

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from tests.clones import checked_entry, second_commit, verdicts_of

# python-tabulate 6050bef ("setuptools → flit"): its `[build-system]` at both revisions
_PYPROJECT = (
    "[build-system]\n"
    "requires = [{requires}]\n"
    'build-backend = "{backend}"\n\n'
    '[project]\nname = "tabulate"\nrequires-python = ">=3.10"\ndynamic = ["version"]\n'
)
_SETUPTOOLS = _PYPROJECT.format(
    requires='"setuptools>=77.0.3", "setuptools_scm[toml]>=3.4.3"',
    backend="setuptools.build_meta",
)
_FLIT = _PYPROJECT.format(requires='"flit>=3.12", "flit_scm"', backend="flit_scm:buildapi")
_CODE = {"tabulate/__init__.py": "def tabulate(rows):\n    return rows\n"}


def test_a_backend_switch_says_what_building_from_the_sdist_needs(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": _SETUPTOOLS, **_CODE},
        {"pyproject.toml": _FLIT},
        "setuptools → flit",
    )
    assert analysis.summary == (
        "Building from the sdist now needs `flit`, `flit_scm` (was `setuptools`, `setuptools_scm`)."
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_same_build_requirements_under_another_backend_say_the_backend(
    tmp_path: Path,
) -> None:
    """`setuptools.build_meta` → `setuptools.build_meta:__legacy__`: the same requirements."""
    legacy = _SETUPTOOLS.replace("setuptools.build_meta", "setuptools.build_meta:__legacy__")
    analysis, verdicts = checked_entry(
        tmp_path, {"pyproject.toml": _SETUPTOOLS, **_CODE}, {"pyproject.toml": legacy}, "legacy"
    )
    assert analysis.summary == (
        "Changes the build backend from `setuptools.build_meta` to "
        "`setuptools.build_meta:__legacy__`."
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_finds_build_needs_the_requirements_do_not_say(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path, {"pyproject.toml": _SETUPTOOLS, **_CODE}, {"pyproject.toml": _FLIT}, "flit"
    )
    wrong_new = (
        "Building from the sdist now needs `hatchling` (was `setuptools`, `setuptools_scm`)."
    )
    wrong_old = "Building from the sdist now needs `flit`, `flit_scm` (was `setuptools`)."
    # (PEP 503 names: `flit-scm` is `flit_scm`)
    right = (
        "Building from the sdist now needs `flit`, `flit-scm` (was `setuptools`, `setuptools-scm`)."
    )
    assert verdicts_of(root, commit.sha, wrong_new) == [(Kind.BUILD_NEEDS, Verdict.FALSE)]
    assert verdicts_of(root, commit.sha, wrong_old) == [(Kind.BUILD_NEEDS, Verdict.FALSE)]
    assert verdicts_of(root, commit.sha, right) == [(Kind.BUILD_NEEDS, Verdict.TRUE)]
