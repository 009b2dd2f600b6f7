"""Cross-commit synthesis (reverts, relands, follow-up fixes) and the day's headline."""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.digest.headline import Related
from bot.digest.render import render
from bot.digest.synthesis import HeadlineKind, headline, synthesize
from bot.models import Analysis, ChangeType, DigestCommit, Importance, Risk
from tests.examples import revert_day
from tests.markdown import parse

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"
T0 = datetime(2026, 7, 10, 8, 0, tzinfo=UTC)


def commit(
    n: int,
    title: str,
    body: str = "",
    *,
    importance: Importance = Importance.MEDIUM,
    breaking: bool = False,
    minutes: int | None = None,
) -> DigestCommit:
    sha = f"{n:02x}" * 20
    return DigestCommit(
        sha=sha,
        title=title,
        url=f"https://github.com/o/r/commit/{sha}",
        author=f"dev{n}",
        landed_at=T0 + timedelta(minutes=n if minutes is None else minutes),
        analysis=Analysis(
            change_types=[ChangeType.FEATURE],
            importance=importance,
            breaking=breaking,
            summary="Something changed.",
            analyzer="rules",
        ),
        message=f"{title}\n\n{body}" if body else title,
    )


def links_of(
    commits: list[DigestCommit], recent: list[DigestCommit] | None = None
) -> set[tuple[str, int, int]]:
    by_sha = {c.sha: int(c.sha[:2], 16) for c in [*commits, *(recent or [])]}
    return {
        (link.kind.value, by_sha[link.source], by_sha.get(link.target, -1))
        for link in synthesize(commits, recent or []).links
    }


SYNTHESIS_CASES = [
    pytest.param(
        [commit(1, "Add the cache (#12)"), commit(2, 'Revert "Add the cache (#12)" (#15)')],
        None,
        {("reverts", 2, 1)},
        id="revert by quoted title and PR number",
    ),
    pytest.param(
        [
            commit(1, "Add the cache"),
            commit(2, 'Revert "Add the cache"', f"This reverts commit {'01' * 20}."),
        ],
        None,
        {("reverts", 2, 1)},
        id="revert by git's message",
    ),
    pytest.param(
        [commit(1, "Add the cache"), commit(2, 'Revert "Add the cache"')],
        None,
        {("reverts", 2, 1)},
        id="revert by title alone",
    ),
    pytest.param(
        [commit(2, 'Revert "Add the cache" (#15)', f"This reverts commit {'01' * 20}.")],
        [commit(1, "Add the cache (#12)", minutes=-600)],
        {("reverts", 2, 1)},
        id="reverted commit in the recent ones",
    ),
    pytest.param(
        [
            commit(
                2,
                'Revert "Add the cache"',
                "This reverts commit fb9fdcdbe4f193cddf793dfab9e5666950f3fe4b.",
            )
        ],
        None,
        {("reverts", 2, -1)},
        id="revert of a commit the ledger does not hold still names it",
    ),
    pytest.param(
        [commit(2, 'Revert "Add the cache"')],
        None,
        set(),
        id="revert naming nothing known links nothing",
    ),
    pytest.param(
        [
            commit(1, "[Feat] Add the cache (#12)"),
            commit(2, 'Revert "[Feat] Add the cache (#12)" (#15)'),
            commit(3, "[Reland][Feat] Add the cache (#20)"),
        ],
        None,
        {("reverts", 2, 1), ("relands", 3, 2)},
        id="reland linked to its revert",
    ),
    pytest.param(
        [
            commit(1, "Add the cache (#12)"),
            commit(2, 'Revert "Add the cache (#12)" (#15)'),
            commit(
                3,
                'Revert "Revert "Add the cache (#12)" (#15)"',
                f"This reverts commit {'02' * 20}.",
            ),
        ],
        None,
        {("reverts", 2, 1), ("relands", 3, 2)},
        id="revert of a revert is a reland, not a revert",
    ),
    pytest.param(
        [commit(3, 'Reapply "Add the cache (#12)" (#20)')],
        [
            commit(1, "Add the cache (#12)", minutes=-900),
            commit(2, 'Revert "Add the cache (#12)" (#15)', minutes=-600),
        ],
        {("relands", 3, 2)},
        id="reland today of yesterday's revert",
    ),
    pytest.param(
        [commit(3, "[Reland] Add the cache")],
        [commit(1, "Add the cache", minutes=-900)],
        set(),
        id="reland without a known revert links nothing",
    ),
    pytest.param(
        [commit(1, "Add the cache (#812)"), commit(2, "hotfix: bugfix on #812 (#815)")],
        None,
        {("follows-up", 2, 1)},
        id="hotfix: bugfix on #N",
    ),
    pytest.param(
        [
            commit(1, "Add the cache (#810)"),
            commit(2, "Fix crash on empty batch introduced in #810"),
        ],
        None,
        {("follows-up", 2, 1)},
        id="Fix … introduced in #N",
    ),
    pytest.param(
        [
            commit(1, "Add the cache (#810)"),
            commit(2, "Tidy the cache", "This is a follow-up to #810, which left a TODO."),
        ],
        None,
        {("follows-up", 2, 1)},
        id="follow-up to #N in the body",
    ),
    pytest.param(
        [commit(1, "Add the cache (#810)"), commit(2, f"Fix regression from {'01' * 4}")],
        None,
        {("follows-up", 2, 1)},
        id="regression from a short sha",
    ),
    pytest.param(
        [commit(2, "Fix crash introduced in #810 (#820)")],
        [commit(1, "Add the cache (#810)", minutes=-3000)],
        {("follows-up", 2, 1)},
        id="follow-up to a recent commit",
    ),
    pytest.param(
        [commit(1, "Add the cache (#810)"), commit(2, "Fix crash introduced in #999")],
        None,
        set(),
        id="follow-up to an unknown PR links nothing",
    ),
    pytest.param(
        [commit(1, "Add the cache (#810)"), commit(2, "Fixes #810 crash on start")],
        None,
        set(),
        id="a closing keyword is not a follow-up",
    ),
    pytest.param(
        [commit(1, "Fix crash introduced in #810 (#810)")],
        None,
        set(),
        id="a commit never follows up on itself",
    ),
    pytest.param(
        [commit(2, "Fix crash introduced in #810"), commit(3, "Add the cache (#810)")],
        None,
        set(),
        id="a fix cannot follow up on a later commit",
    ),
]


