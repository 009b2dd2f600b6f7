"""Strings a module's table gains or loses: a `Literal` alias and a dict's keys (uvicorn
b960626, `--ws websockets-sansio`), a private registry's key (click 7df2f82, `"powershell"`);
each a clone shaped like the commit, every sentence checked against it, and the checker
shown to refuse false versions."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.cli.claim_check import Checker, Clone, Verdict
from bot.cli.claims import Kind, claims_in
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

CONFIG = """from typing import Literal

HTTPProtocolType = Literal["auto", "h11", "httptools"]
WSProtocolType = Literal[{ws}]

WS_PROTOCOLS: dict[WSProtocolType, str | None] = {{
    "auto": "uvicorn.protocols.websockets.auto:AutoWebSocketsProtocol",
    "none": None,
    "websockets": "uvicorn.protocols.websockets.websockets_impl:WebSocketProtocol",
{extra}    "wsproto": "uvicorn.protocols.websockets.wsproto_impl:WSProtocol",
}}


class Config:
    def __init__(self, ws: WSProtocolType = "auto") -> None:
        self.ws = ws
"""
OLD_WS = '"auto", "none", "websockets", "wsproto"'
NEW_WS = '"auto", "none", "websockets", "websockets-sansio", "wsproto"'
SANSIO_ROW = (
    '    "websockets-sansio": '
    '"uvicorn.protocols.websockets.websockets_sansio_impl:WebSocketsSansIOProtocol",\n'
)
SANSIO = """class WebSocketsSansIOProtocol:
    def __init__(self, config):
        self.config = config
""" + "".join(
    f"\n    def on_{n}(self, event):\n        self.last = {n!r}\n        return event\n"
    for n in ("connect", "accept", "message", "ping", "pong", "close")
)
# lines enough for a change of some reach (a few lines are a tiny tweak, said in a line)
EXTRA = "".join(f"\n\ndef step_{n}(value):\n    return value + {n}\n" for n in range(8))

SHELLS = """class ShellComplete:
    name = ""


class BashComplete(ShellComplete):
    name = "bash"


class FishComplete(ShellComplete):
    name = "fish"
{more}

_available_shells: dict[str, type[ShellComplete]] = {{
    "bash": BashComplete,
    "fish": FishComplete,
{rows}}}


def get_completion_class(shell):
    return _available_shells.get(shell)
