"""The hidden markers' exact text (the App's contract with posts already on GitHub), read back."""

from __future__ import annotations

from datetime import date

import pytest

from bot.digest.markers import (
    Marker,
    alert_marker,
    command_marker,
    day_marker,
    fold_marker,
    read_marker,
    tracking_marker,
    week_marker,
)

DAY = date(2026, 6, 22)
SHA = "0123456789abcdef0123456789abcdef01234567"

# Written out by hand: a change to any of these strands every post already published.
PINNED = [
    (day_marker("o/r", DAY, "part-1"), "<!-- commit-digest:o/r:2026-06-22:part-1 -->"),
    (day_marker("o/r", DAY, "addendum-1-2"), "<!-- commit-digest:o/r:2026-06-22:addendum-1-2 -->"),
    (fold_marker("o/r", DAY), "<!-- commit-digest:o/r:2026-06-22:alerts-more -->"),
    (week_marker("o/r", DAY), "<!-- commit-digest:o/r:week-2026-06-22:part-1 -->"),
    (alert_marker("o/r", SHA), f"<!-- commit-digest:o/r:alert:{SHA} -->"),
    (tracking_marker("my-org/my.repo"), "<!-- commit-digest:my-org/my.repo:tracking-issue -->"),
    (command_marker("o/r", 1234567890), "<!-- commit-digest:o/r:command:1234567890 -->"),
]


@pytest.mark.parametrize(("built", "text"), PINNED)
def test_each_marker_keeps_its_exact_text(built: str, text: str) -> None:
    assert built == text


@pytest.mark.parametrize(("built", "text"), PINNED)
def test_a_post_opening_with_a_marker_reads_it_back(built: str, text: str) -> None:
    found = read_marker(f"{built}\n## The digest\n\nbody text")
    assert found is not None
    assert str(found) == text
    assert found.repo == text.removeprefix("<!-- commit-digest:").split(":", 1)[0]


def test_the_parts_of_a_marker() -> None:
    assert read_marker(day_marker("o/r", DAY, "part-2")) == Marker("o/r", "2026-06-22:part-2")
    assert read_marker(alert_marker("o/r", SHA)) == Marker("o/r", f"alert:{SHA}")


@pytest.mark.parametrize(
    "body",
    [
        "",
        "Me too <!-- commit-digest:o/r:2026-06-22:part-2 -->",  # not where a post opens
        " <!-- commit-digest:o/r:2026-06-22:part-1 -->",
        "<!-- commit-digest:o/r:2026-06-22:part-1",  # never closed
        "<!-- commit-digest:o/r -->",  # no place
        "<!-- commit-digest::tracking-issue -->",  # no repository
        "<!-- commit-digest:o/r:2026-06-22 part-1 -->",
        "<!-- commit-digest:o/r:tracking-issue\n -->",
        "<!-- another-app:o/r:tracking-issue -->",
    ],
)
def test_a_body_opening_with_no_marker_reads_as_none(body: str) -> None:
    assert read_marker(body) is None
