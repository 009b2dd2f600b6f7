"""`/digest` commands through the webhook, the jobs and the fake GitHub: each command in an
issue and in a Discussion, who may, bots and the App's own comments, commands in code blocks
and quotes, exactly one reply (redelivery, restart, a create answered 502), the limits, and
hostile arguments."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app import EXECUTOR, STORE
from bot.digest.command_replies import ConfigField, config_text, finish, help_text, preview_text
from bot.digest.command_syntax import command_line, parse
from bot.jobs.commands import RunCommand
from bot.store.housekeeping import Housekeeping
from bot.store.job_payloads import RefreshConfigPayload
from bot.store.schema import commands, digests, jobs, pushes, repositories
from tests.command_support import (
    ASCEND,
    BODY_LIMIT,
    DAY,
    MAINTAINER,
    REPO,
    app_with_repo,
    command,
    day_commits,
    day_discussion,
    in_issue,
    land_command_day,
    only_reply,
)
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.markdown import parse as parse_md
from tests.scenarios import ALERT_DAY, CONFIG, breaking_sha, cutoff, land_alert_day
from tests.support import (
    FakeClock,
    publish_round,
)


def reactions(fake: FakeRepo, subject: object) -> set[str]:
    """The App's reactions on a comment (its REST id, or a discussion comment's node id)."""
    return {c for s, c, by in fake.reactions if s == str(subject) and by == "commit-digest[bot]"}


def reacted(fake: FakeRepo, subject: object) -> bool:
    return "eyes" in reactions(fake, subject)


# --- help, in an issue and in a Discussion ---------------------------------------------------


async def test_help_in_an_issue_is_one_reply_with_eyes(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    client, fake = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest help")
    assert await command(client, github, payload) == 202
    reply = only_reply(github, payload)
    for usage in ("/digest explain", "/digest preview", "/digest config", "/digest rate"):
        assert usage in reply
    assert reacted(fake, payload["comment"]["id"])
    # The reply went to the command's own issue.
    number = payload["issue"]["number"]
    assert [c["issue_number"] for c in fake.comments if c["body"] == reply] == [number]


async def test_help_in_a_discussion_is_a_threaded_reply(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    client, fake = await app_with_repo(app_client, github)
    discussion = github.open_discussion(REPO)
    payload = github.comment_on_discussion(
        REPO, discussion, "\n\n  /digest   help\n", by=MAINTAINER
    )
    assert await command(client, github, payload) == 202
    reply = only_reply(github, payload)
    (thread,) = next(d for d in fake.discussions if d["id"] == discussion)["comments"]
    assert thread["id"] == payload["comment"]["node_id"]
    assert [r["body"] for r in thread["replies"]] == [reply]
    assert reacted(fake, payload["comment"]["node_id"])


async def test_a_command_in_a_reply_is_answered_in_the_same_thread(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    client, fake = await app_with_repo(app_client, github)
    discussion = github.open_discussion(REPO)
    top = github.comment_on_discussion(REPO, discussion, "What changed today?", by="someone")
    assert await command(client, github, top) == 200  # not a command: ignored
    payload = github.comment_on_discussion(
        REPO, discussion, "/digest help", by=MAINTAINER, reply_to=top["comment"]["node_id"]
    )
    assert await command(client, github, payload) == 202
    reply = only_reply(github, payload)
    (thread,) = next(d for d in fake.discussions if d["id"] == discussion)["comments"]
    # GitHub threads one level deep: the answer goes under the same top-level comment.
    assert [r["body"] for r in thread["replies"]][-1] == reply


# --- who may ---------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["admin", "maintain", "write"])
async def test_write_access_may_command(
    app_client: Callable[..., Any], github: FakeGitHub, role: str
) -> None:
    client, fake = await app_with_repo(app_client, github, dana=role)
    payload = in_issue(github, "/digest help", by="dana")
    await command(client, github, payload)
    assert "/digest explain" in only_reply(github, payload)
    assert reacted(fake, payload["comment"]["id"])


@pytest.mark.parametrize("role", ["triage", "read", None])
async def test_others_are_told_who_may_once_a_day(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, role: str | None
) -> None:
    client, fake = await app_with_repo(app_client, github, **({"dana": role} if role else {}))
    number = github.open_issue(REPO)
    first = github.comment_on_issue(REPO, number, "/digest help", by="dana")
    await command(client, github, first)
    reply = only_reply(github, first)
    assert "write, maintain or admin" in reply and "/digest explain" not in reply
    assert not reacted(fake, first["comment"]["id"])
    # Again the same day, in the same thread or another: no second reply.
    clock.advance(hours=3)
    again = github.comment_on_issue(REPO, number, "/digest config", by="dana")
    await command(client, github, again)
    assert github.replies_to(REPO, again["comment"]["id"]) == []
    elsewhere = in_issue(github, "/digest config", by="dana")
    await command(client, github, elsewhere)
    assert github.replies_to(REPO, elsewhere["comment"]["id"]) == []
    # The next day: told again.
    clock.advance(hours=22)
    tomorrow = github.comment_on_issue(REPO, number, "/digest config", by="dana")
    await command(client, github, tomorrow)
    assert "write, maintain or admin" in only_reply(github, tomorrow)


async def test_one_outsider_in_forty_issues_is_told_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await app_with_repo(app_client, github)
    replies = 0
    for _ in range(40):
        payload = in_issue(github, "/digest help", by="mallory")
        await command(client, github, payload)
        replies += len(github.replies_to(REPO, payload["comment"]["id"]))
        clock.advance(seconds=20)
    assert replies == 1
    assert fake.reactions == []


async def test_refusals_share_a_budget_per_repository_an_hour(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await app_with_repo(app_client, github)
    number = github.open_issue(REPO)
    start = clock.now()
    answered = []
    for i in range(40):
        sock = github.comment_on_issue(REPO, number, "/digest help", by=f"sock{i}")
        await command(client, github, sock)
        answered.append(bool(github.replies_to(REPO, sock["comment"]["id"])))
        assert not reacted(fake, sock["comment"]["id"])
        clock.advance(seconds=20)
    assert answered == [True] * 10 + [False] * 30
    # A maintainer is not held back by them.
    mine = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, mine)
    assert "/digest explain" in only_reply(github, mine)
    # Once the first refusals have left the hour, a newcomer is told again.
    clock.current = start + timedelta(hours=1, seconds=1)
    newcomer = github.comment_on_issue(REPO, number, "/digest help", by="newcomer")
    await command(client, github, newcomer)
    assert "write, maintain or admin" in only_reply(github, newcomer)


async def test_the_permission_is_read_once_within_its_cache(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await app_with_repo(app_client, github)
    for _ in range(3):
        await command(client, github, in_issue(github, "/digest help"))
    asked = github.calls_to("GET", r"/collaborators/maria/permission$")
    assert len(asked) == 1
    # A maintainer who lost write access is refused once the cache has expired.
    fake.roles[MAINTAINER] = "read"
    clock.advance(minutes=2)
    payload = in_issue(github, "/digest help")
    await command(client, github, payload)
    assert "write, maintain or admin" in only_reply(github, payload)


@pytest.mark.parametrize(
    ("login", "via_app"),
    [("dependabot[bot]", False), ("commit-digest[bot]", False), (MAINTAINER, True)],
)
async def test_bots_and_the_apps_own_comments_are_ignored(
    app_client: Callable[..., Any], github: FakeGitHub, login: str, via_app: bool
) -> None:
    client, fake = await app_with_repo(app_client, github)
    number = github.open_issue(REPO)
    payload = github.comment_on_issue(REPO, number, "/digest help", by=login, via_app=via_app)
    assert await command(client, github, payload) == 200
    assert github.replies_to(REPO, payload["comment"]["id"]) == []
    assert github.calls_to("GET", r"/permission$") == []
    assert fake.reactions == []
    async with client.app[STORE].engine.connect() as conn:
        kinds = (await conn.execute(sa.select(jobs.c.kind))).scalars().all()
    assert "digest_command" not in kinds


@pytest.mark.parametrize("body", ["/Digest help", "/DIGEST help", "/dIgEsT HELP", "/Digest"])
async def test_the_command_word_is_taken_in_any_case(
    app_client: Callable[..., Any], github: FakeGitHub, body: str
) -> None:
    client, fake = await app_with_repo(app_client, github)
    payload = in_issue(github, body)
    assert await command(client, github, payload) == 202
    assert "/digest explain" in only_reply(github, payload)
    assert reacted(fake, payload["comment"]["id"])


@pytest.mark.parametrize(
    "body",
    [
        "<!-- the issue template's hint -->\n/digest help",
        "<!-- one -->  <!-- two -->\n\n<!--\n  a hint on\n  three lines\n-->\n/digest help",
        "/digest\u00a0help",  # a no-break space, shown as a space
        "/Digest\u2003help",
        "\u00a0/digest help",
    ],
)
async def test_what_github_shows_as_the_first_line_is_the_command(
    app_client: Callable[..., Any], github: FakeGitHub, body: str
) -> None:
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, body)
    assert await command(client, github, payload) == 202
    assert "/digest explain" in only_reply(github, payload)


@pytest.mark.parametrize(
    "body",
    [
        "```\n/digest help\n```",
        "<!-- a comment never closed\n/digest help",
        "<!-- a hint --> /digest help",  # the rest of an HTML block: shown as text
        "    <!-- code -->\n/digest help",
        "~~~sh\n/digest help\n~~~",
        "    /digest help",
        # A tab after 1-3 spaces reaches column 4: an indented code block all the same.
        " \t/digest help",
        "  \t/digest help",
        "   \t/digest help",
        "> /digest help",
        "Thanks!\n/digest help",
        "/digestive help",
        "/DIGESTIVE help",
        "/dige\u017ft help",  # a long s, which Unicode case folding makes an `s`
        "`/digest help`",
    ],
)
async def test_a_command_in_a_code_block_or_quote_is_not_one(
    app_client: Callable[..., Any], github: FakeGitHub, body: str
) -> None:
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, body)
    assert await command(client, github, payload) == 200
    assert github.replies_to(REPO, payload["comment"]["id"]) == []


# --- exactly one reply -----------------------------------------------------------------------


async def test_a_redelivery_and_a_restart_never_answer_twice(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest help")
    assert await command(client, github, payload, delivery="d-1") == 202
    assert await command(client, github, payload, delivery="d-1") == 200  # a redelivery
    # The same comment under another delivery id (a second webhook for it): no second job.
    assert await command(client, github, payload, delivery="d-2") == 202
    restarted = await app_client()
    await restarted.app[EXECUTOR].drain()
    assert await command(restarted, github, payload, delivery="d-3") == 202
    only_reply(github, payload)


async def test_a_job_run_again_after_a_crash_answers_once(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest help")
    await command(client, github, payload)
    # The job runs again from the start (its holder died after replying, before it ended).
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(sa.update(jobs).values(state="pending", attempts=0))
    await client.app[EXECUTOR].drain()
    only_reply(github, payload)


@pytest.mark.parametrize("where", ["issue", "discussion"])
async def test_a_reply_github_made_and_answered_502_is_not_made_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, where: str
) -> None:
    client, _ = await app_with_repo(app_client, github)
    if where == "issue":
        payload = in_issue(github, "/digest help")
        github.fail("POST", r"/issues/\d+/comments$", 502, after_write=True)
    else:
        discussion = github.open_discussion(REPO)
        payload = github.comment_on_discussion(REPO, discussion, "/digest help", by=MAINTAINER)
        github.fail("POST", r"^/graphql$", 502, operation="ReplyToCommand", after_write=True)
    await command(client, github, payload)
    assert len(github.written_then_failed) == 1
    clock.advance(minutes=5)  # the retry's backoff
    await client.app[EXECUTOR].drain()
    only_reply(github, payload)
    async with client.app[STORE].engine.connect() as conn:
        states = (await conn.execute(sa.select(jobs.c.state))).scalars().all()
    assert "pending" not in states and "running" not in states


@pytest.mark.parametrize("where", ["issue", "discussion"])
async def test_a_reply_that_never_goes_out_turns_the_eyes_into_confused(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, where: str
) -> None:
    client, fake = await app_with_repo(app_client, github)
    if where == "issue":
        payload = in_issue(github, "/digest help")
        subject = payload["comment"]["id"]
        github.fail("POST", r"/issues/\d+/comments$", 502, times=1_000)
    else:
        discussion = github.open_discussion(REPO)
        payload = github.comment_on_discussion(REPO, discussion, "/digest help", by=MAINTAINER)
        subject = payload["comment"]["node_id"]
        github.fail("POST", r"^/graphql$", 502, operation="ReplyToCommand", times=1_000)
    await command(client, github, payload)
    assert reactions(fake, subject) == {"eyes"}, "taken, and being worked on"
    for _ in range(RunCommand.retry.attempts):
        clock.advance(minutes=30)  # past each retry's backoff
        await client.app[EXECUTOR].drain()
    async with client.app[STORE].engine.connect() as conn:
        (state,) = (
            (await conn.execute(sa.select(jobs.c.state).where(jobs.c.kind == "digest_command")))
            .scalars()
            .all()
        )
    assert state == "failed"
    assert github.replies_to(REPO, payload["comment"]["id"]) == []
    assert reactions(fake, subject) == {"confused"}, "given up: nobody is left waiting"


# --- the limits ------------------------------------------------------------------------------


async def test_ten_commands_an_hour_a_person_then_one_reply_says_when(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, _ = await app_with_repo(app_client, github)
    number = github.open_issue(REPO)
    start = clock.now()
    for i in range(10):
        payload = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
        await command(client, github, payload)
        assert "/digest explain" in only_reply(github, payload), i
        clock.advance(minutes=1)
    over = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, over)
    when = (start + timedelta(hours=1)).strftime("%Y-%m-%d %H:%M UTC")
    assert when in only_reply(github, over)
    quiet = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, quiet)
    assert github.replies_to(REPO, quiet["comment"]["id"]) == []
    # Once the first has left the hour, there is room again.
    clock.current = start + timedelta(hours=1, seconds=1)
    later = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, later)
    assert "/digest explain" in only_reply(github, later)


async def test_one_back_at_the_time_told_and_over_again_is_told_a_new_time(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """Told "after start+1h", taken then, and over again half a minute later (the second of
    the ten is still in the hour): the time told has come, so a new one is due."""
    client, _ = await app_with_repo(app_client, github)
    number = github.open_issue(REPO)
    start = clock.now().replace(second=0, microsecond=0)
    clock.current = start
    for _ in range(10):
        await command(
            client, github, github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
        )
        clock.advance(minutes=1)
    over = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, over)
    assert (start + timedelta(hours=1)).strftime("%H:%M UTC") in only_reply(github, over)
    clock.current = start + timedelta(hours=1)
    back = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, back)
    assert "/digest explain" in only_reply(github, back)
    clock.advance(seconds=30)
    again = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, again)
    told = only_reply(github, again)
    assert "Try again after" in told
    assert (start + timedelta(hours=1)).strftime("%H:%M UTC") not in told
    # Within that new wait, no more "when" replies.
    quiet = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, quiet)
    assert github.replies_to(REPO, quiet["comment"]["id"]) == []


async def test_the_time_to_try_again_is_the_next_minute_in_the_repositorys_zone(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    fake = github.add_repo(REPO, repo_id=4242, installation_id=77)
    fake.files[CONFIG] = "timezone: Asia/Shanghai\n"  # UTC+8
    client, _ = await app_with_repo(app_client, github)
    number = github.open_issue(REPO)
    clock.current = datetime(2026, 7, 10, 12, 0, 30, tzinfo=UTC)
    for _ in range(10):
        await command(
            client, github, github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
        )
        clock.advance(minutes=1)
    over = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, over)
    # The first command leaves the hour at 13:00:30 UTC: the first whole minute after is 13:01.
    assert "Try again after 2026-07-10 21:01 Asia/Shanghai." in only_reply(github, over)
    # At the minute it names, the command is taken.
    clock.current = datetime(2026, 7, 10, 13, 1, tzinfo=UTC)
    then = github.comment_on_issue(REPO, number, "/digest help", by=MAINTAINER)
    await command(client, github, then)
    assert "/digest explain" in only_reply(github, then)


async def test_thirty_commands_an_hour_a_repository(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    people = [f"dev{i}" for i in range(4)]
    client, _ = await app_with_repo(app_client, github, **dict.fromkeys(people, "write"))
    number = github.open_issue(REPO)
    for i in range(30):
        payload = github.comment_on_issue(REPO, number, "/digest help", by=people[i % 3])
        await command(client, github, payload)
        clock.advance(seconds=30)
    over = github.comment_on_issue(REPO, number, "/digest help", by=people[3])
    await command(client, github, over)
    assert "Try again after" in only_reply(github, over)


# --- the commands ----------------------------------------------------------------------------


async def test_config_lists_each_field_with_its_source_in_the_repository_language(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    fake = github.add_repo(REPO, repo_id=4242, installation_id=77)
    fake.files[CONFIG] = "timezone: Asia/Shanghai\nlanguage: zh-CN\n"
    client, _ = await app_with_repo(app_client, github)
    discussion = github.open_discussion(REPO)
    # The config is read first (the repository's first event), then the command answered.
    payload = github.comment_on_discussion(REPO, discussion, "/digest config", by=MAINTAINER)
    await command(client, github, payload)
    reply = only_reply(github, payload)
    assert "当前生效的配置" in reply
    assert '- `timezone`: `"Asia/Shanghai"` (文件)' in reply
    assert '- `cutoff`: `"00:00"` (默认)' in reply
    assert "- `publish.to`:" in reply
    sha = hashlib_blob(fake.files[CONFIG])
    assert f"`{sha}`" in reply


def hashlib_blob(text: str | bytes) -> str:
    """Git's blob sha of a file, as GitHub's contents API gives it."""
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


async def test_config_shows_the_last_error_of_a_rejected_file(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    fake = github.add_repo(REPO, repo_id=4242, installation_id=77)
    fake.files[CONFIG] = "timezone: Mars/Olympus\n"
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest config")
    await command(client, github, payload)
    reply = only_reply(github, payload)
    assert "Mars/Olympus" in reply and "rejected" in reply
    assert '- `timezone`: `"UTC"` (default)' in reply


@pytest.mark.parametrize(
    ("language", "in_force", "rejected"),
    [
        ("en", "From `.github/commit-digest.yml` at blob", "The rejected version is blob"),
        ("zh-CN", "来自 `.github/commit-digest.yml`，blob", "被拒绝的版本是 blob"),
    ],
    ids=["en", "zh-CN"],
)
async def test_config_after_a_rejected_file_names_both_blobs(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    language: str,
    in_force: str,
    rejected: str,
) -> None:
    """A good file, then a bad one pushed: the fields are the good file's, said to come from
    its blob; the rejected file's blob is said with its error."""
    good = f"timezone: Asia/Shanghai\nlanguage: {language}\n"
    bad = f"timezone: Mars/Olympus\nlanguage: {language}\n"
    fake = github.add_repo(REPO, repo_id=4242, installation_id=77)
    fake.files[CONFIG] = good
    client, _ = await app_with_repo(app_client, github)
    fake.files[CONFIG] = bad
    await client.app[STORE].jobs.enqueue(
        RefreshConfigPayload(repo_id=4242), clock.now(), rearm=True
    )
    await client.app[EXECUTOR].drain()
    payload = in_issue(github, "/digest config")
    await command(client, github, payload)
    reply = only_reply(github, payload)
    assert '`timezone`: `"Asia/Shanghai"`' in reply and "Mars/Olympus" in reply
    assert f"{in_force} `{hashlib_blob(good)}`" in reply
    assert f"{rejected} `{hashlib_blob(bad)}`" in reply


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "From an earlier version of `.github/commit-digest.yml`, whose blob was not"),
        ("zh-CN", "来自 `.github/commit-digest.yml` 的较早版本，其 blob 未被记录"),
    ],
    ids=["en", "zh-CN"],
)
async def test_config_in_force_before_its_blob_was_recorded_is_said_to_be_from_the_file(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    language: str,
    said: str,
) -> None:
    """A file rejected before migration 0015 left `config_in_force_sha` empty, though the
    values in force came from an earlier good file: not "every value is the default"."""
    fake = github.add_repo(REPO, repo_id=4242, installation_id=77)
    fake.files[CONFIG] = f"timezone: Asia/Shanghai\nlanguage: {language}\n"
    client, _ = await app_with_repo(app_client, github)
    fake.files[CONFIG] = f"timezone: Mars/Olympus\nlanguage: {language}\n"
    await client.app[STORE].jobs.enqueue(
        RefreshConfigPayload(repo_id=4242), clock.now(), rearm=True
    )
    await client.app[EXECUTOR].drain()
    async with client.app[STORE].engine.begin() as conn:  # as migration 0015 left it
        await conn.execute(sa.update(repositories).values(config_in_force_sha=None))
    payload = in_issue(github, "/digest config")
    await command(client, github, payload)
    reply = only_reply(github, payload)
    assert '`timezone`: `"Asia/Shanghai"`' in reply and said in reply
    assert "every value is the default" not in reply and "所有值均为默认值" not in reply


