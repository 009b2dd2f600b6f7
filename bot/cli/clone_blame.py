"""Whether the lines a commit removes or changes in shipped files came after every release:
`git blame` of the parent's lines it edits, the version tags' histories left out."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path

from bot.analysis.packaging_files import ROOT_METADATA
from bot.analysis.paths import PathKind, dev_tooling, path_kind, ships, tooling_path
from bot.cli.git import CloneError, run_git
from bot.cli.release_lines import held_by, telling
from bot.models import CommitInput, FileChange

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")
# Past this many edited files the commit is not asked about (a blame each).
_MAX_FILES = 8
# A metadata file's version line: each release commit sets it, and no fix mends it
_VERSION_LINE = re.compile(r"""^\s*["']?version["']?\s*[=:]""")
# a token of a line: a quoted string whole, a word, or any other character (spaces aside)
_TOKEN = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\w+|\S""")
# a token that is, or holds, a word or a number (not `=`, `)`)
_WORDISH = re.compile(r"\w")
# an added line replaces a removed one this alike (difflib's ratio), or none does
_ALIKE = 0.5
# past this many removed-by-added lines in one change, each removed line is asked whole
_MAX_PAIRS = 2500


def _counted(f: FileChange) -> bool:
    """Whether a changed file's removed lines are what a release's users got: a shipped file
    (not the dev tools'), or a packaging metadata file whose change is not the dev tools'
    tables alone: its requirements reach every install (glom 53666f5 mended
    `install_requires=[…, 'face<22.0.0']`, which v23.1.0 shipped that morning)."""
    path = f.previous_filename or f.filename
    if f.status == "added":
        return False
    if _metadata(path):
        return not dev_tooling(f)
    return ships(path) and not tooling_path(path)


def _metadata(path: str) -> bool:
    """A packaging metadata file (not a test's fixture, not a page's example)."""
    return path.rsplit("/", 1)[-1] in ROOT_METADATA and path_kind(path) == PathKind.BUILD


def _told(path: str, line: str) -> bool:
    """Whether a removed line is asked about: any of a shipped file's; a metadata file's
    but its version."""
    return not _metadata(path) or not _VERSION_LINE.match(line)


def edited_lines(commit: CommitInput) -> dict[str, list[tuple[int, int]]]:
    """The parent's line ranges (first, last) the commit's patches remove, by the parent's
    path, in shipped files and packaging metadata only (`_counted`); an empty map where such
    a file's patch is not known."""
    out: dict[str, list[tuple[int, int]]] = {}
    for f in commit.files:
        path = f.previous_filename or f.filename
        # developers' tools' settings (tox.ini, a coverage table) reach no user: no fix of them
        # mends what a release's user ran (platformdirs 5d16771)
        if not _counted(f):
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
                if not _told(path, line[1:]):
                    old += 1
                    continue
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
    """Of each line the commit's patches remove from shipped files (not the dev tools') and
    packaging metadata (`_counted`, `_told`), the parts it changes (`changed_parts`): a line
    edited after the release for another reason may keep, unchanged since that release, the
    very text the fix mends (tenacity 6a2a08b spaced `"types.TracebackType| None"`, which
    every release held, in a signature re-annotated after 9.1.4)."""
    out: list[str] = []
    for f in commit.files:
        path = f.previous_filename or f.filename
        if not _counted(f):
            continue
        for old, new in _replaced(f.patch or ""):
            if _told(path, old):
                out += changed_parts(old, new)
    return out


def _replaced(patch: str) -> list[tuple[str, str | None]]:
    """Each removed line of a patch with the added line of the same change that replaces it
    (the most alike, `_ALIKE`), or None where none does."""
    out: list[tuple[str, str | None]] = []
    minus: list[str] = []
    plus: list[str] = []
    for line in [*patch.split("\n"), ""]:
        if line.startswith("-") and not line.startswith("--- "):
            if plus:
                out += _paired(minus, plus)
                minus, plus = [], []
            minus.append(line[1:])
        elif line.startswith("+") and not line.startswith("+++ "):
            plus.append(line[1:])
        else:
            out += _paired(minus, plus)
            minus, plus = [], []
    return out


def _paired(minus: list[str], plus: list[str]) -> list[tuple[str, str | None]]:
    if len(minus) * len(plus) > _MAX_PAIRS:
        return [(line, None) for line in minus]
    out: list[tuple[str, str | None]] = []
    for line in minus:
        scored = [(difflib.SequenceMatcher(None, line.strip(), p.strip()).ratio(), p) for p in plus]
        best = max(scored, default=(0.0, ""), key=lambda pair: pair[0])
        out.append((line, best[1] if best[0] >= _ALIKE else None))
    return out


def changed_parts(old: str, new: str | None) -> list[str]:
    """The parts of the removed line `old` that `new`, the line replacing it, changes: the
    tokens that differ, with the tokens before them back to a word (`include_uname =`) and,
    apart, with those after them on to a word, each widened on that side until it may tell
    a release held it (`release_lines.telling`). A release holding either held the text the
    edit mends (tenacity 6a2a08b's `traceback: "types.TracebackType| None"`); the token
    alone may be anywhere (distro's `include_lsb`). The whole line where nothing replaces
    it, where only its spaces change, or where the edit leaves no token on either side."""
    if new is None:
        return [old]
    was = list(_TOKEN.finditer(old))
    now = [m.group() for m in _TOKEN.finditer(new)]
    words = [m.group() for m in was]
    if words == now or not was:
        return [old]
    lo = 0
    while lo < min(len(words), len(now)) and words[lo] == now[lo]:
        lo += 1
    tail = 0
    while tail < min(len(words), len(now)) - lo and words[-1 - tail] == now[-1 - tail]:
        tail += 1
    hi = len(words) - tail
    parts: list[str] = []
    if lo > 0:
        end = was[hi - 1].end() if hi > lo else was[lo - 1].end()
        first = lo - 1
        while first > 0 and not (
            _WORDISH.search(words[first]) and telling([old[was[first].start() : end]])
        ):
            first -= 1
        parts.append(old[was[first].start() : end])
    if hi < len(was):
        begin = was[lo].start() if hi > lo else was[hi].start()
        last = hi
        while last < len(was) - 1 and not (
            _WORDISH.search(words[last]) and telling([old[begin : was[last].end()]])
        ):
            last += 1
        parts.append(old[begin : was[last].end()])
    return parts or [old]


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
