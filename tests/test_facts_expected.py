"""What a fix's new test cases assert: the input it now handles, with the output its test
expects (pydash d40364e "Fix has() to work with lists" adds the rows `(([1, 2, 3], 0), True)`
… to the `parametrize` table of `test_has`, whose one statement asserts
`pyd.has(*case) == expected`); and the keys of a new public table (sqlparse db1ebe2 "add
snowflake and bq keywords" adds `KEYWORDS_SNOWFLAKE = {'ACCOUNT': tokens.Keyword, …}`).
Clones shaped like the commits, every sentence checked against them; python-tabulate 12a805b
(a fix in `_format` pinned through `tabulate` by a new test) and 0ca4ff3 (a `u` prefix dropped)."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.facts.expected import expected_cases
from bot.cli.claim_check import Verdict
from bot.digest.safety import inline
from tests.clones import checked_entry

OBJECTS = '''"""Objects."""


def has(obj, key):
    """Checks if `key` exists as a key of `obj`."""
    return {body}


def keys(obj):
    """Creates a list composed of the keys of `obj`."""
    return list(obj)
'''

TESTS = """import pydash as pyd
from .fixtures import parametrize


@parametrize('case,expected', [
    (({{'a': 1, 'b': 2, 'c': 3}}, 'b'), True),{rows}
])
def test_has(case, expected):
    assert pyd.has(*case) == expected


@parametrize('case,expected', [
    ({{'a': 1}}, ['a']),{more}
])
def test_keys(case, expected):
    assert set(pyd.keys(case)) == set(expected)
