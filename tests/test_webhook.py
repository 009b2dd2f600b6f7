"""`POST /webhook` over HTTP with GitHub's real payloads: status codes, what is stored, dedupe."""

from __future__ import annotations

import asyncio
import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
import structlog
from aiohttp.test_utils import TestClient
from structlog.testing import LogCapture

import bot.web.webhook
from bot.app import REPO_VIEWS, STORE, create_app
from bot.settings import Settings
from bot.store.schema import commits, deliveries, installations, jobs, pushes, repositories
from tests.scenarios import rows
from tests.support import (
    TEST_SECRET,
    FakeClock,
    deliver,
    deliver_replay,
    replay_day,
    replay_pushes,
    sign,
    webhook_payload,
)

Client = TestClient[Any, Any]
COMPRESSOR = "vllm-project/llm-compressor"
ASCEND = "vllm-project/vllm-ascend"


async def count(client: Client, table: sa.Table) -> int:
    async with client.app[STORE].engine.connect() as conn:
        return int((await conn.execute(sa.select(sa.func.count()).select_from(table))).scalar_one())


# --- bad input -------------------------------------------------------------------------------


async def test_missing_signature_is_401(client: Client) -> None:
    body = json.dumps(webhook_payload("ping/payload")).encode()
    response = await client.post(
        "/webhook",
        data=body,
        headers={
            "X-GitHub-Event": "ping",
            "X-GitHub-Delivery": "d-1",
            "Content-Type": "application/json",
        },
    )
    assert response.status == 401


async def test_wrong_secret_is_401(client: Client) -> None:
    status, _ = await deliver(
        client, "ping", webhook_payload("ping/payload"), secret="not the secret"
    )
    assert status == 401


def captured_warnings(monkeypatch: pytest.MonkeyPatch) -> LogCapture:
    """The webhook's log lines, as structlog hands them to its renderer."""
    logged = LogCapture()
    monkeypatch.setattr(bot.web.webhook, "log", structlog.wrap_logger(None, processors=[logged]))
    return logged


