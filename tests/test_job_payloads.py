"""Job payload models: each kind stores exactly the JSON (and key) the App always wrote, so
rows queued before the models, and their dedupe keys, keep working; a row that fits no
model is refused by name, never by its values."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime

import pytest
from pydantic import ValidationError

from bot.periods.period import Period
from bot.store import Store
from bot.store.job_payloads import (
    AnalyseCommitPayload,
    DigestCommandPayload,
    ExpandRangePayload,
    FoldAlertsPayload,
    JobPayload,
    PayloadInvalid,
    PublishPeriodPayload,
    PublishWeekPayload,
    RecoverDeliveriesPayload,
    RefreshConfigPayload,
    SendAlertsPayload,
    parse_payload,
)
from bot.store.jobs import JobKind

DAY = date(2026, 7, 10)
SHA = "3f786850e387550fdab836ed7e6dc881de23001b"
COVERED = datetime(2026, 7, 10, 11, 58, 7, 123456, tzinfo=UTC)

# (payload as the producers build it, its key, the JSON text the App wrote before the models)
PINNED: list[tuple[JobPayload, str, str]] = [
    (RefreshConfigPayload(repo_id=42), "42", '{"repo_id": 42}'),
    (ExpandRangePayload(delivery_id="d-1"), "d-1", '{"delivery_id": "d-1"}'),
    (
        AnalyseCommitPayload(repo_id=42, sha=SHA),
        f"42/{SHA}",
        f'{{"repo_id": 42, "sha": "{SHA}"}}',
    ),
    (
        PublishPeriodPayload.of(42, Period.day(DAY)),
        "42/day/2026-07-10",
        '{"repo_id": 42, "period_kind": "day", "start": "2026-07-10"}',
    ),
    (
        PublishPeriodPayload.of(42, Period.day(DAY), now=True),
        "42/day/2026-07-10",
        '{"repo_id": 42, "period_kind": "day", "start": "2026-07-10", "now": true}',
    ),
    (
        PublishWeekPayload(repo_id=42, first=DAY),
        "42/week/2026-07-10",
        '{"repo_id": 42, "first": "2026-07-10"}',
    ),
    (SendAlertsPayload(repo_id=42, sha=SHA), f"42/{SHA}", f'{{"repo_id": 42, "sha": "{SHA}"}}'),
    # A job of a whole day, as written before alerts were kept per commit.
    (
        SendAlertsPayload(repo_id=42, day=DAY),
        "42/2026-07-10",
        '{"repo_id": 42, "day": "2026-07-10"}',
    ),
    (
        FoldAlertsPayload(repo_id=42, day=DAY),
        "42/2026-07-10",
        '{"repo_id": 42, "day": "2026-07-10"}',
    ),
    (RecoverDeliveriesPayload(), "app", "{}"),
    (RecoverDeliveriesPayload(covered_since=None), "app", '{"covered_since": null}'),
    (
        RecoverDeliveriesPayload(covered_since=COVERED),
        "app",
        '{"covered_since": "2026-07-10T11:58:07.123456+00:00"}',
    ),
    (
        DigestCommandPayload(
            repo_id=42,
            installation_id=7,
            comment_id=1001,
            comment_node_id="DC_1001",
            parent_id=None,
            author="maria",
            line="/digest help",
            received_at=COVERED,
            discussion="D_9",
            discussion_number=3,
        ),
        "42/1001",
        '{"repo_id": 42, "installation_id": 7, "comment_id": 1001, "comment_node_id": "DC_1001", '
        '"parent_id": null, "author": "maria", "line": "/digest help", '
        '"received_at": "2026-07-10T11:58:07.123456Z", "discussion": "D_9", '
        '"discussion_number": 3}',
    ),
]
IDS = [f"{p.kind.value}:{text}" for p, _, text in PINNED]


def test_every_kind_has_a_pinned_payload() -> None:
    assert {p.kind for p, _, _ in PINNED} == set(JobKind)


@pytest.mark.parametrize(("payload", "key", "text"), PINNED, ids=IDS)
def test_the_stored_json_and_key_are_as_the_app_always_wrote_them(
    payload: JobPayload, key: str, text: str
) -> None:
    # json.dumps is what the job table's JSON column writes (keys in this order on SQLite).
    assert json.dumps(payload.stored()) == text
    assert payload.key == key


@pytest.mark.parametrize(("payload", "key", "text"), PINNED, ids=IDS)
def test_a_stored_row_reads_back_as_the_same_model_and_is_written_back_unchanged(
    payload: JobPayload, key: str, text: str
) -> None:
    read = parse_payload(payload.kind, json.loads(text))
    assert read == payload and type(read) is type(payload)
    assert json.dumps(read.stored()) == text and read.key == key


def test_payloads_are_frozen() -> None:
    payload = AnalyseCommitPayload(repo_id=1, sha=SHA)
    with pytest.raises(ValidationError):
        payload.sha = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kind", "stored", "named"),
    [
        (JobKind.ANALYSE_COMMIT, {"repo_id": 1}, "sha: Field required"),
        (JobKind.ANALYSE_COMMIT, {"repo_id": "secret-ish", "sha": SHA}, "repo_id:"),
        (JobKind.PUBLISH_PERIOD, {"repo_id": 1, "period_kind": "day", "start": "soon"}, "start:"),
        (JobKind.SEND_ALERTS, [1, 2], "payload:"),
    ],
)
def test_a_payload_that_does_not_fit_is_refused_by_field_not_by_value(
    kind: JobKind, stored: object, named: str
) -> None:
    with pytest.raises(PayloadInvalid) as refused:
        parse_payload(kind, stored)
    message = str(refused.value)
    assert message.startswith(f"payload does not fit {kind.value}: ") and named in message
    assert "secret-ish" not in message and "soon" not in message


def test_an_unreadable_recovery_mark_lists_the_whole_window() -> None:
    # What the job did before the models: a mark it cannot read means "no mark" (always safe).
    for stored in ({"covered_since": "yesterday"}, {"covered_since": 17}, {}):
        assert parse_payload(JobKind.RECOVER_DELIVERIES, stored).covered_since is None  # type: ignore[attr-defined]


def test_a_key_a_later_version_adds_does_not_fail_the_job() -> None:
    read = parse_payload(JobKind.REFRESH_CONFIG, {"repo_id": 7, "added_later": True})
    assert read == RefreshConfigPayload(repo_id=7)


@pytest.fixture
async def store(any_database_url: str) -> AsyncIterator[Store]:
    store = await Store.open(any_database_url)
    yield store
    await store.close()


async def test_the_job_table_holds_the_pinned_json(store: Store) -> None:
    now = datetime(2026, 7, 11, tzinfo=UTC)
    for payload, key, text in PINNED:
        await store.jobs.enqueue(payload, now, rearm=True)
        row = await store.jobs.get(payload.kind, key)
        assert row.payload == json.loads(text)
        # Done: the next payload of the same key (armed again) replaces this one.
        async with store.writer().begin() as conn:
            await store.jobs.finish_pending(conn, payload.kind, [key], now)
