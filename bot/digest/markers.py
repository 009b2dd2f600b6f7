"""The hidden markers every post opens with: how the App finds its own posts on GitHub again.

A create whose answer was lost is searched for by its marker before it is sent again, so the
text is a contract with every post already out there and never changes:
`<!-- commit-digest:{owner/name}:{place} -->`, where the place is
- `{day}:{part}`: a part of a day's digest (`part-1`, `addendum-1-2`, ...);
- `{day}:alerts-more`: the day's "more alerts" post (`alerts-more-2`, ...: one made where
  alerts go after the first could no longer be reached);
- `week-{first day}:part-1`: a week's roll-up;
- `alert:{sha}`: a commit's alert (one per commit, whatever its day);
- `tracking-issue`: the issue the App opens for its comments;
- `command:{comment id}`: the reply to one `/digest` command comment.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

_OPEN = "<!-- commit-digest:"
_CLOSE = " -->"
_FOLD = "alerts-more"
_TRACKING_ISSUE = "tracking-issue"


@dataclass(frozen=True)
class Marker:
    """A marker read back: the repository (`owner/name`) and the post's place in it."""

    repo: str
    place: str

    def __str__(self) -> str:
        return f"{_OPEN}{self.repo}:{self.place}{_CLOSE}"


def day_marker(repo: str, day: date, key: str) -> str:
    """A day's post: its digest parts (`part-1`, `addendum-1`, ...) and its alert fold."""
    return str(Marker(repo, f"{day.isoformat()}:{key}"))


def week_marker(repo: str, first: date) -> str:
    """A week's roll-up, keyed by the week's first day."""
    return str(Marker(repo, f"week-{first.isoformat()}:part-1"))


def alert_marker(repo: str, sha: str) -> str:
    """A commit's alert."""
    return str(Marker(repo, f"alert:{sha}"))


def fold_marker(repo: str, day: date, key: str = _FOLD) -> str:
    """A day's "more alerts" post (`key`: the ledger's key of that post)."""
    return day_marker(repo, day, key)


def tracking_marker(repo: str) -> str:
    """The tracking issue the App opens for comment posts."""
    return str(Marker(repo, _TRACKING_ISSUE))


def command_marker(repo: str, comment_id: int) -> str:
    """The reply to one `/digest` command comment."""
    return str(Marker(repo, f"command:{comment_id}"))


def read_marker(body: str) -> Marker | None:
    """The marker a post opens with, or None. One further into a body is not the post's own:
    it is quoted text (a commit author may be named anything)."""
    if not body.startswith(_OPEN):
        return None
    end = body.find(_CLOSE, len(_OPEN))
    inner = body[len(_OPEN) : end] if end >= 0 else ""
    # GitHub's owner and repository names hold no colon, space or line break.
    repo, colon, place = inner.partition(":")
    if not colon or not repo or not place or any(c.isspace() for c in inner):
        return None
    return Marker(repo, place)