async def test_a_wrong_secret_is_said_once_a_minute_without_the_secret_or_signature(
    client: Client, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    logged = captured_warnings(monkeypatch)
    wrong = "a secret from another App"
    body = json.dumps(webhook_payload("push/payload")).encode()
    seen: list[dict[str, Any]] = []
    for n in range(5):
        status, _ = await deliver(client, "push", body, delivery=f"guid-{n}", secret=wrong)
        assert status == 401
        clock.advance(seconds=29)
        seen += logged.entries
        logged.entries.clear()
    # Deliveries at 0, 29, 58 s: one line; at 87 s the next (three refused since the last
    # line, this one included); at 116 s none. The App's clock decides, not the wall's.
    assert [(e["event"], e["log_level"], e["delivery_id"], e["refused"]) for e in seen] == [
        ("webhook_signature_mismatch", "warning", "guid-0", 1),
        ("webhook_signature_mismatch", "warning", "guid-3", 3),
    ]
    assert all("webhook secret" in e["likely_cause"] for e in seen)
    # Nothing that would let a reader forge a delivery: no secret, no signature, no body.
    text = repr(seen)
    for secret_thing in (wrong, TEST_SECRET, sign(body, wrong)[7:], sign(body)[7:]):
        assert secret_thing not in text
    assert "pushed_at" not in text and "commits" not in text
    # The answer and its count stay what they were.
    metrics = await (await client.get("/metrics")).text()
    assert 'event="push",outcome="rejected",status="401"} 5.0' in metrics
    assert await count(client, deliveries) == 0


async def test_an_unsigned_delivery_says_the_app_may_have_no_secret(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    logged = captured_warnings(monkeypatch)
    body = json.dumps(webhook_payload("ping/payload")).encode()
    headers = {"X-GitHub-Event": "ping", "X-GitHub-Delivery": "guid-unsigned"}
    assert (await client.post("/webhook", data=body, headers=headers)).status == 401
    (entry,) = logged.entries
    assert (entry["event"], entry["delivery_id"]) == ("webhook_signature_missing", "guid-unsigned")
    assert "webhook secret" in entry["likely_cause"]


async def test_signature_of_another_body_is_401(client: Client) -> None:
    body = json.dumps(webhook_payload("push/payload")).encode()
    response = await client.post(
        "/webhook",
        data=body + b" ",
        headers={
            "X-GitHub-Event": "push",
            "X-GitHub-Delivery": "d-2",
            "X-Hub-Signature-256": sign(body),
            "Content-Type": "application/json",
        },
    )
    assert response.status == 401
    assert await count(client, deliveries) == 0


async def test_legacy_sha1_signature_alone_is_not_enough(client: Client) -> None:
    body = b"{}"
    response = await client.post(
        "/webhook",
        data=body,
        headers={
            "X-GitHub-Event": "ping",
            "X-GitHub-Delivery": "d-3",
            "X-Hub-Signature": "sha1=" + "0" * 40,
            "Content-Type": "application/json",
        },
    )
    assert response.status == 401


@pytest.mark.parametrize("missing", ["X-GitHub-Event", "X-GitHub-Delivery"])
async def test_missing_github_headers_are_400(client: Client, missing: str) -> None:
    body = json.dumps(webhook_payload("ping/payload")).encode()
    headers = {
        "X-GitHub-Event": "ping",
        "X-GitHub-Delivery": "d-4",
        "X-Hub-Signature-256": sign(body),
        "Content-Type": "application/json",
    }
    del headers[missing]
    response = await client.post("/webhook", data=body, headers=headers)
    assert response.status == 400


@pytest.mark.parametrize(
    "body",
    [b"{not json", b"\xff\xfe", b"[1, 2, 3]", b'"a string"', b'{"action": ["x"]}'],
    ids=["bad-json", "not-utf8", "array", "string", "action-not-string"],
)
async def test_malformed_bodies_are_400(client: Client, body: bytes) -> None:
    status, _ = await deliver(client, "installation", body)
    assert status == 400
    assert await count(client, deliveries) == 0


async def test_wrong_content_type_is_400(client: Client) -> None:
    status, _ = await deliver(client, "ping", b"{}", headers={"Content-Type": "text/plain"})
    assert status == 400


async def test_push_missing_fields_is_400_and_stores_nothing(client: Client) -> None:
    payload = replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"]
    broken = copy.deepcopy(payload)
    del broken["repository"]["id"]
    status, answer = await deliver(client, "push", broken)
    assert status == 400
    assert "repository.id" in answer["message"]
    wrong_type = copy.deepcopy(payload)
    wrong_type["commits"] = "not a list"
    assert (await deliver(client, "push", wrong_type))[0] == 400
    assert await count(client, commits) == 0
    assert await count(client, deliveries) == 0


async def test_body_over_25_mb_is_413(client: Client) -> None:
    body = b"{" + b" " * (25 * 1024 * 1024) + b"}"
    status, _ = await deliver(client, "push", body)
    assert status == 413


async def test_unknown_event_is_a_quiet_200(client: Client) -> None:
    status, answer = await deliver(client, "star", {"action": "created"})
    assert status == 200
    assert answer["status"] == "ignored"
    assert await count(client, deliveries) == 0


@pytest.mark.parametrize("name", ["ping/payload", "ping/with-app_id", "ping/with-organization"])
async def test_ping_is_200(client: Client, name: str) -> None:
    status, answer = await deliver(client, "ping", webhook_payload(name))
    assert (status, answer["status"]) == (200, "pong")


# --- GitHub's example payloads ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("push/payload", "a tag push"),
        ("push/with-installation", "a tag deletion"),
        ("push/with-organization", "a tag push"),
    ],
)
async def test_pushes_that_land_nothing_store_nothing(
    client: Client, name: str, reason: str
) -> None:
    status, answer = await deliver(client, "push", webhook_payload(name))
    assert (status, answer["status"]) == (200, "ignored"), reason
    assert await count(client, commits) == 0
    assert await count(client, pushes) == 0


