"""Checks of the values given on the command line, each refused with a line that names its flag."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from bot.settings import MissingSetting

# Days the date arithmetic of a zone's day can hold, with margin for any offset.
_FIRST_DAY, _LAST_DAY = date(1900, 1, 1), date(9998, 12, 31)


def day_value(value: str | None, *, flag: str = "--day") -> date | None:
    if value is None:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise MissingSetting(f"{flag} must be YYYY-MM-DD, not {value!r}") from None
    if not _FIRST_DAY <= day <= _LAST_DAY:
        raise MissingSetting(f"{flag} must be between {_FIRST_DAY} and {_LAST_DAY}, not {value}")
    return day


def writable(out: str | None) -> Path | None:
    """Check `--out` before any work is done: its folder exists and it is not a folder."""
    if out is None:
        return None
    path = Path(out)
    if path.is_dir():
        raise MissingSetting(f"--out {out} is a directory; give a file name inside it")
    if not path.parent.is_dir():
        raise MissingSetting(f"--out {out}: the directory {path.parent} does not exist")
    return path
