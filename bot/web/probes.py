"""`GET /healthz`, `GET /readyz` and `GET /metrics`: what orchestrators and Prometheus poll."""

from __future__ import annotations

from datetime import datetime

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.runtime.background import BackgroundService
from bot.runtime.logs import get_logger
from bot.runtime.metrics import Metrics
from bot.store import Store
from bot.store.commits import CommitState
from bot.store.jobs import JobKind, JobState

log = get_logger(__name__)


class Liveness:
    """The background loops this process started; one that has died makes it unhealthy."""

    def __init__(self) -> None:
        self._services: list[BackgroundService] = []

    def watch(self, service: BackgroundService) -> None:
        self._services.append(service)

    def dead(self) -> list[str]:
        return [service.name for service in self._services if service.dead]


async def healthz(liveness: Liveness) -> web.Response:
    """Liveness: 503 once a background loop has died, so the process is restarted. It does
    not touch the database: an outage must not restart every replica at once."""
    dead = liveness.dead()
    if dead:
        return web.json_response({"status": "unavailable", "dead": dead}, status=503)
    return web.json_response({"status": "ok"})


async def readyz(store: Store) -> web.Response:
    """Readiness: 200 when the database answers, so deliveries are sent where they can land."""
    try:
        await store.ping()
    except Exception as exc:
        log.warning("readyz_store_unreachable", error=repr(exc))
        return web.json_response({"status": "unavailable", "store": "unreachable"}, status=503)
    return web.json_response({"status": "ok", "store": store.dialect})


async def metrics(store: Store, registry: Metrics, now: datetime) -> web.Response:
    try:
        counts = await store.count_commits_by_state()
    except Exception as exc:
        log.warning("metrics_store_unreachable", error=repr(exc))
    else:
        for commit_state in CommitState:
            registry.commits.labels(state=commit_state.value).set(counts.get(commit_state.value, 0))
    try:
        jobs = await store.jobs.count_by_state()
    except Exception as exc:
        log.warning("metrics_store_unreachable", error=repr(exc))
    else:
        for kind in JobKind:
            for state in JobState:
                registry.jobs.labels(kind=kind.value, state=state.value).set(
                    jobs.get(f"{kind.value}:{state.value}", 0)
                )
    try:
        oldest = await store.jobs.oldest_waiting(now)
    except Exception as exc:
        log.warning("metrics_store_unreachable", error=repr(exc))
    else:
        waited = (now - oldest).total_seconds() if oldest is not None else 0.0
        registry.oldest_waiting_job.set(max(0.0, waited))
    body = generate_latest(registry.registry)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
