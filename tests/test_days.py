"""Digest days: boundaries across time zones, cutoffs and daylight-saving changes."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from bot.periods.days import DaySchedule


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("zone", "cutoff", "instant", "day"),
    [
        # The example of the issue: cutoff 00:00 in Shanghai, the day is Shanghai's calendar day.
        ("Asia/Shanghai", time(0, 0), utc(2026, 1, 21, 16, 0), date(2026, 1, 22)),
        ("Asia/Shanghai", time(0, 0), utc(2026, 1, 22, 15, 59, 59), date(2026, 1, 22)),
        ("Asia/Shanghai", time(0, 0), utc(2026, 1, 22, 16, 0), date(2026, 1, 23)),
        ("UTC", time(0, 0), utc(2026, 7, 10, 23, 59), date(2026, 7, 10)),
        # A 09:00 cutoff: the digest of D covers D-1 09:00 to D 09:00 (posted on D).
        ("UTC", time(9, 0), utc(2026, 7, 10, 8, 59), date(2026, 7, 10)),
        ("UTC", time(9, 0), utc(2026, 7, 10, 9, 0), date(2026, 7, 11)),
        ("America/Los_Angeles", time(18, 0), utc(2026, 7, 11, 0, 59), date(2026, 7, 10)),
        ("America/Los_Angeles", time(18, 0), utc(2026, 7, 11, 1, 0), date(2026, 7, 11)),
    ],
)
def test_day_of(zone: str, cutoff: time, instant: datetime, day: date) -> None:
    schedule = DaySchedule(zone, cutoff)
    assert schedule.day_of(instant) == day
    start, end = schedule.window(day)
    assert start <= instant < end


def test_shanghai_day_is_24_hours_ending_at_midnight() -> None:
    start, end = DaySchedule("Asia/Shanghai").window(date(2026, 1, 22))
    assert (start, end) == (utc(2026, 1, 21, 16), utc(2026, 1, 22, 16))


@pytest.mark.parametrize(
    ("zone", "day", "hours"),
    [
        ("America/New_York", date(2026, 3, 8), 23),  # spring forward
        ("America/New_York", date(2026, 11, 1), 25),  # fall back
        ("Europe/Berlin", date(2026, 3, 29), 23),
        ("Europe/Berlin", date(2026, 10, 25), 25),
        ("Asia/Shanghai", date(2026, 3, 8), 24),
    ],
)
def test_daylight_saving_days_are_23_or_25_hours(zone: str, day: date, hours: int) -> None:
    start, end = DaySchedule(zone).window(day)
    assert end - start == timedelta(hours=hours)


@pytest.mark.parametrize("cutoff", [time(0, 0), time(2, 30), time(1, 30), time(9, 0)])
@pytest.mark.parametrize("zone", ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe"])
def test_no_hour_is_lost_or_counted_twice(zone: str, cutoff: time) -> None:
    """Consecutive windows tile time exactly, through both changes of the year, even with a
    cutoff that does not exist (02:30 on spring-forward day) or exists twice (01:30 in autumn)."""
    schedule = DaySchedule(zone, cutoff)
    day = date(2026, 1, 1)
    previous_end = schedule.window(day)[0]
    while day < date(2027, 1, 1):
        start, end = schedule.window(day)
        assert start == previous_end
        assert timedelta(hours=22) <= end - start <= timedelta(hours=26)
        # Every instant of the window belongs to this day, and only this day.
        for probe in (start, start + (end - start) / 2, end - timedelta(seconds=1)):
            assert schedule.day_of(probe) == day
        previous_end = end
        day += timedelta(days=1)
