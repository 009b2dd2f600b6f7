"""Names renamed that no caller meets are the same code: a parameter rebound as a new local
(`iterable = iter(iterable)` → `iterator = iter(iterable)`), a private function's parameters
(`_chunk(iterable, n)` → `_chunk(iterator, n)`), a class's private attributes renamed
throughout it (`self._iterable` → `self._iterator`). None of these functions is edited: no
fix place, no regression test asked, no "Compatibility" for the private function's
parameters; a commit of nothing else is a refactor, low, whatever "Fix" its title says.
Clones shaped like such a commit, shortened."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.analysis.facts.pyfile import _code
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import ChangeType, Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_MODULE = '''from collections import deque
from itertools import chain, islice, repeat


def padded(iterable, fillvalue=None, n=None):
    """Yield the items of *iterable*, then *fillvalue*.

        >>> @DOC@ = iter('abc')
    """
    @IT@ = iter(iterable)
    @IT@_with_repeat = chain(@IT@, repeat(fillvalue))
    if n is None:
        return @IT@_with_repeat
    return chain(islice(@IT@_with_repeat, n), @IT@)


def _chunk(@IT@, n):
    cache = deque()
    chunk = islice(@IT@, n)
    return chunk, cache


def chunked(iterable, n):
    @IT@ = iter(iterable)
    while True:
        chunk, cache = _chunk(@IT@, n)
        if not cache:
            return
        yield chunk


class counted:
    def __init__(self, iterable):
        self.@ATTR@ = iter(iterable)
        self.items_seen = 0

    def __iter__(self):
        return self

    def __next__(self):
        item = next(self.@ATTR@)
        self.items_seen += 1
        return item
'''


def _module(it: str, attr: str) -> str:
    return _MODULE.replace("@IT@", it).replace("@DOC@", it).replace("@ATTR@", attr)


def test_renames_no_caller_meets_are_a_low_refactor(tmp_path: Path) -> None:
    before = {"pkg/more.py": _module("iterable", "_it")}
    after = {"pkg/more.py": _module("iterator", "_iterator")}
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Fix variable names: iterable vs iterator"
    )
    text = entry_text(analysis)
    assert "regression test" not in text
    assert "The fix is in" not in text
    assert "Compatibility" not in text and "`_chunk`" not in text
    assert analysis.change_types[0] is ChangeType.REFACTOR
    assert ChangeType.BUGFIX not in analysis.change_types
    assert analysis.importance is Importance.LOW
    assert Verdict.FALSE not in verdicts


def test_a_real_change_beside_the_renames_is_still_said(tmp_path: Path) -> None:
    # `padded` now pads with two fill values at the end: code, not a name
    changed = _module("iterator", "_iterator").replace(
        "return chain(islice(iterator_with_repeat, n), iterator)",
        "return chain(islice(iterator_with_repeat, n + 1), iterator)",
    )
    before = {"pkg/more.py": _module("iterable", "_it")}
    after = {"pkg/more.py": changed}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Fix padded's length")
    text = entry_text(analysis)
    assert ChangeType.BUGFIX in analysis.change_types
    assert analysis.importance is not Importance.LOW
    assert "`padded`" in text
    assert "`_chunk`" not in text
    assert Verdict.FALSE not in verdicts


def _digest(source: str) -> str:
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    return _code(function, renamed=True)


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        # a parameter rebound once, first: a local of its own from there on
        (
            "def f(xs):\n    xs = iter(xs)\n    return next(xs), xs\n",
            "def f(xs):\n    it = iter(xs)\n    return next(it), it\n",
            True,
        ),
        # read before it is rebound: the parameter's value, not the new local's
        (
            "def f(xs):\n    g(xs)\n    xs = iter(xs)\n    return xs\n",
            "def f(xs):\n    g(it)\n    it = iter(xs)\n    return it\n",
            False,
        ),
        # rebound twice: which value a read sees is the code's
        (
            "def f(xs):\n    xs = iter(xs)\n    xs = list(xs)\n    return xs\n",
            "def f(xs):\n    it = iter(xs)\n    xs = list(it)\n    return xs\n",
            False,
        ),
        # the original still read after the new local is bound: another value
        (
            "def f(xs):\n    xs = iter(xs)\n    return xs\n",
            "def f(xs):\n    it = iter(xs)\n    return xs\n",
            False,
        ),
        # a private function's parameter renamed throughout it
        ("def _f(a):\n    return a + 1\n", "def _f(b):\n    return b + 1\n", True),
        # a public function's is a name its callers pass
        ("def f(a):\n    return a + 1\n", "def f(b):\n    return b + 1\n", False),
        # two parameters of a private function swapped in one place: another code
        ("def _f(a, b):\n    return a - b\n", "def _f(a, b):\n    return b - a\n", False),
        # a local bound again by a statement of the body's own: a local of its own from there
        # on (tinydb c5337c4 "make mypy happy": `table` → `raw_table` before the rebinding)
        (
            "def f(d, k):\n    try:\n        t = d[k]\n    except KeyError:\n        t = {}\n"
            "    t = {int(i): v for i, v in t.items()}\n    return t\n",
            "def f(d, k):\n    try:\n        raw = d[k]\n    except KeyError:\n        raw = {}\n"
            "    t = {int(i): v for i, v in raw.items()}\n    return t\n",
            True,
        ),
        # bound again under an `if`: the old value may still be the one read
        (
            "def f(c):\n    t = 1\n    if c:\n        t = 2\n    return t\n",
            "def f(c):\n    r = 1\n    if c:\n        t = 2\n    return t\n",
            False,
        ),
        # a lambda reads it: it sees the latest value, whichever binding that is
        (
            "def f():\n    t = 1\n    g = lambda: t\n    t = 2\n    return g()\n",
            "def f():\n    r = 1\n    g = lambda: r\n    t = 2\n    return g()\n",
            False,
        ),
    ],
)
def test_the_same_code_up_to_names_no_caller_meets(old: str, new: str, same: bool) -> None:
    assert (_digest(old) == _digest(new)) is same


_LRU = """class LRUCache(dict):
    def __init__(self):
        super().__init__()
        self.__order = {}

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        self.__@NAME@(key)
        return value

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        self.__@NAME@(key)

    def __@NAME@(self, key):
        self.__order[key] = None
