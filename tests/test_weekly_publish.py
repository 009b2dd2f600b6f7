"""The weekly roll-up in the running App: a week of replay days through the webhook, posted
once after the week's cutoff with counts that add up to the daily digests' own; exactly once
across a 502 after the write and a restart; caught up late after downtime; the narrative
asked for once a week."""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
import structlog
from aiohttp.test_utils import TestClient

from bot.app import EXECUTOR, STORE
from bot.cli.publish import publish_week
from bot.repo_config import parse_config
from bot.settings import MissingSetting
from bot.store.jobs import JobKind
from bot.store.schema import digests, jobs
from tests.fakes.github import FakeGitHub, FakeRepo
from tests.fakes.llm import Behaviour, FakeLLM
from tests.markdown import parse
from tests.scenarios import first_post_kind, landing, rows
from tests.support import FakeClock, deliver_replay, publish_round, replay_day, replay_pushes

Client = TestClient[Any, Any]
REPO = "vllm-project/llm-compressor"
# Five real days of the repository, replayed on Monday to Friday of one week (each push moved
# by whole days, keeping its time of day).
REPLAY_DAYS = ["2025-09-16", "2025-10-01", "2026-06-22", "2026-07-07", "2026-08-18"]
MONDAY = date(2026, 7, 13)
WEEK_END = datetime(2026, 7, 20, tzinfo=UTC)  # Monday 00:00 UTC, the default cutoff
GRACE = timedelta(minutes=10)  # GRACE_MINUTES' default
CONFIG = ".github/commit-digest.yml"
WEEKLY = "weekly:\n  enabled: true\n"
WEEK_MARKER = f"<!-- commit-digest:{REPO}:week-{MONDAY.isoformat()}:part-1 -->"
WEEK_TITLE = f"Weekly roll-up — {REPO} — 2026-07-13 to 2026-07-19"
NARRATIVE_SYSTEM = "You write the opening of a weekly roll-up"
EXCLUDED = "Kyle Sayers"  # 15 of the 59 commits


def pushes_on(replay: str, on: date) -> list[dict[str, Any]]:
    """The replay day's pushes, landing on `on` at their own times of day (UTC)."""
    pushes = copy.deepcopy(replay_pushes(REPO, replay))
    for push in pushes:
        repository = push["payload"]["repository"]
        landed = datetime.fromtimestamp(repository["pushed_at"], UTC)
        moved = datetime.combine(on, landed.time(), UTC)
        repository["pushed_at"] = int(moved.timestamp())
    return pushes


async def push_days(
    client: Client, clock: FakeClock, days: int, *, publish_last: bool = True
) -> None:
    """Replay days land on Monday, Tuesday, … and each is published at its cutoff (the last
    one only if `publish_last`)."""
    for offset, replay in enumerate(REPLAY_DAYS[:days]):
        day = MONDAY + timedelta(days=offset)
        pushes = pushes_on(replay, day)
        for push in pushes:
            clock.current = max(clock.current, landing(push))
            assert await deliver_replay(client, push) == 202
        await client.app[EXECUTOR].drain()
        if publish_last or offset < days - 1:
            clock.current = datetime.combine(day + timedelta(days=1), time(), UTC)
            clock.advance(seconds=1)
            await publish_round(client)


async def a_week(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    *,
    config: str = WEEKLY,
    days: int = 5,
    **settings: Any,
) -> tuple[Client, FakeRepo]:
    repo = github.serve_replay_day(REPO, REPLAY_DAYS[0])
    for replay in REPLAY_DAYS[1:days]:
        github.serve_replay_day(REPO, replay)
    repo.files[CONFIG] = config
    clock.current = datetime.combine(MONDAY, time(), UTC)
    client = await app_client(**settings)
    await push_days(client, clock, days)
    return client, repo


async def push_config(
    client: Client,
    github: FakeGitHub,
    repo: FakeRepo,
    clock: FakeClock,
    config: str,
    *,
    on: date,
    pushed_at: datetime | None = None,
) -> dict[str, Any]:
    """A push of the third replay day, landing on `on`, that changes the repository's config
    (and its analyses drained)."""
    github.serve_replay_day(REPO, REPLAY_DAYS[2])
    (push, *_) = pushes_on(REPLAY_DAYS[2], on)
    if pushed_at is not None:
        push["payload"]["repository"]["pushed_at"] = int(pushed_at.timestamp())
    push["payload"]["commits"][0]["modified"].append(CONFIG)
    repo.files[CONFIG] = config
    clock.current = landing(push)
    assert await deliver_replay(client, push) == 202
    await client.app[EXECUTOR].drain()
    return push


def roll_ups(repo: FakeRepo) -> list[dict[str, Any]]:
    return [d for d in repo.discussions if WEEK_MARKER in d["body"]]


