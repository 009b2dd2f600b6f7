"""Python files' parsed units kept by text for the length of one period's analysis, and the
last commit's facts (the day's names read them again right after its analysis)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from cachetools import LRUCache

from bot.analysis.credentials import redactions_kept
from bot.analysis.facts.modules import trees_kept
from bot.analysis.facts.pyfile import Unit
from bot.analysis.facts.records import Facts
from bot.models import CommitInput

# A day's commits edit the same files in turn, and a commit's text of a file is its next
# commit's parent text: kept, most revisions of a file are parsed once a period, not twice.
# A text's units hold its functions' parsed nodes: on this repository's busiest day (469
# sides read whole) 64 texts kept saved 230 whole parses of 278 for 30 MiB more at the peak.
_KEPT_TEXTS = 64

Key = tuple[str, str | None, bool]
_UNITS: ContextVar[LRUCache[Key, list[Unit]] | None] = ContextVar("kept_units", default=None)
_FACTS: ContextVar[list[tuple[CommitInput, Facts]] | None] = ContextVar("kept_facts", default=None)


@contextmanager
def units_kept() -> Iterator[None]:
    """Within the block, a text's units are read once (outside it, every time), and its
    credentials looked for once (`credentials.redactions_kept`), and a module's text parsed
    once (`modules.trees_kept`): a context variable, so each period's analysis, and each
    round of a benchmark, starts empty."""
    token = _UNITS.set(LRUCache(maxsize=_KEPT_TEXTS))
    last = _FACTS.set([])
    try:
        with redactions_kept(), trees_kept():
            yield
    finally:
        _FACTS.reset(last)
        _UNITS.reset(token)


def kept_units(key: Key, *, last: bool = False) -> list[Unit] | None:
    """The units read for `(text, package, tests)` within the current block, if any; `last`
    when this is the text's last use that matters (a parent's text: its commit is read)."""
    held = _UNITS.get()
    if held is None:
        return None
    return held.pop(key, None) if last else held.get(key)


def keep_units(key: Key, found: list[Unit]) -> None:
    """Remember the units of `(text, package, tests)` until the current block ends; units are
    read only, never changed, so one list serves every commit that meets the text."""
    held = _UNITS.get()
    if held is not None:
        held[key] = found


def keep_facts(commit: CommitInput, facts: Facts) -> None:
    """Remember the commit last read and its facts, until the next one or the block's end."""
    held = _FACTS.get()
    if held is not None:
        held[:] = [(commit, facts)]


def last_read(sha: str) -> tuple[CommitInput, Facts] | None:
    """The commit of this sha whose facts were last read within the current block, as it was
    read (shielded, a merge with the message it lands), and its facts; None if another was."""
    held = _FACTS.get()
    return held[0] if held and held[0][0].sha == sha else None
