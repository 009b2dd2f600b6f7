"""A day's breaks taken back where they are the day's own: a name added and then removed,
renamed or given a new default within the same day's commits breaks no one. Pure.

The stored analyses stay as the analyser made them; the digest reads each commit's names
(`DayNames`) beside the names the day's earlier commits added, and the week's roll-up reads
each of its digest days so (`settled_week`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date

from bot.analysis.rollup import RollupCommit
from bot.models import DigestCommit, Importance
from bot.periods.days import DaySchedule


def _added_by(key: str, added: Mapping[str, str]) -> str | None:
    """The sha of the day's commit that added the name `key` (`path::name`): the name itself,
    the function whose parameter it is, or its file."""
    path, _, name = key.partition("::")
    function = name.split("(", 1)[0]
    for candidate in (key, f"{path}::{function}", f"{path}::*"):
        if candidate in added:
            return added[candidate]
    return None


def settled(commits: Sequence[DigestCommit]) -> tuple[DigestCommit, ...]:
    """The day's commits (in the order given), each breaking one whose every break is a
    name an earlier commit of the day added shown not breaking, at most medium, with the
    commits that added the names (`new_today`)."""
    added: dict[str, str] = {}
    settled_by: dict[str, DigestCommit] = {}
    for commit in sorted(commits, key=lambda c: c.landed_at):
        names, a = commit.names, commit.analysis
        if names is None:
            continue
        if a is not None and a.breaking and names.breaks and not names.other:
            by = {key.partition("::")[2]: _added_by(key, added) for key in names.breaks}
            if all(by.values()):
                # (a maintainer's rating stands as rated)
                importance = (
                    a.importance
                    if commit.rated
                    else max(a.importance, Importance.MEDIUM, key=lambda i: i.rank)
                )
                settled_by[commit.sha] = replace(
                    commit,
                    analysis=a.model_copy(update={"breaking": False, "importance": importance}),
                    new_today={name: sha for name, sha in by.items() if sha},
                )
        for key in names.added:
            added.setdefault(key, commit.sha)
    return tuple(settled_by.get(c.sha, c) for c in commits)


def settled_week(commits: Sequence[RollupCommit], days: DaySchedule) -> list[RollupCommit]:
    """The week's commits (in the order given), each digest day's `settled` as its daily
    digest shows it: the roll-up counts no break the days took back."""
    by_day: dict[date, list[DigestCommit]] = {}
    for c in commits:
        by_day.setdefault(days.day_of(c.commit.landed_at), []).append(c.commit)
    shown = {s.sha: s for day in by_day.values() for s in settled(day)}
    return [replace(c, commit=shown[c.commit.sha]) for c in commits]
