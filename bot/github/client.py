"""gidgethub's aiohttp client with the failure handling a user expects, at its lowest level.

Overriding `_request` keeps gidgethub's URL expansion, headers and error mapping, and adds:
retries with exponential backoff on 5xx and timeouts (reads only: a write that met one
raises UnclearWrite, since GitHub may have carried it out), primary and secondary rate limits
waited out (`Retry-After`, `x-ratelimit-reset`) and logged, a 401 renewing the token once,
and pacing of content-creating calls. Waits go through the injected clock; no tight loops.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import aiohttp
import gidgethub.aiohttp
from gidgethub import sansio

from bot.github.errors import GitHubUnavailable, RateLimited, UnclearWrite
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.runtime.metrics import Metrics

log = get_logger(__name__)

API_VERSION = "2022-11-28"
USER_AGENT = "commit-digest"

# (refused) -> the Authorization header value; `refused` is the header GitHub answered 401 to.
Credentials = Callable[[str | None], Awaitable[str]]


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4  # tries for one request that meets 5xx answers or timeouts
    base_delay: float = 1.0
    max_delay: float = 30.0
    # Rate-limit waits longer than this are not slept through: RateLimited is raised and
    # the caller schedules the work for later.
    max_rate_limit_wait: float = 120.0
    rate_limit_retries: int = 4
    timeout: float = 30.0


class Pacer:
    """Spaces content-creating calls: GitHub asks for at least a second between mutations."""

    def __init__(self, clock: Clock, interval: float = 1.0) -> None:
        self._clock = clock
        self._interval = timedelta(seconds=interval)
        self._last: datetime | None = None
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        async with self._lock:
            if self._last is not None:
                gap = (self._last + self._interval - self._clock.now()).total_seconds()
                if gap > 0:
                    await self._clock.sleep(gap)
            self._last = self._clock.now()


class Limits:
    """The rate limits one installation met that outlast a worker's sleep (`RateLimited`), by
    the API that answered them (`graphql`, `rest`: GitHub counts them apart), until they end.
    A call with another way to its answer takes that way meanwhile (a lone commit's pull
    request by REST) instead of asking the limited API again."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._met: dict[str, RateLimited] = {}

    def note(self, limited: RateLimited) -> None:
        kept = self._met.get(limited.api)
        if kept is None or limited.until > kept.until:
            self._met[limited.api] = limited

    def current(self, api: str) -> RateLimited | None:
        """The limit `api` is under now; None where none is known."""
        met = self._met.get(api)
        return met if met is not None and met.until > self._clock.now() else None


def rate_limit_wait(
    status: int, headers: Mapping[str, str], body: bytes, now: datetime, previous: int
) -> tuple[float, str] | None:
    """Seconds to wait and the kind of limit, or None when the answer is not a rate limit."""
    graphql_limited = status == 200 and b'"RATE_LIMITED"' in body[:4096]
    if status not in (403, 429) and not graphql_limited:
        return None
    retry_after = headers.get("retry-after")
    remaining = headers.get("x-ratelimit-remaining")
    reset = headers.get("x-ratelimit-reset")
    text = body[:2048].lower()
    secondary = b"secondary rate limit" in text or b"abuse" in text
    if retry_after and retry_after.strip().isdigit():
        return float(retry_after), "secondary" if secondary or status == 429 else "primary"
    if remaining == "0" and reset and reset.strip().isdigit():
        return max(1.0, float(reset) - now.timestamp() + 1), "primary"
    if secondary or status == 429:
        # No hint: at least a minute, doubling on each repeat (GitHub's own advice).
        return 60.0 * 2**previous, "secondary"
    # A 403 that is not a rate limit ("Resource not accessible by integration").
    return None


_REDELIVERY = re.compile(r"/app/hook/deliveries/\d+/attempts$")


def _is_mutation(body: bytes) -> bool:
    """A GraphQL request that is a mutation (gidgethub sends {"query": "...", ...})."""
    try:
        query = json.loads(body).get("query")
    except (ValueError, AttributeError):
        return True  # not one we can read: treat it as a write, never sent twice
    return not isinstance(query, str) or query.lstrip().startswith("mutation")


def _is_write(method: str, url: str, body: bytes) -> bool:
    """A request that changes GitHub (not idempotent): never sent twice by this client."""
    if method == "POST" and url.endswith("/graphql"):
        return _is_mutation(body)
    # Asking for a redelivery twice is harmless: it keeps its GUID, and the webhook dedupes.
    return method == "POST" and "/access_tokens" not in url and not _REDELIVERY.search(url)


def _creates_content(method: str, url: str, body: bytes) -> bool:
    if method == "POST" and url.endswith("/graphql"):
        return _is_mutation(body)
    return method in ("POST", "PATCH", "PUT", "DELETE") and "/access_tokens" not in url


