"""Which names a commit's added lines quote were already quoted in its parent's whole tree,
and which its removed lines quote are still quoted in its own.

A setting (an environment variable, a configuration key) a changed file starts reading is
new only if nothing in the repository read it before, and one a file stops reading is gone
only if nothing reads it after; most of a repository is not in a commit's files. Offline
the clone holds the trees: one `git grep` answers a commit, and one answers a run of commits
each the next one's parent, their patches told in between.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.cli.git import CloneError, run_git
from bot.github.limits import MAX_COMMIT_FILES
from bot.models import CommitInput

# Quoted names on an added line that may read a setting: `getenv("X")`, `cfg.get("key")`,
# `os.environ["X"]`, `getattr(cfg, "key")`.
_READING = re.compile(r"env|\.get\(|getattr\(|\[[\"']", re.IGNORECASE)
_QUOTED = re.compile(r"""["']([A-Za-z_][\w.-]{1,79})["']""")
# Past this many names a commit adds a table, not settings: the search is skipped.
_MAX_NAMES = 200
# Where a line quotes a name as `_patterns` spells it (overlapping quotes included): the
# name between two like quotes, or the word after `$` or `${`, each prefix of which counts.
_QUOTE_AT = re.compile(r"""(?=(["'])([A-Za-z_][\w.-]*)\1)""")
_DOLLAR_AT = re.compile(r"\$\{?([\w.-]+)")


def candidates(commit: CommitInput, sign: str = "+") -> list[str]:
    """The names the added (`+`) or removed (`-`) lines of the commit's patches quote where a
    setting may be read."""
    found: dict[str, None] = {}
    for f in commit.files:
        for line in (f.patch or "").split("\n"):
            if line.startswith(sign) and _READING.search(line):
                found.update(dict.fromkeys(_QUOTED.findall(line)))
    return list(found)


@dataclass(frozen=True)
class Quoted:
    """Of the names a commit's added lines quote, those its parent's tree quotes (`before`);
    of those its removed lines quote, those its own tree still quotes (`after`). None: not
    told (no parent, too many names, git failed, patches that do not hold every line)."""

    before: frozenset[str] | None
    after: frozenset[str] | None


def quoted_before(path: Path, commit: CommitInput) -> frozenset[str] | None:
    """Those of `candidates` the parent's tree quotes anywhere (`"X"`, `'X'`, `$X`, `${X}`);
    None when it cannot be told (no parent, too many names, git failed). A day of one
    commit: `quoted_before_each` is the one search."""
    return quoted_before_each(path, [commit])[0]


def _patterns(names: Sequence[str]) -> list[str]:
    """What quotes a name: `"X"`, `'X'`, and for an upper-case one `$X`, `${X`."""
    return [p for n in names for p in (f'"{n}"', f"'{n}'", *((f"${n}", f"${{{n}") * n.isupper()))]


def quoted_before_each(path: Path, commits: Sequence[CommitInput]) -> list[frozenset[str] | None]:
    """`quoted_before` of each commit (`quoted_each`'s `before`)."""
    return [q.before for q in quoted_each(path, commits)]


def quoted_each(path: Path, commits: Sequence[CommitInput]) -> list[Quoted]:
    """What each commit's trees quote, with one `git grep` for a run of commits each the next
    one's first parent: the first one's parent tree is searched for every name the run asks
    about, line by line, and each commit's patches then add and take away the lines that
    quote them. A commit its patches cannot account for (a file without one, the file list
    cut) has the tree after it searched anew."""
    asked = [_asked(c) for c in commits]
    # no name asked, no tree to search (nor parents to look up)
    parents = _first_parents(path, [c.sha for c in commits]) if any(asked) else {}
    out: list[Quoted] = []
    # name -> lines of the current commit's parent tree that quote it, for the names asked
    # from the last search on; None: not known
    held: Counter[str] | None = None
    asked_of: set[str] = set()
    for i, commit in enumerate(commits):
        parent = parents.get(commit.sha)
        if held is None or i == 0 or parent != commits[i - 1].sha:
            asked_of = {n for names in asked[i:] if names for side in names for n in side}
            held = None if parent is None else _quoting_lines(path, parent, asked_of)
        names = asked[i]
        before = _held(names[0] if names else names, held)
        if held is not None:
            held = _after(commit, held, asked_of)
        out.append(Quoted(before, _held(names[1] if names else names, held)))
    return out


def _held(names: list[str] | None, held: Counter[str] | None) -> frozenset[str] | None:
    """Those of `names` a tree quotes; None where the names or the tree are not known."""
    if names is None or (names and held is None):
        return None
    return frozenset(n for n in names if held is not None and held[n] > 0)


def _asked(commit: CommitInput) -> tuple[list[str], list[str]] | None:
    """The names a commit asks about: those its added lines quote, and its removed lines;
    None past `_MAX_NAMES`."""
    added, removed = candidates(commit), candidates(commit, "-")
    return None if len(added) + len(removed) > _MAX_NAMES else (added, removed)


def _first_parents(path: Path, shas: Sequence[str]) -> dict[str, str]:
    """Each commit's first parent, where it has one (one `git rev-list`)."""
    if not shas:
        return {}
    try:
        result = run_git(
            path,
            "rev-list",
            "--no-walk=unsorted",
            "--parents",
            "--stdin",
            stdin="".join(f"{sha}\n" for sha in shas),
            timeout=120,
        )
    except CloneError:
        return {}
    if result.returncode != 0:
        return {}
    return {
        fields[0]: fields[1]
        for fields in (line.split() for line in result.stdout.splitlines())
        if len(fields) > 1
    }


def _quoting_lines(path: Path, tree: str, names: set[str]) -> Counter[str] | None:
    """Per name, the lines of `tree` (text files) that quote it; None where git failed."""
    if not names:
        return Counter()
    ordered = sorted(names)
    upper = [n for n in ordered if n.isupper()]
    # One expression, not a fixed string a pattern: git tries each of many fixed strings on
    # every line, and a day asks about hundreds of names.
    quoted = f"([\"'])(?:{'|'.join(map(_escaped, ordered))})\\1"
    expression = f"{quoted}|\\$\\{{?(?:{'|'.join(map(_escaped, upper))})" if upper else quoted
    result = _grep(path, tree, ["-P"], expression)
    if result is None or result.returncode not in (0, 1):
        # a git built without Perl expressions
        result = _grep(path, tree, ["-F"], "\n".join(_patterns(ordered)))
    # 1: nothing matched; anything else but 0 is an error
    if result is None or result.returncode not in (0, 1):
        return None
    held: Counter[str] = Counter()
    for line in result.stdout.split("\n"):
        held.update(_quoted_in(line, names))
    return held


def _escaped(name: str) -> str:
    return re.sub(r"[.-]", r"\\\g<0>", name)


def _grep(
    path: Path, tree: str, kind: list[str], patterns: str
) -> subprocess.CompletedProcess[str] | None:
    try:
        return run_git(
            path, "grep", *kind, "-h", "-I", "-f", "-", tree, stdin=f"{patterns}\n", timeout=120
        )
    except CloneError:
        return None


def _quoted_in(line: str, names: set[str]) -> set[str]:
    """The names of `names` the line quotes as `_patterns` spells them."""
    found = {m.group(2) for m in _QUOTE_AT.finditer(line)} & names
    for m in _DOLLAR_AT.finditer(line):
        word = m.group(1)
        found.update(n for k in range(1, len(word) + 1) if (n := word[:k]) in names and n.isupper())
    return found


def _after(commit: CommitInput, held: Counter[str], names: set[str]) -> Counter[str] | None:
    """`held` for the commit's own tree, from its patches' added and removed lines; None
    where the patches do not hold every changed line."""
    if len(commit.files) >= MAX_COMMIT_FILES:
        return None
    for f in commit.files:
        if not f.patch:
            # Without lines counted, a file added, removed or renamed is binary or empty, which
            # `git grep -I` skips too; one modified may have turned binary from text, and
            # one past GitHub's limits has lines no patch shows.
            if f.status in ("added", "removed", "renamed") and not (f.additions or f.deletions):
                continue
            return None
        for line in f.patch.split("\n"):
            sign = line[:1]
            if sign in ("+", "-"):
                for name in _quoted_in(line, names):
                    held[name] += 1 if sign == "+" else -1
    return held


def with_quoted_before(path: Path, commit: CommitInput) -> CommitInput:
    """The commit with `quoted_before` and `quoted_after` filled from the clone at `path`."""
    quoted = quoted_each(path, [commit])[0]
    return commit.model_copy(update={"quoted_before": quoted.before, "quoted_after": quoted.after})
