"""The one title grammar (`bot/analysis/titles.py`), case by case from the rule it states."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.analysis.signals import read_signals
from bot.analysis.titles import (
    Ref,
    follow_up_refs,
    git_reverted_shas,
    normalise_title,
    parse_title,
    pr_number,
    reverted_refs,
)
from bot.digest.alerts import undoes
from bot.digest.synthesis import LinkKind, synthesize
from bot.models import CommitInput, DigestCommit

PLAIN: dict[str, Any] = {
    "pr": None,
    "conventional": None,
    "scope": None,
    "bang": False,
    "revert": False,
    "reland": False,
    "undoes": None,
    "reverted": None,
    "relanded": None,
}


def revert_of(title: str, **more: Any) -> dict[str, Any]:
    return {"revert": True, "undoes": title, "reverted": title, **more}


def reland_of(title: str, **more: Any) -> dict[str, Any]:
    return {"reland": True, "relanded": title, **more}


CASES: list[tuple[str, dict[str, Any]]] = [
    # The pull request GitHub's squash merge appends; the last `(#N)` is the title's own.
    ("Add the cache (#12)", {"pr": 12}),
    ("Add the cache", {}),
    ("Add the cache (#12) (#20)", {"pr": 20}),
    ("Explain (#12) in the docs", {}),
    # Conventional commits: a known type, its scope and the breaking `!`.
    (
        "feat(scheduler)!: drop the v1 queue",
        {"conventional": "feat", "scope": "scheduler", "bang": True},
    ),
    ("feat: add GLM5 support (#4)", {"conventional": "feat", "pr": 4}),
    ("Fix: crash on start", {"conventional": "fix"}),
    ("wip: half a feature", {}),
    # Reverts: git's and GitHub's `Revert "Title"`, after any tags or a conventional prefix.
    ('Revert "Add foo"', revert_of("Add foo")),
    ('Revert "Add foo (#12)" (#15)', revert_of("Add foo (#12)", pr=15)),
    ('[Bugfix] Revert "Add foo"', revert_of("Add foo")),
    ('[Misc][Core] Revert "Add foo"', revert_of("Add foo")),
    (
        '[Revert] Revert "[BugFix] Fix ViT padding" (#10824) (#11994)',
        revert_of("[BugFix] Fix ViT padding (#10824)", pr=11994),
    ),
    ("revert: drop the v0 engine", revert_of("drop the v0 engine", conventional="revert")),
    ('Reverts "Add foo"', revert_of("Add foo")),
    ("Reverted: Add foo", revert_of("Add foo")),
    ("Revert “Add foo”", revert_of("Add foo")),
    ('fix: Revert "Add foo"', revert_of("Add foo", conventional="fix")),
    ("Revert", {"revert": True}),
    # A revert of a revert lands the change again; one more level takes it out again.
    (
        'Revert "Revert "Add foo (#12)"" (#16)',
        reland_of("Add foo (#12)", undoes='Revert "Add foo (#12)"', pr=16),
    ),
    (
        'Revert "Revert "Revert "Add foo"""',
        revert_of("Add foo", undoes='Revert "Revert "Add foo""'),
    ),
    ('Revert "Reland "Add foo""', revert_of("Add foo", undoes='Reland "Add foo"')),
    # Relands, in each spelling.
    ('Reland "Add foo"', reland_of("Add foo")),
    ('Re-land "Add foo"', reland_of("Add foo")),
    ("Re-land: Add foo", reland_of("Add foo")),
    ("Relanded Add foo", reland_of("Add foo")),
    ('Reapply "Add foo (#12)" (#17)', reland_of("Add foo (#12)", pr=17)),
    ('Re-apply "Add foo"', reland_of("Add foo")),
    ('Reapplied "Add foo"', reland_of("Add foo")),
    ("[Reland] Add foo (#18)", reland_of("Add foo", pr=18)),
    ("[Core][Reland] Add foo", reland_of("Add foo")),
    ('[Misc] Reland "Add foo"', reland_of("Add foo")),
    # Not a revert nor a reland: the verb is elsewhere, or another word begins the same way.
    ("Relax the rate limiter", {}),
    ("Reapportion the token budget", {}),
    ("Revertible writes for the cache", {}),
    ("Add a revert button", {}),
    ('Fix the "Revert" button label', {}),
]


@pytest.mark.parametrize(("title", "expected"), CASES)
def test_the_title_grammar(title: str, expected: dict[str, Any]) -> None:
    parsed = parse_title(title)
    want = {**PLAIN, **expected}
    assert {key: getattr(parsed, key) for key in want} == want
    # The PR number has one reading, whoever asks.
    assert pr_number(title) == want["pr"]


