"""The renderer: snapshots of real days in both languages, working anchors, GitHub's body limit,
and hostile text that must not ping anyone or break the page."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.digest.anchors import Slugger
from bot.digest.markers import day_marker
from bot.digest.render import BODY_LIMIT, MAX_PARTS, render, render_addendum
from bot.digest.safety import cell, inline
from bot.models import (
    Analysis,
    ChangeType,
    Digest,
    DigestCommit,
    Importance,
    Insights,
    Recommendation,
    Risk,
)
from tests.examples import replay_digest
from tests.markdown import anchors, parse
from tests.support import REFERENCE, reference_text

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"


CASES = [
    ("vllm-project/llm-compressor", "2026-06-22", "en", "UTC"),
    ("vllm-project/llm-compressor", "2026-06-22", "zh-CN", "Asia/Shanghai"),
    # The largest replay day (339 files, 1.7 MB of patches).
    ("vllm-project/vllm-ascend", "2026-07-15", "en", "UTC"),
    ("vllm-project/vllm-ascend", "2026-07-15", "zh-CN", "Asia/Shanghai"),
]


@pytest.mark.parametrize(
    ("repo", "day", "language", "zone"),
    CASES,
    ids=[f"{c[0].split('/')[1]}-{c[1]}-{c[2]}" for c in CASES],
)
def test_snapshots_of_real_days(repo: str, day: str, language: str, zone: str) -> None:
    parts = render(replay_digest(repo, day, language, zone))
    text = "\n\n<!-- ===== next post ===== -->\n\n".join(p.body for p in parts)
    path = SNAPSHOTS / f"{repo.split('/')[1]}-{day}-{language}.md"
    if UPDATE or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), (
        f"rendering changed; if intended, rerun with UPDATE_SNAPSHOTS=1 ({path.name})"
    )


@pytest.mark.parametrize(("repo", "day", "language", "zone"), CASES)
def test_real_days_render_as_github_expects(repo: str, day: str, language: str, zone: str) -> None:
    digest = replay_digest(repo, day, language, zone)
    parts = render(digest)
    for part in parts:
        assert len(part.body) <= BODY_LIMIT
        assert part.body.startswith(day_marker(repo, digest.day, part.key))
        parsed = parse(part.body)
        # Every in-page link of the table of contents lands on a heading of the same post.
        targets = anchors(part.body)
        for href in parsed.links():
            if href.startswith("#"):
                assert href[1:] in targets, href
        # Tables keep their columns (four for the day, two or three for risks) whatever the
        # text holds, and no column is empty on every row.
        assert all(len(row) in (2, 3, 4) for row in parsed.table_rows())
        assert "| — |" not in part.body
        assert parsed.pings_and_references() == []
    shas = {c.sha[:7] for c in digest.commits}
    rendered = "\n".join(p.body for p in parts)
    assert all(sha in rendered for sha in shas)
    if language == "zh-CN":
        for fixed in ("本日共", "提交时间", "📋 目录", "重要度变更", "关于本报告"):
            assert fixed in rendered
        assert "Importance" not in rendered and "Contents" not in rendered


def test_anchor_rules_match_githubs_fixtures() -> None:
    fixtures = json.loads(
        reference_text(REFERENCE / "github" / "markdown" / "github-slugger-fixtures.json")
    )
    slugger = Slugger()
    for case in fixtures:
        assert slugger.slug(case["input"]) == case["expected"], case["name"]


def test_repeated_titles_get_numbered_anchors() -> None:
    base = replay_digest("vllm-project/llm-compressor", "2026-06-22", "en", "UTC")
    twin = next(
        c for c in base.commits if c.analysis and c.analysis.importance is Importance.MEDIUM
    )
    doubled = Digest(
        **{
            **base.__dict__,
            "commits": (*base.commits, DigestCommit(**{**twin.__dict__, "sha": "f" * 40})),
        }
    )
    (part,) = render(doubled)
    targets = anchors(part.body)
    links = [h for h in parse(part.body).links() if h.startswith("#")]
    assert len(links) == len(set(links))
    assert all(h[1:] in targets for h in links)
    assert any(h.endswith("-1") for h in links)


# --- hostile input --------------------------------------------------------------------------

HOSTILE_TITLES = [
    "Fix @octocat's parser, cc @vllm-project/maintainers (#1234)",
    "<script>alert('x')</script><img src=x onerror=alert(1)> | broken | table",
    "`unbalanced backtick and ``double`` ticks | pipe` end",
    "Closes #12, GH-34 and vllm-project/vllm#56 https://github.com/o/r/issues/78",
    "# Heading? > quote - list",
    "[click](javascript:alert(1)) ![pixel](http://evil.example/p.png) **bold** __init__",
]


def hostile_digest() -> Digest:
    commits = []
    for i, title in enumerate(HOSTILE_TITLES):
        analysis = Analysis(
            change_types=[ChangeType.BUGFIX],
            importance=[Importance.HIGH, Importance.MEDIUM, Importance.LOW][i % 3],
            summary=f"Thanks @someone and @org/team! Fixes #9. <b>bold</b> | {title}",
            insights=Insights(security="Reported by @reporter in GH-5. <iframe src=x></iframe>"),
            risks=[
                Risk(
                    description="Pipes | in | cells",
                    consequence="@ping `code|span`",
                    mitigation="<hr>",
                )
            ],
            recommendations=[Recommendation(audience="users", text="Ask @helpdesk about #77.")],
            analyzer="llm:test",
        )
        commits.append(
            DigestCommit(
                sha=f"{i:040x}",
                title=title,
                url=f"https://github.com/o/r/commit/{i:040x}",
                author="evil|name`@mention",
                landed_at=datetime(2026, 7, 10, 8, i, tzinfo=UTC),
                analysis=analysis,
            )
        )
    commits.append(
        DigestCommit(
            sha="e" * 40,
            title="Not analysed @ghost",
            url="https://github.com/o/r/commit/" + "e" * 40,
            author="x",
            landed_at=datetime(2026, 7, 10, 9, tzinfo=UTC),
            not_analysed="repository not accessible: @admin removed it",
        )
    )
    return Digest(
        repo="o/r",
        day=date(2026, 7, 10),
        language="en",
        timezone="UTC",
        cutoff=time(0, 0),
        title="Daily digest — o/r — 2026-07-10",
        commits=tuple(commits),
        config_error="`timezone`: '<b>@x</b>' is not an IANA time zone",
    )


@pytest.mark.parametrize("with_title", [False, True])
def test_hostile_text_cannot_ping_inject_or_break_tables(with_title: bool) -> None:
    (part,) = render(hostile_digest(), with_title=with_title)
    parsed = parse(part.body)
    assert parsed.pings_and_references() == [] and parsed.autolinks() == []
    # The only raw HTML is the App's own marker comment.
    assert parsed.html() == [day_marker("o/r", date(2026, 7, 10), "part-1") + "\n"]
    for row in parsed.table_rows():
        assert len(row) in (3, 4)  # the risk tables have three columns, the day's table four
    links = parsed.links()
    assert not [h for h in links if h.startswith("javascript:") or "evil.example" in h]
    # Nothing is lost: every title still reads in full.
    assert "onerror=alert(1)" in part.body.replace("&lt;", "<").replace("&gt;", ">")


LINKED_BY_GITHUB = [
    "Fix `@octocat",
    "修复@octocat",
    ".@octocat",
    "/@octocat",
    "@@octocat",
    "\\@octocat",
    "<@octocat>",
    "`#123",
    "é#45",
    "x/#7 and (#8)",
    "acme/app-1.x#9",
    "(gh-12) éGH-13",
    "HTTPS://GitHub.COM/o/r/issues/1",
    "see www.github.com/o/r/pull/2.",
    "http://WWW.GITHUB.COM/o/r/discussions/3",
    # A code span right next to a neutralised one: their fences must not pair up differently.
    "```a``b```@octocat",
    "@octocat```a``b```",
    "``a`b``#12 and ```c``d```gh-5",
    # What follows a neutralised span starts a text: `o/r#3` there links.
    "#1o/r#3 and @a.b/c#4",
    # Bare URLs and email addresses, which GFM turns into links.
    "see https://example.com/a_b?c=1.",
    "docs at www.example.com, or (www.example.com)",
    "_www.example.com_ and *www.example.com*",
    "HTTP://EXAMPLE.COM and ftp://files.example.com/a",
    "1https://example.com and 修复https://example.com",
    "Signed-off-by: Ada <ada.l+dev@example.co.uk>",
    "mail a_b-c@mail.example.org",
    "`code`https://example.com and https://example.com`code`",
    "http://localhost:8000/v1",
    "@octocat's https://example.com/#12",
    # A URL that ends a quotation or a sentence: the span closes at the URL, what follows reads.
    "“Fix it https://github.com/litl/backoff/issues/177”.",
    "(see https://example.com/a), “www.example.com/b”!",
]


@pytest.mark.parametrize("text", LINKED_BY_GITHUB)
def test_what_github_would_link_is_neutralised_everywhere(text: str) -> None:
    analysis = Analysis(
        change_types=[ChangeType.BUGFIX],
        importance=Importance.HIGH,
        summary=f"Summary {text}",
        risks=[Risk(description=text, consequence=text, mitigation=text)],
        analyzer="llm:test",
    )
    commit = DigestCommit(
        sha="a" * 40,
        title=text,
        url="https://github.com/o/r/commit/" + "a" * 40,
        author=text,
        landed_at=datetime(2026, 7, 10, 8, tzinfo=UTC),
        analysis=analysis,
    )
    digest = replace(hostile_digest(), commits=(commit,), config_error=text)
    for with_title in (False, True):
        (part,) = render(digest, with_title=with_title)
        parsed = parse(part.body)
        assert parsed.pings_and_references() == [], part.body
        assert parsed.autolinks() == [], part.body
        # Neutralised, not removed: the words still read.
        assert any(w in part.body for w in ("octocat", "example")) or any(c.isdigit() for c in text)


@pytest.mark.parametrize(
    ("text", "url", "after"),
    [
        (
            "“Fix hints https://github.com/litl/backoff/issues/177”.",
            "https://github.com/litl/backoff/issues/177",
            "”.",
        ),
        ("see https://example.com/a_b?c=1.", "https://example.com/a_b?c=1", "."),
        ("(docs: https://example.com/x)", "https://example.com/x", ")"),
        ("“www.example.com/b”!", "www.example.com/b", "”!"),
        ("wiki https://en.wikipedia.org/wiki/A_(b).", "https://en.wikipedia.org/wiki/A_(b)", "."),
    ],
)
def test_a_urls_code_span_closes_at_the_url_not_after_what_follows_it(
    text: str, url: str, after: str
) -> None:
    # The closing quote and the full stop belong to the sentence; a span that takes them in
    # shows them as code, and a quote opened outside the span is closed inside it.
    assert inline(text).endswith(f"`{url}`{after}"), inline(text)


@pytest.mark.parametrize("title", ["Fix the build #", "Bump to 2 ##", "# #", "C# and F# #  "])
def test_a_title_ending_in_hashes_keeps_its_contents_link(title: str) -> None:
    digest = replace(
        hostile_digest(),
        commits=tuple(replace(c, title=title) for c in hostile_digest().commits[:3]),
    )
    (part,) = render(digest)
    targets = anchors(part.body)
    links = [h for h in parse(part.body).links() if h.startswith("#")]
    assert links
    for href in links:
        assert href[1:] in targets, (href, targets)


# --- GitHub's body limit --------------------------------------------------------------------


def big_day(high: int, medium: int, low: int, *, long_text: bool = True) -> Digest:
    sentence = "This sentence describes one more consequence of the change in some detail. " * (
        6 if long_text else 1
    )
    commits = []
    n = 0
    for importance, count in (
        (Importance.HIGH, high),
        (Importance.MEDIUM, medium),
        (Importance.LOW, low),
    ):
        for _ in range(count):
            n += 1
            full = importance is not Importance.LOW
            commits.append(
                DigestCommit(
                    sha=f"{n:07x}" + "0" * 33,
                    title=f"[Core] Change number {n} to the scheduler and its queues (#{10_000 + n})",
                    url=f"https://github.com/o/r/commit/{n:07x}" + "0" * 33,
                    author=f"author{n % 37}",
                    landed_at=datetime(2026, 7, 10, tzinfo=UTC) + timedelta(seconds=n),
                    analysis=Analysis(
                        change_types=[ChangeType.FEATURE],
                        importance=importance,
                        summary=(sentence[:590].rsplit(".", 1)[0] + ".")
                        if full
                        else f"Change {n}.",
                        insights=Insights(architecture=sentence[:590].rsplit(".", 1)[0] + ".")
                        if full
                        else None,
                        risks=[
                            Risk(
                                description="Risk.",
                                consequence=sentence[:290].rsplit(".", 1)[0] + ".",
                                mitigation="Test.",
                            )
                        ]
                        * (3 if full else 0),
                        analyzer="rules",
                    ),
                )
            )
    return Digest(
        repo="o/r",
        day=date(2026, 7, 10),
        language="en",
        timezone="UTC",
        cutoff=time(0, 0),
        title="Daily digest — o/r — 2026-07-10",
        commits=tuple(commits),
    )


def commit_order(parts: list[str]) -> list[str]:
    """The commits' short shas in the order their sections appear across posts."""
    order = []
    for body in parts:
        for line in body.splitlines():
            if line.startswith("### ") and "Contents" not in line:
                continue
            if line.startswith("`") and " · " in line:
                order.append(line[1:8])
            elif line.startswith("- [`"):
                order.append(line[4:11])
            elif line.startswith("- `"):
                order.append(line[3:10])
    return order


