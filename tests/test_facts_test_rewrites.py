"""The migration a breaking commit's own tests show, said in Recommendations: lines of a
test file rewritten in place by one inserted call, several alike (tinydb ca85877 drops
evaluating a query without a test: its tests write `where('int').exists()` where they wrote
`where('int')`). A clone shaped like the commit, every sentence checked against it."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.facts.rewritten_tests import rewrite, rewritten_tests
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from tests.clones import checked_entry, second_commit, verdicts_of

QUERIES = '''"""Queries."""


def notest(_):
    raise RuntimeError('Empty query was evaluated')


class Query:
    def __init__(self, path=()):
        self._path = path
        self._test = {test}

    def __call__(self, value):
        return self._test(value)

    def exists(self):
        return Query(self._path)


def where(key):
    return Query((key,))
'''

TESTS = """from tinydb.queries import where


def test_search_path(db):
    assert not db._query_cache
    assert len(db.search(where('int'{e}))) == 3
    assert len(db._query_cache) == 1

    assert len(db.search(where('asd'{e}))) == 0
    assert len(db.search(where('int'{e}))) == 3  # Query result from cache


def test_search_no_results_cache(db):
    assert len(db.search(where('missing'{e}))) == 0
"""


def _tree(*, after: bool) -> dict[str, str | None]:
    return {
        "tinydb/__init__.py": '"""TinyDB."""\n',
        "tinydb/queries.py": QUERIES.format(test="notest" if after else "lambda _: True"),
        "tests/test_tinydb.py": TESTS.replace("'{e}", "').exists(" if after else "'"),
    }


def test_a_breaking_commit_says_how_its_tests_now_write_the_call(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _tree(after=False),
        _tree(after=True),
        "refactor(queries)!: drop support for evaluating queries without test",
    )
    said = (
        "Its tests now write `where('int').exists()` where they wrote `where('int')`"
        " (`tests/test_tinydb.py`), and 3 more alike."
    )
    assert said in [r.text for r in analysis.recommendations]
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_commit_that_is_not_breaking_says_nothing_of_its_tests(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path, _tree(after=False), _tree(after=True), "queries: check for empty queries"
    )
    assert not any("Its tests now write" in r.text for r in analysis.recommendations)


def test_only_one_insertion_of_a_call_or_argument_is_a_rewrite() -> None:
    pair = rewrite("    query = Query()['value']", "    query = Query()['value'].exists()")
    assert pair is not None and (pair.old, pair.new) == (
        "Query()['value']",
        "Query()['value'].exists()",
    )
    pair = rewrite("    db = TinyDB(path)", "    db = TinyDB(path, storage=MemoryStorage)")
    assert pair is not None and (pair.old, pair.new) == (
        "TinyDB(path)",
        "TinyDB(path, storage=MemoryStorage)",
    )
    # a name replaced, an argument's value changed, a string edited, two places changed
    assert rewrite("def test_path_only():", "def test_path_exists():") is None
    assert rewrite("    f(1)", "    f(2)") is None
    assert rewrite("    x = 'ab'", "    x = 'a.b()'") is None
    assert rewrite("    f(a) + g(b)", "    f(a).x() + g(b).x()") is None
    # one line alone is no migration the tests show
    before, after = "f(a)\nprint(1)\n", "f(a).x()\nprint(1)\n"
    assert rewritten_tests("tests/test_a.py", before, after) == []


def test_the_checker_refutes_rewrites_the_tests_do_not_make(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path, _tree(after=False), _tree(after=True), "refactor(queries)!: drop queries"
    )
    head = "Its tests now write"
    path = "(`tests/test_tinydb.py`)"
    cases = {
        f"{head} `where('int').exists()` where they wrote `where('int')` {path}, and 3 more alike.": True,
        f"{head} `where('asd').exists()` where they wrote `where('asd')` {path}.": True,
        # too many alike; a rewrite no line makes; no insertion; another file
        f"{head} `where('int').exists()` where they wrote `where('int')` {path}, and 4 more alike.": False,
        f"{head} `where('int').count()` where they wrote `where('int')` {path}.": False,
        f"{head} `where('x')` where they wrote `where('int')` {path}.": False,
        f"{head} `where('int').exists()` where they wrote `where('int')` (`tests/test_other.py`).": False,
    }
    for sentence, holds in cases.items():
        (kind, verdict), *_ = verdicts_of(root, commit.sha, sentence)
        assert kind is Kind.TESTS_REWRITE, sentence
        assert (verdict is Verdict.TRUE) is holds, sentence
