"""The claims checker's rules for a literal returned where another was (its own AST walk, one
call followed), for an extra setup.py declares by name (a list bound to it, or a requirements
file it reads), and the analyser's heading titles that end in a code span."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# pathspec 92a9066's shape: `PathSpec.match_file` returns what its class's `_match_file`
# (a `staticmethod` of a helper in `util.py`) returns; the helper started from `False` and now
# hands back a pair whose first item starts from `None`
UTIL = (
    "def match_file(patterns, file):\n"
    "    matched = False\n"
    "    for pattern in patterns:\n"
    "        if pattern.include is not None and pattern.match_file(file) is not None:\n"
    "            matched = pattern.include\n"
    "    return matched\n"
)
UTIL_AFTER = UTIL + (
    "\n\ndef check_match_file(patterns, file):\n"
    "    out_include = None\n"
    "    out_index = None\n"
    "    for index, pattern in patterns:\n"
    "        if pattern.include is not None and pattern.match_file(file) is not None:\n"
    "            out_include = pattern.include\n"
    "            out_index = index\n"
    "    return out_include, out_index\n"
)
SPEC = (
    "from . import util\n"
    "from .util import match_file\n\n\n"
    "class PathSpec(object):\n"
    "    _match_file = staticmethod(match_file)\n\n"
    "    def match_file(self, file):\n"
    "        return self._match_file(self.patterns, file)\n"
)
SPEC_AFTER = (
    "from . import util\n\n\n"
    "class PathSpec(object):\n"
    "    _match_file = staticmethod(util.check_match_file)\n\n"
    "    def match_file(self, file):\n"
    "        include, _index = self._match_file(enumerate(self.patterns), file)\n"
    "        return include\n"
)


def _pathspec(tmp_path: Path, util_after: str, spec_after: str) -> tuple[Path, str]:
    root, commit = second_commit(
        tmp_path,
        {"pathspec/__init__.py": "", "pathspec/util.py": UTIL, "pathspec/pathspec.py": SPEC},
        {"pathspec/util.py": util_after, "pathspec/pathspec.py": spec_after},
        "Improve debugging",
    )
    return root, commit.sha


@pytest.mark.parametrize(
    ("said", "verdict"),
    [
        ("`PathSpec.match_file` now returns `None` where it returned `False`.", Verdict.TRUE),
        # `True` may be `pattern.include`, which the walk does not read: never true
        (
            "`PathSpec.match_file` now returns `True` where it returned `False`.",
            Verdict.UNVERIFIABLE,
        ),
        # a case named that is no test of the function nor of the helper followed
        (
            "`PathSpec.match_file` now returns `None` where it returned `False` (when `x`).",
            Verdict.UNVERIFIABLE,
        ),
    ],
)
def test_a_literal_returned_through_one_call_is_checked(
    tmp_path: Path, said: str, verdict: Verdict
) -> None:
    root, sha = _pathspec(tmp_path, UTIL_AFTER, SPEC_AFTER)
    assert verdicts_of(root, sha, said) == [(Kind.RETURNS_WHERE, verdict)]


def test_a_literal_still_returned_makes_the_claim_false(tmp_path: Path) -> None:
    # the new helper starts from `False` as the old one did: nothing returns `None`, and
    # `False` is still written
    root, sha = _pathspec(
        tmp_path, UTIL_AFTER.replace("out_include = None", "out_include = False"), SPEC_AFTER
    )
    said = "`PathSpec.match_file` now returns `None` where it returned `False`."
    assert verdicts_of(root, sha, said) == [(Kind.RETURNS_WHERE, Verdict.FALSE)]


def test_a_value_two_calls_deep_is_unverifiable(tmp_path: Path) -> None:
    # the helper hands on what a third function returns: more than the one call followed
    deeper = (
        UTIL_AFTER + "\n\ndef relay(patterns, file):\n    return check_match_file(patterns, file)\n"
    )
    root, sha = _pathspec(
        tmp_path, deeper, SPEC_AFTER.replace("util.check_match_file", "util.relay")
    )
    said = "`PathSpec.match_file` now returns `None` where it returned `False`."
    assert verdicts_of(root, sha, said) == [(Kind.RETURNS_WHERE, Verdict.UNVERIFIABLE)]


def test_the_analysers_sentence_on_a_plain_function_is_true(tmp_path: Path) -> None:
    before = "def is_ignored(path, rules):\n    if not path:\n        return False\n    return 1\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"ignore/__init__.py": "", "ignore/rules.py": before},
        {"ignore/rules.py": before.replace("return False", "return")},
        "Tidy the empty path case",
    )
    assert "now returns `None` where it returned `False` (when `not path`)" in str(analysis)
    assert Verdict.FALSE not in verdicts and Verdict.TRUE in verdicts
    # every value of it is written out: a literal it never returns is read as not returned
    root, commit = second_commit(
        tmp_path / "plain",
        {"ignore/rules.py": before},
        {"ignore/rules.py": before.replace("return False", "return")},
        "Tidy",
    )
    for said, verdict in (
        ("`is_ignored` now returns `[]` where it returned `False`.", Verdict.FALSE),
        ("`is_ignored` now returns `None` where it returned `0`.", Verdict.FALSE),
        ("`is_ignored` now returns `None` where it returned `False`.", Verdict.TRUE),
    ):
        assert verdicts_of(root, commit.sha, said) == [(Kind.RETURNS_WHERE, verdict)]


# deepdiff 8811a42 / ea63564's shape: setup.py's extras are names bound to requirements files
# it reads; a commit loosens the pins in one, another drops setup.py for a pyproject.toml
SETUP = (
    "from setuptools import setup\n\n\n"
    "def get_reqs(filename):\n"
    '    with open(filename, "r") as reqs_file:\n'
    "        reqs = reqs_file.readlines()\n"
    "    return reqs\n\n\n"
    'cli_reqs = get_reqs("requirements-cli.txt")\n'
    'optimize_reqs = get_reqs("requirements-optimize.txt")\n'
    'test_reqs = ["pytest==8.3.4"]\n\n'
    "setup(\n"
    "    name='deepdiff',\n"
    "    extras_require={\n"
    '        "cli": cli_reqs,\n'
    '        "optimize": optimize_reqs,\n'
    '        "test": test_reqs,\n'
    "    },\n"
    ")\n"
)
PROJECT = {
    "deepdiff/__init__.py": "",
    "setup.py": SETUP,
    "requirements-cli.txt": "# the command line\nclick==8.1.8\npyyaml==6.0.2\n",
    "requirements-optimize.txt": "orjson\n",
}


@pytest.mark.parametrize(
    ("said", "verdict"),
    [
        ("The extra `cli` now requires `click~=8.1.8` (was `click==8.1.8`).", Verdict.TRUE),
        ("The extra `cli` now requires `click~=8.2` (was `click==8.1.8`).", Verdict.FALSE),
    ],
)
def test_an_extra_read_from_a_requirements_file_is_seen(
    tmp_path: Path, said: str, verdict: Verdict
) -> None:
    root, commit = second_commit(
        tmp_path,
        PROJECT,
        {"requirements-cli.txt": "click~=8.1.8\npyyaml~=6.0.2\n"},
        "Loosen requirements",
    )
    assert verdicts_of(root, commit.sha, said) == [(Kind.EXTRA_PIN, verdict)]


def test_an_extra_bound_to_a_list_is_seen(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        PROJECT,
        {"setup.py": SETUP.replace("pytest==8.3.4", "pytest==8.4.0")},
        "Bump pytest",
    )
    said = "The extra `test` now requires `pytest==8.4.0` (was `pytest==8.3.4`)."
    assert verdicts_of(root, commit.sha, said) == [(Kind.EXTRA_PIN, Verdict.TRUE)]
    said = "The extra `test` now requires `pytest==8.4.0` (was `pytest==8.2.0`)."
    assert verdicts_of(root, commit.sha, said) == [(Kind.EXTRA_PIN, Verdict.FALSE)]


def test_a_requirements_file_setuptools_cannot_take_is_not_read(tmp_path: Path) -> None:
    # setuptools cannot take `-r`: the file's requirements are not known, never guessed
    root, commit = second_commit(
        tmp_path,
        PROJECT,
        {"requirements-cli.txt": "-r requirements.txt\nclick~=8.1.8\n"},
        "Include the base requirements",
    )
    said = "The extra `cli` now requires `click~=8.1.8` (was `click==8.1.8`)."
    assert verdicts_of(root, commit.sha, said) == [(Kind.EXTRA_PIN, Verdict.UNVERIFIABLE)]


PYPROJECT = (
    "[project]\n"
    'name = "deepdiff"\n'
    'version = "8.5.0"\n\n'
    "[project.optional-dependencies]\n"
    'cli = ["click~=8.1.0", "pyyaml~=6.0.0"]\n'
)


@pytest.mark.parametrize(
    ("said", "verdict"),
    [
        ("Removes the extra `optimize`.", Verdict.TRUE),
        ("Removes the extra `cli`.", Verdict.FALSE),
        (
            "`pip install deepdiff[optimize]` no longer installs `orjson` (pip only warns).",
            Verdict.TRUE,
        ),
        # the extra still requires `click`; it never required `numpy`; another project
        ("`pip install deepdiff[cli]` no longer installs `click` (pip only warns).", Verdict.FALSE),
        ("`pip install deepdiff[optimize]` no longer installs `numpy`.", Verdict.FALSE),
        ("`pip install other[optimize]` no longer installs `orjson`.", Verdict.FALSE),
    ],
)
def test_an_extra_setup_py_read_and_the_commit_dropped(
    tmp_path: Path, said: str, verdict: Verdict
) -> None:
    root, commit = second_commit(
        tmp_path,
        PROJECT,
        {
            "setup.py": None,
            "requirements-cli.txt": None,
            "requirements-optimize.txt": None,
            "pyproject.toml": PYPROJECT,
        },
        "Move from setup.py to pyproject.toml",
    )
    [(_, got)] = verdicts_of(root, commit.sha, said)
    assert got is verdict


# xmltodict 0da66ee: a new AGENTS.md whose title ends in a code span
AGENTS = (
    "# AGENTS.md — Working Context for `xmltodict`\n\nRead this first.\n\n"
    "## 1) What `xmltodict` is\n\nA parser.\n\n## **Core surface area**\n\nparse, unparse.\n"
)


def test_a_heading_ending_in_a_code_span_keeps_its_backtick(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"README.md": "# xmltodict\n"},
        {"AGENTS.md": AGENTS},
        "docs: create AGENTS.md for coding agents",
    )
    text = str(analysis)
    assert "“AGENTS.md — Working Context for `xmltodict`”" in text
    # emphasis around a whole title is its styling, not its words
    assert "“Core surface area”" in text
    assert verdicts and set(verdicts) == {Verdict.TRUE}
