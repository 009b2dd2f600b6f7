"""`POST /webhook`: verify, parse, dedupe, store, answer. No GitHub or LLM call happens here."""

from __future__ import annotations

import asyncio
import hmac
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qs

import orjson
from aiohttp import web
from gidgethub import routing, sansio
from sqlalchemy.exc import SQLAlchemyError
from structlog.contextvars import bind_contextvars

from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.runtime.metrics import Metrics
from bot.store.group_commit import GroupCommit, IngestClosed
from bot.store.records import DeliveryRecord, IngestUnit, UpsertRepository
from bot.web.body import BodyRefused, ReadBudget, read_body
from bot.web.handlers import ROUTED_EVENTS
from bot.web.handlers.context import HandlerContext, MalformedPayload, RepoViews

log = get_logger(__name__)

# GitHub sends no webhook whose payload exceeds 25 MB (FACTS.md §1): anything bigger is not GitHub.
MAX_PAYLOAD_BYTES = 25 * 1024 * 1024
_MAX_DELIVERY_ID = 64
# `X-Hub-Signature-256` is `sha256=` and the HMAC-SHA256 in hex, nothing else: gidgethub also
# accepts `sha1=` there, and a non-ASCII value would reach `compare_digest` and raise.
_SIGNATURE = re.compile(r"sha256=[0-9a-fA-F]{64}", re.ASCII)
# A wrong secret refuses every delivery: said at WARNING, but once a minute however many come.
SIGNATURE_WARNING_INTERVAL = timedelta(minutes=1)
_MISMATCH_CAUSE = (
    "the webhook secret in the GitHub App's settings differs from GITHUB_WEBHOOK_SECRET "
    "(or something between GitHub and the App changed the body)"
)
_MISSING_CAUSE = (
    "GitHub signs deliveries only when the App has a webhook secret: set one in the GitHub "
    "App's settings, the same as GITHUB_WEBHOOK_SECRET"
)


@dataclass
class Drain:
    """The webhook requests under way when the server stopped accepting, and what became of
    them: answered, or cut off at the server's shutdown limit (GitHub marks those failed)."""

    under_way: int
    answered: int = 0
    cut_off: int = 0


def _answer(status: int, outcome: str, message: str | None = None) -> web.Response:
    body: dict[str, Any] = {"status": outcome}
    if message:
        body["message"] = message
    return web.json_response(body, status=status)


def _decode_body(content_type: str, body: bytes | bytearray) -> Any:
    """JSON, or GitHub's form encoding (a `payload` field holding the JSON)."""
    media_type = content_type.partition(";")[0].strip().lower()
    if media_type == "application/json":
        return orjson.loads(body)
    if media_type == "application/x-www-form-urlencoded":
        fields = parse_qs(body.decode("utf-8"), strict_parsing=True)
        payload = fields.get("payload")
        if not payload:
            raise ValueError("form body without a payload field")
        return orjson.loads(payload[0])
    raise ValueError(f"content type {media_type or '(none)'} is not JSON")


def _delivery_id(value: str) -> str | None:
    """An `X-GitHub-Delivery` the App may store and log: GitHub's GUIDs are short and plain."""
    return value if len(value) <= _MAX_DELIVERY_ID and value.isprintable() else None


def _ids(data: Mapping[str, Any]) -> dict[str, Any]:
    """Repository and installation for the log context, if the payload has them."""
    ids: dict[str, Any] = {}
    repo = data.get("repository")
    if isinstance(repo, dict) and isinstance(repo.get("full_name"), str):
        ids["repo"] = repo["full_name"]
    installation = data.get("installation")
    if isinstance(installation, dict) and isinstance(installation.get("id"), int):
        ids["installation"] = installation["id"]
    return ids


