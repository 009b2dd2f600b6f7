"""Which names a commit's added lines quote were already quoted in its parent's whole tree.

A setting (an environment variable, a configuration key) a changed file starts reading is
new only if nothing in the repository read it before, and most of a repository is not in a
commit's files. Offline the clone holds the parent's tree: one `git grep` a commit answers.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.cli.git import CloneError, run_git
from bot.models import CommitInput

# Quoted names on an added line that may read a setting: `getenv("X")`, `cfg.get("key")`,
# `os.environ["X"]`, `getattr(cfg, "key")`.
_READING = re.compile(r"env|\.get\(|getattr\(|\[[\"']", re.IGNORECASE)
_QUOTED = re.compile(r"""["']([A-Za-z_][\w.-]{1,79})["']""")
# Past this many names a commit adds a table, not settings: the search is skipped.
_MAX_NAMES = 200


def candidates(commit: CommitInput) -> list[str]:
    """The names the added lines of the commit's patches quote where a setting may be read."""
    found: dict[str, None] = {}
    for f in commit.files:
        for line in (f.patch or "").split("\n"):
            if line.startswith("+") and _READING.search(line):
                found.update(dict.fromkeys(_QUOTED.findall(line)))
    return list(found)


def quoted_before(path: Path, commit: CommitInput) -> frozenset[str] | None:
    """Those of `candidates` the parent's tree quotes anywhere (`"X"`, `'X'`, `$X`, `${X}`);
    None when it cannot be told (no parent, too many names, git failed)."""
    names = candidates(commit)
    if not names:
        return frozenset()
    if len(names) > _MAX_NAMES:
        return None
    patterns = [
        p for n in names for p in (f'"{n}"', f"'{n}'", *((f"${n}", f"${{{n}") * n.isupper()))
    ]
    args = [a for p in patterns for a in ("-e", p)]
    try:
        result = run_git(path, "grep", "-F", "-o", "-h", "-I", *args, f"{commit.sha}^", timeout=120)
    except CloneError:
        return None
    # 1: nothing matched; anything else but 0 is an error (no parent, a bad revision)
    if result.returncode not in (0, 1):
        return None
    seen = {line.split(":", 1)[-1].strip("\"'${") for line in result.stdout.splitlines()}
    return frozenset(n for n in names if n in seen)


def with_quoted_before(path: Path, commit: CommitInput) -> CommitInput:
    """The commit with `quoted_before` filled from the clone at `path`."""
    return commit.model_copy(update={"quoted_before": quoted_before(path, commit)})