def test_a_day_too_large_for_one_post_is_split_in_order() -> None:
    digest = big_day(high=30, medium=150, low=120)
    parts = render(digest)
    bodies = [p.body for p in parts]
    assert 1 < len(parts) <= MAX_PARTS
    assert all(len(b) <= BODY_LIMIT for b in bodies)
    assert [p.key for p in parts] == [f"part-{i}" for i in range(1, len(parts) + 1)]
    for part in parts:
        assert part.body.startswith(day_marker("o/r", digest.day, part.key))
    first = bodies[0]
    # The first post: summary, the whole table, and the whole high section.
    assert (
        first.index("**300 commits**")
        < first.index("| Time (UTC)")
        < first.index("## 🔴 High importance (30)")
    )
    assert (
        sum(1 for line in first.splitlines() if line.startswith("| ") and "/commit/" in line) == 300
    )
    # The high section follows the table in the first post (as much of it as fits; the
    # rest opens the next post).
    assert "**⚡ Importance**" in first.split("## 🔴")[1]
    for number, body in enumerate(bodies[1:], start=2):
        assert f"Part {number} of {len(parts)}" in body.splitlines()[1]
    # Every commit once, none split, in order: high, then medium, then low, newest first.
    expected = [
        c.sha[:7]
        for importance in Importance
        for c in sorted(digest.commits, key=lambda c: c.landed_at, reverse=True)
        if c.analysis and c.analysis.importance is importance
    ]
    assert commit_order(bodies) == expected
    for body in bodies:
        for block in body.split("\n### ")[1:]:
            if not block.startswith("Contents"):
                assert "**⚡ Importance**" in block  # a commit section always arrives whole
    assert "Generated by Commit Digest." in bodies[-1]