async def test_example_push_to_default_branch_is_stored(client: Client) -> None:
    payload = webhook_payload("push/with-no-username-committer")
    assert payload["ref"] == f"refs/heads/{payload['repository']['default_branch']}"
    status, _ = await deliver(client, "push", payload)
    assert status == 202
    stored = await rows(client, commits)
    assert [row.sha for row in stored] == [c["id"] for c in payload["commits"]]


async def test_new_default_branch_stores_listed_commits_without_expansion(client: Client) -> None:
    payload = webhook_payload("push/with-new-branch")
    payload = copy.deepcopy(payload)
    payload["repository"]["default_branch"] = payload["ref"].removeprefix("refs/heads/")
    assert payload["created"] is True
    status, _ = await deliver(client, "push", payload)
    assert status == 202
    (push,) = await rows(client, pushes)
    assert push.created is True
    assert push.before is None
    assert push.expand_state is None


async def test_installation_created_records_installation_and_repositories(client: Client) -> None:
    payload = webhook_payload("installation/created")
    status, _ = await deliver(client, "installation", payload)
    assert status == 202
    (inst,) = await rows(client, installations)
    assert inst.id == payload["installation"]["id"]
    assert inst.account_login == payload["installation"]["account"]["login"]
    repos = await client.app[STORE].repos.all()
    assert [(r.id, r.full_name) for r in repos] == [
        (r["id"], r["full_name"]) for r in payload["repositories"]
    ]


async def test_repositories_added_and_removed(client: Client) -> None:
    await deliver(client, "installation", webhook_payload("installation/created"))
    added = webhook_payload("installation_repositories/added")
    assert (await deliver(client, "installation_repositories", added))[0] == 202
    names = {r.full_name for r in await client.app[STORE].repos.all()}
    assert "Codertocat/Space" in names
    removed = webhook_payload("installation_repositories/removed")
    assert (await deliver(client, "installation_repositories", removed))[0] == 202
    gone = {r["id"] for r in removed["repositories_removed"]}
    assert not gone & {r.id for r in await client.app[STORE].repos.all()}


# --- real pushes of a replay day -------------------------------------------------------------


async def test_replay_day_stores_every_commit_with_its_fields(client: Client) -> None:
    recorded = replay_pushes(COMPRESSOR, "2026-06-22")
    day = replay_day(COMPRESSOR, "2026-06-22")
    for push in recorded:
        assert await deliver_replay(client, push) == 202

    by_sha = {row.sha: row for row in await rows(client, commits)}
    assert len(by_sha) == day["commit_count"]
    for rest_commit, push in zip(day["commits"], recorded, strict=True):
        row = by_sha[rest_commit["sha"]]
        message = rest_commit["commit"]["message"]
        assert row.message == message
        assert row.title == message.splitlines()[0]
        assert row.author_name == rest_commit["commit"]["author"]["name"]
        assert row.url == rest_commit["html_url"]
        assert row.state == "pending"
        assert row.branch == "main"
        # landed_at is the push time (repository.pushed_at), not the author date.
        pushed_at = datetime.fromtimestamp(push["payload"]["repository"]["pushed_at"], UTC)
        assert row.landed_at == pushed_at
        title = message.splitlines()[0]
        expected_pr = int(title.rsplit("(#", 1)[1].rstrip(")")) if title.endswith(")") else None
        assert row.pr_number == expected_pr
    assert all(row.pr_number for row in by_sha.values())


async def test_redelivery_stores_nothing_twice(client: Client) -> None:
    push = replay_pushes(COMPRESSOR, "2026-06-22")[0]
    assert await deliver_replay(client, push) == 202
    status, answer = await deliver(
        client, "push", push["payload"], delivery=push["headers"]["X-GitHub-Delivery"]
    )
    assert (status, answer["status"]) == (200, "duplicate")
    assert await count(client, commits) == 1
    assert await count(client, pushes) == 1
    assert await count(client, deliveries) == 1


