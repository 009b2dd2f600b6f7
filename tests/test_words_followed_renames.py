"""A definition whose only difference is the new name of one the same commit renamed follows
the rename: not edited, never where "the fix is", the rename said once (tkem/cachetools
aae7bf5: `_makekey` → `makekey_untyped`, `_makekey_typed` → `makekey_typed`, and
`cachedmethod` only calling them by their new names). Through an import of the renamed
helper (`from ._keys import _key` → `… _hashkey`) or its module (`keys._key` →
`keys._hashkey`) too. A caller that also changed, or now calls another definition, is
still edited. Clones shaped like the commits, shortened."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts import read_facts
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_DECORATORS = """import functools


def @UNTYPED@(args, kwargs):
    return (args, tuple(sorted(kwargs.items())))


def @TYPED@(args, kwargs):
    key = @UNTYPED@(args, kwargs)
    key += tuple(type(v) for v in args)
    return key


def cachedfunc(cache, typed, lock):
    makekey = @TYPED@ if typed else @UNTYPED@

    def decorator(func):
        def wrapper(*args, **kwargs):
            key = makekey(args, kwargs)
            with @LOCK@:
                try:
                    return cache[key]
                except KeyError:
                    pass
            result = cache[key] = func(*args, **kwargs)
            return result

        return functools.update_wrapper(wrapper, func)

    return decorator


def cachedmethod(cache, typed=False):
    makekey = @TYPED@ if typed else @UNTYPED@

    def decorator(method):
        def wrapper(self, *args, **kwargs):
            mapping = cache(self)
            key = makekey((method,) + args, kwargs)
            try:
                return mapping[key]
            except KeyError:
                pass
            result = mapping[key] = method(self, *args, **kwargs)
            return result

        return functools.update_wrapper(wrapper, method)

    return decorator
"""


def _decorators(untyped: str, typed: str, lock: str = "lock") -> str:
    return (
        _DECORATORS.replace("@UNTYPED@", untyped).replace("@TYPED@", typed).replace("@LOCK@", lock)
    )


def test_a_function_calling_renamed_helpers_is_not_where_the_fix_is(tmp_path: Path) -> None:
    # aae7bf5 "Fix #16: Support unsynchronized function decorators.": `cachedfunc` edited for
    # real, `cachedmethod` only calls the two helpers by their new names
    before = {"cachetools/decorators.py": _decorators("_makekey", "_makekey_typed")}
    after = {"cachetools/decorators.py": _decorators("makekey_untyped", "makekey_typed", "context")}
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Fix #16: Support unsynchronized function decorators."
    )
    text = entry_text(analysis)
    assert "this fix of `cachedfunc`:" in text
    assert "cachedmethod" not in text
    # the rename said once, where a definition that follows it is shipped
    assert text.count("Renames `_makekey` to `makekey_untyped`") == 1
    assert "Removes" not in text
    assert Verdict.FALSE not in verdicts
    facts = read_facts(second_commit(tmp_path / "again", before, after, "Fix #16")[1])
    assert [n.name for n in facts.changed] == ["cachedfunc"]
    assert [(r.old.name, r.new.name) for r in facts.renamed] == [
        ("_makekey", "makekey_untyped"),
        ("_makekey_typed", "makekey_typed"),
    ]
    assert not facts.added and not facts.removed


_KEYS = "def {name}(*args):\n    return tuple(args) + ('sentinel', len(args), 'k')\n"
_API = """{imports}


def cached(cache):
    def decorator(func):
        def wrapper(*args):
            k = {key}(*args)
            if k in cache:
                return cache[k]
            cache[k] = v = func(*args)
            return v

        return wrapper

    return decorator


def clear(cache):
    cache.clear(){clear}
