"""Python files' parsed units kept by text for the length of one period's analysis."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from cachetools import LRUCache

from bot.analysis.facts.pyfile import Unit

# A day's commits edit the same files in turn, and a commit's text of a file is its next
# commit's parent text: kept, each revision of a file is parsed once a period, not twice.
# Files read whole at once are few (`sources.MAX_SOURCE_FILES` a commit).
_KEPT_TEXTS = 256

Key = tuple[str, str | None, bool]
_UNITS: ContextVar[LRUCache[Key, list[Unit]] | None] = ContextVar("kept_units", default=None)


@contextmanager
def units_kept() -> Iterator[None]:
    """Within the block, a text's units are read once (outside it, every time): a context
    variable, so each period's analysis, and each round of a benchmark, starts empty."""
    token = _UNITS.set(LRUCache(maxsize=_KEPT_TEXTS))
    try:
        yield
    finally:
        _UNITS.reset(token)


def kept_units(key: Key) -> list[Unit] | None:
    """The units read for `(text, package, tests)` within the current block, if any."""
    held = _UNITS.get()
    return None if held is None else held.get(key)


def keep_units(key: Key, found: list[Unit]) -> None:
    """Remember the units of `(text, package, tests)` until the current block ends; units are
    read only, never changed, so one list serves every commit that meets the text."""
    held = _UNITS.get()
    if held is not None:
        held[key] = found
