"""Digest days: which day a landing instant belongs to, and each day's window, per repository zone.

The digest labelled D is the 24 hours (23 or 25 across a daylight-saving change) that end at
the repository's cutoff on D, where a cutoff of 00:00 means the end of D (24:00). So with
`cutoff: "00:00"` day D is D 00:00 to D+1 00:00, and with `cutoff: "09:00"` it is
D-1 09:00 to D 09:00: a digest is labelled with the date on which it is posted, midnight
counting as the end of the day before.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cached_property
from zoneinfo import ZoneInfo

ONE_DAY = timedelta(days=1)


@dataclass(frozen=True)
class DaySchedule:
    """A repository's time zone and cutoff."""

    timezone: str = "UTC"
    cutoff: time = time(0, 0)

    @cached_property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @functools.lru_cache(maxsize=64)  # noqa: B019 - schedules are few and live as long as the app
    def window(self, day: date) -> tuple[datetime, datetime]:
        """The UTC instants [start, end) of digest day `day`."""
        end_date = day + ONE_DAY if self.cutoff == time(0, 0) else day
        return self._at_cutoff(end_date - ONE_DAY), self._at_cutoff(end_date)

    def end_of(self, day: date) -> datetime:
        return self.window(day)[1]

    def day_of(self, instant: datetime) -> date:
        """The digest day an instant (timezone-aware) belongs to."""
        local = instant.astimezone(self.zone).date()
        for candidate in (local - ONE_DAY, local, local + ONE_DAY):
            start, end = self.window(candidate)
            if start <= instant < end:
                return candidate
        raise AssertionError(f"no digest day holds {instant.isoformat()}")

    def _at_cutoff(self, on: date) -> datetime:
        # A cutoff that does not exist on a spring-forward day (02:30) resolves with fold=0,
        # the offset before the change; the same instant ends one day and starts the next,
        # so no hour is lost or counted twice.
        return datetime.combine(on, self.cutoff, tzinfo=self.zone).astimezone(UTC)
