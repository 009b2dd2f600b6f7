"""A pickle holds the callable a class's `__reduce__` returns, by name, and its arguments:
where the commit's callable of that name no longer takes them (bidict 3032e9f turned the
staticmethod `_from_other(bt, other, inv)` into a classmethod, and pickles of the last release
pass it three) or is gone, pickles the last release wrote no longer load: breaking, and high.
Each verdict here is checked against pickle itself: the parent's code pickles, the commit's
code loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.cli.evaluation import git_history, with_sides
from bot.models import Analysis, CommitInput, Importance
from tests.clones import _git, commit_files, verdicts_of

_MODULE = "pkg/_base.py"

# bidict 0.23.1's shape, trimmed: the inverse's class is made on the fly, so `__reduce__`
# names a constructor that builds the forward instance and hands back its inverse.
_HEAD = '''"""Base class."""

import typing as t


class BidictBase:
    """Base class."""

    def __init__(self, *args: t.Any) -> None:
        self._fwdm: dict[t.Any, t.Any] = dict(*args)
        self._inverted = False

    def _init_from(self, other: t.Any) -> None:
        self._fwdm = dict(other)

    @property
    def inverse(self) -> "BidictBase":
        inst = self.__class__()
        inst._fwdm = {v: k for k, v in self._fwdm.items()}
        inst._inverted = not self._inverted
        return inst

'''
_REDUCE_OLD = '''
    def __reduce__(self) -> tuple[t.Any, ...]:
        """Return state information for pickling."""
        cls = self.__class__
        inst = self
        should_invert = self._inverted
        if should_invert:
            inst = self.inverse
        return self._from_other, (cls, dict(inst._fwdm), should_invert)
'''
_REDUCE_NEW = '''
    def __reduce__(self) -> tuple[t.Any, ...]:
        """Return state information for pickling."""
        cls = self.__class__
        inst = self
        should_invert = self._inverted
        if should_invert:
            inst = self.inverse
        return cls._from_other, (dict(inst._fwdm), should_invert)
'''
_STATIC = '''
    @staticmethod
    def _from_other(bt: t.Any, other: t.Any, inv: bool = False) -> t.Any:
        """Fast, private constructor."""
        inst = bt()
        inst._init_from(other)
        return inst.inverse if inv else inst
'''
_CLASS = '''
    @classmethod
    def _from_other(cls, other: t.Any, inv: bool = False) -> t.Any:
        """Fast, private constructor."""
        inst = cls()
        inst._init_from(other)
        return inst.inverse if inv else inst
'''
# the staticmethod with an optional parameter more: the old three arguments still fit
_STATIC_WIDER = '''
    @staticmethod
    def _from_other(bt: t.Any, other: t.Any, inv: bool = False, fast: bool = True) -> t.Any:
        """Fast, private constructor."""
        inst = bt()
        inst._init_from(other)
        return inst.inverse if inv else inst
'''
# before `_from_other`: pickled through the class itself
_REDUCE_PLAIN = '''
    def __reduce__(self) -> tuple[t.Any, ...]:
        """Return state information for pickling."""
        return type(self), (dict(self._fwdm),)
'''

RELEASED = _HEAD + _STATIC + _REDUCE_OLD
CLASSMETHOD = _HEAD + _CLASS + _REDUCE_NEW
TITLE = "Use Self type"


def _clone(tmp_path: Path, layouts: list[str], *, tag: int | None) -> Path:
    """A package whose `pkg/_base.py` is each of `layouts` in turn, one commit each, the
    last titled `TITLE`; `tag`: the index of the layout tagged `v0.23.1`, if any."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    for at, text in enumerate(layouts):
        files = {_MODULE: text}
        if at == 0:
            files["pkg/__init__.py"] = "from ._base import BidictBase\n"
        commit_files(root, files, TITLE if at == len(layouts) - 1 else f"Layout {at}")
        if at == tag:
            _git(root, "tag", "-a", "v0.23.1", "-m", "Version 0.23.1")
    return root


def _read(root: Path) -> tuple[CommitInput, Analysis]:
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    return commit, analyze(commit)


