"""A day's fixes asked for a regression test that a later commit of the same day gives: the
ask is dropped. Pure.

Only where the later commit changes tests (its analysis says so) and its message cites an
issue the fix's message cites too ("fixes #542", then "Add test case for #542."); a test
that only exercises the fixed code without saying so is not proved to be its test, and the
ask stays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from bot.analysis.phrases import EN, ZH
from bot.models import ChangeType, DigestCommit

# "#542", "issue542", "issue 542", "issue-542", "GH-542"
_ISSUE = re.compile(r"(?:(?<![\w/])#|\bissues?[ _-]?|\bgh-)(\d+)\b", re.IGNORECASE)


@cache
def _asks() -> re.Pattern[str]:
    """The regression-test ask, in each language the analyser writes."""
    templates = (re.escape(p.no_test).replace(re.escape("{where}"), ".+?") for p in (EN, ZH))
    return re.compile("^(?:" + "|".join(templates) + ")$")


def _issues(message: str) -> set[str]:
    return set(_ISSUE.findall(message))


def answered_asks(commits: Sequence[DigestCommit]) -> tuple[DigestCommit, ...]:
    """The day's commits (in the order given), each fix whose regression-test ask a later
    test commit of the day answers, citing the same issue, without that ask."""
    out: list[DigestCommit] = []
    for commit in commits:
        a = commit.analysis
        asks = [] if a is None else [r for r in a.recommendations if _asks().match(r.text)]
        cited = _issues(commit.message or commit.title) if asks else set()
        if (
            a is None
            or not cited
            or not any(
                later.landed_at > commit.landed_at
                and later.analysis is not None
                and ChangeType.TESTS in later.analysis.change_types
                and cited & _issues(later.message or later.title)
                for later in commits
            )
        ):
            out.append(commit)
            continue
        kept = [r for r in a.recommendations if r not in asks]
        out.append(replace(commit, analysis=a.model_copy(update={"recommendations": kept})))
    return tuple(out)
