"""Roll-up weeks: seven digest days ending at a weekday's cutoff, in the repository's zone.

A week is built from digest days (`bot.days`), so it inherits their daylight-saving rules: a
week holding a change is 167 or 169 hours long, and no hour is lost or counted twice. The
roll-up is posted on the configured weekday at the cutoff, and covers the seven days that end
then: with `cutoff: "00:00"` and `weekday: monday` it is posted at Monday 00:00 and holds
Monday to Sunday; with `cutoff: "09:00"` it is posted Monday 09:00 and holds the days
labelled Tuesday to Monday (last Monday 09:00 to this Monday 09:00).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from bot.days import ONE_DAY, DaySchedule

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WEEK_DAYS = 7


@dataclass(frozen=True)
class Week:
    """Seven consecutive digest days, oldest first, and their UTC window [start, end)."""

    days: tuple[date, ...]
    start: datetime
    end: datetime

    @property
    def first(self) -> date:
        return self.days[0]

    @property
    def last(self) -> date:
        return self.days[-1]

    def __contains__(self, instant: object) -> bool:
        return isinstance(instant, datetime) and self.start <= instant < self.end


@dataclass(frozen=True)
class WeekSchedule:
    """A repository's digest days, and the weekday (0 = Monday) the roll-up is posted on."""

    days: DaySchedule
    weekday: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.weekday < WEEK_DAYS:
            raise ValueError(f"weekday must be 0 (Monday) to 6 (Sunday), not {self.weekday}")

    def posted_on(self, day: date) -> date:
        """The local date on which digest day `day` ends (its cutoff)."""
        return day + ONE_DAY if self.days.cutoff == time(0, 0) else day

    def is_last_day(self, day: date) -> bool:
        return self.posted_on(day).weekday() == self.weekday

    def ending(self, last: date) -> Week:
        """The week whose last digest day is `last` (which must end on the weekday)."""
        if not self.is_last_day(last):
            raise ValueError(f"{last.isoformat()} is not the last day of a roll-up week")
        days = tuple(last - timedelta(days=WEEK_DAYS - 1 - i) for i in range(WEEK_DAYS))
        return Week(days, self.days.window(days[0])[0], self.days.window(last)[1])

    def week_of_day(self, day: date) -> Week:
        """The week that holds digest day `day`."""
        ahead = (self.weekday - self.posted_on(day).weekday()) % WEEK_DAYS
        return self.ending(day + timedelta(days=ahead))

    def week_of(self, instant: datetime) -> Week:
        """The week that holds a (timezone-aware) landing instant."""
        return self.week_of_day(self.days.day_of(instant))

    def previous(self, week: Week) -> Week:
        return self.ending(week.last - timedelta(days=WEEK_DAYS))

    def latest_due(self, now: datetime) -> Week:
        """The newest week whose cutoff has passed at `now`."""
        week = self.week_of(now)
        return week if week.end <= now else self.previous(week)
