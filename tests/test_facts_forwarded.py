"""An option a function stopped taking out of its `**kwargs` now reaches the call it forwards
them to, said in Compatibility (tinydb 50d0cd8: `TinyDB.__init__` no longer pops
`default_table`; `TinyDB('db.json', default_table='x')` now hands it to the storage, a
`TypeError` there). A clone shaped like the commit, every sentence checked against it."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.facts.forwarded import forwarded_options
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from tests.clones import checked_entry, second_commit, verdicts_of

BEFORE = '''"""Database."""
from .storages import JSONStorage


class TinyDB:
    DEFAULT_TABLE = '_default'

    def __init__(self, *args, **kwargs):
        storage = kwargs.pop('storage', JSONStorage)
        default_table = kwargs.pop('default_table', self.DEFAULT_TABLE)
        self._storage = storage(*args, **kwargs)
        self._default = default_table
'''

AFTER = '''"""Database."""
from .storages import JSONStorage


class TinyDB:
    def __init__(self, *args, **kwargs):
        storage = kwargs.pop('storage', JSONStorage)
        self._storage = storage(*args, **kwargs)
'''


def _tree(database: str) -> dict[str, str | None]:
    return {
        "tinydb/__init__.py": '"""TinyDB."""\n',
        "tinydb/storages.py": '"""Storages."""\n\n\nclass JSONStorage:\n    pass\n',
        "tinydb/database.py": database,
    }


def test_an_option_no_longer_popped_now_reaches_the_forwarding_call(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _tree(BEFORE), _tree(AFTER), "refactor: use new architecture"
    )
    said = (
        "`TinyDB.__init__` no longer takes `default_table` itself: it now passes it on to"
        " `storage(...)`."
    )
    assert analysis.insights is not None
    assert said in (analysis.insights.compatibility or "")
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_an_option_still_read_or_kwargs_not_passed_on_say_nothing() -> None:
    still = AFTER.replace(
        "        self._storage",
        "        self._d = kwargs.get('default_table')\n        self._storage",
    )
    assert forwarded_options("tinydb/database.py", BEFORE, still) == []
    kept = AFTER.replace("storage(*args, **kwargs)", "storage(*args)")
    assert forwarded_options("tinydb/database.py", BEFORE, kept) == []
    rebound = AFTER.replace("        self._storage", "        kwargs = {}\n        self._storage")
    assert forwarded_options("tinydb/database.py", BEFORE, rebound) == []


def test_the_checker_refutes_what_the_function_does_not_forward(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path, _tree(BEFORE), _tree(AFTER), "refactor: new architecture"
    )
    cases = {
        "`TinyDB.__init__` no longer takes `default_table` itself: it now passes it on to `storage(...)`.": True,
        # still popped; another callee; another function
        "`TinyDB.__init__` no longer takes `storage` itself: it now passes it on to `storage(...)`.": False,
        "`TinyDB.__init__` no longer takes `default_table` itself: it now passes it on to `JSONStorage(...)`.": False,
        "`TinyDB.table` no longer takes `default_table` itself: it now passes it on to `storage(...)`.": False,
    }
    for sentence, holds in cases.items():
        (kind, verdict), *_ = verdicts_of(root, commit.sha, sentence)
        assert kind is Kind.FORWARDS, sentence
        assert (verdict is Verdict.TRUE) is holds, sentence
