"""A commit is in its day because one query says so: landing instants stored in one form on
both engines, each found in exactly one day and one week by the store's window queries, and
a week of pushes on every cutoff second posted day by day through the webhook and scheduler."""

from __future__ import annotations

import copy
import functools
import itertools
import os
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from aiohttp.test_utils import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import EXECUTOR, STORE
from bot.periods.days import DaySchedule
from bot.periods.weeks import WEEKDAYS, WeekSchedule
from bot.store.digests import Digests
from tests.fakes.github import FakeGitHub
from tests.support import (
    FakeClock,
    assert_one_form_of_instant,
    deliver,
    in_session_zone,
    late_push,
    publish_round,
    replay_pushes,
)

Client = TestClient[Any, Any]
REPO = "vllm-project/llm-compressor"
DAY = "2026-06-22"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))

# Zones with daylight saving (north and south, a half-hour change on Lord Howe), fractional
# offsets without it, and UTC; cutoffs at midnight, in the morning, and at the hours a change
# skips or repeats.
ZONES = [
    "UTC",
    "Europe/Berlin",
    "America/New_York",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "America/St_Johns",
]
CUTOFFS = [time(0, 0), time(9, 0), time(2, 30), time(1, 30), time(23, 59)]
FIRST_DAY = date(2025, 1, 1)
LAST_DAY = date(2027, 12, 31)


@functools.cache
def transitions(zone: str) -> tuple[datetime, ...]:
    """The instants (UTC) at which `zone`'s offset changes, from FIRST_DAY to LAST_DAY: found
    hour by hour, then to the second."""
    tz = ZoneInfo(zone)
    found: list[datetime] = []
    at = datetime.combine(FIRST_DAY, time(), UTC)
    end = datetime.combine(LAST_DAY, time(), UTC)
    while at < end:
        nxt = at + timedelta(hours=1)
        if at.astimezone(tz).utcoffset() != nxt.astimezone(tz).utcoffset():
            low, high = at, nxt
            while high - low > timedelta(seconds=1):
                mid = low + (high - low) / 2
                if mid.astimezone(tz).utcoffset() == low.astimezone(tz).utcoffset():
                    low = mid
                else:
                    high = mid
            found.append(high)
        at = nxt
    return tuple(found)


@st.composite
def landings(draw: st.DrawFn, schedule: DaySchedule) -> float:
    """A push time (Unix seconds, as push payloads carry it): on or next to a cutoff, on or
    next to a daylight-saving change, or anywhere."""
    nudge = draw(st.sampled_from([0, 0, 0, -1, 1, -1800, 1800]))
    kind = draw(st.sampled_from(["cutoff", "cutoff", "change", "anywhere"]))
    changes = transitions(schedule.timezone)
    if kind == "cutoff":
        day = draw(st.dates(FIRST_DAY, LAST_DAY))
        instant = schedule.end_of(day) + timedelta(seconds=nudge)
    elif kind == "change" and changes:
        instant = draw(st.sampled_from(changes)) + timedelta(seconds=nudge)
    else:
        start = datetime.combine(FIRST_DAY, time(), UTC)
        instant = start + timedelta(seconds=draw(st.integers(0, 3 * 365 * 86_400)))
    # Now and then a fraction of a second: payloads may carry one.
    fraction = draw(st.sampled_from([0.0, 0.0, 0.0, 0.25, 0.5]))
    return instant.timestamp() + fraction


_repo_ids = itertools.count(9_000_001)


def push_payload(repo_id: int, sha: str, pushed_at: float) -> dict[str, Any]:
    """A real force push of one commit, moved to repository `repo_id`, landing at `pushed_at`
    (forced, so that the day's count of force pushes finds it too)."""
    payload = copy.deepcopy(replay_pushes(REPO, DAY)[0]["payload"])
    payload["repository"].update(id=repo_id, full_name=f"edges/r{repo_id}", pushed_at=pushed_at)
    payload["commits"] = payload["commits"][:1]
    payload["commits"][0]["id"] = payload["after"] = sha
    payload.update(head_commit=None, forced=True)
    return payload


