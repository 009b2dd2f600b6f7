"""A function's local renamed throughout is the same code (issue 27, tkem/cachetools d20f70b
renames `expire`'s `head` to `curr` beside its fix of `__delitem__`; 668fdb3 binds `key` where
`item` was, and the `return` reads it): not edited, no condition "now tests", no statement
"became". An inconsistent swap, or a local renamed onto a name the function reads as a
global, still changes the code. Clones shaped like the commits, shortened."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.analysis.facts.pyfile import _code
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_TTL = """import time


class TTLCache(dict):
    def __init__(self, timer=time.monotonic):
        super().__init__()
        self.__timer = timer
        self.__root = root = _Link()
        root.prev = root.next = root
        self.__links = {}

    def __delitem__(self, key):
@DELITEM@

    def expire(self, time=None):
        if time is None:
            time = self.__timer()
        root = self.__root
        @HEAD@ = root.next
        links = self.__links
        while @HEAD@ is not root and @HEAD@.expire < time:
            dict.__delitem__(self, @HEAD@.key)
            del links[@HEAD@.key]
            next = @HEAD@.next
            @HEAD@.unlink()
            @HEAD@ = next


class _Link:
    def unlink(self):
        self.prev.next = self.next
        self.next.prev = self.prev
"""

_DEL_OLD = """        self.expire(self.__timer())
        dict.__delitem__(self, key)
        link = self.__links.pop(key)
        link.unlink()"""
_DEL_NEW = """        dict.__delitem__(self, key)
        link = self.__links.pop(key)
        link.unlink()
        if link.expire < self.__timer():
            raise KeyError(key)"""


def _ttl(head: str, delitem: str) -> str:
    return _TTL.replace("@HEAD@", head).replace("@DELITEM@", delitem)


def test_a_local_renamed_beside_the_fix_is_no_change(tmp_path: Path) -> None:
    # d20f70b "Fix #67: Do not call TTLCache.expire() from TTLCache.__delitem__()."
    before = {"cachetools/ttl.py": _ttl("head", _DEL_OLD)}
    after = {"cachetools/ttl.py": _ttl("curr", _DEL_NEW)}
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Fix #67: Do not call TTLCache.expire() from __delitem__()."
    )
    text = entry_text(analysis)
    assert "now tests" not in text
    assert "`curr" not in text
    assert "The fix is in `TTLCache.expire`" not in text
    assert "`TTLCache.__delitem__` no longer calls `expire`" in text
    assert Verdict.FALSE not in verdicts


def test_a_condition_of_a_renamed_local_in_an_edited_function_is_not_said(tmp_path: Path) -> None:
    # `expire` edited for real too (it now pops each link): its loop's test is the same
    edited = _ttl("curr", _DEL_NEW).replace("del links[curr.key]", "links.pop(curr.key)")
    before = {"cachetools/ttl.py": _ttl("head", _DEL_OLD)}
    after = {"cachetools/ttl.py": edited}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Fix #67: Do not expire on delete")
    text = entry_text(analysis)
    assert "now tests" not in text
    assert "`curr" not in text
    assert Verdict.FALSE not in verdicts


def test_the_local_renamed_inconsistently_is_still_said(tmp_path: Path) -> None:
    # the loop's test now reads the link and the root the other way round: a real change
    swapped = _ttl("head", _DEL_OLD).replace(
        "while head is not root and head.expire", "while root is not head and root.expire"
    )
    before = {"cachetools/ttl.py": _ttl("head", _DEL_OLD)}
    after = {"cachetools/ttl.py": swapped}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Fix expiring the root")
    text = entry_text(analysis)
    assert "`TTLCache.expire` now tests `root is not head and root.expire < time`" in text
    assert Verdict.FALSE not in verdicts


_LFU = '''import collections


class LFUCache(dict):
    def __init__(self):
        super().__init__()
        self.__counter = collections.Counter()

    def popitem(self):
        """Remove and return the `(key, value)` pair least frequently used."""
        try:
@BIND@
        except ValueError:
            raise KeyError("%s is empty" % type(self).__name__)
        else:
@RETURN@
'''


def _lfu(bind: str, returned: str) -> str:
    return _LFU.replace("@BIND@", bind).replace("@RETURN@", returned)


def test_a_statement_reading_a_local_bound_anew_did_not_become_another(tmp_path: Path) -> None:
    # 668fdb3 "Fix #66: Use Counter.most_common() for LFUCache.popitem()."
    before = {
        "cachetools/lfu.py": _lfu(
            "            item = min(self.__counter.items(), key=lambda kv: kv[1])",
            "            return (item[0], self.pop(item[0]))",
        )
    }
    after = {
        "cachetools/lfu.py": _lfu(
            "            ((key, _),) = self.__counter.most_common(1)",
            "            return (key, self.pop(key))",
        )
    }
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Fix #66: Use Counter.most_common() for LFUCache.popitem()."
    )
    text = entry_text(analysis)
    assert "became" not in text
    assert "return (key" not in text
    assert Verdict.FALSE not in verdicts


def _digest(source: str) -> str:
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    return _code(function, renamed=True)


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        # a consistent renaming, of a `for`, `with`, `except … as` and walrus target too
        (
            "def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n",
            "def f(xs):\n    s = 0\n    for item in xs:\n        s += item\n    return s\n",
            True,
        ),
        (
            "def f(p):\n    with open(p) as fh:\n        try:\n            return fh.read()\n"
            "        except OSError as exc:\n            raise ValueError(exc)\n",
            "def f(p):\n    with open(p) as stream:\n        try:\n            return stream.read()\n"
            "        except OSError as e:\n            raise ValueError(e)\n",
            True,
        ),
        (
            "def f(xs):\n    if (n := len(xs)):\n        return n\n",
            "def f(xs):\n    if (k := len(xs)):\n        return k\n",
            True,
        ),
        # two locals swapped in one place only
        (
            "def f():\n    a = g()\n    b = h()\n    return a - b\n",
            "def f():\n    a = g()\n    b = h()\n    return b - a\n",
            False,
        ),
        # a local renamed onto a global the function reads
        (
            "def f():\n    y = g()\n    return y + x\n",
            "def f():\n    x = g()\n    return x + x\n",
            False,
        ),
        # a parameter is no local
        ("def f(a):\n    return a\n", "def f(b):\n    return b\n", False),
        # `{x=}` prints the name; `locals()` reads the names
        (
            "def f():\n    x = 1\n    return f'{x=}'\n",
            "def f():\n    y = 1\n    return f'{y=}'\n",
            False,
        ),
        (
            "def f():\n    x = 1\n    return locals()\n",
            "def f():\n    y = 1\n    return locals()\n",
            False,
        ),
        # a comprehension's target is its own; the global read after it is not a local
        (
            "def f(xs):\n    [i for i in xs]\n    return i\n",
            "def f(xs):\n    [j for j in xs]\n    return j\n",
            False,
        ),
        # a default is read where the function is defined, not among its locals
        (
            "def f():\n    x = 1\n    def g(a=x):\n        return a\n    return g\n",
            "def f():\n    y = 1\n    def g(a=y):\n        return a\n    return g\n",
            True,
        ),
        # the default read where `f` is defined is a global's, whatever the body names
        (
            "def f(a=x):\n    x = 1\n    return a + x\n",
            "def f(a=y):\n    y = 1\n    return a + y\n",
            False,
        ),
    ],
)
def test_the_same_code_up_to_its_locals(old: str, new: str, same: bool) -> None:
    assert (_digest(old) == _digest(new)) is same
