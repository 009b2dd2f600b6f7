"""A day's commits whose every added line a later commit of the same day took out: undone, and
where the lines that went with them net to nothing, no change at all. Pure.

The stored analyses stay as the analyser made them; the digest reads each commit's line
fingerprints (`DayNames.added_lines`, `removed_lines`) together. A commit whose lines are not
known (a row stored before, a file without its patch) is never said undone, nor takes
anything out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from bot.models import DigestCommit, Importance


def _lines(commit: DigestCommit) -> tuple[Counter[str], Counter[str]] | None:
    names = commit.names
    if names is None or names.added_lines is None or names.removed_lines is None:
        return None
    return Counter(names.added_lines), Counter(names.removed_lines)


def _low(commit: DigestCommit, **update: object) -> DigestCommit:
    a = commit.analysis
    if a is not None and not commit.rated:
        # (a maintainer's rating stands as rated)
        a = a.model_copy(update={"importance": Importance.LOW, "breaking": False})
    return replace(commit, analysis=a, **update)  # type: ignore[arg-type]


def _areas(commits: Sequence[DigestCommit]) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for c in commits:
        if c.analysis is not None:
            found.update(dict.fromkeys(i.area for i in c.analysis.impact))
    return tuple(found)


def _restored(
    sha: str,
    order: Sequence[DigestCommit],
    position: dict[str, int],
    lines: dict[str, tuple[Counter[str], Counter[str]]],
    by: dict[str, str],
) -> bool:
    """Whether every line `sha` removed is added back by a later commit of the day, or was
    added by an earlier one of the day that is undone."""
    left = Counter(lines[sha][1])
    for other in order[: position[sha]]:
        if other.sha in by and other.sha in lines:
            left -= lines[other.sha][0]
    for later in order[position[sha] + 1 :]:
        if later.sha in lines:
            left -= lines[later.sha][0] - lines[later.sha][1]
    return not left


def undone(commits: Sequence[DigestCommit]) -> tuple[DigestCommit, ...]:
    """The day's commits (in the order given), each whose added lines later commits of the
    day removed, every one (and whose removed lines stand again), marked `undone_by` the
    last of them, at low importance; a commit
    that so undoes some, and that with them adds back just what they removed (the day's
    lines net to nothing), marked `no_net` with the areas they touched, at low importance."""
    order = sorted(commits, key=lambda c: c.landed_at)
    lines = {c.sha: found for c in order if (found := _lines(c)) is not None}
    by: dict[str, str] = {}
    for i, commit in enumerate(order):
        mine = lines.get(commit.sha)
        if mine is None or not mine[0]:
            continue
        left = Counter(mine[0])
        for later in order[i + 1 :]:
            theirs = lines.get(later.sha)
            if theirs is None:
                continue
            # a line it moves (removes and adds again in the same file) still stands
            taken = left & (theirs[1] - theirs[0])
            if not taken:
                continue
            left -= taken
            if not left:
                by[commit.sha] = later.sha
                break
    # Its removed lines must stand again too: added back later, or the day's own lines (added
    # earlier by a commit itself undone). Dropping one may leave another's unexplained.
    position = {c.sha: i for i, c in enumerate(order)}
    changed = True
    while changed:
        changed = False
        for sha in list(by):
            if not _restored(sha, order, position, lines, by):
                del by[sha]
                changed = True
    groups: dict[str, list[str]] = {}
    for sha, undoer in by.items():
        groups.setdefault(undoer, []).append(sha)
    by_sha = {c.sha: c for c in order}
    no_net: dict[str, tuple[str, ...]] = {}
    for undoer, shas in groups.items():
        members = [*shas, undoer]
        added = sum((lines[s][0] for s in members), Counter[str]())
        removed = sum((lines[s][1] for s in members), Counter[str]())
        if added == removed:
            no_net[undoer] = _areas([by_sha[s] for s in members])
    return tuple(
        _low(c, undone_by=by.get(c.sha), no_net=no_net.get(c.sha))
        if c.sha in by or c.sha in no_net
        else c
        for c in commits
    )
