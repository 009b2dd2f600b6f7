"""Alerts: which commits get one, the fold past `max_per_day`, and the posts themselves."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.digest.alerts import plan_alerts, render_alert, render_alert_fold, wants_alert
from bot.digest.markers import alert_marker, fold_marker
from bot.models import Analysis, ChangeType, DigestCommit, Importance, Recommendation, Risk
from bot.repo_config import Alerts, parse_config
from tests.examples import breaking_commit
from tests.markdown import autolinks, parse, pings, references

# GitHub: issue titles at most 256 characters, bodies at most 65,536 (FACTS.md §3).
GITHUB_TITLE_MAX = 256
GITHUB_BODY_MAX = 65_536
DAY = date(2026, 7, 10)
T0 = datetime(2026, 7, 10, 8, 0, tzinfo=UTC)


def analysed(
    n: int,
    title: str | None = None,
    *,
    importance: Importance = Importance.HIGH,
    breaking: bool = False,
    message: str = "",
) -> DigestCommit:
    sha = f"{n:02x}" * 20
    title = title or f"Change number {n} (#{100 + n})"
    return DigestCommit(
        sha=sha,
        title=title,
        url=f"https://github.com/o/r/commit/{sha}",
        author=f"dev{n}",
        landed_at=T0 + timedelta(minutes=n),
        analysis=Analysis(
            change_types=[ChangeType.FEATURE],
            importance=importance,
            breaking=breaking,
            summary=f"Change {n} does something.",
            analyzer="rules",
        ),
        message=message or title,
    )


@pytest.mark.parametrize(
    ("on", "importance", "breaking", "expected"),
    [
        ([], Importance.HIGH, True, False),
        (["breaking"], Importance.HIGH, False, False),
        (["breaking"], Importance.MEDIUM, True, True),
        (["high"], Importance.HIGH, False, True),
        (["high"], Importance.MEDIUM, True, False),
        (["breaking", "high"], Importance.LOW, True, True),
        (["breaking", "high"], Importance.MEDIUM, False, False),
    ],
)
def test_wants_alert_follows_the_config(
    on: list[str], importance: Importance, breaking: bool, expected: bool
) -> None:
    commit = analysed(1, importance=importance, breaking=breaking)
    assert wants_alert(commit.analysis, Alerts.model_validate({"on": on})) is expected
    assert wants_alert(None, Alerts.model_validate({"on": on})) is False


def test_config_reads_the_yaml_on_key_and_defaults_off() -> None:
    assert parse_config("").alerts.on == []
    config = parse_config("alerts:\n  on: [breaking, high]\n  max_per_day: 2\n").alerts
    assert config.on == ["breaking", "high"] and config.max_per_day == 2


def short(plan_part: tuple[DigestCommit, ...]) -> list[int]:
    return [int(c.sha[:2], 16) for c in plan_part]


def test_the_first_max_per_day_post_and_the_rest_fold_in_landing_order() -> None:
    config = Alerts(on=["high"], max_per_day=2)
    day = [analysed(n) for n in (5, 1, 3, 4)] + [analysed(2, importance=Importance.LOW)]
    plan = plan_alerts(day, config=config, posted=[])
    assert (short(plan.post), short(plan.fold)) == ([1, 3], [4, 5])
    # After those two are recorded, nothing is posted again and the fold is the same.
    again = plan_alerts(day, config=config, posted=[c.sha for c in plan.post])
    assert (short(again.post), short(again.fold)) == ([], [4, 5])


def test_a_late_analysis_folds_when_the_days_alerts_are_spent() -> None:
    config = Alerts(on=["high"], max_per_day=1)
    early = analysed(1)
    late_landed = analysed(2)
    first = plan_alerts([late_landed], config=config, posted=[])
    assert short(first.post) == [2]
    second = plan_alerts([early, late_landed], config=config, posted=[late_landed.sha])
    assert (short(second.post), short(second.fold)) == ([], [1])


def test_a_commit_reverted_before_its_alert_sends_none() -> None:
    config = Alerts(on=["breaking"], max_per_day=5)
    bad = analysed(1, "Drop the v0 engine (#101)", breaking=True)
    revert = analysed(
        9,
        'Revert "Drop the v0 engine (#101)" (#109)',
        importance=Importance.LOW,
        message=f'Revert "Drop the v0 engine (#101)" (#109)\n\nThis reverts commit {bad.sha}.',
    )
    plan = plan_alerts([bad, revert], config=config, posted=[])
    assert plan.post == () and plan.fold == ()
    assert plan.reverted == {bad.sha: revert.sha}
    # The revert may land the next day: it is passed among the others.
    plan = plan_alerts([bad], config=config, posted=[], others=[revert])
    assert plan.post == () and plan.reverted == {bad.sha: revert.sha}
    # An alert already posted stays posted; a revert does not post or retract anything.
    plan = plan_alerts([bad, revert], config=config, posted=[bad.sha])
    assert plan.post == () and plan.reverted == {}


def test_a_breaking_revert_of_a_commit_never_alerted_cancels_out() -> None:
    # Both land before the alert goes out: the pair changes nothing for users, so neither
    # alerts, even when the revert itself reads as breaking (it removes what was added).
    config = Alerts(on=["breaking"], max_per_day=5)
    bad = analysed(1, "Drop the v0 engine (#101)", breaking=True)
    revert = analysed(
        2, 'Revert "Drop the v0 engine (#101)" (#102)', importance=Importance.HIGH, breaking=True
    )
    plan = plan_alerts([bad, revert], config=config, posted=[])
    assert plan.post == () and plan.fold == ()
    assert plan.cancelled == {revert.sha: bad.sha}
    # Once the first alert went out, its revert is news and alerts as usual.
    plan = plan_alerts([bad, revert], config=config, posted=[bad.sha])
    assert [c.sha for c in plan.post] == [revert.sha] and plan.cancelled == {}


def test_a_reverted_commit_leaves_the_fold() -> None:
    config = Alerts(on=["high"], max_per_day=1)
    day = [analysed(1), analysed(2), analysed(3)]
    revert = analysed(4, 'Revert "Change number 3 (#103)"', importance=Importance.LOW)
    plan = plan_alerts([*day, revert], config=config, posted=[day[0].sha])
    assert short(plan.fold) == [2]


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_an_alert_says_what_changed_whom_it_affects_what_to_do_with_links(language: str) -> None:
    commit, pr = breaking_commit(language)
    post = render_alert(
        commit, repo="vllm-project/vllm-ascend", day=date(2026, 7, 15), language=language
    )
    assert post.body.startswith(alert_marker("vllm-project/vllm-ascend", commit.sha))
    assert len(post.title) <= GITHUB_TITLE_MAX and len(post.body) <= GITHUB_BODY_MAX
    assert commit.analysis is not None
    links = parse(post.body).links()
    assert commit.url in links
    assert f"https://github.com/vllm-project/vllm-ascend/pull/{pr}" in links
    for rec in commit.analysis.recommendations:  # what to do
        assert rec.text.split("`")[0] in post.body
    assert "`vllm_ascend/ops`" in post.body  # whom it affects
    heads = parse(post.body).headings()
    assert len(heads) == 4


def test_hostile_commit_text_pings_nobody_and_long_titles_fit() -> None:
    title = "Fix @octocat's bug, see #12 and o/r#3 " + "very long words " * 30 + "(#77)"
    analysis = Analysis(
        change_types=[ChangeType.SECURITY],
        importance=Importance.HIGH,
        breaking=True,
        summary="Thanks @someone; fixes GH-5, www.example.com. <img src=x onerror=alert(1)>",
        risks=[Risk(description="@team/x may break", consequence="#9 again", mitigation="ask @a")],
        recommendations=[Recommendation(audience="users", text="Ping @maintainers about #4.")],
        analyzer="llm:test",
    )
    commit = replace(analysed(1), title=title, analysis=analysis)
    for language in ("en", "zh-CN"):
        post = render_alert(commit, repo="o/r", day=DAY, language=language)
        assert len(post.title) <= GITHUB_TITLE_MAX and post.title.endswith("…")
        parsed = parse(post.body)
        assert parsed.pings_and_references() == [] and parsed.autolinks() == []
        assert pings(post.title) + references(post.title) == []
        # The only raw HTML is the App's own: its marker and the footer's <sub>.
        assert set(parsed.html()) == {alert_marker("o/r", commit.sha) + "\n", "<sub>", "</sub>"}
        # The only pull request linked is the commit's own.
        assert [h for h in parsed.links() if "/pull/" in h] == ["https://github.com/o/r/pull/77"]


WORD_JOINER = "\u2060"


@pytest.mark.parametrize(
    "title",
    [
        "Fix @octocat's bug (#12)",
        "Revert @org/team change, GH-5 and o/r#3",
        "修复@octocat #7 (https://github.com/o/r/issues/8) see www.github.com/o/r/pull/9",
        "Mail a.b@example.com about http://example.com",
    ],
)
def test_an_alert_title_pings_and_references_nothing_and_still_reads_the_same(
    title: str,
) -> None:
    """A Discussion's title is plain text (no code spans there), and GitHub links mentions and
    references in it: each is broken by an invisible word joiner, the words unchanged."""
    commit = replace(analysed(1), title=title)
    for language in ("en", "zh-CN"):
        post = render_alert(commit, repo="o/r", day=DAY, language=language)
        assert pings(post.title) + references(post.title) + autolinks(post.title) == []
        assert title in post.title.replace(WORD_JOINER, "")
        assert len(post.title) <= GITHUB_TITLE_MAX


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_fold_lists_every_extra_alert_within_githubs_limit(language: str) -> None:
    few = [analysed(n, breaking=n % 2 == 0) for n in range(1, 4)]
    post = render_alert_fold(few, repo="o/r", day=DAY, language=language, max_per_day=5)
    assert post.body.startswith(fold_marker("o/r", DAY))
    assert len(post.title) <= GITHUB_TITLE_MAX
    # Newest first, each linked.
    positions = [post.body.index(c.url) for c in few]
    assert positions == sorted(positions, reverse=True)
    assert post.title not in post.body
    as_comment = render_alert_fold(
        few, repo="o/r", day=DAY, language=language, max_per_day=5, with_title=True
    )
    assert as_comment.body.splitlines()[1] == f"## {post.title}"

    sentence = "This sentence explains the change in some detail, at length. " * 9
    many = [
        replace(
            analysed(n % 250, f"Change {n} " + "x" * 200),
            sha=f"{n:040x}",
            url=f"https://github.com/o/r/commit/{n:040x}",
            analysis=replace_summary(analysed(1).analysis, sentence[:590]),
        )
        for n in range(400)
    ]
    post = render_alert_fold(many, repo="o/r", day=DAY, language=language, max_per_day=5)
    assert len(post.body) <= GITHUB_BODY_MAX
    listed = sum(1 for c in many if c.url in post.body)
    assert 0 < listed < len(many)
    assert str(len(many) - listed) in post.body.rsplit("---", 1)[0].strip().splitlines()[-1]


def replace_summary(analysis: Analysis | None, summary: str) -> Analysis:
    assert analysis is not None
    return analysis.model_copy(update={"summary": summary})


@pytest.mark.parametrize(
    ("title", "body", "withheld"),
    [
        # What git and GitHub write for a revert: it takes the whole commit out.
        ('Revert "Drop the v0 engine (#101)" (#110)', "Reverts o/r#101", True),
        ('Revert "Drop the v0 engine"', "", True),
        ("Back out the engine change", "This reverts commit {sha}.", True),
        # Only part of it, or another commit that mentions it: the breaking change stays in.
        ("Tidy docs (#110)", "This partially reverts commit {short}: the docs part only.", False),
        ("Restore the docs (#110)", "Reverts commit {short} in part.", False),
        ("Revert the docs typo fix (#110)", "See the original PR #101 for context.", False),
    ],
)
def test_only_a_revert_of_the_whole_commit_withholds_its_alert(
    title: str, body: str, withheld: bool
) -> None:
    config = Alerts(on=["breaking"], max_per_day=5)
    bad = analysed(1, "Drop the v0 engine (#101)", breaking=True)
    text = body.format(sha=bad.sha, short=bad.sha[:10])
    other = analysed(9, title, importance=Importance.LOW, message=f"{title}\n\n{text}")
    plan = plan_alerts([bad, other], config=config, posted=[])
    assert (plan.reverted == {bad.sha: other.sha}) is withheld
    assert ([c.sha for c in plan.post] == [bad.sha]) is not withheld


def test_a_chinese_alert_marks_the_authors_english_words_as_the_original() -> None:
    """A zh-CN reader is told which words are the author's, untranslated (`原文`)."""
    english = analysed(1)
    chinese = replace(english, analysis=replace_summary(english.analysis, "修复了加载器。"))
    alert = render_alert(english, repo="o/r", day=DAY, language="zh-CN").body
    assert "（原文）Change 1 does something." in alert
    fold = render_alert_fold(
        [english, chinese], repo="o/r", day=DAY, language="zh-CN", max_per_day=5
    ).body
    assert "（原文）Change 1 does something." in fold
    assert "（原文）修复了加载器" not in fold and "修复了加载器。" in fold
    assert "原文" not in render_alert(english, repo="o/r", day=DAY, language="en").body
