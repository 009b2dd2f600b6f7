"""A merge of a GitHub security advisory's temporary private fork, and what its shipped code
guards: a regular expression, a size or count limit, a check of its input."""

from __future__ import annotations

import re

from bot.analysis.facts.records import Turn
from bot.analysis.signals import Signals
from bot.models import CommitInput

# The title GitHub gives the merge commit that lands a repository security advisory's
# temporary private fork ("Merge pull request(s)" on the advisory's page): the advisory's
# merge always makes a merge commit, whatever the repository's merge settings and whatever
# message its maintainer would have written (GitHub community discussion #200267, "Security
# advisory merge ignores merge strategy and commit message", on GHSA-m5ph-mmg5-6w5h; such
# merges: fleetdm/fleet pulls #26848 and #26853). The private fork itself:
# docs.github.com, "Collaborating in a temporary private fork to resolve a repository
# security vulnerability". Observed, not documented as a string: matched whole, nothing else.
# Squashed too, one parent, the fork's commits listed in its body as a squash lists them
# (soupsieve eb43976, the 2.8.4 fix to its attribute pattern `VALUE`): the same title.
ADVISORY_TITLE = "Merge commit from fork"

# A call that compiles or applies a regular expression (`re`'s functions, the `regex`
# package's same names)
_PATTERN_CALL = re.compile(
    r"\b(?:re|regex)\.(?:compile|match|fullmatch|search|sub|subn|split|findall|finditer)\("
)
# A name that says a bound on size or count (`MAX_DEPTH`, `max_line_size`, `limit`)
_BOUND = re.compile(r"(?i)(?:^|_|\b)(?:max|min|limit|size|depth|count|length|len)(?:_|$|\b)")


# How a condition that checks input changes: a new guard that raises, returns or skips, or
# its test rewritten (a check gone is none)
_CHECKS = frozenset({Turn.RAISES, Turn.RETURNS, Turn.SKIPS, Turn.CHANGED})


def advisory_merge(commit: CommitInput) -> bool:
    """Whether the commit is the merge of an advisory's private fork: its message's first
    line exactly GitHub's title for it, merged (two parents or more) or squashed (one). (The
    rules take it for a security fix only where it changes shipped code.)"""
    return commit.parents > 0 and commit.message.strip().partition("\n")[0] == ADVISORY_TITLE


# A string literal's nested repeat, the shape of a pattern that backtracks without end: a
# repeated item closing a group that is itself repeated (`(\d+)+`, `(?:[^"]+)*?`). In Python
# code `+)` and `*)` stand nowhere outside a string or a comment.
_NESTED = re.compile(r"[+*]\)[+*]")
# a line's own assignment to a name (`VALUE = fr'''...'''`)
_ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=[^=]")


def _in_string(line: str, at: int) -> bool:
    """Whether a quote opens before `at` on the line, no `#` before that quote."""
    head = line[:at]
    quote = min((i for i in (head.find('"'), head.find("'")) if i >= 0), default=-1)
    return quote >= 0 and "#" not in head[:quote]


def nested_repeats(line: str) -> int:
    """How many nested repeats (`+)*`) the line's string literals hold."""
    return sum(1 for m in _NESTED.finditer(line) if _in_string(line, m.start()))


def repeat_unnested(commit: CommitInput, sig: Signals) -> tuple[str, str, str] | None:
    """(the nested repeat, `+)*`; the name the pattern is assigned to, "" where the line
    assigns none; its file) of the first hunk of shipped Python code whose removed lines'
    string literals hold more nested repeats than its added lines' do."""
    shipped = set(sig.source_files)
    for f in commit.files:
        if f.filename not in shipped or not f.patch or not f.filename.endswith(".py"):
            continue
        for hunk in f.patch.split("\n@@"):
            lines = hunk.split("\n")
            gone = [x[1:] for x in lines if x.startswith("-") and not x.startswith("---")]
            came = [x[1:] for x in lines if x.startswith("+") and not x.startswith("+++")]
            if sum(map(nested_repeats, gone)) <= sum(map(nested_repeats, came)):
                continue
            line = next(x for x in gone if nested_repeats(x))
            shape = next(m for m in _NESTED.finditer(line) if _in_string(line, m.start()))
            m = _ASSIGNED.match(line)
            return shape.group(0), (m.group(1) if m else ""), f.filename
    return None


def guards_input(commit: CommitInput, sig: Signals) -> bool:
    """Whether the shipped code the change edits guards what it is handed: a changed line
    that compiles or applies a regular expression, a string literal that loses a nested
    repeat (`repeat_unnested`), a size or count bound set anew or changed
    (by a name that says so), or a check that newly raises, returns early, or narrows a
    guard."""
    shipped = set(sig.source_files)
    for f in commit.files:
        if f.filename not in shipped or not f.patch:
            continue
        changed = (
            line[1:]
            for line in f.patch.split("\n")
            if line[:1] in "+-" and not line.startswith(("+++", "---"))
        )
        if any(_PATTERN_CALL.search(line) for line in changed):
            return True
    if repeat_unnested(commit, sig) is not None:
        return True
    facts = sig.facts
    bounds = [
        (b.name, b.path)
        for b in (*facts.constants_changed, *facts.values_changed, *facts.defaults_changed)
    ] + [(c.name, c.path) for c in facts.constants_added]
    if any(path in shipped and _BOUND.search(name.rsplit(".", 1)[-1]) for name, path in bounds):
        return True
    checks = [
        *(r.path for r in facts.raises_added),
        *(g.path for g in facts.guards_narrowed),
        *(c.path for c in facts.conditions_changed if c.turn in _CHECKS),
    ]
    return any(path in shipped for path in checks)
