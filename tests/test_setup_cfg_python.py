"""A `setup.cfg`'s `python_requires` is a requirement only under `[options]`, where setuptools
reads it: lark 87e4ac7 ("fix: remove Python 2 legacy packaging code") wrote it under
`[metadata]`, so pip installs its releases on any Python, as before."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.facts import read_facts
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.models import Importance
from tests.clones import checked_entry, second_commit, verdicts_of

TITLE = "fix: remove Python 2 legacy packaging code"
# lark 87e4ac7's setup.cfg at the parent and at the commit
BEFORE = (
    "[global]\nzip_safe=\n\n[bdist_wheel]\nuniversal = 1\n\n[metadata]\nlicense_file = LICENSE\n"
)
AFTER = "[metadata]\nlicense_file = LICENSE\npython_requires = >=3.6\n"
# the same line where setuptools reads it
OPTIONS = "[metadata]\nlicense_file = LICENSE\n\n[options]\npython_requires = >=3.6\n"
# lark's setup.py at both revisions, cut short: no `python_requires=` keyword
SETUP = (
    "from setuptools import setup\n\n"
    "setup(\n"
    '    name = "lark",\n'
    "    packages = ['lark'],\n"
    "    install_requires = [],\n"
    "    classifiers=[\n"
    '        "Programming Language :: Python :: 3",\n'
    "    ],\n"
    ")\n"
)
CLAIM = "Requires `python>=3.6`."


def _files(cfg: str) -> dict[str, str | None]:
    return {"setup.cfg": cfg, "setup.py": SETUP, "lark/__init__.py": "__version__ = '1.1.2'\n"}


def test_a_metadata_python_requires_is_no_requirement(tmp_path: Path) -> None:
    # lark 87e4ac7: the analyser said "Requires `python>=3.6`", rated it high and breaking
    _, commit = second_commit(tmp_path, _files(BEFORE), _files(AFTER), TITLE)
    facts = read_facts(commit)
    assert [r for r in facts.requirements if r.package == "python"] == []
    analysis, verdicts = checked_entry(tmp_path / "entry", _files(BEFORE), _files(AFTER), TITLE)
    assert "python>=3.6" not in analysis.summary
    assert analysis.importance is not Importance.HIGH
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts


def test_an_options_python_requires_is_the_requirement(tmp_path: Path) -> None:
    # the same commit with the key where setuptools reads it: a floor where none was
    _, commit = second_commit(tmp_path, _files(BEFORE), _files(OPTIONS), TITLE)
    python = [r for r in read_facts(commit).requirements if r.package == "python"]
    assert [(r.spec, r.old) for r in python] == [(">=3.6", None)]


def test_the_checker_calls_a_metadata_requirement_false(tmp_path: Path) -> None:
    root, commit = second_commit(tmp_path, _files(BEFORE), _files(AFTER), TITLE)
    assert verdicts_of(root, commit.sha, CLAIM) == [(Kind.REQUIRES, Verdict.FALSE)]


def test_the_checker_calls_an_options_requirement_true(tmp_path: Path) -> None:
    root, commit = second_commit(tmp_path, _files(BEFORE), _files(OPTIONS), TITLE)
    assert verdicts_of(root, commit.sha, CLAIM) == [(Kind.REQUIRES, Verdict.TRUE)]
