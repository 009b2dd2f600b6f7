"""A Python file's two sides read with one whole parse: the statements an edit leaves alone
are read once, at the parent, and only the lines between them are parsed at the commit."""

from __future__ import annotations

import ast
import bisect
import re
from difflib import SequenceMatcher

from bot.analysis.facts.kept import keep_units, kept_units
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
    old = _whole(before, package=package, tests=tests, parent=True)
    if old is None:
        return None
    new = kept_units((after, package, tests))
    if new is None and not (_ODD_BREAKS.search(before) or _ODD_BREAKS.search(after)):
        new = _splice(old, before, after, package=package, tests=tests)
        if new is not None:
            # the commit's text is the next commit's parent: kept, it is not parsed again
            keep_units((after, package, tests), new)
    if new is None:
        new = _whole(after, package=package, tests=tests, parent=False)
    return None if new is None else (table(old), table(new))


def _whole(text: str, *, package: str | None, tests: bool, parent: bool) -> list[Unit] | None:
    """`read_units` of the text, or what it gave for the same text earlier in the period; a
    parent's text is let go once read (its commit's text is kept, for the next commit)."""
    found = kept_units((text, package, tests), last=parent)
    if found is None:
        found = read_units(text, package=package, tests=tests)
        if found is not None and not parent:
            keep_units((text, package, tests), found)
    return found


def _splice(
    old: list[Unit], before: str, after: str, *, package: str | None, tests: bool
) -> list[Unit] | None:
    """The commit's units: the parent's where the edit left their lines alone, the lines
    between them parsed alone; None when a stretch does not parse alone (it may open a
    bracket or a string that later lines close, or indent a line into the unit above)."""
    was, now = before.splitlines(keepends=True), after.splitlines(keepends=True)
    same = [
        (i1, i2, j1)
        for tag, i1, i2, j1, _ in SequenceMatcher(None, was, now, autojunk=False).get_opcodes()
        if tag == "equal"
    ]
    read = after.splitlines()  # the lines `units` reads, without their ends
    out: list[Unit] = []
    at = 1  # the commit's first line not yet read
    for index, unit in enumerate(old):
        # A unit with the lines after it up to the next unit's start (its comments): the
        # tokenizer's state there, a new statement at column 0, depended only on them.
        end = old[index + 1].start if index + 1 < len(old) else len(was) + 1
        found = bisect.bisect_right(same, (unit.start - 1, len(was) + 1, 0)) - 1
        if found < 0 or same[found][1] < end - 1:
            continue
        i1, _, j1 = same[found]
        start = unit.start - 1 - i1 + j1 + 1
        if start < at:
            continue
        between = _parsed(now, at, start, read, package=package, tests=tests)
        if between is None:
            return None
        out += between
        out.append(_shifted(unit, start - unit.start))
        at = start + end - unit.start
    rest = _parsed(now, at, len(now) + 1, read, package=package, tests=tests)
    return None if rest is None else out + rest


def _parsed(
    lines: list[str], first: int, stop: int, read: list[str], *, package: str | None, tests: bool
) -> list[Unit] | None:
    """The units of lines `first`..`stop - 1` parsed alone; None when they do not parse."""
    if first >= stop:
        return []
    try:
        # blank lines ahead put the statements on their lines (`ast.increment_lineno` would
        # walk every node)
        tree = ast.parse("\n" * (first - 1) + "".join(lines[first - 1 : stop - 1]))
    except PARSE_ERRORS:
        return None
    return units(tree.body, read, package=package, tests=tests)


def _shifted(unit: Unit, by: int) -> Unit:
    return Unit(
        unit.start + by, unit.end + by, unit.table, unit.deprecations, unit.env_read, unit.by + by
    )
