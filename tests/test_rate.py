"""`/digest rate` through the webhook, the jobs and the fake GitHub: the maintainer's importance
moves the commit in the next digest, edits a posted one exactly once, is refused to others,
and is exported as labels."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from bot.analysis.rollup import Counts
from bot.analysis.rules import analyze
from bot.app import EXECUTOR, STORE
from bot.digest.command_replies import rated_text
from bot.jobs.commands import RunCommand
from bot.jobs.digest_build import shown_commits
from bot.models import CommitInput, Importance
from bot.repo_config import default_config
from bot.store.digests import DayCommit
from bot.store.ingest import PER_REPO_TABLES
from bot.store.schema import analyses, jobs, metadata, ratings
from tests.command_support import (
    ASCEND,
    DAY,
    Client,
    a_low_commit,
    app_with_repo,
    command,
    day_commits,
    day_discussion,
    day_text,
    in_issue,
    land_command_day,
    only_reply,
    section_of,
    stored,
)
from tests.fakes.github import FakeGitHub
from tests.processes import run_bot
from tests.scenarios import rows
from tests.support import (
    FakeClock,
    deliver,
    late_push,
    publish_round,
)

CUTOFF_PASSED = datetime(2026, 6, 18, 0, 30, tzinfo=UTC)
HIGH_HEADING = "🔴 High importance"
RATED = "rated by a maintainer"


def entry_of(text: str, sha: str) -> str:
    """The commit's entry: from its line or heading to the next entry."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if f"`{sha[:7]}`" in line and "|" not in line)
    start = at - 1 if lines[at - 1].startswith("### ") else at
    end = next(
        (i for i in range(at + 1, len(lines)) if lines[i].startswith(("### ", "## ", "- `"))),
        len(lines),
    )
    return "\n".join(lines[start:end])