async def test_overlapping_push_keeps_first_landing(client: Client, clock: FakeClock) -> None:
    first, second = replay_pushes(COMPRESSOR, "2026-06-22")[:2]
    assert await deliver_replay(client, first) == 202
    # The same commit arrives again on a later push (as after a merge of a branch that
    # carried it), marked not distinct: it is news once, at its first landing.
    overlap = copy.deepcopy(second["payload"])
    repeated = copy.deepcopy(first["payload"]["commits"][0])
    repeated["distinct"] = False
    overlap["commits"].insert(0, repeated)
    status, _ = await deliver(client, "push", overlap)
    assert status == 202
    by_sha = {row.sha: row for row in await rows(client, commits)}
    assert len(by_sha) == 2
    first_landing = datetime.fromtimestamp(first["payload"]["repository"]["pushed_at"], UTC)
    assert by_sha[repeated["id"]].landed_at == first_landing


async def test_not_distinct_commits_are_still_stored(client: Client) -> None:
    payload = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"])
    payload["commits"][0]["distinct"] = False
    assert (await deliver(client, "push", payload))[0] == 202
    assert await count(client, commits) == 1


async def test_untracked_branch_stores_nothing(client: Client) -> None:
    payload = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"])
    payload["ref"] = "refs/heads/feature/experiment"
    status, answer = await deliver(client, "push", payload)
    assert (status, answer["status"]) == (200, "ignored")
    assert await count(client, commits) == 0
    assert await count(client, repositories) == 0


async def test_configured_branches_are_tracked(client: Client) -> None:
    payload = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"])
    await deliver(client, "push", payload)
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(sa.update(repositories).values(branches=["main", "release"]))
    # The per-replica cache is short-lived; start from a fresh view.
    client.app[REPO_VIEWS].invalidate(payload["repository"]["id"])
    release = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[1]["payload"])
    release["ref"] = "refs/heads/release"
    assert (await deliver(client, "push", release))[0] == 202
    stored = await rows(client, commits)
    assert {r.branch for r in stored} == {"main", "release"}


@pytest.mark.parametrize("stored", [[], ["release"]])
async def test_the_push_handler_asks_the_one_tracking_rule(
    client: Client, stored: list[str]
) -> None:
    payload = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"])
    await deliver(client, "push", payload)
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(sa.update(repositories).values(branches=stored))
    client.app[REPO_VIEWS].invalidate(payload["repository"]["id"])
    later = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[1]["payload"])
    status, answer = await deliver(client, "push", later)
    # An empty list leaves the default branch tracked; `[release]` alone leaves it out.
    tracked = not stored
    assert (status, answer.get("status") == "ignored") == ((202, False) if tracked else (200, True))
    assert await count(client, commits) == (2 if tracked else 1)


async def test_force_push_is_recorded(client: Client) -> None:
    payload = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"])
    payload["forced"] = True
    assert (await deliver(client, "push", payload))[0] == 202
    (push,) = await rows(client, pushes)
    assert push.forced is True
    (commit,) = await rows(client, commits)
    assert commit.forced is True


async def test_push_at_payload_cap_is_stored_as_range_to_expand(client: Client) -> None:
    base = replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"]
    payload = copy.deepcopy(base)
    template = base["commits"][0]
    payload["commits"] = [
        {**template, "id": f"{i:040x}", "message": f"commit {i}"} for i in range(2048)
    ]
    assert (await deliver(client, "push", payload))[0] == 202
    (push,) = await rows(client, pushes)
    assert push.expand_state == "pending"
    assert push.listed == 2048
    assert await count(client, commits) == 2048


async def test_new_tracked_branch_is_stored_as_range_to_expand(client: Client) -> None:
    payload = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"])
    await deliver(client, "push", payload)
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(sa.update(repositories).values(branches=["main", "release"]))
    client.app[REPO_VIEWS].invalidate(payload["repository"]["id"])
    created = copy.deepcopy(payload)
    created.update(ref="refs/heads/release", created=True, before="0" * 40, commits=[])
    assert (await deliver(client, "push", created))[0] == 202
    release = await rows(client, pushes, pushes.c.ref == "refs/heads/release")
    assert [(p.before, p.expand_state) for p in release] == [(None, "pending")]