def test_a_day_that_still_does_not_fit_is_folded_and_says_so() -> None:
    parts = render(big_day(high=5, medium=500, low=2000))
    bodies = [p.body for p in parts]
    assert all(len(b) <= BODY_LIMIT for b in bodies)
    assert len(parts) <= MAX_PARTS
    footer = bodies[-1]
    assert "low-importance commits are in their section" in footer
    assert "listed by title only" in footer or "listed by title and summary only" in footer
    # Folded, not lost: every commit is still there.
    assert len(commit_order(bodies)) == 2505


def test_an_empty_day_says_so() -> None:
    (part,) = render(
        Digest(
            repo="o/r",
            day=date(2026, 7, 10),
            language="zh-CN",
            timezone="UTC",
            cutoff=time(0, 0),
            title="t",
            commits=(),
        )
    )
    assert "2026-07-10 没有新的提交" in part.body


@pytest.mark.parametrize(
    ("language", "count_line"), [("en", "**1 commit** ·"), ("zh-CN", "本日共 1 个提交 |")]
)
def test_a_one_commit_day_counts_one_commit(language: str, count_line: str) -> None:
    digest = replay_digest("vllm-project/llm-compressor", "2026-06-22", language, "UTC")
    (part,) = render(Digest(**{**digest.__dict__, "commits": digest.commits[:1]}))
    assert count_line in part.body


