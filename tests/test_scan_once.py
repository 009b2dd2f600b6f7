"""Work a period's analysis does once: a text scanned for credentials, a function's tree
walked, each pattern detector run only where its literal characters are."""

from __future__ import annotations

import ast
import re

import pytest

from bot.analysis import credentials
from bot.analysis.credentials import _literal, redact, redactions_kept
from bot.analysis.facts import pyfile
from bot.analysis.facts.kept import units_kept

_STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"


def test_a_patterns_literal_is_the_run_every_match_holds() -> None:
    assert _literal(re.compile(r"(?:r|s)k_live_[0-9a-zA-Z]{24}")) == "k_live_"
    assert _literal(re.compile(r"AccountKey=[a-z]{8}|x")) == ""
    assert _literal(re.compile(r"eyJ[A-Z]+\.abcd")) == ".abcd"  # the longest run
    # a pattern blind to case holds its letters in any case: no literal asked
    assert _literal(re.compile(r"xox(?:a|b)-\d+", re.IGNORECASE)) == ""
    assert _literal(re.compile(r"(?i)aws[0-9]")) == ""


def test_every_detectors_literal_is_in_each_of_its_matches() -> None:
    for _, patterns in credentials._detectors():
        for literal, lead, regex in patterns:
            assert literal in regex.pattern.replace("\\", "") or not literal
            assert lead in regex.pattern.replace("\\", "").lower() or not lead


def test_a_case_blind_pattern_tried_at_its_lead_finds_what_a_scan_does() -> None:
    # (Slack's and AWS's case-blind patterns, tried only where the lowered text has their
    # first characters; `ſ`, `ı` and `İ` match an ASCII letter there without lowering to it)
    key = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123"
    texts = [
        f'AWS_SECRET_KEY = "{key}" and aWs_pass = "{key}"\nxoxb-123-456-abc XOXP-1-2-zz',
        f'AWſ_KEY = "{key}"',
        f'İ aws_key = "{key}" xOx\u0131-1-2-z',
    ]
    for text in texts:
        for _, patterns in credentials._detectors():
            for _, lead, regex in patterns:
                spans = [m.span() for m in credentials._matches(regex, lead, text, text.lower())]
                assert spans == [m.span() for m in regex.finditer(text)]


def test_a_key_is_still_found_where_its_detector_is_asked() -> None:
    found: list[credentials.Found] = []
    assert _STRIPE not in redact(f'STRIPE = "{_STRIPE}"\n', "app.py", found)
    assert [f.kind for f in found] == ["Stripe Access Key"]


def test_a_text_is_scanned_once_within_a_period(monkeypatch: pytest.MonkeyPatch) -> None:
    scanned: list[str] = []
    real = credentials._redact

    def counting(text: str) -> tuple[str, list[tuple[str, str]]]:
        scanned.append(text)
        return real(text)

    monkeypatch.setattr(credentials, "_redact", counting)
    text = f'key = "{_STRIPE}"\n'
    outside = [redact(text), redact(text)]
    assert len(scanned) == 2
    with units_kept():
        found: list[credentials.Found] = []
        inside = [redact(text, "a.py", found), redact(text, "b.py", found)]
    assert len(scanned) == 3
    assert inside == outside
    assert [f.where for f in found] == ["a.py", "b.py"]
    with redactions_kept():
        redact(text)
    assert len(scanned) == 4  # a new period starts empty


def test_a_functions_tree_is_walked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[ast.AST] = []
    real = pyfile._walked

    def counting(node: ast.FunctionDef | ast.AsyncFunctionDef) -> pyfile._Walked:
        walked.append(node)
        return real(node)

    monkeypatch.setattr(pyfile, "_walked", counting)
    tree = ast.parse("def f(x):\n    if x:\n        raise ValueError('no')\n    return g(x)\n")
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    first, again = pyfile._walk(node), pyfile._walk(node)
    assert first is again
    assert first.raised == frozenset({"ValueError"}) and first.calls == frozenset(
        {"ValueError", "g"}
    )
    assert len(walked) == 1
    other = ast.parse("def f(x):\n    return h(x)\n").body[0]
    assert isinstance(other, ast.FunctionDef)
    assert pyfile._walk(other).calls == frozenset({"h"})
    assert len(walked) == 2
