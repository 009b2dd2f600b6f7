"""A parameter's default moved from a name to the literal that name was bound to is no
change of default (tinydb 50d0cd8: `TinyDB.table(name=DEFAULT_TABLE)` to `name='_default'`,
the class binding `DEFAULT_TABLE = '_default'` at the parent). Clones shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_CLASS_BEFORE = """class TinyDB:
    DEFAULT_TABLE = '_default'

    def __init__(self, path):
        self.path = path

    def table(self, name=DEFAULT_TABLE, **options):
        return (self.path, name, options)
"""
_MODULE_BEFORE = """DEFAULT_TABLE = '_default'


def table(name=DEFAULT_TABLE, **options):
    return (name, options)
"""


def _entry(tmp_path: Path, before: str, after: str) -> tuple[str, list[Verdict]]:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"tinystore/database.py": before},
        {"tinystore/database.py": after},
        "refactor: use new architecture",
    )
    return entry_text(analysis), verdicts


@pytest.mark.parametrize("before", [_CLASS_BEFORE, _MODULE_BEFORE])
def test_a_default_written_as_the_value_of_its_name_is_kept(tmp_path: Path, before: str) -> None:
    # 50d0cd8 said "Changes the default of `TinyDB.table(name)` from `DEFAULT_TABLE` to
    # `'_default'`." and "Runs that do not set `TinyDB.table(name)` behave differently."
    after = before.replace("name=DEFAULT_TABLE", "name='_default'").replace(
        "    DEFAULT_TABLE = '_default'\n\n", ""
    )
    text, _ = _entry(tmp_path, before, after)
    assert "default of" not in text
    assert "behave differently" not in text


def test_a_name_of_another_value_is_still_a_change(tmp_path: Path) -> None:
    after = _CLASS_BEFORE.replace("name=DEFAULT_TABLE", "name='main'")
    text, verdicts = _entry(tmp_path, _CLASS_BEFORE, after)
    assert "from `DEFAULT_TABLE` to `'main'`" in text
    assert verdicts and Verdict.FALSE not in verdicts


def test_the_checker_reads_the_name_at_the_parent(tmp_path: Path) -> None:
    after = _CLASS_BEFORE.replace("name=DEFAULT_TABLE", "name='_default'")
    root, commit = second_commit(
        tmp_path,
        {"tinystore/database.py": _CLASS_BEFORE},
        {"tinystore/database.py": after},
        "refactor: use new architecture",
    )
    sha = commit.sha
    said = "Changes the default of `TinyDB.table(name)` from `DEFAULT_TABLE` to `'_default'`."
    assert [v for _, v in verdicts_of(root, sha, said)] == [Verdict.FALSE]
