"""A day's commits whose every added line a later commit of the same day took out: undone, and
where the lines that went with them net to nothing, no change at all. Pure.

The stored analyses stay as the analyser made them; the digest reads each commit's line
fingerprints (`DayNames.added_lines`, `removed_lines`) together. A commit whose lines are not
known (a row stored before, a file without its patch) is never said undone, nor takes
anything out. Lines that leave the files as they were are not enough: a commit is undone
only where the commits from the first of those it undoes to the undoing one leave every file
they touched with the lines it had before (a line re-wrapped, rewritten or put back by another
commit stands), and a day nets to nothing only where each file ends it with the lines it began
it with.
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


def _file(fingerprint: str) -> str:
    """The file part of a line's fingerprint (`daynames.lines_of`); '' for one stored before
    files were told apart (then all such lines read as one file: the check is stricter)."""
    return fingerprint.split(":", 1)[0] if ":" in fingerprint else ""


def _files(lines: tuple[Counter[str], Counter[str]]) -> set[str]:
    return {_file(f) for side in lines for f in side}


def _back(
    span: Sequence[DigestCommit],
    files: set[str],
    lines: dict[str, tuple[Counter[str], Counter[str]]],
) -> bool:
    """Whether the commits of `span` together leave each of `files` with the lines it had
    before the first of them: every line one adds another takes out, and the reverse. A
    commit whose lines are not known may have touched them: nothing is proved."""
    net: Counter[str] = Counter()
    for c in span:
        if c.sha not in lines:
            return False
        added, removed = lines[c.sha]
        net.update({f: n for f, n in added.items() if _file(f) in files})
        net.subtract({f: n for f, n in removed.items() if _file(f) in files})
    return not any(net.values())


def _proved(
    groups: dict[str, list[str]],
    order: Sequence[DigestCommit],
    position: dict[str, int],
    lines: dict[str, tuple[Counter[str], Counter[str]]],
) -> dict[str, str]:
    """Of each undoing commit's group, the commits it is proved to undo: those at or after
    one from which the span to the undoing commit puts the group's files back as they were."""
    by: dict[str, str] = {}
    for undoer, shas in groups.items():
        members = sorted(shas, key=position.__getitem__)
        for i, first in enumerate(members):
            files = set().union(*(_files(lines[s]) for s in members[i:]))
            span = order[position[first] : position[undoer] + 1]
            if _back(span, files, lines):
                by.update(dict.fromkeys(members[i:], undoer))
                break
    return by


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
    by = _proved(groups, order, position, lines)
    groups = {}
    for sha, undoer in by.items():
        groups.setdefault(undoer, []).append(sha)
    by_sha = {c.sha: c for c in order}
    no_net: dict[str, tuple[str, ...]] = {}
    for undoer, shas in groups.items():
        members = [*shas, undoer]
        added = sum((lines[s][0] for s in members), Counter[str]())
        removed = sum((lines[s][1] for s in members), Counter[str]())
        # and each file they touched ends the day as it began it
        files = set().union(*(_files(lines[s]) for s in members))
        if added == removed and _back(order, files, lines):
            no_net[undoer] = _areas([by_sha[s] for s in members])
    return tuple(
        _low(c, undone_by=by.get(c.sha), no_net=no_net.get(c.sha))
        if c.sha in by or c.sha in no_net
        else c
        for c in commits
    )