def test_addendum_has_its_own_marker_and_title() -> None:
    digest = replay_digest("vllm-project/llm-compressor", "2026-06-22", "en", "UTC")
    (part,) = render_addendum(Digest(**{**digest.__dict__, "commits": digest.commits[:2]}), 3)
    assert part.key == "addendum-3"
    assert part.body.startswith(day_marker(digest.repo, digest.day, "addendum-3"))
    assert "Addendum: 2 more commits of 2026-06-22" in part.body


def test_footer_tells_what_was_not_analysed_excluded_and_late() -> None:
    digest = hostile_digest()
    late = Digest(
        **{
            **digest.__dict__,
            "late": True,
            "excluded": {"author": 2, "paths": 1},
            "forced_pushes": 1,
        }
    )
    (part,) = render(late)
    footer = part.body.split("**About this digest**")[1]
    assert "Not analysed (1)" in footer and "repository not accessible" in footer
    assert "Left out by `.github/commit-digest.yml` (3): by author 2, by paths 1." in footer
    assert "Published late" in footer
    assert "`.github/commit-digest.yml` has an error" in footer
    assert "Force pushes to the tracked branch: 1." in footer


def test_six_hundred_unanalysed_commits_fold_in_the_footer_within_the_limit() -> None:
    digest = replay_digest("vllm-project/llm-compressor", "2026-06-22", "en", "UTC")
    template = digest.commits[0]
    missing = tuple(
        DigestCommit(
            sha=f"{n:040x}",
            title=f"[Bugfix] Repair widget {n} of the frobnicator " + "x" * 150,
            url=f"https://github.com/o/r/commit/{n:040x}",
            author="ada",
            landed_at=template.landed_at,
            not_analysed="gave up after 5 attempts: GET /repos/o/r/commits: HTTP 502 " * 3,
        )
        for n in range(600)
    )
    parts = render(Digest(**{**digest.__dict__, "commits": missing}))
    # GitHub's body limit (FACTS.md): 65,536 characters a post.
    assert all(len(p.body) <= 65_536 for p in parts)
    text = "\n".join(p.body for p in parts)
    assert "Not analysed (600)" in text
    assert "… and 580 more, listed in the table." in text