@pytest.mark.parametrize(("commits", "recent", "expected"), SYNTHESIS_CASES)
def test_synthesis_links(
    commits: list[DigestCommit],
    recent: list[DigestCommit] | None,
    expected: set[tuple[str, int, int]],
) -> None:
    assert links_of(commits, recent) == expected


def test_headline_orders_breaking_reverts_then_high_and_never_low() -> None:
    commits = [
        commit(1, "Low thing", importance=Importance.LOW),
        commit(2, "High thing", importance=Importance.HIGH),
        commit(3, "Medium thing"),
        commit(4, "Add the cache (#12)", importance=Importance.HIGH),
        commit(5, 'Revert "Add the cache (#12)"', importance=Importance.LOW),
        commit(6, "Drop v0", importance=Importance.HIGH, breaking=True),
        commit(7, "Fix crash introduced in #12"),
    ]
    items = headline(commits, synthesize(commits))
    assert [(i.kind, i.commit.title) for i in items] == [
        (HeadlineKind.BREAKING, "Drop v0"),
        (HeadlineKind.REVERTED, 'Revert "Add the cache (#12)"'),
        (HeadlineKind.HIGH, "High thing"),
    ]
    # The reverted commit is in the revert's line, not in a line of its own.
    assert items[1].link is not None and items[1].link.target == commits[3].sha
    only_low = [
        commit(1, "a", importance=Importance.LOW),
        commit(2, "b", importance=Importance.LOW),
    ]
    assert headline(only_low, synthesize(only_low)) == []


def test_headline_names_follow_up_fixes_of_its_commits() -> None:
    commits = [
        commit(1, "Big feature (#12)", importance=Importance.HIGH),
        commit(2, "Fix crash introduced in #12", importance=Importance.LOW),
    ]
    (item,) = headline(commits, synthesize(commits))
    assert item.follow_ups == (commits[1].sha,)