"""

ROWS = """
    (([1, 2, 3], 0), True),
    (([1, 2, 3], 1), True),
    (([1, 2, 3], 3), False),"""


def _tree(*, after: bool, more: str = "") -> dict[str, str | None]:
    body = "key in [k for k, _ in enumerate(obj)]" if after else "key in obj"
    return {
        "pydash/__init__.py": '"""pydash."""\nfrom .objects import has, keys\n',
        "pydash/objects.py": OBJECTS.format(body=body),
        "tests/test_objects.py": TESTS.format(rows=ROWS if after else "", more=more),
    }


def test_a_fix_says_the_cases_its_new_tests_assert(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _tree(after=False), _tree(after=True), "Fix has() to work with lists."
    )
    assert analysis.summary == (
        "The test `test_has` now also pins `pydash.has([1, 2, 3], 0)` to `True`, and 2 more cases."
    )
    assert all(v is Verdict.TRUE for v in verdicts)


def test_cases_of_a_function_the_commit_leaves_alone_are_not_said(tmp_path: Path) -> None:
    # a row added to `test_keys` beside the fix of `has`: `keys` is not what the fix changed
    more = "\n    ([1, 2], [0, 1]),"
    analysis, _ = checked_entry(
        tmp_path, _tree(after=False), _tree(after=True, more=more), "Fix has() for lists."
    )
    assert "pydash.keys" not in str(analysis.model_dump())
    assert "pins `pydash.has([1, 2, 3], 0)` to `True`" in analysis.summary


def test_tests_alone_say_no_case(tmp_path: Path) -> None:
    # the rows without a change of the shipped code: what already held, no change's effect
    before = _tree(after=False)
    after = {**before, "tests/test_objects.py": TESTS.format(rows=ROWS, more="")}
    analysis, _ = checked_entry(tmp_path, before, after, "Test has() with lists.")
    assert "assert" not in analysis.summary


def test_the_cases_a_test_file_gains() -> None:
    before = "import m\n\n\ndef test_f():\n    assert m.f(1) == 2\n"
    after = (
        "import m\nfrom m import g\nimport pytest\n\n\n"
        "def test_f():\n    assert m.f(1) == 2\n    assert m.f('a b') == ['a', 'b']\n"
        "    assert len(m.f([1, 2])) == 2\n    assert sorted(m.h(3)) == sorted([3, 1])\n"
        "    assert g(x=None) == {}\n\n\n"
        "class TestF:\n    def test_e(self):\n        self.assertEqual(m.f(0), 0)\n"
    )
    said = [(c.call, c.value) for c in expected_cases("tests/test_m.py", before, after)]
    assert said == [
        ("m.f('a b')", "['a', 'b']"),
        ("len(m.f([1, 2]))", "2"),
        ("sorted(m.h(3))", "sorted([3, 1])"),
        ("m.g(x=None)", "{}"),
        ("m.f(0)", "0"),
    ]


def test_no_case_where_the_assertion_is_not_a_literal_call_of_an_imported_function() -> None:
    after = (
        "import m\nimport pytest\n\n\ndef helper(x):\n    return x\n\n\n"
        "def test_f(tmp_path):\n"
        "    assert helper(1) == 1\n"  # the test file's own function
        "    assert m._f(1) == 1\n"  # a private one
        "    assert m.f(tmp_path) == 1\n"  # an argument no literal
        "    assert m.f(1) == tmp_path\n"  # a value no literal
        "    assert m.f(1) != 2\n"  # no equality
        "    assert set(m.f(1)) == [1]\n"  # wrapped on one side only
        "    assert m.f(1)\n\n\n"
        "@pytest.mark.xfail\ndef test_g():\n    assert m.f(2) == 3\n\n\n"
        "@pytest.mark.parametrize('a,b', [(1, 2)])\ndef test_h(a, b):\n"
        "    x = a\n    assert m.f(x) == b\n"  # a table fed through another statement
    )
    assert expected_cases("tests/test_m.py", "", after) == []


def test_a_parametrize_table_with_a_list_of_names_and_starred_rows() -> None:
    after = (
        "import pytest\nimport m\n\n\n"
        "@pytest.mark.parametrize(['args', 'want'], [((1, 2), 3), ([4], 4), (5, 5)])\n"
        "def test_add(args, want):\n    assert m.add(*args) == want\n"
    )
    said = [(c.call, c.value, c.function) for c in expected_cases("t/test_m.py", "", after)]
    # (the row whose `args` is no tuple cannot be spread: not said)
    assert said == [("m.add(1, 2)", "3", "m.add"), ("m.add(4)", "4", "m.add")]


KEYWORDS = '''"""Keywords."""
from sqlparse import tokens

KEYWORDS_COMMON = {{
    'SELECT': tokens.Keyword.DML,
}}
{more}'''

NEW = """
KEYWORDS_SNOWFLAKE = {
    'ACCOUNT': tokens.Keyword,
    'PIVOT': tokens.Keyword,
    'QUALIFY': tokens.Keyword,
    'UNPIVOT': tokens.Keyword,
}

