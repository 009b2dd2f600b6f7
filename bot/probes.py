"""`GET /healthz` and `GET /metrics`: what load balancers and Prometheus poll."""

from __future__ import annotations

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.jobs.kinds import JobKind, JobState
from bot.logs import get_logger
from bot.metrics import Metrics
from bot.store import Store

log = get_logger(__name__)


async def healthz(store: Store) -> web.Response:
    try:
        await store.ping()
    except Exception as exc:
        log.warning("healthz_store_unreachable", error=repr(exc))
        return web.json_response({"status": "unavailable", "store": "unreachable"}, status=503)
    return web.json_response({"status": "ok", "store": store.dialect})


async def metrics(store: Store, registry: Metrics) -> web.Response:
    try:
        counts = await store.count_commits_by_state()
    except Exception as exc:
        log.warning("metrics_store_unreachable", error=repr(exc))
    else:
        for state in ("pending", "analyzed", "failed"):
            registry.commits.labels(state=state).set(counts.get(state, 0))
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
    body = generate_latest(registry.registry)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