def daily_bodies(repo: FakeRepo) -> dict[str, list[str]]:
    """Each daily digest's posts (the discussion and its comments), by day."""
    out: dict[str, list[str]] = {}
    for d in repo.discussions:
        found = re.match(
            rf"<!-- commit-digest:{re.escape(REPO)}:(\d{{4}}-\d\d-\d\d):part-1 -->", d["body"]
        )
        if found:
            out[found.group(1)] = [d["body"]] + [c["body"] for c in d.get("comments", [])]
    return out


def listed(bodies: list[str]) -> Counter[str]:
    """What a daily digest's table lists: its commit rows, counted by importance."""
    counts: Counter[str] = Counter()
    for body in bodies:
        for row in parse(body).table_rows():
            # A commit row: "HH:MM | author | [title](…/commit/<sha>) | 🔴 high".
            if re.fullmatch(r"\d\d:\d\d", row[0]) and "/commit/" in row[2]:
                counts["commits"] += 1
                counts[row[-1].split()[-1]] += 1
    return counts


def week_counts(body: str) -> dict[str, int]:
    """The roll-up's "this week" column, by row label."""
    table = [r for r in parse(body).table_rows() if len(r) == 4]
    return {r[0]: int(r[1]) for r in table[1:]}


async def test_a_week_of_replay_days_gives_one_roll_up_whose_counts_are_the_days_sum(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # Excluded commits are left out of the week as they are out of the days.
    config = WEEKLY + f"exclude:\n  authors: [{EXCLUDED!r}]\n"
    client, repo = await a_week(app_client, github, clock, config=config)
    days = daily_bodies(repo)
    assert sorted(days) == [(MONDAY + timedelta(days=i)).isoformat() for i in range(5)]
    assert roll_ups(repo) == []  # not before the week's cutoff
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    (roll_up,) = roll_ups(repo)
    assert roll_up["title"] == WEEK_TITLE
    assert roll_up["category"]["slug"] == "general"
    assert roll_up["body"].startswith(WEEK_MARKER)
    total: Counter[str] = Counter()
    for bodies in days.values():
        total += listed(bodies)
    kept = [
        c
        for day in REPLAY_DAYS
        for c in replay_day(REPO, day)["commits"]
        if c["commit"]["author"]["name"] != EXCLUDED
    ]
    assert total["commits"] == len(kept) == 59 - 15
    counts = week_counts(roll_up["body"])
    assert counts["Commits"] == total["commits"]
    for importance in ("high", "medium", "low"):
        label = next(k for k in counts if k.endswith(f" {importance}"))
        assert counts[label] == total[importance], importance
    # It links each day's digest, and says nothing of lateness.
    links = parse(roll_up["body"]).links()
    assert all(d["url"] in links for d in repo.discussions if d is not roll_up)
    assert "Published late" not in roll_up["body"]
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert (
        record.period_start,
        record.state,
        record.late,
        await first_post_kind(client, record),
    ) == (
        MONDAY,
        "published",
        False,
        "discussion",
    )
    # Nothing more: the next rounds post nothing, and a restarted App neither.
    clock.advance(hours=1)
    await publish_round(client)
    await publish_round(await app_client())
    assert len(roll_ups(repo)) == 1
    assert len(repo.discussions) == 6


async def test_a_weekly_cutoff_after_the_daily_one_rolls_up_the_days_that_ended_before_it(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # The days end at midnight; the roll-up is posted on Monday at 09:00 and holds the seven
    # digest days that ended by then (Monday to Sunday): its counts are still the sum of
    # theirs, each is linked, and Monday's first commit (00:13) is not left to the week before.
    config = WEEKLY + '  cutoff: "09:00"\n'
    client, repo = await a_week(app_client, github, clock, config=config)
    days = daily_bodies(repo)
    assert len(days) == 5
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert [d for d in repo.discussions if ":week-" in d["body"]] == []
    clock.current = WEEK_END + timedelta(hours=9) + GRACE + timedelta(seconds=1)
    await publish_round(client)
    (roll_up,) = roll_ups(repo)
    assert roll_up["title"] == WEEK_TITLE
    total: Counter[str] = Counter()
    for bodies in days.values():
        total += listed(bodies)
    assert week_counts(roll_up["body"])["Commits"] == total["commits"] == 59
    links = parse(roll_up["body"]).links()
    assert all(d["url"] in links for d in repo.discussions if d is not roll_up)
    assert "Published late" not in roll_up["body"]


async def test_weekly_turned_on_mid_week_posts_nothing_late_and_its_first_week_on_time(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # Weekly is off through a week; on the Wednesday after, a push turns it on. The week that
    # ended on Monday was never due: it is not posted now, marked late; the week holding that
    # Wednesday is posted at its own cutoff.
    client, repo = await a_week(app_client, github, clock, config="", days=2)
    wednesday = MONDAY + timedelta(days=9)
    push = await push_config(client, github, repo, clock, WEEKLY, on=wednesday)
    await publish_round(client)
    clock.advance(hours=1)
    await publish_round(client)
    assert [d for d in repo.discussions if ":week-" in d["body"]] == []
    clock.current = WEEK_END + timedelta(days=7) + GRACE + timedelta(seconds=1)
    await publish_round(client)
    (roll_up,) = [d for d in repo.discussions if ":week-" in d["body"]]
    assert roll_up["body"].startswith(f"<!-- commit-digest:{REPO}:week-2026-07-20:part-1 -->")
    assert "Published late" not in roll_up["body"]
    assert week_counts(roll_up["body"])["Commits"] == len(push["payload"]["commits"])


@pytest.fixture
async def llm(aiohttp_server: Callable[..., Any]) -> tuple[FakeLLM, dict[str, Any]]:
    fake = FakeLLM()
    server = await aiohttp_server(fake.app())
    settings = {
        "llm_base_url": str(server.make_url("/v1")),
        "llm_api_key": fake.api_key,
        "llm_model": fake.model,
    }
    return fake, settings


def narrative_calls(fake: FakeLLM) -> list[dict[str, Any]]:
    return [r for r in fake.requests if r["messages"][0]["content"].startswith(NARRATIVE_SYSTEM)]


async def test_a_roll_up_created_despite_a_502_is_posted_once_and_its_narrative_paid_once(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    llm: tuple[FakeLLM, dict[str, Any]],
) -> None:
    fake, settings = llm
    client, repo = await a_week(app_client, github, clock, days=2, **settings)
    fake.then(Behaviour("valid", body={"narrative": "Compression work led the week."}))
    github.lose_discussion_create()
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert github.written_then_failed  # GitHub made the discussion; the App heard no success
    assert len(roll_ups(repo)) == 1
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value)
    assert job.key == f"{repo.id}/week/{MONDAY.isoformat()}"
    assert job.state == "pending" and job.last_error
    # The retry, an hour later, finds the post by its marker: no second create, no second
    # LLM call, and the post made on time is not called late.
    clock.advance(hours=1)
    await publish_round(client)
    (roll_up,) = roll_ups(repo)
    creates = [c for c in github.calls if c.operation == "CreateDigestDiscussion"]
    assert len(creates) == 2 + 1  # two days, one week
    assert len(narrative_calls(fake)) == 1
    assert "Compression work led the week." in roll_up["body"]
    assert "Published late" not in roll_up["body"]
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert (record.state, record.late) == ("published", False)
    # A restart and more rounds: nothing more, and no more calls.
    clock.advance(days=1)
    await publish_round(await app_client(**settings))
    assert len(roll_ups(repo)) == 1 and len(narrative_calls(fake)) == 1


@pytest.mark.parametrize("moved", ["  to: issue\n", "  to: issue\npublish:\n  issue: 7\n"])
async def test_a_roll_up_created_despite_a_502_stays_where_it_is_when_the_config_moves_it(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, moved: str
) -> None:
    # GitHub made the discussion and answered 502; before the retry, the config sends the
    # roll-up to the tracking issue (or another issue). The retry finds the discussion by its
    # marker: the week is not posted a second time, as a comment.
    client, repo = await a_week(app_client, github, clock, days=1)
    github.lose_discussion_create()
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert github.written_then_failed and len(roll_ups(repo)) == 1
    store = client.app[STORE]
    async with store.writer().begin() as conn:
        await store.repos.save_config(
            conn,
            repo.id,
            config=parse_config(WEEKLY + moved),
            sha="moved",
            default_branch=None,
            now=clock.now(),
        )
    clock.advance(hours=1)
    await publish_round(client)
    assert len(roll_ups(repo)) == 1
    assert [c for c in repo.comments if WEEK_MARKER in c["body"]] == []
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")


@pytest.mark.parametrize("how", ["config names none", "renamed"])
async def test_a_roll_up_created_despite_a_502_is_not_posted_again_when_its_category_is_gone(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, how: str
) -> None:
    # GitHub made the roll-up's discussion and answered 502; before the retry, the category
    # the config names no longer exists. The retry looks where the create went: the week is
    # not posted again on the tracking issue.
    config = WEEKLY + "  category: Announcements\n"
    client, repo = await a_week(app_client, github, clock, config=config, days=1)
    github.lose_discussion_create()
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert github.written_then_failed and len(roll_ups(repo)) == 1
    if how == "renamed":
        for category in [*repo.categories, *(d["category"] for d in repo.discussions)]:
            if category["slug"] == "announcements":
                category.update(name="News", slug="news")
    else:
        store = client.app[STORE]
        async with store.writer().begin() as conn:
            await store.repos.save_config(
                conn,
                repo.id,
                config=parse_config(WEEKLY + "  category: Ideas\n"),
                sha="moved",
                default_branch=None,
                now=clock.now(),
            )
    clock.advance(hours=1)
    await publish_round(client)
    assert len(roll_ups(repo)) == 1
    assert [c for c in repo.comments if WEEK_MARKER in c["body"]] == []
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")


async def test_a_roll_up_commented_despite_a_502_stays_on_its_issue_when_the_config_moves_it(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, config=WEEKLY + "  to: issue\n", days=1)
    github.fail(
        "POST",
        r"^/repos/[^/]+/[^/]+/issues/\d+/comments$",
        502,
        after_write=True,
        message="Bad Gateway",
    )
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert github.written_then_failed
    (tracking,) = repo.issues.values()
    other = 70
    repo.issues[other] = {
        "id": 70,
        "number": other,
        "title": "Release notes",
        "body": "",
        "html_url": f"https://github.com/{REPO}/issues/{other}",
        "node_id": "I_70",
        "state": "open",
    }
    store = client.app[STORE]
    async with store.writer().begin() as conn:
        await store.repos.save_config(
            conn,
            repo.id,
            config=parse_config(WEEKLY + f"  to: issue\npublish:\n  issue: {other}\n"),
            sha="moved",
            default_branch=None,
            now=clock.now(),
        )
    clock.advance(hours=1)
    await publish_round(client)
    (comment,) = [c for c in repo.comments if WEEK_MARKER in c["body"]]
    assert comment["issue_number"] == tracking["number"]
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert (record.state, await first_post_kind(client, record)) == ("published", "issue-comment")


@pytest.mark.parametrize("answer", ["invalid_json", "cut", "error"])
async def test_a_broken_narrative_leaves_the_roll_up_without_one_and_is_not_asked_again(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    llm: tuple[FakeLLM, dict[str, Any]],
    answer: str,
) -> None:
    fake, settings = llm
    client, repo = await a_week(app_client, github, clock, days=1, **settings)
    fake.then(Behaviour(answer, status=503))
    # The first attempt's post fails outright: the retry must not ask the LLM again.
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion")
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert roll_ups(repo) == []
    clock.advance(hours=1)
    await publish_round(client)
    (roll_up,) = roll_ups(repo)
    assert len(narrative_calls(fake)) == 1
    assert "### Narrative" not in roll_up["body"] and "llm:" not in roll_up["body"]
    assert "**12 commits** this week" in roll_up["body"]


async def test_downtime_across_the_cutoff_posts_the_roll_up_late_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo = github.serve_replay_day(REPO, REPLAY_DAYS[0])
    for replay in REPLAY_DAYS[1:]:
        github.serve_replay_day(REPO, replay)
    repo.files[CONFIG] = WEEKLY
    clock.current = datetime.combine(MONDAY, time(), UTC)
    client = await app_client()
    # Friday's commits are in; the App is down from Friday evening to Wednesday.
    await push_days(client, clock, 5, publish_last=False)
    clock.current = WEEK_END + timedelta(days=2, hours=9)
    restarted = await app_client()
    await publish_round(restarted)
    (roll_up,) = roll_ups(repo)
    assert "Published late" in roll_up["body"]
    # Friday's digest was caught up first, in the same round: the roll-up links it.
    days = daily_bodies(repo)
    assert len(days) == 5
    friday = next(
        d
        for d in repo.discussions
        if d["body"].startswith(f"<!-- commit-digest:{REPO}:2026-07-17:")
    )
    assert friday["url"] in parse(roll_up["body"]).links()
    assert week_counts(roll_up["body"])["Commits"] == 59
    (record,) = await rows(restarted, digests, digests.c.period_kind == "week")
    assert (record.state, record.late) == ("published", True)
    clock.advance(hours=2)
    await publish_round(restarted)
    await publish_round(client)
    assert len(roll_ups(repo)) == 1


async def test_the_roll_up_waits_for_a_day_still_being_posted(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo = github.serve_replay_day(REPO, REPLAY_DAYS[0])
    github.serve_replay_day(REPO, REPLAY_DAYS[1])
    repo.files[CONFIG] = WEEKLY
    clock.current = datetime.combine(MONDAY, time(), UTC)
    client = await app_client()
    await push_days(client, clock, 2, publish_last=False)
    # Tuesday's digest goes out with the week, and GitHub refuses its first try.
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion")
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert len(repo.discussions) == 1 and roll_ups(repo) == []
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value)
    assert (job.state, job.attempts) == ("pending", 0)  # waiting spends no attempt
    assert job.not_before <= clock.current + timedelta(minutes=1)
    clock.advance(minutes=3)  # past the day's backoff (2 minutes)
    await publish_round(client)
    (roll_up,) = roll_ups(repo)
    tuesday = next(d for d in repo.discussions if "2026-07-14:part-1" in d["body"])
    assert tuesday["url"] in parse(roll_up["body"]).links()


async def test_weekly_off_posts_no_roll_up(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, config="", days=2)
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    clock.advance(days=3)
    await publish_round(client)
    assert roll_ups(repo) == [] and len(repo.discussions) == 2
    assert await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value) == []
    assert await rows(client, digests, digests.c.period_kind == "week") == []


@pytest.mark.parametrize("skip", [True, False])
async def test_a_quiet_week_follows_skip_empty_days(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, skip: bool
) -> None:
    config = WEEKLY + f"skip_empty_days: {str(skip).lower()}\n"
    client, repo = await a_week(app_client, github, clock, config=config, days=1)
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert len(roll_ups(repo)) == 1
    # The next week is quiet.
    clock.current = WEEK_END + timedelta(days=7) + GRACE + timedelta(seconds=1)
    await publish_round(client)
    quiet = f"<!-- commit-digest:{REPO}:week-2026-07-20:part-1 -->"
    posted = [d for d in repo.discussions if quiet in d["body"]]
    records = {
        r.period_start: r.state
        for r in await rows(client, digests, digests.c.period_kind == "week")
    }
    assert records == {MONDAY: "published", date(2026, 7, 20): "skipped" if skip else "published"}
    if skip:
        assert posted == []
    else:
        (post,) = posted
        assert "No commits landed from 2026-07-20 to 2026-07-26." in post["body"]
    await publish_round(client)
    assert len([d for d in repo.discussions if quiet in d["body"]]) == len(posted)
    # By hand (`publish --week`): built again, still quiet or already posted, so not posted.
    assert await publish_week(client.app, REPO, date(2026, 7, 22)) == (
        "skipped",
        None if skip else posted[0]["url"],
    )
    assert len([d for d in repo.discussions if quiet in d["body"]]) == len(posted)


@pytest.mark.parametrize(
    "config",
    [
        WEEKLY + "  to: issue\n",
        WEEKLY + "  category: Weekly\n",  # no such category: the tracking issue instead
    ],
)
async def test_the_roll_up_goes_to_the_tracking_issue_when_asked_or_when_it_must(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, config: str
) -> None:
    client, repo = await a_week(app_client, github, clock, config=config, days=1)
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert roll_ups(repo) == []
    (issue,) = repo.issues.values()
    (comment,) = [c for c in repo.comments if WEEK_MARKER in c["body"]]
    assert comment["issue_number"] == issue["number"]
    assert comment["body"].startswith(WEEK_MARKER)
    assert f"## {WEEK_TITLE}" in comment["body"]
    # Where Discussions could not be used, the comment says why, as a daily digest does.
    fell_back = "Posted as an issue comment: the discussion category “Weekly” does not exist."
    assert (fell_back in comment["body"]) == ("category" in config)
    await publish_round(client)
    assert len([c for c in repo.comments if WEEK_MARKER in c["body"]]) == 1


async def test_a_roll_up_for_an_issue_that_does_not_exist_goes_to_the_tracking_issue_saying_why(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # No such category, so an issue comment; and the configured issue does not exist either.
    config = WEEKLY + "  category: Weekly\npublish:\n  issue: 4242\n"
    client, repo = await a_week(app_client, github, clock, config=config, days=1)
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    (issue,) = repo.issues.values()
    assert issue["body"].startswith(f"<!-- commit-digest:{REPO}:tracking-issue -->")
    (comment,) = [c for c in repo.comments if WEEK_MARKER in c["body"]]
    assert comment["issue_number"] == issue["number"]
    (why,) = [line for line in comment["body"].splitlines() if line.startswith("> Posted as")]
    assert "the discussion category “Weekly” does not exist." in why
    assert "`#4242` (`publish.issue`) does not exist or was deleted" in why
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert (record.state, await first_post_kind(client, record)) == ("published", "issue-comment")


async def test_the_scheduler_wakes_for_the_weekly_cutoff_and_skips_weeks_before_the_app_came(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo = github.serve_replay_day(REPO, REPLAY_DAYS[0])
    # Posted Monday 09:00: the week holds the digest days Monday to Sunday, ended by then.
    repo.files[CONFIG] = 'weekly:\n  enabled: true\n  cutoff: "09:00"\n'
    client = await app_client(scheduler_max_sleep_seconds=30 * 86_400)
    wednesday = MONDAY + timedelta(days=2)
    (first, *_) = pushes_on(REPLAY_DAYS[0], wednesday)
    clock.current = landing(first)
    assert await deliver_replay(client, first) == 202
    await client.app[EXECUTOR].drain()
    # The week posted Monday 07-13 09:00 was over before the App saw the repository.
    await publish_round(client)
    assert await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value) == []
    clock.current = datetime(2026, 7, 20, 1, 0, tzinfo=UTC)
    wake_at = await publish_round(client)  # Wednesday's digest is out; the week is not over
    assert wake_at == datetime(2026, 7, 20, 9, 0, tzinfo=UTC) + GRACE
    assert roll_ups(repo) == [] and len(repo.discussions) == 1
    clock.current = wake_at
    await publish_round(client)
    (roll_up,) = [d for d in repo.discussions if ":week-2026-07-13:part-1" in d["body"]]
    assert week_counts(roll_up["body"])["Commits"] == 1


async def test_a_week_whose_job_failed_for_good_is_posted_by_the_publish_command_once(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, days=2)
    # GitHub refuses the roll-up's discussion for hours: its job runs out of attempts.
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", times=1000)
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    for _ in range(12):
        await publish_round(client)
        clock.advance(hours=1)
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value)
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert (job.state, record.state) == ("failed", "failed")
    github.faults.clear()
    await publish_round(client)
    assert roll_ups(repo) == []  # the scheduler does not start a failed week again
    # Any digest day of the week names it.
    state, url = await publish_week(client.app, REPO, MONDAY + timedelta(days=3))
    (roll_up,) = roll_ups(repo)
    assert (state, url) == ("published", roll_up["url"])
    assert week_counts(roll_up["body"])["Commits"] == sum(
        listed(bodies)["commits"] for bodies in daily_bodies(repo).values()
    )
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert (record.state, record.last_error) == ("published", None)
    # Again, and more rounds: nothing more is posted.
    assert await publish_week(client.app, REPO, MONDAY) == ("skipped", roll_up["url"])
    clock.advance(days=1)
    await publish_round(client)
    assert len(roll_ups(repo)) == 1


async def test_a_week_passed_over_when_weekly_was_turned_on_is_posted_by_hand_late(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, config="", days=2)
    await push_config(client, github, repo, clock, WEEKLY, on=MONDAY + timedelta(days=9))
    await publish_round(client)
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert record.state == "skipped" and roll_ups(repo) == []
    # Nobody was waiting for it, but a maintainer asks for it: it is built and posted, late.
    state, url = await publish_week(client.app, REPO, MONDAY)
    (roll_up,) = roll_ups(repo)
    assert (state, url) == ("published", roll_up["url"])
    assert "Published late" in roll_up["body"]


async def test_the_publish_command_refuses_a_week_with_weekly_off(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, config="", days=2)
    clock.current = WEEK_END + timedelta(days=1)
    with pytest.raises(MissingSetting, match=r"no weekly roll-up.*weekly: \{enabled: true\}"):
        await publish_week(client.app, REPO, MONDAY)
    assert await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value) == []
    assert roll_ups(repo) == []