"""


def test_a_private_method_renamed_is_no_attribute_renamed(tmp_path: Path) -> None:
    # cachetools d049b50 "rename __{update,touch}()": the method is a definition renamed,
    # its public callers changed with it (not the same code as an instance attribute is)
    before = {"pkg/lru.py": _LRU.replace("@NAME@", "update")}
    after = {"pkg/lru.py": _LRU.replace("@NAME@", "touch")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "rename __update()")
    assert "changes only the private" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


_TABLE = """class Table:
    def __init__(self, storage, name):
        self._storage = storage
        self.name = name

    def _update_table(self, updater):
        tables = self._storage.read()
        if tables is None:
            tables = {}

        try:
            @RAW@ = tables[self.name]
        except KeyError:
            # The table does not exist yet, so it is empty
            @RAW@ = {}

        # Convert the document IDs to the document ID class.
        table = {
            int(doc_id): doc
            for doc_id, doc in @RAW@.items()
        }

        updater(table)
        tables[self.name] = {str(doc_id): doc for doc_id, doc in table.items()}
        self._storage.write(tables)
"""


def test_a_local_split_for_a_type_checker_is_a_low_refactor(tmp_path: Path) -> None:
    # tinydb c5337c4 "fix(table): make mypy happy" was a medium bug fix with "No test changed
    # with this fix of `Table._update_table`: ask for a regression test."
    before = {"tinydb/table.py": _TABLE.replace("@RAW@", "table")}
    after = {"tinydb/table.py": _TABLE.replace("@RAW@", "raw_table")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "fix(table): make mypy happy")
    text = entry_text(analysis)
    assert "regression test" not in text
    assert "The fix is in" not in text
    assert ChangeType.BUGFIX not in analysis.change_types
    assert analysis.importance is Importance.LOW
    assert Verdict.FALSE not in verdicts
