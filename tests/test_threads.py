"""A thread's ledger period is the string the post ledger has always stored for it (rows written
before threads were typed must still be found), and each kind of post goes where its config
section sends it."""

from __future__ import annotations

from datetime import date

import pytest

from bot.periods.period import Period
from bot.posts.thread import Thread
from bot.repo_config import Place, parse_config
from bot.store.posts import PostKind

REPO = "octo/widgets"
DAY = date(2026, 6, 22)


@pytest.mark.parametrize(
    ("thread", "period"),
    [
        (Thread.of(1, REPO, Period.day(DAY)), "day:2026-06-22"),
        (Thread.of(1, REPO, Period.week(DAY)), "week:2026-06-22"),
        (Thread.alerts(1, REPO, DAY), "alerts:2026-06-22"),
        (Thread.reply(1, REPO, 4242), "command:4242"),
        (Thread.tracking(1, REPO), "repository"),
    ],
)
def test_a_thread_keeps_the_ledger_period_stored_before(thread: Thread, period: str) -> None:
    assert thread.period == period


def test_each_post_of_a_thread_opens_with_its_own_marker() -> None:
    day = Thread.of(1, REPO, Period.day(DAY))
    alerts = Thread.alerts(1, REPO, DAY)
    markers = {
        day.marker("part-1"),
        day.marker("part-2"),
        day.marker("addendum-1"),
        Thread.of(1, REPO, Period.week(DAY)).marker("part-1"),
        alerts.marker("alert-" + "a" * 40),
        alerts.marker("alert-" + "b" * 40),
        alerts.marker("alerts-more"),
        Thread.reply(1, REPO, 4242).marker("reply"),
        Thread.tracking(1, REPO).marker("tracking-issue"),
    }
    assert len(markers) == 9
    assert all(m.startswith("<!--") and REPO in m for m in markers)
    wanted = day.wanted("part-2", PostKind.DISCUSSION_COMMENT, day.marker("part-2") + "\nbody")
    assert wanted.marker == day.marker("part-2") and wanted.title is None


def test_digest_alerts_and_weekly_each_go_where_their_section_says() -> None:
    config = parse_config(
        "publish:\n  category: Digests\n  issue: 7\n"
        "alerts:\n  on: [breaking]\n  to: issue\n"
        "weekly:\n  enabled: true\n  category: Roll-ups\n"
    )
    assert config.place("digest") == Place(discussion=True, category="Digests", issue=7)
    assert config.place("alerts") == Place(discussion=False, category="Digests", issue=7)
    assert config.place("weekly") == Place(discussion=True, category="Roll-ups", issue=7)
