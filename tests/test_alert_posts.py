"""Alerts as the App posts them: a real replay day through the webhook, the jobs and the fake
GitHub. One alert per breaking commit, exactly once (redelivery, restart, a create answered
502 after GitHub made it), none for a commit reverted before it went out, the fold past
`max_per_day`, the fallbacks, and the day's digest linking what was sent."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from bot.app import EXECUTOR, SCHEDULER, STORE
from bot.repo_config import parse_config
from bot.store.job_payloads import FoldAlertsPayload, RefreshConfigPayload, parse_payload
from bot.store.jobs import JobKind
from bot.store.schema import commits, jobs, posts, repositories
from tests.command_support import MAINTAINER, command, in_issue
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.markdown import parse
from tests.scenarios import (
    ALERT_DAY,
    ALERT_MARKER,
    ALERTS,
    ASCEND,
    BUSY_DAY,
    COMMIT_LINK,
    CONFIG,
    FOLD,
    Client,
    breaking_sha,
    cutoff,
    land_alert_day,
    landing_again,
    rows,
)
from tests.support import (
    FakeClock,
    deliver,
    deliver_replay,
    late_push,
    publish_round,
    replay_pushes,
)

REPO = ASCEND
DAY = ALERT_DAY
END = cutoff(DAY)
BUSY_END = cutoff(BUSY_DAY)


def alerts_in(bodies: list[str]) -> list[str]:
    return [m.group("sha") for b in bodies if (m := ALERT_MARKER.search(b))]


def discussion_alerts(repo: FakeRepo) -> list[dict[str, Any]]:
    return [d for d in repo.discussions if ALERT_MARKER.search(d["body"])]


async def test_a_breaking_commit_gets_one_alert_and_never_a_second(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land_alert_day(app_client, github, clock)
    (alert,) = discussion_alerts(repo)
    sha = breaking_sha()
    assert alerts_in([alert["body"]]) == [sha]
    assert alert["category"]["slug"] == "general"  # no category configured anywhere
    assert alert["title"].startswith("⚠️") and len(alert["title"]) <= 256
    parsed = parse(alert["body"])
    assert parsed.pings_and_references() == []  # nobody pinged, no issue referenced
    links = parsed.links()
    assert any(h.endswith(f"/commit/{sha}") for h in links)
    assert len([h for h in links if re.search(r"/pull/\d+$", h)]) == 1  # its pull request
    # Every push delivered again, then a restart on the same database: nothing more.
    for push in replay_pushes(REPO, DAY):
        assert await deliver_replay(client, push) in {200, 202}
    await client.app[EXECUTOR].drain()
    again = await app_client()
    await again.app[EXECUTOR].drain()
    assert len(discussion_alerts(repo)) == 1
    # The day's digest, at the cutoff, links the alert already sent.
    clock.current = END + timedelta(seconds=1)
    await publish_round(again)
    (digest,) = [d for d in repo.discussions if ":part-1 -->" in d["body"]]
    assert alert["url"] in digest["body"]


async def test_an_alert_github_made_but_answered_502_is_not_made_again(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    github.lose_discussion_create()
    client, repo = await land_alert_day(app_client, github, clock)
    assert github.written_then_failed
    (job,) = await _jobs(client, JobKind.SEND_ALERTS)
    assert job.state == "pending" and job.last_error  # backed off, with the reason
    clock.advance(minutes=5)
    await client.app[EXECUTOR].drain()
    assert len(discussion_alerts(repo)) == 1
    creates = [c for c in github.calls if c.operation == "CreateDigestDiscussion"]
    assert len(creates) == 1  # the retry found it by its marker
    (job,) = await _jobs(client, JobKind.SEND_ALERTS)
    assert job.state == "done"


async def test_a_breaking_commit_reverted_before_its_alert_sends_none(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    sha = breaking_sha()
    repo = github.serve_replay_day(REPO, DAY)
    title = next(
        c["message"].split("\n", 1)[0]
        for p in replay_pushes(REPO, DAY)
        for c in p["payload"]["commits"]
        if c["id"] == sha
    )
    revert = late_push(
        repo.commits, REPO, DAY, "e" * 40, f'Revert "{title}"\n\nThis reverts commit {sha}.'
    )
    # The revert reaches the App before the analyses have run (the same batch of work).
    _, repo = await land_alert_day(app_client, github, clock, extra=[revert])
    assert discussion_alerts(repo) == []
    assert not [c for c in repo.comments if ALERT_MARKER.search(c["body"])]


async def test_alerts_past_max_per_day_fold_into_one_post(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 2\n  category: Announcements\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    posts = [
        d for d in repo.discussions if ALERT_MARKER.search(d["body"]) or FOLD.search(d["body"])
    ]
    singles = discussion_alerts(repo)
    (fold,) = [d for d in posts if FOLD.search(d["body"])]
    assert len(singles) == 2
    # The fold is made with the first commit past the limit; the others, analysed within
    # the same minute, go into one edit a minute after it was written.
    assert len(set(re.findall(r"/commit/([0-9a-f]{40})", fold["body"]))) == 1
    clock.advance(seconds=59)
    await client.app[EXECUTOR].drain()
    assert len(set(re.findall(r"/commit/([0-9a-f]{40})", fold["body"]))) == 1
    clock.advance(seconds=1)
    await client.app[EXECUTOR].drain()
    edits = [c for c in github.calls if c.operation == "UpdateDigestDiscussion"]
    assert len(edits) == 1
    assert {d["category"]["slug"] for d in posts} == {"announcements"}
    # Every other alert-worthy commit is in the fold, each linked once.
    wanted = await _alert_worthy(client, BUSY_END)
    folded = set(re.findall(r"/commit/([0-9a-f]{40})", fold["body"]))
    assert folded == wanted - set(alerts_in([d["body"] for d in singles]))
    assert len(folded) >= 3
    # A restart posts nothing new and leaves the fold as it was.
    before = fold["body"]
    again = await app_client()
    await again.app[EXECUTOR].drain()
    assert len([d for d in repo.discussions if d in posts or ALERT_MARKER.search(d["body"])]) == 3
    assert fold["body"] == before


@pytest.mark.parametrize(
    ("config", "discussions"),
    [
        ("alerts:\n  on: [breaking]\n  to: issue\n", True),
        ("alerts:\n  on: [breaking]\n", False),  # Discussions off: the tracking issue
        ("alerts:\n  on: [breaking]\n  category: Nope\n", True),  # no such category
        # The issue the config names does not exist.
        ("alerts:\n  on: [breaking]\n  to: issue\npublish:\n  issue: 99999\n", True),
    ],
)
async def test_alerts_go_to_the_tracking_issue_when_asked_or_when_discussions_cannot(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    config: str,
    discussions: bool,
) -> None:
    github.serve_replay_day(REPO, DAY).has_discussions = discussions
    _, repo = await land_alert_day(app_client, github, clock, config=config)
    assert discussion_alerts(repo) == []
    (comment,) = [c for c in repo.comments if ALERT_MARKER.search(c["body"])]
    assert alerts_in([comment["body"]]) == [breaking_sha()]
    (issue,) = repo.issues.values()
    assert issue["body"].startswith(f"<!-- commit-digest:{REPO}:tracking-issue -->")


async def test_no_alerts_unless_configured(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land_alert_day(app_client, github, clock, config="language: en\n")
    assert repo.discussions == [] and repo.comments == []
    assert await _jobs(client, JobKind.SEND_ALERTS) == []


async def _jobs(client: Client, kind: JobKind) -> list[Any]:
    return await rows(client, jobs, jobs.c.kind == kind.value)


async def _alert_worthy(client: Client, end: datetime) -> set[str]:
    """The day's commits analysed as breaking or high, as the store reads the day's commits."""
    store = client.app[STORE]
    repo = await store.repos.by_name(REPO)
    assert repo is not None
    day = await store.digests.window_commits(repo.id, end - timedelta(days=1), end)
    return {
        c.sha
        for c in day
        if c.analysis and (c.analysis.get("breaking") or c.analysis.get("importance") == "high")
    }


async def test_posts_made_in_one_place_stay_there_when_the_config_moves_alerts(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 1\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    made = [d["id"] for d in repo.discussions]
    assert len(made) == 2  # one alert, and the "more alerts" post
    # Alerts move to the tracking issue; another high commit of the day is analysed.
    repo.files[CONFIG] = config + "  to: issue\n"
    high = next(
        c["id"]
        for p in replay_pushes(REPO, BUSY_DAY)
        for c in p["payload"]["commits"]
        if c["message"].startswith("[Refactor] remove layer sharding")
    )
    again = landing_again(repo, BUSY_DAY, high, "d" * 40)
    again["commits"][0]["modified"] = [CONFIG]  # the push that also touches the config
    assert (await deliver(client, "push", again))[0] == 202
    await client.app[EXECUTOR].drain()
    # The "more alerts" discussion is neither copied to the issue nor edited as an issue
    # comment would be; the job ends without an error.
    assert [d["id"] for d in repo.discussions] == made
    assert not [c for c in repo.comments if FOLD.search(c["body"])]
    for job in await _jobs(client, JobKind.SEND_ALERTS):
        assert (job.state, job.last_error) == ("done", None)


@pytest.mark.parametrize("unreadable", [False, True])
async def test_an_alert_github_refuses_as_a_discussion_goes_to_the_tracking_issue(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, unreadable: bool
) -> None:
    # Discussions are on and the category exists, but the installation lacks Discussions:
    # write: GitHub refuses the create itself (FORBIDDEN), so nothing was made there; or
    # it lacks the permission altogether, and even the categories are not shown to it.
    repo = github.serve_replay_day(REPO, DAY)
    repo.discussions_forbidden = True
    repo.discussions_unreadable = unreadable
    client, repo = await land_alert_day(app_client, github, clock)
    assert discussion_alerts(repo) == []
    (comment,) = [c for c in repo.comments if ALERT_MARKER.search(c["body"])]
    assert alerts_in([comment["body"]]) == [breaking_sha()]
    (job,) = await _jobs(client, JobKind.SEND_ALERTS)
    assert (job.state, job.last_error) == ("done", None)


async def test_two_days_alerting_at_once_share_one_tracking_issue(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # Alerts go to the tracking issue, which does not exist yet; the breaking commit lands,
    # and a copy of it lands just after the cutoff: all the analyses run in one round, then
    # the two days' alert jobs, side by side.
    repo = github.serve_replay_day(REPO, DAY)
    sha = breaking_sha()
    tomorrow = landing_again(repo, DAY, sha, "d" * 40)
    tomorrow["repository"]["pushed_at"] = int((END + timedelta(minutes=5)).timestamp())
    client, repo = await land_alert_day(
        app_client,
        github,
        clock,
        config="alerts:\n  on: [breaking]\n  to: issue\n",
        extra=[tomorrow],
        worker_concurrency=16,
    )
    clock.advance(minutes=2)  # one of them waited for the other's tracking issue
    await client.app[EXECUTOR].drain()
    assert len(repo.issues) == 1
    (issue,) = repo.issues.values()
    alerted = [c for c in repo.comments if ALERT_MARKER.search(c["body"])]
    assert sorted(alerts_in([c["body"] for c in alerted])) == sorted([sha, "d" * 40])
    assert {c["issue_number"] for c in alerted} == {issue["number"]}


async def test_a_commit_alerted_once_is_not_alerted_again_when_the_config_moves_its_day(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await land_alert_day(app_client, github, clock)
    sha = breaking_sha()
    assert alerts_in([d["body"] for d in discussion_alerts(repo)]) == [sha]
    # The repository moves to Los Angeles time: the alerted commit (02:48 UTC on the 17th)
    # now belongs to the 16th, and so does a breaking commit that lands with the change.
    repo.files[CONFIG] = ALERTS + "timezone: America/Los_Angeles\n"
    push = landing_again(repo, DAY, sha, "d" * 40)
    push["commits"][0]["modified"] = [CONFIG]
    assert (await deliver(client, "push", push))[0] == 202
    await client.app[EXECUTOR].drain()
    assert sorted(alerts_in([d["body"] for d in discussion_alerts(repo)])) == sorted(
        [sha, "d" * 40]
    )


async def test_a_marker_in_commit_text_does_not_make_an_alert_look_like_another_post(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # The markers are predictable, and an alert shows the commit's author in a code span,
    # where HTML is shown as it is: an author named after the day's digest marker ...
    repo = github.serve_replay_day(REPO, DAY)
    sha = breaking_sha()
    hostile = landing_again(repo, DAY, sha, "a" * 40)
    digest_marker = f"<!-- commit-digest:{REPO}:{DAY}:part-1 -->"
    hostile["commits"][0]["author"] = {"name": digest_marker, "email": "x@example.com"}
    client, repo = await land_alert_day(app_client, github, clock, extra=[hostile])
    (alert,) = [d for d in discussion_alerts(repo) if "a" * 40 in d["body"]]
    assert digest_marker in alert["body"]
    before = alert["body"]
    # ... and the digest's create fails before GitHub makes it: the retry looks for the
    # digest by its marker, and must not take that alert for it.
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", message="Bad")
    clock.current = END + timedelta(seconds=1)
    await publish_round(client)
    clock.advance(hours=1)
    await publish_round(client)
    assert alert["body"] == before
    (digest,) = [d for d in repo.discussions if d["body"].startswith(digest_marker)]
    assert digest is not alert


# --- the config moves while an alert job backs off (issue 18) ----------------------------------


async def move_config(client: Client, repo: FakeRepo, clock: FakeClock, text: str) -> None:
    """The config file changes, and the App reads it again (as a push touching it makes it)."""
    repo.files[CONFIG] = text
    async with client.app[STORE].engine.connect() as conn:
        repo_id = (await conn.execute(sa.select(repositories.c.id))).scalar_one()
    await client.app[STORE].jobs.enqueue(
        RefreshConfigPayload(repo_id=repo_id), clock.now(), rearm=True
    )
    await client.app[EXECUTOR].drain(kinds=[JobKind.REFRESH_CONFIG])


async def alert_rows(client: Client) -> list[Any]:
    async with client.app[STORE].engine.connect() as conn:
        query = sa.select(posts).where(posts.c.key.startswith("alert-"))
        return list(await conn.execute(query.order_by(posts.c.period, posts.c.key)))


async def landed_at(client: Client, sha: str) -> datetime:
    async with client.app[STORE].engine.connect() as conn:
        at: datetime = (
            await conn.execute(sa.select(commits.c.landed_at).where(commits.c.sha == sha))
        ).scalar_one()
    return at


def fail_alert_create(github: FakeGitHub, *, made: bool) -> None:
    """The alert's create is answered 502: GitHub made it (`made`) or not."""
    if made:
        github.lose_discussion_create()
    else:
        github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", message="Bad")


