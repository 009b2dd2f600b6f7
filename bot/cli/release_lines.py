"""Whether a release's shipped files hold the lines a commit removes, by their content: a
line moved to another file, re-indented or re-wrapped after the release is still the code that
release ran (mistune b77ee58 fixed a branch 0396492 had moved into `_inline/links.py` that same
day; v3.3.3's `inline_parser.py` held it). `git blame` of the moved line starts at the move."""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from bot.analysis.packaging_files import ROOT_METADATA
from bot.analysis.paths import PathKind, path_kind, ships, tooling_path

_SPACE = re.compile(r"\s+")
# A removed line whose text (spaces aside) is shorter than this, or holds no letter, is one
# any release holds somewhere (`return pos`, `else:`, `)`): it tells nothing of where the
# code came from, and is not asked about.
_TELLING = 10
_LETTER = re.compile(r"[A-Za-z]")
# Past this many bytes a release's shipped files are not read (a vendored tree): not told.
_MAX_BYTES = 64 * 1024 * 1024


def bare(line: str) -> str:
    """A line's text with every space, tab and line break taken out: a re-wrap or a re-indent
    leaves it the same."""
    return _SPACE.sub("", line)


def telling(lines: Iterable[str]) -> list[str]:
    """The bare texts of those of `lines` that may tell a release held them (`_TELLING`)."""
    out = (bare(line) for line in lines)
    return list(dict.fromkeys(t for t in out if len(t) >= _TELLING and _LETTER.search(t)))


@lru_cache(maxsize=4)
def _shipped_text(path: str, tag: str) -> str | None:
    """The bare texts of the tag's shipped files and packaging metadata (its requirements
    reach every install), one after another (a NUL between two); None where git failed or
    the tree is past `_MAX_BYTES`."""
    try:
        done = subprocess.run(
            ["git", "-C", path, "archive", "--format=tar", f"refs/tags/{tag}"],
            capture_output=True,
            check=False,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0 or len(done.stdout) > _MAX_BYTES:
        return None
    texts: list[str] = []
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        for member in tar:
            if not member.isfile() or not _shipped(member.name):
                continue
            data = tar.extractfile(member)
            if data is None:
                continue
            raw = data.read()
            if b"\0" in raw[:8000]:
                continue
            texts.append(bare(raw.decode("utf-8", "replace")))
    return "\0".join(texts)


def _shipped(name: str) -> bool:
    """A file of a release its users got: shipped code, or the packaging metadata."""
    if name.rsplit("/", 1)[-1] in ROOT_METADATA and path_kind(name) == PathKind.BUILD:
        return True
    return ships(name) and not tooling_path(name)


def held_by(path: Path, tag: str, removed: Iterable[str]) -> str | None:
    """The first of the `removed` lines (as written) whose bare text some shipped file of the
    tag holds; '' where none does; None where it cannot be told: git failed, or no removed
    line is telling (a fix of `return pos` alone may be of released code)."""
    lines = list(removed)
    asked = telling(lines)
    if not asked:
        return None
    text = _shipped_text(str(path), tag)
    if text is None:
        return None
    for line in lines:
        b = bare(line)
        if b in asked and b in text:
            return line.strip()
    return ""