@pytest.mark.parametrize("language", ["en", "zh-CN"])
async def test_a_config_too_long_for_a_comment_is_cut_between_items_and_counted(
    app_client: Callable[..., Any], github: FakeGitHub, language: str
) -> None:
    # Within the file's 64 KB: each backslash is two characters once shown as JSON.
    paths = [f"p{i:02}" + "\\" * 600 for i in range(100)]
    fake = github.add_repo(REPO, repo_id=4242, installation_id=77)
    fake.files[CONFIG] = f"language: {language}\nexclude:\n  paths:\n" + "".join(
        f"    - '{p}'\n" for p in paths
    )
    assert len(fake.files[CONFIG].encode()) < 64 * 1024
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest config")
    await command(client, github, payload)
    reply = only_reply(github, payload)
    (line,) = [x for x in reply.splitlines() if x.startswith("- `exclude.paths`")]
    shown = re.findall(r'"(p\d\d)\\', line)
    assert 0 < len(shown) < 100 and shown == [p[:3] for p in paths[: len(shown)]]
    assert '\\", …]`' in line, "the list ends after a whole item"
    left = 100 - len(shown)
    expected = {"en": f"{left} more item(s) not shown", "zh-CN": f"另有 {left} 项未显示"}
    assert expected[language] in line
    # Every field after the long list is still there, whole.
    assert '- `llm.for`: `["high", "medium", "low"]`' in reply
    assert reply.endswith(("(default)", "(默认)"))


