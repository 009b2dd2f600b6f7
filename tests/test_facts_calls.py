"""How a new public function is called (yarl 2dac93fe's `URL.joinpath(*other, encoded=False)`,
attrs 5aa76a44's `ne(val)`), and a keyword argument a call now passes (pluggy 3875ea55,
`stacklevel=5` → `6`): each a clone shaped like the commit, every sentence checked against
it, and false versions of each sentence the checker refutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind, claims_in
from bot.cli.claims_eval import entry_claims, entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

URL = '''"""URL."""


@rewrite_module
class URL:
    def __init__(self, val="", *, encoded=False, strict=None):
        self._val = val
        self._encoded = encoded

    def __truediv__(self, name):
{truediv}
{added}
    @cached_property
    def raw_host(self):
        return self._val.hostname
'''
TRUEDIV_BEFORE = """        name = self._PATH_QUOTER(name)
        if name.startswith("/"):
            raise ValueError(f"Appending path {name!r} starting from slash is forbidden")
        return URL(self._val._replace(path=name, query="", fragment=""), encoded=True)
"""
TRUEDIV_AFTER = "        return self._make_child((name,))\n"
JOINPATH = '''
    def joinpath(self, *other, encoded=False):
        """Return a new URL with the elements in other appended to the path."""
        return self._make_child(other, encoded=encoded)

    def _make_child(self, segments, encoded=False):
        """add segments to self._val.path, accounting for absolute vs relative paths"""
        parsed = [seg if encoded else self._PATH_QUOTER(seg) for seg in segments]
        return URL(self._val._replace(path="/".join(parsed)), encoded=True)
'''
HOST_PORT = '''
    @cached_property
    def host_port_subcomponent(self) -> Union[str, None]:
        """Return the host and port subcomponent part of URL."""
        if (raw := self.raw_host) is None:
            return None
        return raw
'''


def _url(truediv: str, added: str) -> dict[str, str | None]:
    return {"yarl/_url.py": URL.format(truediv=truediv, added=added)}


VALIDATORS = '''"""Commonly useful validators."""

import operator

__all__ = ["ge", "gt"{ne}]


def ge(val):
    """
    A validator that raises `ValueError` if the initializer is called with a
    number smaller than *val*.
    """
    return _NumberValidator(val, ">=", operator.ge)


def gt(val):
    """
    A validator that raises `ValueError` if the initializer is called with a
    number smaller or equal to *val*.
    """
    return _NumberValidator(val, ">", operator.gt)
{added}'''
NE = '''

def ne(val):
    """
    A validator that raises `ValueError` if the initializer is called with a
    number equal to *val*.
    """
    return _NumberValidator(val, "!=", operator.ne)
'''
STUB = """from typing import Any, TypeVar

_T = TypeVar("_T")

def ge(val: _T) -> _ValidatorType[_T]: ...
def gt(val: _T) -> _ValidatorType[_T]: ...
{added}"""
NE_STUB = "def ne(val: _T) -> _ValidatorType[_T]: ...\n"


def _validators(added: bool) -> dict[str, str | None]:
    return {
        "src/attr/validators.py": VALIDATORS.format(
            ne=', "ne"' if added else "", added=NE if added else ""
        ),
        "src/attr/validators.pyi": STUB.format(added=NE_STUB if added else ""),
    }


CALLERS = '''"""
Call loop machinery
"""

from __future__ import annotations

import warnings


def _warn_teardown_exception(
    hook_name: str, hook_impl: HookImpl, e: BaseException
) -> None:
    msg = "A plugin raised an exception during an old-style hookwrapper teardown.\\n"
    msg += f"Plugin: {{hook_impl.plugin_name}}, Hook: {{hook_name}}\\n"
    msg += f"{{type(e).__name__}}: {{e}}\\n"
    warnings.warn(PluggyTeardownRaisedWarning(msg){keywords})
{added}'''
LEGACY = """

def run_legacy_hookwrapper(
    hook_impl: HookImpl, hook_name: str, args: Sequence[object]
) -> Teardown:
    teardown: Teardown = cast(Teardown, hook_impl.function(*args))
    try:
        next(teardown)
    except StopIteration:
        _raise_wrapfail(teardown, "did not yield")
    return teardown
