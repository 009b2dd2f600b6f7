"""Hostile input, property-based (Hypothesis): validly signed but malformed, oversized, oddly
encoded or wrongly typed deliveries to a real `serve` process, and broken config files.

Never a 5xx, never a crash, never a row stored from a payload the App refused.
"""

from __future__ import annotations

import contextlib
import copy
import gzip
import hashlib
import hmac
import http.client
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.repo_config import ConfigError, RepoConfig, parse_config
from tests.processes import START_SECONDS, free_port, serve_env
from tests.support import ROOT, TEST_SECRET, replay_pushes, sign, webhook_payload

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "250"))
EVENTS = ["push", "installation", "installation_repositories", "ping", "star", "pull_request"]


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, private_key_pem: str
) -> Iterator[tuple[int, str]]:
    """One `serve` process (SQLite) for the whole fuzz run; after it, the process still
    takes a real push, and nothing crashed a request. (Checked here rather than by a test
    of its own, which ran on a fresh server whenever pytest-xdist sent it to another worker
    than the fuzz.)"""
    database = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}"
    port = free_port()
    env = serve_env(
        database_url=database,
        private_key_pem=private_key_pem,
        WORKER_ENABLED="false",
        SCHEDULER_ENABLED="false",
        PORT=str(port),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve"], cwd=ROOT, env=env, stderr=subprocess.PIPE
    )
    # A cold start on a machine busy with other test workers can take a while.
    deadline = time.monotonic() + START_SECONDS
    while True:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            _, err = proc.communicate()
            raise AssertionError(f"the fuzz server did not start: {err.decode()[-3000:]}")
        with contextlib.suppress(OSError):
            if request(port, "GET", "/readyz", b"", {})[0] == 200:
                break
        time.sleep(0.05)  # waiting for the process to listen
    try:
        yield port, database
        push = replay_pushes("vllm-project/llm-compressor", "2026-06-22")[3]
        delivery = str(uuid.uuid4())
        assert post(port, "push", json.dumps(push["payload"]).encode(), delivery=delivery) == 202
        assert stored(database, delivery)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    # No traceback in the server's log: nothing crashed a request.
    assert b"Traceback" not in err, err.decode(errors="replace")[-3000:]


def request(
    port: int, method: str, path: str, body: bytes, headers: dict[str, str]
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def post(
    port: int,
    event: str,
    body: bytes,
    *,
    delivery: str,
    content_type: str = "application/json",
    headers: dict[str, str | None] | None = None,
) -> int:
    """A signed delivery; `headers` replace (or, given None, remove) any of its headers."""
    sent: dict[str, str | None] = {
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery,
        "X-Hub-Signature-256": sign(body),
        "Content-Type": content_type,
    }
    sent.update(headers or {})
    status, _ = request(
        port, "POST", "/webhook", body, {k: v for k, v in sent.items() if v is not None}
    )
    return status


def stored(database: str, delivery: str) -> bool:
    engine = sa.create_engine(database)
    try:
        with engine.connect() as conn:
            return (
                conn.execute(
                    sa.text("SELECT 1 FROM deliveries WHERE id = :id"), {"id": delivery}
                ).first()
                is not None
            )
    finally:
        engine.dispose()


# --- strategies ---------------------------------------------------------------------------

# Values at and past the edges of what a field can hold: times before year 1 or after 9999,
# ids past 64 bits, NULs and over-long names.
EDGES = st.sampled_from(
    [
        -62135596800,
        -62135596801,
        253402300799,
        253402300800,
        10**12,
        -1,
        0,
        2**63,
        2**64,
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "9999-12-31T23:59:59-05:00",
        "0001-01-01T00:00:00+05:00",
        "\x00",
        "x" * 300,
        "a\x00b",
    ]
)
ODD_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300
) | st.sampled_from(
    ["", "\u202e", "\x00", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "中文", "a" * 10_000, "@octocat", "<script>", "🙂" * 200]
)
JSON_LEAF = (
    EDGES
    | st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | ODD_TEXT
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ODD_TEXT, inner, max_size=4),
    max_leaves=20,
)

BASES = [
    ("push", replay_pushes("vllm-project/llm-compressor", "2026-06-22")[0]["payload"]),
    ("push", webhook_payload("push/with-new-branch")),
    ("push", webhook_payload("push/with-installation")),
    ("installation", webhook_payload("installation/created")),
    ("installation", webhook_payload("installation/deleted")),
    ("installation_repositories", webhook_payload("installation_repositories/added")),
]


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, (*prefix, key))
    elif isinstance(value, list):
        for i, child in enumerate(value[:3]):
            yield from paths(child, (*prefix, i))


