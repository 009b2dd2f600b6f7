"""What an edited public function now returns, and the new exception its new guard raises,
said from its two parses ("`TTLCache.expire` now returns `expired`", "`cached` now raises
`TypeError` when `cache is None`"), and the claims checker's own reading of those sentences
against a clone's commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind, claims_in
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# cachetools bb4b37c's shape: `expire` removed the expired items and returned nothing
CACHE_BEFORE = '''\
class TTLCache:
    def __init__(self):
        self.items = {}

    def expire(self, time=None):
        """Remove expired items from the cache."""
        for key in list(self.items):
            if self.items[key] < time:
                del self.items[key]

    def state(self):
        return "open"

    def size(self):
        total = 0
        for key in self.items:
            total += 1
        return total


def cached(cache, key=None):
    def decorator(func):
        return func

    return decorator
'''

CACHE_AFTER = '''\
class TTLCache:
    def __init__(self):
        self.items = {}

    def expire(self, time=None):
        """Remove expired items from the cache."""
        expired = []
        for key in list(self.items):
            if self.items[key] < time:
                expired.append((key, self.items.pop(key)))
        return expired

    def state(self):
        return "closed"

    def size(self):
        count = 0
        for key in self.items:
            count += 1
        return count


def cached(cache, key=None):
    if cache is None:
        raise TypeError(cache)

    def decorator(func):
        return func

    return decorator
'''


def _entry(tmp_path: Path, before: str, after: str, message: str = "Fix cache expiry") -> str:
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/cache.py": before}, {"pkg/cache.py": after}, message
    )
    assert all(v is not Verdict.FALSE for v in verdicts)
    return entry_text(analysis)


def test_a_function_that_returned_nothing_is_said_to_return_its_value(tmp_path: Path) -> None:
    text = _entry(tmp_path, CACHE_BEFORE, CACHE_AFTER)
    assert "`TTLCache.expire` now returns `expired`." in text
    # a literal every `return` gave, another now
    assert "`TTLCache.state` now returns `'closed'` instead of `'open'`." in text
    # a local renamed is no other value
    assert "`TTLCache.size`" not in text


def test_a_new_exception_under_a_new_top_guard_is_said_with_its_condition(
    tmp_path: Path,
) -> None:
    text = _entry(tmp_path, CACHE_BEFORE, CACHE_AFTER)
    assert "`cached` now raises `TypeError` when `cache is None`." in text
    assert "may now raise `TypeError`" not in text


def test_a_new_guard_s_message_stays_where_may_now_raise_is_and_when_is_said_too(
    tmp_path: Path,
) -> None:
    after = CACHE_AFTER.replace("TypeError(cache)", 'TypeError("cache must not be None")')
    text = _entry(tmp_path, CACHE_BEFORE, after)
    assert "`cached` may now raise `TypeError` with “cache must not be None”." in text
    assert "`cached` now raises `TypeError` when `cache is None`." in text


def test_a_guard_inside_a_loop_or_one_of_two_raises_stays_may_now_raise(tmp_path: Path) -> None:
    before = "def load(items):\n    for item in items:\n        print(item)\n"
    after = (
        "def load(items):\n"
        "    for item in items:\n"
        "        if item is None:\n"
        "            raise TypeError('no item')\n"
        "        print(item)\n"
    )
    text = _entry(tmp_path, before, after, "Check items")
    assert "may now raise `TypeError`" in text
    assert "when `item is None`" not in text


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # a generator's `return` gives its caller no value
        (
            "def walk(xs):\n    for x in xs:\n        yield x\n",
            "def walk(xs):\n    for x in xs:\n        yield x\n    return len(xs)\n",
        ),
        # one way out still runs off the end: `None` there
        (
            "def find(xs, y):\n    for x in xs:\n        print(x)\n",
            "def find(xs, y):\n    for x in xs:\n        if x == y:\n            return x\n",
        ),
        # three `return`s: too many ways for one sentence
        (
            "def pick(a, b):\n    print(a)\n",
            "def pick(a, b):\n    if a:\n        return a\n    if b:\n"
            "        return b\n    return None\n",
        ),
        # what it returns is no short expression
        (
            "def total(xs):\n    print(xs)\n",
            "def total(xs):\n    return sum(x * 2 for x in xs if x)\n",
        ),
    ],
)
def test_what_is_not_proven_or_short_is_not_said(tmp_path: Path, before: str, after: str) -> None:
    text = _entry(tmp_path, before, after, "Rework")
    assert "now returns `" not in text


def test_a_private_function_s_return_is_not_said(tmp_path: Path) -> None:
    before = "def _expire(items):\n    items.clear()\n"
    after = "def _expire(items):\n    gone = list(items)\n    items.clear()\n    return gone\n"
    assert "now returns `" not in _entry(tmp_path, before, after, "Rework")


@pytest.mark.parametrize(
    ("sentence", "kind", "verdict"),
    [
        ("`TTLCache.expire` now returns `expired`.", Kind.RETURNS_NOW, Verdict.TRUE),
        ("`TTLCache.expire` now returns `items`.", Kind.RETURNS_NOW, Verdict.FALSE),
        # it returned a value at the parent already
        ("`TTLCache.size` now returns `count`.", Kind.RETURNS_NOW, Verdict.FALSE),
        (
            "`TTLCache.state` now returns `'closed'` instead of `'open'`.",
            Kind.RETURNS_INSTEAD,
            Verdict.TRUE,
        ),
        (
            "`TTLCache.state` now returns `'open'` instead of `'closed'`.",
            Kind.RETURNS_INSTEAD,
            Verdict.FALSE,
        ),
        # the return type's sentence is another claim
        ("`TTLCache.state` now returns `str` (was `int`).", Kind.RETURN_TYPE, Verdict.FALSE),
        ("`cached` now raises `TypeError` when `cache is None`.", Kind.GUARD, Verdict.TRUE),
        ("`cached` now raises `TypeError` when `key is None`.", Kind.GUARD, Verdict.FALSE),
    ],
)
def test_the_checker_reads_the_sentences_by_python_s_rules(
    tmp_path: Path, sentence: str, kind: Kind, verdict: Verdict
) -> None:
    root, commit = second_commit(
        tmp_path, {"pkg/cache.py": CACHE_BEFORE}, {"pkg/cache.py": CACHE_AFTER}, "x"
    )
    claims, _ = claims_in(sentence)
    assert [c.kind for c in claims] == [kind]
    assert verdicts_of(root, commit.sha, sentence) == [(kind, verdict)]


def test_the_checker_refutes_a_value_said_of_a_generator(tmp_path: Path) -> None:
    before = "def walk(xs):\n    for x in xs:\n        yield x\n"
    after = "def walk(xs):\n    for x in xs:\n        yield x\n    return xs\n"
    root, commit = second_commit(tmp_path, {"pkg/w.py": before}, {"pkg/w.py": after}, "x")
    sentence = "`walk` now returns `xs`."
    assert verdicts_of(root, commit.sha, sentence) == [(Kind.RETURNS_NOW, Verdict.FALSE)]


def test_a_value_that_may_run_off_the_end_is_unverifiable(tmp_path: Path) -> None:
    before = "def find(xs, y):\n    print(xs)\n"
    after = "def find(xs, y):\n    for x in xs:\n        if x == y:\n            return x\n"
    root, commit = second_commit(tmp_path, {"pkg/f.py": before}, {"pkg/f.py": after}, "x")
    sentence = "`find` now returns `x`."
    assert verdicts_of(root, commit.sha, sentence) == [(Kind.RETURNS_NOW, Verdict.UNVERIFIABLE)]


def test_a_private_helper_s_new_guard_is_no_compatibility_insight(tmp_path: Path) -> None:
    # boltons' shape: a public `__getitem__` fixed through its private `_real_index`, which
    # gained a guard; callers meet the exception through `__getitem__`, not the helper
    before = (
        "class IndexedSet:\n"
        "    def _real_index(self, index):\n        return index\n\n"
        "    def __getitem__(self, index):\n        return self._real_index(index)\n"
    )
    after = (
        "class IndexedSet:\n"
        "    def _real_index(self, index):\n"
        "        if index < 0:\n            raise IndexError(index)\n"
        "        return index\n\n"
        "    def __getitem__(self, index):\n        return self._real_index(index)\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/cache.py": before},
        {"pkg/cache.py": after},
        "Fix negative indexes\n\nA negative index no longer reads the set from its end.",
    )
    assert all(v is not Verdict.FALSE for v in verdicts)
    assert analysis.insights is not None
    said = "`IndexedSet._real_index` now raises `IndexError` when `index < 0`"
    assert said in entry_text(analysis)
    assert said in (analysis.insights.architecture or "")
    assert said not in (analysis.insights.compatibility or "")


def test_a_private_helper_s_condition_rewritten_is_no_compatibility_insight(
    tmp_path: Path,
) -> None:
    before = (
        "class Table:\n"
        "    def _rule(self, options):\n"
        "        if options == 'frame':\n            return '+'\n        return '-'\n\n"
        "    def render(self, options):\n        return self._rule(options)\n"
    )
    after = before.replace("if options == 'frame':", "if options in ('all', 'frame'):")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/table.py": before},
        {"pkg/table.py": after},
        "Fix rules of all-bordered tables\n\nTables with every border drew the wrong rule.",
    )
    assert all(v is not Verdict.FALSE for v in verdicts)
    assert analysis.insights is not None
    assert "`Table._rule`" in (analysis.insights.architecture or "")
    assert "`Table._rule`" not in (analysis.insights.compatibility or "")
