"""A medium or high entry leads with the fact of most consequence for users (issue 27 rule 4),
and a lookup with a default respelled as `.get` is no behaviour at all."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.analysis.facts.meaning import get_spelling, gets_respelled, same_get
from bot.analysis.rules import analyze
from bot.cli.evaluation import git_history
from bot.models import Analysis
from tests.clones import _git, commit_files

# pluggy's `TagTracer._processmessage` (src/pluggy/_tracing.py) on the merge that raised its
# floor to Python 3.10 and modernised its annotations: the processor looked up by `try`/
# `except KeyError`, then by `.get` (the shape here the exact respelling: the same default)
_TRACING = (
    "from __future__ import annotations\n\n\n"
    "class TagTracer:\n"
    "    def __init__(self) -> None:\n"
    "        self._tags2proc: dict = {{}}\n"
    "        self._writer = None\n\n"
    "    def get(self, name: str) -> TagTracerSub:\n"
    "        return TagTracerSub(self, (name,))\n\n"
    "    def _processmessage(self, tags: {tags}, args: {args}) -> None:\n"
    "        if self._writer is not None and args:\n"
    "            self._writer(tags, args)\n"
    "{lookup}"
    "        if processor is not None:\n"
    "            processor(tags, args)\n\n\n"
    "class TagTracerSub:\n"
    "    def __init__(self, root: TagTracer, tags: {tags}) -> None:\n"
    "        self.root = root\n"
    "        self.tags = tags\n"
)
_TRY = (
    "        try:\n"
    "            processor = self._tags2proc[tags]\n"
    "        except KeyError:\n"
    "            processor = None\n"
)
_GET = "        processor = self._tags2proc.get(tags)\n"
_PYPROJECT = (
    '[build-system]\nrequires = ["setuptools>=65"]\nbuild-backend = "setuptools.build_meta"\n\n'
    '[project]\nname = "pluggy"\nrequires-python = "{floor}"\ndynamic = ["version"]\n'
    "classifiers = [\n{classifiers}]\n"
)
_CLASSIFIERS = '  "Programming Language :: Python :: {v}",\n'


def _pluggy(floor: str, versions: tuple[str, ...], lookup: str, old_typing: bool) -> dict:
    tags, args = (
        ("Tuple[str, ...]", "Tuple[object, ...]")
        if old_typing
        else ("tuple[str, ...]", "tuple[object, ...]")
    )
    tracing = _TRACING.format(tags=tags, args=args, lookup=lookup)
    if old_typing:
        tracing = tracing.replace(
            "from __future__ import annotations\n", "from typing import Tuple\n"
        )
    classifiers = "".join(_CLASSIFIERS.format(v=v) for v in versions)
    return {
        "pyproject.toml": _PYPROJECT.format(floor=floor, classifiers=classifiers),
        "src/pluggy/__init__.py": 'from ._tracing import TagTracer\n\n__all__ = ["TagTracer"]\n',
        "src/pluggy/_tracing.py": tracing,
    }


def _merged(tmp_path: Path, base: dict, branch: dict, message: str) -> Analysis:
    """The rules' analysis of a `--no-ff` merge of a branch holding `branch`'s files into
    `main` holding `base`'s, as `eval --git` reads a first-parent merge."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, base, "Initial layout")
    _git(root, "checkout", "-q", "-b", "topic")
    commit_files(root, branch, "Drop Python 3.9")
    _git(root, "checkout", "-q", "main")
    _git(root, "merge", "-q", "--no-ff", "topic", "-m", message)
    merges = [c for _, c in git_history(root, merges=True) if c.parents > 1]
    assert len(merges) == 1
    return analyze(merges[0])


def _said(analysis: Analysis) -> str:
    insights = analysis.insights.model_dump().values() if analysis.insights else ()
    return " ".join([analysis.summary, *(v for v in insights if v)])