@pytest.mark.parametrize(
    ("risks", "expected"),
    [
        # Risks with nothing but their description are a list, not a table of dashes.
        (
            [Risk(description="Removes `a`."), Risk(description="Removes `b`.")],
            "**⚠️ Risks**\n\n- Removes `a`.\n- Removes `b`.",
        ),
        # A column that no risk fills is left out; a risk that lacks a filled column's value
        # shows a dash there.
        (
            [
                Risk(description="Removes `a`.", consequence="Imports of `a` fail."),
                Risk(description="Removes `b`."),
            ],
            "| Risk | Consequence |\n|---|---|\n| Removes `a`. | Imports of `a` fail. |\n"
            "| Removes `b`. | — |",
        ),
        (
            [Risk(description="Removes `a`.", consequence="It fails.", mitigation="Use `b`.")],
            "| Risk | Consequence | Mitigation |\n|---|---|---|\n"
            "| Removes `a`. | It fails. | Use `b`. |",
        ),
    ],
)
def test_risks_show_only_the_columns_they_fill(risks: list[Risk], expected: str) -> None:
    analysis = Analysis(
        change_types=[ChangeType.REFACTOR],
        importance=Importance.HIGH,
        summary="Removes two names.",
        risks=risks,
        analyzer="rules",
    )
    commit = DigestCommit(
        sha="a" * 40,
        title="Remove a and b",
        url="https://github.com/o/r/commit/" + "a" * 40,
        author="x",
        landed_at=datetime(2026, 7, 10, 8, tzinfo=UTC),
        analysis=analysis,
    )
    (part,) = render(replace(hostile_digest(), commits=(commit,), config_error=None))
    assert expected in part.body