@pytest.mark.parametrize("made", [False, True], ids=["not-made", "made"])
async def test_an_alert_backing_off_when_alerts_move_to_the_issue_is_settled_where_it_was_sent(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, made: bool
) -> None:
    fail_alert_create(github, made=made)
    client, repo = await land_alert_day(app_client, github, clock)
    (row,) = await alert_rows(client)
    assert (row.state, row.kind) == ("creating", "discussion")
    await move_config(client, repo, clock, ALERTS + "  to: issue\n")
    clock.advance(minutes=5)
    await client.app[EXECUTOR].drain()
    sha = breaking_sha()
    in_discussions = alerts_in([d["body"] for d in repo.discussions])
    in_comments = alerts_in([c["body"] for c in repo.comments])
    # Exactly one alert: the one GitHub made, found on the discussion where it was sent; or,
    # nothing having been made there, one in the issue the config names now.
    assert (in_discussions, in_comments) == (([sha], []) if made else ([], [sha]))
    (row,) = await alert_rows(client)
    assert (row.state, row.kind) == ("posted", "discussion" if made else "issue-comment")
    for job in await _jobs(client, JobKind.SEND_ALERTS):
        assert (job.state, job.last_error) == ("done", None)


@pytest.mark.parametrize(
    "move", ["timezone: America/Los_Angeles\n", "cutoff: '02:00'\n"], ids=["timezone", "cutoff"]
)
async def test_an_alert_backing_off_when_its_day_moves_goes_out_on_its_new_day(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, move: str
) -> None:
    fail_alert_create(github, made=False)
    client, repo = await land_alert_day(app_client, github, clock)
    sha = breaking_sha()
    (row,) = await alert_rows(client)
    assert (row.period, row.state) == (f"alerts:{DAY}", "creating")
    await move_config(client, repo, clock, ALERTS + move)
    new_day = parse_config(ALERTS + move).schedule.day_of(await landed_at(client, sha))
    assert new_day.isoformat() != DAY  # the move takes the commit out of its first day
    clock.advance(minutes=5)
    await client.app[EXECUTOR].drain()
    (alert,) = discussion_alerts(repo)
    assert alerts_in([alert["body"]]) == [sha]
    assert new_day.isoformat() in alert["body"]
    (row,) = await alert_rows(client)
    assert (row.period, row.state) == (f"alerts:{new_day.isoformat()}", "posted")