def test_a_merge_raising_the_python_floor_leads_with_the_floor(tmp_path: Path) -> None:
    analysis = _merged(
        tmp_path,
        _pluggy(">=3.9", ("3.9", "3.10"), _TRY, old_typing=True),
        _pluggy(">=3.10", ("3.10",), _GET, old_typing=False),
        "Merge pull request #612 from bluetech/py310",
    )
    # the floor is what users meet; before, the private method's `KeyError` led
    assert analysis.summary == "Requires `python>=3.10` (was `>=3.9`)."
    said = _said(analysis)
    # `.get` respells the lookup and its default: nothing is caught or called anew
    assert "KeyError" not in said
    assert "now calls `get`" not in said


def test_a_lookup_whose_default_differs_is_still_said(tmp_path: Path) -> None:
    """`.get(tags, 0)` gives `0` where the handler gave `None`: a behaviour, still told."""
    analysis = _merged(
        tmp_path,
        _pluggy(">=3.10", ("3.10",), _TRY, old_typing=False),
        _pluggy(">=3.10", ("3.10",), "        processor = self._tags2proc.get(tags, 0)\n", False),
        "Merge pull request #613 from bluetech/lookup",
    )
    assert "no longer catches `KeyError`" in _said(analysis)


def _one(text: str) -> ast.stmt:
    return ast.parse(text).body[0]


@pytest.mark.parametrize(
    "old",
    [
        "try:\n    t = d[k]\nexcept KeyError:\n    t = None",
        "if k in d:\n    t = d[k]\nelse:\n    t = None",
        "if k not in d:\n    t = None\nelse:\n    t = d[k]",
        "t = d[k] if k in d else None",
    ],
)
def test_a_lookup_with_its_default_is_get(old: str) -> None:
    assert same_get(_one(old), _one("t = d.get(k)"))
    assert same_get(_one(old), _one("t = d.get(k, None)"))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # `LookupError` also catches an `IndexError` of `d`'s own `__getitem__`
        ("try:\n    t = d[k]\nexcept LookupError:\n    t = 0", "t = d.get(k, 0)"),
        # the handler binds another name
        ("try:\n    t = d[k]\nexcept KeyError:\n    u = 0", "t = d.get(k, 0)"),
        # another default
        ("try:\n    t = d[k]\nexcept KeyError:\n    t = 0", "t = d.get(k, 1)"),
        # a default that is a call: `.get` makes it on every lookup, the handler on a miss
        ("try:\n    t = d[k]\nexcept KeyError:\n    t = make()", "t = d.get(k, make())"),
        # the `try` holds more than the lookup
        ("try:\n    t = d[k]\n    log(t)\nexcept KeyError:\n    t = 0", "t = d.get(k, 0)"),
        # a key that is a call, evaluated twice by `in` and the subscript
        ("if f() in d:\n    t = d[f()]\nelse:\n    t = 0", "t = d.get(f(), 0)"),
        # the test asks of another key
        ("if j in d:\n    t = d[k]\nelse:\n    t = 0", "t = d.get(k, 0)"),
        # an `else` of the `try` runs only on a hit
        ("try:\n    t = d[k]\nexcept KeyError:\n    t = 0\nelse:\n    use(t)", "t = d.get(k, 0)"),
    ],
)
def test_other_lookups_are_not_get(old: str, new: str) -> None:
    assert not same_get(_one(old), _one(new))


def test_get_spelling_is_the_assignment_a_lookup_means() -> None:
    spelled = get_spelling(_one("try:\n    t = self.m[k]\nexcept KeyError:\n    t = 0"))
    assert spelled is not None and ast.unparse(spelled) == "t = self.m.get(k, 0)"


def test_each_respelled_lookup_is_paired_with_its_get() -> None:
    was = ast.parse(
        "def f(d, k):\n    try:\n        t = d[k]\n    except KeyError:\n        t = 0\n"
    )
    now = ast.parse("def f(d, k):\n    t = d.get(k, 0)\n")
    pairs = gets_respelled(was, now)
    assert [(type(a).__name__, ast.unparse(b)) for a, b in pairs] == [("Try", "t = d.get(k, 0)")]
