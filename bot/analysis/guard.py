"""The fact guard: every claim in the LLM's answer must be supported by the commit's own text
(message, pull request title, body and labels, file names, patches); unsupported ones are dropped.

A claim is one sentence of the summary or of an insight, one risk, one recommendation or one
impact area. In a claim these must appear in the commit (case aside): every code span; every
identifier-looking token (snake_case, CamelCase, dotted names, `--flags`, ENV_VARS, paths,
names with digits such as `fp8` or `Qwen3`); every number that is not a small count, as the
author wrote it (2.3x, 2.3× and 230 % are one figure; a rounding of it counts); every hardware
name, by the table in `hardware.py` (SM100 is Blackwell, not Hopper). Plain words, English or
Chinese, are never checked. `a.b.c` is supported by its parts, `foo()` by `foo`, a path by a
file it names (a suffix, a folder, a glob), `--a-b` by `a_b`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

import pydantic

from bot.analysis import hardware
from bot.analysis.ground import Ground, fold, typographic
from bot.analysis.verdicts import check_verdicts
from bot.models import AnalysisBody, CommitInput, Insights


class Kind(StrEnum):
    """What in a claim had no support (the first such token decides)."""

    CODE = "code"
    IDENTIFIER = "identifier"
    FLAG = "flag"
    PATH = "path"
    NUMBER = "number"
    HARDWARE = "hardware"
    LINK = "link"
    QUOTE = "quote"
    # Never from the model: a security claim, a CVE or advisory ID, a command to run.
    SECURITY = "security"
    COMMAND = "command"
    # A verdict (importance, breaking, a change type) with nothing behind it: the rules' stands.
    VERDICT = "verdict"


@dataclass(frozen=True)
class Drop:
    """One claim dropped: where it was, and the token the commit does not support."""

    field: str
    kind: Kind
    token: str


@dataclass(frozen=True)
class Guarded:
    """The answer with its unsupported claims dropped; `summary_from_rules` says the whole
    summary was unsupported and the rules' summary stands in."""

    body: AnalysisBody
    dropped: tuple[Drop, ...] = ()
    summary_from_rules: bool = False


# A code span; a sentence end outside code spans (a full stop, ! or ? before a space; a CJK
# full stop, ! , ? or ; anywhere; a line break).
_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
# A `；` ends a clause, not a sentence: dropping one would orphan the next ("otherwise …").
_SENTENCE = re.compile(r"(`+).+?\1|[.!?](?=\s)|[。！？]|\n", re.DOTALL)
_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx)\.$", re.IGNORECASE)
# A run of text that is neither space nor CJK (ideographs, CJK and full-width punctuation).
_CHUNK = re.compile(r"[^\s\u2e80-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]+")
_OPENERS = "\"'`“‘([{<*"
_CLOSERS = "\"'`”’,;:!?.…、*"
_CALL = re.compile(r"([A-Za-z_][\w.:]*)\(.*\)")
_PATHLIKE = re.compile(r"[\w.*~-]*(?:/[\w.*~-]*)+")
_DOTTED = re.compile(r"[A-Za-z_][\w*]*(?:(?:\.|::|->)[A-Za-z_*][\w*]*)+")
_IN_CODE = re.compile(
    r"--[A-Za-z0-9][\w-]*=[^\s,;'\"`)]+"
    r"|--?[A-Za-z0-9][\w-]*"
    r"|[\w.*~-]*/[\w./*~-]*"
    r"|[A-Za-z_*][\w*]*(?:(?:\.|::|->)[A-Za-z_*][\w*]*)*"
    r"|\d[\d,]*(?:\.\d+)?[A-Za-z%×]*"
)
_MESSAGE = re.compile(r"[A-Za-z][A-Za-z0-9' ,:;!?.-]*")
# A quotation in prose: “…”, "…", 「…」, ‘…’.
_QUOTED = re.compile(r"“([^”]+)”|\"([^\"]+)\"|「([^」]+)」|‘([^’]+)’")
# A number (or a range) with a unit of size, time or rate.
_QUANTITY = re.compile(
    r"(?<![\w.])(?P<low>\d+(?:\.\d+)?)(?:\s*(?:-|–|~|to)\s*(?P<high>\d+(?:\.\d+)?))?\s?"
    r"(?P<unit>[KMGT]i?B(?:/s)?|[KMGT]bps|ms|µs|us|ns|s|secs?|seconds?|mins?|minutes?|hours?"
    r"|h|tokens?|T?FLOPS|[MG]Hz|毫秒|秒|分钟|小时)(?![\w/])"
)
# Never posted from the model: it cannot know a vulnerability or an advisory the change does
# not prove, and an instruction planted in a pull request asks for exactly these.
_SECURITY = re.compile(
    r"\bCVE-\d{4}-\d{3,}|\bGHSA(?:-[0-9a-z]{4}){3}\b|\bvulnerab|\bexploit|\bbackdoor"
    r"|\bmalicious|remote code execution|\bRCE\b|privilege escalation|arbitrary code"
    r"|\bsecurity (?:fix|patch|issue|hole|flaw|bug|advisory|vulnerability|update)"
    r"|漏洞|后门|提权|安全(?:修复|问题|公告|补丁|更新|隐患)",
    re.IGNORECASE,
)
# A command to run, in a code span: a shell, a downloader, an installer, root.
_COMMAND = re.compile(
    r"(?:^|[\s;&|(])(?:sudo|su|curl|wget|bash|sh|zsh|chmod|chown|rm|dd|eval|iex|powershell"
    r"|nc|ssh|scp|pip3?|npm|npx|yarn|pnpm|apt(?:-get)?|yum|dnf|brew|docker|kubectl)\s"
    r"|\|\s*(?:sudo\s+)?(?:ba|z)?sh\b"
)
# A command in prose, outside code spans: piped to a shell, or run as root or downloaded.
_PROSE_COMMAND = re.compile(
    r"\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\bsudo\s+\S+|\b(?:curl|wget)\s+-?\S*\s*https?://\S+",
    re.IGNORECASE,
)
# Product names written in CamelCase that are plain nouns in prose.
_PROPER_NOUNS = frozenset(
    {"github", "gitlab", "pytorch", "pypi", "numpy", "scipy", "openai", "huggingface"}
    | {"javascript", "typescript", "macos", "ios", "youtube", "linkedin"}
)