"""


def _callers(keywords: str, added: str = "") -> dict[str, str | None]:
    return {"src/pluggy/_callers.py": CALLERS.format(keywords=keywords, added=added)}


def test_a_new_method_is_said_with_how_it_is_called_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _url(TRUEDIV_BEFORE, ""),
        _url(TRUEDIV_AFTER, JOINPATH),
        "Add URL.joinpath(*elements, encoding=False) to build a URL with multiple new path "
        "elements (#704)",
    )
    text = entry_text(analysis)
    # the private helper it adds beside keeps today's words: a public name says none
    assert "Adds `URL.joinpath(*other, encoded=False)` to `yarl/_url.py`." in text
    assert Kind.ADDS_SIGNATURE in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_property_a_stub_and_a_private_name_keep_their_names(tmp_path: Path) -> None:
    # a property is no call (yarl cc1ff18e): its name alone
    analysis, verdicts = checked_entry(
        tmp_path / "a",
        _url(TRUEDIV_BEFORE, ""),
        _url(TRUEDIV_BEFORE, HOST_PORT),
        "Add support for host_port_subcomponent (#1375)",
    )
    assert "Adds `URL.host_port_subcomponent` to `yarl/_url.py`." in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)
    # attrs 5aa76a44: the module and its stub both add `ne`, said once, as the module's
    # `def` writes it (the stub's annotations are a type checker's, not the call's)
    analysis, verdicts = checked_entry(
        tmp_path / "b", _validators(False), _validators(True), "Add `ne` validator (#1571)"
    )
    text = entry_text(analysis)
    assert "`ne(val)`" in text
    assert text.count("`ne(") == 1
    # and what it does, in its docstring's words (the title only names it)
    assert "`ne`, per its docstring: “A validator that raises `ValueError` if the" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_long_signature_is_cut_at_a_parameter(tmp_path: Path) -> None:
    many = (
        "\n\ndef inspect(cls, *, is_exception=False, is_slotted=True, has_weakref_slot=True,"
        " is_frozen=False, kw_only=None, collected_fields_by_mro=True):\n"
        "    return ClassProps(cls)\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/attr/setters.py": '"""Functions."""\n'},
        {"src/attr/setters.py": '"""Functions."""\n' + many},
        "Expose effective class construction properties (#1454)",
    )
    said = [c for c in entry_claims(analysis)[0] if c.kind is Kind.ADDS_SIGNATURE]
    assert [c.new for c in said] == ["cls, *, is_exception=False, is_slotted=True, …"]
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_keyword_value_changed_in_a_call_is_said_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _callers(", stacklevel=5"),
        _callers(", stacklevel=6", LEGACY),
        "fix #544: Correctly pass StopIteration trough wrappers",
    )
    text = entry_text(analysis)
    assert (
        "`_warn_teardown_exception` now passes `stacklevel=6` to `warnings.warn` (was `5`)." in text
    )
    # a function of a module private by its name is the package's helper: its name alone
    assert "Adds `run_legacy_hookwrapper` to `src/pluggy/_callers.py`." in text
    assert Kind.PASSES in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_keyword_gained_and_one_lost_are_said_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path / "a", _callers(""), _callers(", stacklevel=2"), "Warn where the hook is"
    )
    assert "`_warn_teardown_exception` now passes `stacklevel=2` to `warnings.warn`." in (
        entry_text(analysis)
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    analysis, verdicts = checked_entry(
        tmp_path / "b", _callers(", stacklevel=2"), _callers(""), "Warn where the warning is"
    )
    assert "`_warn_teardown_exception` no longer passes `stacklevel=2` to `warnings.warn`." in (
        entry_text(analysis)
    )
    assert Kind.PASSES_GONE in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


SEND = """class Client:
    def send(self, request, *, stream=False):
        response = self._send(request, follow_redirects={first}, stream=stream)
        if response.is_redirect:
            response = self._send(request, follow_redirects={second}, stream=stream)
        return self._send(request, stream=stream, auth={auth})
