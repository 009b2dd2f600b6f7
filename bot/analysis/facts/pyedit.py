"""A Python file's two sides read with one whole parse: the statements an edit leaves alone
are read once, at the parent, and only the edited span is parsed again at the commit."""

from __future__ import annotations

import ast
import re

from bot.analysis.facts.pyfile import PARSE_ERRORS, Unit, read_units, table, units
from bot.analysis.facts.scan import Side

# Line breaks `str.splitlines` honours and Python's tokenizer does not (form feed, U+2028…):
# in a text holding one, line numbers of the two disagree, so each side is parsed whole.
_ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

Reading = tuple[Side, list[str]]


def python_sides(
    before: str, after: str, *, package: str | None, tests: bool
) -> tuple[Reading, Reading] | None:
    """Each side's table and the deprecation messages its code raises, as parsing each text
    whole gives them; None when either side does not parse."""
    old = read_units(before, package=package, tests=tests)
    if old is None:
        return None
    if not (_ODD_BREAKS.search(before) or _ODD_BREAKS.search(after)):
        spliced = _splice(old, before, after, package=package, tests=tests)
        if spliced is not None:
            return table(old), table(spliced)
    new = read_units(after, package=package, tests=tests)
    return None if new is None else (table(old), table(new))


def _splice(
    old: list[Unit], before: str, after: str, *, package: str | None, tests: bool
) -> list[Unit] | None:
    """The commit's units: the parent's outside the edited span (the lines the two texts
    share at their start and end), the span parsed alone; None when the span does not parse
    alone (it may open a bracket or a string that shared lines close)."""
    was, now = before.splitlines(keepends=True), after.splitlines(keepends=True)
    shortest = min(len(was), len(now))
    same_start = 0
    while same_start < shortest and was[same_start] == now[same_start]:
        same_start += 1
    same_end = 0
    while (
        same_end < shortest - same_start
        and was[len(was) - 1 - same_end] == now[len(now) - 1 - same_end]
    ):
        same_end += 1
    # A unit is the commit's too when the next one starts on a shared line: the tokenizer's
    # state there, a new statement at column 0, depends only on the text before it.
    head = 0
    while head + 1 < len(old) and old[head + 1].start <= same_start:
        head += 1
    first = old[head].start if head else 1
    # A unit starting in the shared end is the commit's too once the span before it parses
    # alone: the span then ends with a complete statement, as the parent's did there.
    tail = head + 1
    while tail < len(old) and old[tail].start < len(was) - same_end + 1:
        tail += 1
    shift = len(now) - len(was)
    stop = old[tail].start + shift if tail < len(old) else len(now) + 1
    span = "".join(now[first - 1 : stop - 1])
    try:
        tree = ast.parse(span)
    except PARSE_ERRORS:
        return None
    ast.increment_lineno(tree, first - 1)
    middle = units(tree.body, after.splitlines(), package=package, tests=tests)
    moved = [_shifted(u, shift) for u in old[tail:]]
    return [*old[:head], *middle, *moved]


def _shifted(unit: Unit, by: int) -> Unit:
    return Unit(unit.start + by, unit.end + by, unit.table, unit.deprecations, unit.env_read)
