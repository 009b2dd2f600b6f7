"""A stub's (`.pyi`) parameter annotated with another of its module's type variables
(`Iterable[_T]` → `Iterable[_T_co]`, the class made covariant) takes the same arguments: not
said as a change of what it takes, never under "Compatibility"; a widening beside it
(`value: _T` → `value: Any`) still is, and the class is said to be covariant now. A fix of stubs alone runs nowhere: no regression test
asked. A clone shaped like a typing pull request, shortened."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_RUNTIME = """class sized:
    def __init__(self, iterable, size):
        self._iterator = iter(iterable)
        self._size = size

    def __next__(self):
        return next(self._iterator)

    def count(self, value):
        return 0
"""

_STUB = """from typing import Any, Generic, Iterable, TypeVar

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)

class sized(Generic[@VAR@]):
    def __init__(self, iterable: Iterable[@VAR@], size: int) -> None: ...
    def __next__(self) -> @VAR@: ...
    def count(self, value: @VALUE@) -> int: ...
"""


def _stub(var: str, value: str) -> str:
    return _STUB.replace("@VAR@", var).replace("@VALUE@", value)


def test_a_type_variable_swapped_is_no_type_a_caller_passes(tmp_path: Path) -> None:
    before = {"pkg/core.py": _RUNTIME, "pkg/core.pyi": _stub("_T", "_T")}
    after = {"pkg/core.py": _RUNTIME, "pkg/core.pyi": _stub("_T_co", "Any")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Fix sized stubs variance")
    text = entry_text(analysis)
    assert "_T_co" not in text
    assert "The parameter `value` of `sized.count` now takes `Any` (was `_T`)" in text
    assert "`sized` is now covariant" in text
    assert "regression test" not in text
    assert Verdict.FALSE not in verdicts


def test_a_type_variable_made_another_type_is_still_said(tmp_path: Path) -> None:
    # `Iterable[_T]` → `Iterable[int]`: another type, not another variable
    before = {"pkg/core.py": _RUNTIME, "pkg/core.pyi": _stub("_T", "_T")}
    changed = _stub("_T", "_T").replace("iterable: Iterable[_T]", "iterable: Iterable[int]")
    after = {"pkg/core.py": _RUNTIME, "pkg/core.pyi": changed}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Type sized's input as ints")
    text = entry_text(analysis)
    assert "now takes `Iterable[int]` (was `Iterable[_T]`)" in text
    assert Verdict.FALSE not in verdicts