class GitHubAPI(gidgethub.aiohttp.GitHubAPI):
    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        base_url: str,
        graphql_url: str,
        credentials: Credentials | None,
        clock: Clock,
        metrics: Metrics,
        policy: RetryPolicy,
        pacer: Pacer | None = None,
        limits: Limits | None = None,
    ) -> None:
        super().__init__(session, USER_AGENT, base_url=base_url)
        self.graphql_url = graphql_url
        self._credentials = credentials
        self._clock = clock
        self._metrics = metrics
        self._policy = policy
        self._pacer = pacer
        # the long limits met, shared by the installation's clients (`GitHubApp.installation`)
        self.limits = limits if limits is not None else Limits(clock)

    async def sleep(self, seconds: float) -> None:
        await self._clock.sleep(seconds)

    async def _request(
        self, method: str, url: str, headers: Mapping[str, str], body: bytes = b""
    ) -> tuple[int, Mapping[str, str], bytes]:
        request_headers = {**headers, "x-github-api-version": API_VERSION}
        renewed = False
        failures = 0
        limited = 0
        while True:
            if self._credentials is not None:
                request_headers["authorization"] = await self._credentials(None)
            if self._pacer is not None and _creates_content(method, url, body):
                await self._pacer.wait()
            try:
                async with asyncio.timeout(self._policy.timeout):
                    status, response_headers, data = await super()._request(
                        method, url, request_headers, body
                    )
            except (TimeoutError, aiohttp.ClientError) as exc:
                self._metrics.github_calls.labels(method=method, status="0").inc()
                self._metrics.github_reachable.set(0)
                if _is_write(method, url, body) and not isinstance(
                    exc, aiohttp.ClientConnectorError
                ):
                    # Sent, and no answer: GitHub may have carried it out.
                    raise UnclearWrite(f"{method} {url}: {type(exc).__name__}") from exc
                failures += 1
                if failures >= self._policy.attempts:
                    raise GitHubUnavailable(f"{method} {url}: {type(exc).__name__}") from exc
                await self._backoff(failures, method, url, type(exc).__name__)
                continue
            self._metrics.github_calls.labels(method=method, status=str(status)).inc()
            self._metrics.github_reachable.set(0 if status >= 500 else 1)

            if status == 401 and self._credentials is not None and not renewed:
                renewed = True
                log.info("github_token_renewed", reason="401")
                request_headers["authorization"] = await self._credentials(
                    request_headers["authorization"]
                )
                continue
            wait = rate_limit_wait(status, response_headers, data, self._clock.now(), limited)
            if wait is not None:
                seconds, kind = wait
                limited += 1
                until = self._clock.now() + timedelta(seconds=seconds)
                if (
                    seconds > self._policy.max_rate_limit_wait
                    or limited > self._policy.rate_limit_retries
                ):
                    api = "graphql" if url.endswith("/graphql") else "rest"
                    log.warning(
                        "github_rate_limited_deferred", kind=kind, api=api, until=until.isoformat()
                    )
                    deferred = RateLimited(until, kind, api=api)
                    self.limits.note(deferred)
                    raise deferred
                log.warning(
                    "github_rate_limited_waiting", kind=kind, wait_seconds=round(seconds, 1)
                )
                self._metrics.github_rate_limit_waits.labels(kind=kind).inc()
                self._metrics.github_rate_limit_wait_seconds.inc(seconds)
                await self._clock.sleep(seconds)
                continue
            if status >= 500:
                if _is_write(method, url, body):
                    # A 502 after a create is often a create that happened: do not repeat it.
                    raise UnclearWrite(f"{method} {url}: HTTP {status}")
                failures += 1
                if failures >= self._policy.attempts:
                    raise GitHubUnavailable(f"{method} {url}: HTTP {status}")
                await self._backoff(failures, method, url, f"HTTP {status}")
                continue
            return status, response_headers, data

    async def _backoff(self, failures: int, method: str, url: str, reason: str) -> None:
        delay = min(self._policy.max_delay, self._policy.base_delay * 2 ** (failures - 1))
        delay *= 1 + random.random() / 4  # jitter, so replicas do not retry in step
        log.info("github_retrying", method=method, reason=reason, delay_seconds=round(delay, 2))
        await self._clock.sleep(delay)

    async def pages(
        self, url: str, url_vars: Mapping[str, Any] | None = None
    ) -> AsyncIterator[Any]:
        """Each page of a paginated answer as a whole (dict pages included), by `Link: next`."""
        next_url: str | None = url
        variables: Mapping[str, Any] | None = url_vars
        while next_url is not None:
            # `_make_request` is what gidgethub's own `getiter` uses to follow `Link` headers.
            data, next_url, _ = await self._make_request(
                "GET", next_url, variables or {}, b"", sansio.accept_format()
            )
            variables = None
            yield data
