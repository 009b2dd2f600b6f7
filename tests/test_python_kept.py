"""A title that drops a Python is breaking only where the metadata's requirement changes."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from tests.clones import second_commit

SETUP = (
    "from setuptools import setup\n\nsetup(\n    name='toolbelt',\n"
    "    python_requires='{floor}',\n    classifiers=[\n"
    "        'Programming Language :: Python :: 3.7',\n    ],\n)\n"
)
# the compatibility code for old Pythons goes: boltons 9214bd7's shape
COMPAT = (
    "import inspect\n\ntry:\n    iscoro = inspect.iscoroutinefunction\nexcept AttributeError:\n"
    "    def iscoro(func):\n        return False\n\n\ndef build(func):\n"
    "    return iscoro(func)\n"
)
PLAIN = "import inspect\n\n\ndef build(func):\n    return inspect.iscoroutinefunction(func)\n"
TITLE = "Drop support for EOL Python <= 3.6"


def test_a_python_the_parent_already_excluded_drops_nobody(tmp_path: Path) -> None:
    """boltons 9214bd7: `python_requires='>=3.7'` at the parent and at the commit, the
    title says Python 3.6 goes: no install changes, so nothing is breaking or said new."""
    before = {"setup.py": SETUP.format(floor=">=3.7"), "toolbelt/funcs.py": COMPAT}
    _, commit = second_commit(tmp_path, before, {"toolbelt/funcs.py": PLAIN}, TITLE)
    analysis = analyze(commit)
    assert not analysis.breaking
    assert "removal" not in " ".join(r.description for r in analysis.risks)


def test_the_requirement_raised_by_the_commit_is_still_a_break(tmp_path: Path) -> None:
    before = {"setup.py": SETUP.format(floor=">=3.6"), "toolbelt/funcs.py": COMPAT}
    after = {"setup.py": SETUP.format(floor=">=3.7"), "toolbelt/funcs.py": PLAIN}
    _, commit = second_commit(tmp_path, before, after, TITLE)
    assert analyze(commit).breaking
