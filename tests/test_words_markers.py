"""A requirement written once per environment (PEP 508 markers, issue 27): one name's lines
are compared marker by marker, so lines for some Pythons dropped and the marker taken off the
pin kept are no "was" (jmespath 2db39af: "Requires `pytest==6.2.5` (was `<5.0`)", where the
pin for Python >= 3.6 was `==6.2.5` already); and a root `requirements.txt` beside a
`setup.py` that requires nothing is the developers' own."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts import read_facts
from bot.analysis.facts.packaging import requires_nothing
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# jmespath's `setup.py`: no `install_requires`, no requirements file read
_SETUP = "from setuptools import setup\n\nsetup(name='jmespath', python_requires='>=3.7')\n"
_SETUP_REQUIRES = (
    "from setuptools import setup\n\nsetup(name='app', install_requires=['click>=8'])\n"
)
_MARKED = (
    "wheel==0.24.0\n"
    "pytest==6.2.5 ; python_version >= '3.6'\n"
    "pytest<5.0 ; python_version < '3.6'\n"
    "pytest-cov==3.0.0 ; python_version >= '3.6'\n"
    "pytest-cov<3.0.0 ; python_version < '3.6'\n"
)
_COLLAPSED = "wheel==0.24.0\npytest==6.2.5\npytest-cov==3.0.0\n"


def _pins(tmp_path: Path, before: str, after: str, setup: str = _SETUP) -> tuple[Path, str, str]:
    files = {"jmespath/__init__.py": "", "setup.py": setup, "requirements.txt": before}
    root, commit = second_commit(tmp_path, files, {"requirements.txt": after}, "Pins")
    return root, commit.sha, entry_text(analyze(commit))


def test_marker_lines_collapsed_into_the_pin_kept_are_no_new_requirement(tmp_path: Path) -> None:
    root, sha, text = _pins(tmp_path, _MARKED, _COLLAPSED)
    assert "pytest" not in text and "(was `<5.0`)" not in text and "(was `<3.0.0`)" not in text
    assert Verdict.FALSE not in [v for _, v in verdicts_of(root, sha, text)]


def test_the_checker_calls_the_old_sentence_false(tmp_path: Path) -> None:
    # the checker reads the files itself: `pytest==6.2.5` was written at the parent
    root, sha, _ = _pins(tmp_path, _MARKED, _COLLAPSED)
    said = "Requires `pytest==6.2.5` (was `<5.0`), `pytest-cov==3.0.0` (was `<3.0.0`)."
    assert verdicts_of(root, sha, said) == [
        (Kind.REQUIRES, Verdict.FALSE),
        (Kind.REQUIRES, Verdict.FALSE),
    ]


def test_a_pin_of_one_marker_is_compared_with_the_same_marker_s(tmp_path: Path) -> None:
    # the line for Python < 3.6 moves, with its marker quoted otherwise: `<5.0` → `<4.7`
    after = _MARKED.replace(
        "pytest<5.0 ; python_version < '3.6'", 'pytest<4.7; python_version<"3.6"'
    )
    files = {"app/__init__.py": "", "setup.py": _SETUP_REQUIRES, "requirements.txt": _MARKED}
    _, commit = second_commit(tmp_path, files, {"requirements.txt": after}, "Pins")
    pins = [(r.package, r.spec, r.old) for r in read_facts(commit).requirements]
    assert pins == [("pytest", "<4.7", "<5.0")]


def test_a_new_pin_with_no_line_of_its_marker_before_says_no_old_one(tmp_path: Path) -> None:
    # `pytest==7.0` for every Python: neither old line is for every Python, and none is
    # `==7.0`: it is said without a "was", and the checker finds it new
    after = _COLLAPSED.replace("pytest==6.2.5", "pytest==7.0")
    root, sha, text = _pins(tmp_path, _MARKED, after, setup=_SETUP_REQUIRES)
    assert "`pytest==7.0`" in text and "(was `<5.0`)" not in text and "(was `==6.2.5`)" not in text
    assert "pytest-cov" not in text
    assert (Kind.REQUIRES, Verdict.TRUE) in verdicts_of(root, sha, "Requires `pytest==7.0`.")


def test_pins_without_markers_are_compared_as_before(tmp_path: Path) -> None:
    files = {"app/__init__.py": "", "setup.py": _SETUP_REQUIRES, "requirements.txt": "a==1\n"}
    _, commit = second_commit(tmp_path, files, {"requirements.txt": "a==2\n"}, "Bump a")
    assert [(r.spec, r.old) for r in read_facts(commit).requirements] == [("==2", "==1")]


def test_a_root_requirements_file_beside_a_setup_that_requires_nothing_is_the_tools(
    tmp_path: Path,
) -> None:
    files = {"jmespath/__init__.py": "", "setup.py": _SETUP, "requirements.txt": "pytest==6.2.5\n"}
    _, commit = second_commit(tmp_path, files, {"requirements.txt": "pytest==7.0\n"}, "Bump")
    assert [(r.package, r.tools) for r in read_facts(commit).requirements] == [("pytest", True)]
    assert "Requires `pytest" not in entry_text(analyze(commit))


@pytest.mark.parametrize(
    ("setup_py", "pyproject", "expected"),
    [
        (_SETUP, None, True),
        (_SETUP_REQUIRES, None, False),
        # a file read for them, or keywords passed on that may hold them
        (
            "from setuptools import setup\nsetup(name='a', **reqs('requirements.txt'))\n",
            None,
            False,
        ),
        ("from setuptools import setup\nsetup(name='a', **kwargs)\n", None, False),
        # a pyproject.toml may declare them; a setup.py that does not parse says nothing
        (_SETUP, "[project]\nname = 'a'\n", False),
        ("setup(", None, False),
        (None, None, False),
    ],
)
def test_requires_nothing(setup_py: str | None, pyproject: str | None, expected: bool) -> None:
    assert requires_nothing(setup_py, pyproject) is expected


def test_the_checker_reads_the_old_pin_of_the_same_marker_only(tmp_path: Path) -> None:
    # `pytest==7.0` for every Python is new, but no line of the parent was for every Python:
    # "(was `<5.0`)" pairs it with the line for Python < 3.6, which is false
    after = _COLLAPSED.replace("pytest==6.2.5", "pytest==7.0")
    root, sha, _ = _pins(tmp_path, _MARKED, after, setup=_SETUP_REQUIRES)
    assert verdicts_of(root, sha, "Requires `pytest==7.0` (was `<5.0`).") == [
        (Kind.REQUIRES, Verdict.FALSE)
    ]


def test_the_checker_holds_an_old_pin_of_the_same_marker(tmp_path: Path) -> None:
    after = _MARKED.replace(
        "pytest<5.0 ; python_version < '3.6'", 'pytest<4.7; python_version<"3.6"'
    )
    root, sha, _ = _pins(tmp_path, _MARKED, after, setup=_SETUP_REQUIRES)
    assert verdicts_of(root, sha, "Requires `pytest<4.7` (was `<5.0`).") == [
        (Kind.REQUIRES, Verdict.TRUE)
    ]
    # the other environments' pin is not what it was
    assert verdicts_of(root, sha, "Requires `pytest<4.7` (was `==6.2.5`).") == [
        (Kind.REQUIRES, Verdict.FALSE)
    ]
    # and without markers the one old pin is the one compared
    root2 = tmp_path / "b"
    root2.mkdir()
    files = {"app/__init__.py": "", "setup.py": _SETUP_REQUIRES, "requirements.txt": "a==1\n"}
    root2, commit = second_commit(root2, files, {"requirements.txt": "a==2\n"}, "Bump a")
    assert verdicts_of(root2, commit.sha, "Requires `a==2` (was `==1`).") == [
        (Kind.REQUIRES, Verdict.TRUE)
    ]
    assert verdicts_of(root2, commit.sha, "Requires `a==2` (was `==0`).") == [
        (Kind.REQUIRES, Verdict.FALSE)
    ]
