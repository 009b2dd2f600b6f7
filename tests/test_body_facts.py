"""Changes inside a function's body that no name says: a string its conditions now check for
(httpx 12be5c4, "socks5h"), a new message for an exception it already raised (httpx
336204f, anyio 3e540f16: the one raise reworded, said of the same exception); each a clone
shaped like the commit, every sentence checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_claims, entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

PROXY = """class Proxy:
    def __init__(self, url, headers=None):
        url = URL(url)
        headers = Headers(headers)

        if url.scheme not in ({schemes}):
            raise ValueError(f"Unknown scheme for proxy URL {{url!r}}")

        self.url = url
        self.headers = headers
"""
OLD_SCHEMES = '"http", "https", "socks5"'
NEW_SCHEMES = '"http", "https", "socks5", "socks5h"'

TRANSPORT = """class AsyncHTTPTransport:
    def __init__(self, proxy=None):
        if proxy is None:
            self._pool = ConnectionPool()
        elif proxy.url.scheme in ("http", "https"):
            self._pool = HTTPProxy(proxy_url=proxy.url)
        else:  # pragma: no cover
            raise ValueError(
                "Proxy protocol must be either 'http', 'https', 'socks5', or 'socks5h',"
                {tail}" but got {{proxy.url.scheme!r}}."
            )
"""
NEW_MESSAGE = "Proxy protocol must be either 'http', 'https', 'socks5', or 'socks5h', but got {…}."


def _proxy(schemes: str) -> dict[str, str | None]:
    return {"httpx/_config.py": PROXY.format(schemes=schemes)}


def _transport(tail: str) -> dict[str, str | None]:
    return {"httpx/_transports/default.py": TRANSPORT.format(tail=tail)}


def test_a_scheme_added_to_a_check_is_said_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _proxy(OLD_SCHEMES), _proxy(NEW_SCHEMES), "add socks5h proxy support (#3178)"
    )
    assert '`Proxy` now also checks for `"socks5h"`.' in entry_text(analysis)
    assert Kind.CHECKS in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_check_said_in_chinese(tmp_path: Path) -> None:
    _, commit = second_commit(tmp_path, _proxy(OLD_SCHEMES), _proxy(NEW_SCHEMES), "socks5h")
    analysis = analyze(commit, language="zh-CN")
    assert '`Proxy` 现在还检查 `"socks5h"`。' in entry_text(analysis)


def test_a_new_check_without_an_old_one_beside_it_is_no_also(tmp_path: Path) -> None:
    before = {"app/modes.py": 'def pick(mode):\n    return mode.upper() or "plain text"\n'}
    after = {
        "app/modes.py": 'def pick(mode):\n    if mode == "raw":\n        mode = mode.strip()\n'
        '    return mode.upper() or "plain text"\n'
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Keep raw mode")
    assert '`pick` now checks for `"raw"`.' in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_new_message_for_an_exception_raised_before_is_said_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path, _transport(""), _transport("f"), "Display proxy protocol scheme on error"
    )
    # the one raise of it, its message reworded: the same exception says another thing
    said = f"The `ValueError` raised by `AsyncHTTPTransport` now says “{NEW_MESSAGE}”"
    assert said in entry_text(analysis)
    assert Kind.REWORDED in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_message_said_in_chinese(tmp_path: Path) -> None:
    _, commit = second_commit(tmp_path, _transport(""), _transport("f"), "Show the scheme")
    analysis = analyze(commit, language="zh-CN")
    assert f"`AsyncHTTPTransport` 抛出的 `ValueError` 的消息改为“{NEW_MESSAGE}”" in (
        entry_text(analysis)
    )


def test_the_checker_refutes_false_checks(tmp_path: Path) -> None:
    root, commit = second_commit(tmp_path, _proxy(OLD_SCHEMES), _proxy(NEW_SCHEMES), "socks5h")
    true = '`Proxy` now also checks for `"socks5h"`.'
    assert verdicts_of(root, commit.sha, true) == [(Kind.CHECKS, Verdict.TRUE)]
    for false in (
        '`Proxy` now checks for `"socks4"`.',  # compared nowhere
        '`Proxy` now checks for `"https"`.',  # compared at the parent already
        '`Proxy` in `httpx/_config.py` now checks for `"Unknown scheme"`.',  # a message's
        '`Headers` now checks for `"socks5h"`.',  # another function
    ):
        assert verdicts_of(root, commit.sha, false) == [(Kind.CHECKS, Verdict.FALSE)], false


def test_the_checker_refutes_an_also_with_nothing_compared_before(tmp_path: Path) -> None:
    before = {"app/modes.py": "def pick(mode):\n    return mode\n"}
    after = {"app/modes.py": 'def pick(mode):\n    if mode in ("a", "b"):\n        return 1\n'}
    root, commit = second_commit(tmp_path, before, after, "Modes")
    assert verdicts_of(root, commit.sha, '`pick` now checks for `"a"`.') == [
        (Kind.CHECKS, Verdict.TRUE)
    ]
    assert verdicts_of(root, commit.sha, '`pick` now also checks for `"a"`.') == [
        (Kind.CHECKS, Verdict.FALSE)
    ]


def test_the_checker_refutes_false_messages(tmp_path: Path) -> None:
    root, commit = second_commit(tmp_path, _transport(""), _transport("f"), "Show the scheme")
    said = f"`AsyncHTTPTransport` now raises `ValueError` with “{NEW_MESSAGE}”."
    assert verdicts_of(root, commit.sha, said) == [(Kind.RAISES_MESSAGE, Verdict.TRUE)]
    old = NEW_MESSAGE.replace("{…}", "{proxy.url.scheme!r}")
    for false in (
        said.replace("ValueError", "TypeError"),  # not that exception
        said.replace("but got", "got"),  # not that message
        f"`AsyncHTTPTransport` now raises `ValueError` with “{old}”.",  # the parent's
    ):
        assert verdicts_of(root, commit.sha, false) == [(Kind.RAISES_MESSAGE, Verdict.FALSE)], false


def test_the_checker_refutes_a_message_of_an_exception_new_to_the_function(
    tmp_path: Path,
) -> None:
    before = {
        "app/load.py": 'def load(path):\n    if not path:\n        raise KeyError("no path")\n'
    }
    after = {
        "app/load.py": 'def load(path):\n    if not path:\n        raise ValueError("no path")\n'
    }
    root, commit = second_commit(tmp_path, before, after, "ValueError")
    text = "`load` now raises `ValueError` with “no path”."
    assert verdicts_of(root, commit.sha, text) == [(Kind.RAISES_MESSAGE, Verdict.FALSE)]
    analysis = analyze(commit)
    # the exception changed, not its message: said as what a caller now catches instead
    assert "with “no path”" not in entry_text(analysis)
    assert "`load` now raises `ValueError` instead of `KeyError`." in entry_text(analysis)


def test_a_value_moved_from_a_message_into_a_check_is_not_new(tmp_path: Path) -> None:
    before = {
        "app/modes.py": "def pick(mode):\n    if mode.startswith('r'):\n"
        '        raise ValueError("raw is not supported")\n    return mode\n'
    }
    after = {
        "app/modes.py": 'def pick(mode):\n    if mode == "raw":\n'
        '        raise ValueError("raw is not supported")\n    return mode\n'
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Only raw")
    assert "checks for" not in entry_text(analysis)


def test_tests_warnings_and_rewrites_say_nothing(tmp_path: Path) -> None:
    before = {
        "tests/test_modes.py": 'def test_pick():\n    assert pick("a") == "a"\n',
        "app/warn.py": 'def old(x):\n    warnings.warn("old is going")\n    return x\n',
        "app/many.py": 'def kind(x):\n    return x == "a"\n',
    }
    after = {
        "tests/test_modes.py": 'def test_pick():\n    assert pick("b") == "b"\n',
        "app/warn.py": 'def old(x):\n    warnings.warn("old is gone soon")\n    return x\n',
        "app/many.py": 'def kind(x):\n    return x in ("a", "b", "c", "d")\n',
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Tidy")
    text = entry_text(analysis)
    assert "checks for" not in text and "now raises" not in text


def test_a_check_ranks_after_what_callers_meet(tmp_path: Path) -> None:
    before = _proxy(OLD_SCHEMES)
    after = {"httpx/_config.py": PROXY.format(schemes=NEW_SCHEMES).replace(", headers=None", "")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Fix proxy headers (#3178)")
    assert analysis.summary.startswith("`Proxy` no longer takes the parameter `headers=None`")
    assert '`Proxy` now also checks for `"socks5h"`.' in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


# anyio 3e540f16 ("Updated the cancel message in check_cancelled()"): the one raise of
# `CancelledError` keeps its place and says another message
CHECK_CANCELLED = """class AsyncIOBackend(AsyncBackend):
    @classmethod
    def check_cancelled(cls) -> None:
        scope: CancelScope | None = threadlocals.current_cancel_scope
        while scope is not None:
            if scope.cancel_called:
                raise CancelledError(f"Cancelled {word} cancel scope {{id(scope):x}}")

            if scope.shield:
                return

            scope = scope._parent_scope
