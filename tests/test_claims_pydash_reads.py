"""False claims a reader and `eval --claims` found on pydash's history, each a small clone
shaped like the commit that showed it (rules of Python, not of pydash): the side that was
wrong (the analyser's entry, or the checker's verdict) is pinned here."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# pydash 18b8973 "Include vararg only functions in chaining type stub": a generated `.pyi`
# whose overloads of `flow` gain an implementation below them (never read in a stub)
_FLOW_OVERLOADS = (
    "import typing as t\n\n"
    "class AllFuncs:\n"
    "    @t.overload\n"
    "    def flow(self, func2: t.Callable, func3: t.Callable) -> t.Any: ...\n"
    "    @t.overload\n"
    "    def flow(self, func2: t.Callable) -> t.Any: ...\n"
    "    @t.overload\n"
    "    def flow(self) -> t.Any: ...\n"
    "{implementation}"
    "    def chunk(self, size: int = 1) -> t.Any:\n"
    "        return self._wrap(size)\n"
)
_FLOW_IMPLEMENTATION = "    def flow(self, *funcs):\n        return self._wrap(*funcs)\n"


def test_an_implementation_below_a_stubs_overloads_takes_no_parameter_away(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/chain.pyi": _FLOW_OVERLOADS.format(implementation="")},
        {"pkg/chain.pyi": _FLOW_OVERLOADS.format(implementation=_FLOW_IMPLEMENTATION)},
        "Include vararg only functions in chaining type stub",
    )
    text = entry_text(analysis)
    assert "no longer take" not in text
    assert "`*funcs`" not in text
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts


def test_a_parameter_no_overload_of_a_stub_takes_any_more_is_gone(tmp_path: Path) -> None:
    # the overloads together are the signature: `func3` left every one of them
    after = _FLOW_OVERLOADS.replace(
        "def flow(self, func2: t.Callable, func3: t.Callable)", "def flow(self, func2: t.Callable)"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/chain.pyi": _FLOW_OVERLOADS.format(implementation=_FLOW_IMPLEMENTATION)},
        {"pkg/chain.pyi": after.format(implementation=_FLOW_IMPLEMENTATION)},
        "Narrow flow",
    )
    assert "`AllFuncs.flow` no longer takes the parameter `func3=...`" in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_the_checker_reads_a_stubs_overloads_not_its_implementation(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {"pkg/chain.pyi": _FLOW_OVERLOADS.format(implementation="")},
        {"pkg/chain.pyi": _FLOW_OVERLOADS.format(implementation=_FLOW_IMPLEMENTATION)},
        "Include vararg only functions in chaining type stub",
    )
    said = "`AllFuncs.flow` no longer takes the parameter `func3`."
    assert verdicts_of(root, commit.sha, said) == [(Kind.PARAM_GONE, Verdict.FALSE)]
    said = "`AllFuncs.flow` gains the parameter `*funcs`."
    assert verdicts_of(root, commit.sha, said) == [(Kind.PARAM_NEW, Verdict.FALSE)]


def test_a_default_dropped_from_self_is_no_parameter_lost(tmp_path: Path) -> None:
    # pydash 20a1c83: a stub's `self: "Chain[int]" = 0` lost its (meaningless) default
    stub = "class AllFuncs:\n    def retry(self{default}, delay: float = 0.5) -> int: ...\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/chain.pyi": stub.format(default=": int = 3")},
        {"pkg/chain.pyi": stub.format(default=": int")},
        "Run mypy, misc type fixes",
    )
    assert "self" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


# pydash d6fe70c "Remove Python 2.7 support": the module's sentinel `NoValue = _NoValue()`
# became `UNSET = object()`, and every default naming it follows
_HELPERS = '"""Helpers."""\n\n\nclass _NoValue:\n    pass\n\n\nNoValue = _NoValue()\n'
_CHAIN = (
    "from .helpers import {name}\n\n\n"
    "def chain(value={name}):\n"
    "    return [] if value is {name} else [value]\n"
)


def test_a_default_naming_a_renamed_sentinel_is_no_changed_default(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/helpers.py": _HELPERS, "pkg/chaining.py": _CHAIN.format(name="NoValue")},
        {
            "pkg/helpers.py": '"""Helpers."""\n\nUNSET = object()\n',
            "pkg/chaining.py": _CHAIN.format(name="UNSET"),
        },
        "Remove Python 2.7 support",
    )
    text = entry_text(analysis)
    assert "default" not in text and "behave differently" not in text
    assert Verdict.FALSE not in verdicts


def test_a_default_now_naming_another_existing_object_is_still_said(tmp_path: Path) -> None:
    # the old sentinel stays bound: a default that names another object is a change
    helpers = _HELPERS + "UNSET = object()\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/helpers.py": helpers, "pkg/chaining.py": _CHAIN.format(name="NoValue")},
        {"pkg/helpers.py": helpers, "pkg/chaining.py": _CHAIN.format(name="UNSET")},
        "Use UNSET",
    )
    assert "from `NoValue` to `UNSET`" in entry_text(analysis)


# pydash 633aaf9 "Use f-strings instead of str.format.": `'{}'` around a placeholder became
# `{…!r}`, which quotes a string the same way
_RANGE = (
    "def base_range(*args):\n"
    "    for arg in args:\n"
    "        if not isinstance(arg, int):\n"
    "            raise TypeError({message})\n"
    "    return list(range(*args))\n"
)


@pytest.mark.parametrize(
    "now",
    [
        'f"range cannot interpret {type(arg).__name__!r} object as an integer"',
        # of a value of unknown type: perhaps the same, perhaps not; nothing said
        'f"range cannot interpret {arg!r} object as an integer"',
    ],
)
def test_quotes_around_a_placeholder_written_as_repr_are_no_new_message(
    tmp_path: Path, now: str
) -> None:
    was = "\"range cannot interpret '{}' object as an integer\".format(type(arg).__name__)"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/numerical.py": _RANGE.format(message=was)},
        {"pkg/numerical.py": _RANGE.format(message=now)},
        "Use f-strings instead of str.format.",
    )
    assert "now says" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_message_reworded_around_a_repr_placeholder_is_still_said(tmp_path: Path) -> None:
    was = "\"range cannot interpret '{}' object as an integer\".format(type(arg).__name__)"
    now = 'f"range cannot read {type(arg).__name__!r} as an integer"'
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/numerical.py": _RANGE.format(message=was)},
        {"pkg/numerical.py": _RANGE.format(message=now)},
        "Reword the range error",
    )
    assert "now says “range cannot read '{…}' as an integer”" in entry_text(analysis)


# pydash 13926f3 "Remove unused argument in helper function.": `base_clone`, below "Utility
# methods not a part of the main API" and left out of the module's `__all__`, drops `obj`
_OBJECTS = (
    '__all__ = ("clone",)\n\n\n'
    "def clone(value):\n    return base_clone(value)\n\n\n"
    "def base_clone(value, is_deep=False, {extra}):\n    return value\n"
)


def test_a_helper_its_module_leaves_out_of_all_loses_a_parameter_unbroken(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "src/pkg/__init__.py": "from .objects import *\n",
            "src/pkg/objects.py": _OBJECTS.format(extra="obj=None, key=None"),
        },
        {"src/pkg/objects.py": _OBJECTS.format(extra="key=None")},
        "Remove unused argument in helper function.",
    )
    assert not analysis.breaking
    assert analysis.insights is None or analysis.insights.compatibility is None
    assert not analysis.recommendations and not analysis.risks
    assert Verdict.FALSE not in verdicts


def test_a_listed_function_losing_a_parameter_is_breaking_without_a_search_for_its_name(
    tmp_path: Path,
) -> None:
    listed = _OBJECTS.replace('("clone",)', '("clone", "base_clone")')
    analysis, _ = checked_entry(
        tmp_path,
        {
            "src/pkg/__init__.py": "from .objects import *\n",
            "src/pkg/objects.py": listed.format(extra="obj=None, key=None"),
        },
        {"src/pkg/objects.py": listed.format(extra="key=None")},
        "Remove unused argument in helper function.",
    )
    assert analysis.breaking
    # a parameter's bare name is no word to search code for
    assert not any("`obj`" in r.text for r in analysis.recommendations)


# pydash ba773f6 "Unicode ver for word splitter": 43 module-level regex constants, most
# worked out from others (`RS_BREAK = "[{0}]".format(RS_BREAK_RANGE)`); "and 23 more"
# counted only the literal ones, and no more than 40
def test_and_n_more_counts_every_constant_added(tmp_path: Path) -> None:
    literal = "".join(f'RS_PART_{i}_RANGE = "\\\\u{i:04x}"\n' for i in range(42))
    worked_out = (
        'RS_BREAK = "[{0}]".format(RS_PART_1_RANGE)\nRS_ALL = RS_PART_1_RANGE + RS_PART_2_RANGE\n'
    )
    module = "def words(text):\n    return text.split()\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/pkg/__init__.py": "", "src/pkg/strings.py": module},
        {"src/pkg/strings.py": literal + worked_out + "\n\n" + module},
        "Unicode version of the word splitter",
    )
    assert " and 41 more to `src/pkg/strings.py`" in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


# pydash bf5047a "Rename keyword argument variable "kargs" to "kwargs"": no caller names a
# `**kwargs` (or a `*args`), so its new name changes no call
def test_a_var_keyword_or_var_positional_renamed_is_no_parameter_change(tmp_path: Path) -> None:
    module = (
        "def difference_by(array, *{args}, **{kwargs}):\n    return [array, {args}, {kwargs}]\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "src/pkg/__init__.py": "",
            "src/pkg/arrays.py": module.format(args="lists", kwargs="kargs"),
        },
        {"src/pkg/arrays.py": module.format(args="others", kwargs="kwargs")},
        'Rename keyword argument variable "kargs" to "kwargs".',
    )
    text = entry_text(analysis)
    assert "no longer take" not in text and "gains" not in text and "`**kwargs`" not in text
    assert Verdict.FALSE not in verdicts


def test_a_var_keyword_replacing_a_named_parameter_is_still_said(tmp_path: Path) -> None:
    module = "def difference_by(array, {params}):\n    return [array]\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"src/pkg/__init__.py": "", "src/pkg/arrays.py": module.format(params="iteratee=None")},
        {"src/pkg/arrays.py": module.format(params="**kwargs")},
        "Take any keyword",
    )
    assert "gains the parameter `**kwargs`" in entry_text(analysis)


def test_a_top_level_implementation_below_a_stubs_overloads_takes_nothing_away(
    tmp_path: Path,
) -> None:
    # each top-level `def` is read as a unit of its own: the overloads stay the signature
    overloads = (
        "from typing import Any, Callable, overload\n\n"
        "@overload\ndef flow(func1: Callable, func2: Callable) -> Any: ...\n"
        "@overload\ndef flow(func1: Callable) -> Any: ...\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/flows.pyi": overloads},
        {"pkg/flows.pyi": overloads + "def flow(*funcs): ...\n"},
        "Include vararg only functions in the type stub",
    )
    assert "no longer take" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts
