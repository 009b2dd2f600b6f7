"""A thread of posts: one repository's day, week, day of alerts, command reply or tracking
issue, with the ledger period and the markers its posts carry.

`period` is exactly the string the post ledger has always stored for it, so rows written
before threads were typed still read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from bot.digest.markers import (
    alert_marker,
    command_marker,
    day_marker,
    tracking_marker,
    week_marker,
)
from bot.periods.period import Period
from bot.posts.reconcile import Wanted
from bot.store.alert_ledger import ALERT_PREFIX, alert_period
from bot.store.posts import PostKind


class ThreadKind(StrEnum):
    DAY = "day"
    WEEK = "week"
    ALERTS = "alerts"
    COMMAND = "command"
    REPOSITORY = "repository"  # the tracking issue: the repository's, not any period's


@dataclass(frozen=True)
class Thread:
    repo_id: int
    full_name: str
    kind: ThreadKind
    day: date | None = None  # a day's, a week's first, or an alert day's date
    comment_id: int | None = None  # a command's comment

    @classmethod
    def of(cls, repo_id: int, full_name: str, period: Period) -> Thread:
        """A digest's thread: its day, or its roll-up week."""
        kind = ThreadKind.WEEK if period.kind == "week" else ThreadKind.DAY
        return cls(repo_id, full_name, kind, day=period.start)

    @classmethod
    def alerts(cls, repo_id: int, full_name: str, day: date) -> Thread:
        return cls(repo_id, full_name, ThreadKind.ALERTS, day=day)

    @classmethod
    def reply(cls, repo_id: int, full_name: str, comment_id: int) -> Thread:
        return cls(repo_id, full_name, ThreadKind.COMMAND, comment_id=comment_id)

    @classmethod
    def tracking(cls, repo_id: int, full_name: str) -> Thread:
        return cls(repo_id, full_name, ThreadKind.REPOSITORY)

    @property
    def period(self) -> str:
        match self.kind:
            case ThreadKind.REPOSITORY:
                return "repository"
            case ThreadKind.COMMAND:
                return f"command:{self.comment_id}"
            case ThreadKind.ALERTS:
                return alert_period(self._day)
            case _:
                return Period(self.kind.value, self._day).key

    def marker(self, key: str) -> str:
        """The marker the thread's post `key` opens with."""
        match self.kind:
            case ThreadKind.REPOSITORY:
                return tracking_marker(self.full_name)
            case ThreadKind.COMMAND:
                assert self.comment_id is not None
                return command_marker(self.full_name, self.comment_id)
            case ThreadKind.WEEK:
                return week_marker(self.full_name, self._day)
            case ThreadKind.ALERTS if key.startswith(ALERT_PREFIX):
                return alert_marker(self.full_name, key.removeprefix(ALERT_PREFIX))
            case _:  # a day's parts and addenda, and its "more alerts" posts
                return day_marker(self.full_name, self._day, key)

    def wanted(self, key: str, kind: PostKind, body: str, title: str | None = None) -> Wanted:
        return Wanted(key, kind, self.marker(key), body, title)

    @property
    def _day(self) -> date:
        assert self.day is not None
        return self.day
