"""The per-repository file `.github/commit-digest.yml` as a pydantic model, with clear errors."""

from __future__ import annotations

from datetime import time

CONFIG_PATH = ".github/commit-digest.yml"


def parse_cutoff(value: str) -> time:
    """`HH:MM` (24-hour clock) to a time."""
    hours, _, minutes = value.partition(":")
    if not (hours.isdigit() and minutes.isdigit() and len(minutes) == 2 and len(hours) <= 2):
        raise ValueError(f"cutoff must be HH:MM on a 24-hour clock, not {value!r}")
    return time(int(hours), int(minutes))
