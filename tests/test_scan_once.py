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


def _token(length: int, alphabet: str = "aB3dE5gH7jK9mN2pQ4sT6vW8yZ") -> str:
    """`length` characters of `alphabet` in no sequence nor run (a placeholder is no key)."""
    return "".join(alphabet[(i * 7 + i // 3) % len(alphabet)] for i in range(length))


_BODY = "MIIEpAIBAAKCAQEA" + _token(48, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop0123456789+/")
# One text a detector pattern matches, each in its vendor's documented form (lengths and
# prefixes from the vendors' token formats); a key block with a base64 body.
_EXAMPLES = [
    "aws_access_key_id = AKIA" + _token(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
    'aws_secret_key = "' + _token(40, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123/+") + '"',
    "DefaultEndpointsProtocol=https;AccountKey=" + _token(86) + "==",
    "url = https://deploy:" + _token(16) + "@example.com/repo.git",
    "DISCORD = " + "MTE" + _token(23) + "." + _token(6) + "." + _token(27),
    "GH = ghp_" + _token(36),
    "GL = glpat-" + _token(20),
    "GL = GR1348941" + _token(20),
    "GL = glcbt-" + _token(20),
    "GL = glimt-" + _token(25),
    "GL = glptt-" + _token(40),
    "GL = glagent-" + _token(50),
    "GL = gloas-" + _token(64),
    "JWT = eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + _token(43),
    "//registry.npmjs.org/:_authToken=npm_" + _token(36),
    "OPENAI = sk-" + _token(20) + "T3BlbkFJ" + _token(20),
    *(
        f"-----BEGIN {kind} PRIVATE KEY-----\n{_BODY}\n-----END {kind} PRIVATE KEY-----"
        for kind in ("DSA", "EC", "OPENSSH", "RSA", "SSH2 ENCRYPTED")
    ),
    f"-----BEGIN PRIVATE KEY-----\n{_BODY}\n-----END PRIVATE KEY-----",
    f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{_BODY}\n-----END PGP PRIVATE KEY BLOCK-----",
    f"PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\n{_BODY}\nPrivate-MAC: {_token(40)}",
    "PYPI = pypi-AgEIcHlwaS5vcmc" + _token(70),
    "PYPI = pypi-AgENdGVzdC5weXBpLm9yZw" + _token(70),
    "SENDGRID = SG." + _token(22) + "." + _token(43),
    "SLACK = xoxb-1234567890-" + _token(24, "abcdefghijklmnopqrstuvwxyz0123456789"),
    "HOOK = https://hooks.slack.com/services/T" + _token(8) + "/B" + _token(8) + "/" + _token(24),
    "SQUARE = sq0csp-" + _token(43),
    "STRIPE = " + _STRIPE,
    "TWILIO = AC" + _token(32, "abcdefghijklmnopqrstuvwxyz0123456789"),
    "TWILIO = SK" + _token(32, "abcdefghijklmnopqrstuvwxyz0123456789"),
]


def test_every_detector_pattern_still_redacts_its_example() -> None:
    # (a pre-check in `_NEEDS` or `_GATES` that missed a match would leave its key here)
    for kind, patterns in credentials._detectors():
        for _, _, regex in patterns:
            texts = [t for t in _EXAMPLES if regex.search(t)]
            assert texts, regex.pattern  # each pattern has its example
            for text in texts:
                with redactions_kept():
                    assert credentials.MARKER.format(kind=kind) in redact(text), text
                gate = credentials._GATES.get(regex.pattern)
                assert gate is None or gate.search(text)
                needs = credentials._NEEDS.get(kind)
                assert needs is None or any(n in text.lower() for n in needs)


def test_a_text_over_the_kept_bound_is_redacted_and_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(credentials, "_KEPT_CHARACTERS", 40)
    text = f'key = "{_STRIPE}" and more words past the bound\n'
    with redactions_kept():
        assert _STRIPE not in redact(text)
        assert _STRIPE not in redact(text)