@pytest.mark.parametrize(
    ("language", "said"), [("en", "…and {n} more field(s) not shown"), ("zh-CN", "另有 {n} 个字段")]
)
def test_config_fields_that_do_not_fit_are_counted_whole(language: str, said: str) -> None:
    fields = [ConfigField(f"field{i}", "x" * 50, from_file=False) for i in range(30)]
    text = config_text(language, fields, sha=None, error="the error", room=1_500)
    assert len(text) <= 1_500
    lines = text.splitlines()
    shown = [x for x in lines if x.startswith("- ")]
    source = "default" if language == "en" else "默认"
    assert 0 < len(shown) < 30
    assert shown == [f'- `field{i}`: `"{"x" * 50}"` ({source})' for i in range(len(shown))]
    assert said.format(n=30 - len(shown)) in text
    assert "the error" in lines[-1], "the last error is always said"


@pytest.mark.parametrize("where", ["issue", "discussion"])
async def test_explain_shows_the_whole_analysis_and_where_it_was_posted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, where: str
) -> None:
    client, _ = await land_command_day(app_client, github, clock)
    commit = day_commits()[0]
    title = commit["message"].split("\n", 1)[0]

    def ask(body: str) -> dict[str, Any]:
        if where == "issue":
            return in_issue(github, body, repo=ASCEND)
        discussion = github.open_discussion(ASCEND)
        return github.comment_on_discussion(ASCEND, discussion, body, by=MAINTAINER)

    before = ask(f"/digest explain {commit['id'][:9].upper()}")
    await command(client, github, before)
    reply = only_reply(github, before, ASCEND)
    assert "### " in reply and "not posted yet" in reply and DAY in reply
    assert title.split(" ")[0].strip("[]") in reply
    # Once the day is posted, the reply links the digest.
    clock.current = datetime(2026, 6, 18, 0, 30, tzinfo=UTC)
    await publish_round(client)
    posted = ask(f"/digest explain {commit['id'][:7]}")
    await command(client, github, posted)
    reply = only_reply(github, posted, ASCEND)
    links = parse_md(reply).links()
    assert any("/discussions/" in link for link in links), links