async def held_by(
    digests: Digests, repo_id: int, start: datetime, end: datetime
) -> tuple[set[str], int, int]:
    """What each of the store's window queries says [start, end) holds: the commits listed,
    the commits waiting for their analysis, the force pushes."""
    listed = {c.sha for c in await digests.window_commits(repo_id, start, end)}
    waiting = await digests.unfinished(repo_id, start, end)
    forced, _ = await digests.pushes_between(repo_id, start, end)
    return listed, waiting, forced


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    # Each example writes its own repository: the database may be shared between them.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
async def test_each_landing_is_in_exactly_one_day_and_one_week(
    client: Client, data: st.DataObject
) -> None:
    await in_session_zone(client.app[STORE].engine)
    schedule = DaySchedule(data.draw(st.sampled_from(ZONES)), data.draw(st.sampled_from(CUTOFFS)))
    weeks = WeekSchedule(schedule, weekday=data.draw(st.integers(0, 6)))
    pushed = data.draw(st.lists(landings(schedule), min_size=1, max_size=4))
    repo_id = next(_repo_ids)
    shas = [f"{repo_id:08x}{i:032x}" for i in range(len(pushed))]
    for sha, pushed_at in zip(shas, pushed, strict=True):
        status, _ = await deliver(client, "push", push_payload(repo_id, sha, pushed_at))
        assert status == 202

    digests = client.app[STORE].digests
    landed_at = {sha: datetime.fromtimestamp(p, UTC) for sha, p in zip(shas, pushed, strict=True)}
    # What the scheduler reads: the same instants that were pushed.
    assert set((await digests.unpublished_landings())[repo_id]) == set(landed_at.values())
    # Windows tile time (tests/test_days.py): only a landing's day and its neighbours could
    # claim it. Each is asked, and each holds exactly the commits whose day it is.
    days = {schedule.day_of(i) + timedelta(days=n) for i in landed_at.values() for n in (-1, 0, 1)}
    for day in sorted(days):
        mine = {sha for sha, i in landed_at.items() if schedule.day_of(i) == day}
        held = await held_by(digests, repo_id, *schedule.window(day))
        assert held == (mine, len(mine), len(mine)), (schedule, day, landed_at)
    theirs = {weeks.week_of(i) for i in landed_at.values()}
    for week in {w for t in theirs for w in (weeks.previous(t), t, weeks.following(t))}:
        mine = {sha for sha, i in landed_at.items() if weeks.week_of(i) == week}
        held = await held_by(digests, repo_id, week.start, week.end)
        assert held == (mine, len(mine), len(mine)), (weeks, week.first, landed_at)


# --- a week of pushes on every cutoff second, through the webhook and the scheduler --------


@pytest.mark.parametrize(
    ("zone", "cutoff", "first"),
    [
        # Spring forward on Sunday 03-29: 02:30 does not exist that day.
        ("Europe/Berlin", "02:30", date(2026, 3, 24)),
        # Fall back on Sunday 11-01: a 25-hour day.
        ("America/New_York", "00:00", date(2026, 10, 27)),
    ],
)
async def test_a_push_on_every_cutoff_second_of_a_week_is_posted_in_its_day(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    zone: str,
    cutoff: str,
    first: date,
) -> None:
    days = DaySchedule(zone, time.fromisoformat(cutoff))
    week_days = [first + timedelta(days=i) for i in range(7)]
    # The roll-up that holds exactly these seven days.
    weekday = next(w for w in range(7) if WeekSchedule(days, w).is_last_day(week_days[-1]))
    repo = github.serve_replay_day(REPO, DAY)
    repo.files[".github/commit-digest.yml"] = (
        f'timezone: {zone}\ncutoff: "{cutoff}"\n'
        f"weekly:\n  enabled: true\n  weekday: {WEEKDAYS[weekday]}\n"
    )
    # Each commit lands on the very second its day begins, the second the day before ends and
    # is posted; the last one begins the next week.
    cutoffs = [days.window(d)[0] for d in week_days] + [days.end_of(week_days[-1])]
    titles = [f"Land on cutoff {chr(ord('A') + i)}" for i in range(len(cutoffs))]
    clock.current = cutoffs[0] - timedelta(hours=1)
    client = await app_client()
    for i, (at, title) in enumerate(zip(cutoffs, titles, strict=True)):
        clock.current = at
        push = late_push(repo.commits, REPO, DAY, f"{i + 1:040x}", title)
        push["repository"]["pushed_at"] = int(at.timestamp())
        status, _ = await deliver(client, "push", push)
        assert status == 202
        await client.app[EXECUTOR].drain()
        # The scheduler's round on the cutoff second: the day that ends now is posted.
        await publish_round(client)
    clock.current = cutoffs[-1] + timedelta(minutes=11)  # the roll-up waits GRACE_MINUTES
    await publish_round(client)

    posted = {
        found.group(1): d["body"]
        for d in repo.discussions
        if (
            found := re.search(
                rf"commit-digest:{re.escape(REPO)}:(\d{{4}}-\d\d-\d\d):part-1", d["body"]
            )
        )
    }
    assert sorted(posted) == [d.isoformat() for d in week_days]
    for day, title in zip(week_days, titles, strict=False):
        body = posted[day.isoformat()]
        assert [t for t in titles if t in body] == [title], day
    (roll_up,) = [d for d in repo.discussions if ":week-" in d["body"]]
    # The week holds its seven, not the one that begins the next week.
    assert "**7 commits**" in roll_up["body"], roll_up["body"][:600]
    await assert_one_form_of_instant(client.app[STORE].engine)