def test_hostile_titles_in_links_cannot_ping() -> None:
    commits = [
        commit(1, "Add @octocat's cache for #12 (#12)", importance=Importance.HIGH),
        commit(2, 'Revert "Add @octocat\'s cache for #12 (#12)" (#13)', "cc @org/team GH-5"),
    ]
    digest = replace(revert_day("en"), commits=tuple(commits), recent=())
    (part,) = render(digest)
    assert parse(part.body).pings_and_references() == []
    assert "↩️ **Reverted:** " in part.body.split("| Time")[0]


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_snapshot_of_a_day_with_a_headline_and_a_revert_pair(language: str) -> None:
    parts = render(revert_day(language))
    text = "\n\n<!-- ===== next post ===== -->\n\n".join(p.body for p in parts)
    path = SNAPSHOTS / f"headline-revert-pair-{language}.md"
    if UPDATE or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), (
        f"rendering changed; if intended, rerun with UPDATE_SNAPSHOTS=1 ({path.name})"
    )


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_revert_pair_is_shown_together_and_both_are_marked(language: str) -> None:
    digest = revert_day(language)
    (part,) = render(digest)
    head, _, rest = part.body.partition("\n| ")
    table = "| " + rest.split("\n\n", 1)[0]
    revert = next(c for c in digest.commits if c.title.startswith('Revert "[Feat][Spec]'))
    reverted = next(c for c in digest.commits if c.sha.startswith("755caeb0"))
    # The headline holds one line with both commits.
    lines = [line for line in head.splitlines() if revert.sha[:7] in line]
    assert len(lines) == 1 and reverted.url in lines[0]
    # Each row names its partner.
    rows = {c.sha: next(r for r in table.splitlines() if c.url in r) for c in (revert, reverted)}
    assert reverted.sha[:7] in rows[revert.sha]
    assert revert.sha[:7] in rows[reverted.sha]
    # The real revert of an earlier commit names it, linked to its page.
    assert "commit/fb9fdcdbe4f193cddf793dfab9e5666950f3fe4b" in head
    assert len(parse(part.body).table_rows()[0]) == 4


def test_a_revert_of_an_earlier_important_commit_makes_the_headline() -> None:
    earlier = commit(1, "Add the cache (#12)", importance=Importance.HIGH, minutes=-3000)
    revert = commit(2, 'Revert "Add the cache (#12)" (#15)', importance=Importance.LOW)
    items = headline([revert], synthesize([revert], [earlier]), recent=[earlier])
    assert [(i.kind, i.commit.sha) for i in items] == [(HeadlineKind.REVERTED, revert.sha)]
    # Without the earlier commit's analysis, a low-importance revert alone is not headline news.
    assert headline([revert], synthesize([revert], [earlier])) == []


def test_the_digest_links_the_alerts_already_sent() -> None:
    commits = [
        commit(1, "Drop v0 (#12)", importance=Importance.HIGH, breaking=True),
        commit(2, "Other"),
    ]
    url = "https://github.com/o/r/discussions/77"
    digest = replace(
        revert_day("en"), commits=tuple(commits), recent=(), alerts={commits[0].sha: url}
    )
    (part,) = render(digest)
    row = next(
        line for line in part.body.splitlines() if line.startswith("|") and commits[0].url in line
    )
    assert f"🚨 [alert]({url})" in row
    # And the commit's section, once each.
    assert part.body.count(f"🚨 [alert]({url})") == 2
    other = next(
        line for line in part.body.splitlines() if line.startswith("|") and commits[1].url in line
    )
    assert url not in other


@pytest.mark.parametrize(
    ("title", "risk", "shown"),
    [
        # The top fact the analysis proves says what the day was about.
        ("Remove the v1 loader (#12)", "Removes `load_v1` from `pkg/__init__.py`.", True),
        # A risk that only quotes the title says nothing more: left out.
        ("Drop v0 support (#12)", "The title names a removal: “Drop v0 support”.", False),
    ],
)
def test_a_breaking_headline_line_says_its_top_fact(title: str, risk: str, shown: bool) -> None:
    top = commit(1, title, importance=Importance.HIGH, breaking=True)
    assert top.analysis is not None
    top = replace(top, analysis=top.analysis.model_copy(update={"risks": [Risk(description=risk)]}))
    digest = replace(revert_day("en"), commits=(top,), recent=())
    block = Related(digest).block()
    assert block is not None
    (line,) = block.splitlines()
    assert line.endswith(f": {risk}") is shown
    assert "— feature" in line


def test_a_revert_naming_a_sha_in_no_history_reverts_the_commit_it_undid() -> None:
    # xmltodict c0b74ed: "This reverts commit 85ee823…", a sha the rebase left in no
    # history; a1448b8, the same day, is the commit whose every line it took out
    added = commit(1, "chore: add initial Release Drafter config")
    other = commit(2, "docs(readme): mention the stub package")
    gone = "85ee8232ba14430ffbf221ea8fb7965ab3f50029"
    revert = commit(
        3, "revert: remove initial Release Drafter config", f"This reverts commit {gone}."
    )
    day = [replace(added, undone_by=revert.sha), other, revert]
    (link,) = synthesize(day).outgoing(revert.sha)
    assert link.target == added.sha and link.in_day
    # nothing undone: the sha the message names is all there is
    (named,) = synthesize([added, other, revert]).outgoing(revert.sha)
    assert named.target == gone and not named.in_day
    # ... unless the repository has no such commit: then no sha is named
    assert (
        synthesize([added, other, revert], unresolved=frozenset({gone})).outgoing(revert.sha) == []
    )