# A link to an issue or pull request (a comment in one included) makes GitHub add a
# cross-reference to its timeline (FACTS.md §9); a Discussion has no such timeline event.
ISSUE_OR_PR_URL = re.compile(r"(?i)github\.com/[^/\s]+/[^/\s]+/(?:issues|pull)/\d+")


async def test_explain_and_preview_show_issue_comments_without_referencing_them(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "publish:\n  to: issue-comment\nalerts:\n  on: [breaking]\n  to: issue\n"
    client, fake = await land_alert_day(app_client, github, clock, config=config)
    fake.roles[MAINTAINER] = "admin"

    def url_of(marker: str) -> str:
        (url,) = [c["html_url"] for c in fake.comments if c["body"].startswith(marker)]
        assert "#issuecomment-" in url
        return url

    async def reply_to(body: str) -> str:
        payload = in_issue(github, body, repo=ASCEND)
        await command(client, github, payload)
        reply = only_reply(github, payload, ASCEND)
        assert [u for u in parse_md(reply).links() if ISSUE_OR_PR_URL.search(u)] == []
        return reply

    # Still said where: the alert's address, as code, in the day's preview before its cutoff.
    alert = url_of(f"<!-- commit-digest:{ASCEND}:alert:{breaking_sha()} -->")
    previewed = await reply_to(f"/digest preview {ALERT_DAY}")
    assert f"`{alert}`" in previewed
    clock.current = cutoff(ALERT_DAY) + timedelta(seconds=1)
    await publish_round(client)
    digest = url_of(f"<!-- commit-digest:{ASCEND}:{ALERT_DAY}:part-1 -->")
    # Then the digest's and the alert's addresses; and the posted day's own.
    explained = await reply_to(f"/digest explain {breaking_sha()[:10]}")
    assert f"`{digest}`" in explained and f"`{alert}`" in explained
    posted = await reply_to(f"/digest preview {ALERT_DAY}")
    assert f"`{digest}`" in posted


async def test_explain_by_pull_request_unknown_and_ambiguous(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, _ = await land_command_day(app_client, github, clock)
    with_pr = next(c for c in day_commits() if re.search(r"\(#\d+\)$", c["message"].split("\n")[0]))
    number = re.search(r"\(#(\d+)\)$", with_pr["message"].split("\n")[0])
    assert number
    by_pr = in_issue(github, f"/digest explain #{number.group(1)}", repo=ASCEND)
    await command(client, github, by_pr)
    assert "### " in only_reply(github, by_pr, ASCEND)

    unknown = in_issue(github, "/digest explain 0000000", repo=ASCEND)
    await command(client, github, unknown)
    reply = only_reply(github, unknown, ASCEND)
    assert "No commit starting with `0000000`" in reply
    assert len(reply.strip().splitlines()) == 2  # the marker and one line

    # Two stored commits sharing a prefix.
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(
            sa.text(
                "INSERT INTO commits (repo_id, sha, installation_id, delivery_id, position, "
                "landed_at, branch, forced, title, message, author_name, url, state, created_at) "
                "SELECT repo_id, :sha, installation_id, delivery_id, position, landed_at, branch, "
                "forced, title, message, author_name, url, state, created_at FROM commits "
                "WHERE sha = :original"
            ),
            [
                {"sha": "abcdef1" + "0" * 33, "original": with_pr["id"]},
                {"sha": "abcdef1" + "1" * 33, "original": with_pr["id"]},
            ],
        )
    ambiguous = in_issue(github, "/digest explain abcdef1", repo=ASCEND)
    await command(client, github, ambiguous)
    assert "matches 2 stored commits" in only_reply(github, ambiguous, ASCEND)


async def test_preview_is_a_reply_never_the_days_post(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    discussions = len(fake.discussions)
    async with client.app[STORE].engine.begin() as conn:
        # One of the day's pushes forced: a line the digest gathers beside its commits.
        first = (await conn.execute(sa.select(pushes.c.delivery_id).limit(1))).scalar_one()
        await conn.execute(pushes.update().where(pushes.c.delivery_id == first).values(forced=True))
    payload = in_issue(github, "/digest preview", repo=ASCEND)  # today: the replay day
    await command(client, github, payload)
    reply = only_reply(github, payload, ASCEND)
    assert "**Preview**" in reply and DAY in reply
    assert "Force pushes to the tracked branch: 1." in reply
    assert f"<!-- commit-digest:{ASCEND}:{DAY}:part-1 -->" not in reply
    assert len(fake.discussions) == discussions
    async with client.app[STORE].engine.connect() as conn:
        assert (await conn.execute(sa.select(digests.c.state))).scalars().all() == []
    # The day is still posted at its cutoff, as its own post.
    clock.current = datetime(2026, 6, 18, 0, 30, tzinfo=UTC)
    await publish_round(client)
    assert len(fake.discussions) == discussions + 1
    # What the preview showed is what the cutoff posted, the lines gathered beside the
    # commits (the day's pushes, the days before) included.
    posted = fake.discussions[-1]["body"]
    shown = [line for line in reply.splitlines() if line.startswith("- ")]
    assert shown and all(line in posted for line in shown)

    quiet = in_issue(github, "/digest preview", repo=ASCEND)  # the next day: nothing yet
    await command(client, github, quiet)
    assert "No commit has landed on the digest day 2026-06-18" in only_reply(github, quiet, ASCEND)


PREVIEW_LINES = {
    "en": {
        "posted": f"The digest of {DAY} is posted already: [digest](",
        "before": "Nothing is stored for 2026-06-10: the App has followed this repository since "
        "2026-06-17.",
        "future": "2026-06-19 is after the digest being gathered now (the digest of 2026-06-18, "
        "in UTC): there is nothing to preview",
        "far": "2199-12-31 is after the digest being gathered now (the digest of 2026-06-18,",
    },
    "zh-CN": {
        "posted": f"{DAY} 的日报已经发布：[日报](",
        "before": "没有 2026-06-10 的记录：本应用从 2026-06-17 起才关注这个仓库。",
        "future": "2026-06-19 晚于当前正在汇集的日报（UTC 时区 2026-06-18 的日报）：还没有可预览的内容。",
        "far": "2199-12-31 晚于当前正在汇集的日报（UTC 时区 2026-06-18 的日报）",
    },
}


@pytest.mark.parametrize("language", ["en", "zh-CN"])
async def test_preview_of_a_posted_past_or_future_day_says_so_in_one_line(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, language: str
) -> None:
    client, fake = await land_command_day(
        app_client, github, clock, config=f"language: {language}\n"
    )
    clock.current = datetime(2026, 6, 18, 0, 30, tzinfo=UTC)
    await publish_round(client)
    posted = day_discussion(fake)
    expected = PREVIEW_LINES[language]
    for asked, key in (
        (DAY, "posted"),
        ("2026-06-10", "before"),
        ("2026-06-19", "future"),
        ("2199-12-31", "far"),
    ):
        payload = in_issue(github, f"/digest preview {asked}", repo=ASCEND)
        await command(client, github, payload)
        reply = only_reply(github, payload, ASCEND)
        text = reply.split("\n", 1)[1]
        assert expected[key] in text and "\n" not in text, (key, text)
        assert "**Preview**" not in text and "**预览**" not in text
        if key == "posted":
            assert parse_md(reply).links() == [posted["url"]]


# --- hostile arguments -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("/digest explain " + "a" * 200_000, "too long"),
        ("/digest explain @octocat", "is neither a commit sha prefix"),
        ("/digest explain [x](https://evil.example/@octocat) #12", "wrong arguments"),
        ("/digest explain zzzzzzz", "is neither a commit sha prefix"),
        ("/digest explain <img src=x onerror=alert(1)>", "wrong arguments"),
        ("/digest preview 9999-01-01", "is not a day between"),
        ("/digest preview 2026-02-30", "is not a day between"),
        ("/digest @team/everyone please", "is not a `/digest` command"),
        ("/digest help me", "wrong arguments"),
        ("/digest", "/digest explain"),
    ],
)
async def test_hostile_arguments_get_the_help_and_ping_nobody(
    app_client: Callable[..., Any], github: FakeGitHub, body: str, expected: str
) -> None:
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, body)
    await command(client, github, payload)
    reply = only_reply(github, payload)  # checks: no ping, no reference, no link, no HTML
    assert expected in reply
    assert "/digest preview" in reply
    assert len(reply) < 3_000