async def test_the_publish_command_refuses_a_week_not_ended_or_before_the_app_came(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, days=2)
    with pytest.raises(
        MissingSetting,
        match="the week 2026-07-13 to 2026-07-19 has not ended: "
        "its roll-up is due at 2026-07-20 00:00",
    ):
        await publish_week(client.app, REPO, MONDAY + timedelta(days=1))
    clock.current = WEEK_END + timedelta(days=1)
    with pytest.raises(
        MissingSetting, match="the week 2026-07-06 to 2026-07-12 ended before the App first saw"
    ):
        await publish_week(client.app, REPO, MONDAY - timedelta(days=1))
    assert await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value) == []
    assert await rows(client, digests, digests.c.period_kind == "week") == []
    assert roll_ups(repo) == []


async def test_the_publish_command_refuses_a_week_overlapping_one_posted_before_weekly_moved(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, days=2)
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    (posted,) = roll_ups(repo)  # Monday 07-13 to Sunday 07-19
    # Then the roll-up moves to Thursdays: its weeks are now Thursday to Wednesday.
    thursdays = WEEKLY + "  weekday: thursday\n"
    await push_config(client, github, repo, clock, thursdays, on=MONDAY + timedelta(days=9))
    await publish_round(client)
    # 07-13 is now in the week 07-09 to 07-15, whose Monday and Tuesday the posted roll-up
    # already counts: a second roll-up would count them twice.
    with pytest.raises(
        MissingSetting,
        match="the week 2026-07-09 to 2026-07-15 overlaps the roll-up posted for "
        "2026-07-13 to 2026-07-19",
    ):
        await publish_week(client.app, REPO, MONDAY)
    assert [d["url"] for d in repo.discussions if ":week-" in d["body"]] == [posted["url"]]