_PRIVATE = {
    'X': tokens.Keyword,
}
"""


def test_a_new_public_table_says_its_first_keys(tmp_path: Path) -> None:
    before = {
        "sqlparse/__init__.py": '"""sqlparse."""\n',
        "sqlparse/tokens.py": "Keyword = 1\n",
        "sqlparse/keywords.py": KEYWORDS.format(more=""),
    }
    after = {**before, "sqlparse/keywords.py": KEYWORDS.format(more=NEW)}
    analysis, verdicts = checked_entry(tmp_path, before, after, "add snowflake keywords")
    assert analysis.summary == (
        'Adds `KEYWORDS_SNOWFLAKE` to `sqlparse/keywords.py`, with the keys `"ACCOUNT"`,'
        ' `"PIVOT"`, `"QUALIFY"` and 1 more.'
    )
    assert "_PRIVATE" not in str(analysis.model_dump())
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


COLLECTIONS = '''"""Collections."""


def sort_by(collection, callback=None):
    """Sorts the values of `collection`."""
{guard}    return sorted(collection, key=callback)
'''


def test_a_new_if_that_binds_a_parameter_anew_says_what_the_function_now_takes(
    tmp_path: Path,
) -> None:
    # (pydash 1215c65: dict collections' values for `sort_by`)
    guard = "    if isinstance(collection, dict):\n        collection = collection.values()\n\n"
    before = {
        "pydash/__init__.py": '"""pydash."""\nfrom .collections import sort_by\n',
        "pydash/collections.py": COLLECTIONS.format(guard=""),
    }
    after = {**before, "pydash/collections.py": COLLECTIONS.format(guard=guard)}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Use dict values in sort_by().")
    said = (
        "`sort_by` now sets `collection = collection.values()` when `isinstance(collection, dict)`."
    )
    assert said in str(analysis.model_dump())
    assert all(v is Verdict.TRUE for v in verdicts)
    # a branch with an `else`, or one that binds a local, is no parameter taken otherwise
    other = "    if isinstance(collection, dict):\n        values = collection.values()\n\n"
    after = {**before, "pydash/collections.py": COLLECTIONS.format(guard=other)}
    analysis, _ = checked_entry(tmp_path / "b", before, after, "Use dict values in sort_by().")
    assert "now sets" not in str(analysis.model_dump())


def test_a_parameter_bound_anew_under_a_test_another_function_had_already(tmp_path: Path) -> None:
    # the file's `to_list` tested `isinstance(collection, dict)` at the parent: `sort_by`'s
    # new `if` of it is still new (pydash 1215c65)
    guard = "    if isinstance(collection, dict):\n        collection = collection.values()\n\n"
    other = (
        "\n\ndef to_list(collection):\n    if isinstance(collection, dict):\n"
        "        collection = collection.values()\n    return list(collection)\n"
    )
    before = {
        "pydash/__init__.py": '"""pydash."""\nfrom .collections import sort_by\n',
        "pydash/collections.py": COLLECTIONS.format(guard="") + other,
    }
    after = {**before, "pydash/collections.py": COLLECTIONS.format(guard=guard) + other}
    analysis, _ = checked_entry(tmp_path, before, after, "Use dict values in sort_by().")
    assert "`sort_by` now sets `collection = collection.values()`" in analysis.summary


def test_a_call_bound_to_a_name_then_asserted() -> None:
    # sqlparse's regression tests: `p = sqlparse.parse(sql)[0]` then `assert str(p) == …`;
    # `result = f(a)` then `assert result == b` or `assert len(result) == n`
    after = (
        "import sqlparse\nfrom m import f\n\n\n"
        "def test_a():\n"
        "    sql = 'select 1'\n"
        "    p = sqlparse.parse(sql)[0]\n"
        "    assert str(p) == 'select 1'\n"
        "    result = sqlparse.format('select  x', reindent=True)\n"
        "    assert result == 'select x'\n"
        "    r = f('a b')\n"
        "    assert len(r) == 2\n"
    )
    said = [(c.call, c.value, c.function) for c in expected_cases("tests/t.py", "", after)]
    assert said == [
        ("str(sqlparse.parse('select 1')[0])", "'select 1'", "sqlparse.parse"),
        ("sqlparse.format('select  x', reindent=True)", "'select x'", "sqlparse.format"),
        ("len(m.f('a b'))", "2", "m.f"),
    ]


def test_a_name_bound_anew_or_to_no_literal_call_says_no_case() -> None:
    after = (
        "import m\n\n\n"
        "def test_a(tmp_path):\n"
        "    r = m.f('a')\n"
        "    r = m.g(tmp_path)\n"  # bound anew, to a call of no literal
        "    assert r == 1\n"
        "    s = m.f('b')\n"
        "    for s in range(2):\n"  # bound anew by a loop
        "        assert s == 1\n"
        "    t = m.f('c')\n"
        "    assert t.tokens == 1\n"  # an attribute of the result: not what the call gives
        "    md = m.create()\n"
        "    assert md('x') == 'y'\n"  # a callable the test made, not an imported function
    )
    assert expected_cases("tests/t.py", "", after) == []


# python-tabulate 12a805b "Merge pull request #319 … intfmt-string-values": the fix is in
# `_format`, reached through the public `tabulate`; the new test in the old test file
# binds the call and the literal first and asserts with `common.assert_equal(expected,
# result)`, the value first
TABULATE = '''"""Pretty-print tabular data."""


def _format(val, intfmt):
{fix}    return format(val, intfmt)


def tabulate(rows, intfmt="", tablefmt="simple"):
    """Format a fixed width table."""
    cells = [_format(row[0], intfmt) for row in rows]
    width = max(len(c) for c in cells)
    return "\\n".join(c.rjust(width) for c in cells)
'''
TABULATE_FIX = "    if isinstance(val, str):\n        intfmt = ''\n"
TABULATE_TESTS = '''"""Test output of the various forms of tabular data."""
from common import assert_equal
from tabulate import tabulate


def test_intfmt():
    "Output: integer format"
    result = tabulate([[10000], [10]], intfmt=",", tablefmt="plain")
    expected = "10,000\\n    10"
    assert_equal(expected, result)
{more}'''
TABULATE_NEW = """

