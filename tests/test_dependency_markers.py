"""A runtime dependency is said with the installs its environment marker picks: bidict
3032e9f's `typing_extensions>=4.0; python_version<'3.11'` is installed on Python < 3.11 only,
and is the package's first (its `dependencies` had been `[]`), where the entry said
"Requires `typing_extensions>=4.0`"; db0a9b5 widened the marker to `<'3.12'` and the entry
said nothing of it. Each installs-on sentence is checked against PEP 508 itself (`packaging`
evaluates the marker)."""

from __future__ import annotations

from pathlib import Path

from packaging.requirements import Requirement

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Analysis
from tests.clones import second_commit, verdicts_of

_PYPROJECT = """[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "bidict"
description = "The bidirectional mapping library for Python."
license = "MPL-2.0"
{dependencies}
requires-python = ">=3.10"
dynamic = [{dynamic}]

[dependency-groups]
test = ["pytest>=8"]
"""
_CODE = {"bidict/__init__.py": "from ._base import BidictBase\n"}


def _pyproject(*requirements: str, dynamic: str = '"version"') -> str:
    listed = "".join(f'  "{r}",\n' for r in requirements)
    dependencies = f"dependencies = [\n{listed}]" if requirements else "dependencies = []"
    return _PYPROJECT.format(dependencies=dependencies, dynamic=dynamic)


def _entry(tmp_path: Path, before: str, after: str, title: str) -> tuple[Analysis, str, bool]:
    """The rules' entry for a commit that changes `pyproject.toml` from `before` to `after`,
    its text, and whether the claims checker finds every claim of it true."""
    root, commit = second_commit(
        tmp_path,
        {**_CODE, "pyproject.toml": before},
        {"pyproject.toml": after},
        title,
    )
    analysis = analyze(commit)
    text = entry_text(analysis)
    return analysis, text, all(v is Verdict.TRUE for _, v in verdicts_of(root, commit.sha, text))


def _installed_on(requirement: str, python: str) -> bool:
    marker = Requirement(requirement).marker
    return marker is None or marker.evaluate({"python_version": python})


def test_a_first_dependency_for_old_pythons_is_said_with_them(tmp_path: Path) -> None:
    pin = "typing_extensions>=4.0; python_version<'3.11'"
    assert _installed_on(pin, "3.10") and not _installed_on(pin, "3.11")
    _, text, true = _entry(tmp_path, _pyproject(), _pyproject(pin), "Use Self type")
    assert (
        "Installing on Python < 3.11 now also installs `typing_extensions>=4.0`,"
        " the package's first runtime dependency."
    ) in text
    # never as every install's requirement
    assert "Requires `typing_extensions>=4.0`" not in text
    assert true


def test_a_marker_widened_is_said_with_what_it_was(tmp_path: Path) -> None:
    old = "typing_extensions>=4.0; python_version<'3.11'"
    new = "typing_extensions>=4.0; python_version<'3.12'"
    assert not _installed_on(old, "3.11") and _installed_on(new, "3.11")
    _, text, true = _entry(tmp_path, _pyproject(old), _pyproject(new), "Use `@override`")
    assert "`typing_extensions` is now required on Python < 3.12 (was < 3.11)." in text
    assert true


def test_a_marker_dropped_says_every_install_gets_it(tmp_path: Path) -> None:
    old = "typing_extensions>=4.7.0; python_version<'3.9'"
    new = "typing_extensions>=4.7.0"
    _, text, _ = _entry(tmp_path, _pyproject(old), _pyproject(new), "Always require it")
    assert "`typing_extensions` is now required on every install (was on Python < 3.9)." in text


def test_another_dependency_beside_one_is_not_the_first(tmp_path: Path) -> None:
    kept = "attrs>=23"
    pin = "exceptiongroup>=1.2; python_version<'3.11'"
    _, text, true = _entry(tmp_path, _pyproject(kept), _pyproject(kept, pin), "Use ExceptionGroup")
    assert "Installing on Python < 3.11 now also installs `exceptiongroup>=1.2`." in text
    assert "first runtime dependency" not in text
    assert true


def test_a_marker_on_the_platform_is_quoted(tmp_path: Path) -> None:
    kept = "attrs>=23"
    pin = "pywin32>=306; sys_platform == 'win32'"
    _, text, _ = _entry(tmp_path, _pyproject(kept), _pyproject(kept, pin), "Lock files on Windows")
    assert 'Installing where `sys_platform == "win32"` now also installs `pywin32>=306`.' in text


def test_a_dependency_without_a_marker_beside_others_reads_as_before(tmp_path: Path) -> None:
    kept = "attrs>=23"
    _, text, true = _entry(tmp_path, _pyproject(kept), _pyproject(kept, "idna>=3"), "Use idna")
    assert "Requires `idna>=3`." in text
    assert "Installing" not in text and "first runtime dependency" not in text
    assert true


def test_dependencies_another_file_declares_say_nothing_of_markers(tmp_path: Path) -> None:
    # `dynamic` dependencies are written elsewhere (a `setup.py`): none read here is the first
    pin = "typing_extensions>=4.0; python_version<'3.11'"
    before = _pyproject(dynamic='"version", "dependencies"').replace("dependencies = []\n", "")
    after = _pyproject(pin)
    _, text, _ = _entry(tmp_path, before, after, "Move dependencies")
    assert "first runtime dependency" not in text
