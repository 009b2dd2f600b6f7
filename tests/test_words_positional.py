"""A positional parameter another now stands before, and an `__all__` entry naming nothing:
what the held-out reader of cachetools found (ebd7920 said a break as a parameter gained;
bf2de58's restored comma said as a removal), each a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_CACHE = (
    "class Cache(object):\n"
    '    """Mutable mapping to serve as a simple cache or cache base class."""\n\n'
    "    def __init__(self, maxsize, {params}):\n"
    "        self.__data = dict()\n"
    "        self.__currsize = 0\n"
    "        self.__maxsize = maxsize\n"
    "        self.__getsizeof = getsizeof\n\n"
    "    def __len__(self):\n"
    "        return len(self.__data)\n"
)
_LRU = (
    "from .cache import Cache\n\n\n"
    "class LRUCache(Cache):\n"
    '    """Least Recently Used (LRU) cache implementation."""\n\n'
    "    def __init__(self, maxsize, {params}):\n"
    "        Cache.__init__(self, maxsize, getsizeof=getsizeof)\n"
    "        self.__order = []\n"
)
_INIT = '"""Caches."""\n\nfrom .cache import Cache\nfrom .lrucache import LRUCache\n'


def _caches(tmp_path: Path, before: str, after: str, title: str) -> tuple[str, list[Verdict]]:
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "cachetools/__init__.py": _INIT,
            "cachetools/cache.py": _CACHE.format(params=before),
            "cachetools/lrucache.py": _LRU.format(params=before),
        },
        {
            "cachetools/cache.py": _CACHE.format(params=after),
            "cachetools/lrucache.py": _LRU.format(params=after),
        },
        title,
    )
    return entry_text(analysis) if analysis.breaking else "", verdicts


def test_a_parameter_inserted_before_a_positional_one_breaks_positional_callers(
    tmp_path: Path,
) -> None:
    # cachetools ebd7920 "Add Cache.__missing__()": `Cache(maxsize, getsizeof=None)` became
    # `Cache(maxsize, missing=None, getsizeof=None)`, said as a parameter gained, medium
    text, verdicts = _caches(
        tmp_path, "getsizeof=None", "missing=None, getsizeof=None", "Add Cache.__missing__()"
    )
    assert "`Cache`, `LRUCache` gain the parameter `missing` before `getsizeof`." in text
    assert "Calls that pass `getsizeof` by position now pass it as `missing`." in text
    assert Verdict.FALSE not in verdicts
    said = "`Cache` gains the parameter `missing` before `getsizeof`."
    assert verdicts_of(tmp_path / "repo", "HEAD", said) == [(Kind.PARAM_BEFORE_NEW, Verdict.TRUE)]
    for wrong in (
        "`Cache` gains the parameter `maxsize` before `getsizeof`.",
        "`Cache` now takes `missing` before `getsizeof`.",
        "`Cache` gains the parameter `missing` before `maxsize`.",
    ):
        assert [v for _, v in verdicts_of(tmp_path / "repo", "HEAD", wrong)] == [Verdict.FALSE]


@pytest.mark.parametrize(
    "after",
    ["getsizeof=None, missing=None", "getsizeof=None, *, missing=None"],
    ids=["appended", "keyword-only"],
)
def test_a_parameter_after_the_positional_ones_shifts_nobody(tmp_path: Path, after: str) -> None:
    text, verdicts = _caches(tmp_path, "getsizeof=None", after, "Add Cache.__missing__()")
    assert text == ""
    assert Verdict.FALSE not in verdicts
    wrong = "`Cache` gains the parameter `missing` before `getsizeof`."
    assert [v for _, v in verdicts_of(tmp_path / "repo", "HEAD", wrong)] == [Verdict.FALSE]


def test_positional_parameters_reordered_break_positional_callers(tmp_path: Path) -> None:
    text, verdicts = _caches(
        tmp_path, "getsizeof=None, missing=None", "missing=None, getsizeof=None", "Reorder"
    )
    assert "`Cache`, `LRUCache` now take `missing` before `getsizeof`." in text
    assert "Calls that pass `getsizeof` by position now pass it as `missing`." in text
    assert Verdict.FALSE not in verdicts


def test_a_private_module_s_function_shifts_no_caller(tmp_path: Path) -> None:
    code = "def evict(cache, {params}):\n    return cache.popitem()\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "cachetools/__init__.py": '"""Caches."""\n',
            "cachetools/_evict.py": code.format(params="count=1"),
        },
        {"cachetools/_evict.py": code.format(params="key=None, count=1")},
        "Evict by key",
    )
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts


_EXPORTS = (
    '"""Extensible memoizing collections and decorators"""\n\n'
    "from .cache import Cache\nfrom .decorators import cachedmethod\n"
    "from .lfu import LFUCache\n{extra}\n"
    "__all__ = (\n    'Cache',\n    'cachedmethod'{comma}\n    'LFUCache',{more}\n)\n"
)
_MODULES = {
    "cachetools/cache.py": "class Cache(object):\n    pass\n",
    "cachetools/decorators.py": "def cachedmethod(cache):\n    return cache\n",
    "cachetools/lfu.py": "from .cache import Cache\n\n\nclass LFUCache(Cache):\n    pass\n",
    "cachetools/rr.py": "from .cache import Cache\n\n\nclass RRCache(Cache):\n    pass\n",
}


def test_an_all_entry_naming_nothing_is_no_export_removed(tmp_path: Path) -> None:
    # cachetools bf2de58 "Prepare v0.8.0" restored the comma a4f3125 lost: `'cachedmethod'
    # 'LFUCache'` was one string, `cachedmethodLFUCache`, that nothing bound; the entry said
    # "Code that imports `cachedmethodLFUCache` from `cachetools` fails.", high
    analysis, verdicts = checked_entry(
        tmp_path,
        {**_MODULES, "cachetools/__init__.py": _EXPORTS.format(extra="", comma="", more="")},
        {"cachetools/__init__.py": _EXPORTS.format(extra="", comma=",", more="")},
        "Prepare v0.8.0",
    )
    assert not analysis.breaking
    assert "cachedmethodLFUCache" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_an_export_its_module_bound_still_breaks_when_removed(tmp_path: Path) -> None:
    extra = "from .rr import RRCache\n"
    analysis, _ = checked_entry(
        tmp_path,
        {
            **_MODULES,
            "cachetools/__init__.py": _EXPORTS.format(extra=extra, comma=",", more=" 'RRCache',"),
        },
        {"cachetools/__init__.py": _EXPORTS.format(extra="", comma=",", more="")},
        "Drop RRCache from the package",
    )
    assert analysis.breaking
    assert "Code that imports `RRCache` from `cachetools` fails." in entry_text(analysis)


@pytest.mark.parametrize(
    ("before", "after", "shifted"),
    [
        # after `*args`, a parameter is keyword-only: no call passes it by position
        ("*args, count=1", "*args, key=None, count=1", False),
        ("*, count=1", "key=None, *, count=1", False),
        # `*args` put before it makes `count` keyword-only: no parameter takes its place
        ("count=1", "*args, count=1", False),
        ("count=1", "*, key=None, count=1", False),
        # before `/` or before `*args`, positional arguments still bind in order
        ("count=1, *args", "key=None, count=1, *args", True),
        ("/, count=1", "key=None, /, count=1", True),
        ("count=1, **kw", "key=None, count=1, **kw", True),
    ],
)
def test_a_place_taken_is_said_only_where_python_binds_positional_arguments_anew(
    tmp_path: Path, before: str, after: str, shifted: bool
) -> None:
    code = "def evict(cache, {params}):\n    return cache.popitem()\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "cachetools/__init__.py": '"""Caches."""\n\nfrom .evict import evict\n',
            "cachetools/evict.py": code.format(params=before),
        },
        {"cachetools/evict.py": code.format(params=after)},
        "Evict by key",
    )
    said = "Calls that pass `count` by position now pass it as `key`." in entry_text(analysis)
    assert said is shifted
    # (`count` made keyword-only breaks its positional callers too: not a place taken, said
    # or not elsewhere)
    assert analysis.breaking or not shifted
    assert Verdict.FALSE not in verdicts