async def test_the_scheduler_refuses_a_week_overlapping_one_posted_before_weekly_moved(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, days=2)
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    (posted,) = roll_ups(repo)  # Monday 07-13 to Sunday 07-19
    # On Tuesday the roll-up moves to Thursdays; on Thursday the week 07-16 to 07-22 is due,
    # and the posted roll-up already counts its Thursday to Sunday.
    thursdays = WEEKLY + "  weekday: thursday\n"
    await push_config(client, github, repo, clock, thursdays, on=MONDAY + timedelta(days=8))
    clock.current = datetime(2026, 7, 23, tzinfo=UTC) + GRACE + timedelta(seconds=1)
    with structlog.testing.capture_logs() as logs:
        await publish_round(client)
        await publish_round(client)
    assert [d["url"] for d in repo.discussions if ":week-" in d["body"]] == [posted["url"]]
    refused = [e for e in logs if e["event"] == "weekly_overlaps_posted"]
    assert [e["posted"] for e in refused] == ["2026-07-13"]  # said once, not every round
    (record,) = await rows(
        client,
        digests,
        digests.c.period_kind == "week",
        digests.c.period_start == date(2026, 7, 16),
    )
    assert record.state == "skipped"


async def weekday_moves_in_the_backoff(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> tuple[Client, FakeRepo]:
    """The Monday roll-up (07-13 to 07-19) is made by GitHub, which answers 502; within the
    job's backoff, the roll-up moves to Thursdays (its weeks: Thursday to Wednesday)."""
    client, repo = await a_week(app_client, github, clock, days=2)
    github.lose_discussion_create()
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert github.written_then_failed and len(roll_ups(repo)) == 1
    (job,) = await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value)
    assert job.state == "pending" and job.not_before > clock.now() + timedelta(seconds=30)
    thursdays = WEEKLY + "  weekday: thursday\n"
    moved = clock.now() + timedelta(seconds=30)
    await push_config(
        client, github, repo, clock, thursdays, on=MONDAY + timedelta(days=7), pushed_at=moved
    )
    return client, repo


