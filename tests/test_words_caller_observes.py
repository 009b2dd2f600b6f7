"""What a caller observes, and only that, is *Compatibility*. Each shaped like the real commit:
toolz 1b23ada (`dissoc` reads `factory` out of a new `**kwargs` and returns a `factory()`
where it returned a copy of its argument), 020161b (`peek` passes a tuple where it passed a
list to `itertools.chain`), 2ac03ce (`join` tests `key in d` where it caught `KeyError`),
cde596b (`update_in` drops a test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.phrases import EN
from bot.analysis.signals import read_signals
from bot.analysis.wording import statements
from bot.cli.claim_check import Verdict
from tests.clones import checked_entry, second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def themes(
    tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None], message: str
) -> dict[str, str | None]:
    """Each statement of fact the change supports, with the insight it is said in (a low
    entry says one line: its summary, whatever the theme)."""
    _, commit = second_commit(tmp_path, before, after, message)
    return {s.clause: s.theme for s in statements(read_signals(commit), EN)}


_HELPERS = "".join(f"\n\ndef helper{i}(value):\n    return value + {i}\n" for i in range(6))
DICTS = (
    "import copy\n\n"
    "__all__ = ('assoc', 'dissoc')\n\n\n"
    "def _get_factory(f, kwargs):\n"
    "    factory = kwargs.pop('factory', dict)\n"
    "    if kwargs:\n"
    "        raise TypeError('unexpected keyword argument')\n"
    "    return factory\n\n\n"
    "def assoc(d, key, value, factory=dict):\n"
    "    d2 = factory()\n"
    "    d2.update(d)\n"
    "    d2[key] = value\n"
    "    return d2\n\n\n"
    "def dissoc(d, *keys):\n"
    "    d2 = copy.copy(d)\n"
    "    for key in keys:\n"
    "        if key in d2:\n"
    "            del d2[key]\n"
    "    return d2\n" + _HELPERS
)
DICTS_FACTORY = DICTS.replace(
    "def dissoc(d, *keys):\n    d2 = copy.copy(d)\n",
    "def dissoc(d, *keys, **kwargs):\n"
    "    factory = _get_factory(dissoc, kwargs)\n"
    "    d2 = factory()\n"
    "    d2.update(d)\n",
)


def test_a_kwargs_read_for_a_keyword_says_the_keyword_and_the_value_returned(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"toolz/dicttoolz.py": DICTS},
        {"toolz/dicttoolz.py": DICTS_FACTORY},
        "Merge pull request #425 from groutr/faster-dissoc",
    )
    # what a caller may now pass, not the bare `**kwargs`
    assert analysis.summary == "`dissoc` now takes the keyword `factory=dict` (through `**kwargs`)."
    assert "gains the parameter `**kwargs`" not in str(analysis)
    assert Verdict.FALSE not in verdicts
    said = themes(
        tmp_path / "again",
        {"toolz/dicttoolz.py": DICTS},
        {"toolz/dicttoolz.py": DICTS_FACTORY},
        "x",
    )
    # what it returns is built otherwise: a caller's `OrderedDict` comes back a `dict`
    assert (
        said[
            "`dissoc` now computes `d2`, the value it returns, as `factory()` (was `copy.copy(d)`)"
        ]
        == "compatibility"
    )


ITERTOOLS = (
    "import itertools\n\n\n"
    "def peek(seq):\n"
    "    iterator = iter(seq)\n"
    "    item = next(iterator)\n"
    "    return item, itertools.chain([item], iterator)\n" + _HELPERS
)


def test_a_list_passed_as_a_tuple_to_chain_is_no_change_a_caller_meets(tmp_path: Path) -> None:
    said = themes(
        tmp_path,
        {"toolz/itertoolz.py": ITERTOOLS},
        {"toolz/itertoolz.py": ITERTOOLS.replace("chain([item],", "chain((item,),")},
        "Use a tuple in peek",
    )
    assert not [c for c in said if "became" in c]


def test_a_return_given_otherwise_is_still_what_a_caller_meets(tmp_path: Path) -> None:
    # the same rewrite where the items differ: another value returned
    said = themes(
        tmp_path,
        {"toolz/itertoolz.py": ITERTOOLS},
        {"toolz/itertoolz.py": ITERTOOLS.replace("chain([item],", "chain([item, item],")},
        "Peek twice",
    )
    assert [t for c, t in said.items() if "became" in c] == ["compatibility"]


JOIN = (
    "def join(leftkey, leftseq, rightseq, left_default=None):\n"
    "    d = {}\n"
    "    for item in leftseq:\n"
    "        d.setdefault(leftkey(item), []).append(item)\n"
    "    for item in rightseq:\n"
    "        key = item[0]\n"
    "        try:\n"
    "            left_matches = d[key]\n"
    "            for match in left_matches:\n"
    "                yield (match, item)\n"
    "        except KeyError:\n"
    "            yield (left_default, item)\n" + _HELPERS
)
JOIN_TESTED = JOIN.replace(
    "        try:\n"
    "            left_matches = d[key]\n"
    "            for match in left_matches:\n"
    "                yield (match, item)\n"
    "        except KeyError:\n"
    "            yield (left_default, item)\n",
    "        if key in d:\n"
    "            for match in d[key]:\n"
    "                yield (match, item)\n"
    "        else:\n"
    "            yield (left_default, item)\n",
)


def test_a_lookup_tested_before_it_is_made_catches_nothing_less(tmp_path: Path) -> None:
    said = themes(
        tmp_path, {"toolz/itertoolz.py": JOIN}, {"toolz/itertoolz.py": JOIN_TESTED}, "faster_join"
    )
    assert not [c for c in said if "catches" in c]


def test_a_call_left_uncaught_is_still_said(tmp_path: Path) -> None:
    # the handler dropped where a call (what else may raise `KeyError`) was in its `try`
    before = JOIN.replace("left_matches = d[key]", "left_matches = lookup(d, key)")
    after = JOIN_TESTED.replace("for match in d[key]:", "for match in lookup(d, key):")
    said = themes(
        tmp_path, {"toolz/itertoolz.py": before}, {"toolz/itertoolz.py": after}, "faster_join"
    )
    assert said["`join` no longer catches `KeyError`"] == "compatibility"


UPDATE = (
    "def update_in(d, keys, func, default=None):\n"
    "    ks = iter(keys)\n"
    "    k = next(ks)\n"
    "    rv = dict(d)\n"
    "    if ks:\n"
    "        rv[k] = func(d.get(k, default))\n"
    "    return rv\n" + _HELPERS
)


def test_a_test_dropped_is_how_the_body_goes_not_what_callers_meet(tmp_path: Path) -> None:
    # toolz cde596b: "`update_in` no longer tests `ks`" was a Compatibility line
    said = themes(
        tmp_path,
        {"toolz/dicttoolz.py": UPDATE},
        {"toolz/dicttoolz.py": UPDATE.replace("    if ks:\n        rv[k]", "    rv[k]")},
        "Faster update_in",
    )
    assert said["`update_in` no longer tests `ks`"] == "architecture"
