"""The weekly roll-up: weeks across time zones and DST, counts that add up, the post, the
narrative prompt and its parser, and the one LLM call a week."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import openai
import pytest

from bot.analysis.cost import Prices
from bot.analysis.diff import estimate_tokens
from bot.analysis.narrative import (
    NARRATIVE_MAX,
    NARRATIVE_OUTPUT_TOKENS,
    NarrativeRejected,
    Narrator,
    build_narrative_prompt,
    parse_narrative,
    write_narrative,
)
from bot.analysis.rollup import Counts, Narrative, Rollup, RollupCommit, build_rollup, wanted
from bot.digest.markers import week_marker
from bot.digest.weekly import render_weekly
from bot.jobs.publish.week import never_due
from bot.models import Analysis, ChangeType, DigestCommit, ImpactArea, Importance
from bot.periods.days import DaySchedule
from bot.periods.weeks import WeekSchedule
from bot.repo_config import parse_config
from bot.runtime.metrics import Metrics
from tests.examples import MONDAY, replay_week
from tests.fakes.llm import VALID_BODY, Behaviour, FakeLLM
from tests.markdown import parse

GITHUB_BODY_MAX = 65_536
ASCEND = "vllm-project/vllm-ascend"


# --- weeks ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "cutoff", "weekday", "instant", "first", "last", "hours"),
    [
        # Posted Monday 00:00: the week is Monday to Sunday.
        (
            "UTC",
            time(0, 0),
            0,
            datetime(2026, 7, 15, 12, tzinfo=UTC),
            "2026-07-13",
            "2026-07-19",
            168,
        ),
        (
            "UTC",
            time(0, 0),
            0,
            datetime(2026, 7, 20, 0, tzinfo=UTC),
            "2026-07-20",
            "2026-07-26",
            168,
        ),
        (
            "UTC",
            time(0, 0),
            0,
            datetime(2026, 7, 19, 23, 59, tzinfo=UTC),
            "2026-07-13",
            "2026-07-19",
            168,
        ),
        # Posted Friday 18:00 Shanghai: days labelled Saturday to Friday.
        (
            "Asia/Shanghai",
            time(18, 0),
            4,
            datetime(2026, 7, 17, 9, 59, tzinfo=UTC),
            "2026-07-11",
            "2026-07-17",
            168,
        ),
        (
            "Asia/Shanghai",
            time(18, 0),
            4,
            datetime(2026, 7, 17, 10, 0, tzinfo=UTC),
            "2026-07-18",
            "2026-07-24",
            168,
        ),
        # Spring forward (US, 2026-03-08) and fall back (EU, 2026-10-25).
        (
            "America/New_York",
            time(0, 0),
            0,
            datetime(2026, 3, 8, 12, tzinfo=UTC),
            "2026-03-02",
            "2026-03-08",
            167,
        ),
        (
            "Europe/Berlin",
            time(9, 0),
            0,
            datetime(2026, 10, 25, 12, tzinfo=UTC),
            "2026-10-20",
            "2026-10-26",
            169,
        ),
        (
            "America/New_York",
            time(2, 30),
            0,
            datetime(2026, 3, 8, 12, tzinfo=UTC),
            "2026-03-03",
            "2026-03-09",
            167,
        ),
        # A cutoff that does not exist on the spring-forward day itself ends it at 03:30 EDT.
        (
            "America/New_York",
            time(2, 30),
            6,
            datetime(2026, 3, 5, 12, tzinfo=UTC),
            "2026-03-02",
            "2026-03-08",
            168,
        ),
    ],
)
def test_weeks_are_seven_digest_days_ending_at_the_weekdays_cutoff(
    zone: str, cutoff: time, weekday: int, instant: datetime, first: str, last: str, hours: int
) -> None:
    schedule = WeekSchedule(DaySchedule(zone, cutoff), weekday)
    week = schedule.week_of(instant)
    assert (week.first.isoformat(), week.last.isoformat()) == (first, last)
    assert instant in week
    assert week.end - week.start == timedelta(hours=hours)
    assert week.days == tuple(week.first + timedelta(days=i) for i in range(7))
    # Weeks tile time: no hour lost or counted twice.
    before = schedule.previous(week)
    assert before.end == week.start
    assert schedule.week_of(week.end).start == week.end
    # It is posted on the weekday, at the cutoff, in the zone.
    local_end = week.end.astimezone(schedule.days.zone)
    assert local_end.weekday() == weekday
    expected = (
        (cutoff.hour, cutoff.minute) if last != "2026-03-08" or cutoff != time(2, 30) else (3, 30)
    )
    assert (local_end.hour, local_end.minute) == expected


@pytest.mark.parametrize(
    ("zone", "daily", "weekly", "due", "first"),
    [
        # Days end at midnight, the roll-up is posted Monday 09:00: Monday to Sunday.
        ("UTC", time(0, 0), time(9, 0), datetime(2026, 7, 20, 9, tzinfo=UTC), "2026-07-13"),
        # Days end at 09:00, the roll-up is posted Monday 00:00: the days labelled Monday to
        # Sunday (the one labelled Monday 07-20 ends at 09:00, after the post).
        ("UTC", time(9, 0), time(0, 0), datetime(2026, 7, 20, 0, tzinfo=UTC), "2026-07-13"),
        # Across spring forward in New York: Monday 09:00 EDT.
        (
            "America/New_York",
            time(0, 0),
            time(9, 0),
            datetime(2026, 3, 9, 13, tzinfo=UTC),
            "2026-03-02",
        ),
    ],
)
def test_a_weekly_cutoff_of_its_own_posts_the_digest_days_ended_by_then(
    zone: str, daily: time, weekly: time, due: datetime, first: str
) -> None:
    days = DaySchedule(zone, daily)
    schedule = WeekSchedule(days, 0, weekly)
    week = schedule.latest_due(due)
    assert (week.first.isoformat(), week.due) == (first, due)
    # Whole digest days, the last of which has ended when the week is posted.
    assert (week.start, week.end) == (days.window(week.first)[0], days.window(week.last)[1])
    assert week.end <= week.due < days.window(week.last + timedelta(days=1))[1]
    assert schedule.latest_due(due - timedelta(microseconds=1)) == schedule.previous(week)
    assert schedule.following(week).start == week.end
    assert schedule.week_of_day(week.last) == schedule.week_of_day(week.first) == week


def test_latest_due_week_is_the_last_one_whose_cutoff_passed() -> None:
    schedule = WeekSchedule(DaySchedule("UTC", time(0, 0)), 0)
    assert schedule.latest_due(datetime(2026, 7, 20, 0, 0, tzinfo=UTC)).first == date(2026, 7, 13)
    assert schedule.latest_due(datetime(2026, 7, 19, 23, 59, tzinfo=UTC)).first == date(2026, 7, 6)


def test_weekly_config_defaults_off_and_gives_the_schedule() -> None:
    assert parse_config("").weekly.enabled is False
    config = parse_config(
        'timezone: Asia/Shanghai\ncutoff: "09:00"\nweekly: {enabled: true, weekday: Friday, cutoff: 18:00, to: issue}\n'
    )
    assert config.weekly.to == "issue"
    assert config.week_schedule == WeekSchedule(
        DaySchedule("Asia/Shanghai", time(9, 0)), 4, time(18, 0)
    )
    # Without its own cutoff the week ends at the daily one.
    assert parse_config(
        'cutoff: "09:00"\nweekly: {enabled: true}'
    ).week_schedule.days.cutoff == time(9, 0)


@pytest.mark.parametrize(
    ("before", "after", "passed"),
    [
        # Turned on: the week that ended on Monday was nobody's; it gets no late post.
        ("", "weekly: {enabled: true}", "2026-07-13"),
        # Moved from Monday to Friday: the Friday week that just ended was never due.
        ("weekly: {enabled: true}", "weekly: {enabled: true, weekday: friday}", "2026-07-17"),
        # The same weeks (another key changed, or a zone that keeps the week): posted as due.
        ("weekly: {enabled: true}", "weekly: {enabled: true, to: issue}", None),
        ("weekly: {enabled: true}", "weekly: {enabled: true}\ntimezone: Europe/Paris", None),
        ("weekly: {enabled: true}", "", None),
    ],
)
def test_a_week_due_only_under_a_new_config_is_passed_over(
    before: str, after: str, passed: str | None
) -> None:
    now = datetime(2026, 7, 24, 12, tzinfo=UTC)  # a Friday
    week = never_due(parse_config(before), parse_config(after), now)
    assert (week.first.isoformat() if week else None) == passed


# --- a week of replay days --------------------------------------------------------------------

WEEK_SCHEDULE = WeekSchedule(DaySchedule("UTC", time(0, 0)), 0)


def replay_rollup() -> Rollup:
    """The roll-up of the replay week."""
    commits, _ = replay_week()
    return build_rollup(ASCEND, WEEK_SCHEDULE.week_of_day(MONDAY), WEEK_SCHEDULE.days, commits)


def test_a_weeks_counts_equal_the_sum_of_its_days() -> None:
    commits, days = replay_week()
    week = WEEK_SCHEDULE.week_of_day(MONDAY)
    rollup = build_rollup(ASCEND, week, WEEK_SCHEDULE.days, commits)
    per_day = [Counts.of(d) for d in days]
    total = per_day[0]
    for counts in per_day[1:]:
        total = total + counts
    assert rollup.counts == total
    assert rollup.counts.commits == sum(len(d) for d in days) == 155
    # What each daily digest's summary line says, added up.
    for importance in Importance:
        assert rollup.counts.importance.get(importance, 0) == sum(
            1 for d in days for c in d if c.analysis and c.analysis.importance is importance
        )
    assert [rollup.per_day[MONDAY + timedelta(days=i)] for i in range(7)] == [*map(len, days), 0, 0]
    # Every commit is in exactly one theme, and the heat table adds up by day and by lines.
    assert sum(len(t.commits) for t in rollup.themes) == 155
    for i, d in enumerate(rollup.week.days):
        assert sum(t.days[d].commits for t in rollup.themes if d in t.days) == rollup.per_day[d], i
    assert sum(t.lines for t in rollup.themes) == sum(c.lines for c in commits)
    assert sum(n for _, n in rollup.contributors) == 155
    assert {c.sha for c in rollup.notable} == {
        c.sha
        for d in days
        for c in d
        if c.analysis and (c.analysis.importance is Importance.HIGH or c.analysis.breaking)
    }


def test_commits_outside_the_week_are_not_counted() -> None:
    commits, _ = replay_week()
    week = WEEK_SCHEDULE.week_of_day(MONDAY)
    late = replace(commits[0].commit, sha="f" * 40, landed_at=week.end)
    early = replace(commits[0].commit, sha="e" * 40, landed_at=week.start - timedelta(seconds=1))
    rollup = build_rollup(
        ASCEND, week, WEEK_SCHEDULE.days, [*commits, RollupCommit(late), RollupCommit(early)]
    )
    assert rollup.counts.commits == 155


def test_quiet_weeks_follow_skip_empty_days() -> None:
    week = WEEK_SCHEDULE.week_of_day(MONDAY)
    quiet = build_rollup(ASCEND, week, WEEK_SCHEDULE.days, [])
    assert not wanted(quiet, skip_empty_days=True)
    assert wanted(quiet, skip_empty_days=False)
    post = render_weekly(quiet, language="en", timezone="UTC")
    assert "No commits landed from 2026-07-13 to 2026-07-19." in post.body


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_roll_up_post_reads_as_github_expects(language: str) -> None:
    commits, days = replay_week(language)
    week = WEEK_SCHEDULE.week_of_day(MONDAY)
    previous = Counts.of(days[0])
    rollup = build_rollup(ASCEND, week, WEEK_SCHEDULE.days, commits, previous=previous)
    urls = {
        MONDAY + timedelta(days=i): f"https://github.com/{ASCEND}/discussions/{100 + i}"
        for i in range(5)
    }
    narrative = Narrative("Thanks @someone for #12. <b>Bold</b>\n\nSecond paragraph.", "llm:fake")
    post = render_weekly(
        rollup, language=language, timezone="UTC", digest_urls=urls, narrative=narrative, late=True
    )
    assert post.body.startswith(week_marker(ASCEND, week.first))
    assert len(post.body) <= GITHUB_BODY_MAX and len(post.title) <= 256
    parsed = parse(post.body)
    assert parsed.pings_and_references() == []
    assert parsed.html() == [week_marker(ASCEND, week.first) + "\n"]
    assert all(url in parsed.links() for url in urls.values())
    rows = parsed.table_rows()
    # The counts table has 4 columns, the heat table area + 7 days + total.
    assert {len(r) for r in rows} == {4, 9}
    commits_row = next(r for r in rows if len(r) == 4 and r[1] == "155")
    assert commits_row[2:] == [str(previous.commits), f"+{155 - previous.commits}"]
    late = "Published late" if language == "en" else "延迟发布"
    assert late in post.body


def test_a_notable_line_names_the_digest_day_that_lists_the_commit() -> None:
    # Days end at 09:00: a commit landed on Monday 07-13 at 10:00 is in Tuesday's digest, and
    # its line says so (Monday 07-13 is not even a day of this week).
    schedule = WeekSchedule(DaySchedule("UTC", time(9, 0)), 0)
    week = schedule.week_of_day(date(2026, 7, 14))
    assert week.days[0] == date(2026, 7, 14)
    landed = datetime(2026, 7, 13, 10, tzinfo=UTC)
    commit = DigestCommit(
        sha="a" * 40,
        title="Drop the old scheduler",
        url="https://github.com/o/r/commit/" + "a" * 40,
        author="ada",
        landed_at=landed,
        analysis=Analysis(
            change_types=[ChangeType.FEATURE],
            importance=Importance.HIGH,
            breaking=True,
            summary="Gone.",
            analyzer="rules",
        ),
    )
    rollup = build_rollup("o/r", week, schedule.days, [RollupCommit(commit)])
    body = render_weekly(rollup, language="en", timezone="UTC").body
    (line,) = [x for x in body.splitlines() if "Drop the old scheduler" in x]
    assert line.endswith("Tue 07-14")


def test_a_huge_week_still_fits_one_post() -> None:
    week = WEEK_SCHEDULE.week_of_day(MONDAY)
    commits = [
        RollupCommit(
            DigestCommit(
                sha=f"{n:040x}",
                title=f"[Core] A long title for high-importance change number {n} " + "x" * 150,
                url=f"https://github.com/o/r/commit/{n:040x}",
                author=f"author-{n}",
                landed_at=datetime(2026, 7, 13, tzinfo=UTC) + timedelta(minutes=n),
                analysis=Analysis(
                    change_types=[ChangeType.FEATURE],
                    importance=Importance.HIGH,
                    breaking=n % 3 == 0,
                    summary="Big.",
                    impact=[ImpactArea(area=f"area-{n % 40}")],
                    analyzer="rules",
                ),
            ),
            {f"area-{n % 40}/x.py": n},
        )
        for n in range(3000)
    ]
    rollup = build_rollup("o/r", week, WEEK_SCHEDULE.days, commits)
    post = render_weekly(rollup, language="en", timezone="UTC")
    assert len(post.body) <= GITHUB_BODY_MAX
    assert "more, in the daily digests" in post.body
    assert "other areas" in post.body  # 40 areas: the smaller ones together


# --- the narrative ----------------------------------------------------------------------------


def test_the_narrative_prompt_is_bounded_and_delimits_commit_text() -> None:
    rollup = replay_rollup()
    for budget in (1_000, 4_000):
        prompt = build_narrative_prompt(rollup, language="zh-CN", max_input_tokens=budget)
        assert prompt.tokens <= budget
        assert prompt.user.startswith(prompt.boundary) and prompt.user.endswith(prompt.boundary)
        assert "Simplified Chinese" in prompt.system
        assert "Theme:" in prompt.user
    small = build_narrative_prompt(rollup, language="en", max_input_tokens=1_000)
    assert "smaller themes left out" in small.user
    assert estimate_tokens(small.system + small.user) <= 1_000


@pytest.mark.parametrize(("language", "letter"), [("en", "a"), ("zh-CN", "周")])
def test_a_narrative_as_long_as_the_prompt_asks_fits_the_output_tokens(
    language: str, letter: str
) -> None:
    # A model that writes as much as it is allowed must not be cut by `max_tokens` (a cut
    # answer is rejected). Chinese takes about three times the tokens of English a character
    # (three UTF-8 bytes; DeepSeek's own rule of thumb: 0.6 token a Chinese character).
    rollup = replay_rollup()
    prompt = build_narrative_prompt(rollup, language=language)
    limit = re.search(r"at most (\d+) characters", prompt.system)
    assert limit is not None
    asked = int(limit.group(1))
    answer = json.dumps({"narrative": letter * asked}, ensure_ascii=False)
    assert estimate_tokens(answer) <= NARRATIVE_OUTPUT_TOKENS
    assert asked <= NARRATIVE_MAX


@pytest.mark.parametrize(
    ("content", "finish", "expected"),
    [
        (
            '{"narrative": "A calm week. The scheduler moved on."}',
            "stop",
            "A calm week. The scheduler moved on.",
        ),
        ('```json\n{"narrative": "Fenced."}\n```', "stop", "Fenced."),
        (
            '{"narrative": "' + "Long sentence here. " * 100 + '"}',
            "stop",
            ("Long sentence here. " * 100)[:NARRATIVE_MAX].rsplit(".", 1)[0] + ".",
        ),
        ('{"narrative": "cut', "length", None),
        ('{"narrative": "no json', "stop", None),
        ('{"story": "wrong key"}', "stop", None),
        ('{"narrative": ""}', "stop", None),
        ('{"narrative": "' + "x" * 2000 + '"}', "stop", None),
    ],
)
def test_parse_narrative(content: str, finish: str, expected: str | None) -> None:
    if expected is None:
        with pytest.raises(NarrativeRejected):
            parse_narrative(content, finish_reason=finish)
    else:
        assert parse_narrative(content, finish_reason=finish) == expected


@pytest.fixture
async def llm_client(aiohttp_server: Any) -> tuple[FakeLLM, openai.AsyncOpenAI]:
    fake = FakeLLM()
    server = await aiohttp_server(fake.app())
    client = openai.AsyncOpenAI(
        base_url=str(server.make_url("/v1")), api_key="test-key", max_retries=0
    )
    return fake, client


async def test_one_call_a_week_and_no_second_on_failure(
    llm_client: tuple[FakeLLM, openai.AsyncOpenAI],
) -> None:
    fake, client = llm_client
    rollup = replay_rollup()
    fake.then(Behaviour("valid", body={"narrative": "Scheduling work led the week."}))
    narrative = await write_narrative(
        client, rollup, model="fake-model", language="en", max_output_tokens=300
    )
    assert narrative == Narrative("Scheduling work led the week.", "llm:fake-model")
    assert len(fake.requests) == 1
    assert fake.requests[0]["max_tokens"] == 300
    assert fake.requests[0]["response_format"] == {"type": "json_object"}

    for behaviour in (Behaviour("error", status=503), Behaviour("cut"), Behaviour("invalid_json")):
        fake.then(behaviour)
        before = len(fake.requests)
        assert await write_narrative(client, rollup, model="fake-model", language="en") is None
        assert len(fake.requests) == before + 1


async def test_a_narrative_answer_is_read_within_a_size_and_a_deadline(
    llm_client: tuple[FakeLLM, openai.AsyncOpenAI],
) -> None:
    fake, client = llm_client
    rollup = replay_rollup()
    fake.then("huge")
    assert await write_narrative(client, rollup, model="fake-model", language="en") is None
    # The reader stopped long before the server's 64 MB: it did not take the whole answer in.
    assert fake.endless_bytes_sent < 16 * 1024 * 1024
    # Bytes that keep coming, each within the timeout, do not hold the roll-up past it.
    fake.then("trickle")
    started = asyncio.get_running_loop().time()
    narrative = await write_narrative(
        client, rollup, model="fake-model", language="en", timeout_seconds=0.5
    )
    assert narrative is None
    assert asyncio.get_running_loop().time() - started < 30


async def test_the_narratives_tokens_and_cost_are_in_the_metrics(
    llm_client: tuple[FakeLLM, openai.AsyncOpenAI],
) -> None:
    fake, client = llm_client
    rollup = replay_rollup()
    metrics = Metrics()
    narrator = Narrator(client, "fake-model", metrics=metrics, prices=Prices(input=2.0, output=8.0))
    fake.then(Behaviour("valid", body={"narrative": "Scheduling work led the week."}), "cut")
    assert await narrator.write(rollup, language="en") is not None
    assert await narrator.write(rollup, language="en") is None  # a cut answer is paid too
    # What the fake server said it used, as /metrics shows it.
    used_in = used_out = 0
    for request in fake.requests:
        used_in += sum(len(m["content"]) for m in request["messages"]) // 4
    used_out = len(json.dumps({"narrative": "Scheduling work led the week."})) // 4
    used_out += len(json.dumps(VALID_BODY)[: len(json.dumps(VALID_BODY)) // 2]) // 4
    sample = metrics.registry.get_sample_value
    assert sample("commit_digest_llm_tokens_total", {"direction": "input"}) == used_in
    assert sample("commit_digest_llm_tokens_total", {"direction": "output"}) == used_out
    assert sample("commit_digest_llm_estimated_cost_total") == pytest.approx(
        (used_in * 2.0 + used_out * 8.0) / 1_000_000
    )


def test_hostile_areas_authors_and_titles_cannot_ping_or_break_the_tables() -> None:
    week = WEEK_SCHEDULE.week_of_day(MONDAY)
    commits = [
        RollupCommit(
            DigestCommit(
                sha=f"{n:040x}",
                title=f"Fix @octocat's #12 | <b>bold</b> `tick {n}",
                url=f"https://github.com/o/r/commit/{n:040x}",
                author=f"@evil|name`{n}",
                landed_at=datetime(2026, 7, 14, tzinfo=UTC) + timedelta(hours=n),
                analysis=Analysis(
                    change_types=[ChangeType.SECURITY],
                    importance=Importance.HIGH,
                    breaking=True,
                    summary="x.",
                    impact=[ImpactArea(area=f"a|b`@team/x #{n}")],
                    analyzer="llm:test",
                ),
            ),
            {"a.py": 3},
        )
        for n in range(3)
    ]
    rollup = build_rollup("o/r", week, WEEK_SCHEDULE.days, commits)
    for language in ("en", "zh-CN"):
        post = render_weekly(rollup, language=language, timezone="UTC")
        parsed = parse(post.body)
        assert parsed.pings_and_references() == []
        assert {len(r) for r in parsed.table_rows()} == {4, 9}
        assert parsed.html() == [week_marker("o/r", week.first) + "\n"]
