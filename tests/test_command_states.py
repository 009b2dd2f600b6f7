"""What `/digest` replies say of a commit's or a day's state where it is easy to get wrong: a
day whose cutoff is not midnight, a late commit of a posted day, a file rejected from the
start, an `exclude` added after the day was posted."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.app import EXECUTOR, STORE
from bot.store.job_payloads import RefreshConfigPayload
from tests.command_support import (
    ASCEND,
    DAY,
    REPO,
    app_with_repo,
    command,
    day_commits,
    day_discussion,
    day_text,
    in_issue,
    land_command_day,
    only_reply,
)
from tests.fakes.github import FakeGitHub
from tests.scenarios import CONFIG
from tests.support import FakeClock, deliver, late_push, publish_round


@pytest.mark.parametrize("language", ["en", "zh-CN"])
async def test_preview_of_a_future_day_names_the_digest_gathered_now_after_the_cutoff(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, language: str
) -> None:
    """After a 09:00 cutoff, 10:00 on 2026-06-18 in Shanghai gathers the digest of 06-19: the
    reply names it as that, not as "today" (the calendar says 06-18 there)."""
    fake = github.add_repo(REPO, repo_id=4242, installation_id=77)
    fake.files[CONFIG] = f'timezone: Asia/Shanghai\ncutoff: "09:00"\nlanguage: {language}\n'
    clock.current = datetime(2026, 6, 18, 2, 0, tzinfo=UTC)
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest preview 2026-06-20")
    await command(client, github, payload)
    reply = only_reply(github, payload)
    gathered = {
        "en": "after the digest being gathered now (the digest of 2026-06-19, in Asia/Shanghai)",
        "zh-CN": "晚于当前正在汇集的日报（Asia/Shanghai 时区 2026-06-19 的日报）",
    }[language]
    assert gathered in reply, reply
    assert "today" not in reply and "今天" not in reply


CUTOFF_PASSED = datetime(2026, 6, 18, 0, 30, tzinfo=UTC)


async def _late_commit_of_a_posted_day(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, language: str
) -> tuple[Any, Any, str]:
    """The replay day landed and posted, then a late commit of that day stored and analysed,
    its addendum not made yet (the next publish round makes it)."""
    client, fake = await land_command_day(
        app_client, github, clock, config=f"language: {language}\n"
    )
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    assert [d for d in fake.discussions if DAY in d["body"].split("\n", 1)[0]]
    sha = "b" * 40
    late = late_push(fake.commits, ASCEND, DAY, sha, "Fix the late bug\n\nDetails.")
    clock.advance(hours=1)
    assert (await deliver(client, "push", late))[0] == 202
    await client.app[EXECUTOR].drain()
    return client, fake, sha


@pytest.mark.parametrize("language", ["en", "zh-CN"])
async def test_rate_of_a_late_commit_does_not_say_its_posted_day_is_not_posted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, language: str
) -> None:
    """README: the rate's reply "says whether the day's digest was posted … or not yet"."""
    client, _, sha = await _late_commit_of_a_posted_day(app_client, github, clock, language)
    payload = in_issue(github, f"/digest rate {sha[:8]} high", repo=ASCEND)
    await command(client, github, payload)
    reply = only_reply(github, payload, ASCEND)
    not_posted = {
        "en": f"The digest of {DAY} is not posted yet",
        "zh-CN": f"{DAY} 的日报尚未发布",
    }[language]
    assert not_posted not in reply, reply


@pytest.mark.parametrize("language", ["en", "zh-CN"])
async def test_explain_of_a_late_commit_does_not_say_its_posted_day_is_not_posted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, language: str
) -> None:
    """README: explain says which digest holds it, "or the day it belongs to, not posted yet"."""
    client, _, sha = await _late_commit_of_a_posted_day(app_client, github, clock, language)
    payload = in_issue(github, f"/digest explain {sha[:8]}", repo=ASCEND)
    await command(client, github, payload)
    reply = only_reply(github, payload, ASCEND)
    not_posted = {
        "en": f"It belongs to the digest of {DAY}, not posted yet.",
        "zh-CN": f"属于 {DAY} 的日报，尚未发布。",
    }[language]
    assert not_posted not in reply, reply


