"""Facts the author states in the title, message and PR text: numbers, and the issues fixed."""

from __future__ import annotations

import re

from bot.analysis.facts.records import NumberKind, StatedNumber
from bot.analysis.messages import fences, without_comments

_FIXES = re.compile(
    r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s+"
    r"(?:[\w.-]+/[\w.-]+#|#|https?://github\.com/[\w.-]+/[\w.-]+/issues/)(\d{1,7})\b",
    re.IGNORECASE,
)
# "2.3x faster", "1.5× speedup"
_SPEEDUP = re.compile(
    r"(\d+(?:\.\d+)?\s?(?:x|×)\s?(?:faster|speed-?ups?|higher|improvement|throughput|better"
    r"|less memory|smaller|lower latency))",
    re.IGNORECASE,
)
# "15% faster", "throughput +12%", "TPOT -12.5%"
_CHANGE = re.compile(
    r"(\d+(?:\.\d+)?\s?%\s?(?:faster|speed-?ups?|improvement|higher|lower|reduction|less|gains?"
    r"|better|increase|decrease|drop|more|fewer)"
    r"|(?:throughput|latency|ttft|tpot|itl|tps|qps|e2e time|memory)\W{0,3}(?:\w+\W{1,3}){0,4}?"
    r"[+-]?\d+(?:\.\d+)?\s?%)",
    re.IGNORECASE,
)
# "94 % of requests", "all users"
_REACH = re.compile(
    r"\b(\d{1,3}(?:\.\d+)?\s?%\s+of\s+(?:all\s+)?(?:the\s+)?[a-z][\w-]*"
    r"|(?:all|every)\s+(?:requests?|users?|models?|deployments?|inputs?|batch(?:es)?))\b",
    re.IGNORECASE,
)


def prose_lines(*texts: str) -> list[str]:
    """The lines of these texts that are prose: not code blocks, tables or HTML comments."""
    out: list[str] = []
    for text in texts:
        in_code = False
        for line in without_comments(text).replace("\r\n", "\n").split("\n"):
            if fences(line):
                in_code = not in_code
                continue
            stripped = line.strip()
            if in_code or not stripped or stripped.startswith(("|", ">")):
                continue
            out.append(stripped)
    return out


def stated_numbers(lines: list[str], *, limit: int = 4) -> tuple[StatedNumber, ...]:
    """Speed-ups, measured changes and reach the author writes, as written, at most `limit`."""
    found: dict[str, StatedNumber] = {}
    for line in lines:
        lower = line.lower()
        percent = "%" in line
        for pattern, kind, wanted in (
            (_SPEEDUP, NumberKind.SPEEDUP, "x" in lower or "×" in line),
            (_CHANGE, NumberKind.CHANGE, percent),
            (_REACH, NumberKind.REACH, percent or "all " in lower or "every " in lower),
        ):
            if not wanted:
                continue
            for m in pattern.finditer(line):
                text = " ".join(m.group(1).split())
                found.setdefault(text.lower(), StatedNumber(text, kind))
        if len(found) >= limit:
            break
    return tuple(found.values())[:limit]


def fixed_issues(*texts: str) -> tuple[int, ...]:
    """Issue numbers after "Fixes", "Closes" or "Resolves", in order, once each."""
    return tuple(dict.fromkeys(int(n) for text in texts for n in _FIXES.findall(text)))
