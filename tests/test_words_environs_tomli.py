"""What readers and the claims checker found on environs and tomli: a Python requirement
bound to a module name, `setup.cfg` requirement lists, extras moved to dependency groups,
a condition differing only by a renamed constant, removals no release shipped, and a
released package's rename; each a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from tests.clones import second_commit, verdicts_of

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
