"""Changes of spelling are no changes of behaviour: a test moved into an expression or a new
helper is still made (inflect e5dee13, 825e898), an f-string or `open(f)` for the same
value is no rewrite (glom bc653da), `==` for `>=` inside `for i in range(n)` agrees (funcy
eca50f9); and a change made under a condition says it (glom 24c21dc's `--scalar`). Each a
clone shaped like the commit, every sentence said checked against it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.analysis.facts.meaning import FORMAT, respell_module, same_meaning
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.models import ChangeType, Importance
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# inflect's `number_to_words`, as e5dee13 and 825e898 found it
WORDS = """class engine:
{helper}    def number_to_words(self, num, decimal=None, group=0):
        if group < 0 or group > 3:
            raise ValueError(group)
{sign}
        chunks = num.split(".")
        num = f"{{sign}}{{chunks.pop(0)}}"
{first}        for nc in chunks:
            if nc == decimal:
                num += f" {{nc}}"
            elif first:
                num += f", {{nc}}"
            first = False
        return num
"""
SIGN_INLINE = """        nowhite = num.lstrip()
        if nowhite[0] == "+":
            sign = "plus"
        elif nowhite[0] == "-":
            sign = "minus"
        else:
            sign = ""
"""
SIGN_HELPER = "        sign = self._get_sign(num)\n"
HELPER = """    @staticmethod
    def _get_sign(num):
        return {"+": "plus", "-": "minus"}.get(num.lstrip()[0], "")

"""
FIRST_IF = """        if decimal is None:
            first = True
        else:
            first = not num.endswith(decimal)
"""
FIRST_EXPRESSION = "        first = decimal is None or not num.endswith(decimal)\n"
FIRST_GONE = "        first = not num.endswith(decimal or '.')\n"


def _words(helper: str, sign: str, first: str) -> dict[str, str | None]:
    return {"inflect/__init__.py": WORDS.format(helper=helper, sign=sign, first=first)}


def test_a_test_moved_into_an_assignment_is_not_said_gone(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _words("", SIGN_INLINE, FIRST_IF),
        _words("", SIGN_INLINE, FIRST_EXPRESSION),
        "Re-write first as a single assignment of a boolean expression.",
    )
    assert "no longer tests" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_test_dropped_for_good_is_still_said(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _words("", SIGN_INLINE, FIRST_IF),
        _words("", SIGN_INLINE, FIRST_GONE),
        "Simplify first",
    )
    assert "`engine.number_to_words` no longer tests `decimal is None`." in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_test_moved_into_a_new_helper_is_not_said_gone(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _words("", SIGN_INLINE, FIRST_IF),
        _words(HELPER, SIGN_HELPER, FIRST_IF),
        "Extract function for _get_sign",
    )
    assert "no longer tests" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_refutes_a_test_said_gone_that_moved(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path, _words("", SIGN_INLINE, FIRST_IF), _words("", SIGN_INLINE, FIRST_EXPRESSION), "Re"
    )
    said = "`engine.number_to_words` no longer tests `decimal is None`."
    assert verdicts_of(root, commit.sha, said) == [(Kind.NO_LONGER_TESTS, Verdict.FALSE)]
    root, commit = second_commit(
        tmp_path / "helper",
        _words("", SIGN_INLINE, FIRST_IF),
        _words(HELPER, SIGN_HELPER, FIRST_IF),
        "Extract",
    )
    said = "`engine.number_to_words` no longer tests `nowhite[0] == '+'`."
    assert verdicts_of(root, commit.sha, said) == [(Kind.NO_LONGER_TESTS, Verdict.UNVERIFIABLE)]


ORD = "def _sub_ord(val):\n    new = sub(val)\n    return {value}\n"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        # the opposite comparison, in an expression: the same test
        ('new + "th" * (new == val)', False),
        # another comparison: the test is gone
        ('new + "th" * (len(new) > 3)', True),
    ],
)
def test_an_inverted_comparison_in_an_expression_is_still_a_test(
    tmp_path: Path, value: str, said: bool
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"inflect/ords.py": ORD.format(value='new if new != val else val + "th"')},
        {"inflect/ords.py": ORD.format(value=value)},
        "Prefer algebra",
    )
    assert ("`_sub_ord` no longer tests `new != val`." in entry_text(analysis)) is said
    assert all(v is Verdict.TRUE for v in verdicts)


# glom's `format_invocation` and `mw_get_target`, as bc653da found them
GLOM = """def format_invocation(name='', args=(), kwargs=None):
    kwargs = kwargs or {{}}
    a_text = ', '.join([_repr(a) for a in args])
    kw_text = {kw}
    all_args_text = a_text
    if all_args_text and kw_text:
        all_args_text += ', '
    all_args_text += kw_text
    {ret}


