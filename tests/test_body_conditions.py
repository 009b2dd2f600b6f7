"""A condition changed inside a function's body: a test rewritten (click 8a4ce84, `if fg:` →
`if fg is not None:`), an early-return guard added (click 3bb230d), a version branch removed
(uvicorn 4156ccb); each a clone shaped like the commit, every sentence checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_claims, entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

STYLE = """def style(text, fg=None, bg=None, reset=True):
    bits = []
    if {fg}:
        bits.append(_interpret_color(fg))
    if {bg}:
        bits.append(_interpret_color(bg, 10))
    bits.append(text)
    if reset:
        bits.append(_ansi_reset_all)
    return "".join(bits)
"""

FORMATTER = """class HelpFormatter:
    def write_usage(self, prog, args="", prefix=None):
        if prefix is None:
            prefix = "Usage: "
{guard}        usage_prefix = f"{{prefix:>{{self.current_indent}}}}{{prog}} "
        self.write(usage_prefix)
        self.write(args)
        self.write("\\n")
"""
GUARD = "        if not args:\n            self.write(prefix)\n            return\n"

SERVER = """import sys


class Server:
    async def shutdown(self, sockets=None):
        for server in self.servers:
            server.close()
{branch}        for server in self.servers:
            await server.wait_closed()
"""
BRANCH = (
    "        if sys.version_info < (3, 9):  # pragma: py-gte-39\n"
    "            for sock in sockets or []:\n"
    "                sock.close()\n"
)


def _style(fg: str, bg: str) -> dict[str, str | None]:
    return {"src/click/termui.py": STYLE.format(fg=fg, bg=bg)}


def _formatter(guard: str) -> dict[str, str | None]:
    return {"src/click/formatting.py": FORMATTER.format(guard=guard)}


def _server(branch: str) -> dict[str, str | None]:
    return {"uvicorn/server.py": SERVER.format(branch=branch)}


def test_a_truthiness_test_made_is_not_none_is_said_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _style("fg", "bg"),
        _style("fg is not None", "bg is not None"),
        "Validate `style()` color arguments (#3677)",
    )
    # a low entry says one line: the first of the function's changes
    assert analysis.summary == "`style` now tests `fg is not None` (was `fg`)."
    assert Kind.TESTS_NOW in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_an_early_return_added_is_said_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _formatter(""),
        _formatter(GUARD),
        "Fix `HelpFormatter.write_usage` producing spurious characters (#3434)",
    )
    assert "`HelpFormatter.write_usage` now returns early when `not args`." in (
        entry_text(analysis)
    )
    assert Kind.GUARD in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_version_branch_removed_is_said_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(tmp_path, _server(BRANCH), _server(""), "Drop Python 3.8")
    assert "`Server.shutdown` no longer tests `sys.version_info < (3, 9)`." in (
        entry_text(analysis)
    )
    assert Kind.NO_LONGER_TESTS in {c.kind for c in entry_claims(analysis)[0]}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_conditions_said_in_chinese(tmp_path: Path) -> None:
    _, commit = second_commit(tmp_path, _style("fg", "bg"), _style("fg is not None", "bg"), "x")
    assert "`style` 现在判断 `fg is not None`（原为 `fg`）" in entry_text(
        analyze(commit, language="zh-CN")
    )
    _, commit = second_commit(tmp_path / "b", _formatter(""), _formatter(GUARD), "y")
    assert "`HelpFormatter.write_usage` 现在在 `not args` 时提前返回" in entry_text(
        analyze(commit, language="zh-CN")
    )


LOAD = """def load(items, strict=False):
    out = []
    for item in items:
{guard}        if item is None:
            raise ValueError("no item")
        out.append(item)
    return out
