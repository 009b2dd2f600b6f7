"""Roll-up weeks: seven digest days ending at a weekday's cutoff, in the repository's zone.

A week is built from digest days (`bot.periods.days`), so it inherits their daylight-saving rules: a
week holding a change is 167 or 169 hours long, and no hour is lost or counted twice. The
roll-up is posted on the configured weekday at the weekly cutoff (by default the daily one),
and covers the seven digest days that have ended by then: with `cutoff: "00:00"` and
`weekday: monday` it is posted at Monday 00:00 and holds Monday to Sunday; with `cutoff:
"09:00"` (daily and weekly) it is posted Monday 09:00 and holds the days labelled Tuesday to
Monday (last Monday 09:00 to this Monday 09:00); with a weekly cutoff of 09:00 over days that
end at 00:00 it is posted Monday 09:00 and holds Monday to Sunday. A week is always whole
digest days, so its counts are the sum of theirs and each of them can be linked.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from bot.periods.days import ONE_DAY, DaySchedule

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WEEK_DAYS = 7


@dataclass(frozen=True)
class Week:
    """Seven consecutive digest days, oldest first, their UTC window [start, end), and when
    the roll-up is due (the weekly cutoff: `end`, or after it)."""

    days: tuple[date, ...]
    start: datetime
    end: datetime
    due: datetime

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
    """A repository's digest days, the weekday (0 = Monday) the roll-up is posted on, and the
    time it is posted at (None: the days' cutoff)."""

    days: DaySchedule
    weekday: int = 0
    cutoff: time | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.weekday < WEEK_DAYS:
            raise ValueError(f"weekday must be 0 (Monday) to 6 (Sunday), not {self.weekday}")

    def _post_at(self, on: date) -> datetime:
        """The weekly cutoff on local date `on`, in UTC."""
        cutoff = self.days.cutoff if self.cutoff is None else self.cutoff
        # A time that does not exist that day resolves as the days' own cutoffs do (fold=0).
        return datetime.combine(on, cutoff, tzinfo=self.days.zone).astimezone(UTC)

    def _due(self, last: date) -> datetime | None:
        """When the week whose last digest day is `last` is posted; None if no week ends
        with it. The weekly cutoff falls in the digest day after the last one, on its
        local date or the one before."""
        for on in (last, last + ONE_DAY):
            if on.weekday() == self.weekday:
                at = self._post_at(on)
                if self.days.day_of(at) == last + ONE_DAY:
                    return at
        return None

    def is_last_day(self, day: date) -> bool:
        return self._due(day) is not None

    def ending(self, last: date) -> Week:
        """The week whose last digest day is `last` (which must end on the weekday)."""
        due = self._due(last)
        if due is None:
            raise ValueError(f"{last.isoformat()} is not the last day of a roll-up week")
        days = tuple(last - timedelta(days=WEEK_DAYS - 1 - i) for i in range(WEEK_DAYS))
        return Week(days, self.days.window(days[0])[0], self.days.window(last)[1], due)

    def week_of_day(self, day: date) -> Week:
        """The week that holds digest day `day`."""
        ahead = (day + timedelta(days=i) for i in range(WEEK_DAYS))
        return self.ending(next(d for d in ahead if self.is_last_day(d)))

    def week_of(self, instant: datetime) -> Week:
        """The week that holds a (timezone-aware) landing instant."""
        return self.week_of_day(self.days.day_of(instant))

    def previous(self, week: Week) -> Week:
        return self.ending(week.last - timedelta(days=WEEK_DAYS))

    def following(self, week: Week) -> Week:
        return self.ending(week.last + timedelta(days=WEEK_DAYS))

    def latest_due(self, now: datetime) -> Week:
        """The newest week whose weekly cutoff has passed at `now`."""
        week = self.week_of(now)
        while week.due > now:
            week = self.previous(week)
        return week
