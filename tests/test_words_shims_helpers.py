"""What no user can observe is no Compatibility nor Architecture: a Python 2 shim's call
written as the method it stood for (tinydb 06c6863: `iteritems(table)` became
`table.items()`, `iteritems = getattr(dict, 'iteritems', dict.items)` at the parent), and a
call of a helper the caller binds itself (tinydb 43cf1ff: `Query.any` now calls its own
nested `test`, not the method `Query.test`). Clones shaped like the commits."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_UTILS = '''"""Utility functions."""

# Python 2/3 independant dict iteration
iteritems = getattr(dict, @NAME@, dict.items)


def freeze(obj):
    if isinstance(obj, dict):
        return frozenset(obj.items())
    return obj
'''
_DATABASE = '''"""The database."""

from .utils import iteritems


class StorageProxy:
    def __init__(self, storage, table_name):
        self._storage = storage
        self._table_name = table_name

    def read(self):
        raw_data = self._storage.read() or {}
        table = raw_data.get(self._table_name, {})
        docs = {}
        for key, val in @LOOP@:
            docs[int(key)] = val
        return docs
'''


def _shim_entry(tmp_path: Path, name: str) -> tuple[str, list[Verdict]]:
    before = {
        "tinydb/__init__.py": "",
        "tinydb/utils.py": _UTILS.replace("@NAME@", name),
        "tinydb/database.py": _DATABASE.replace("@LOOP@", "iteritems(table)"),
    }
    after = {
        "tinydb/__init__.py": "",
        # (the shim goes with its last caller, as 06c6863 removed it: the file read whole)
        "tinydb/utils.py": _UTILS.replace("iteritems = getattr(dict, @NAME@, dict.items)\n", ""),
        "tinydb/database.py": _DATABASE.replace("@LOOP@", "table.items()").replace(
            "from .utils import iteritems\n", ""
        ),
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "refactor: remove Python 2 support")
    return entry_text(analysis), verdicts


def test_a_shims_call_written_as_its_method_is_the_same_statement(tmp_path: Path) -> None:
    # 06c6863: "Compatibility: In `StorageProxy.read`, `for key, val in iteritems(table):`
    # became `for key, val in table.items():`."
    text, verdicts = _shim_entry(tmp_path, "'iteritems'")
    assert "became" not in text
    assert Verdict.FALSE not in verdicts


def test_a_shim_that_stands_for_another_method_is_said(tmp_path: Path) -> None:
    # `dict` has `items`: the getattr gives `dict.items`, never the `dict.keys` written last
    text, _ = _shim_entry(tmp_path, "'items'")
    assert "became `for key, val in table.items():`" in text.replace("\n", " ")


_QUERIES = '''"""Queries."""


class Query:
    def __init__(self):
        self._path = ()

    def test(self, func):
        """Run a user-defined test function against a dict value."""
        return self._generate_test(lambda value: func(value), ('test', self._path, func))

    def _generate_test(self, test, hashval):
        return (test, hashval)

    def any(self, cond):
        """Check if a condition is met by any document in a list."""
        if isinstance(cond, list):
            def @HELPER@(value):
                return any(e in cond for e in value)
        else:
            def @HELPER@(value):
                return any(cond(e) for e in value)

        return self._generate_test(lambda value: @HELPER@(value), ('any', self._path, cond))
'''


def test_a_call_of_the_callers_own_helper_is_not_said(tmp_path: Path) -> None:
    # 43cf1ff: "`Query._generate_test`, `Query.any`, `Query.all` now call `test`" (its own
    # nested helper, renamed from `_cmp`, or a parameter)
    analysis, verdicts = checked_entry(
        tmp_path,
        {"tinydb/queries.py": _QUERIES.replace("@HELPER@", "_cmp")},
        {"tinydb/queries.py": _QUERIES.replace("@HELPER@", "test")},
        "refactor(queries): improve code clarity",
    )
    text = entry_text(analysis)
    assert "now calls `test`" not in text and "now call `test`" not in text
    assert Verdict.FALSE not in verdicts