async def test_config_of_a_file_rejected_from_the_start_claims_no_last_good_config(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    """No version of the file was ever valid: the defaults are in force, not "the last good
    config" (the reply says both)."""
    fake = github.add_repo(REPO, repo_id=4242, installation_id=77)
    fake.files[CONFIG] = "timezone: Mars/Olympus\n"
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest config")
    await command(client, github, payload)
    reply = only_reply(github, payload)
    assert "every value is the default" in reply
    assert "the last good config stays in force" not in reply, reply


async def _posted_then_author_excluded(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> tuple[Any, Any, dict[str, Any]]:
    """The replay day posted; then the file excludes one author, whose commit is in it."""
    client, fake = await land_command_day(app_client, github, clock)
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    victim = next(c for c in day_commits() if c["author"].get("username") == "zhangxinyuehfad")
    assert victim["id"][:7] in day_text(fake)
    fake.files[CONFIG] = "exclude:\n  authors: [zhangxinyuehfad]\n"
    repo = await client.app[STORE].repos.by_name(ASCEND)
    assert repo is not None
    await client.app[STORE].jobs.enqueue(
        RefreshConfigPayload(repo_id=repo.id), clock.now(), rearm=True
    )
    await client.app[EXECUTOR].drain()
    await publish_round(client)
    assert victim["id"][:7] in day_text(fake), "a config change alone edits nothing"
    return client, fake, victim


async def test_rating_another_commit_does_not_drop_a_posted_commit_from_the_digest(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """README: a rate of a posted commit re-renders "the parts that show the commit" and
    edits what changed: a commit posted that day is not taken out of the posted digest."""
    client, fake, victim = await _posted_then_author_excluded(app_client, github, clock)
    other = next(c for c in day_commits() if c["author"].get("name") != "zhangxinyuehfad")
    payload = in_issue(github, f"/digest rate {other['id'][:9]} high", repo=ASCEND)
    await command(client, github, payload)
    await publish_round(client)
    assert "was posted: it will be edited" in only_reply(github, payload, ASCEND)
    assert victim["id"][:7] in day_text(fake), "the rate took a posted commit out"


async def test_rating_a_commit_excluded_after_it_was_posted_edits_the_post_that_shows_it(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """The posted digest shows the commit (it was posted before `exclude` named its author):
    the reply says that post will be edited, and it is, the commit still in it."""
    client, fake, victim = await _posted_then_author_excluded(app_client, github, clock)
    payload = in_issue(github, f"/digest rate {victim['id'][:9]} high", repo=ASCEND)
    await command(client, github, payload)
    await publish_round(client)
    reply = only_reply(github, payload, ASCEND)
    assert "was posted: it will be edited" in reply and "shows in no digest" not in reply
    text = day_text(fake)
    entry = next(line for line in text.splitlines() if f"`{victim['id'][:7]}`" in line)
    assert victim["id"][:7] in text and "rated by a maintainer" in text, entry


async def test_explain_of_a_commit_excluded_after_it_was_posted_shows_it_as_posted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake, victim = await _posted_then_author_excluded(app_client, github, clock)
    payload = in_issue(github, f"/digest explain {victim['id'][:9]}", repo=ASCEND)
    await command(client, github, payload)
    reply = only_reply(github, payload, ASCEND)
    posted = day_discussion(fake)
    assert "is in the" in reply and posted["url"] in reply, reply
    assert "exclude" not in reply, reply


async def _posted_then_zone_moved(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> tuple[Any, Any, dict[str, Any]]:
    """The replay day posted (in UTC); then the file moves the repository to Los Angeles,
    where the day's first commit landed on the day before: it stays in the posted digest."""
    client, fake = await land_command_day(app_client, github, clock)
    clock.current = CUTOFF_PASSED
    await publish_round(client)
    first = day_commits()[0]
    assert first["id"][:7] in day_text(fake)
    fake.files[CONFIG] = "timezone: America/Los_Angeles\n"
    repo = await client.app[STORE].repos.by_name(ASCEND)
    assert repo is not None
    await client.app[STORE].jobs.enqueue(
        RefreshConfigPayload(repo_id=repo.id), clock.now(), rearm=True
    )
    await client.app[EXECUTOR].drain()
    return client, fake, first


async def test_explain_after_the_zone_moved_names_the_day_the_commit_was_posted_in(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """README: explain names the digest that holds the commit: the day it was posted in,
    whatever day the config in force now would put it in."""
    client, fake, first = await _posted_then_zone_moved(app_client, github, clock)
    payload = in_issue(github, f"/digest explain {first['id'][:9]}", repo=ASCEND)
    await command(client, github, payload)
    reply = only_reply(github, payload, ASCEND)
    posted = day_discussion(fake)
    assert DAY in reply and "is in the" in reply and posted["url"] in reply, reply
    assert "not posted yet" not in reply, reply


async def test_rate_after_the_zone_moved_edits_the_digest_the_commit_was_posted_in(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """The rate's reply names the posted day and says it will be edited; the next round
    edits that day's post, and the commit is posted on no other day."""
    client, fake, first = await _posted_then_zone_moved(app_client, github, clock)
    payload = in_issue(github, f"/digest rate {first['id'][:9]} high", repo=ASCEND)
    await command(client, github, payload)
    reply = only_reply(github, payload, ASCEND)
    assert DAY in reply and "was posted: it will be edited" in reply, reply
    await publish_round(client)
    text = day_text(fake)
    entry = next(line for line in text.splitlines() if f"`{first['id'][:7]}`" in line)
    assert "rated by a maintainer" in text, entry
    clock.advance(hours=24)
    await publish_round(client)
    elsewhere = [
        d
        for d in fake.discussions
        if DAY not in d["body"].split("\n", 1)[0]
        for body in [d["body"], *(c["body"] for c in d["comments"])]
        if f"`{first['id'][:7]}`" in body
    ]
    assert elsewhere == [], "a commit posted on one day is posted on no other"