async def test_pushed_at_missing_uses_receipt_time(client: Client, clock: FakeClock) -> None:
    payload = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"])
    del payload["repository"]["pushed_at"]
    assert (await deliver(client, "push", payload))[0] == 202
    (row,) = await rows(client, commits)
    assert row.landed_at == clock.now()


async def test_config_file_change_enqueues_reading_it_again(client: Client) -> None:
    payload = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"])
    await deliver(client, "push", payload)
    refresh = jobs.c.kind == "refresh_config"
    async with client.app[STORE].engine.begin() as conn:
        await conn.execute(sa.update(jobs).where(refresh).values(state="done"))
    change = copy.deepcopy(replay_pushes(COMPRESSOR, "2026-06-22")[1]["payload"])
    change["commits"][0]["modified"].append(".github/commit-digest.yml")
    assert (await deliver(client, "push", change))[0] == 202
    (job,) = await rows(client, jobs, refresh)
    assert job.state == "pending"


async def test_uninstall_removes_the_installations_data(client: Client) -> None:
    for push in replay_pushes(COMPRESSOR, "2026-06-22")[:3]:
        await deliver_replay(client, push)
    other = replay_pushes(ASCEND, "2026-07-10")[0]
    other_payload = copy.deepcopy(other["payload"])
    other_payload["installation"]["id"] = 999
    await deliver(client, "push", other_payload)

    uninstall = copy.deepcopy(webhook_payload("installation/deleted"))
    uninstall["installation"]["id"] = replay_pushes(COMPRESSOR, "2026-06-22")[0]["payload"][
        "installation"
    ]["id"]
    assert (await deliver(client, "installation", uninstall))[0] == 202
    left = await rows(client, commits)
    assert {r.repo_id for r in left} == {other_payload["repository"]["id"]}
    assert {r.full_name for r in await client.app[STORE].repos.all()} == {ASCEND}
    assert {p.repo_id for p in await rows(client, pushes)} == {other_payload["repository"]["id"]}


async def test_concurrent_deliveries_are_all_stored(client: Client) -> None:
    recorded = replay_pushes(ASCEND, "2026-07-10")
    statuses = await asyncio.gather(*(deliver_replay(client, p) for p in recorded))
    assert statuses == [202] * len(recorded)
    again = await asyncio.gather(*(deliver_replay(client, p) for p in recorded))
    assert again == [200] * len(recorded)
    assert await count(client, commits) == len(recorded)


async def test_restart_keeps_everything(
    aiohttp_client: Any, settings: Settings, clock: FakeClock
) -> None:
    recorded = replay_pushes(COMPRESSOR, "2026-06-22")
    first = await aiohttp_client(create_app(settings, clock=clock, background=False))
    for push in recorded[:5]:
        assert await deliver_replay(first, push) == 202
    await first.close()

    second = await aiohttp_client(create_app(settings, clock=clock, background=False))
    # Delivery ids are remembered across the restart, and the commits are still there.
    assert await deliver_replay(second, recorded[0]) == 200
    for push in recorded[5:]:
        assert await deliver_replay(second, push) == 202
    assert await count(second, commits) == len(recorded)


async def test_readyz_reports_the_store(client: Client) -> None:
    response = await client.get("/readyz")
    assert response.status == 200
    assert (await response.json())["status"] == "ok"


async def test_storage_failure_is_503_and_redelivery_then_succeeds(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    push = replay_pushes(COMPRESSOR, "2026-06-22")[0]
    store = client.app[STORE]
    real_ingest = store.ingest

    async def broken(units: Any) -> Any:
        raise sa.exc.OperationalError("INSERT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(store, "ingest", broken)
    assert await deliver_replay(client, push) == 503
    assert await count(client, commits) == 0
    # Nothing was acknowledged; GitHub's redelivery (same id) stores it once the store is back.
    monkeypatch.setattr(store, "ingest", real_ingest)
    assert await deliver_replay(client, push) == 202
    assert await count(client, commits) == 1
