"""The diff budget: which hunks of which files fit in the LLM prompt, and what was left out.

Source files come before tests, docs, CI and lock files; a file's hunks are kept or dropped
whole (parsed with unidiff), never cut mid-hunk. A first pass gives every file a fair share
of the budget, a second pass fills what is left in priority order.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from bot.analysis.paths import PathKind, path_kind
from bot.models import FileChange

# Lower sorts first: what says most about a change goes in first.
_PRIORITY = {
    PathKind.SOURCE: 0,
    PathKind.PUBLIC_API: 0,
    PathKind.KERNEL: 0,
    PathKind.CONFIG: 1,
    PathKind.BUILD: 2,
    PathKind.TESTS: 3,
    PathKind.DATA: 3,
    PathKind.DOCS: 4,
    PathKind.CI: 4,
    PathKind.LEGAL: 4,
}
_LOCK_SUFFIXES = (".lock", "-lock.json", "lock.yaml", ".sum")
_MIN_SHARE = 400
# The account of what was left out fits in this many tokens (it names fewer files if need be).
OMISSIONS_TOKENS = 400


def estimate_tokens(text: str) -> int:
    """A conservative token count without a tokenizer: about 3.5 UTF-8 bytes a token.

    Code and English run 3.5–4.5 bytes a token with common BPE vocabularies, so this rather
    overestimates, which keeps the prompt within the model's window.
    """
    return math.ceil(len(text.encode("utf-8")) / 3.5)


def _priority(f: FileChange) -> tuple[int, int]:
    if f.filename.endswith(_LOCK_SUFFIXES):
        return (9, 0)
    return (_PRIORITY[path_kind(f.filename)], -f.changes)


_HUNK_HEADER = re.compile(r"^@@ ", re.MULTILINE)


def hunks(patch: str, filename: str) -> list[str]:
    """A GitHub `patch` (hunks without file headers) split into hunks."""
    try:
        parsed = PatchSet(f"--- a/{filename}\n+++ b/{filename}\n{patch}\n")
        split = [str(h).rstrip("\n") for f in parsed for h in f]
    except UnidiffParseError:
        split = []
    if split:
        return split
    # Line counts that do not add up (a patch cut by GitHub): split at the hunk headers.
    starts = [m.start() for m in _HUNK_HEADER.finditer(patch)] or [0]
    if starts[0] != 0:
        starts.insert(0, 0)
    return [patch[a:b].rstrip("\n") for a, b in zip(starts, [*starts[1:], len(patch)], strict=True)]


@dataclass
class FileDiff:
    filename: str
    included: list[str] = field(default_factory=list)
    total_hunks: int = 0

    @property
    def omitted_hunks(self) -> int:
        return self.total_hunks - len(self.included)


@dataclass
class BudgetedDiff:
    """The diff that fits, in prompt order, and a plain account of what did not."""

    files: list[FileDiff]
    tokens: int
    files_without_patch: list[str]

    def text(self) -> str:
        parts = []
        for f in self.files:
            if not f.included:
                continue
            note = (
                f" ({f.omitted_hunks} of {f.total_hunks} hunks left out)" if f.omitted_hunks else ""
            )
            parts.append(f"--- {f.filename}{note}\n" + "\n".join(f.included))
        return "\n\n".join(parts)

    def omissions(self) -> str:
        """What the model is told it does not see, within OMISSIONS_TOKENS."""
        for limit in (10, 5, 2, 0):
            text = self._omissions(limit)
            if estimate_tokens(text) <= OMISSIONS_TOKENS:
                return text
        return text

    def _omissions(self, limit: int) -> str:
        lines = []
        dropped = [f.filename for f in self.files if f.total_hunks and not f.included]
        partial = [f for f in self.files if f.included and f.omitted_hunks]
        if dropped:
            lines.append(f"Diff left out for {len(dropped)} files: {_names(dropped, limit)}")
        if partial:
            named = [f"{f.filename} ({f.omitted_hunks}/{f.total_hunks})" for f in partial]
            lines.append(f"Some hunks left out for {len(partial)} files: {_names(named, limit)}")
        if self.files_without_patch:
            lines.append(
                "No textual diff (binary, renamed, or too large) for "
                f"{len(self.files_without_patch)} files: {_names(self.files_without_patch, limit)}"
            )
        return "\n".join(lines) or "Nothing was left out."


def _names(names: list[str], limit: int) -> str:
    shown = ", ".join(names[:limit])
    rest = len(names) - limit
    return (shown + f" and {rest} more" if shown else f"{rest} files") if rest > 0 else shown


def _header_cost(diff: FileDiff) -> int:
    """A file's header line ("--- path (n of m hunks left out)") is paid with its first hunk."""
    if diff.included:
        return 0
    return estimate_tokens(f"--- {diff.filename} (999 of 999 hunks left out)") + 2


def budget_diff(files: list[FileChange], budget_tokens: int) -> BudgetedDiff:
    ordered = sorted(files, key=_priority)
    diffs: list[FileDiff] = []
    pending: list[tuple[FileDiff, list[str]]] = []
    without_patch = []
    for f in ordered:
        if not f.patch:
            without_patch.append(f.filename)
            continue
        split = hunks(f.patch, f.filename)
        diff = FileDiff(filename=f.filename, total_hunks=len(split))
        diffs.append(diff)
        pending.append((diff, split))

    used = 0
    share = max(_MIN_SHARE, budget_tokens // max(1, len(pending)))
    leftovers: list[tuple[FileDiff, str]] = []
    for diff, split in pending:
        spent = 0
        for hunk in split:
            cost = estimate_tokens(hunk) + 1 + _header_cost(diff)
            if spent + cost <= share and used + cost <= budget_tokens:
                diff.included.append(hunk)
                spent += cost
                used += cost
            else:
                leftovers.append((diff, hunk))
    for diff, hunk in leftovers:
        cost = estimate_tokens(hunk) + 1 + _header_cost(diff)
        if used + cost <= budget_tokens:
            diff.included.append(hunk)
            used += cost
    # Hunks taken in the second pass still print in the file's own order.
    for diff, split in pending:
        order = {h: i for i, h in enumerate(split)}
        diff.included.sort(key=lambda h: order[h])
    return BudgetedDiff(files=diffs, tokens=used, files_without_patch=without_patch)
