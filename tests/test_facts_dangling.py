"""What shipped code at the commit proves fails where it runs, said in Risks: a module-level
name the commit removes that the module still reads (platformdirs 8102be8: `PY3` removed,
`if PY3:` kept in the win32 branch, a `NameError`), and a new call of a method of the same
class that leaves out a required argument (tinydb 43cf1ff: `Query.__init__` calls
`self._generate_test(lambda _: True)` without `hashval`, a `TypeError` on every `Query()`).
Each a clone shaped like the commit, every sentence checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.dangling import dangling, short_calls
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

APPDIRS = '''"""Application directories."""

import sys
{py3}
unicode = str


def _get_win_folder_from_registry(csidl_name):
    """The folder from the registry."""
    return csidl_name


def _get_win_folder_with_jna(csidl_name):
    """The folder through JNA."""
    buf = unicode(csidl_name)
    if {test}:
        return buf.upper()
    return buf


if sys.platform == "win32":
    _get_win_folder = _get_win_folder_with_jna
'''
PY3 = "PY3 = sys.version_info[0] == 3\n"


def _appdirs(*, removed: bool) -> dict[str, str | None]:
    return {
        "appdirs.py": APPDIRS.format(py3="" if removed else PY3, test="PY3"),
        "setup.py": "from setuptools import setup\nsetup(name='appdirs', py_modules=['appdirs'])\n",
    }


def test_a_removed_name_the_module_still_reads_is_a_name_error(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _appdirs(removed=False), _appdirs(removed=True), "Fix flake8-2020 (YTT)"
    )
    text = entry_text(analysis)
    said = (
        "`appdirs.py` still reads `PY3` (line 16), which this commit removes: "
        "a `NameError` where it runs."
    )
    assert said in [r.description for r in analysis.risks]
    assert said in text
    assert analysis.importance is not Importance.LOW
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_name_of_its_own_a_builtin_or_names_out_of_sight_say_nothing() -> None:
    before = APPDIRS.format(py3=PY3, test="PY3")
    # a local of the same name; a parameter; `globals()`; a star import; kept
    local = APPDIRS.format(py3="", test="PY3").replace("    buf =", "    PY3 = 1\n    buf =")
    param = APPDIRS.format(py3="", test="PY3").replace("jna(csidl_name)", "jna(csidl_name, PY3)")
    dynamic = APPDIRS.format(py3="globals()['PY3'] = True\n", test="PY3")
    star = APPDIRS.format(py3="from os.path import *\n", test="PY3")
    kept = APPDIRS.format(py3=PY3, test="PY3")
    for after in (local, param, dynamic, star, kept):
        assert dangling("appdirs.py", before, after) == [], after
    # read only in an annotation: nothing runs it
    annotated = APPDIRS.format(py3="", test="True").replace("(csidl_name):", "(csidl_name: PY3):")
    assert dangling("appdirs.py", before, annotated) == []


QUERIES = '''"""Queries."""


class QueryInstance:
    """A query's test."""

    def __init__(self, test, hashval):
        self._test = test
        self._hash = hashval


class Query(QueryInstance):
    """A query on a document's path."""

    def __init__(self):
        self._path = ()
{init}

    def _generate_test(self, test, hashval, allow_empty_path=False):
        if not self._path and not allow_empty_path:
            raise ValueError("Query has no path")
        return QueryInstance(test, hashval)

    def exists(self):
        return self._generate_test(lambda _: True, ("exists", self._path))