def _unpickled(tmp_path: Path, old: str, new: str) -> str:
    """What loading, with `new`'s code, a pickle `old`'s code wrote of an instance and of
    its inverse does: "ok", or the exception's class name."""
    for side, text in (("old", old), ("new", new)):
        (tmp_path / side / "pkg").mkdir(parents=True)
        (tmp_path / side / "pkg" / "__init__.py").write_text("from ._base import BidictBase\n")
        (tmp_path / side / "pkg" / "_base.py").write_text(text)
    write = (
        "import pickle, sys\nfrom pkg import BidictBase\nb = BidictBase({1: 2})\n"
        "sys.stdout.buffer.write(pickle.dumps([b, b.inverse]))\n"
    )
    read = (
        "import pickle, sys\ntry:\n    f, i = pickle.loads(sys.stdin.buffer.read())\n"
        "    assert f._fwdm == {1: 2} and i._fwdm == {2: 1}\n    print('ok')\n"
        "except Exception as e:\n    print(type(e).__name__)\n"
    )
    written = subprocess.run(
        [sys.executable, "-c", write], cwd=tmp_path / "old", capture_output=True, check=True
    ).stdout
    done = subprocess.run(
        [sys.executable, "-c", read],
        cwd=tmp_path / "new",
        input=written,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode().strip()


def test_a_staticmethod_made_a_classmethod_breaks_the_last_releases_pickles(
    tmp_path: Path,
) -> None:
    assert _unpickled(tmp_path / "run", RELEASED, CLASSMETHOD) == "TypeError"
    root = _clone(tmp_path, [RELEASED, CLASSMETHOD], tag=0)
    commit, analysis = _read(root)
    assert commit.release is not None and commit.release.tag == "v0.23.1"
    assert analysis.breaking and analysis.importance is Importance.HIGH
    (risk,) = [r for r in analysis.risks if "Pickles" in r.description]
    assert risk.description == (
        "Pickles of `BidictBase` written by `v0.23.1` no longer load: they call"
        " `BidictBase._from_other` with 3 arguments, which it no longer takes."
    )
    assert risk.consequence == "unpickling them raises `TypeError`"
    text = entry_text(analysis)
    assert (
        "`BidictBase.__reduce__` now returns `(cls._from_other, (dict(inst._fwdm),"
        " should_invert))` instead of `(self._from_other, (cls, dict(inst._fwdm),"
        " should_invert))`"
    ) in text
    # the claims checker reads the return its own way, and agrees
    assert all(v is Verdict.TRUE for _, v in verdicts_of(root, commit.sha, text))


def test_a_hook_no_release_had_breaks_nobody_and_is_still_said(tmp_path: Path) -> None:
    # the release pickled through the class; the staticmethod came after it, and goes again
    plain = _HEAD + _REDUCE_PLAIN
    assert _unpickled(tmp_path / "run", plain, CLASSMETHOD) == "ok"
    root = _clone(tmp_path, [plain, RELEASED, CLASSMETHOD], tag=0)
    commit, analysis = _read(root)
    assert commit.release is not None and commit.release.edits_unreleased
    assert not analysis.breaking
    assert not any("Pickles" in r.description for r in analysis.risks)
    assert "`BidictBase.__reduce__` now returns" in entry_text(analysis)


def test_a_callee_that_still_takes_the_old_arguments_is_no_break(tmp_path: Path) -> None:
    wider = _HEAD + _STATIC_WIDER + _REDUCE_OLD
    assert _unpickled(tmp_path / "run", RELEASED, wider) == "ok"
    root = _clone(tmp_path, [RELEASED, wider], tag=0)
    _, analysis = _read(root)
    assert not analysis.breaking
    assert not any("Pickles" in r.description for r in analysis.risks)


def test_a_callee_gone_from_a_class_of_the_module_alone_breaks_them(tmp_path: Path) -> None:
    gone = _HEAD + _REDUCE_PLAIN
    assert _unpickled(tmp_path / "run", RELEASED, gone) == "AttributeError"
    root = _clone(tmp_path, [RELEASED, gone], tag=0)
    _, analysis = _read(root)
    assert analysis.breaking
    (risk,) = [r for r in analysis.risks if "Pickles" in r.description]
    assert risk.description == (
        "Pickles of `BidictBase` written by `v0.23.1` no longer load: they call"
        " `BidictBase._from_other`, which is gone."
    )
    assert risk.consequence == "unpickling them raises `AttributeError`"


def test_a_base_of_another_module_may_give_the_callee_back(tmp_path: Path) -> None:
    # gone from the class's own body, but `Base`'s module is not read: nothing is proven
    def based(text: str) -> str:
        return text.replace(
            "import typing as t\n", "import typing as t\nfrom .abc import Base\n"
        ).replace("class BidictBase:", "class BidictBase(Base):")

    root = _clone(tmp_path, [based(RELEASED), based(_HEAD + _REDUCE_PLAIN)], tag=0)
    _, analysis = _read(root)
    assert not any("Pickles" in r.description for r in analysis.risks)


def test_a_test_modules_class_is_nobodys_pickle(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"tests/test_base.py": RELEASED}, "Layout")
    _git(root, "tag", "v0.23.1")
    commit_files(root, {"tests/test_base.py": CLASSMETHOD}, TITLE)
    _, analysis = _read(root)
    assert not analysis.breaking
    assert "__reduce__" not in entry_text(analysis)