def test_zh_cn_marks_the_authors_english_summary_as_the_original() -> None:
    digest = replay_digest("vllm-project/vllm-ascend", "2026-07-15", "zh-CN", "Asia/Shanghai")
    text = "\n".join(p.body for p in render(digest))
    assert "**📋 变更摘要（原文）**：" in text
    chinese = Analysis(
        change_types=[ChangeType.BUGFIX],
        importance=Importance.MEDIUM,
        summary="修复了解码输出被破坏的问题。",
        analyzer="llm:m",
    )
    one = replace(digest, commits=(replace(digest.commits[0], analysis=chinese),))
    rendered_one = "\n".join(p.body for p in render(one))
    assert "**📋 变更摘要**：修复了解码输出被破坏的问题。" in rendered_one
    assert "（原文）" not in rendered_one


PIECES = [
    "@",
    "#",
    "1",
    "a",
    "Z",
    "`",
    "``",
    "```",
    ".",
    "/",
    "é",
    "修",
    " ",
    "\\",
    "GH-",
    "gh-",
    "_",
    "-",
]
PIECES += ["(", "<", "*", "[", "]", "!", "|", "&", "HTTPS://", "www.", "GitHub.com/o/r/issues/"]
PIECES += ["o/r#3"]


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "250")), deadline=None)
@given(text=st.lists(st.sampled_from(PIECES) | st.characters(), max_size=30).map("".join))
def test_no_text_can_ping_or_reference_once_made_safe(text: str) -> None:
    for markdown in (inline(text), f"### {inline(text)}", f"| {cell(text)} | x |\n|---|---|"):
        assert parse(markdown).pings_and_references() == [], (text, markdown)


@pytest.mark.parametrize(
    ("language", "placeholder"), [("en", "(no commit message)"), ("zh-CN", "（无提交信息）")]
)
@pytest.mark.parametrize("importance", [Importance.HIGH, Importance.LOW])
def test_a_commit_without_a_title_is_named_by_a_placeholder(
    language: str, placeholder: str, importance: Importance
) -> None:
    analysis = Analysis(
        change_types=[ChangeType.OTHER],
        importance=importance,
        summary=placeholder,
        analyzer="rules",
    )
    untitled = DigestCommit(
        sha="c" * 40,
        title="   ",
        url="https://github.com/o/r/commit/" + "c" * 40,
        author="dev",
        landed_at=datetime(2026, 7, 10, 8, tzinfo=UTC),
        analysis=analysis,
    )
    digest = replace(hostile_digest(), language=language, commits=(untitled,))
    (part,) = render(digest, with_title=True)
    parsed = parse(part.body)
    # No empty link, heading or list line: the commit can be seen and opened.
    assert "[](" not in part.body
    assert all(h.strip() for h in parsed.headings())
    assert placeholder in part.body
    # Low: its table row and its line. High: headline, table, contents, heading and summary.
    assert part.body.count(placeholder) == (2 if importance is Importance.LOW else 5)
