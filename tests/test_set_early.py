"""A fix that sets, in a setup method, a key or attribute only another method set before
(tenacity 42b70f9: `begin` clears `statistics`, then now sets `"delay_since_first_attempt"`,
a key `_run_stop` alone set at the parent): the entry names what is set, where, to what, and
who set it before; each a clone shaped like the commit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.analysis.facts.set_early import set_early
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

RETRYING = """import time


class BaseRetrying:
    def __init__(self):
        self.statistics = {{}}
{init}
    def begin(self) -> None:
        {reset}
        self.statistics["start_time"] = time.monotonic()
        self.statistics["attempt_number"] = 1
{begin}
    def _run_stop(self, retry_state) -> None:
        self.statistics["delay_since_first_attempt"] = retry_state.seconds_since_start
        self.last = retry_state
"""
_KEY = '        self.statistics["delay_since_first_attempt"] = 0\n'
_TITLE = "fix: initialize delay_since_first_attempt in statistics on begin() (#603)\n\nCloses #421"


def _module(*, init: str = "", reset: str = "self.statistics.clear()", begin: str = "") -> str:
    return RETRYING.format(init=init, reset=reset, begin=begin)


def _entry(tmp_path: Path, before: str, after: str) -> str:
    analysis, verdicts = checked_entry(
        tmp_path, {"tenacity/__init__.py": before}, {"tenacity/__init__.py": after}, _TITLE
    )
    # whatever else the entry claims, the clone bears it out
    assert Verdict.FALSE not in verdicts
    return entry_text(analysis)


def test_a_key_a_reset_method_now_sets_is_said_set_from_the_start(tmp_path: Path) -> None:
    text = _entry(tmp_path, _module(), _module(begin=_KEY))
    assert (
        '`BaseRetrying.begin` now sets `statistics["delay_since_first_attempt"]` to `0` from '
        "the start (before, `_run_stop` set it)"
    ) in text


def test_a_key_set_where_the_dictionary_is_not_reset_is_not_said(tmp_path: Path) -> None:
    # `begin` no longer clears `statistics`: what it sets is not known to come first
    before = _module(reset="pass")
    text = _entry(tmp_path, before, _module(reset="pass", begin=_KEY))
    assert "from the start" not in text


def test_a_key_no_other_method_set_is_not_said(tmp_path: Path) -> None:
    # a new key of its own: nothing was missing before
    new = '        self.statistics["idle_for"] = 0\n'
    text = _entry(tmp_path, _module(), _module(begin=new))
    assert "from the start" not in text


def test_an_attribute_init_now_sets_names_its_other_setter(tmp_path: Path) -> None:
    text = _entry(tmp_path, _module(), _module(init="        self.last = None\n"))
    # `__init__` is how a caller builds the class: named by it
    assert (
        "`BaseRetrying` now sets `last` to `None` from the start (before, `_run_stop` set it)"
        in (text)
    )


def _methods(source: str) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {
        f"{cls.name}.{f.name}": f
        for cls in ast.parse(source).body
        if isinstance(cls, ast.ClassDef)
        for f in cls.body
        if isinstance(f, ast.FunctionDef)
    }


def _begin(begin: str) -> list[tuple[str, str, tuple[str, ...]]]:
    was, now = _methods(_module()), _methods(_module(begin=begin))
    return set_early(
        "BaseRetrying.begin", was["BaseRetrying.begin"], now["BaseRetrying.begin"], was
    )


def test_the_new_assignment_under_a_condition_is_not_from_the_start() -> None:
    # inside an `if`, the key is set only some of the times `begin` runs
    assert _begin("        if self.statistics:\n    " + _KEY) == []
    said = 'statistics["delay_since_first_attempt"]'
    assert _begin(_KEY) == [(said, "0", ("BaseRetrying._run_stop",))]