@pytest.mark.parametrize(
    ("title", "tags", "text"),
    [
        ("[CI/Build] Pin torch (#9)", ("ci", "build"), "Pin torch"),
        ("[Doc]:  Update additional_config.md (#10)", ("doc",), "Update additional_config.md"),
        ("fix(scheduler)!: drop v1 queue", (), "drop v1 queue"),
        ('[Bugfix] Revert "Add foo" (#3)', ("bugfix",), 'Revert "Add foo"'),
        (
            "[Model Runner V2] Faster paged attention",
            ("model runner v2",),
            "Faster paged attention",
        ),
        ("Plain title without tags", (), "Plain title without tags"),
    ],
)
def test_tags_and_the_subject(title: str, tags: tuple[str, ...], text: str) -> None:
    parsed = parse_title(title)
    assert (parsed.tags, parsed.text) == (tags, text)


@pytest.mark.parametrize(
    ("text", "refs"),
    [
        ("hotfix: bugfix on #812", (Ref(pr=812),)),
        ("Fix the crash introduced in #810 (#815)", (Ref(pr=810),)),
        ("Follow-up to abc1234: tidy the names", (Ref(sha="abc1234"),)),
        ("follow up #812", (Ref(pr=812),)),
        ("Fix regression from PR #7 and fixup for `DEADBEEF1`", (Ref(pr=7), Ref(sha="deadbeef1"))),
        ("Fix for the docs", ()),
        ("Fix #812", ()),  # closes an issue; names no commit it follows up on
    ],
)
def test_follow_ups(text: str, refs: tuple[Ref, ...]) -> None:
    assert follow_up_refs(text) == refs
    assert parse_title(text).follows_up == refs


@pytest.mark.parametrize(
    ("message", "refs", "git_line"),
    [
        (
            'Revert "Add foo"\n\nThis reverts commit ABCDEF1234.',
            (Ref(sha="abcdef1234"),),
            ("abcdef1234",),
        ),
        # A partial revert names the commit, but is not git's whole-commit revert line.
        ("Tidy\n\nThis partially reverts commit abcdef1.", (Ref(sha="abcdef1"),), ()),
        ("Undo the cache\n\nRevert of PR #12", (Ref(pr=12),), ()),
        ("Undo the cache\n\nOriginal pull request: #12", (), ()),
        ("Add foo\n\nSee commit abcdef1.", (), ()),
        # attrs eccd966: a squashed pull request whose steps include a revert of one of its
        # own commits (never on main); the squash reverts nothing
        (
            "Fix `optional` validator (#1496)\n\n* Fix `optional` validator\n\n"
            '* [pre-commit.ci] auto fixes\n\n* Revert "fixes" from pre-commit.com hooks\n\n'
            "This reverts commit 5b413827365559bac9cb7b72e0b75a0ce4328772.\n\n* Silence ty",
            (),
            (),
        ),
        # one step alone is the commit's own message
        (
            'Revert "Add foo" (#3)\n\n* Revert "Add foo"\n\nThis reverts commit abcdef1.',
            (Ref(sha="abcdef1"),),
            ("abcdef1",),
        ),
    ],
)
def test_what_a_message_says_it_reverts(
    message: str, refs: tuple[Ref, ...], git_line: tuple[str, ...]
) -> None:
    assert reverted_refs(message) == refs
    assert git_reverted_shas(message) == git_line


def test_normalised_titles_ignore_pr_suffixes_tags_quotes_and_case() -> None:
    assert normalise_title("[Feat] Enable  X by default (#5545)") == normalise_title(
        '"enable x by default"'
    )
    assert normalise_title("Enable X (#1) (#2)") == normalise_title("Enable X.") == "enable x"
    assert normalise_title("Enable X") != normalise_title("Enable Y")


def test_a_hostile_nesting_is_read_without_crashing() -> None:
    title = 'Revert "' * 2000 + "Add foo" + '"' * 2000
    assert parse_title(title).revert or parse_title(title).reland


def landed(n: int, title: str) -> DigestCommit:
    sha = f"{n:02x}" * 20
    at = datetime(2026, 7, 10, tzinfo=UTC) + timedelta(minutes=n)
    return DigestCommit(sha, title, f"https://github.com/o/r/commit/{sha}", "dev", at)


@pytest.mark.parametrize(
    ("title", "expected"),
    [case for case in CASES if case[1].get("revert") or case[1].get("reland")],
)
def test_the_signals_the_digest_and_the_alerts_read_a_title_alike(
    title: str, expected: dict[str, Any]
) -> None:
    """The readers that once kept their own copies of the grammar now give its answer."""
    sig = read_signals(CommitInput(sha="f" * 40, message=title))
    assert sig.reland == bool(expected.get("reland"))
    assert (sig.reverted_title is not None) == bool(expected.get("reverted"))
    original = landed(1, "Add foo (#12)")
    revert = landed(2, 'Revert "Add foo (#12)"')
    links = synthesize([original, revert, landed(3, title)]).outgoing("03" * 20)
    if expected.get("reland"):
        # A reland finds the revert that took its change out.
        assert [(link.kind, link.target) for link in links] == [(LinkKind.RELANDS, revert.sha)]
    elif expected.get("undoes") == "Add foo":
        assert [(link.kind, link.target) for link in links] == [(LinkKind.REVERTS, original.sha)]
        assert undoes(landed(3, title), original)