def every_roll_up(repo: FakeRepo) -> list[str]:
    """The first line of every roll-up posted, as a discussion or a comment."""
    posts = [*repo.discussions, *repo.comments]
    return [p["body"].split("\n", 1)[0] for p in posts if ":week-" in p["body"].split("\n", 1)[0]]


async def test_a_roll_up_left_unclear_when_the_weekday_moves_is_the_only_one_of_its_days(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await weekday_moves_in_the_backoff(app_client, github, clock)
    # On Thursday the week 07-16 to 07-22 is due; the roll-up GitHub made counts its Thursday
    # to Sunday already.
    clock.current = datetime(2026, 7, 23, tzinfo=UTC) + GRACE + timedelta(seconds=1)
    with structlog.testing.capture_logs() as logs:
        await publish_round(client)
        clock.advance(minutes=2)  # a week that waited for the other to settle
        await publish_round(client)
    assert every_roll_up(repo) == [WEEK_MARKER]
    weeks = await rows(client, digests, digests.c.period_kind == "week")
    states = {w.period_start: (w.state, await first_post_kind(client, w)) for w in weeks}
    assert states[MONDAY] == ("published", "discussion")
    assert states[date(2026, 7, 16)][0] == "skipped"
    refused = [e for e in logs if e["event"] == "weekly_overlaps_posted"]
    assert [e["posted"] for e in refused] == ["2026-07-13"]


async def test_a_roll_up_whose_job_gave_up_unclear_is_found_by_the_overlapping_week(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await weekday_moves_in_the_backoff(app_client, github, clock)
    # GitHub cannot list discussions for hours: the Monday job never settles its create,
    # and gives up.
    github.fail("POST", r"^/graphql$", 502, operation="RecentDiscussions", times=10_000)
    for _ in range(8):
        clock.advance(hours=1)
        await publish_round(client)
    github.faults.clear()
    (job,) = await rows(
        client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value, jobs.c.key.endswith("07-13")
    )
    assert job.state == "failed"
    # On Thursday the week 07-16 to 07-22 looks for it where it was sent, and finds it.
    clock.current = datetime(2026, 7, 23, tzinfo=UTC) + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert every_roll_up(repo) == [WEEK_MARKER]
    weeks = await rows(client, digests, digests.c.period_kind == "week")
    states = {w.period_start: (w.state, await first_post_kind(client, w)) for w in weeks}
    assert states[MONDAY] == ("published", "discussion")
    assert states[date(2026, 7, 16)][0] == "skipped"


async def test_the_publish_command_refuses_a_week_overlapping_one_left_unclear(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await weekday_moves_in_the_backoff(app_client, github, clock)
    # 07-13 is now in the week 07-09 to 07-15, which shares days with the roll-up GitHub
    # made: not posted while that create is unclear, nor once it is found.
    with pytest.raises(
        MissingSetting,
        match="the week 2026-07-09 to 2026-07-15 overlaps the roll-up of 2026-07-13 to "
        "2026-07-19, whose create GitHub has not confirmed yet",
    ):
        await publish_week(client.app, REPO, MONDAY)
    clock.advance(minutes=5)
    await publish_round(client)
    with pytest.raises(
        MissingSetting,
        match="the week 2026-07-09 to 2026-07-15 overlaps the roll-up posted for "
        "2026-07-13 to 2026-07-19",
    ):
        await publish_week(client.app, REPO, MONDAY)
    assert every_roll_up(repo) == [WEEK_MARKER]
    (record,) = await rows(
        client, digests, digests.c.period_kind == "week", digests.c.period_start == MONDAY
    )
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")


async def test_a_week_passed_over_just_after_its_cutoff_and_posted_by_hand_says_it_is_late(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, config="", days=2)
    # Weekly is turned on five minutes after the week's cutoff: the week is passed over then.
    after_cutoff = WEEK_END + timedelta(minutes=5)
    await push_config(
        client, github, repo, clock, WEEKLY, on=MONDAY + timedelta(days=7), pushed_at=after_cutoff
    )
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert record.state == "skipped"
    # A day later a maintainer asks for it: its first post is a day after its cutoff.
    clock.current = WEEK_END + timedelta(days=1)
    state, url = await publish_week(client.app, REPO, MONDAY)
    (roll_up,) = roll_ups(repo)
    assert (state, url) == ("published", roll_up["url"])
    assert "Published late" in roll_up["body"]


async def test_the_publish_command_refuses_a_day_its_time_zone_skipped_in_one_line(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # Samoa moved across the date line: 2011-12-30 never happened there, and no Friday 09:00
    # ends a week holding it or the day before.
    config = WEEKLY + '  weekday: friday\ntimezone: Pacific/Apia\ncutoff: "09:00"\n'
    client, _ = await a_week(app_client, github, clock, config=config, days=1)
    with pytest.raises(MissingSetting, match="no roll-up week holds 2011-12-29 in Pacific/Apia"):
        await publish_week(client.app, REPO, date(2011, 12, 29))
    assert await rows(client, jobs, jobs.c.kind == JobKind.PUBLISH_WEEK.value) == []


async def test_a_roll_up_made_despite_a_502_waits_while_discussions_are_off(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, days=1)
    github.lose_discussion_create()
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert github.written_then_failed
    repo.has_discussions = False  # turned off during the backoff
    for _ in range(4):
        clock.advance(hours=1)
        await publish_round(client)
    assert every_roll_up(repo) == [WEEK_MARKER]  # no copy on the tracking issue
    repo.has_discussions = True
    clock.advance(hours=1)
    await publish_round(client)
    assert every_roll_up(repo) == [WEEK_MARKER]
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert (record.state, await first_post_kind(client, record)) == ("published", "discussion")


async def test_a_roll_up_whose_502_made_nothing_is_still_posted_after_its_weekday_moves(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """The Monday roll-up was due, and its create failed (nothing made); within its backoff
    the roll-up moves to Thursdays. It was owed: its job posts it, and the Thursday week
    sharing its days is refused as already built."""
    client, repo = await a_week(app_client, github, clock, days=2)
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", message="Bad")
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    assert every_roll_up(repo) == []
    moved = clock.now() + timedelta(seconds=30)
    thursdays = WEEKLY + "  weekday: thursday\n"
    await push_config(
        client, github, repo, clock, thursdays, on=MONDAY + timedelta(days=7), pushed_at=moved
    )
    for _ in range(4):
        clock.advance(minutes=30)
        await publish_round(client)
    assert every_roll_up(repo) == [WEEK_MARKER]
    (made,) = roll_ups(repo)
    assert made["title"] == WEEK_TITLE
    clock.current = datetime(2026, 7, 23, tzinfo=UTC) + GRACE + timedelta(seconds=1)
    with structlog.testing.capture_logs() as logs:
        await publish_round(client)
        clock.advance(minutes=2)
        await publish_round(client)
    assert every_roll_up(repo) == [WEEK_MARKER]
    weeks = await rows(client, digests, digests.c.period_kind == "week")
    states = {w.period_start: w.state for w in weeks}
    assert states[MONDAY] == "published"
    assert states[date(2026, 7, 16)] == "skipped"
    refused = [e for e in logs if e["event"] == "weekly_overlaps_posted"]
    assert [e["posted"] for e in refused] == ["2026-07-13"]


async def test_a_roll_up_backing_off_when_weekly_is_turned_off_ends_skipped_saying_so(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client, repo = await a_week(app_client, github, clock, days=1)
    github.fail("POST", r"^/graphql$", 502, operation="CreateDigestDiscussion", message="Bad")
    clock.current = WEEK_END + GRACE + timedelta(seconds=1)
    await publish_round(client)
    off = "weekly:\n  enabled: false\n"
    with structlog.testing.capture_logs() as logs:
        await push_config(client, github, repo, clock, off, on=MONDAY + timedelta(days=7))
        for _ in range(4):
            clock.advance(minutes=30)
            await publish_round(client)
    assert every_roll_up(repo) == []
    (record,) = await rows(client, digests, digests.c.period_kind == "week")
    assert record.state == "skipped"  # never left pending
    assert [e["event"] for e in logs if e["event"] == "weekly_not_posted"] == ["weekly_not_posted"]
