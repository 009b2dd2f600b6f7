"""`create_app(settings)`: the aiohttp application, one cleanup context per resource."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

from aiohttp import web

from bot import probes
from bot.clock import Clock, SystemClock
from bot.handlers import build_router
from bot.handlers.context import RepoViews
from bot.housekeeping import Housekeeping
from bot.metrics import Metrics
from bot.settings import Settings
from bot.store import Store
from bot.store.group_commit import GroupCommit
from bot.webhook import MAX_PAYLOAD_BYTES, WebhookEndpoint

SETTINGS = web.AppKey("settings", Settings)
CLOCK = web.AppKey("clock", Clock)
METRICS = web.AppKey("metrics", Metrics)
STORE = web.AppKey("store", Store)
INGEST = web.AppKey("ingest", GroupCommit)
REPO_VIEWS = web.AppKey("repo_views", RepoViews)
WEBHOOK = web.AppKey("webhook", WebhookEndpoint)


def create_app(
    settings: Settings,
    *,
    clock: Clock | None = None,
    background: bool = True,
) -> web.Application:
    """Build the App. `background=False` leaves out the worker and scheduler (for tests)."""
    # A little headroom over GitHub's cap so that our own 413 answers an oversized body.
    app = web.Application(client_max_size=MAX_PAYLOAD_BYTES + 1)
    app[SETTINGS] = settings
    app[CLOCK] = clock or SystemClock()
    app[METRICS] = Metrics()

    app.cleanup_ctx.append(_store)
    app.cleanup_ctx.append(_ingest)
    if background:
        app.cleanup_ctx.append(_housekeeping)

    app.router.add_post("/webhook", _webhook)
    app.router.add_get("/healthz", _healthz)
    app.router.add_get("/metrics", _metrics)
    return app


async def _store(app: web.Application) -> AsyncIterator[None]:
    store = await Store.open(app[SETTINGS].database_url)
    app[STORE] = store
    app[REPO_VIEWS] = RepoViews(store)
    yield
    await store.close()


async def _ingest(app: web.Application) -> AsyncIterator[None]:
    ingest = GroupCommit(app[STORE])
    ingest.start()
    app[INGEST] = ingest
    app[WEBHOOK] = WebhookEndpoint(
        secret=app[SETTINGS].webhook_secret(),
        router=build_router(),
        ingest=ingest,
        repos=app[REPO_VIEWS],
        clock=app[CLOCK],
        metrics=app[METRICS],
    )
    yield
    await ingest.close()


async def _housekeeping(app: web.Application) -> AsyncIterator[None]:
    housekeeping = Housekeeping(
        app[STORE],
        app[CLOCK],
        delivery_retention=timedelta(days=app[SETTINGS].delivery_retention_days),
    )
    housekeeping.start()
    yield
    await housekeeping.stop()


async def _webhook(request: web.Request) -> web.Response:
    return await request.app[WEBHOOK].handle(request)


async def _healthz(request: web.Request) -> web.Response:
    return await probes.healthz(request.app[STORE])


async def _metrics(request: web.Request) -> web.Response:
    return await probes.metrics(request.app[STORE], request.app[METRICS])
