"""What a commit adds and what its break is about, by name, for a day's digest to read together."""

from __future__ import annotations

import hashlib
import re

from bot.analysis.facts import parameter_name, read_facts
from bot.analysis.facts.kept import last_read
from bot.analysis.rules import says_breaking
from bot.analysis.shield import shield
from bot.analysis.signals import read_signals
from bot.analysis.titles import merged_message
from bot.analysis.wording import named_breaks, unnamed_breaks
from bot.models import Analysis, CommitInput, DayNames

# Past this many added (or removed) lines a commit's lines are not kept: a day's digest then
# knows nothing of them (a revert of a big change is seen by its message alone).
_MAX_LINES = 400
# towncrier's (scriv's) news fragments, and the changelog they are built into
_FRAGMENT = re.compile(
    r"(?:^|/)(?:newsfragments|changelog\.d|news|changes\.d)/[^/]+$", re.IGNORECASE
)
_CHANGELOG = re.compile(
    r"(?:^|/)(?:CHANGES|CHANGELOG|HISTORY|NEWS|RELEASE[-_]?NOTES)(?:\.\w+)?$", re.IGNORECASE
)
_BULLET = re.compile(r"^[-*+]\s+")


def _squeezed(line: str) -> str:
    """A line's words, its bullet and spacing aside."""
    return " ".join(_BULLET.sub("", line.strip()).split())


def _built(commit: CommitInput) -> set[str]:
    """The lines (`_squeezed`, none blank) the commit adds to a changelog."""
    return {
        text
        for f in commit.files
        if _CHANGELOG.search(f.filename)
        for line in (f.patch or "").split("\n")
        if line.startswith("+") and not line.startswith("+++ ") and (text := _squeezed(line[1:]))
    }


def _fingerprint(path: str, line: str) -> str:
    return hashlib.blake2b(f"{path}\n{line}".encode(), digest_size=6).hexdigest()


def _file_key(path: str) -> str:
    """The part of a line's fingerprint that names its file (`FILE:LINE`): a day's digest
    reads one file's lines together (`bot/digest/undone.py`)."""
    return hashlib.blake2b(path.encode(), digest_size=4).hexdigest()


def lines_of(commit: CommitInput) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Fingerprints of the lines the commit's patches add and remove (a file's path with the
    line, exactly), each as `FILE:LINE` (`FILE` its path's alone); None where a file's patch
    is not known or there are too many."""
    if not commit.files_known:
        return None
    added: list[str] = []
    removed: list[str] = []
    built = _built(commit)
    for f in commit.files:
        if f.patch is None:
            if f.additions or f.deletions:
                return None
            continue
        before = f.previous_filename or f.filename
        now_key, before_key = _file_key(f.filename), _file_key(before)
        for line in f.patch.split("\n"):
            if line.startswith(("+++ b/", "+++ /dev/null", "--- a/", "--- /dev/null")):
                continue
            if line.startswith("+"):
                added.append(f"{now_key}:{_fingerprint(f.filename, line[1:])}")
            elif line.startswith("-"):
                if _FRAGMENT.search(before) and _squeezed(line[1:]) in built:
                    # a news fragment built into the changelog is released, not undone
                    # (inflect 504e023 moved 3f7e9b3's fragment into NEWS.rst under v7.2.1)
                    continue
                removed.append(f"{before_key}:{_fingerprint(before, line[1:])}")
    if len(added) > _MAX_LINES or len(removed) > _MAX_LINES:
        return None
    return tuple(added), tuple(removed)


def day_names(commit: CommitInput, analysis: Analysis) -> DayNames:
    """The commit's names as `path::name`, read as the rules read it (the facts they just
    read serve again): those it adds (a file it adds as `path::*`, a parameter a function
    gains as `path::function(parameter)`; never a name that only moved, nor the file it
    moved into) and, where `analysis` is breaking, those its removal, rename or changed
    default is about."""
    lines = lines_of(commit)
    added_lines, removed_lines = lines if lines is not None else (None, None)
    read = last_read(commit.sha)
    if read is None:
        commit = shield(commit).commit
        landed = merged_message(commit.message)
        if landed is not None:
            commit = commit.model_copy(update={"message": landed})
        read = commit, read_facts(commit)
    commit, facts = read
    # A name that moved was there before, under its old path: a change to it later the same
    # day is its users' break (`x.py` become `x/__init__.py`: the same import), and a file
    # names moved into is no new file, only its own new names are.
    moved = {(r.new.path, r.new.name) for r in facts.moved}
    moved_into = {path for path, _ in moved}
    added = (
        *(f"{f.path}::*" for f in facts.files if f.status == "added" and f.path not in moved_into),
        *(
            f"{n.path}::{n.name}"
            for n in (*facts.added, *facts.exports_added)
            if (n.path, n.name) not in moved
        ),
        *(f"{r.new.path}::{r.new.name}" for r in facts.renamed),
        *(f"{c.path}::{c.name}" for c in facts.constants_added),
        *(f"{c.path}::{c.new}" for c in facts.constants_renamed),
        *(
            f"{s.path}::{s.name}({parameter_name(p)})"
            for s in facts.signatures_changed
            for p in s.gained
        ),
    )
    if not analysis.breaking:
        return DayNames(
            added=tuple(dict.fromkeys(added)),
            added_lines=added_lines,
            removed_lines=removed_lines,
        )
    sig = read_signals(commit, facts)
    return DayNames(
        added=tuple(dict.fromkeys(added)),
        breaks=named_breaks(sig),
        other=says_breaking(commit, sig) or unnamed_breaks(sig),
        added_lines=added_lines,
        removed_lines=removed_lines,
    )
