"""The claims checker's reading of "The new test `t` pins `f(a)` to `b`" and "The test `t`
now also pins …", by its own rule (`bot/cli/pin_check.py`): shapes of python-tabulate
12a805b (`result = tabulate(…)`, `expected = "82,642\\n  1500\\n 2,463"`,
`assert_equal(expected, result)`), natsort ce94d41 (a case added to the old `test_natsorted`)
and pydash d40364e (rows of a `parametrize` table spread into `pyd.has(*case)`); lark
c169b26 (`self.assertRaises(GrammarError, Lark, …)`)."""

from __future__ import annotations

from pathlib import Path

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind, claims_in
from bot.cli.pin_check import pinned, raised
from tests.clones import second_commit, verdicts_of

TABULATE_TEST = """from common import assert_equal
from tabulate import tabulate


def test_intfmt_with_string_as_integer():
    result = tabulate([[82642], ["1500"], [2463]], intfmt=",", tablefmt="plain")
    expected = "82,642\\n  1500\\n 2,463"
    assert_equal(expected, result)
"""
CALL = "tabulate.tabulate([[82642], ['1500'], [2463]], intfmt=',', tablefmt='plain')"
VALUE = "'82,642\\n  1500\\n 2,463'"


def test_a_bound_call_and_value_asserted_by_a_helper() -> None:
    assert pinned(TABULATE_TEST, "test_intfmt_with_string_as_integer", CALL, VALUE) is True
    # one space fewer is another string
    other = "'82,642\\n 1500\\n 2,463'"
    assert pinned(TABULATE_TEST, "test_intfmt_with_string_as_integer", CALL, other) is False
    # another argument, another keyword, another test
    assert not pinned(
        TABULATE_TEST, "test_intfmt_with_string_as_integer", CALL[:-1] + ", x=1)", VALUE
    )
    assert not pinned(TABULATE_TEST, "test_intfmt", CALL, VALUE)
    assert pinned(TABULATE_TEST, "test_intfmt_with_string_as_integer", "f(", VALUE) is None


def test_no_equality_asserted_pins_nothing() -> None:
    text = TABULATE_TEST.replace("assert_equal(expected, result)", "print(expected, result)")
    assert pinned(text, "test_intfmt_with_string_as_integer", CALL, VALUE) is False


def test_a_value_is_its_literal_not_its_spelling() -> None:
    # `u'a'` is `'a'`; `True` is not `1`
    text = "import m\n\n\ndef test_a():\n    assert m.f(u'x') == True\n"
    assert pinned(text, "test_a", "m.f('x')", "True") is True
    assert pinned(text, "test_a", "m.f('x')", "1") is False


def test_a_row_of_a_parametrize_table_spread_into_the_call() -> None:
    text = (
        "import pydash as pyd\nfrom .fixtures import parametrize\n\n\n"
        "@parametrize('case,expected', [\n"
        "    (({'a': 1, 'b': 2, 'c': 3}, 'b'), True),\n"
        "    (([1, 2, 3], 0), True),\n"
        "    (([1, 2, 3], 3), False),\n"
        "])\n"
        "def test_has(case, expected):\n    assert pyd.has(*case) == expected\n"
    )
    assert pinned(text, "test_has", "pydash.has([1, 2, 3], 0)", "True") is True
    assert pinned(text, "test_has", "pydash.has([1, 2, 3], 3)", "False") is True
    # the arguments of one row, the value of another
    assert pinned(text, "test_has", "pydash.has([1, 2, 3], 3)", "True") is False


NATSORT_TEST = """from natsort import natsorted


def test_natsorted():
    a = ['a2', 'a5', 'a9', 'a1', 'a4', 'a10', 'a6']
    assert natsorted(a) == ['a1', 'a2', 'a4', 'a5', 'a6', 'a9', 'a10']
{more}"""
NATSORT_MORE = "    a = [('A5', 'a6'), ('a3', 'a1')]\n    assert natsorted(a) == [('A5', 'a6'), ('a3', 'a1')]\n"


def _verdicts(root: Path, sha: str, sentence: str) -> list[tuple[Kind, Verdict]]:
    return verdicts_of(root, sha, sentence)


def test_the_checker_on_a_clone_new_and_also(tmp_path: Path) -> None:
    before = {
        "natsort/__init__.py": "def natsorted(seq):\n    return sorted(seq)\n",
        "test_natsort/test_natsort.py": NATSORT_TEST.format(more=""),
    }
    after = {
        "natsort/__init__.py": "def natsorted(seq):\n    return sorted(seq, key=str)\n",
        "test_natsort/test_natsort.py": NATSORT_TEST.format(more=NATSORT_MORE),
    }
    root, commit = second_commit(tmp_path, before, after, "Fixed tuple bug")
    case = "`natsort.natsorted([('A5', 'a6'), ('a3', 'a1')])` to `[('A5', 'a6'), ('a3', 'a1')]`"
    also = f"The test `test_natsorted` now also pins {case}."
    assert [c.kind for c in claims_in(also)[0]] == [Kind.PINS]
    assert _verdicts(root, commit.sha, also) == [(Kind.PINS, Verdict.TRUE)]
    # the test was there at the parent: not new
    assert _verdicts(root, commit.sha, f"The new test `test_natsorted` pins {case}.") == [
        (Kind.PINS, Verdict.FALSE)
    ]
    # a case the parent's test already asserted is not "now also"
    old = "`natsort.natsorted(['a2', 'a5', 'a9', 'a1', 'a4', 'a10', 'a6'])` to " + (
        "`['a1', 'a2', 'a4', 'a5', 'a6', 'a9', 'a10']`"
    )
    assert _verdicts(root, commit.sha, f"The test `test_natsorted` now also pins {old}.") == [
        (Kind.PINS, Verdict.FALSE)
    ]
    # a value the test never states
    wrong = case.replace("[('A5', 'a6'), ('a3', 'a1')]`", "[('a3', 'a1'), ('A5', 'a6')]`")
    assert _verdicts(root, commit.sha, f"The test `test_natsorted` now also pins {wrong}.") == [
        (Kind.PINS, Verdict.FALSE)
    ]


GRAMMAR_TEST = '''from unittest import TestCase
from pytest import raises

from lark import Lark
from lark.load_grammar import GrammarError


class TestGrammar(TestCase):
    def test_declare_rule_name(self):
        self.assertRaises(GrammarError, Lark, """start: "a"\\n%declare foo""")
        grammar = "start: x"
        with raises(GrammarError):
            Lark(grammar)
'''


def test_a_call_expected_to_raise() -> None:
    # lark c169b26's new test, and the `with raises(E):` form
    call = "lark.Lark('start: \"a\"\\n%declare foo')"
    assert raised(GRAMMAR_TEST, "test_declare_rule_name", call, "GrammarError") is True
    assert raised(GRAMMAR_TEST, "test_declare_rule_name", call, "ValueError") is False
    assert (
        raised(GRAMMAR_TEST, "test_declare_rule_name", "lark.Lark('start: a')", "GrammarError")
        is False
    )
    assert (
        raised(GRAMMAR_TEST, "test_declare_rule_name", "lark.Lark('start: x')", "GrammarError")
        is True
    )
    # expecting a raise is no equality pinned
    assert pinned(GRAMMAR_TEST, "test_declare_rule_name", call, "'GrammarError'") is False