async def test_a_folded_commit_gets_no_alert_of_its_own_when_a_timezone_moves_its_day(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 1\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    clock.advance(minutes=1)
    await client.app[EXECUTOR].drain()
    (single,) = discussion_alerts(repo)
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    folded = set(re.findall(r"/commit/([0-9a-f]{40})", fold["body"]))
    # Tokyo time: the folded commits landed before 15:00 UTC move to the next day, which has
    # no alert yet.
    moved = config + "timezone: Asia/Tokyo\n"
    await move_config(client, repo, clock, moved)
    schedule = parse_config(moved).schedule
    days = {sha: schedule.day_of(await landed_at(client, sha)) for sha in folded}
    assert len(set(days.values())) == 2
    # A high commit lands on the new day, and every alert job runs again (a new analysis, a
    # redelivery) under the new config.
    high = next(
        c["id"]
        for p in replay_pushes(REPO, BUSY_DAY)
        for c in p["payload"]["commits"]
        if c["message"].startswith("[Refactor] remove layer sharding")
    )
    late = landing_again(repo, BUSY_DAY, high, "c" * 40)
    late["repository"]["pushed_at"] = int(clock.now().timestamp())
    assert schedule.day_of(clock.now()) == max(days.values())
    assert (await deliver(client, "push", late))[0] == 202
    async with client.app[STORE].engine.connect() as conn:
        keyed = list(
            await conn.execute(
                sa.select(jobs.c.key, jobs.c.payload).where(
                    jobs.c.kind == JobKind.SEND_ALERTS.value
                )
            )
        )
    for _, payload in keyed:
        spec = parse_payload(JobKind.SEND_ALERTS, payload)
        await client.app[STORE].jobs.enqueue(spec, clock.now(), rearm=True)
    await client.app[EXECUTOR].drain()
    clock.advance(minutes=5)
    await client.app[EXECUTOR].drain()
    # The new day's one alert is the new commit's; no folded commit got one of its own, and
    # no second fold was made.
    alerted = alerts_in([d["body"] for d in discussion_alerts(repo)])
    assert sorted(alerted) == sorted([*alerts_in([single["body"]]), "c" * 40])
    assert len([d for d in repo.discussions if FOLD.search(d["body"])]) == 1
    rows = await alert_rows(client)
    assert len(rows) == len({r.key for r in rows}) == 2 + len(folded)


async def test_the_fold_is_edited_where_it_was_made_after_its_category_is_renamed_away(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 2\n  category: Announcements\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    # The maintainers rename the category in the config to one that does not exist.
    await move_config(client, repo, clock, config.replace("Announcements", "Nope"))
    for _ in range(12):
        clock.advance(hours=2)
        await client.app[EXECUTOR].drain()
    # The fold stays the one discussion, edited there, and holds every folded commit.
    assert [d for d in repo.discussions if FOLD.search(d["body"])] == [fold]
    assert not [c for c in repo.comments if FOLD.search(c["body"])]
    singles = alerts_in([d["body"] for d in discussion_alerts(repo)])
    folded = set(re.findall(r"/commit/([0-9a-f]{40})", fold["body"]))
    assert folded == await _alert_worthy(client, BUSY_END) - set(singles)
    assert len(folded) >= 3
    for job in await _jobs(client, JobKind.FOLD_ALERTS):
        assert (job.state, job.last_error) == ("done", None)


@pytest.mark.parametrize("made", [False, True], ids=["not-made", "made"])
async def test_an_alert_backing_off_when_alerts_are_turned_off_is_settled_all_the_same(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, made: bool
) -> None:
    fail_alert_create(github, made=made)
    client, repo = await land_alert_day(app_client, github, clock)
    (row,) = await alert_rows(client)
    assert row.state == "creating"
    await move_config(client, repo, clock, "alerts:\n  on: []\n")
    clock.advance(minutes=5)
    await client.app[EXECUTOR].drain()
    sha = breaking_sha()
    # Nothing new is posted; the alert GitHub made is recorded where it was found, and a
    # create that made nothing leaves no intent behind.
    assert alerts_in([d["body"] for d in repo.discussions]) == ([sha] if made else [])
    assert alerts_in([c["body"] for c in repo.comments]) == []
    rows = await alert_rows(client)
    if made:
        (alert,) = discussion_alerts(repo)
        assert [(r.state, r.kind, r.node_id) for r in rows] == [
            ("posted", "discussion", alert["id"])
        ]
    else:
        assert rows == []
    for job in await _jobs(client, JobKind.SEND_ALERTS):
        assert (job.state, job.last_error) == ("done", None)


@pytest.mark.parametrize("made", [False, True], ids=["not-made", "made"])
async def test_a_fold_left_unclear_when_alerts_are_turned_off_is_settled_all_the_same(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, made: bool
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 1\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    # The fold's create left as a lost answer does: an intent, the post made on GitHub or not.
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(
            sa.update(posts)
            .where(posts.c.key == "alerts-more")
            .values(state="creating", node_id=None, url=None, body_hash=None)
        )
    if not made:
        github.delete_discussion(REPO, fold["id"])
    await move_config(client, repo, clock, "alerts:\n  on: []\n")
    async with client.app[STORE].engine.connect() as conn:
        repo_id = (await conn.execute(sa.select(repositories.c.id))).scalar_one()
    payload = FoldAlertsPayload(repo_id=repo_id, day=date.fromisoformat(BUSY_DAY))
    await client.app[STORE].jobs.enqueue(payload, clock.now(), rearm=True)
    clock.advance(minutes=5)
    await client.app[EXECUTOR].drain()
    fold_rows = await rows(client, posts, posts.c.key == "alerts-more")
    if made:
        assert [(r.state, r.node_id) for r in fold_rows] == [("posted", fold["id"])]
    else:
        assert fold_rows == []
    assert len([d for d in repo.discussions if FOLD.search(d["body"])]) == int(made)
    for job in await _jobs(client, JobKind.FOLD_ALERTS):
        assert (job.state, job.last_error) == ("done", None)


async def test_a_fold_in_a_discussion_is_never_edited_as_an_issue_comment_once_discussions_go(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 2\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    repo.has_discussions = False  # a maintainer turns Discussions off
    for _ in range(12):
        clock.advance(hours=2)
        await client.app[EXECUTOR].drain()
    # Nothing is edited through the issue's calls with the discussion's id, nothing crashes,
    # and no second fold is made.
    assert not github.calls_to("PATCH", rf"^/repos/{REPO}/issues/comments/")
    assert not [c for c in repo.comments if FOLD.search(c["body"])]
    (row,) = await rows(client, posts, posts.c.key == "alerts-more")
    assert (row.kind, row.node_id) == ("discussion", fold["id"])
    for job in await _jobs(client, JobKind.FOLD_ALERTS):
        assert (job.state, job.last_error) == ("done", None)


# --- every alert-worthy commit in exactly one post (issue 18) -----------------------------------


def high_of_busy_day() -> str:
    return next(
        c["id"]
        for p in replay_pushes(REPO, BUSY_DAY)
        for c in p["payload"]["commits"]
        if c["message"].startswith("[Refactor] remove layer sharding")
    )


def late_high(repo: FakeRepo, sha: str) -> dict[str, Any]:
    """A push landing a copy of the busy day's high commit as `sha`, linked as itself."""
    push = landing_again(repo, BUSY_DAY, high_of_busy_day(), sha)
    push["commits"][0]["url"] = f"https://github.com/{REPO}/commit/{sha}"
    return push


async def settle_minutes(client: Client, clock: FakeClock, minutes: int = 3) -> None:
    for _ in range(minutes):
        await client.app[EXECUTOR].drain()
        clock.advance(minutes=1)


@pytest.mark.parametrize("switch", ["discussions-off", "to-issue"])
async def test_a_commit_folded_after_alerts_leave_discussions_is_in_exactly_one_post(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, switch: str
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 2\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    clock.advance(minutes=1)
    await client.app[EXECUTOR].drain()
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    before = fold["body"]
    if switch == "discussions-off":
        repo.has_discussions = False  # a maintainer turns Discussions off
    else:
        await move_config(client, repo, clock, config + "  to: issue\n")
    # Another high commit of the day lands, past the day's limit.
    assert (await deliver(client, "push", late_high(repo, "d" * 40)))[0] == 202
    await settle_minutes(client, clock)
    bodies = [d["body"] for d in repo.discussions] + [c["body"] for c in repo.comments]
    holding = [b for b in bodies if "d" * 40 in b]
    assert len(holding) == 1  # its own alert, or a fold: exactly one post
    if switch == "discussions-off":
        # The old fold cannot be reached: it is left as it was, and the commit is in a fold
        # of its own on the tracking issue (a second "more alerts" post of the day).
        assert fold["body"] == before
        (comment,) = [c for c in repo.comments if c["body"] == holding[0]]
        assert comment["body"].startswith(f"<!-- commit-digest:{REPO}:{BUSY_DAY}:alerts-more-2 -->")
    else:
        # Discussions still work: the day's fold is edited where it was made.
        assert holding == [fold["body"]]
    # Nothing is edited through an issue comment's calls, and no commit is listed twice
    # among the day's alert posts.
    assert not github.calls_to("PATCH", rf"^/repos/{REPO}/issues/comments/")
    listed = [
        sha
        for b in bodies
        if ALERT_MARKER.search(b) or FOLD.search(b)
        for sha in set(re.findall(r"/commit/([0-9a-f]{40})", b))
    ]
    assert len(listed) == len(set(listed))
    for kind in (JobKind.SEND_ALERTS, JobKind.FOLD_ALERTS):
        for job in await _jobs(client, kind):
            assert (job.state, job.last_error) == ("done", None)


def commit_title(sha: str) -> str:
    return next(
        c["message"].split("\n", 1)[0]
        for p in replay_pushes(REPO, BUSY_DAY)
        for c in p["payload"]["commits"]
        if c["id"] == sha
    )


def fold_edits(github: FakeGitHub) -> int:
    return len([c for c in github.calls if c.operation == "UpdateDigestDiscussion"])


@pytest.mark.parametrize(
    ("how", "max_per_day"),
    [("revert", 2), ("rate", 2), ("revert", 7), ("revert-at-cutoff", 2)],
    ids=["revert", "rate", "revert-the-only-one", "revert-analysed-at-the-cutoff"],
)
async def test_a_folded_commit_that_stops_being_alert_worthy_leaves_the_fold_with_one_edit(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    how: str,
    max_per_day: int,
) -> None:
    config = f"alerts:\n  on: [breaking, high]\n  max_per_day: {max_per_day}\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    clock.advance(minutes=1)
    await client.app[EXECUTOR].drain()
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    folded = sorted(set(re.findall(r"/commit/([0-9a-f]{40})", fold["body"])))
    assert len(folded) == 8 - max_per_day  # the day has eight alert-worthy commits
    gone = folded[0]
    clock.advance(minutes=5)
    edits = fold_edits(github)
    if how.startswith("revert"):
        # The revert lands later, once the fold was written.
        revert = late_push(
            repo.commits,
            REPO,
            BUSY_DAY,
            "e" * 40,
            f'Revert "{commit_title(gone)}"\n\nThis reverts commit {gone}.',
        )
        revert["repository"]["pushed_at"] = int(clock.now().timestamp())
        assert (await deliver(client, "push", revert))[0] == 202
        if how == "revert-at-cutoff":
            # Its analysis does not come: the day's publication analyses it at the cutoff.
            clock.current = BUSY_END + timedelta(hours=1)
            await client.app[SCHEDULER].run_once()
            await client.app[EXECUTOR].drain(kinds=[JobKind.PUBLISH_PERIOD])
    else:
        repo.roles[MAINTAINER] = "admin"
        await command(
            client, github, in_issue(github, f"/digest rate {gone[:7]} medium", repo=REPO)
        )
    for _ in range(3):
        await client.app[EXECUTOR].drain()
        clock.advance(minutes=1)
    # One edit, and the commit is out of the fold; the others stay.
    assert fold_edits(github) == edits + 1
    shown = sorted(set(re.findall(r"/commit/([0-9a-f]{40})", fold["body"])))
    assert shown == folded[1:]
    if not shown:
        # Nothing left: the fold says so instead of listing what is gone.
        assert "No commit is listed here any more" in fold["body"]
    # No alert of its own either, and nothing else was posted for it.
    assert gone not in alerts_in([d["body"] for d in repo.discussions])
    for job in await _jobs(client, JobKind.FOLD_ALERTS):
        assert (job.state, job.last_error) == ("done", None)


async def test_a_second_fold_deleted_with_its_issue_is_made_again_with_every_commit_it_held(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 2\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    await settle_minutes(client, clock, 1)
    repo.has_discussions = False
    assert (await deliver(client, "push", late_high(repo, "d" * 40)))[0] == 202
    await settle_minutes(client, clock)
    second = re.compile(rf"^<!-- commit-digest:{REPO}:{BUSY_DAY}:alerts-more-2 -->")
    (made,) = [c for c in repo.comments if second.match(c["body"])]
    github.delete_issue(REPO, made["issue_number"])  # a maintainer deletes the tracking issue
    assert (await deliver(client, "push", late_high(repo, "c" * 40)))[0] == 202
    await settle_minutes(client, clock)
    (again,) = [c for c in repo.comments if second.match(c["body"])]
    assert again["id"] != made["id"]
    assert {"c" * 40, "d" * 40} <= set(COMMIT_LINK.findall(again["body"]))
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    assert not {"c" * 40, "d" * 40} & set(COMMIT_LINK.findall(fold["body"]))
    for kind in (JobKind.SEND_ALERTS, JobKind.FOLD_ALERTS):
        for job in await _jobs(client, kind):
            assert (job.state, job.last_error) == ("done", None)


# --- an unclear create whose place cannot be looked at (issue 18) -----------------------------


def cut_off_discussions(repo: FakeRepo, how: str, *, off: bool = True) -> None:
    """Discussions turned off by a maintainer, or the App's Discussions permission revoked."""
    if how == "off":
        repo.has_discussions = not off
    else:
        repo.discussions_unreadable = off


def alert_and_fold_bodies(repo: FakeRepo) -> list[str]:
    bodies = [d["body"] for d in repo.discussions] + [c["body"] for c in repo.comments]
    return [b for b in bodies if ALERT_MARKER.search(b) or FOLD.search(b)]


@pytest.mark.parametrize("how", ["off", "forbidden"])
async def test_an_alert_made_despite_a_502_waits_while_its_discussions_cannot_be_read(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, how: str
) -> None:
    github.lose_discussion_create()
    client, repo = await land_alert_day(app_client, github, clock, day=DAY, config=ALERTS)
    assert github.written_then_failed
    cut_off_discussions(repo, how)  # during the create's backoff
    for _ in range(6):
        clock.advance(minutes=10)
        await client.app[EXECUTOR].drain()
    assert not repo.comments  # not taken for "not made": nothing on the tracking issue
    (job,) = await _jobs(client, JobKind.SEND_ALERTS)
    assert job.state == "pending" and "cannot be looked for" in (job.last_error or "")
    cut_off_discussions(repo, how, off=False)
    clock.advance(hours=1)
    await client.app[EXECUTOR].drain()
    assert alerts_in(alert_and_fold_bodies(repo)) == [breaking_sha()]
    (job,) = await _jobs(client, JobKind.SEND_ALERTS)
    assert job.state == "done"


async def test_an_alert_left_unclear_while_discussions_stay_off_goes_to_the_issue_in_the_end(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", message="Bad")
    client, repo = await land_alert_day(app_client, github, clock, day=DAY, config=ALERTS)
    assert not discussion_alerts(repo)
    repo.has_discussions = False
    for _ in range(8):
        clock.advance(hours=1)
        await client.app[EXECUTOR].drain()
    # Past the wait the alert is not lost: it goes where alerts go now, once.
    (comment,) = [c for c in repo.comments if ALERT_MARKER.search(c["body"])]
    assert alerts_in([comment["body"]]) == [breaking_sha()]
    (job,) = await _jobs(client, JobKind.SEND_ALERTS)
    assert (job.state, job.last_error) == ("done", None)


async def make_fold_unclear(client: Client) -> None:
    """The fold's create as a lost answer leaves it: an intent, the post made on GitHub."""
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(
            sa.update(posts)
            .where(posts.c.key == "alerts-more")
            .values(state="creating", node_id=None, url=None, body_hash=None)
        )


@pytest.mark.parametrize("how", ["off", "forbidden"])
async def test_a_fold_made_despite_a_502_is_not_made_twice_while_discussions_cannot_be_read(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, how: str
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 2\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    await settle_minutes(client, clock, 2)
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    await make_fold_unclear(client)
    cut_off_discussions(repo, how)
    assert (await deliver(client, "push", late_high(repo, "d" * 40)))[0] == 202
    await settle_minutes(client, clock, 6)
    assert not [c for c in repo.comments if FOLD.search(c["body"])]
    cut_off_discussions(repo, how, off=False)
    clock.advance(hours=1)
    await settle_minutes(client, clock)
    # The fold GitHub made is found, and the late commit is added to it: one post each.
    assert [b for b in alert_and_fold_bodies(repo) if FOLD.search(b)] == [fold["body"]]
    assert "d" * 40 in COMMIT_LINK.findall(fold["body"])
    for kind in (JobKind.SEND_ALERTS, JobKind.FOLD_ALERTS):
        for job in await _jobs(client, kind):
            assert (job.state, job.last_error) == ("done", None)


async def test_a_commit_folded_while_an_unclear_fold_is_out_of_reach_for_long_is_in_one_post(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    config = "alerts:\n  on: [breaking, high]\n  max_per_day: 2\n"
    client, repo = await land_alert_day(app_client, github, clock, day=BUSY_DAY, config=config)
    await settle_minutes(client, clock, 2)
    (fold,) = [d for d in repo.discussions if FOLD.search(d["body"])]
    folded = set(COMMIT_LINK.findall(fold["body"]))
    await make_fold_unclear(client)
    repo.has_discussions = False
    assert (await deliver(client, "push", late_high(repo, "d" * 40)))[0] == 202
    for _ in range(8):
        clock.advance(hours=1)
        await settle_minutes(client, clock)
    # Past the wait, the fold is made where alerts go now (the tracking issue) with every
    # commit it holds, the late one too: nothing is lost where readers can still look.
    any_fold = re.compile(rf"<!-- commit-digest:{REPO}:{BUSY_DAY}:alerts-more(-\d+)? -->")
    (made,) = [c for c in repo.comments if any_fold.search(c["body"])]
    assert set(COMMIT_LINK.findall(made["body"])) == folded | {"d" * 40}
    for kind in (JobKind.SEND_ALERTS, JobKind.FOLD_ALERTS):
        for job in await _jobs(client, kind):
            assert (job.state, job.last_error) == ("done", None)
