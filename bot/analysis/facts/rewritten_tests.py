"""Test lines a commit rewrites in place by one inserted call or argument: a migration."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from bot.analysis.facts.records import RewrittenTests

# an inserted chained call (`.exists()`) or attribute, whole: what the new line adds
_CHAINED = re.compile(r"\.[A-Za-z_]\w*(?:\(.*\))?", re.DOTALL)
# an inserted argument: `, x=1` after the last one, or `x, ` before the first
_ARGUMENT = re.compile(r",\s*\S.*|\S.*,\s*", re.DOTALL)
_NAME_CHAR = re.compile(r"[\w.]")
# a rewrite shown only where several lines show it alike: one line alone may be a test's own
_SEVERAL = 2


@dataclass(frozen=True)
class _Pair:
    old: str
    new: str
    # what the new line inserts, the same for every line rewritten alike
    inserted: str


def rewritten_tests(path: str, before: str, after: str) -> list[RewrittenTests]:
    """The rewrite most lines of a test file share, where lines replaced one for one differ
    only by one inserted chained call (`where('int')` -> `where('int').exists()`) or one
    inserted argument of the same call (`f(a)` -> `f(a, b=1)`), and at least two lines
    share it; the first such line's expressions, with how many more there are."""
    old_lines, new_lines = before.splitlines(), after.splitlines()
    pairs: list[_Pair] = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for old, new in zip(old_lines[i1:i2], new_lines[j1:j2], strict=True):
            if (pair := rewrite(old, new)) is not None:
                pairs.append(pair)
    groups: dict[str, list[_Pair]] = {}
    for pair in pairs:
        groups.setdefault(pair.inserted, []).append(pair)
    best = max(groups.values(), key=len, default=[])
    if len(best) < _SEVERAL:
        return []
    first = best[0]
    return [RewrittenTests(path=path, old=first.old, new=first.new, more=len(best) - 1)]


def rewrite(old: str, new: str) -> _Pair | None:
    """The expression of `old` that `new` extends by one insertion, and what it became; None
    where the lines differ otherwise (a comment or string edited, two places changed)."""
    if old.lstrip().startswith("#") or old.strip() == new.strip():
        return None
    start = len(_common_prefix(old, new))
    end = len(_common_prefix(old[start:][::-1], new[start:][::-1]))
    if start + end != len(old):
        return None  # old text replaced, not only text inserted
    inserted = new[start : len(new) - end]
    if not _balanced(inserted) or "#" in inserted or "\n" in inserted:
        return None
    if _CHAINED.fullmatch(inserted) and old[:start][-1:] in (")", "]"):
        begin = _expression_start(old, start)
        if begin is None:
            return None
        return _Pair(
            old=old[begin:start], new=new[begin : start + len(inserted)], inserted=inserted
        )
    if _ARGUMENT.fullmatch(inserted):
        call = _enclosing_call(old, start)
        if call is None:
            return None
        begin, close = call
        return _Pair(
            old=old[begin : close + 1],
            new=new[begin : close + 1 + len(inserted)],
            inserted=inserted,
        )
    return None


def _common_prefix(a: str, b: str) -> str:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return a[:n]


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0 and text.count("'") % 2 == 0 and text.count('"') % 2 == 0


def _expression_start(line: str, end: int) -> int | None:
    """Where the primary expression ending at `end` (`where('int')`, `Query()['v']`)
    begins: brackets matched backwards, then the dotted name before them."""
    i = end
    while i > 0:
        ch = line[i - 1]
        if ch in ")]":
            opening = _matching_open(line, i - 1)
            if opening is None:
                return None
            i = opening
        elif _NAME_CHAR.match(ch):
            i -= 1
        else:
            break
    head = line[i:end]
    return i if head and _NAME_CHAR.match(head[0]) and not head[0].isdigit() else None


def _matching_open(line: str, close: int) -> int | None:
    depth = 0
    for i in range(close, -1, -1):
        if line[i] in ")]}":
            depth += 1
        elif line[i] in "([{":
            depth -= 1
            if depth == 0:
                return i
    return None


def _enclosing_call(line: str, at: int) -> tuple[int, int] | None:
    """The call whose parentheses hold position `at` of `line`: where its name begins and
    where its closing parenthesis is."""
    depth = 0
    for i in range(at - 1, -1, -1):
        if line[i] in ")]}":
            depth += 1
        elif line[i] in "([{":
            if depth:
                depth -= 1
                continue
            if line[i] != "(":
                return None
            begin = _expression_start(line, i)
            close = _matching_close(line, i)
            if begin is None or close is None:
                return None
            return begin, close
    return None


def _matching_close(line: str, opening: int) -> int | None:
    depth = 0
    for i in range(opening, len(line)):
        if line[i] in "([{":
            depth += 1
        elif line[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return None
