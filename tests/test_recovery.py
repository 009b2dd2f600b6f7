"""Recovery of lost webhooks: the App lists its deliveries on the fake GitHub, which really
delivers (and redelivers) the signed pushes to it, and asks once per GUID for what it missed."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import gidgethub
import pytest
import sqlalchemy as sa
from aiohttp.test_utils import TestClient

from bot.app import CLOCK, EXECUTOR, GITHUB, METRICS, RECOVERER, RECOVERY, STORE
from bot.github.hooks import HookDelivery
from bot.jobs.recovery import Reason, RecoveryReport, plan_redeliveries, recover_deliveries
from bot.settings import Settings
from bot.store.jobs import JobKind
from bot.store.schema import commits
from tests.fakes.github import FakeGitHub
from tests.fakes.hooks import HookAttempt
from tests.processes import free_port
from tests.scenarios import landing, rows
from tests.support import FakeClock, publish_round, replay_pushes

Client = TestClient[Any, Any]
REPO = "vllm-project/llm-compressor"
# The real day the App was down for four of sixteen pushes.
DAY = "2026-08-18"
OTHER_DAY = "2026-07-07"
NOW = datetime(2026, 8, 18, 23, 0, tzinfo=UTC)


# --- the decision, as a table -------------------------------------------------------------


def row(
    guid: str,
    status_code: int,
    *,
    hours_ago: float = 1,
    id: int | None = None,
    event: str = "push",
    redelivery: bool = False,
) -> HookDelivery:
    return HookDelivery(
        id=id if id is not None else int(hours_ago * 1000) + status_code,
        guid=guid,
        delivered_at=NOW - timedelta(hours=hours_ago),
        redelivery=redelivery,
        status="OK" if 200 <= status_code < 300 else "failed to connect to host",
        status_code=status_code,
        event=event,
    )


PLAN_CASES: list[tuple[str, list[HookDelivery], set[str], set[str], list[tuple[str, Reason]]]] = [
    ("the App was down", [row("a", 502)], set(), set(), [("a", Reason.FAILED)]),
    ("the App answered 503", [row("a", 503)], set(), set(), [("a", Reason.FAILED)]),
    ("timed out after storing it", [row("a", 504)], {"a"}, set(), []),
    (
        "an earlier redelivery succeeded",
        [row("a", 502, hours_ago=5), row("a", 202, hours_ago=4, redelivery=True)],
        {"a"},
        set(),
        [],
    ),
    ("a push the App ignored (200)", [row("a", 200)], set(), set(), []),
    (
        "a duplicate (200) after a failure",
        [row("a", 502, hours_ago=3), row("a", 200)],
        set(),
        set(),
        [],
    ),
    (
        "acknowledged (202) but not in the store",
        [row("a", 202)],
        set(),
        set(),
        [("a", Reason.LOST)],
    ),
    ("already asked for", [row("a", 502)], set(), {"a"}, []),
    ("older than GitHub's window", [row("a", 502, hours_ago=73)], set(), set(), []),
    ("an event the App does not use", [row("a", 502, event="pull_request")], set(), set(), []),
    (
        "comment events carry /digest commands",
        [row("a", 502, event="issue_comment"), row("b", 502, event="discussion_comment")],
        set(),
        set(),
        [("a", Reason.FAILED), ("b", Reason.FAILED)],
    ),
    ("ping", [row("a", 502, event="ping")], set(), set(), []),
    (
        "installation events are needed",
        [row("a", 502, event="installation")],
        set(),
        set(),
        [("a", Reason.FAILED)],
    ),
    ("a GUID the webhook could never store", [row("x" * 65, 502)], set(), set(), []),
    (
        "oldest first",
        [row("late", 502, hours_ago=1), row("early", 502, hours_ago=9)],
        set(),
        set(),
        [("early", Reason.FAILED), ("late", Reason.FAILED)],
    ),
]


@pytest.mark.parametrize(
    ("deliveries", "recorded", "asked", "expected"),
    [case[1:] for case in PLAN_CASES],
    ids=[case[0] for case in PLAN_CASES],
)
def test_which_guids_are_asked_for(
    deliveries: list[HookDelivery],
    recorded: set[str],
    asked: set[str],
    expected: list[tuple[str, Reason]],
) -> None:
    plan = plan_redeliveries(
        deliveries, since=NOW - timedelta(days=3), recorded=recorded, asked=asked
    )
    assert [(p.guid, p.reason) for p in plan] == expected


def test_a_guid_failed_twice_is_asked_once_for_its_latest_attempt() -> None:
    deliveries = [
        row("a", 502, hours_ago=80, id=1),  # outside the window: not counted
        row("a", 502, hours_ago=50, id=2),
        row("a", 503, hours_ago=10, id=3, redelivery=True),
        row("b", 502, hours_ago=20, id=4),
    ]
    plan = plan_redeliveries(deliveries, since=NOW - timedelta(days=3), recorded=set(), asked=set())
    assert [(p.guid, p.hook_delivery_id, p.attempts, p.last_status) for p in plan] == [
        ("a", 3, 2, "503 failed to connect to host"),
        ("b", 4, 1, "502 failed to connect to host"),
    ]


def test_a_delivery_time_without_a_zone_is_utc() -> None:
    item = {"id": 1, "guid": "g", "status_code": 502, "event": "push"}
    naive = HookDelivery.model_validate({**item, "delivered_at": "2026-08-18T10:00:00"})
    zulu = HookDelivery.model_validate({**item, "delivered_at": "2026-08-18T10:00:00Z"})
    assert naive.delivered_at == zulu.delivered_at == datetime(2026, 8, 18, 10, tzinfo=UTC)


def test_the_dedupe_must_outlast_the_redelivery_window(
    make_settings: Callable[..., Settings],
) -> None:
    with pytest.raises(ValueError, match="DELIVERY_RETENTION_DAYS"):
        make_settings(delivery_retention_days=2)
    assert (
        make_settings(delivery_retention_days=7, recovery_window_days=7).recovery_window_days == 7
    )


# --- against the fake GitHub, which delivers to the App -----------------------------------


async def stored_shas(client: Client) -> set[str]:
    return {r.sha for r in await rows(client, commits)}


async def recover(client: Client) -> RecoveryReport:
    """One round, as the loop runs it at start-up (GitHub's whole window)."""
    return await recover_deliveries(
        client.app[GITHUB].as_app(),
        client.app[STORE],
        client.app[CLOCK].now(),
        metrics=client.app[METRICS],
    )


def app_down(github: FakeGitHub) -> None:
    """Nothing listens at the webhook URL any more."""
    github.hooks.url = f"http://127.0.0.1:{free_port()}/webhook"


async def day_with_downtime(
    client: Client, github: FakeGitHub, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[dict[str, Any]], list[HookAttempt]]:
    """The day's sixteen pushes: the App is down for four (6-9) and answers 503 to one (10).
    Returns the pushes and the failed attempts."""
    pushes = replay_pushes(REPO, DAY)
    github.serve_replay_day(REPO, DAY)
    url = str(client.make_url("/webhook"))
    store = client.app[STORE]
    real_ingest = store.ingest

    async def disk_full(units: Any) -> Any:
        raise sa.exc.OperationalError("INSERT", {}, Exception("database or disk is full"))

    failed: list[HookAttempt] = []
    for index, push in enumerate(pushes):
        clock.current = landing(push) + timedelta(seconds=1)
        if 6 <= index <= 9:
            app_down(github)
        else:
            github.hooks.url = url
        if index == 10:
            monkeypatch.setattr(store, "ingest", disk_full)
        attempt = await github.hooks.send_push(push)
        monkeypatch.setattr(store, "ingest", real_ingest)
        if not attempt.ok:
            failed.append(attempt)
    github.hooks.url = url
    clock.current = NOW
    return pushes, failed


async def test_pushes_missed_while_the_app_was_down_are_redelivered_once(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = await app_client()
    pushes, failed = await day_with_downtime(client, github, clock, monkeypatch)
    assert [(a.status_code, a.status) for a in failed] == [
        *[(502, "failed to connect to host")] * 4,
        (503, "Invalid HTTP Response: 503"),
    ]
    every_sha = {c["id"] for p in pushes for c in p["payload"]["commits"]}
    assert len(every_sha) == 16
    assert len(await stored_shas(client)) == 11

    report = await recover(client)
    await github.hooks.settled()
    assert [r.guid for r in report.asked] == [a.guid for a in failed]
    assert {r.reason for r in report.asked} == {Reason.FAILED}
    # GitHub redelivered each one: same GUID and payload, a new attempt, and the App took it.
    redelivered = github.hooks.redeliveries()
    assert [(a.guid, a.body, a.status_code) for a in redelivered] == [
        (a.guid, a.body, 202) for a in failed
    ]
    assert await stored_shas(client) == every_sha
    assert sorted(await client.app[STORE].redeliveries.all()) == sorted(
        (a.guid, "asked", "failed") for a in failed
    )

    # A second round, and a round after a restart of the loop, ask for nothing again.
    clock.advance(minutes=5)
    again = await recover(client)
    await client.app[RECOVERY].run_once()
    assert again.asked == [] and again.listed == len(github.hooks.attempts)
    assert len(github.calls_to("POST", r"/attempts$")) == len(failed)
    assert len(github.hooks.redeliveries()) == len(failed)
    scraped = await (await client.get("/metrics")).text()
    assert 'commit_digest_redeliveries_total{outcome="asked"} 5.0' in scraped


def asks_of(github: FakeGitHub, attempt: HookAttempt) -> int:
    """How many times the App asked GitHub to redeliver this GUID (for any row of it)."""
    rows = {a.id for a in github.hooks.of(attempt.guid)}
    return sum(int(c.path.split("/")[-2]) in rows for c in github.calls_to("POST", r"/attempts$"))


async def one_push_missed(
    client: Client, github: FakeGitHub, clock: FakeClock
) -> tuple[list[dict[str, Any]], HookAttempt]:
    """Three pushes of the day: the App is down for the second one only."""
    pushes = replay_pushes(REPO, DAY)[:3]
    github.serve_replay_day(REPO, DAY)
    url = str(client.make_url("/webhook"))
    missed: HookAttempt | None = None
    for index, push in enumerate(pushes):
        clock.current = landing(push) + timedelta(seconds=1)
        if index == 1:
            app_down(github)
        else:
            github.hooks.url = url
        attempt = await github.hooks.send_push(push)
        if index == 1:
            missed = attempt
    github.hooks.url = url
    assert missed is not None and missed.status_code == 502
    return pushes, missed


async def digest_of_the_day(client: Client, github: FakeGitHub, clock: FakeClock) -> str:
    """The day analysed, its cutoff passed, and its digest posted: the posted text."""
    await client.app[EXECUTOR].drain()
    clock.current = datetime(2026, 8, 19, 0, 0, 1, tzinfo=UTC)
    await publish_round(client)
    (discussion,) = github.repos[REPO].discussions
    return "\n".join([discussion["body"], *(c["body"] for c in discussion["comments"])])


async def test_a_redelivery_that_fails_again_is_asked_for_again_after_a_backoff(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = await app_client()
    pushes, missed = await one_push_missed(client, github, clock)
    clock.current = NOW
    store = client.app[STORE]
    real_ingest = store.ingest

    async def outage(units: Any) -> Any:
        raise sa.exc.OperationalError("INSERT", {}, Exception("the database is restarting"))

    # The redelivery meets a brief database outage: the App answers it 503.
    monkeypatch.setattr(store, "ingest", outage)
    assert [r.guid for r in (await recover(client)).asked] == [missed.guid]
    await github.hooks.settled()
    monkeypatch.setattr(store, "ingest", real_ingest)
    (failed_again,) = github.hooks.redeliveries()
    assert failed_again.status_code == 503

    # Not at once: a round within the backoff asks nothing.
    clock.advance(minutes=2)
    assert (await recover(client)).asked == []
    # The backoff over, it is asked again, and this time it lands.
    clock.advance(minutes=5)
    again = await recover(client)
    await github.hooks.settled()
    assert [r.guid for r in again.asked] == [missed.guid]
    assert [a.status_code for a in github.hooks.redeliveries()] == [503, 202]
    # Stored now: settled, and never asked for again, however long the rounds go on.
    clock.advance(minutes=10)
    assert (await recover(client)).delivered == 1
    for _ in range(6):
        clock.advance(hours=4)
        assert (await recover(client)).asked == []
    assert asks_of(github, missed) == 2
    assert await store.redeliveries.all() == [(missed.guid, "delivered", "failed")]

    posted = await digest_of_the_day(client, github, clock)
    shas = [c["id"] for p in pushes for c in p["payload"]["commits"]]
    assert f"**{len(shas)} commits**" in posted
    assert all(posted.count(f"`{sha[:7]}`") == 1 for sha in shas)


async def test_a_redelivery_that_arrived_is_not_asked_for_again_whatever_the_log_says(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client = await app_client()
    pushes, missed = await one_push_missed(client, github, clock)
    clock.current = NOW
    await recover(client)
    await github.hooks.settled()
    # The App stored it, but GitHub stopped waiting first and logged the attempt failed.
    (redelivered,) = github.hooks.redeliveries()
    assert redelivered.status_code == 202
    redelivered.status_code, redelivered.status = 504, "timed out"
    for _ in range(8):
        clock.advance(hours=2)
        assert (await recover(client)).asked == []
    assert asks_of(github, missed) == 1
    assert await client.app[STORE].redeliveries.all() == [(missed.guid, "delivered", "failed")]
    posted = await digest_of_the_day(client, github, clock)
    assert all(
        posted.count(f"`{c['id'][:7]}`") == 1 for p in pushes for c in p["payload"]["commits"]
    )


async def test_a_redelivery_that_never_lands_is_asked_for_until_githubs_window_closes(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client = await app_client()
    _, missed = await one_push_missed(client, github, clock)
    clock.current = NOW
    app_down(github)  # down for every redelivery
    asked_at = []
    # Three and a half days of the loop's rounds, every five minutes. Each lists back only to
    # an hour before the previous one: past the longer backoffs, the failed redelivery is no
    # longer listed, and the ask is made again from what the store kept.
    while clock.now() < missed.delivered_at + timedelta(days=3, hours=12):
        if (await client.app[RECOVERY].run_once()).asked:
            asked_at.append(clock.now())
        await github.hooks.settled()
        clock.advance(minutes=5)
    assert asks_of(github, missed) == len(asked_at)
    # Still asked for a day after the first ask (ten asks, about 22.6 hours, used to be all) ...
    assert asked_at[-1] - asked_at[0] > timedelta(days=1)
    # ... up to the end of GitHub's window, 3 days from its delivery (FACTS.md §1), and never
    # after it.
    since_delivered = asked_at[-1] - missed.delivered_at
    assert timedelta(days=3) - timedelta(hours=6) < since_delivered <= timedelta(days=3)
    # Each wait at least as long as the one before, doubling up to six hours.
    gaps = [later - earlier for earlier, later in itertools.pairwise(asked_at)]
    assert gaps == sorted(gaps) and gaps[0] == timedelta(minutes=5)
    assert max(gaps) == timedelta(hours=6)
    assert await client.app[STORE].redeliveries.all() == [(missed.guid, "asked", "failed")]


async def test_deliveries_older_than_three_days_are_neither_asked_for_nor_paged_through(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client = await app_client()
    github.serve_replay_day(REPO, OTHER_DAY)
    github.hooks.url = None  # the App is down for all of it
    old = replay_pushes(REPO, OTHER_DAY)
    start = datetime(2026, 8, 10, tzinfo=UTC)
    # 250 failed deliveries four to five days before now, then 120 in the last two days.
    for n in range(250):
        clock.current = start + timedelta(minutes=5 * n)
        await github.hooks.send_push(
            old[n % len(old)] | {"headers": {"X-GitHub-Delivery": f"old-{n}"}}
        )
    for n in range(120):
        clock.current = datetime(2026, 8, 17, tzinfo=UTC) + timedelta(minutes=20 * n)
        await github.hooks.send_push(
            old[n % len(old)] | {"headers": {"X-GitHub-Delivery": f"new-{n}"}}
        )
    clock.current = datetime(2026, 8, 18, 23, tzinfo=UTC)
    assert (clock.now() - github.hooks.attempts[249].delivered_at).days >= 4

    report = await recover(client)
    await github.hooks.settled()
    assert {r.guid for r in report.asked} == {f"new-{n}" for n in range(120)}
    # Newest first, 100 a page: the second page reaches past the window, and paging stops.
    lists = github.calls_to("GET", r"^/app/hook/deliveries$")
    assert report.pages == len(lists) == 2
    assert all(c.auth == "jwt" and c.query["per_page"] == "100" for c in lists)
    # What GitHub could not redeliver any more was never asked for.
    asked_ids = {int(c.path.split("/")[-2]) for c in github.calls_to("POST", r"/attempts$")}
    assert asked_ids.isdisjoint({a.id for a in github.hooks.attempts[:250]})


async def test_the_loop_lists_only_what_is_new_since_its_last_complete_round(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client = await app_client()
    github.hooks.url = str(client.make_url("/webhook"))
    ping = {"zen": "Design for failure.", "hook_id": 1}
    clock.current = NOW - timedelta(days=2)
    for _ in range(150):  # two days of deliveries the App answered
        await github.hooks.send("ping", ping)
        clock.advance(minutes=15)
    clock.current = NOW
    recovery = client.app[RECOVERY]
    first = await recovery.run_once()
    assert (first.pages, first.complete) == (2, True)
    clock.advance(minutes=5)
    second = await recovery.run_once()
    # Back to an hour before the previous round: the newest page is enough.
    assert (second.pages, second.listed, second.complete) == (1, 100, True)


async def test_the_recovery_job_runs_at_start_up_then_every_interval_from_where_it_left(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    """The same rounds as the loop's, run as the one `recover_deliveries` job: due at start-up,
    armed again an interval later, listing back only to an hour before its last round."""
    client = await app_client(recovery_interval_seconds=600)
    github.hooks.url = str(client.make_url("/webhook"))
    ping = {"zen": "Design for failure.", "hook_id": 1}
    clock.current = NOW - timedelta(days=2)
    for _ in range(150):  # two days of deliveries the App answered
        await github.hooks.send("ping", ping)
        clock.advance(minutes=15)
    clock.current = NOW
    executor, jobs = client.app[EXECUTOR], client.app[STORE].jobs

    def listed() -> int:
        return len(github.calls_to("GET", r"^/app/hook/deliveries$"))

    await client.app[RECOVERER].schedule_now()  # what start-up does
    await executor.drain(kinds=[JobKind.RECOVER_DELIVERIES])
    assert listed() == 2  # the whole window: two pages
    job = await jobs.get(JobKind.RECOVER_DELIVERIES, "app")
    assert (job.state, job.not_before) == ("pending", NOW + timedelta(seconds=600))
    assert job.payload == {"covered_since": (NOW - timedelta(hours=1)).isoformat()}

    clock.advance(minutes=5)  # not due yet
    await executor.drain(kinds=[JobKind.RECOVER_DELIVERIES])
    assert listed() == 2
    clock.advance(minutes=5)
    await executor.drain(kinds=[JobKind.RECOVER_DELIVERIES])
    # Back to an hour before the previous round: the newest page is enough.
    assert listed() == 3
    # A restart makes it due at once, and it still carries on from the last round.
    await client.app[RECOVERER].schedule_now()
    await executor.drain(kinds=[JobKind.RECOVER_DELIVERIES])
    assert listed() == 4
    job = await jobs.get(JobKind.RECOVER_DELIVERIES, "app")
    assert job.state == "pending" and job.not_before == clock.now() + timedelta(seconds=600)


async def test_github_failing_the_ask_defers_it_and_refusing_it_ends_it(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client = await app_client()
    pushes = replay_pushes(REPO, DAY)
    github.serve_replay_day(REPO, DAY)
    app_down(github)
    clock.current = landing(pushes[0])
    first = await github.hooks.send_push(pushes[0])
    second = await github.hooks.send_push(pushes[1])
    github.hooks.url = str(client.make_url("/webhook"))
    clock.current = NOW

    # GitHub answers 502 to every try for the first, and refuses the second.
    github.fail("POST", rf"/app/hook/deliveries/{first.id}/attempts$", 502, times=4)
    github.fail(
        "POST",
        rf"/app/hook/deliveries/{second.id}/attempts$",
        422,
        times=1,
        message="Validation Failed",
    )
    report = await recover(client)
    assert [r.guid for r in report.deferred] == [first.guid]
    assert [r.guid for r in report.refused] == [second.guid]
    assert await client.app[STORE].redeliveries.all() == [(second.guid, "refused", "failed")]

    clock.advance(minutes=5)
    again = await recover(client)
    await github.hooks.settled()
    assert [r.guid for r in again.asked] == [first.guid] and again.refused == []
    assert len(github.calls_to("POST", rf"/{second.id}/attempts$")) == 1
    assert {p["payload"]["commits"][0]["id"] for p in pushes[:1]} == await stored_shas(client)


async def test_replicas_recovering_at_once_ask_once_per_guid(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    client = await app_client()
    other = await app_client()  # a second replica on the same database
    pushes = replay_pushes(REPO, DAY)[:6]
    github.serve_replay_day(REPO, DAY)
    app_down(github)
    clock.current = landing(pushes[0])
    for push in pushes:
        await github.hooks.send_push(push)
    github.hooks.url = str(client.make_url("/webhook"))
    clock.current = NOW
    reports = await asyncio.gather(recover(client), recover(other))
    await github.hooks.settled()
    # Every GUID asked for exactly once, by one replica or the other.
    assert sorted(r.guid for report in reports for r in report.asked) == sorted(
        p["headers"]["X-GitHub-Delivery"] for p in pushes
    )
    assert len(github.calls_to("POST", r"/attempts$")) == len(pushes)


# --- the fake GitHub's delivery log behaves like GitHub's ---------------------------------


async def test_the_fake_log_needs_the_app_jwt_pages_newest_first_and_redelivers_faithfully(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock, github_url: str
) -> None:
    client = await app_client()
    github.hooks.url = str(client.make_url("/webhook"))
    sent = [await github.hooks.send("ping", {"zen": str(n), "hook_id": 1}) for n in range(5)]
    app_down(github)
    failed = await github.hooks.send("ping", {"zen": "down", "hook_id": 1})

    api = client.app[GITHUB].as_app()
    pages = [page async for page in api.pages("/app/hook/deliveries{?per_page}", {"per_page": 2})]
    assert [[item["id"] for item in page] for page in pages] == [
        [failed.id, sent[4].id],
        [sent[3].id, sent[2].id],
        [sent[1].id, sent[0].id],
    ]
    only_failed = await api.getitem("/app/hook/deliveries{?status}", {"status": "failure"})
    assert [item["guid"] for item in only_failed] == [failed.guid]
    # The requests are checked against GitHub's description, like every other route.
    with pytest.raises(gidgethub.BadRequest):
        await api.getitem("/app/hook/deliveries{?status}", {"status": "broken"})
    assert len(github.violations) == 1 and "status" in github.violations[0]
    github.violations.clear()

    async with aiohttp.ClientSession() as session:
        # Not with an installation token, nor without credentials: the App's JWT only.
        for headers in ({}, {"Authorization": "token ghs_whatever"}):
            async with session.get(
                f"{github_url}/app/hook/deliveries", headers={"User-Agent": "t", **headers}
            ) as r:
                assert r.status == 401
    github.assert_clean()

    # A redelivery: a new row, the same GUID, body and signature.
    github.hooks.url = str(client.make_url("/webhook"))
    await api.post("/app/hook/deliveries/{id}/attempts", {"id": failed.id}, data=b"")
    await github.hooks.settled()
    again = github.hooks.redeliveries()[0]
    assert (again.guid, again.body, again.redelivery, again.status_code) == (
        failed.guid,
        failed.body,
        True,
        200,
    )
    assert again.headers["X-Hub-Signature-256"] == failed.headers["X-Hub-Signature-256"]
    assert again.id != failed.id
    # Past three days GitHub does not redeliver.
    clock.advance(days=3, seconds=1)
    with pytest.raises(gidgethub.BadRequest) as refused:
        await api.post("/app/hook/deliveries/{id}/attempts", {"id": failed.id}, data=b"")
    assert int(refused.value.status_code) == 422
    assert len(github.hooks.redeliveries()) == 1