def mw_get_target(spec_file):
    with {opened} as f:
        return f.read()
"""
OLD_GLOM = {
    "kw": "', '.join(['%s=%s' % (k, _repr(v)) for k, v in kwargs.items()])",
    "ret": "return '%s(%s)' % (name, all_args_text)",
    "opened": "open(spec_file, 'r')",
}
NEW_GLOM = {
    "kw": "', '.join([f'{k}={_repr(v)}' for k, v in kwargs.items()])",
    "ret": "return f'{name}({all_args_text})'",
    "opened": "open(spec_file)",
}


def test_respelled_code_says_no_rewrite(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"glom/cli.py": GLOM.format(**OLD_GLOM)},
        {"glom/cli.py": GLOM.format(**NEW_GLOM)},
        "Use f-strings",
    )
    text = entry_text(analysis)
    assert "became" not in text and "now computes" not in text, text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_value_changed_with_the_spelling_is_still_said(tmp_path: Path) -> None:
    changed = {**NEW_GLOM, "ret": "return f'{name}[{all_args_text}]'"}
    analysis, verdicts = checked_entry(
        tmp_path,
        {"glom/cli.py": GLOM.format(**OLD_GLOM)},
        {"glom/cli.py": GLOM.format(**changed)},
        "Use brackets",
    )
    assert "became `return f'{name}[{all_args_text}]'`" in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        ("'%s(%r)' % (a, b)", "f'{a}({b!r})'", True),
        ("'{}={n:>3}'.format(a, n=b)", "f'{a}={b:>3}'", True),
        ("'100%% %s' % (a,)", "f'100% {a}'", True),
        ("open(f, mode='r')", "open(f)", True),
        ("dict()", "{}", True),
        # a value alone may be a tuple, which `%` spreads
        ("'%s' % a", "f'{a}'", False),
        # `%d` truncates a float
        ("'%d' % (a,)", "f'{a}'", False),
        # an argument `format` evaluates and leaves unused
        ("'{}'.format(a, b())", "f'{a}'", False),
        ("open(f, 'rb')", "open(f)", False),
        ("'%s-%s' % (a, b)", "f'{b}-{a}'", False),
    ],
)
def test_same_meaning_of_spellings(old: str, new: str, same: bool) -> None:
    assert same_meaning(ast.parse(old), ast.parse(new)) is same


def test_only_format_called_on_a_string_literal_is_read_as_an_f_string() -> None:
    # both readers, the comparison and the module's respelling, ask the same question
    for call, respelled in (("'{}-{}'.format(a, b)", True), ("template.format(a, b)", False)):
        assert same_meaning(ast.parse(call), ast.parse("f'{a}-{b}'")) is respelled
        tree = ast.parse(call)
        assert respell_module(tree)[FORMAT] == int(respelled)
        statement = tree.body[0]
        assert isinstance(statement, ast.Expr)
        assert isinstance(statement.value, ast.JoinedStr) is respelled


def test_super_is_respelled_only_for_its_own_class() -> None:
    old, new = ast.parse("super(C, self).__init__(x)"), ast.parse("super().__init__(x)")
    assert same_meaning(old, new, "C")
    assert not same_meaning(old, new, "D")
    assert not same_meaning(old, new)


RETRY = """def retry(call, tries):
    for attempt in range({bound}):
        try:
            return call()
        except Exception:
            if attempt + 1 {op} tries:
                raise