"""


def test_a_raise_guard_is_said_unless_the_exception_is_new(tmp_path: Path) -> None:
    raises = "        if strict and item < 0:\n            raise ValueError(item)\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"app/load.py": LOAD.format(guard="")},
        {"app/load.py": LOAD.format(guard=raises)},
        "Strict loading",
    )
    assert "`load` now raises `ValueError` when `strict and item < 0`." in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
    # a new exception is "may now raise" already: the guard is not said again
    new = "        if strict and item < 0:\n            raise KeyError(item)\n"
    analysis, _ = checked_entry(
        tmp_path / "new",
        {"app/load.py": LOAD.format(guard="")},
        {"app/load.py": LOAD.format(guard=new)},
        "Strict loading",
    )
    text = entry_text(analysis)
    assert "`load` may now raise `KeyError`" in text and " when `" not in text


def test_a_continue_guard_is_said_and_proven(tmp_path: Path) -> None:
    skips = "        if not item:\n            continue\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"app/load.py": LOAD.format(guard="")},
        {"app/load.py": LOAD.format(guard=skips)},
        "Skip empty items",
    )
    assert "`load` now skips to the next iteration when `not item`." in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_rewrites_long_tests_and_tests_files_say_nothing(tmp_path: Path) -> None:
    long_test = "self.options.get('colour_mode') == 'truecolor' and self.is_a_terminal()"
    before = {
        "app/many.py": "def kind(x):\n    if x.a:\n        return 1\n    if x.b:\n"
        "        return 2\n    return 3\n",
        "app/long.py": "def paint(self):\n    if self.on:\n        return 1\n",
        "tests/test_kind.py": "def check(x):\n    if x.a:\n        return 1\n",
    }
    after = {
        "app/many.py": "def kind(x):\n    if x.c:\n        return 1\n    if x.d:\n"
        "        return 2\n    if x.e:\n        return 4\n    return 3\n",
        "app/long.py": f"def paint(self):\n    if {long_test}:\n        return 1\n",
        "tests/test_kind.py": "def check(x):\n    if x.b:\n        return 1\n",
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Tidy")
    text = entry_text(analysis)
    assert "tests `" not in text and " when `" not in text, text


def test_a_condition_ranks_after_what_callers_meet(tmp_path: Path) -> None:
    before = _style("fg", "bg")
    after = {
        "src/click/termui.py": STYLE.format(fg="fg is not None", bg="bg").replace(
            ", reset=True", ""
        )
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Fix style colors (#3677)")
    assert analysis.summary == "`style` no longer takes the parameter `reset=True`."
    assert "`style` now tests `fg is not None` (was `fg`)." in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_refutes_false_conditions(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path, _style("fg", "bg"), _style("fg is not None", "bg"), "Validate"
    )
    true = "`style` now tests `fg is not None` (was `fg`)."
    assert verdicts_of(root, commit.sha, true) == [(Kind.TESTS_NOW, Verdict.TRUE)]
    for false in (
        "`style` now tests `fg` (was `fg is not None`).",  # the sides swapped
        "`style` now tests `bg is not None` (was `bg`).",  # not this commit's
        "`style` now tests `fg is not None` (was `reset`).",  # `reset` is still tested
        "`style` now tests `fg is None` (was `fg`).",  # tested nowhere
        "`paint` now tests `fg is not None` (was `fg`).",  # another function
    ):
        assert verdicts_of(root, commit.sha, false) == [(Kind.TESTS_NOW, Verdict.FALSE)], false
    for false in (
        "`style` no longer tests `bg`.",  # still tested
        "`style` no longer tests `fg is not None`.",  # the new one
    ):
        assert verdicts_of(root, commit.sha, false) == [(Kind.NO_LONGER_TESTS, Verdict.FALSE)], (
            false
        )


def test_the_checker_refutes_false_guards(tmp_path: Path) -> None:
    root, commit = second_commit(tmp_path, _formatter(""), _formatter(GUARD), "Fix")
    true = "`HelpFormatter.write_usage` now returns early when `not args`."
    assert verdicts_of(root, commit.sha, true) == [(Kind.GUARD, Verdict.TRUE)]
    for false in (
        "`HelpFormatter.write_usage` now returns early when `prefix is None`.",  # no return
        "`HelpFormatter.write_usage` now returns early when `args`.",  # tested nowhere
        "`HelpFormatter.write_usage` now raises `ValueError` when `not args`.",  # returns
        "`HelpFormatter.write_usage` now skips to the next iteration when `not args`.",
    ):
        assert verdicts_of(root, commit.sha, false) == [(Kind.GUARD, Verdict.FALSE)], false
    # a guard whose test the parent had already is no new guard
    root, commit = second_commit(
        tmp_path / "old",
        _formatter("        if not args:\n            pass\n"),
        _formatter(GUARD),
        "Fix",
    )
    assert verdicts_of(root, commit.sha, true) == [(Kind.GUARD, Verdict.FALSE)]


def test_a_raise_moved_under_a_new_if_is_no_new_guard(tmp_path: Path) -> None:
    # werkzeug deab88f: `raise SecurityError(…)` now only `if trusted_hosts:`, fewer cases
    before = {
        "src/werkzeug/sansio/utils.py": "def get_host(host, trusted_hosts=None):\n"
        "    if not host_is_trusted(host, trusted_hosts):\n"
        "        raise SecurityError(f'Host {host!r} is not trusted.')\n"
        "    return host\n"
    }
    after = {
        "src/werkzeug/sansio/utils.py": "def get_host(host, trusted_hosts=None):\n"
        "    if not host_is_trusted(host, trusted_hosts):\n"
        "        if trusted_hosts:\n"
        "            raise SecurityError(f'Host {host!r} is not trusted.')\n"
        "        return ''\n"
        "    return host\n"
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Treat invalid hosts as empty")
    assert " when `" not in entry_text(analysis)


def test_a_test_rewritten_to_compare_a_new_string_is_said_once(tmp_path: Path) -> None:
    # httpx 12be5c4: "`Proxy` now also checks for `"socks5h"`" says it; the rewritten test not
    body = "class Proxy:\n    def __init__(self, url):\n        if url.scheme not in ({}):\n"
    body += "            raise ValueError('Unknown scheme')\n        self.url = url\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"httpx/_config.py": body.format('"http", "socks5"')},
        {"httpx/_config.py": body.format('"http", "socks5", "socks5h"')},
        "Fix socks5h proxy support (#3178)",
    )
    text = entry_text(analysis)
    assert '`Proxy` now also checks for `"socks5h"`' in text and "now tests" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_condition_holding_a_run_of_spaces_is_not_quoted(tmp_path: Path) -> None:
    # this repository's 1593c3e: `line.startswith(("    ", "\t"))` was quoted with one space,
    # a sentence folding the run: a false quote
    body = "def command_line(body):\n    for line in body:\n        if {test}:\n            return line\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/syntax.py": body.format(test="line.startswith(('    ', '\\t'))")},
        {"pkg/syntax.py": body.format(test="indent(line) >= 4")},
        "Commands: one indent rule",
    )
    assert "startswith" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_the_same_test_through_a_walrus_or_unrelated_tests_are_not_said_rewritten(
    tmp_path: Path,
) -> None:
    # yarl 96649e7: `if s is None` after `s = self._get_str_query(…)` became `if (s :=
    # self._get_str_query(…)) is None`; pluggy 584be1e: a function lost `argname not in
    # caller_kwargs` and gained an unrelated `TYPE_CHECKING` test: neither is a test rewritten
    query = (
        "class URL:\n    def update_query(self, *args):\n{body}"
        "        return self._from_parts(s)\n\n    def _from_parts(self, s):\n        return s\n"
    )
    walrus = "        if (s := self._get_str_query(*args)) is None:\n            return self\n"
    local = (
        "        s = self._get_str_query(*args)\n        if s is None:\n            return self\n"
    )
    call = (
        "def _multicall(hook_impls, caller_kwargs):\n    results = []\n{body}"
        "    for impl in hook_impls:\n        results.append(impl(**caller_kwargs))\n"
        "    return results\n"
    )
    missing = (
        "    for argname in ('a', 'b'):\n        if argname not in caller_kwargs:\n"
        "            raise KeyError(argname)\n"
    )
    checking = "    if TYPE_CHECKING:\n        results = list(results)\n"
    for i, (path, before, after) in enumerate(
        [
            ("yarl/_url.py", query.format(body=local), query.format(body=walrus)),
            ("src/pluggy/_callers.py", call.format(body=missing), call.format(body=checking)),
        ]
    ):
        analysis, verdicts = checked_entry(
            tmp_path / str(i), {path: before}, {path: after}, "Improve performance of the call"
        )
        assert "now tests" not in entry_text(analysis)
        assert all(v is Verdict.TRUE for v in verdicts)


@pytest.mark.parametrize(
    ("test", "moved"),
    [
        # structlog b0081ac: `if not defaults:` went from `__init__` into the `columns` setter
        # that `__init__` now assigns through
        ("if not defaults:\n            raise ValueError('none')\n", "setter"),
        # structlog 509902c: `0 if not pad_level else None` went into `_configure_columns`
        ("width = 0 if not defaults else None\n", "helper"),
    ],
)
def test_a_test_moved_into_another_function_of_the_file_is_not_gone(
    tmp_path: Path, test: str, moved: str
) -> None:
    init_before = (
        "class ConsoleRenderer:\n    def __init__(self, defaults=None, columns=None):\n"
        f"        {test}"
        "        self._columns = columns\n"
    )
    if moved == "setter":
        after = (
            "class ConsoleRenderer:\n    def __init__(self, defaults=None, columns=None):\n"
            "        self.columns = columns\n\n"
            "    @property\n    def columns(self):\n        return self._columns\n\n"
            "    @columns.setter\n    def columns(self, defaults):\n"
            f"        {test}"
            "        self._columns = defaults\n"
        )
    else:
        after = (
            "class ConsoleRenderer:\n    def __init__(self, defaults=None, columns=None):\n"
            "        self._configure(defaults)\n        self._columns = columns\n\n"
            "    def _configure(self, defaults):\n"
            f"        {test}"
        )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/structlog/dev.py": init_before},
        {"src/structlog/dev.py": after},
        "dev: allow columns to be got and set",
    )
    assert "no longer tests" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)