class WebhookEndpoint:
    """The request handler, holding what it needs; built by the app factory."""

    def __init__(
        self,
        *,
        secret: str,
        router: routing.Router,
        ingest: GroupCommit,
        repos: RepoViews,
        clock: Clock,
        metrics: Metrics,
        budget: ReadBudget,
        read_timeout: float,
    ) -> None:
        self._secret = secret
        self._budget = budget
        self._read_timeout = read_timeout
        self._router = router
        self._ingest = ingest
        self._repos = repos
        self._clock = clock
        self._metrics = metrics
        self._in_flight = 0
        self._drain: Drain | None = None
        self._signature_warned_at: datetime | None = None
        self._signatures_refused = 0

    @property
    def budget(self) -> ReadBudget:
        """Body bytes held by requests being read or handled now."""
        return self._budget

    def stop_accepting(self) -> Drain:
        """The server takes no more connections: count what the requests under way become."""
        self._drain = Drain(under_way=self._in_flight)
        return self._drain

    async def handle(self, request: web.Request) -> web.Response:
        event_name = request.headers.get("X-GitHub-Event", "")
        arrived = time.perf_counter()
        self._in_flight += 1
        try:
            response = await self._handle(request, event_name)
        except asyncio.CancelledError:
            if self._drain is not None:
                self._drain.cut_off += 1
            raise
        finally:
            self._in_flight -= 1
        if self._drain is not None:
            self._drain.answered += 1
        if response.status == 202:
            # Only a 202 says its commits were stored: a duplicate or an ignored event stores none.
            self._metrics.webhook_stored_seconds.observe(time.perf_counter() - arrived)
        outcome = "ok" if response.status < 300 else "rejected"
        self._metrics.deliveries.labels(
            event=event_name if event_name in ROUTED_EVENTS or event_name == "ping" else "other",
            status=str(response.status),
            outcome=outcome,
        ).inc()
        return response

    async def _handle(self, request: web.Request, event_name: str) -> web.Response:
        # Everything that can be refused from the headers is refused before a byte of body
        # is read: an unsigned flood costs no memory.
        encoding = request.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            # GitHub never compresses webhook bodies; inflating one is a memory bomb.
            return _answer(415, "rejected", "webhook bodies are not compressed")
        signature = request.headers.get("X-Hub-Signature-256")
        if not signature:
            self._signature_refused(request, "webhook_signature_missing", _MISSING_CAUSE)
            return _answer(401, "rejected", "missing X-Hub-Signature-256")
        if not _SIGNATURE.fullmatch(signature):
            return _answer(401, "rejected", "X-Hub-Signature-256 is not sha256=<hex>")
        try:
            async with read_body(
                request,
                budget=self._budget,
                max_bytes=MAX_PAYLOAD_BYTES,
                read_timeout=self._read_timeout,
            ) as body:
                expected = "sha256=" + hmac.new(self._secret.encode(), body, "sha256").hexdigest()
                if not hmac.compare_digest(signature.lower(), expected):
                    self._signature_refused(request, "webhook_signature_mismatch", _MISMATCH_CAUSE)
                    return _answer(401, "rejected", "signature does not match")
                return await self._verified(request, event_name, body)
        except BodyRefused as exc:
            return _answer(exc.status, "rejected", exc.message)

    def _signature_refused(self, request: web.Request, event: str, cause: str) -> None:
        """Say at WARNING that deliveries are refused for their signature, at most once a
        minute (the App's clock), naming the delivery and the likely cause; never the
        signature, the body or the secret."""
        self._signatures_refused += 1
        now = self._clock.now()
        warned_at = self._signature_warned_at
        if warned_at is not None and now - warned_at < SIGNATURE_WARNING_INTERVAL:
            return
        log.warning(
            event,
            delivery_id=_delivery_id(request.headers.get("X-GitHub-Delivery", "")),
            likely_cause=cause,
            # Refused since the last warning, this one included.
            refused=self._signatures_refused,
        )
        self._signature_warned_at = now
        self._signatures_refused = 0

    async def _verified(
        self, request: web.Request, event_name: str, body: bytearray
    ) -> web.Response:
        delivery_id = request.headers.get("X-GitHub-Delivery", "")
        if not event_name or not delivery_id:
            return _answer(400, "rejected", "missing X-GitHub-Event or X-GitHub-Delivery")
        if _delivery_id(delivery_id) is None:
            return _answer(400, "rejected", "malformed X-GitHub-Delivery")
        try:
            data = _decode_body(request.headers.get("Content-Type", ""), body)
        except ValueError as exc:
            return _answer(400, "rejected", f"malformed body: {exc}")
        if not isinstance(data, dict):
            return _answer(400, "rejected", "body is not a JSON object")
        action = data.get("action")
        if action is not None and not isinstance(action, str):
            return _answer(400, "rejected", "action is not a string")

        # Each request runs in its own task with its own context: bind, no need to unbind.
        bind_contextvars(delivery_id=delivery_id, event=event_name, **_ids(data))
        return await self._dispatch(sansio.Event(data, event=event_name, delivery_id=delivery_id))

    async def _dispatch(self, event: sansio.Event) -> web.Response:
        if event.event == "ping":
            log.info("ping_received")
            return _answer(200, "pong")
        if event.event not in ROUTED_EVENTS:
            log.debug("event_ignored")
            return _answer(200, "ignored", f"the App does not use {event.event} events")

        delivery = DeliveryRecord(
            id=event.delivery_id, event=event.event, received_at=self._clock.now()
        )
        ctx = HandlerContext(delivery=delivery, repos=self._repos)
        try:
            await self._router.dispatch(event, ctx=ctx)
        except MalformedPayload as exc:
            log.warning("delivery_malformed", error=str(exc))
            return _answer(400, "rejected", str(exc))
        except (SQLAlchemyError, OSError) as exc:
            # A handler's lookup could not reach the store: not the sender's fault.
            log.warning("delivery_lookup_failed", error=repr(exc))
            return _answer(503, "unavailable", "could not reach the store; redeliver later")
        if not ctx.operations:
            return _answer(200, "ignored")

        try:
            stored = await self._ingest.submit(IngestUnit(delivery, ctx.operations))
        except IngestClosed:
            return _answer(503, "unavailable", "shutting down; redeliver later")
        except Exception as exc:
            log.warning("delivery_not_stored", error=repr(exc))
            return _answer(503, "unavailable", "could not store the delivery; redeliver later")
        if not stored:
            log.info("delivery_duplicate")
            return _answer(200, "duplicate")
        for op in ctx.operations:
            if isinstance(op, UpsertRepository):
                self._repos.invalidate(op.id)
        log.info("delivery_stored", operations=len(ctx.operations))
        return _answer(202, "accepted")