async def test_commands_are_forgotten_after_the_retention_yet_never_answered_twice(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest help")
    await command(client, github, payload, delivery="d-1")
    store = client.app[STORE]
    clock.advance(days=9)
    housekeeping = Housekeeping(store, clock, delivery_retention=timedelta(days=8))
    await housekeeping.run_once()
    async with store.engine.connect() as conn:
        assert (await conn.execute(sa.select(sa.func.count()).select_from(commands))).scalar() == 0
    # GitHub's redelivery keeps the id, but that is forgotten too by now.
    assert await command(client, github, payload, delivery="d-1") == 202
    only_reply(github, payload)


# --- the syntax and the replies, alone ---------------------------------------------------------


@given(st.text(max_size=2_000))
@settings(max_examples=300, deadline=None)
def test_any_comment_is_either_no_command_or_a_bounded_safe_reply(text: str) -> None:
    line = command_line(text)
    if line is None:
        return
    command_ = parse(line)
    body = finish(REPO, 1, help_text("en", command_.problem))
    assert len(body) < 3_000
    assert parse_md(body).pings_and_references() == []


def test_a_preview_too_long_for_a_comment_shows_its_first_part_and_says_so() -> None:
    section = "### A commit\n\n" + "- a risk, told at length " * 40 + "\n\n"
    first = section * 200  # over 65,536 characters
    assert len(first) > BODY_LIMIT
    body = finish(REPO, 1, preview_text("en", date(2026, 7, 10), first, more_parts=2))
    assert len(body) <= BODY_LIMIT
    assert body.endswith("…and 2 more part(s) of the day: too long for one comment.")
    assert "too long for one comment" in body.rsplit("\n\n", 2)[-2]
    # Cut between blocks: every section shown is whole.
    shown = body.split("---\n\n", 1)[1].rsplit("\n\n…", 1)[0]
    assert shown.count("### A commit") == shown.count("- a risk, told at length " * 40)


async def test_a_command_in_a_repository_not_seen_yet_is_answered(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    fake = github.add_repo(REPO, repo_id=4242, installation_id=77)
    fake.roles[MAINTAINER] = "admin"
    client = await app_client()  # no installation event stored: the comment is the first news
    payload = in_issue(github, "/digest help")
    assert await command(client, github, payload) == 202
    assert "/digest explain" in only_reply(github, payload)
    async with client.app[STORE].engine.connect() as conn:
        kinds = (await conn.execute(sa.select(jobs.c.kind, jobs.c.state))).all()
    # The repository was recorded, and its config read, as for any repository first seen.
    assert ("refresh_config", "done") in [tuple(k) for k in kinds]
