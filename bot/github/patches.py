"""A series of commits in `git format-patch` form (what GitHub's compare API answers with the
`application/vnd.github.patch` media type) split into each commit's files, shaped like the
`files` of GitHub's "get a commit".

Every commit's parsed files are checked against its own diffstat summary (files changed,
insertions, deletions); a commit that does not add up, uses quoted path names, or is missing
from the series (GitHub leaves merge commits out, as `git format-patch` does) is not
returned, and its caller fetches it on its own.
"""

from __future__ import annotations

import re
from typing import Any

_FROM = re.compile(r"^From ([0-9a-f]{40}) Mon Sep 17 00:00:00 2001$", re.MULTILINE)
_SUMMARY = re.compile(
    r"^ (\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?$"
)
_DIFF = re.compile(r"^diff --git a/(.+) b/(.+)$")
_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def split_series(text: str) -> dict[str, str]:
    """Each commit's part of the series, by sha."""
    starts = list(_FROM.finditer(text))
    return {
        m.group(1): text[m.end() : starts[i + 1].start() if i + 1 < len(starts) else len(text)]
        for i, m in enumerate(starts)
    }


def _diff_start(lines: list[str]) -> tuple[int, tuple[int, int, int]] | None:
    """Where the diffs begin, and the diffstat's (files, insertions, deletions)."""
    for i, line in enumerate(lines):
        match = _SUMMARY.match(line)
        if not match:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j < len(lines) and lines[j].startswith("diff --git "):
            counts = tuple(int(g or 0) for g in match.groups())
            return j, (counts[0], counts[1], counts[2])
    return None


def _file(header: list[str], hunks: list[str], adds: int, dels: int) -> dict[str, Any] | None:
    match = _DIFF.match(header[0])
    if match is None or header[0].startswith('diff --git "'):
        return None
    old = new = None
    status = "modified"
    binary = False
    for line in header[1:]:
        if line.startswith("new file mode"):
            status = "added"
        elif line.startswith("deleted file mode"):
            status = "removed"
        elif line.startswith("rename from "):
            status, old = "renamed", line[len("rename from ") :]
        elif line.startswith("rename to "):
            new = line[len("rename to ") :]
        elif line.startswith("copy from "):
            status, old = "copied", line[len("copy from ") :]
        elif line.startswith("copy to "):
            new = line[len("copy to ") :]
        elif line.startswith("--- a/") and old is None:
            old = line[len("--- a/") :]
        elif line.startswith("+++ b/") and new is None:
            new = line[len("+++ b/") :]
        elif line.startswith(("Binary files ", "GIT binary patch")):
            binary = True
    if any(name is not None and name.startswith('"') for name in (old, new)):
        return None  # C-quoted names: leave this commit to the "get a commit" call
    if new is None:
        a, b = match.groups()
        new = a if status == "removed" else b
    entry: dict[str, Any] = {
        "filename": new,
        "status": status,
        "additions": adds,
        "deletions": dels,
        "changes": adds + dels,
    }
    if status in ("renamed", "copied") and old is not None:
        entry["previous_filename"] = old
    if hunks and not binary:
        entry["patch"] = "\n".join(hunks)
    return entry


def parse_commit_files(part: str) -> list[dict[str, Any]] | None:
    """One commit's files from its part of the series, or None when it does not add up."""
    lines = part.split("\n")
    start = _diff_start(lines)
    if start is None:
        return None
    i, (want_files, want_adds, want_dels) = start
    files: list[dict[str, Any]] = []
    while i < len(lines) and lines[i].startswith("diff --git "):
        header = [lines[i]]
        i += 1
        while i < len(lines) and not lines[i].startswith(("@@ ", "diff --git ")):
            if lines[i] in ("-- ", ""):
                break  # the series' signature, or the end of this commit
            header.append(lines[i])
            i += 1
        hunks: list[str] = []
        adds = dels = 0
        while i < len(lines) and lines[i].startswith("@@ "):
            hunk = _HUNK.match(lines[i])
            if hunk is None:
                return None
            old_left = int(hunk.group(1) if hunk.group(1) is not None else 1)
            new_left = int(hunk.group(2) if hunk.group(2) is not None else 1)
            hunks.append(lines[i])
            i += 1
            while (old_left > 0 or new_left > 0) and i < len(lines):
                line = lines[i]
                if line.startswith("\\"):
                    hunks.append(line)
                elif line.startswith("-"):
                    old_left, dels = old_left - 1, dels + 1
                    hunks.append(line)
                elif line.startswith("+"):
                    new_left, adds = new_left - 1, adds + 1
                    hunks.append(line)
                elif line.startswith(" ") or line == "":
                    old_left, new_left = old_left - 1, new_left - 1
                    hunks.append(line)
                else:
                    return None
                i += 1
            if old_left or new_left:
                return None
            while i < len(lines) and lines[i].startswith("\\"):
                hunks.append(lines[i])
                i += 1
        entry = _file(header, hunks, adds, dels)
        if entry is None:
            return None
        files.append(entry)
    if (
        len(files) != want_files
        or sum(f["additions"] for f in files) != want_adds
        or sum(f["deletions"] for f in files) != want_dels
    ):
        return None
    return files


def commits_from_series(text: str, wanted: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The files of each wanted commit the series holds and that add up."""
    parts = split_series(text)
    found: dict[str, list[dict[str, Any]]] = {}
    for sha in wanted:
        part = parts.get(sha)
        files = parse_commit_files(part) if part is not None else None
        if files is not None:
            found[sha] = files
    return found