def _identifier_like(token: str) -> bool:
    if token.lower() in _PROPER_NOUNS or re.fullmatch(r"[A-Z]+s", token):
        return False
    has_letter = re.search(r"[A-Za-z]", token) is not None
    return has_letter and (
        "_" in token
        or re.search(r"[a-z][A-Z]", token) is not None
        or re.fullmatch(r"[A-Z]{2,}[a-z]+\w*", token) is not None
        or re.search(r"\d", token) is not None
    )


def _clean(chunk: str) -> str:
    token = chunk.lstrip(_OPENERS).rstrip(_CLOSERS)
    call = _CALL.fullmatch(token)
    if call:
        return call.group(1)
    token = token.rstrip(")]}>").rstrip(_CLOSERS)
    return token[:-2] if token.endswith(("'s", "’s")) else token


def _prose_token(token: str, ground: Ground) -> Kind | None:
    """The kind of a token outside code spans that the commit does not support, or None."""
    if len(token) < 2:
        return None
    low = fold(token)
    if low.startswith(("http://", "https://")):
        return None if ground.occurs(low, inner="/.") else Kind.LINK
    if token[0] == "#" and token[1:].isdigit():
        return None if ground.occurs(low) else Kind.NUMBER
    if token.startswith("--"):
        return None if _flag(token, ground) else Kind.FLAG
    if "/" in token:
        if _path_shaped(token):
            return None if ground.path(token) else Kind.PATH
        segments = [s for s in token.split("/") if s]
        return next(filter(None, (_prose_token(s, ground) for s in segments)), None)
    if "-" in token.strip("-"):
        if ground.occurs(low, inner="-"):
            return None
        return next(filter(None, (_prose_token(s, ground) for s in token.split("-"))), None)
    if token[0].isdigit() or (token[0] in "~≈+-−±" and token[1:2].isdigit()):
        return None if ground.number(token) else Kind.NUMBER
    if _DOTTED.fullmatch(token):
        parts = re.split(r"\.|::|->", token)
        if all(len(p) <= 1 for p in parts):
            return None  # e.g., i.e.
        return None if ground.name(token) else Kind.IDENTIFIER
    if _identifier_like(token):
        # In prose, `MoE` or `W4A8` may name a word of `fused_moe` or `W4A8_MXFP4`.
        return None if ground.name(token, word=True) else Kind.IDENTIFIER
    return None


def _path_shaped(token: str) -> bool:
    """Whether `a/b` is a path, not prose's "BF16/FP16" or "try/except": three parts or more,
    a trailing slash, or a part with a suffix, an underscore or a glob."""
    segments = [s for s in token.split("/") if s]
    return _PATHLIKE.fullmatch(token) is not None and (
        len(segments) >= 3
        or token.endswith("/")
        or any("." in s[1:] or "_" in s or "*" in s for s in segments)
    )