"""


def test_a_comparison_the_range_loop_makes_alike_is_no_change(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"funcy/flow.py": RETRY.format(bound="tries", op="==")},
        {"funcy/flow.py": RETRY.format(bound="tries", op=">=")},
        "Minor retry() refactors",
    )
    assert "now tests" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_comparison_outside_its_range_is_still_said(tmp_path: Path) -> None:
    # looping twice as far, `attempt + 1` passes `tries`: `>=` raises where `==` did not
    analysis, verdicts = checked_entry(
        tmp_path,
        {"funcy/flow.py": RETRY.format(bound="tries * 2", op="==")},
        {"funcy/flow.py": RETRY.format(bound="tries * 2", op=">=")},
        "Minor retry() refactors",
    )
    assert "`retry` now tests `attempt + 1 >= tries` (was `attempt + 1 == tries`)." in (
        entry_text(analysis)
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


# glom's `cli.py`, as 24c21dc found it: a `face` command and its handler
CLI = """import json

from face import Command


def glom_cli(target, spec, indent{param}):
    result = spec(target)
{output}    return


def get_command():
    cmd = Command(glom_cli)
    cmd.add('--indent', int, missing=2, doc='number of spaces to indent the result')
{option}    return cmd
"""
PRINT = "    print(json.dumps(result, indent=indent))\n"
SCALAR = """    if scalar and is_scalar(result):
        print(result, end='')
    else:
        print(json.dumps(result, indent=indent))
"""
OPTION = "    cmd.add('--scalar', parse_as=True, doc='output a single value without quotes')\n"
# (tested, as 24c21dc's: a feature users run, not a low entry of one line)
TEST_CLI = "def test_scalar():\n    assert run(['--scalar', 'a.b', '{}']) == 'c'\n"


def _cli(param: str, output: str, option: str) -> dict[str, str | None]:
    files: dict[str, str | None] = {
        "glom/cli.py": CLI.format(param=param, output=output, option=option)
    }
    if option:
        files["glom/test/test_cli.py"] = TEST_CLI
    return files


def test_a_face_option_is_said_as_users_write_it_and_its_output_with_its_condition(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _cli("", PRINT, ""),
        _cli(", scalar", SCALAR, OPTION),
        "Add --scalar flag to CLI (#280)",
    )
    text = entry_text(analysis)
    assert (
        "Adds the command-line option `--scalar`: “output a single value without quotes”." in text
    )
    assert "gains the parameter" not in text
    assert "`glom_cli` now passes `end=''` to `print` when `scalar and is_scalar(result)`." in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_keyword_passed_in_an_else_is_not_said_bare(tmp_path: Path) -> None:
    inverted = """    if not scalar:
        print(json.dumps(result, indent=indent))
    else:
        print(result, end='')
"""
    analysis, _ = checked_entry(
        tmp_path,
        _cli("", PRINT, ""),
        _cli(", scalar", inverted, OPTION),
        "Add --scalar flag to CLI (#280)",
    )
    assert analysis.importance is Importance.MEDIUM
    assert "end=''" not in entry_text(analysis)


COLLS = """__all__ = ['select_keys', {extra}'compact']


def select_keys(pred, coll):
    return {{k: v for k, v in coll.items() if pred(k)}}
{body}

def compact(coll):
    return [x for x in coll if x]
"""
SPLIT = '''

def split_keys(pred, coll):
    """Splits key-value pairs with keys, which pass the predicate from the ones that don't."""
    yes, no = {}, {}
    for key, value in coll.items():
        (yes if pred(key) else no)[key] = value
    return yes, no
'''


def test_a_new_public_function_named_like_a_verb_is_a_feature(tmp_path: Path) -> None:
    before = {
        "funcy/__init__.py": "from .colls import *\n",
        "funcy/colls.py": COLLS.format(extra="", body=""),
    }
    after = {"funcy/colls.py": COLLS.format(extra="'split_keys', ", body=SPLIT)}
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Add split_keys() (not documented yet)"
    )
    assert analysis.change_types[0] is ChangeType.FEATURE
    assert analysis.importance is Importance.MEDIUM
    assert "Adds `split_keys(pred, coll)`" in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
