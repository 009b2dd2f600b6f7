"""What a commit adds and what its break is about, by name, for a day's digest to read together."""

from __future__ import annotations

from bot.analysis.facts import parameter_name, read_facts
from bot.analysis.facts.kept import last_read
from bot.analysis.rules import says_breaking
from bot.analysis.shield import shield
from bot.analysis.signals import read_signals
from bot.analysis.titles import merged_message
from bot.analysis.wording import named_breaks, unnamed_breaks
from bot.models import Analysis, CommitInput, DayNames


def day_names(commit: CommitInput, analysis: Analysis) -> DayNames:
    """The commit's names as `path::name`, read as the rules read it (the facts they just
    read serve again): those it adds (a file it adds as `path::*`, a parameter a function
    gains as `path::function(parameter)`; never a name that only moved, nor the file it
    moved into) and, where `analysis` is breaking, those its removal, rename or changed
    default is about."""
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
        return DayNames(added=tuple(dict.fromkeys(added)))
    sig = read_signals(commit, facts)
    return DayNames(
        added=tuple(dict.fromkeys(added)),
        breaks=named_breaks(sig),
        other=says_breaking(commit, sig) or unnamed_breaks(sig),
    )