def _flag(token: str, ground: Ground) -> bool:
    """A flag the commit names, and its value as written (`--quantization=mxfp4`) given to it."""
    name, _, value = token.partition("=")
    return ground.flag(name) and (not value or ground.option_value(name, value))


def _code_token(token: str, ground: Ground) -> bool:
    """Whether a token inside a code span is supported: there every name is checked."""
    if token.startswith("--"):
        return _flag(token, ground)
    if token.startswith("-"):
        return ground.occurs(fold(token), inner="-")
    if "/" in token:
        if _path_shaped(token):
            return ground.path(token)
        return all(_code_token(s, ground) for s in token.split("/") if len(s) > 1)
    if token[0].isdigit():
        return ground.number(token)
    return ground.name(token)


def _code(span: str, ground: Ground) -> bool:
    text = " ".join(span.split()).strip("'\"")
    if len(text) < 2 or ground.occurs(fold(text)):
        return True
    if _message_like(text):
        return ground.quote(text)
    return all(_code_token(t, ground) for t in _IN_CODE.findall(text) if t.strip("*"))


def _message_like(text: str) -> bool:
    """A quoted message, not code: three words or more of plain text."""
    return len(text.split()) >= 3 and _MESSAGE.fullmatch(text) is not None


def _quantities(prose: str, ground: Ground) -> str | None:
    """The first number with a unit (`2 MB`, `about 2–3 GB`) the commit does not write with
    that unit; a range needs both ends."""
    for m in _QUANTITY.finditer(prose):
        low, high, unit = m.group("low"), m.group("high"), m.group("unit")
        if not ground.quantity(high or low, unit):
            return m.group(0)
        if high and not (
            ground.quantity(low, unit)
            or any(ground.occurs(f"{low}{sep}{high}") for sep in ("-", "–", "~", " - ", " to "))
        ):
            return m.group(0)
    return None


def _forbidden(claim: str, spans: list[str], ground: Ground) -> tuple[Kind, str] | None:
    """What the model may never post: a security claim or advisory ID, and a command to run
    that the change's own files do not write."""
    security = _SECURITY.search(claim)
    if security:
        return Kind.SECURITY, security.group(0)
    for span in spans:
        if _COMMAND.search(span) and not ground.in_patches(span):
            return Kind.COMMAND, span
    prose = _SPAN.sub(" ", claim)
    command = _PROSE_COMMAND.search(prose)
    if command:
        return Kind.COMMAND, command.group(0)
    return None


def unsupported(claim: str, ground: Ground) -> tuple[Kind, str] | None:
    """The first token of `claim` the commit does not support, with its kind; None if all are."""
    claim = typographic(claim)
    forbidden = _forbidden(claim, [m.group(2).strip() for m in _SPAN.finditer(claim)], ground)
    if forbidden is not None:
        return forbidden
    for span in _SPAN.finditer(claim):
        code = span.group(2).strip()
        # A span that is one hardware name (`sm_100a`) is read as hardware: `sm100a` says it.
        named = hardware.mentions(code)
        if len(named) == 1 and named[0].text == code:
            if not hardware.supported(named[0], ground):
                return Kind.HARDWARE, code
        elif not _code(code, ground):
            return Kind.CODE, code
    prose = _SPAN.sub(lambda m: " " * len(m.group(0)), claim)
    for quoted in _QUOTED.finditer(prose):
        words = next(g for g in quoted.groups() if g is not None)
        if len(words.split()) >= 3 and not ground.quote(words):
            return Kind.QUOTE, words
    measure = _quantities(prose, ground)
    if measure is not None:
        return Kind.NUMBER, measure
    marks = hardware.mentions(prose)
    for mark in marks:
        if not hardware.supported(mark, ground):
            return Kind.HARDWARE, mark.text
    for chunk in _CHUNK.finditer(prose):
        if any(m.start < chunk.end() and chunk.start() < m.end for m in marks):
            continue
        token = _clean(chunk.group(0))
        kind = _prose_token(token, ground)
        if kind is not None:
            return kind, token
    return None


def sentences(text: str) -> list[str]:
    """A text field's claims: its sentences and lines, each with the space after it, so that
    joining them gives the text back. Code spans are never split."""
    pieces: list[str] = []
    start = 0
    for m in _SENTENCE.finditer(text):
        if m.group(1) or _ABBREVIATION.search(text, start, m.end()):
            continue
        end = m.end()
        while end < len(text) and text[end] in " \t":
            end += 1
        pieces.append(text[start:end])
        start = end
    if start < len(text):
        pieces.append(text[start:])
    return pieces