'''
INIT_BEFORE = "        super().__init__(lambda _: True, None)"
INIT_SHORT = "        super().__init__(self._generate_test(lambda _: True), None)"


def _queries(init: str) -> dict[str, str | None]:
    return {
        "tinydb/__init__.py": '"""TinyDB."""\n',
        "tinydb/queries.py": QUERIES.format(init=init),
    }


def test_a_new_call_without_a_required_argument_is_a_type_error(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _queries(INIT_BEFORE), _queries(INIT_SHORT), "Query: cache the empty query"
    )
    said = (
        "`Query.__init__` calls `_generate_test` without its required `hashval`: "
        "a `TypeError` where it runs."
    )
    assert said in [r.description for r in analysis.risks]
    assert analysis.importance is not Importance.LOW
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_calls_that_bind_what_they_must_or_may_run_another_method_say_nothing() -> None:
    before = QUERIES.format(init=INIT_BEFORE)
    full = "        super().__init__(self._generate_test(lambda _: True, None), None)"
    keyword = "        super().__init__(self._generate_test(test=None, hashval=1), None)"
    starred = "        super().__init__(self._generate_test(*self._args), None)"
    for init in (full, keyword, starred):
        assert short_calls("tinydb/queries.py", before, QUERIES.format(init=init)) == [], init
    # overridden in a subclass of the module: `self` may find that one
    sub = "\n\nclass Where(Query):\n    def _generate_test(self, test):\n        return test\n"
    after = QUERIES.format(init=INIT_SHORT) + sub
    assert short_calls("tinydb/queries.py", before + sub, after) == []
    # decorated: the decorator may take anything
    decorated = QUERIES.format(init=INIT_SHORT).replace(
        "    def _generate_test", "    @cached\n    def _generate_test"
    )
    assert short_calls("tinydb/queries.py", before, decorated) == []
    # a keyword it does not take
    unknown = "        super().__init__(self._generate_test(None, None, empty=True), None)"
    (call,) = short_calls("tinydb/queries.py", before, QUERIES.format(init=unknown))
    assert (call.missing, call.unknown) == ((), ("empty",))


def test_the_checker_refutes_what_the_code_does_not_prove(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {**_appdirs(removed=False), **_queries(INIT_BEFORE)},
        {**_appdirs(removed=True), **_queries(INIT_SHORT)},
        "Fix flake8-2020 (YTT); Query: cache the empty query",
    )
    tail = "which this commit removes: a `NameError` where it runs."
    fails = "a `TypeError` where it runs."
    cases = {
        f"`appdirs.py` still reads `PY3` (line 16), {tail}": True,
        # another line; a name the module still binds; a builtin
        f"`appdirs.py` still reads `PY3` (line 17), {tail}": False,
        f"`appdirs.py` still reads `unicode` (line 15), {tail}": False,
        f"`appdirs.py` still reads `str` (line 5), {tail}": False,
        f"`Query.__init__` calls `_generate_test` without its required `hashval`: {fails}": True,
        # given by position; has a default; a method that passes both
        f"`Query.__init__` calls `_generate_test` without its required `test`: {fails}": False,
        "`Query.__init__` calls `_generate_test` without its required `allow_empty_path`: "
        + fails: False,
        f"`Query.exists` calls `_generate_test` without its required `hashval`: {fails}": False,
        "`Query.__init__` passes `_generate_test` the keyword `empty`, which it does not take: "
        + fails: False,
    }
    for sentence, holds in cases.items():
        (kind, verdict), *_ = verdicts_of(root, commit.sha, sentence)
        assert kind in (Kind.STILL_READS, Kind.CALL_SHORT, Kind.CALL_UNKNOWN), sentence
        assert (verdict is Verdict.TRUE) is holds, sentence


def test_a_package_submodule_name_may_be_read_without_a_statement_binding_it() -> None:
    # `import pkg.helpers` anywhere makes `helpers` an attribute of `pkg`: no NameError
    before = '"""Package."""\nfrom . import helpers\n\n\ndef run():\n    return helpers.go()\n'
    after = '"""Package."""\n\n\ndef run():\n    return helpers.go()\n'
    assert dangling("pkg/__init__.py", before, after) == []
    assert dangling("pkg/core.py", before, after) != []


def test_a_kept_call_of_a_callee_that_now_requires_more_is_a_type_error() -> None:
    before = QUERIES.format(init=INIT_BEFORE)
    # `exists` kept its call; `_generate_test` now requires `allow_empty_path`
    after = before.replace("hashval, allow_empty_path=False)", "hashval, allow_empty_path)")
    (call,) = short_calls("tinydb/queries.py", before, after)
    assert (call.caller, call.callee, call.missing) == (
        "Query.exists",
        "_generate_test",
        ("allow_empty_path",),
    )
    # a call that was short already is no news of this commit
    assert (
        short_calls(
            "tinydb/queries.py",
            after,
            after.replace("(self):\n        self", "(self):\n        x = 1\n        self"),
        )
        == []
    )


def test_a_method_that_only_stands_for_a_subclass_one_says_nothing() -> None:
    before = QUERIES.format(init=INIT_BEFORE)
    after = QUERIES.format(init=INIT_SHORT).replace(
        "        if not self._path and not allow_empty_path:\n"
        '            raise ValueError("Query has no path")\n'
        "        return QueryInstance(test, hashval)\n",
        "        raise NotImplementedError\n",
    )
    assert "NotImplementedError" in after
    assert short_calls("tinydb/queries.py", before, after) == []


COMPAT = '"""Compatibility."""\n\nimport sys\n\n{py3}text_type = str\n'
USER = (
    '"""Users of the compatibility names."""\n\nfrom .compat import {names}\n\n\n'
    "def name(value):\n    return text_type(value)\n"
)


def test_a_changed_module_that_still_imports_a_removed_name_is_an_import_error(
    tmp_path: Path,
) -> None:
    def tree(py3: str, names: str) -> dict[str, str | None]:
        return {
            "pkg/__init__.py": '"""Package."""\n',
            "pkg/compat.py": COMPAT.format(py3=py3),
            "pkg/user.py": USER.format(names=names),
        }

    analysis, verdicts = checked_entry(
        tmp_path,
        tree(PY3, "PY3, text_type"),
        tree("", "PY3, text_type  # noqa: F401"),
        "compat: Python 3 only",
    )
    said = (
        "`pkg/user.py` still imports `PY3` from `pkg/compat.py` (line 3), which this commit "
        "removes: an `ImportError` where it runs."
    )
    assert said in [r.description for r in analysis.risks]
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    # inside a `try`: a fallback may stand for it
    guarded = USER.format(names="text_type").replace(
        "from .compat import text_type",
        "try:\n    from .compat import PY3\nexcept ImportError:\n    PY3 = True\n"
        "from .compat import text_type",
    )
    _, commit = second_commit(
        tmp_path / "guarded",
        tree(PY3, "text_type"),
        {**tree("", "text_type"), "pkg/user.py": guarded},
        "compat",
    )
    assert not any("ImportError" in r.description for r in analyze(commit).risks)


def test_the_checker_refutes_imports_the_code_does_not_prove(tmp_path: Path) -> None:
    before = {"pkg/compat.py": COMPAT.format(py3=PY3), "pkg/user.py": USER.format(names="PY3")}
    after = {"pkg/compat.py": COMPAT.format(py3=""), "pkg/user.py": USER.format(names="PY3, sys")}
    root, commit = second_commit(tmp_path, before, after, "compat: Python 3 only")
    tail = "which this commit removes: an `ImportError` where it runs."
    cases = {
        f"`pkg/user.py` still imports `PY3` from `pkg/compat.py` (line 3), {tail}": True,
        # another line; a name the module still binds; another module
        f"`pkg/user.py` still imports `PY3` from `pkg/compat.py` (line 4), {tail}": False,
        f"`pkg/user.py` still imports `sys` from `pkg/compat.py` (line 3), {tail}": False,
        f"`pkg/user.py` still imports `PY3` from `pkg/user.py` (line 3), {tail}": False,
    }
    for sentence, holds in cases.items():
        (kind, verdict), *_ = verdicts_of(root, commit.sha, sentence)
        assert kind is Kind.IMPORTS_GONE, sentence
        assert (verdict is Verdict.TRUE) is holds, sentence


def test_a_call_is_kept_only_where_the_parent_made_one_written_the_same() -> None:
    before = "def f(a, b):\n    return a\n\n\ndef g():\n    f(1)\n"
    # the parent's call was short already: kept once, news the second time
    twice = before + "    f(1)\n"
    assert len(short_calls("m.py", before, twice)) == 1
    # `1.0` is another constant than `1` (equal as numbers): a new call
    other = before.replace("f(1)", "f(1.0)")
    assert [(c.callee, c.missing) for c in short_calls("m.py", before, other)] == [("f", ("b",))]
