"""A changed file read whole at both revisions: the two symbol tables, and what differs."""

from __future__ import annotations

import re

from bot.analysis.facts.cfile import keep_named
from bot.analysis.facts.pyedit import python_sides
from bot.analysis.facts.pyfile import Warned
from bot.analysis.facts.python import _replacement, cut_message
from bot.analysis.facts.scan import FileReading, Side
from bot.analysis.facts.trees import side_reader
from bot.analysis.paths import Language


def read_whole(
    path: str,
    before: str,
    after: str,
    reading: FileReading,
    *,
    language: Language,
    package: str | None,
    tests: bool,
    user_facing: bool,
) -> bool:
    """Fill `reading` from the file's text at the parent (`before`, '' when added) and at
    the commit (`after`, '' when removed); False when either side does not parse, and the
    patch must be read instead."""
    warned: list[list[Warned]] = [[], []]
    if language is Language.PYTHON:
        # one whole parse: what the edit leaves alone is read once (`pyedit.py`)
        sides = python_sides(before, after, package=package, tests=tests)
        if sides is None:
            return False
        (reading.minus, warned[0]), (reading.plus, warned[1]) = sides
    elif not (
        (read := side_reader(language, path, tests=tests))(before, reading.minus)
        and read(after, reading.plus)
    ):
        _clear(reading)
        return False
    elif language is Language.C:
        # the other tree-sitter readers refuse a side with a syntax error instead
        keep_named(before, after, reading.minus, reading.plus)
    if not user_facing:
        # what the package's users meet (settings, warnings, registrations) is read only in
        # code it ships; a test's `os.environ["X"]` is not a setting
        for side in (reading.plus, reading.minus):
            side.env.clear()
            side.flags.clear()
            side.flag_help.clear()
            side.registrations.clear()
            side.fields.clear()
            side.constants.clear()
            side.tables.clear()
            side.params.clear()
        return True
    reading.deprecations.extend(
        (cut_message(message), _replacement(message)) for message in added_warnings(*warned)
    )
    return True


_DEPRECATES = re.compile(r"deprecat|will be removed|no longer supported", re.IGNORECASE)


def added_warnings(before: list[Warned], after: list[Warned]) -> list[str]:
    """The deprecation messages the commit's code raises that its parent's did not, less
    those only reworded: where the parent's same definition warned through the same call
    and category with words the commit no longer has, the warning is not new."""
    old = {w.message for w in before}
    new = {w.message for w in after}
    # where the parent warned of a deprecation with words the commit dropped (a warning
    # that told of no deprecation, "… was never intentionally public", now "… is deprecated
    # and will be removed in 9.0", announces one: click 051725f)
    reworded = {w.where for w in before if w.message not in new and _DEPRECATES.search(w.message)}
    return list(
        dict.fromkeys(
            message for message, where in after if message not in old and where not in reworded
        )
    )


def _clear(reading: FileReading) -> None:
    reading.plus, reading.minus = Side(), Side()
