"""`/digest explain` through the webhook, the jobs and the fake GitHub: a commit the App never
stored, fetched and analysed on request within the LLM budget and kept out of every digest;
one not on the tracked branch; an unknown or ambiguous prefix on GitHub; a pull request found
by its merge commit; several stored matches listed; and why a stored commit has no analysis
to show, in both languages."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa

from bot.app import STORE
from bot.store.schema import commits, explained
from tests.command_support import (
    ASCEND,
    DAY,
    MAINTAINER,
    Client,
    command,
    day_commits,
    in_issue,
    land_command_day,
    only_reply,
)
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.fakes.llm import Behaviour, FakeLLM
from tests.scenarios import cutoff, land, llm_settings, rows
from tests.support import FakeClock, publish_round

OLD = "0123456789abcdef0123456789abcdef01234567"
OLD_TITLE = "Add a retry to the weight loader"
ASIDE = "fedcba9876543210fedcba9876543210fedcba98"


def old_commit(
    fake: FakeRepo,
    sha: str = OLD,
    *,
    title: str = OLD_TITLE,
    on_branch: bool = True,
    parent: str | None = None,
) -> dict[str, Any]:
    """A commit GitHub has from before the App was installed: on the default branch (oldest),
    or off it (its parent on the branch)."""
    when = "2026-03-02T09:15:00Z"
    commit = {
        "sha": sha,
        "html_url": f"https://github.com/{fake.full_name}/commit/{sha}",
        "commit": {
            "message": f"{title}\n\nRetry the download of a shard three times before failing.",
            "author": {"name": "Ada", "email": "ada@example.com", "date": when},
            "committer": {"name": "Ada", "email": "ada@example.com", "date": when},
        },
        "author": {"login": "ada"},
        "parents": [{"sha": parent or fake.history[0]}],
        "files": [
            {
                "filename": "vllm_ascend/worker/model_loader.py",
                "status": "modified",
                "additions": 6,
                "deletions": 1,
                "changes": 7,
                "patch": "@@ -10,3 +10,8 @@\n-    load(shard)\n+    for attempt in range(3):\n"
                "+        try:\n+            load(shard)\n+            break\n+        except OSError:\n"
                "+            continue",
            }
        ],
    }
    fake.commits[sha] = commit
    if on_branch:
        fake.history.insert(0, sha)
    return commit


async def ask(client: Client, github: FakeGitHub, body: str) -> str:
    payload = in_issue(github, body, repo=ASCEND)
    await command(client, github, payload)
    return only_reply(github, payload, ASCEND)


# --- a commit the App never stored --------------------------------------------------------


async def test_an_unstored_commit_on_the_branch_is_analysed_now_and_in_no_digest(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    raw = old_commit(fake)
    looked_up = len([c for c in github.calls if c.operation == "PullRequestsOfCommit"])
    reply = await ask(client, github, f"/digest explain {OLD[:8]}")
    assert "### " in reply and OLD_TITLE in reply
    assert "It is in no digest: the App had not stored it" in reply
    # Its pull request looked up as the analyse job looks one up: one GraphQL query that
    # carries the changed file at both revisions, no REST "pulls of a commit".
    path = raw["files"][0]["filename"]
    assert {f"{raw['parents'][0]['sha']}:{path}", f"{OLD}:{path}"} <= set(fake.objects_asked)
    assert len([c for c in github.calls if c.operation == "PullRequestsOfCommit"]) == looked_up + 1
    assert not github.calls_to("GET", r"/pulls$")
    # Kept apart from the day's commits: stored as explained, never as a commit.
    assert await rows(client, commits, commits.c.sha == OLD) == []
    (row,) = await rows(client, explained, explained.c.sha == OLD)
    assert row.route == "rules"
    # A second explain answers the same from what was kept.
    again = await ask(client, github, f"/digest explain {OLD[:12]}")
    assert again.split("\n", 1)[1] == reply.split("\n", 1)[1]
    # No digest ever lists it: the day's, posted after the cutoff, does not.
    clock.current = cutoff(DAY).replace(minute=30)
    await publish_round(client)
    posted = [d["body"] for d in fake.discussions]
    assert posted and all(OLD_TITLE not in body and OLD[:7] not in body for body in posted)


async def test_an_unstored_commit_in_chinese(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock, config="language: zh-CN\n")
    old_commit(fake)
    reply = await ask(client, github, f"/digest explain {OLD[:8]}")
    assert "它不在任何日报中" in reply and "### " in reply


async def test_a_commit_off_the_tracked_branch_gets_one_line(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    old_commit(fake, ASIDE, on_branch=False, parent=fake.history[-1])
    reply = await ask(client, github, f"/digest explain {ASIDE[:9]}")
    assert reply.split("\n")[1:] == [
        f"`{ASIDE[:12]}` is not on the tracked branch (`main`): the App digests only what "
        "lands there."
    ]
    assert await rows(client, explained, explained.c.sha == ASIDE) == []


@pytest.mark.parametrize(
    ("config", "said"),
    [
        (
            'branches: [main, "release/*"]\n',
            "is not on the tracked branches checked (`main`). Branches matched by a pattern "
            "(`release/*`) were not checked: it may still be digested from one of them.",
        ),
        (
            "branches: [main, b1, b2, b3, b4, b5, b6]\n",
            "is not on the tracked branches checked (`main`, `b1`, `b2`, `b3`, `b4`). 2 more "
            "tracked branch(es) were not checked: it may still be digested from one of them.",
        ),
        (
            'language: zh-CN\nbranches: [main, "release/*"]\n',
            "不在已检查的跟踪分支（`main`）上。匹配模式（`release/*`）的分支未被检查："
            "它仍可能通过其中的分支进入日报。",
        ),
    ],
    ids=["glob", "past-the-limit", "zh-CN"],
)
async def test_off_the_branches_checked_does_not_claim_only_they_are_digested(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    config: str,
    said: str,
) -> None:
    """Explain checks no glob and at most MAX_BRANCHES names (README): a commit off those may
    be on a branch it did not check, which the App digests."""
    client, fake = await land_command_day(app_client, github, clock, config=config)
    old_commit(fake, ASIDE, on_branch=False, parent=fake.history[-1])
    reply = await ask(client, github, f"/digest explain {ASIDE[:9]}")
    assert reply.split("\n")[1:] == [f"`{ASIDE[:12]}` {said}"], reply
    assert "only what lands there" not in reply and "只收录" not in reply


async def test_an_unknown_or_ambiguous_prefix_on_github_gets_one_line(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    old_commit(fake, "abcabc1" + "0" * 33)
    old_commit(fake, "abcabc1" + "1" * 33)
    for prefix in ("abcabc1", "9999999"):
        reply = await ask(client, github, f"/digest explain {prefix}")
        assert reply.split("\n")[1:] == [
            f"No commit starting with `{prefix}` is in this repository on GitHub, or more than "
            "one is: check the sha, or give more of it."
        ]
    # One more character names one of them.
    assert "### " in await ask(client, github, "/digest explain abcabc11")


async def test_a_merged_pull_request_not_stored_is_found_by_its_merge_commit(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, fake = await land_command_day(app_client, github, clock)
    old_commit(fake, title=f"{OLD_TITLE} (#4321)")
    fake.pulls[OLD] = [
        {
            "number": 4321,
            "title": OLD_TITLE,
            "body": "Shards fail to download on flaky mirrors.",
            "labels": [],
            "merge_commit_sha": OLD,
            "state": "closed",
        }
    ]
    reply = await ask(client, github, "/digest explain #4321")
    assert OLD_TITLE in reply and "It is in no digest" in reply
    not_one = await ask(client, github, "/digest explain #4322")
    assert not_one.split("\n")[1:] == ["`#4322` is not a pull request of this repository."]


# --- the LLM budget -----------------------------------------------------------------------


async def llm_day(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    aiohttp_server: Any,
    clock: FakeClock,
    llm: FakeLLM,
    config: str,
    *,
    analyse: bool = True,
    **settings: Any,
) -> tuple[Client, FakeRepo]:
    client, fake = await land(
        app_client,
        github,
        clock,
        ASCEND,
        DAY,
        config=config,
        analyse=analyse,
        roles={MAINTAINER: "admin"},
        **await llm_settings(aiohttp_server, llm),
        **settings,
    )
    old_commit(fake)
    return client, fake


async def test_an_unstored_commit_goes_to_the_llm_once_within_the_budget(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    llm = FakeLLM()
    client, _ = await llm_day(
        app_client, github, aiohttp_server, clock, llm, "llm:\n  for: [high, medium, low]\n"
    )
    before = len(llm.requests)
    reply = await ask(client, github, f"/digest explain {OLD[:8]}")
    assert "### " in reply
    assert len(llm.requests) == before + 1
    assert any(f"Commit: {OLD}" in str(r) for r in llm.requests[before:])
    (row,) = await rows(client, explained, explained.c.sha == OLD)
    assert row.route == "llm" and row.input_tokens > 0
    await ask(client, github, f"/digest explain {OLD[:10]}")
    assert len(llm.requests) == before + 1


async def test_with_the_days_llm_share_spent_an_unstored_commit_gets_the_rules(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    llm = FakeLLM()
    config = "llm:\n  for: [high, medium, low]\n  max_commits_per_day: 2\n"
    client, _ = await llm_day(app_client, github, aiohttp_server, clock, llm, config)
    assert len(llm.requests) == 2
    assert "### " in await ask(client, github, f"/digest explain {OLD[:8]}")
    assert len(llm.requests) == 2
    (row,) = await rows(client, explained, explained.c.sha == OLD)
    assert (row.route, row.analyzer) == ("cap", "rules")
    # The same day the stand-in is reused; the next day the LLM has room, and is asked.
    await ask(client, github, f"/digest explain {OLD[:9]}")
    assert len(llm.requests) == 2
    clock.advance(days=1)
    await ask(client, github, f"/digest explain {OLD[:10]}")
    assert len(llm.requests) == 3
    (row,) = await rows(client, explained, explained.c.sha == OLD)
    assert row.route == "llm" and row.analyzer.startswith("llm:")


@pytest.mark.parametrize("failure", ["error", "invalid_json"])
async def test_an_explain_whose_llm_call_failed_asks_the_llm_again_next_time(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    aiohttp_server: Any,
    clock: FakeClock,
    failure: str,
) -> None:
    """The rules stood in for a failed LLM call: that is not the commit's analysis for good.
    Asked again, the LLM is tried again (the tokens of both calls counted on the day)."""
    llm = FakeLLM()
    client, _ = await llm_day(
        app_client, github, aiohttp_server, clock, llm, "llm:\n  for: [high, medium, low]\n"
    )
    before = len(llm.requests)
    llm.script.extend(Behaviour(kind=failure) for _ in range(10))
    await ask(client, github, f"/digest explain {OLD[:8]}")
    failed = len(llm.requests) - before
    (first,) = await rows(client, explained, explained.c.sha == OLD)
    assert failed > 0 and first.analyzer == "rules" and first.fallback_reason
    assert first.input_tokens > 0 or failure == "error"  # an answer refused still cost tokens
    llm.script.clear()
    clock.advance(minutes=5)
    reply = await ask(client, github, f"/digest explain {OLD[:10]}")
    assert len(llm.requests) == before + failed + 1 and "### " in reply
    (row,) = await rows(client, explained, explained.c.sha == OLD)
    assert row.analyzer.startswith("llm:") and row.fallback_reason is None
    asked = sum(len(m["content"]) for m in llm.requests[-1]["messages"]) // 4  # as the fake
    assert row.input_tokens == first.input_tokens + asked
    # Now the commit's analysis: reused, with no LLM call.
    await ask(client, github, f"/digest explain {OLD[:12]}")
    assert len(llm.requests) == before + failed + 1


async def test_what_explain_sends_to_the_llm_counts_against_the_days_share(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    llm = FakeLLM()
    config = "llm:\n  for: [high, medium, low]\n  max_commits_per_day: 1\n"
    client, _ = await llm_day(app_client, github, aiohttp_server, clock, llm, config, analyse=False)
    # The command runs ahead of the day's analyses and takes the day's one LLM call.
    await ask(client, github, f"/digest explain {OLD[:8]}")
    assert len(llm.requests) == 1 and f"Commit: {OLD}" in str(llm.requests[0])
    async with client.app[STORE].engine.connect() as conn:
        routes = (await conn.execute(sa.text("SELECT route FROM analyses"))).scalars().all()
    assert routes and "llm" not in routes and "cap" in routes


async def test_what_explain_sends_to_the_llm_counts_against_the_installations_tokens(
    app_client: Callable[..., Any], github: FakeGitHub, aiohttp_server: Any, clock: FakeClock
) -> None:
    llm = FakeLLM()
    config = "llm:\n  for: [high, medium, low]\n"
    client, _ = await llm_day(
        app_client,
        github,
        aiohttp_server,
        clock,
        llm,
        config,
        analyse=False,
        llm_daily_token_budget=1,
        worker_concurrency=1,
    )
    await ask(client, github, f"/digest explain {OLD[:8]}")
    (row,) = await rows(client, explained, explained.c.sha == OLD)
    assert row.route == "llm" and row.input_tokens + row.output_tokens > 1
    # The installation's one token of the day went on explain: the day's analyses get rules.
    await publish_round(client)
    async with client.app[STORE].engine.connect() as conn:
        routes = set((await conn.execute(sa.text("SELECT route FROM analyses"))).scalars())
    assert "budget" in routes and "llm" not in routes
    assert len(llm.requests) == 1


# --- several stored matches ---------------------------------------------------------------


async def test_several_stored_matches_are_listed_with_safe_titles(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, _ = await land_command_day(app_client, github, clock)
    with_pr = next(c for c in day_commits() if re.search(r"\(#\d+\)$", c["message"].split("\n")[0]))
    number = int(re.findall(r"\(#(\d+)\)$", with_pr["message"].split("\n")[0])[0])
    twins = ["abcdef1" + "0" * 33, "abcdef1" + "1" * 33]
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(
            sa.text(
                "INSERT INTO commits (repo_id, sha, installation_id, delivery_id, position, "
                "landed_at, branch, forced, title, message, author_name, url, pr_number, state, "
                "created_at) SELECT repo_id, :sha, installation_id, delivery_id, position, "
                "landed_at, branch, forced, :title, message, author_name, url, pr_number, state, "
                "created_at FROM commits WHERE sha = :original"
            ),
            [
                {"sha": sha, "title": f"Ping @octocat about #12 [{i}]", "original": with_pr["id"]}
                for i, sha in enumerate(twins)
            ],
        )
    by_prefix = await ask(client, github, "/digest explain abcdef1")
    assert "`abcdef1` matches 2 stored commits: give more of the sha." in by_prefix
    for sha in twins:
        assert f"- `{sha[:12]}` " in by_prefix
    assert "octocat" in by_prefix  # shown, and (only_reply checked) pinging nobody
    by_pr = await ask(client, github, f"/digest explain #{number}")
    assert f"`#{number}` matches 3 stored commits: ask again with one of their shas." in by_pr
    assert f"- `{with_pr['id'][:12]}` " in by_pr


# --- a stored commit with no analysis to show ---------------------------------------------


async def _set_state(client: Client, sha: str, state: str) -> None:
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(sa.text("DELETE FROM analyses WHERE sha = :sha"), {"sha": sha})
        await conn.execute(
            sa.text("UPDATE commits SET state = :state WHERE sha = :sha"),
            {"sha": sha, "state": state},
        )


async def test_why_a_stored_commit_has_no_analysis_is_said_in_words(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, _ = await land_command_day(app_client, github, clock)
    first, second = (c["id"] for c in day_commits()[:2])
    await _set_state(client, first, "pending")
    await _set_state(client, second, "failed")
    waiting = await ask(client, github, f"/digest explain {first[:8]}")
    assert waiting.split("\n")[1:] == [
        f"`{first[:12]}` is waiting to be analysed: ask again in a few minutes. The digest of "
        f"{DAY} will show it."
    ]
    failed = await ask(client, github, f"/digest explain {second[:8]}")
    assert failed.split("\n")[1:] == [
        f"The analysis of `{second[:12]}` failed: the digest of {DAY} shows it analysed by the "
        "rules from its message instead."
    ]


async def test_why_in_chinese_and_for_an_excluded_commit(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    first, second = day_commits()[:2]
    title = first["message"].split("\n", 1)[0]
    pattern = json.dumps("^" + re.escape(title))
    config = f"language: zh-CN\nexclude:\n  messages: [{pattern}]\n"
    client, _ = await land_command_day(app_client, github, clock, config=config)
    excluded = await ask(client, github, f"/digest explain {first['id'][:8]}")
    assert excluded.split("\n")[1:] == [
        f"`{first['id'][:12]}` 被 `.github/commit-digest.yml` 的 `exclude` 规则排除在日报之外："
        "日报、提醒和周报都不显示它，因此没有可解释的分析。"
    ]
    assert "excluded" not in excluded
    await _set_state(client, second["id"], "pending")
    waiting = await ask(client, github, f"/digest explain {second['id'][:8]}")
    assert waiting.split("\n")[1:] == [
        f"`{second['id'][:12]}` 正在等待分析：请过几分钟再问。{DAY} 的日报将收录它。"
    ]
    await _set_state(client, second["id"], "failed")
    failed = await ask(client, github, f"/digest explain {second['id'][:9]}")
    assert "的分析失败" in failed and "failed" not in failed
