"""A diff's identity by content, like `git patch-id --stable`, from GitHub's per-file patches.

`git patch-id --stable` hashes each file's diff (its `diff --git` header, `---`/`+++` lines
and hunk lines, without the `@@` line numbers and with all whitespace removed) with SHA-1 and
adds the per-file digests as 160-bit numbers, so the order of files does not matter and a
cherry-pick onto another base (shifted line numbers) keeps the id. GitHub's `files[].patch`
holds only the hunks, so the header is rebuilt from the file's name and status; for modified
files this gives git's own value (a rename's `similarity index` line is not known). GitHub
gives no file modes, so an added or removed file is taken as mode 100644, and a file without
a patch (binary, or too large for GitHub to show) is hashed by its name and status instead
of its blob ids.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from bot.models import FileChange

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_SPACE = re.compile(rb"\s+")
_BITS = 160


def _squeezed(line: str) -> bytes:
    return _SPACE.sub(b"", line.encode("utf-8", "surrogateescape"))


def _header(f: FileChange) -> list[str]:
    old = f.previous_filename or f.filename
    new = f.filename
    lines = [f"diff --git a/{old} b/{new}"]
    if f.status == "added":
        return [*lines, "new file mode 100644", "--- /dev/null", f"+++ b/{new}"]
    if f.status == "removed":
        return [*lines, "deleted file mode 100644", f"--- a/{old}", "+++ /dev/null"]
    if f.previous_filename:
        # git also hashes a `similarity index` line, which GitHub does not give.
        lines += [f"rename from {old}", f"rename to {new}"]
    return [*lines, f"--- a/{old}", f"+++ b/{new}"]


def file_digest(f: FileChange) -> int:
    """One file's contribution to the patch-id."""
    digest = hashlib.sha1(usedforsecurity=False)
    if f.patch is None:
        digest.update(_squeezed(f"binary {f.status} {f.previous_filename or ''} {f.filename}"))
        return int.from_bytes(digest.digest(), "little")
    for line in _header(f):
        digest.update(_squeezed(line))
    for line in f.patch.split("\n"):
        # Hunk headers carry line numbers, which a cherry-pick shifts; git skips them, and
        # the "\ No newline at end of file" marker.
        if _HUNK.match(line) or line.startswith("\\ "):
            continue
        digest.update(_squeezed(line))
    return int.from_bytes(digest.digest(), "little")


def patch_id(files: Iterable[FileChange]) -> str | None:
    """The diff's patch-id (40 hex digits), or None for a commit that changes no file."""
    total = 0
    seen = False
    for f in files:
        total = (total + file_digest(f)) % (1 << _BITS)
        seen = True
    if not seen:
        return None
    return total.to_bytes(_BITS // 8, "little").hex()
