"""Checks of the values given on the command line, each refused with a line that names its flag."""

from __future__ import annotations

import calendar
import re
from datetime import date
from pathlib import Path

from bot.settings import MissingSetting

# Days the date arithmetic of a zone's day can hold, with margin for any offset.
_FIRST_DAY, _LAST_DAY = date(1900, 1, 1), date(9998, 12, 31)
_SPELT = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def day_value(value: str | None, *, flag: str = "--day") -> date | None:
    if value is None:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise MissingSetting(_not_a_day(value, flag)) from None
    if not _FIRST_DAY <= day <= _LAST_DAY:
        raise MissingSetting(f"{flag} must be between {_FIRST_DAY} and {_LAST_DAY}, not {value}")
    return day


def _not_a_day(value: str, flag: str) -> str:
    """Why `value` is not a day: not spelt YYYY-MM-DD, or spelt so but not on the calendar."""
    match = _SPELT.fullmatch(value)
    if match is None:
        return f"{flag} must be YYYY-MM-DD, not {value!r}"
    year, month, day = (int(part) for part in match.groups())
    if not 1 <= month <= 12:
        return f"{flag} {value} is not a date: there is no month {month}"
    days = calendar.monthrange(year, month)[1] if year >= 1 else 31
    if not 1 <= day <= days:
        name = f"{calendar.month_name[month]} {year}"
        return f"{flag} {value} is not a date: {name} has {days} days"
    return f"{flag} {value} is not a date"


def writable(out: str | None) -> Path | None:
    """Check `--out` before any work is done: its folder exists and it is not a folder.
    None: standard output (no `--out`, or `--out -` as Unix tools spell it)."""
    if out is None or out == "-":
        return None
    path = Path(out)
    if path.is_dir():
        raise MissingSetting(f"--out {out} is a directory; give a file name inside it")
    if not path.parent.is_dir():
        raise MissingSetting(f"--out {out}: the directory {path.parent} does not exist")
    return path
