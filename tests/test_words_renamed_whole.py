"""Renames the body digest misses: a class renamed with its methods, its own name read inside
it and an attribute renamed throughout (tinydb 43cf1ff `QueryImpl` → `QueryInstance`,
`hashval` → `_hash`), and a method renamed whose docstring says the same but for the words
its name changed (tinydb 50d0cd8 `purge_tables` → `drop_tables`, `purge` → `truncate`).
Clones shaped like the commits."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_QUERIES = '''"""Queries."""

from typing import Callable, Mapping, Tuple


class QueryImpl:
    """
    A query instance.
    """

    def __init__(self, test: Callable[[Mapping], bool], hashval: Tuple):
        self._test = test
        self.hashval = hashval

    def __call__(self, value: Mapping) -> bool:
        return self._test(value)

    def __hash__(self):
        return hash(self.hashval)

    def __repr__(self):
        return 'QueryImpl{}'.format(self.hashval)

    def __eq__(self, other: object):
        if isinstance(other, QueryImpl):
            return self.hashval == other.hashval
        return False

    def __and__(self, other: 'QueryImpl') -> 'QueryImpl':
        return QueryImpl(lambda value: self(value) and other(value),
                         ('and', frozenset([self.hashval, other.hashval])))

    def __invert__(self) -> 'QueryImpl':
        return QueryImpl(lambda value: not self(value), ('not', self.hashval))


class Query(QueryImpl):
    """TinyDB Queries."""

    def __init__(self):
        self._path = ()
        super().__init__(lambda _: True, ('path', self._path))

    def exists(self) -> QueryImpl:
        """Test for a dict where a provided key exists."""
        return QueryImpl(lambda value: bool(value), ('exists', self._path))
'''


def _renamed_class(body: str) -> str:
    return (
        body.replace("QueryImpl(", "QueryInstance(")
        .replace("QueryImpl:", "QueryInstance:")
        .replace("'QueryImpl'", "'QueryInstance'")
        .replace("-> QueryImpl", "-> QueryInstance")
        .replace("isinstance(other, QueryImpl)", "isinstance(other, QueryInstance)")
        .replace("hashval = hashval", "_hash = hashval")
        .replace(".hashval", "._hash")
    )


def _entry(
    tmp_path: Path, path: str, before: str, after: str, title: str
) -> tuple[str, list[Verdict]]:
    analysis, verdicts = checked_entry(tmp_path, {path: before}, {path: after}, title)
    return entry_text(analysis), verdicts


def test_a_class_renamed_with_its_methods_is_a_rename(tmp_path: Path) -> None:
    # 43cf1ff said "Removes `QueryImpl`" and "Adds `QueryInstance(test, hashval)`", and
    # "`Query.exists` now returns `QueryInstance` (was `QueryImpl`)"
    after = _renamed_class(_QUERIES)
    assert "QueryImpl{}" in after and "self._hash" in after
    text, verdicts = _entry(
        tmp_path, "tinystore/queries.py", _QUERIES, after, "refactor(queries): improve code clarity"
    )
    assert "Renames `QueryImpl` to `QueryInstance`" in text
    assert "Removes `QueryImpl`" not in text
    assert "Adds `QueryInstance" not in text
    assert "(was `QueryImpl`)" not in text
    assert verdicts and Verdict.FALSE not in verdicts


def test_a_class_renamed_whose_method_changed_is_not(tmp_path: Path) -> None:
    after = _renamed_class(_QUERIES).replace(
        "return self._test(value)", "return bool(self._test(value))"
    )
    text, _ = _entry(
        tmp_path, "tinystore/queries.py", _QUERIES, after, "refactor(queries): improve code clarity"
    )
    assert "Renames `QueryImpl`" not in text


_DATABASE = '''"""The database."""


class Table:
    """A table."""

    def __init__(self, storage, name):
        self._storage = storage
        self._name = name
        self._last_id = 0

    def _write(self, data):
        self._storage.write({self._name: data})

    def _update(self, updater):
        data = self._storage.read() or {}
        table = data.get(self._name, {})
        updater(table)
        self._write(table)

    def insert(self, document):
        """Insert a new document into the table."""
        self._update(lambda table: table.update({len(table): document}))

    def purge(self):
        """
        Purge the table by removing all documents.
        """

        self._write({})
        self._last_id = 0
'''


# another method added beside (one out and one in with the same parameters is paired alone)
_COUNT = """
    def count(self):
        \"\"\"Count the documents.\"\"\"
        return len(self._storage.read() or {})