STORED_KEYS = {
    "pushed_at",
    "timestamp",
    "id",
    "node_id",
    "full_name",
    "default_branch",
    "type",
    "login",
    "username",
    "name",
    "email",
    "message",
    "url",
    "ref",
}


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes, str]:
    event, base = draw(st.sampled_from(BASES))
    payload = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.sampled_from(list(paths(payload))[1:]))
        parent = payload
        for key in where[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["delete", "replace", "unicode", "edge"]))
        if action == "delete":
            del parent[where[-1]]
        elif action == "replace":
            parent[where[-1]] = draw(JSON_VALUE)
        elif action == "edge":
            parent[where[-1]] = draw(EDGES)
        else:
            parent[where[-1]] = draw(ODD_TEXT)
        if not isinstance(payload, dict):
            break
    body = json.dumps(payload, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    return draw(st.sampled_from([event, *EVENTS])), body, "application/json"


TIME_EDGES = st.sampled_from(
    [
        -62135596800,
        253402300799,
        253402300800,
        10**12,
        2**63,
        -1,
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "9999-12-31T23:59:59-05:00",
        "0001-01-01T00:00:00+05:00",
    ]
)


@st.composite
def edged(draw: st.DrawFn) -> tuple[str, bytes, str]:
    """A real payload with one stored field (a time, an id, a name) at or past its edge."""
    event, base = draw(st.sampled_from(BASES))
    payload = copy.deepcopy(base)
    where = [p for p in paths(payload) if p and p[-1] in STORED_KEYS]
    key = draw(st.sampled_from(sorted({p[-1] for p in where})))
    path = draw(st.sampled_from([p for p in where if p[-1] == key]))
    parent = payload
    for step in path[:-1]:
        parent = parent[step]
    parent[key] = draw(TIME_EDGES if key in ("pushed_at", "timestamp") else EDGES)
    return event, json.dumps(payload).encode(), "application/json"


RAW = st.tuples(
    st.sampled_from(EVENTS),
    st.binary(max_size=2000)
    | st.sampled_from(
        [
            b"",
            b"{",
            b"null",
            b"[]",
            b'{"a":' * 2000 + b"1" + b"}" * 2000,
            b'{"ref": "\\ud800"}',
            b"\xef\xbb\xbf{}",
        ]
    ),
    st.sampled_from(["application/json", "application/x-www-form-urlencoded", "text/plain", ""]),
)


# Header values as a client can send them (HTTP carries Latin-1), and the signature forms that
# are not GitHub's: SHA-1 in the SHA-256 header (valid or not), other case, cut, non-ASCII.
HEADER_TEXT = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=255, blacklist_characters="\x7f"),
    max_size=80,
)
SIGNATURES = st.sampled_from(
    ["valid", "sha1", "upper", "cut", "absent", "other secret", "no prefix"]
) | HEADER_TEXT.map(lambda text: "raw:" + text)


def signature_for(kind: str, body: bytes) -> str | None:
    digest = hmac.new(TEST_SECRET.encode(), body, hashlib.sha256).hexdigest()
    if kind.startswith("raw:"):
        return kind[4:]
    return {
        "valid": "sha256=" + digest,
        "sha1": "sha1=" + hmac.new(TEST_SECRET.encode(), body, hashlib.sha1).hexdigest(),
        "upper": "SHA256=" + digest,
        "cut": "sha256=" + digest[:-1],
        "absent": None,
        "other secret": sign(body, "another secret"),
        "no prefix": digest,
    }[kind]


@st.composite
def header_plans(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "signature": draw(SIGNATURES),
        "encoding": draw(st.sampled_from([None, "gzip", "deflate", "identity", "br", "x"])),
        "event": draw(st.none() | HEADER_TEXT),
        "delivery": draw(st.none() | HEADER_TEXT),
    }


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=mutated() | edged() | RAW, plan=st.none() | header_plans())
def test_webhook_never_fails_on_hostile_headers_and_bodies(
    server: tuple[int, str], case: tuple[str, bytes, str], plan: dict[str, Any] | None
) -> None:
    port, database = server
    event, body, content_type = case
    delivery = str(uuid.uuid4())
    headers: dict[str, str | None] = {}
    sent = body
    if plan is not None:
        headers["X-Hub-Signature-256"] = signature_for(plan["signature"], body)
        if plan["encoding"]:
            headers["Content-Encoding"] = plan["encoding"]
            if plan["encoding"] == "gzip":
                sent = gzip.compress(body)
        if plan["event"] is not None:
            headers["X-GitHub-Event"] = event = plan["event"]
        if plan["delivery"] is not None:
            headers["X-GitHub-Delivery"] = delivery = plan["delivery"]
    status = post(port, event, sent, delivery=delivery, content_type=content_type, headers=headers)
    assert status < 500, (status, event, plan, body[:200])
    assert status in (200, 202, 400, 401, 413, 415)
    encoded = plan is not None and plan["encoding"] not in (None, "identity")
    signed = plan is None or plan["signature"] == "valid"
    # Only GitHub's exact signature of the exact bytes gets in; GitHub never compresses.
    if encoded:
        assert status == 415
    elif not signed:
        assert status == 401, (status, plan)
    if status in (400, 401, 415):
        # Refused: nothing of it was kept, not even its delivery id.
        assert not stored(database, delivery)


# --- config files -------------------------------------------------------------------------

YAML_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=500
) | st.sampled_from(
    [
        "&a [*a, *a]",
        "!!python/object:os.system 'ls'",
        "? [a]\n: b",
        "cutoff: 99:99",
        "timezone: !!binary aGk=",
        "a: " + "[" * 300,
        # Bombs: nested anchors, a 4,301-digit number, a huge text, many keys.
        "llm:\n  for: [&a [low, low, low], &b [*a, *a, *a], &c [*b, *b, *b], [*c, *c, *c]]",
        "cutoff: " + "9" * 4301,
        "publish:\n  title: " + "x" * 5000,
        "".join(f"k{i}: 1\n" for i in range(300)),
    ]
)
CONFIG_VALUE = st.dictionaries(
    st.sampled_from(
        [
            "timezone",
            "cutoff",
            "language",
            "branches",
            "publish",
            "skip_empty_days",
            "exclude",
            "other",
        ]
    ),
    JSON_VALUE,
    max_size=6,
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=YAML_TEXT | CONFIG_VALUE.map(json.dumps))
def test_config_files_give_a_config_or_a_clear_error(text: str) -> None:
    try:
        config = parse_config(text)
    except ConfigError as exc:
        assert str(exc).startswith(".github/commit-digest.yml")
        assert len(str(exc)) < 2000
    else:
        assert isinstance(config, RepoConfig)
        # A config that validates is usable: its zone and cutoff give days.
        config.schedule.window(config.schedule.day_of(datetime.now(UTC)))
