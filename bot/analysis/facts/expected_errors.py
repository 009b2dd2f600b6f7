"""Test lines a commit rewrites to expect an error where they expected a result: the same
call, one string literal changed from what it gave to an error's words."""

from __future__ import annotations

import io
import re
import tokenize

from bot.analysis.facts.records import ErrorExpected

# Words an error message is made of ("Could not include outside source dir", "invalid
# path", "refused"), where the string the test expected before had none
_ERROR = re.compile(
    r"\b(?:could not|cannot|can't|can not|not allowed|not permitted|disallowed|forbidden|denied"
    r"|refus\w*|reject\w*|invalid|unsafe|outside|errors?|exceptions?|failed|fails)\b",
    re.IGNORECASE,
)


def _strings(line: str) -> tuple[list[str], list[str]] | None:
    """The line's tokens with each string literal replaced by a mark, and the literals; None
    where the line is no whole Python line."""
    shape: list[str] = []
    strings: list[str] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline):
            if tok.type == tokenize.STRING:
                shape.append("\0")
                strings.append(tok.string)
            elif tok.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER):
                shape.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return shape, strings


def _text(literal: str) -> str:
    body = literal.lstrip("rbuRBUfF")
    quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
    return body[len(quote) : len(body) - len(quote)]


def errors_expected(path: str, patch: str) -> list[ErrorExpected]:
    """Lines of a test file's patch replaced one for one (a run of `-` lines then as many
    `+` lines) where the new line is the old one with one string literal changed, from words
    no error is made of to an error's words: the same call now expected to fail."""
    out: list[ErrorExpected] = []
    minus: list[str] = []
    plus: list[str] = []

    def pair() -> None:
        if minus and len(minus) == len(plus):
            for old, new in zip(minus, plus, strict=True):
                was, now = _strings(old), _strings(new)
                if was is None or now is None or was[0] != now[0] or not now[1]:
                    continue
                changed = [
                    (a, b) for a, b in zip(was[1], now[1], strict=True) if _text(a) != _text(b)
                ]
                if len(changed) != 1:
                    continue
                a, b = (_text(s) for s in changed[0])
                if _ERROR.search(b) and not _ERROR.search(a):
                    out.append(ErrorExpected(path, a, b))
        minus.clear()
        plus.clear()

    for line in patch.split("\n"):
        if line.startswith("-") and not line.startswith("---"):
            if plus:
                pair()
            minus.append(line[1:])
        elif line.startswith("+") and not line.startswith("+++"):
            plus.append(line[1:])
        else:
            pair()
    pair()
    return out
