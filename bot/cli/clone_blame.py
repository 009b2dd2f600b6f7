"""Whether the lines a commit removes or changes in shipped files came after every release:
`git blame` of the parent's lines it edits, the version tags' histories left out."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from bot.analysis.paths import ships, tooling_path
from bot.cli.git import CloneError, run_git
from bot.cli.release_lines import held_by
from bot.models import CommitInput

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")
# Past this many edited files the commit is not asked about (a blame each).
_MAX_FILES = 8


def edited_lines(commit: CommitInput) -> dict[str, list[tuple[int, int]]]:
    """The parent's line ranges (first, last) the commit's patches remove, by the parent's
    path, in shipped files only; an empty map where a shipped file's patch is not known."""
    out: dict[str, list[tuple[int, int]]] = {}
    for f in commit.files:
        path = f.previous_filename or f.filename
        # developers' tools' settings (tox.ini, a coverage table) reach no user: no fix of them
        # mends what a release's user ran (platformdirs 5d16771)
        if f.status == "added" or not ships(path) or tooling_path(path):
            continue
        if f.patch is None:
            return {} if f.deletions else out
        ranges: list[tuple[int, int]] = []
        old = 0
        for line in f.patch.split("\n"):
            hunk = _HUNK.match(line)
            if hunk:
                old = int(hunk.group(1))
            elif line.startswith("-") and not line.startswith("--- a/"):
                if ranges and ranges[-1][1] == old - 1:
                    ranges[-1] = (ranges[-1][0], old)
                else:
                    ranges.append((old, old))
                old += 1
            elif line.startswith(" "):
                old += 1
        if ranges:
            out[path] = ranges
    return out


def removed_texts(commit: CommitInput) -> list[str]:
    """The lines the commit's patches remove from shipped files (not the dev tools'), as
    written."""
    out: list[str] = []
    for f in commit.files:
        path = f.previous_filename or f.filename
        if f.status == "added" or not ships(path) or tooling_path(path):
            continue
        out += [
            line[1:]
            for line in (f.patch or "").split("\n")
            if line.startswith("-") and not line.startswith("--- ")
        ]
    return out


def edits_unreleased(
    path: Path, commit: CommitInput, tags: Iterable[str], last: str | None = None
) -> bool:
    """Whether the commit edits lines of shipped files, and every one came after every tag
    of `tags`, the releases that lack the commit (none of their histories holds the commit
    that wrote the line): no release ran them unfixed. With `last`, the last release, also
    whether no shipped file of it holds one of the removed lines' content (spaces aside): a
    line moved to another file or re-wrapped after the release is blamed on the move, yet
    that release ran it (`release_lines.held_by`); where that cannot be told, False."""
    edited = edited_lines(commit)
    if not edited or len(edited) > _MAX_FILES or commit.parents > 1:
        return False
    negatives = [f"^refs/tags/{t}" for t in tags]
    parent = f"{commit.sha}^"
    try:
        # a parent a tag holds: every line released (and blame, left no commit to start
        # from, would start from HEAD)
        left = run_git(path, "rev-list", "-n", "1", parent, *negatives, "--", timeout=60)
    except CloneError:
        return False
    if left.returncode != 0 or not left.stdout.strip():
        return False
    for name, ranges in edited.items():
        spans = [a for first, last in ranges for a in ("-L", f"{first},{last}")]
        try:
            result = run_git(
                path,
                "blame",
                "--porcelain",
                *spans,
                parent,
                *negatives,
                "--",
                name,
                timeout=60,
            )
        except CloneError:
            return False
        # a line a tag's history holds is blamed on a boundary commit
        if result.returncode != 0 or "\nboundary\n" in f"\n{result.stdout}":
            return False
    return last is None or held_by(path, last, removed_texts(commit)) == ""