class _Check:
    def __init__(self, ground: Ground) -> None:
        self.ground = ground
        self.dropped: list[Drop] = []

    def keeps(self, where: str, *texts: str | None) -> bool:
        for text in texts:
            if text:
                found = unsupported(text, self.ground)
                if found is not None:
                    kind, token = found
                    self.dropped.append(Drop(where, kind, token[:120]))
                    return False
        return True

    def text(self, where: str, text: str | None) -> str | None:
        if not text:
            return text
        kept = "".join(s for s in sentences(text) if self.keeps(where, s)).strip()
        return kept or None


def guard(
    body: AnalysisBody, commit: CommitInput, *, stand_in: Callable[[], AnalysisBody]
) -> Guarded:
    """`body` with every claim the commit does not support dropped, and each verdict with
    nothing behind it replaced by the rules' (`verdicts.py`; each counts as a drop). A field
    left empty is omitted; a summary left empty is replaced by the summary of `stand_in()`
    (the rules'). `commit` is read as given: the caller shields it (`shield.py`) first.

    What is kept is the answer's own (validated) text, never validated again."""
    rules = cache(stand_in)
    claims = _claims(body, commit, rules)
    verdict = check_verdicts(claims.body, commit, rules())
    dropped = claims.dropped + tuple(Drop("verdict", Kind.VERDICT, o) for o in verdict.overruled)
    return Guarded(verdict.body, dropped, claims.summary_from_rules)


def _claims(
    body: AnalysisBody, commit: CommitInput, stand_in: Callable[[], AnalysisBody]
) -> Guarded:
    check = _Check(Ground(commit))
    summary = check.text("summary", body.summary)
    insights = body.insights
    if insights is not None:
        kept = {key: check.text(f"insights.{key}", text) for key, text in _texts(insights)}
        insights = insights.model_copy(update=kept) if any(kept.values()) else None
    kept_parts: dict[str, Any] = {
        "insights": insights,
        "risks": [
            r
            for r in body.risks
            if check.keeps("risks", r.description, r.consequence, r.mitigation)
        ],
        "recommendations": [
            r for r in body.recommendations if check.keeps("recommendations", r.text)
        ],
        "impact": [a for a in body.impact if check.keeps("impact", a.area)],
    }
    dropped = tuple(check.dropped)
    if not dropped:
        return Guarded(body)
    kept_body = body.model_copy(update=kept_parts)
    if summary is not None:
        return Guarded(kept_body.model_copy(update={"summary": summary}), dropped)
    rules = stand_in()
    for candidate in (rules.summary, commit.title):
        try:
            # Validated for this answer's importance: a low answer's summary is one line.
            fitted = AnalysisBody(
                change_types=body.change_types, importance=body.importance, summary=candidate
            ).summary
        except pydantic.ValidationError:
            continue  # a rules summary too long for a low answer's one line: try the title
        return Guarded(kept_body.model_copy(update={"summary": fitted}), dropped, True)
    return Guarded(AnalysisBody.model_validate(rules.model_dump()), dropped, True)


def guard_text(text: str, ground: str) -> tuple[str | None, tuple[Drop, ...]]:
    """A free text (the weekly narrative) with each sentence `ground` does not support
    dropped; None when none is left."""
    check = _Check(Ground(CommitInput(sha="", message=ground)))
    return check.text("text", text), tuple(check.dropped)


def _texts(insights: Insights) -> list[tuple[str, str | None]]:
    return [(key, getattr(insights, key)) for key in Insights.model_fields]


def audit(commit: CommitInput, analysis: AnalysisBody) -> tuple[int, int]:
    """(claims the commit does not support, claims checked) of an analysis as it stands, for
    the measures of `bot eval`: an LLM answer's unsupported claims are dropped before it is
    stored, so what this finds there, or in the rules' text, is a claim the guard let by."""
    ground = Ground(commit)
    claims: list[tuple[str | None, ...]] = [(s,) for s in sentences(analysis.summary)]
    if analysis.insights is not None:
        claims += [(s,) for _, text in _texts(analysis.insights) for s in sentences(text or "")]
    claims += [(r.description, r.consequence, r.mitigation) for r in analysis.risks]
    claims += [(r.text,) for r in analysis.recommendations]
    claims += [(a.area,) for a in analysis.impact]
    checked = [c for c in claims if any(t and t.strip() for t in c)]
    bad = sum(any(t and unsupported(t, ground) for t in claim) for claim in checked)
    return bad, len(checked)