"""
REWORDED = (
    "The `CancelledError` raised by `AsyncIOBackend.check_cancelled` now says"
    " “Cancelled via cancel scope {…}” (was “Cancelled by cancel scope {…}”)."
)


def _check_cancelled(word: str) -> dict[str, str | None]:
    return {"src/anyio/_backends/_asyncio.py": CHECK_CANCELLED.format(word=word)}


def test_a_message_reworded_is_said_of_the_same_exception(tmp_path: Path) -> None:
    title = "Updated the cancel message in check_cancelled() (#1114)"
    before, after = _check_cancelled("by"), _check_cancelled("via")
    root, commit = second_commit(tmp_path / "a", before, after, title)
    analysis, verdicts = checked_entry(tmp_path / "b", before, after, title)
    assert REWORDED in entry_text(analysis)
    assert "now raises `CancelledError`" not in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    assert verdicts_of(root, commit.sha, REWORDED) == [(Kind.REWORDED, Verdict.TRUE)]
    for false in (
        REWORDED.replace("(was “Cancelled by", "(was “Cancelled at"),  # not the parent's
        REWORDED.replace("CancelledError", "RuntimeError"),  # not that exception
        REWORDED.replace("now says “Cancelled via", "now says “Cancelled by"),  # the parent's
    ):
        assert verdicts_of(root, commit.sha, false) == [(Kind.REWORDED, Verdict.FALSE)], false


def test_a_second_raise_with_a_new_message_is_no_rewording(tmp_path: Path) -> None:
    # the old raise stays as it was: a new message beside it, not the old one reworded
    before = {
        "app/load.py": 'def load(path):\n    if not path:\n        raise ValueError("no path")\n'
        "    return path\n"
    }
    after = {
        "app/load.py": 'def load(path):\n    if not path:\n        raise ValueError("no path")\n'
        '    if path == "-":\n        raise ValueError("no standard input here")\n'
        "    return path\n"
    }
    root, commit = second_commit(tmp_path, before, after, "Refuse stdin")
    text = entry_text(analyze(commit))
    assert "`load` now raises `ValueError` with “no standard input here”" in text
    said = "The `ValueError` raised by `load` now says “no standard input here”."
    assert verdicts_of(root, commit.sha, said) == [(Kind.REWORDED, Verdict.FALSE)]
