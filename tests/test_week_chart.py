"""The weekly roll-up's Mermaid chart: valid xychart-beta by Mermaid's documented grammar,
built from the stored counts only, stacked by importance."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.analysis.rollup import Counts, Rollup, build_rollup, commits_a_day
from bot.digest.strings import catalogue
from bot.digest.weekly import render_weekly
from bot.models import Importance
from bot.repo_config import parse_config
from tests.examples import MONDAY, replay_week
from tests.mermaid import NotMermaid, mermaid_blocks, parse_xychart

HOSTILE = '"] ; click x call alert(1) %%{init: {}}%% <script>'


def week(
    language: str, *, previous: bool = True, by_day: bool = True, hostile: bool = False
) -> tuple[Rollup, str]:
    """The replay week; the week before it holds Monday's commits on its Tuesday and
    Tuesday's on its Thursday (`by_day`: known day by day, else only its total)."""
    commits, days = replay_week(language)
    if hostile:
        commits = [replace(c, commit=replace(c.commit, title=HOSTILE)) for c in commits]
    schedule = parse_config("weekly: {enabled: true, weekday: monday}").week_schedule
    this = schedule.week_of_day(MONDAY)
    before = [replace(c, landed_at=c.landed_at - timedelta(days=6)) for c in days[0]] + [
        replace(c, landed_at=c.landed_at - timedelta(days=5)) for c in days[1]
    ]
    rollup = build_rollup(
        "vllm-project/vllm-ascend",
        this,
        schedule.days,
        commits,
        previous=Counts.of(before) if previous else None,
        previous_days=commits_a_day(schedule.previous(this), schedule.days, before)
        if previous and by_day
        else None,
    )
    return rollup, render_weekly(rollup, language=language, timezone="UTC").body


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_roll_up_holds_one_valid_xychart_stacked_by_importance(language: str) -> None:
    rollup, body = week(language)
    [source] = mermaid_blocks(body)
    chart = parse_xychart(source)
    words = catalogue(language).weekly
    assert chart.title == words.chart_title
    assert chart.categories[0] == words.weekdays[0] + " 07-13" and len(chart.categories) == 7
    total, medium, high = chart.bars
    assert total == [float(rollup.per_day[d]) for d in rollup.week.days]
    assert sum(total) == rollup.counts.commits
    # Each shorter bar is drawn over a taller one: the stack reads high, medium, low.
    assert all(t >= m >= h >= 0 for t, m, h in zip(total, medium, high, strict=True))
    assert sum(high) == rollup.counts.importance[Importance.HIGH]
    # The week before as a line of its commits a day, each over the same day of this week.
    [line] = chart.lines
    _, days = replay_week(language)
    assert line == [0, len(days[0]), 0, len(days[1]), 0, 0, 0]
    assert chart.y_range is not None and chart.y_range[1] >= max(line)
    assert len(chart.palette) == 4
    # The emoji heat table stays for mail readers (GitHub's mail does not render Mermaid).
    assert "🟥" in body or "🟧" in body


def test_a_week_before_known_only_in_total_is_its_daily_average() -> None:
    rollup, body = week("en", by_day=False)
    [line] = parse_xychart(mermaid_blocks(body)[0]).lines
    assert rollup.previous is not None
    assert line == [round(rollup.previous.commits / 7, 1)] * 7


def test_no_week_before_draws_no_line() -> None:
    _, body = week("en", previous=False)
    chart = parse_xychart(mermaid_blocks(body)[0])
    assert chart.lines == [] and len(chart.bars) == 3


def test_commit_titles_never_reach_the_chart() -> None:
    _, body = week("en", hostile=True)
    [source] = mermaid_blocks(body)
    parse_xychart(source)
    assert "script" not in source and "click" not in source and "init" not in source


@pytest.mark.parametrize(
    "source",
    [
        "xychart\n  bar [1, 2]",
        "xychart-beta\n  title Commits a day\n  bar [1]",
        'xychart-beta\n  x-axis ["Mon", "Tue"]\n  bar [1, 2, 3]',
        'xychart-beta\n  y-axis "Commits" 0 --> 2\n  bar [1, 3]',
        'xychart-beta\n  x-axis ["Mon", "Tue]\n  bar [1, 2]',
        "xychart-beta\n  bar [1, two]",
        'xychart-beta\n  title "a"\n  title "b"\n  bar [1]',
        "xychart-beta\n  pie [1]",
        'xychart-beta\n  title "no data"',
        '---\nconfig:\n  themeVariables:\n    xyChart:\n      plotColorPalette: "red; x"\n---\nxychart-beta\n  bar [1]',
    ],
)
def test_the_checker_refuses_what_mermaid_would(source: str) -> None:
    with pytest.raises(NotMermaid):
        parse_xychart(source)


def test_the_checker_takes_the_documentation_s_own_example() -> None:
    chart = parse_xychart(
        "xychart-beta\n"
        '    title "Sales Revenue"\n'
        "    x-axis [jan, feb, mar, apr, may, jun, jul, aug, sep, oct, nov, dec]\n"
        '    y-axis "Revenue (in $)" 4000 --> 11000\n'
        "    bar [5000, 6000, 7500, 8200, 9500, 10500, 11000, 10200, 9200, 8500, 7000, 6000]\n"
        "    line [5000, 6000, 7500, 8200, 9500, 10500, 11000, 10200, 9200, 8500, 7000, 6000]\n"
    )
    assert chart.title == "Sales Revenue" and len(chart.categories) == 12
    assert parse_xychart("xychart-beta\n  line [2.3, 45, .98, -3.4]").lines == [
        [2.3, 45, 0.98, -3.4]
    ]