"""


def test_a_method_renamed_with_its_docstring_is_a_rename(tmp_path: Path) -> None:
    # 50d0cd8 said "Removes `Table.process_elements`, `Table.write_back`, `Table.purge`" and
    # hid `Table.truncate` among what it added
    after = (
        _DATABASE.replace(
            '''    def purge(self):
        """
        Purge the table by removing all documents.
        """

        self._write({})''',
            '''    def truncate(self):
        """
        Truncate the table by removing all documents.
        """

        self._update(lambda table: table.clear())''',
        )
        + _COUNT
    )
    text, verdicts = _entry(
        tmp_path, "tinystore/database.py", _DATABASE, after, "refactor: use new architecture"
    )
    assert "Renames `Table.purge` to `Table.truncate`" in text
    assert "Callers of `Table.purge` fail" in text
    assert "Removes `Table.purge`" not in text
    assert verdicts and Verdict.FALSE not in verdicts


def test_a_docstring_that_says_more_is_no_rename(tmp_path: Path) -> None:
    # (a body that differs too, and another method added: one out and one in with the
    # same parameters, or the same body, is a rename whatever the docstring says)
    after = (
        _DATABASE.replace("def purge(self):", "def truncate(self):")
        .replace(
            "Purge the table by removing all documents.",
            "Truncate the table by removing all documents and resetting the IDs.",
        )
        .replace("self._write({})\n", "self._update(lambda table: table.clear())\n")
    ) + _COUNT
    text, _ = _entry(
        tmp_path, "tinystore/database.py", _DATABASE, after, "refactor: use new architecture"
    )
    assert "Renames `Table.purge`" not in text


_REINDENT = '''"""Reindent."""


class ReindentFilter:
    def __init__(self):
        self._curr_stmt = None

    def _flatten_up_to_token(self, token):
        """Yields all tokens up to token but excluding current."""
        if token.is_group:
            token = next(token.flatten())
        for t in self._curr_stmt.flatten():
            if t == token:
                break
            yield t

    def _get_offset(self, token):
        raw = ''.join(map(str, self._flatten_up_to_token(token)))
        return len((raw or '\\n').splitlines()[-1])
'''
_MEASURED = '''"""Reindent."""


class ReindentFilter:
    def __init__(self):
        self._curr_stmt = None

    def _current_line_len(self, token):
        """Returns the width of what is already emitted on the token's line."""
        length = 0
        node = token
        while node is not self._curr_stmt and node.parent is not None:
            stack = node.parent.tokens[:node.parent.tokens.index(node)]
            while stack:
                prev_ = stack.pop()
                if '\\n' in prev_.value:
                    return length + len(prev_.value.rsplit('\\n', 1)[-1])
                length += len(prev_.value)
            node = node.parent
        return length

    def _get_offset(self, token):
        return self._current_line_len(token)
'''


def test_a_method_gone_and_another_doing_other_things_in_its_place_is_no_rename(
    tmp_path: Path,
) -> None:
    # sqlparse a51df6d: a token generator deleted, a method measuring a line added, both
    # `(self, token)`: two changes, not one renamed
    path = "sqlparse/filters/reindent.py"
    text, verdicts = _entry(tmp_path, path, _REINDENT, _MEASURED, "Measure offsets backwards")
    assert "Renames `ReindentFilter._flatten_up_to_token`" not in text
    # (private wiring goes unsaid on a medium entry: the new method is said by what it does)
    assert "`_current_line_len`, whose docstring says" in text
    assert "Renames" not in text
    assert Verdict.FALSE not in verdicts
    # the same method under a new name, one line edited, still is
    renamed = _REINDENT.replace("_flatten_up_to_token", "_tokens_before").replace(
        "if t == token:", "if t is token:"
    )
    text, _ = _entry(tmp_path / "again", path, _REINDENT, renamed, "Rename a helper")
    assert (
        "Renames `ReindentFilter._flatten_up_to_token` to `ReindentFilter._tokens_before`" in text
    )
