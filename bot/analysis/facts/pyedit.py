"""A Python file's two sides read with one whole parse: the statements an edit leaves alone
are read once, at the parent, and only the lines between them are parsed at the commit."""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Callable
from difflib import SequenceMatcher

from bot.analysis.facts.kept import keep_units, kept_units
from bot.analysis.facts.modules import module_tree
from bot.analysis.facts.pyfile import PARSE_ERRORS, Unit, Warned, read_units, table, units
from bot.analysis.facts.scan import Side

# Line breaks `str.splitlines` honours and Python's tokenizer does not (form feed, U+2028…):
# in a text holding one, line numbers of the two disagree, so each side is parsed whole.
_ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

Reading = tuple[Side, list[Warned]]


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
    between them read alone; None when a stretch does not parse alone (it may open a
    bracket or a string that later lines close, or indent a line into the unit above)."""
    was, now = before.splitlines(keepends=True), after.splitlines(keepends=True)
    same = [
        (i1, i2, j1)
        for tag, i1, i2, j1, _ in SequenceMatcher(None, was, now, autojunk=False).get_opcodes()
        if tag == "equal"
    ]
    read = after.splitlines()  # the lines `units` reads, without their ends
    stretch = _stretches(after, now)
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
        between = stretch(at, start)
        if between is None:
            return None
        out += units(between, read, package=package, tests=tests)
        out.append(_shifted(unit, start - unit.start))
        at = start + end - unit.start
    rest = stretch(at, len(now) + 1)
    return None if rest is None else out + units(rest, read, package=package, tests=tests)


Stretch = Callable[[int, int], list[ast.stmt] | None]


def _stretches(after: str, lines: list[str]) -> Stretch:
    """What gives the statements of the commit's lines `first`..`stop - 1` as parsing them
    alone does, None when they do not parse alone. The other readers of the commit parse its
    text whole (`module_tree`, once a period): its top-level statements there, where none
    crosses the stretch's edges, are those the stretch's lines parse to alone, line for
    line, and no parse is spent on them (a stretch is a third of a day's changed lines, a
    large class or function edited within; parsed alone, a sixth of a round). A statement
    across an edge (an indented line joining the unit above, a bracket left open) is one
    the stretch's lines do not parse to alone: None, as their parse alone gives. A text
    that does not parse whole has its stretches parsed alone."""
    try:
        body = module_tree(after).body
    except PARSE_ERRORS:
        return lambda first, stop: _parsed(lines, first, stop)
    starts = [_first_line(node) for node in body]
    ends = [node.end_lineno or node.lineno for node in body]

    def whole(first: int, stop: int) -> list[ast.stmt] | None:
        if first >= stop:
            return []
        low, high = bisect.bisect_left(starts, first), bisect.bisect_left(starts, stop)
        # the statement started last before each edge ends before it (a top-level
        # statement ends before the next one starts, or on its line)
        if (low and ends[low - 1] >= first) or (high and ends[high - 1] >= stop):
            return None
        return body[low:high]

    return whole


def _parsed(lines: list[str], first: int, stop: int) -> list[ast.stmt] | None:
    """The statements of lines `first`..`stop - 1` parsed alone; None when they do not
    parse."""
    if first >= stop:
        return []
    try:
        # blank lines ahead put the statements on their lines (`ast.increment_lineno` would
        # walk every node)
        tree = ast.parse("\n" * (first - 1) + "".join(lines[first - 1 : stop - 1]))
    except PARSE_ERRORS:
        return None
    return tree.body


def _first_line(node: ast.stmt) -> int:
    """A statement's first line, its decorators' included."""
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    # (most statements have none: no list built for them)
    return min([node.lineno, *(d.lineno for d in decorators)]) if decorators else node.lineno


def _shifted(unit: Unit, by: int) -> Unit:
    return Unit(
        unit.start + by, unit.end + by, unit.table, unit.deprecations, unit.env_read, unit.by + by
    )