"""
POWERSHELL = '''

class PowerShellComplete(ShellComplete):
    """Shell completion for PowerShell."""

    name = "powershell"
''' + "".join(
    f"\n    def {n}(self, value):\n        return value + {n!r}\n"
    for n in ("source", "get_completion_args", "format_completion", "escape", "quote")
)


def _uvicorn(ws: str, extra: str, sansio: bool) -> dict[str, str | None]:
    files: dict[str, str | None] = {"uvicorn/config.py": CONFIG.format(ws=ws, extra=extra)}
    if sansio:
        files["uvicorn/protocols/websockets/websockets_sansio_impl.py"] = SANSIO
    return files


def _verdicts(root: Path, sha: str, text: str) -> list[tuple[Kind, str, Verdict]]:
    claims, _ = claims_in(text)
    reader = Clone(root)
    try:
        return [(c.kind, c.old or "", Checker(reader).check(sha, c).verdict) for c in claims]
    finally:
        reader.close()


def test_uvicorn_ws_choice_is_said_for_the_literal_and_the_dict(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        _uvicorn(OLD_WS, "", sansio=False),
        _uvicorn(NEW_WS, SANSIO_ROW, sansio=True),
        "Add `WebSocketsSansIOProtocol` (#2540)",
    )
    text = entry_text(analysis)
    assert '`WS_PROTOCOLS` gains the key `"websockets-sansio"`.' in text
    assert '`WSProtocolType` gains `"websockets-sansio"`.' in text
    # the unchanged alias says nothing
    assert "HTTPProtocolType" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_click_private_registry_key_is_said(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/click/shell_completion.py": SHELLS.format(more="", rows="")},
        {
            "src/click/shell_completion.py": SHELLS.format(
                more=POWERSHELL, rows='    "powershell": PowerShellComplete,\n'
            )
        },
        "Add built-in PowerShell shell completion support (#3637)",
    )
    text = entry_text(analysis)
    assert '`_available_shells` gains the key `"powershell"`.' in text
    # internals: after the public facts
    assert text.index("PowerShellComplete") < text.index("_available_shells")
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_losses_and_more_than_three_are_counted(tmp_path: Path) -> None:
    before = {"pkg/codes.py": 'NAMES = ("a", "b", "c", "d", "e")\nMAP = {"x": 1, "y": 2}\n'}
    after = {"pkg/codes.py": 'NAMES = ("a", "f", "g", "h", "i", "j")\nMAP = {"x": 1}\n' + EXTRA}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Rework codes")
    text = entry_text(analysis)
    assert '`NAMES` gains `"f"`, `"g"`, `"h"` and 2 more.' in text
    assert '`NAMES` drops `"b"`, `"c"`, `"d"` and 1 more.' in text
    assert '`MAP` no longer has the key `"y"`.' in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_chinese_wording(tmp_path: Path) -> None:
    _, commit = second_commit(
        tmp_path,
        _uvicorn(OLD_WS, "", sansio=False),
        _uvicorn(NEW_WS, SANSIO_ROW, sansio=True),
        "Add a websockets choice",
    )
    text = entry_text(analyze(commit, language="zh-CN"))
    assert '`WS_PROTOCOLS` 新增键 `"websockets-sansio"`' in text
    assert '`WSProtocolType` 新增取值 `"websockets-sansio"`' in text


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # a table new at the commit is a new name, said as one
        ({"pkg/a.py": "X = 1\n"}, {"pkg/a.py": 'X = 1\nCHOICES = ["a", "b"]\n'}),
        # bound twice: which one is the table is not known
        (
            {"pkg/a.py": 'CHOICES = ["a"]\nif X:\n    CHOICES = ["b"]\n'},
            {"pkg/a.py": 'CHOICES = ["a", "c"]\nif X:\n    CHOICES = ["b"]\n'},
        ),
        # a list that is no longer all strings, and a dict that became a list
        ({"pkg/a.py": 'C = ["a"]\nD = {"k": 1}\n'}, {"pkg/a.py": 'C = ["a", b]\nD = ["k", "j"]\n'}),
        # a table of a test file is no user's
        ({"tests/test_a.py": 'CASES = ["a"]\n'}, {"tests/test_a.py": 'CASES = ["a", "b"]\n'}),
    ],
)
def test_not_said(
    tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None]
) -> None:
    analysis, _ = checked_entry(tmp_path, before, after, "Update tables")
    text = entry_text(analysis)
    assert " gains `" not in text and " drops `" not in text and "the key" not in text


def test_checker_refuses_false_versions(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        _uvicorn(OLD_WS, "", sansio=False),
        _uvicorn(NEW_WS, SANSIO_ROW, sansio=False),
        "Add a websockets choice",
    )
    cases = [
        # the true ones
        ('`WS_PROTOCOLS` gains the key `"websockets-sansio"`.', Verdict.TRUE),
        (
            '`WS_PROTOCOLS` in `uvicorn/config.py` gains the key `"websockets-sansio"`.',
            Verdict.TRUE,
        ),
        ('`WSProtocolType` gains `"websockets-sansio"`.', Verdict.TRUE),
        # a key already there, the wrong direction, a wrong name, the wrong kind, a count
        ('`WS_PROTOCOLS` gains the key `"auto"`.', Verdict.FALSE),
        ('`WS_PROTOCOLS` no longer has the key `"websockets-sansio"`.', Verdict.FALSE),
        ('`WSProtocolType` drops `"websockets-sansio"`.', Verdict.FALSE),
        ('`HTTPProtocolType` gains `"websockets-sansio"`.', Verdict.FALSE),
        ('`LIFESPAN` gains the key `"websockets-sansio"`.', Verdict.FALSE),
        ('`WSProtocolType` gains the key `"websockets-sansio"`.', Verdict.FALSE),
        ('`WS_PROTOCOLS` gains `"websockets-sansio"`.', Verdict.FALSE),
        ('`WSProtocolType` gains `"websockets-sansio"` and 1 more.', Verdict.FALSE),
        ('`WSProtocolType` gains `"h2"`.', Verdict.FALSE),
    ]
    for sentence, want in cases:
        found = _verdicts(root, commit.sha, sentence)
        assert len(found) == 1, sentence
        assert found[0][2] is want, sentence
        assert found[0][0].name.startswith("TABLE"), sentence


def test_class_tables_frozensets_and_t_literal(tmp_path: Path) -> None:
    module = (
        "import typing as t\n\n"
        "Mode = t.Literal[{modes}]\n\n\n"
        "class Parser:\n"
        "    SCHEMES = frozenset({{{schemes}}})\n\n"
        "    def parse(self, url):\n        return url\n"
    )
    before = {"pkg/parse.py": module.format(modes='"r", "w"', schemes='"http", "ftp"')}
    after = {
        "pkg/parse.py": module.format(modes='"r", "w", "a"', schemes='"http", "https"') + EXTRA
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Rework parsing")
    text = entry_text(analysis)
    assert '`Mode` gains `"a"`.' in text
    assert '`Parser.SCHEMES` gains `"https"`.' in text
    assert '`Parser.SCHEMES` drops `"ftp"`.' in text
    assert len(verdicts) >= 3 and all(v is Verdict.TRUE for v in verdicts)


_KEYWORDS = """from sqlparse import tokens

KEYWORDS = {{
    'ROUTINE_SCHEMA': tokens.Keyword,
{row}    'ROWS': tokens.Keyword,
}}

KEYWORDS_COMMON = {{
{common}    'SELECT': tokens.Keyword.DML,
}}
{mysql}"""


def test_a_key_one_dict_loses_and_another_gains_moves(tmp_path: Path) -> None:
    # sqlparse 6b10952: `ROW` out of `KEYWORDS` into the new `KEYWORDS_MYSQL`
    row = "    'ROW': tokens.Keyword,\n"
    before = {"sqlparse/keywords.py": _KEYWORDS.format(row=row, common="", mysql="")}
    mysql = "\nKEYWORDS_MYSQL = {\n" + row + "}\n"
    after = {"sqlparse/keywords.py": _KEYWORDS.format(row="", common="", mysql=mysql)}
    analysis, _ = checked_entry(tmp_path, before, after, "Add new group for MySQL keywords")
    text = entry_text(analysis)
    assert 'The key `"ROW"` moves from `KEYWORDS` to `KEYWORDS_MYSQL`.' in text
    assert "no longer has the key" not in text
    # d76e8a4: `TRUNCATE` out of `KEYWORDS` into `KEYWORDS_COMMON`, bound at both revisions
    truncate = "    'TRUNCATE': tokens.Keyword.DDL,\n"
    before = {"sqlparse/keywords.py": _KEYWORDS.format(row=truncate, common="", mysql="")}
    after = {"sqlparse/keywords.py": _KEYWORDS.format(row="", common=truncate, mysql="")}
    analysis, _ = checked_entry(tmp_path / "again", before, after, "Classify TRUNCATE as DDL")
    text = entry_text(analysis)
    assert 'The key `"TRUNCATE"` moves from `KEYWORDS` to `KEYWORDS_COMMON`.' in text
    assert "no longer has the key" not in text and "gains the key" not in text