"""


@pytest.mark.parametrize(
    ("imports", "key"),
    [
        ("from ._keys import {name}", "{name}"),
        ("from . import _keys", "_keys.{name}"),
        ("import cachetools._keys as _keys", "_keys.{name}"),
    ],
    ids=["from-import", "module-attribute", "module-imported-as"],
)
def test_a_caller_that_only_follows_an_imported_rename_is_not_edited(
    tmp_path: Path, imports: str, key: str
) -> None:
    def files(name: str, clear: str = "") -> dict[str, str | None]:
        return {
            "cachetools/__init__.py": "from .api import cached, clear\n",
            "cachetools/_keys.py": _KEYS.format(name=name),
            "cachetools/api.py": _API.format(
                imports=imports.format(name=name), key=key.format(name=name), clear=clear
            ),
        }

    before, after = files("_key"), files("_hashkey", clear="\n    return None")
    analysis, verdicts = checked_entry(tmp_path, before, after, "Fix clearing a cache")
    text = entry_text(analysis)
    assert "this fix of `clear`:" in text
    assert "`cached`" not in text
    assert Verdict.FALSE not in verdicts
    facts = read_facts(second_commit(tmp_path / "again", before, after, "Fix")[1])
    assert [n.name for n in facts.changed] == ["clear"]
    assert [(r.old.name, r.new.name) for r in facts.renamed] == [("_key", "_hashkey")]


def test_a_caller_that_follows_a_rename_and_changes_is_edited(tmp_path: Path) -> None:
    before = {"cachetools/decorators.py": _decorators("_makekey", "_makekey_typed")}
    after = {
        "cachetools/decorators.py": _decorators("makekey_untyped", "makekey_typed").replace(
            "mapping = cache(self)",
            "mapping = cache(self)\n            if mapping is None:"
            "\n                return method(self, *args, **kwargs)",
        )
    }
    facts = read_facts(second_commit(tmp_path, before, after, "Fix #15")[1])
    assert [n.name for n in facts.changed] == ["cachedmethod"]


def test_a_caller_now_calling_another_definition_is_edited(tmp_path: Path) -> None:
    # `_makekey` renamed, but `cachedmethod` now calls the other helper where it called it
    before = {"cachetools/decorators.py": _decorators("_makekey", "_makekey_typed")}
    after_text = _decorators("makekey_untyped", "_makekey_typed").replace(
        "makekey = _makekey_typed if typed else makekey_untyped\n\n    def decorator(method)",
        "makekey = _makekey_typed if typed else _makekey_typed\n\n    def decorator(method)",
    )
    assert after_text.count("else _makekey_typed") == 1
    facts = read_facts(
        second_commit(tmp_path, before, {"cachetools/decorators.py": after_text}, "Fix")[1]
    )
    assert "cachedmethod" in [n.name for n in facts.changed]


def test_a_local_of_the_renamed_name_is_no_reference_to_it(tmp_path: Path) -> None:
    # `shadowed` binds its own `_key`: its `_key` → `_hashkey` is a change of what it reads
    code = (
        "def {name}(*args):\n    return tuple(args) + ('sentinel', len(args), 'k')\n\n\n"
        "def shadowed(args):\n    _key = len\n    return {read}(args)\n"
    )
    before = {"m/keys.py": code.format(name="_key", read="_key")}
    after = {"m/keys.py": code.format(name="_hashkey", read="_hashkey")}
    facts = read_facts(second_commit(tmp_path, before, after, "Rename")[1])
    assert [(r.old.name, r.new.name) for r in facts.renamed] == [("_key", "_hashkey")]
    assert [n.name for n in facts.changed] == ["shadowed"]


def test_a_helper_made_public_that_callers_follow_is_said_renamed_once(tmp_path: Path) -> None:
    code = (
        "def {name}(items):\n    return sorted(set(items), key=str.lower)\n\n\n"
        "def run(items):\n    return [x for x in {name}(items) if x]\n"
    )
    before = {"tidy/core.py": code.format(name="_unique")}
    after = {"tidy/core.py": code.format(name="unique")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Make unique public")
    text = entry_text(analysis)
    assert text.count("Renames `_unique` to `unique` in `tidy/core.py`.") == 1
    assert "`run`" not in text
    assert Verdict.FALSE not in verdicts


def test_a_default_that_names_the_renamed_helper_did_not_change(tmp_path: Path) -> None:
    # `key=_key` → `key=_hashkey` is the same function as the default: no default changed,
    # no "behave differently", no break
    code = (
        "def {name}(*args):\n    return tuple(args) + ('sentinel', len(args), 'k')\n\n\n"
        "def cached(cache, key={name}):\n    return cache\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "tidy/__init__.py": "from .keys import cached\n",
            "tidy/keys.py": code.format(name="_key"),
        },
        {"tidy/keys.py": code.format(name="_hashkey")},
        "Rename the key helper",
    )
    assert entry_text(analysis) == "Renames `_key` to `_hashkey` in `tidy/keys.py`."
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts


def test_a_caller_of_a_helper_moved_out_under_another_name_only_follows_it(
    tmp_path: Path,
) -> None:
    # `_key` leaves `api.py` for `_keys.py` as `_hashkey`; `api.py` imports it from there
    helper = "def {name}(*args):\n    return tuple(args) + ('sentinel', len(args), 'k')\n"
    caller = "def lookup(cache, *args):\n    return cache.get({name}(*args))\n"
    before = {"tidy/api.py": helper.format(name="_key") + "\n\n" + caller.format(name="_key")}
    after = {
        "tidy/_keys.py": helper.format(name="_hashkey"),
        "tidy/api.py": "from ._keys import _hashkey\n\n\n" + caller.format(name="_hashkey"),
    }
    facts = read_facts(second_commit(tmp_path, before, after, "Move the key helper")[1])
    assert [(m.old.name, m.new.name, m.new.path) for m in facts.moved] == [
        ("_key", "_hashkey", "tidy/_keys.py")
    ]
    assert not facts.changed
    assert [(f.name, f.rename.new.name) for f in facts.followed] == [("lookup", "_hashkey")]
