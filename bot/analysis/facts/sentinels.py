"""A sentinel renamed or replaced: a default that names the module's "unset" object, whose
old name the commit unbinds as it binds a new one to a fresh object, changes no call."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.analysis.facts.scan import FileReading


def _bound(sign: str, name: str) -> re.Pattern[str]:
    """A patch line (`sign`: `+` added, `-` removed) binding `name` at module level (`NAME =
    ...`, `NAME: Final = ...`)."""
    return re.compile(rf"^{re.escape(sign)}{re.escape(name)}\s*(?::[^=\n]+)?=(?!=)", re.MULTILINE)


def _fresh(sign: str, name: str) -> re.Pattern[str]:
    """A patch line binding `name` at module level to a new object made with no arguments
    (`object()`, `_NoValue()`): an identity only `is` compares with, whatever its class."""
    return re.compile(
        rf"^{re.escape(sign)}{re.escape(name)}\s*(?::[^=\n]+)?=\s*[A-Za-z_][\w.]*\(\)\s*(?:#.*)?$",
        re.MULTILINE,
    )


def sentinel_renamed(was: str, now: str, readings: Iterable[FileReading]) -> bool:
    """Whether the default `was` became `now` only as the sentinel's new name: the commit
    removes a line binding `was` to a fresh object and binds it nowhere again, and adds one
    binding `now` to a fresh object where no removed line bound it (the defaults, compared
    with `is`, still mean "not given")."""
    was, now = was.rpartition(".")[2], now.rpartition(".")[2]
    if not (was.isidentifier() and now.isidentifier()) or was == now:
        return False
    patches = [r.patch for r in readings if r.path.endswith((".py", ".pyi")) and r.patch]
    return (
        any(_fresh("-", was).search(p) for p in patches)
        and any(_fresh("+", now).search(p) for p in patches)
        and not any(_bound("+", was).search(p) or _bound("-", now).search(p) for p in patches)
    )
