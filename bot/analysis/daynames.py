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
    gains as `path::function(parameter)`) and, where `analysis` is breaking, those its
    removal, rename or changed default is about."""
    read = last_read(commit.sha)
    if read is None:
        commit = shield(commit).commit
        landed = merged_message(commit.message)
        if landed is not None:
            commit = commit.model_copy(update={"message": landed})
        read = commit, read_facts(commit)
    commit, facts = read
    added = (
        *(f"{f.path}::*" for f in facts.files if f.status == "added"),
        *(f"{n.path}::{n.name}" for n in (*facts.added, *facts.exports_added)),
        *(f"{r.new.path}::{r.new.name}" for r in (*facts.renamed, *facts.moved)),
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