async def bot_stdout(database_url: str, *args: str) -> str:
    """`python -m bot ARGS` in a process of its own, on the test's database: its stdout."""
    process = await run_bot(
        *args,
        env={"DATABASE_URL": database_url, "PATH": "/usr/bin:/bin"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    return out.decode()


def edits(github: FakeGitHub) -> int:
    return len(
        [
            c
            for c in github.calls
            if c.operation in ("UpdateDigestDiscussion", "UpdateDigestComment")
        ]
    )


async def test_a_rate_moves_the_commit_in_the_next_digest(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    low = await a_low_commit(client)
    payload = in_issue(github, f"/digest rate {low.sha[:9]} high it breaks the API", repo=ASCEND)
    await command(client, github, payload)
    reply = only_reply(github, payload, ASCEND)
    assert "**low** → **high**" in reply and "not posted yet" in reply
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    text = day_text(fake)
    section = section_of(text, low.sha)
    assert section is not None and HIGH_HEADING in section
    assert RATED in entry_of(text, low.sha)
    # Only the rated commit says so; the stored analysis is the analyser's still.
    assert text.count(RATED) == 1
    (analysis,) = await rows(client, analyses, analyses.c.sha == low.sha)
    (row,) = await rows(client, ratings)
    assert analysis.data["importance"] == "low"
    assert (row.importance, row.previous, row.author, row.reason) == (
        "high",
        "low",
        "maria",
        "it breaks the API",
    )
    assert row.edit_pending is False


async def test_a_rate_after_the_digest_was_posted_edits_it_exactly_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    low = await a_low_commit(client)
    assert "🟢" in (section_of(day_text(fake), low.sha) or "")
    before = edits(github)
    payload = in_issue(github, f"/digest rate {low.sha[:7]} high", repo=ASCEND)
    delivery = "rate-delivery-1"
    await command(client, github, payload, delivery=delivery)
    reply = only_reply(github, payload, ASCEND)
    assert "**low** → **high**" in reply and "will be edited" in reply
    assert edits(github) == before + 1, "the posted part is edited once"
    text = day_text(fake)
    section = section_of(text, low.sha)
    assert section is not None and HIGH_HEADING in section
    assert RATED in entry_of(text, low.sha)
    # The same rate again, a redelivery of the first and another scheduler round: no edit.
    again = in_issue(github, f"/digest rate {low.sha[:7]} HIGH", repo=ASCEND)
    await command(client, github, again)
    assert "already" in only_reply(github, again, ASCEND)
    await command(client, github, payload, delivery=delivery)
    await command(client, github, payload)
    await publish_round(client)
    assert edits(github) == before + 1
    assert len(github.replies_to(ASCEND, payload["comment"]["id"])) == 1
    # A different rate edits again, once.
    lower = in_issue(github, f"/digest rate {low.sha[:7]} medium not that bad", repo=ASCEND)
    await command(client, github, lower)
    assert "**high** → **medium**" in only_reply(github, lower, ASCEND)
    assert edits(github) == before + 2
    assert "🟡" in (section_of(day_text(fake), low.sha) or "")


async def test_a_rate_that_confirms_the_analysis_leaves_the_digest_as_it_was(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """`rate X low` of a commit analysed low: "nothing to change", and nothing changes (no
    mark); it is kept as a confirmation, a label for `eval --corrections`."""
    client, fake = await land_command_day(app_client, github, clock)
    low = await a_low_commit(client)
    payload = in_issue(github, f"/digest rate {low.sha[:8]} low", repo=ASCEND)
    await command(client, github, payload)
    assert "nothing to change" in only_reply(github, payload, ASCEND)
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    assert RATED not in entry_of(day_text(fake), low.sha)
    (row,) = await rows(client, ratings)
    assert (row.sha, row.importance) == (low.sha, "low")


async def test_only_maintainers_may_rate(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    fake.roles["reader"] = "read"
    low = await a_low_commit(client)
    payload = in_issue(github, f"/digest rate {low.sha[:7]} high", by="reader", repo=ASCEND)
    await command(client, github, payload)
    assert "Only people with write" in only_reply(github, payload, ASCEND)
    assert await rows(client, ratings) == []


async def test_an_unknown_or_ambiguous_sha_gets_one_line(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, _ = await land_command_day(app_client, github, clock)
    unknown = in_issue(github, "/digest rate 0000000 high", repo=ASCEND)
    await command(client, github, unknown)
    reply = only_reply(github, unknown, ASCEND)
    assert "No commit starting with `0000000`" in reply
    assert len(reply.strip().splitlines()) == 2  # the marker and one line
    shas = [c["id"] for c in day_commits()]
    # The shortest prefix two of the day's commits share, if 7 digits do not tell them apart,
    # else a prefix made shared by a copy of a commit.
    first = shas[0]
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(
            sa.text(
                "INSERT INTO commits (repo_id, sha, installation_id, delivery_id, position, "
                "landed_at, branch, forced, title, message, author_name, url, state, created_at) "
                "SELECT repo_id, :sha, installation_id, delivery_id, position, landed_at, branch, "
                "forced, title, message, author_name, url, state, created_at FROM commits "
                "WHERE sha = :original"
            ),
            [{"sha": first[:7] + ("0" if first[7] != "0" else "1") * 33, "original": first}],
        )
    ambiguous = in_issue(github, f"/digest rate {first[:7]} low", repo=ASCEND)
    await command(client, github, ambiguous)
    reply = only_reply(github, ambiguous, ASCEND)
    assert "matches 2 stored commits" in reply
    assert len(reply.strip().splitlines()) == 2
    bad = in_issue(github, f"/digest rate {first[:7]} critical", repo=ASCEND)
    await command(client, github, bad)
    assert "is not an importance" in only_reply(github, bad, ASCEND)


async def test_eval_corrections_exports_the_ratings_as_labels(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    database_url: str,
    tmp_path: Path,
) -> None:
    client, _ = await land_command_day(app_client, github, clock)
    low = await a_low_commit(client)
    payload = in_issue(
        github, f"/digest rate {low.sha[:7]} high breaks @octocat's API", repo=ASCEND
    )
    await command(client, github, payload)
    out = await bot_stdout(database_url, "eval", "--corrections", ASCEND)
    (line,) = out.splitlines()
    # The labels are `bot eval`'s own: it scores an analyser against them.
    labels = tmp_path / "labels.jsonl"
    labels.write_text(out, encoding="utf-8")
    scored = await bot_stdout(database_url, "eval", str(labels))
    assert "commits: 1" in scored
    assert json.loads(line) == {
        "sha": low.sha,
        "title": low.title,
        "importance": "high",
        "repo": ASCEND,
        "day": DAY,
        "why": "breaks @octocat's API",
    }


def test_ratings_go_with_their_repository() -> None:
    """Every table of a repository's rows (a `repo_id`), ratings among them, is deleted when
    the repository is removed or its installation deleted."""
    keyed = {table.name for table in metadata.sorted_tables if "repo_id" in table.c}
    assert "ratings" in keyed
    assert keyed == {table.name for table in PER_REPO_TABLES}


async def test_a_rate_to_high_before_the_cutoff_sends_its_alert(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(
        app_client, github, clock, config="alerts:\n  on: [high]\n"
    )
    low = await a_low_commit(client)
    assert not [d for d in fake.discussions if low.sha in alert_shas(d)]
    payload = in_issue(github, f"/digest rate {low.sha[:7]} high", repo=ASCEND)
    await command(client, github, payload)
    (alert,) = [d for d in fake.discussions if low.sha in alert_shas(d)]
    assert RATED in alert["body"]


async def test_a_rate_to_high_before_the_analysis_alerts_as_rated_once_analysed(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(
        app_client, github, clock, config="alerts:\n  on: [high]\n", analyse=False
    )
    # A commit the analyser (the rules, no LLM here) will rate low.
    low = next(
        c["id"]
        for c in day_commits()
        if analyze(CommitInput.from_github(fake.commits[c["id"]], repo=ASCEND)).importance
        is Importance.LOW
    )
    # Rated before its analysis ran (command jobs go first).
    payload = in_issue(github, f"/digest rate {low[:7]} high", repo=ASCEND)
    await command(client, github, payload)
    assert "not analysed yet" in only_reply(github, payload, ASCEND)
    (alert,) = [d for d in fake.discussions if low in alert_shas(d)]
    assert RATED in alert["body"]


async def test_a_rate_to_high_of_a_posted_commit_edits_its_day_and_sends_no_late_alert(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(
        app_client, github, clock, config="alerts:\n  on: [high]\n"
    )
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    low = await a_low_commit(client)
    alerts = [d for d in fake.discussions if alert_shas(d)]
    payload = in_issue(github, f"/digest rate {low.sha[:7]} high", repo=ASCEND)
    await command(client, github, payload)
    await publish_round(client)
    assert HIGH_HEADING in (section_of(day_text(fake), low.sha) or "")
    assert [d for d in fake.discussions if alert_shas(d)] == alerts


def alert_shas(discussion: dict[str, Any]) -> set[str]:
    return set(re.findall(r"<!-- commit-digest:[^ ]+:alert:([0-9a-f]{40}) -->", discussion["body"]))


async def test_a_rate_edits_a_day_posted_as_issue_comments_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(
        app_client, github, clock, config="publish:\n  to: issue-comment\n"
    )
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    low = await a_low_commit(client)
    marker = f"<!-- commit-digest:{ASCEND}:{DAY}:part-"

    def posted() -> str:
        return "\n".join(c["body"] for c in fake.comments if c["body"].startswith(marker))

    assert "🟢" in (section_of(posted(), low.sha) or "")
    payload = in_issue(github, f"/digest rate {low.sha[:7]} high", repo=ASCEND)
    await command(client, github, payload)
    await command(client, github, payload)
    patches = github.calls_to("PATCH", r"/issues/comments/")
    assert len(patches) == 1
    assert HIGH_HEADING in (section_of(posted(), low.sha) or "")
    assert RATED in entry_of(posted(), low.sha)


async def test_roll_ups_count_the_maintainers_importance(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """The week's counts are built from the same shown commits as the digests."""
    client, _ = await land_command_day(app_client, github, clock)
    low = await a_low_commit(client)
    config = default_config("en")
    before = Counts.of(shown_commits(config, await stored(client))[0])
    payload = in_issue(github, f"/digest rate {low.sha[:7]} high", repo=ASCEND)
    await command(client, github, payload)
    after = Counts.of(shown_commits(config, await stored(client))[0])
    assert after.importance[Importance.HIGH] == before.importance.get(Importance.HIGH, 0) + 1
    assert after.importance[Importance.LOW] == before.importance[Importance.LOW] - 1


async def test_a_rate_of_a_late_commit_edits_its_addendum_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    sha = "b" * 40
    late = late_push(fake.commits, ASCEND, DAY, sha, "Fix the late bug (#4242)\n\nDetails.")
    clock.advance(hours=1)
    assert (await deliver(client, "push", late))[0] == 202
    await client.app[EXECUTOR].drain()
    await publish_round(client)
    discussion = day_discussion(fake)
    (addendum,) = [c for c in discussion["comments"] if ":addendum-1 -->" in c["body"]]
    shown = next(c for c in await stored(client) if c.sha == sha)
    old = (shown.analysis or {})["importance"]
    new = "low" if old == "high" else "high"
    before = edits(github)
    payload = in_issue(github, f"/digest rate {sha[:8]} {new}", repo=ASCEND)
    await command(client, github, payload)
    await publish_round(client)
    assert edits(github) == before + 1
    assert RATED in entry_of(addendum["body"], sha)
    assert RATED not in discussion["body"]


async def spend_tokens(client: Client, shas: list[str], tokens: int) -> None:
    """These commits' analyses as an LLM's record them: the tokens each took."""
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(
            sa.update(analyses)
            .where(analyses.c.sha.in_(shas))
            .values(input_tokens=tokens, cached_input_tokens=0, output_tokens=tokens // 10)
        )


def tokens_line(text: str) -> str:
    (line,) = [x for x in text.splitlines() if "LLM tokens:" in x]
    return line


async def test_a_rate_edits_a_posted_day_with_the_figures_it_was_posted_with(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    day = await stored(client)
    await spend_tokens(client, [c.sha for c in day], 1_000)
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    discussion = day_discussion(fake)
    posted = tokens_line(day_text(fake))
    assert f"{1_000 * len(day):,} input" in posted
    # A commit of the day lands late (its own addendum), and its analysis takes many tokens.
    sha = "b" * 40
    late = late_push(fake.commits, ASCEND, DAY, sha, "Fix the late bug (#4242)\n\nDetails.")
    clock.advance(hours=1)
    assert (await deliver(client, "push", late))[0] == 202
    await client.app[EXECUTOR].drain()
    await publish_round(client)
    await spend_tokens(client, [sha], 500_000)
    low = next(c for c in await a_low_commits(client) if c.sha != sha)
    before = edits(github)
    payload = in_issue(github, f"/digest rate {low.sha[:7]} high", repo=ASCEND)
    await command(client, github, payload)
    assert edits(github) == before + 1
    assert HIGH_HEADING in (section_of(day_text(fake), low.sha) or "")
    # The edited day still says what the day's own commits took when it was posted.
    assert tokens_line(day_text(fake)) == posted
    assert ":addendum-1 -->" in discussion["comments"][-1]["body"]


async def a_low_commits(client: Client) -> list[DayCommit]:
    return [c for c in await stored(client) if (c.analysis or {}).get("importance") == "low"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("/digest rate @octocat high", "is not a commit sha prefix"),
        ("/digest rate abcdef1 urgent", "is not an importance"),
        ("/digest rate abcdef1", "wrong arguments"),
        ("/digest rate #12 high", "is not a commit sha prefix"),
        (
            "/digest rate 0000000 high cc @octocat, see #12 and [x](https://evil.example)",
            "No commit",
        ),
    ],
)
async def test_hostile_rates_get_one_safe_reply(
    app_client: Callable[..., Any], github: FakeGitHub, body: str, expected: str
) -> None:
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, body)
    await command(client, github, payload)
    assert expected in only_reply(github, payload)  # checks: no ping, no reference, no link


def test_the_confirmation_is_in_the_repositorys_language() -> None:
    sha = "e77502ef715f" + "0" * 28
    day = datetime(2026, 7, 15, tzinfo=UTC).date()
    zh = rated_text("zh-CN", sha, "low", "high", day=day, posted=True, analysed=True)
    assert "**低** → **高**" in zh and "由维护者评定" in zh and "2026-07-15 的日报已发布" in zh
    en = rated_text("en", sha, "low", "high", day=day, posted=False, analysed=True)
    assert "**low** → **high**" in en and "not posted yet" in en
    unanalysed = rated_text("en", sha, None, "medium", day=day, posted=False, analysed=False)
    assert "not analysed → **medium**" in unanalysed and "not analysed yet" in unanalysed


async def a_rate_retried_after_a_later_one(
    client: Client, github: FakeGitHub, clock: FakeClock, low: DayCommit
) -> Any:
    """Maria rates `low` high and her reply fails (502, nothing written): her job is to be
    retried. Meanwhile Dana rates it medium, answered at once; then Maria's job runs again."""
    github.fail("POST", r"/issues/\d+/comments$", 502, times=1)
    first = in_issue(github, f"/digest rate {low.sha[:8]} high", repo=ASCEND)
    await command(client, github, first)
    assert github.replies_to(ASCEND, first["comment"]["id"]) == []
    clock.advance(seconds=20)
    second = in_issue(github, f"/digest rate {low.sha[:8]} medium", by="dana", repo=ASCEND)
    await command(client, github, second)
    assert "**high** → **medium**" in only_reply(github, second, ASCEND)
    clock.advance(minutes=30)
    await client.app[EXECUTOR].drain()
    return first


async def test_a_retried_rate_only_replies_and_a_later_rate_stands(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    fake.roles["dana"] = "write"
    low = await a_low_commit(client)
    first = await a_rate_retried_after_a_later_one(client, github, clock, low)
    told = only_reply(github, first, ASCEND)
    # What Maria's command did, and that Dana's later rating stands (named as code: no ping).
    assert "**low** → **high**" in told
    assert "A later rating by `dana` (**medium**) now stands." in told
    (row,) = await rows(client, ratings)
    assert (row.importance, row.author) == ("medium", "dana")


async def test_a_retried_rate_does_not_edit_a_posted_day_back_over_a_later_rate(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    fake.roles["dana"] = "write"
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    low = await a_low_commit(client)
    before = edits(github)
    await a_rate_retried_after_a_later_one(client, github, clock, low)
    await publish_round(client)
    assert "🟡" in (section_of(day_text(fake), low.sha) or ""), "Dana's later rate stands"
    made = edits(github)
    assert before < made <= before + 2  # Maria's and Dana's (maybe as one), never a third
    clock.advance(hours=1)
    await publish_round(client)
    assert edits(github) == made


async def test_a_retried_confirmation_overruled_since_does_not_say_already(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """Maria confirms a low commit as low (her reply fails), Dana then rates it high: Maria's
    rerun names Dana's rating, not "rated low already", no longer true when it is read."""
    client, fake = await land_command_day(app_client, github, clock)
    fake.roles["dana"] = "write"
    low = await a_low_commit(client)
    github.fail("POST", r"/issues/\d+/comments$", 502, times=1)
    first = in_issue(github, f"/digest rate {low.sha[:8]} low", repo=ASCEND)
    await command(client, github, first)
    clock.advance(seconds=20)
    second = in_issue(github, f"/digest rate {low.sha[:8]} high", by="dana", repo=ASCEND)
    await command(client, github, second)
    clock.advance(minutes=30)
    await client.app[EXECUTOR].drain()
    told = only_reply(github, first, ASCEND)
    assert "already" not in told and "nothing to change" not in told, told
    assert "A later rating by `dana` (**high**) now stands." in told, told


@pytest.mark.parametrize("confirming", [False, True])
async def test_rating_an_excluded_commit_says_it_shows_in_no_digest(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, confirming: bool
) -> None:
    """`exclude` keeps the commit out of every digest; a rating cannot put it back, so the
    reply says it is stored (a label) and shown nowhere, a confirmation's too."""
    first = day_commits()[0]
    title = first["message"].split("\n", 1)[0]
    config = f"exclude:\n  messages: [{json.dumps('^' + re.escape(title))}]\n"
    client, fake = await land_command_day(app_client, github, clock, config=config)
    (mine,) = [c for c in await stored(client) if c.sha == first["id"]]
    importance = (mine.analysis or {}).get("importance", "low") if confirming else "high"
    if not confirming:
        assert (mine.analysis or {}).get("importance") != "high"
    payload = in_issue(github, f"/digest rate {first['id'][:9]} {importance}", repo=ASCEND)
    await command(client, github, payload)
    reply = only_reply(github, payload, ASCEND)
    assert "leaves this commit out of digests" in reply
    assert "will show this rating" not in reply
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    assert first["id"][:7] not in day_text(fake)


async def test_a_rate_that_took_effect_but_never_replied_is_marked_done(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """The reply fails for good after the rating was stored and the posted day edited: the
    👀 becomes 👍 (it took effect), not 😕 (which reads as "nothing happened")."""
    client, fake = await land_command_day(app_client, github, clock)
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    low = await a_low_commit(client)
    before = edits(github)
    github.fail("POST", r"/issues/\d+/comments$", 502, times=1_000)
    payload = in_issue(github, f"/digest rate {low.sha[:8]} high", repo=ASCEND)
    await command(client, github, payload)
    for _ in range(RunCommand.retry.attempts):
        clock.advance(minutes=30)
        await client.app[EXECUTOR].drain()
    assert len(await rows(client, ratings)) == 1
    assert edits(github) == before + 1
    mine = {
        content
        for subject, content, _ in fake.reactions
        if subject == str(payload["comment"]["id"])
    }
    assert mine == {"+1"}


async def test_a_rating_while_discussions_are_off_waits_for_them_and_does_not_fail_the_job(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    low = await a_low_commit(client)
    fake.has_discussions = False  # turned off for two hours
    payload = in_issue(github, f"/digest rate {low.sha[:7]} high", repo=ASCEND)
    await command(client, github, payload)
    for _ in range(12):
        clock.advance(minutes=10)
        await publish_round(client)
    failed = [(j.kind, j.last_error) for j in await rows(client, jobs, jobs.c.state == "failed")]
    assert failed == []
    fake.has_discussions = True
    for _ in range(3):
        clock.advance(hours=1)
        await publish_round(client)
    assert "🔴" in (section_of(day_text(fake), low.sha) or "")
