"""`POST /webhook` against hostile headers and bodies: every refusal is a clear 4xx (or a 503
that redelivery fixes), decided as early as possible, and the same on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import copy
import gzip
import hashlib
import hmac
import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.app import STOPPED, WEBHOOK, create_app
from bot.settings import Settings
from bot.store.schema import commits, deliveries, installations, repositories
from tests.scenarios import rows
from tests.support import TEST_SECRET, FakeClock, deliver, replay_pushes, sign, webhook_payload

Client = TestClient[Any, Any]
PUSH = replay_pushes("vllm-project/llm-compressor", "2026-06-22")[0]["payload"]


async def raw_request(client: Client, head: bytes, body: bytes = b"") -> asyncio.StreamWriter:
    """Open a connection and send `head` (and part of a body); the caller reads the answer."""
    _, writer = await asyncio.open_connection(client.host, client.port)
    writer.write(head + body)
    await writer.drain()
    return writer


async def answer_of(client: Client, head: bytes, body: bytes = b"") -> int:
    """The status the App answers to a request whose body never (fully) arrives."""
    reader, writer = await asyncio.open_connection(client.host, client.port)
    try:
        writer.write(head + body)
        await writer.drain()
        # A guard, not a timing: the App must answer without the rest of the body.
        status_line = await asyncio.wait_for(reader.readline(), timeout=10)
        return int(status_line.split()[1])
    finally:
        writer.close()


def head(headers: dict[str, str], length: int) -> bytes:
    lines = [
        "POST /webhook HTTP/1.1",
        "Host: localhost",
        f"Content-Length: {length}",
        "Content-Type: application/json",
        "X-GitHub-Event: push",
        "X-GitHub-Delivery: 72d3162e-cc78-11e3-81ab-4c9367dc0958",
    ]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")


# --- the signature header ---------------------------------------------------------------------


async def test_a_non_ascii_signature_is_401(client: Client) -> None:
    status, _ = await deliver(
        client, "push", PUSH, headers={"X-Hub-Signature-256": "sha256=é" + "0" * 63}
    )
    assert status == 401
    assert await rows(client, deliveries) == []


async def test_sha1_in_the_sha256_header_is_401_even_when_it_matches(client: Client) -> None:
    body = json.dumps(PUSH).encode()
    sha1 = "sha1=" + hmac.new(TEST_SECRET.encode(), body, hashlib.sha1).hexdigest()
    status, _ = await deliver(client, "push", body, headers={"X-Hub-Signature-256": sha1})
    assert status == 401
    assert await rows(client, commits) == []


@pytest.mark.parametrize(
    "signature",
    [None, "sha256=é", "sha1=" + "0" * 40, "sha256=" + "0" * 63, "sha256=" + "g" * 64, "0" * 64],
)
async def test_a_missing_or_malformed_signature_is_refused_before_the_body(
    client: Client, signature: str | None
) -> None:
    headers = {} if signature is None else {"X-Hub-Signature-256": signature}
    # 10 MB announced, none sent: the App answers from the headers alone.
    assert await answer_of(client, head(headers, 10_000_000)) == 401


# --- bodies GitHub never sends ----------------------------------------------------------------


async def test_a_compressed_body_is_415(client: Client) -> None:
    body = json.dumps(PUSH).encode()
    status, _ = await deliver(
        client,
        "push",
        gzip.compress(body),
        headers={"Content-Encoding": "gzip", "X-Hub-Signature-256": sign(body)},
    )
    assert status == 415
    assert await rows(client, commits) == []


async def test_bytes_read_at_once_are_bounded_and_given_back(
    aiohttp_client: Callable[..., Any], make_settings: Callable[..., Settings], clock: FakeClock
) -> None:
    budget = 26 * 1024 * 1024
    client = await aiohttp_client(
        create_app(make_settings(webhook_read_budget_bytes=budget), clock=clock, background=False)
    )
    endpoint = client.app[WEBHOOK]
    signature = {"X-Hub-Signature-256": sign(b"x")}
    # A delivery whose body is still arriving holds 21 MB of the budget...
    slow = await raw_request(client, head(signature, 25_000_000), b" " * 21_000_000)
    await endpoint.budget.until(lambda used: used >= 21_000_000)
    # ...so one that would take the total over the bound is refused at once, unread.
    body = json.dumps(PUSH).encode() + b" " * 7_000_000
    status, answer = await deliver(client, "push", body)
    assert status == 503
    assert "redeliver" in answer["message"]
    # The bound is on bytes held, not on requests: a small delivery still gets through.
    assert (await deliver(client, "push", PUSH))[0] == 202
    # Once the slow one is gone its bytes are given back, and the big one is accepted.
    slow.close()
    await endpoint.budget.until(lambda used: used == 0)
    assert (await deliver(client, "push", body, delivery="again"))[0] in (200, 202)


async def test_a_slow_body_times_out_quietly(
    aiohttp_client: Callable[..., Any],
    make_settings: Callable[..., Settings],
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = await aiohttp_client(
        create_app(make_settings(webhook_read_timeout_seconds=0.2), clock=clock, background=False)
    )
    signature = {"X-Hub-Signature-256": sign(b"x")}
    with caplog.at_level(logging.INFO):
        assert await answer_of(client, head(signature, 1000), b"{") == 408
        # A sender that gives up halfway is dropped without an error either.
        dropped = await raw_request(client, head(signature, 1000), b"{")
        dropped.close()
        assert (await deliver(client, "push", PUSH))[0] == 202
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert client.app[WEBHOOK].budget.used == 0


# --- payload values ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pushed_at",
    [
        -62135596800,
        10**12,
        253402300799,
        -1,
        True,
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "9999-12-31T23:59:59-05:00",
    ],
)
async def test_pushed_at_out_of_range_is_400_and_stores_nothing(
    client: Client, pushed_at: Any
) -> None:
    payload = copy.deepcopy(PUSH)
    payload["repository"]["pushed_at"] = pushed_at
    status, answer = await deliver(client, "push", payload)
    assert status == 400
    assert "pushed_at" in answer["message"]
    for table in (deliveries, commits, repositories):
        assert await rows(client, table) == []


async def test_nul_and_long_text_is_stored_alike_on_every_engine(
    aiohttp_client: Callable[..., Any],
    make_settings: Callable[..., Settings],
    clock: FakeClock,
    any_database_url: str,
) -> None:
    client = await aiohttp_client(
        create_app(make_settings(database_url=any_database_url), clock=clock, background=False)
    )
    payload = copy.deepcopy(PUSH)
    commit = payload["commits"][0]
    commit["message"] = "Fix\x00 the\x00 thing\n\nBody\x00 text " + "é" * 70_000
    commit["author"]["name"] = "Nul\x00 Name " + "n" * 300
    commit["author"]["email"] = "nul\x00@example.com"
    assert (await deliver(client, "push", payload))[0] == 202
    (row,) = await rows(client, commits)
    assert row.title == "Fix the thing"
    assert "\x00" not in row.message and row.message.startswith("Fix the thing\n\nBody text é")
    assert row.author_name.startswith("Nul Name") and len(row.author_name) == 255
    assert row.author_email == "nul@example.com"


@pytest.mark.parametrize(
    "where",
    [
        ("commits", 0, "author", "username"),
        ("repository", "node_id"),
        ("installation", "id"),
        ("repository", "id"),
    ],
)
async def test_out_of_bound_identifiers_are_400_on_every_engine(
    aiohttp_client: Callable[..., Any],
    make_settings: Callable[..., Settings],
    clock: FakeClock,
    any_database_url: str,
    where: tuple[Any, ...],
) -> None:
    client = await aiohttp_client(
        create_app(make_settings(database_url=any_database_url), clock=clock, background=False)
    )
    payload = copy.deepcopy(PUSH)
    payload.setdefault("installation", {"id": 1})
    parent = payload
    for key in where[:-1]:
        parent = parent[key]
    parent[where[-1]] = 2**63 if where[-1] == "id" else "x" * 300
    status, _ = await deliver(client, "push", payload)
    assert status == 400
    assert await rows(client, deliveries) == []


async def test_an_installation_type_too_long_for_its_column_is_400(client: Client) -> None:
    payload = webhook_payload("installation/created")
    payload["installation"]["account"]["type"] = "Organization" * 10
    assert (await deliver(client, "installation", payload))[0] == 400
    assert await rows(client, installations) == []


async def test_repositories_added_and_removed_in_one_delivery(client: Client) -> None:
    await deliver(client, "installation", webhook_payload("installation/created"))
    before = {r.id for r in await rows(client, repositories)}
    payload = webhook_payload("installation_repositories/added")
    gone = payload["repositories_removed"] = [
        {k: v for k, v in r.items()}
        for r in webhook_payload("installation/created")["repositories"][:1]
    ]
    assert gone and gone[0]["id"] in before
    status, _ = await deliver(client, "installation_repositories", payload)
    assert status == 202
    after = {r.id: r for r in await rows(client, repositories)}
    # A removed repository's work stops; its row (and post ledger) stays until a purge.
    assert after[gone[0]["id"]].removed_at is not None
    added = {r["id"] for r in payload["repositories_added"]}
    assert added <= after.keys() and all(after[i].removed_at is None for i in added)


async def test_a_delivery_under_way_when_the_app_stops_is_answered_and_counted(
    aiohttp_client: Callable[..., Any], make_settings: Callable[..., Settings], clock: FakeClock
) -> None:
    client = await aiohttp_client(
        create_app(make_settings(webhook_read_timeout_seconds=0.2), clock=clock, background=False)
    )
    app = client.app
    reader, writer = await asyncio.open_connection(client.host, client.port)
    writer.write(head({"X-Hub-Signature-256": sign(b"x")}, 1000) + b"{")
    await writer.drain()
    await app[WEBHOOK].budget.until(lambda used: used > 0)  # its body is being read
    # SIGTERM: the server takes no more connections and lets the request under way finish
    # (here its body never comes: 408) before the App's resources close.
    await client.close()
    status_line = await asyncio.wait_for(reader.readline(), timeout=10)
    writer.close()
    assert int(status_line.split()[1]) == 408
    summary = app[STOPPED].summary(clock.now())
    assert (
        summary["deliveries_under_way"],
        summary["deliveries_answered"],
        summary["deliveries_cut_off"],
    ) == (1, 1, 0)