"""


def _send(first: str, second: str, auth: str) -> dict[str, str | None]:
    return {"httpx/_client.py": SEND.format(first=first, second=second, auth=auth)}


def test_calls_paired_unambiguously_or_not_at_all(tmp_path: Path) -> None:
    # two calls changed alike cannot be told apart from one another: nothing is said of them;
    # the one other call of the callee changed is not said either (its value was another
    # call's already), and a value that is no literal (`auth=self.auth`) never is
    _, commit = second_commit(
        tmp_path / "a", _send("False", "True", "None"), _send("True", "False", "self.auth"), "x"
    )
    assert "passes" not in entry_text(analyze(commit))
    # the calls written alike at both revisions set aside, the one left is paired
    _, commit = second_commit(
        tmp_path / "b", _send("False", "False", "None"), _send("False", "False", "AUTH"), "y"
    )
    assert "`Client.send` now passes `auth=AUTH` to `self._send` (was `None`)." in (
        entry_text(analyze(commit))
    )
    # a value passed by position before is no new keyword
    _, commit = second_commit(
        tmp_path / "c",
        {"app/run.py": "def run(x):\n    return go(x, True)\n"},
        {"app/run.py": "def run(x):\n    return go(x, strict=True)\n"},
        "Name the flag",
    )
    assert "passes" not in entry_text(analyze(commit))


def test_call_sentences_in_chinese(tmp_path: Path) -> None:
    _, commit = second_commit(tmp_path, _callers(", stacklevel=5"), _callers(", stacklevel=6"), "x")
    assert (
        "`_warn_teardown_exception` 现在向 `warnings.warn` 传入 `stacklevel=6`（原为 `5`）"
        in entry_text(analyze(commit, language="zh-CN"))
    )


def test_a_signature_is_read_at_its_own_closing_parenthesis() -> None:
    (claim,), _ = claims_in("Adds `f(a=(1, 2), b=g()) -> type(None)` to `pkg/m.py`.")
    assert (claim.kind, claim.name, claim.new, claim.old) == (
        Kind.ADDS_SIGNATURE,
        "f",
        "a=(1, 2), b=g()",
        "type(None)",
    )


def test_false_versions_are_refuted(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {**_callers(", stacklevel=5"), **_url(TRUEDIV_BEFORE, "")},
        {**_callers(", stacklevel=6"), **_url(TRUEDIV_AFTER, JOINPATH)},
        "Both",
    )
    false = [
        # another parameter list, default or order; a keyword-only marker left out
        "Adds `URL.joinpath(*other, encoded=True)`.",
        "Adds `URL.joinpath(other, encoded=False)`.",
        "Adds `URL.joinpath(self, *other, encoded=False)`.",
        "Adds `URL.joinpath(encoded=False, *other)`.",
        "Adds `URL.joinpath(*other, encoded=False) -> URL`.",
        "Adds `URL.joinpath(*other, encoded=False, …)` to `yarl/_url.py`.",
        "Adds `URL.joinpath() -> URL`.",
        # a method the parent had already
        "Adds `URL.__truediv__(name)`.",
        # another value, another callee, the old value said as new, a keyword still passed
        "`_warn_teardown_exception` now passes `stacklevel=7` to `warnings.warn` (was `5`).",
        "`_warn_teardown_exception` now passes `stacklevel=6` to `warnings.warn` (was `4`).",
        "`_warn_teardown_exception` now passes `stacklevel=6` to `warn` (was `5`).",
        "`_warn_teardown_exception` now passes `stacklevel=6` to `warnings.warn`.",
        "`_warn_teardown_exception` no longer passes `stacklevel=5` to `warnings.warn`.",
        "`URL.joinpath` now passes `encoded=False` to `self._make_child` (was `True`).",
    ]
    for text in false:
        assert claims_in(text)[0], text
        assert [v for _, v in verdicts_of(root, commit.sha, text)] == [Verdict.FALSE], text
    true = [
        "Adds `URL.joinpath(*other, encoded=False)`.",
        "Adds `URL.joinpath(*other, …)`.",
        "Adds `URL(val='', *, encoded=False, strict=None)` to `yarl/_url.py`.",
        # `f()` alone is how prose names a function: the name is what is claimed
        "Adds `URL.joinpath()`.",
    ]
    for text in true[:2]:
        assert [v for _, v in verdicts_of(root, commit.sha, text)] == [Verdict.TRUE], text
    # `URL` was there at the parent: its call is right, its addition is not
    assert [v for _, v in verdicts_of(root, commit.sha, true[2])] == [Verdict.FALSE]