def test_intfmt_with_string_as_integer():
    "Output: integer format"
    result = tabulate([[82642], ["1500"], [2463]], intfmt=",", tablefmt="plain")
    expected = "82,642\\n  1500\\n 2,463"
    assert_equal(expected, result)
"""


def _tabulate(*, after: bool) -> dict[str, str | None]:
    return {
        "tabulate/__init__.py": TABULATE.format(fix=TABULATE_FIX if after else ""),
        "test/common.py": "def assert_equal(expected, result):\n    assert expected == result\n",
        "test/test_output.py": TABULATE_TESTS.format(more=TABULATE_NEW if after else ""),
    }


def test_a_helpers_equality_with_the_value_first() -> None:
    before, after = (_tabulate(after=a)["test/test_output.py"] or "" for a in (False, True))
    said = expected_cases("test/test_output.py", before, after)
    assert [(c.call, c.value, c.function, c.test, c.new) for c in said] == [
        (
            "tabulate.tabulate([[82642], ['1500'], [2463]], intfmt=',', tablefmt='plain')",
            "'82,642\\n  1500\\n 2,463'",
            "tabulate.tabulate",
            "test_intfmt_with_string_as_integer",
            True,
        )
    ]


def test_a_fix_reached_through_the_public_function_says_what_its_new_test_pins(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _tabulate(after=False), _tabulate(after=True), "Fix intfmt for string values"
    )
    said = (
        "The new test `test_intfmt_with_string_as_integer` pins"
        " `tabulate.tabulate([[82642], ['1500'], [2463]], intfmt=',', tablefmt='plain')`"
        " to `'82,642\\n  1500\\n 2,463'`."
    )
    assert analysis.summary == said
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    # the digest shows the literal's runs of spaces as written: `'  1500'` is not `' 1500'`
    assert "`'82,642\\n  1500\\n 2,463'`" in inline(analysis.summary)


def test_a_new_test_file_of_a_function_the_fix_leaves_alone_says_no_case(tmp_path: Path) -> None:
    # the fix in `_format`, a new test *file* calling `tabulate`: not said (a new file's cases
    # of every function the fix reaches would be a list of the suite)
    before = {k: v for k, v in _tabulate(after=False).items() if k != "test/test_output.py"}
    after = {**_tabulate(after=True), "test/test_output.py": TABULATE_TESTS.format(more="")}
    analysis, _ = checked_entry(tmp_path, before, after, "Fix intfmt for string values")
    assert "pins" not in str(analysis.model_dump())


def test_a_u_prefix_dropped_is_no_new_case() -> None:
    # python-tabulate 0ca4ff3 "strings without u-prefix": `expected = u'1.235\n1.000'` became
    # `'1.235\n1.000'`
    test = (
        "from common import assert_equal\nfrom tabulate import tabulate\n\n\n"
        "def test_floatfmt():\n"
        "    result = tabulate([['1.23456789'], [1.0]], floatfmt='.3f', tablefmt='plain')\n"
        "    expected = {value}\n    assert_equal(expected, result)\n"
    )
    before = test.format(value="u'1.235\\n1.000'")
    after = test.format(value="'1.235\\n1.000'")
    assert expected_cases("test/test_output.py", before, after) == []
    assert [c.value for c in expected_cases("test/test_output.py", "", before)] == [
        "'1.235\\n1.000'"
    ]


def test_a_call_a_new_test_expects_to_raise() -> None:
    # lark c169b26 "fix/declare-rule-name-crash": `self.assertRaises(GrammarError, Lark,
    # """start: "a"\n%declare foo""")`; natsort 929ab69: `with raises(TypeError):
    # natsorted(100)`
    before = (
        "from unittest import TestCase\nfrom pytest import raises\n"
        "from lark import Lark\nfrom lark.load_grammar import GrammarError\n"
        "from natsort import natsorted\n\n\n"
        "class TestGrammar(TestCase):\n"
        "    def test_undefined_term(self):\n"
        '        self.assertRaises(GrammarError, Lark, """start: A""")\n'
    )
    after = (
        before + "\n    def test_declare_rule_name(self):\n"
        '        self.assertRaises(GrammarError, Lark, """start: "a"\\n%declare foo""")\n\n\n'
        "def test_natsorted():\n    with raises(TypeError):\n        natsorted(100)\n"
        "    with raises(TypeError):\n        natsorted(x)\n"  # no literal
    )
    said = expected_cases("tests/test_grammar.py", before, after)
    assert [(c.call, c.value, c.test, c.new, c.raises) for c in said] == [
        (
            "lark.Lark('start: \"a\"\\n%declare foo')",
            "GrammarError",
            "test_declare_rule_name",
            True,
            True,
        ),
        ("natsort.natsorted(100)", "TypeError", "test_natsorted", True, True),
    ]


LOAD_GRAMMAR = '''"""Parses and compiles Lark grammars."""


class GrammarError(Exception):
    pass


def load_grammar(text):
    """Loads a grammar: the names it declares."""
    declared = []
    for line in text.splitlines():
        if line.startswith("%declare "):
            for name in line.split()[1:]:
{fix}                declared.append(name.upper())
    return declared
'''
LARK_FIX = (
    '                if not name.isupper():\n                    raise GrammarError("rule")\n'
)
GRAMMAR_TESTS = '''from unittest import TestCase

from lark import Lark
from lark.load_grammar import GrammarError


class TestGrammar(TestCase):
    def test_undefined_term(self):
        self.assertRaises(GrammarError, Lark, """start: A""")
{more}'''
GRAMMAR_NEW = """
    def test_declare_rule_name(self):
        self.assertRaises(GrammarError, Lark, \"\"\"start: "a"\\n%declare foo\"\"\")
"""


def _lark(*, after: bool) -> dict[str, str | None]:
    return {
        "lark/__init__.py": "from .lark import Lark\n",
        "lark/lark.py": (
            "from .load_grammar import load_grammar\n\n\nclass Lark:\n"
            "    def __init__(self, grammar):\n        self.names = load_grammar(grammar)\n"
        ),
        "lark/load_grammar.py": LOAD_GRAMMAR.format(fix=LARK_FIX if after else ""),
        "tests/test_grammar.py": GRAMMAR_TESTS.format(more=GRAMMAR_NEW if after else ""),
    }


def test_a_fix_says_the_raise_its_new_test_expects(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _lark(after=False), _lark(after=True), "Fix %declare of a rule name crash"
    )
    said = (
        "The new test `test_declare_rule_name` expects"
        " `lark.Lark('start: \"a\"\\n%declare foo')` to raise `GrammarError`."
    )
    texts = [analysis.summary, *(v for v in analysis.insights.model_dump().values() if v)]
    assert any(said in t for t in texts)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
