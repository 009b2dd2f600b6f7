"""A digest's period: a day or a roll-up week, by its first day."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Period:
    """A digest's period: a day ("day", its date) or a roll-up week ("week", its first day)."""

    kind: str
    start: date

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.start.isoformat()}"

    @classmethod
    def day(cls, start: date) -> Period:
        return cls("day", start)

    @classmethod
    def week(cls, first: date) -> Period:
        return cls("week", first)
