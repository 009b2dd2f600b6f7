"""How large a clone's changed files are, asked of git before any patch is read, and git output
read within a cap: a 50 MB patch is never held whole (GitHub leaves such a patch out anyway)."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from bot.cli.git import CloneError, git

_ZERO = "0" * 40
# The first-parent comparison `git diff-tree --stdin` makes for each commit, as the patches'.
_RAW = (
    "diff-tree",
    "--stdin",
    "-r",
    "-M",
    "--root",
    "--diff-merges=first-parent",
    "--raw",
    "--no-abbrev",
    "-z",
)


def changed_sizes(path: Path, shas: Sequence[str]) -> dict[str, dict[str, int]]:
    """Per commit, per changed path (the new name), the bytes of its blob before and after
    added together: a file's patch can be no larger than about twice that."""
    raw = git(path, *_RAW, stdin="\n".join(shas) + "\n", errors="surrogateescape")
    blobs: dict[str, list[tuple[str, list[str]]]] = {}
    current: list[tuple[str, list[str]]] | None = None
    fields = raw.split("\0")
    i = 0
    while i < len(fields):
        field = fields[i].strip("\n")
        if not field.startswith(":"):
            if field:
                current = blobs.setdefault(field, [])
            i += 1
            continue
        # `:old-mode new-mode old-sha new-sha status`, then one path (two for R and C).
        _, _, old, new, status = field[1:].split(" ", 4)
        paths = 2 if status[:1] in ("R", "C") else 1
        name = fields[i + paths]
        if current is not None:
            current.append((name, [s for s in (old, new) if s != _ZERO]))
        i += 1 + paths
    wanted = sorted({s for entries in blobs.values() for _, pair in entries for s in pair})
    sizes: dict[str, int] = {}
    if wanted:
        checked = git(
            path,
            "cat-file",
            "--batch-check",
            stdin="\n".join(wanted) + "\n",
            errors="surrogateescape",
        )
        for line in checked.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2].isdigit():
                sizes[parts[0]] = int(parts[2])
    return {
        sha: {name: sum(sizes.get(s, 0) for s in pair) for name, pair in entries}
        for sha, entries in blobs.items()
    }


def capped_output(path: Path, args: Sequence[str], cap: int) -> str | None:
    """git's output, or None as soon as it passes `cap` bytes (git is stopped)."""
    try:
        proc = subprocess.Popen(
            ["git", "-C", str(path), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except FileNotFoundError as exc:
        raise CloneError("git is not installed") from exc
    with proc:
        stream = proc.stdout
        assert stream is not None
        chunks: list[bytes] = []
        read = 0
        for chunk in iter(lambda: stream.read(65536), b""):
            read += len(chunk)
            if read > cap:
                proc.kill()
                return None
            chunks.append(chunk)
    if proc.returncode != 0:
        raise CloneError(f"git {args[0]} failed in {path}")
    return b"".join(chunks).decode("utf-8", "replace")
