"""`create_app(settings)`: the aiohttp application, one cleanup context per resource."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import aiohttp
from aiohttp import web
from sqlalchemy.exc import SQLAlchemyError

from bot.analysis import Analyzer
from bot.analysis.factory import open_analyzer, open_narrator
from bot.analysis.narrative import Narrator
from bot.github.client import RetryPolicy
from bot.github.github_app import GitHubApp
from bot.github.oauth import MAX_WAIT_SECONDS, OAuthApp
from bot.jobs.analyse.commit import AnalyseCommit
from bot.jobs.analyse.expand import ExpandRange
from bot.jobs.commands import RunCommand
from bot.jobs.context import JobContext
from bot.jobs.executor import Executor, GivenBack
from bot.jobs.publish.alerts import SendAlerts
from bot.jobs.publish.day import PublishPeriod
from bot.jobs.publish.fold import FoldAlerts
from bot.jobs.publish.scheduler import Scheduler
from bot.jobs.publish.week import PublishWeek
from bot.jobs.recovery import DeliveryRecovery, RecoverDeliveries
from bot.jobs.refresh_config import RefreshConfig
from bot.runtime.background import BackgroundService
from bot.runtime.clock import Clock, SystemClock
from bot.runtime.metrics import Metrics
from bot.settings import MissingSetting, Settings
from bot.store import Store
from bot.store.group_commit import GroupCommit
from bot.store.housekeeping import Housekeeping
from bot.store.jobs import JobKind
from bot.store.sqlite_file import sqlite_path, unopenable
from bot.store.status import StatusReader
from bot.web import probes, status_page
from bot.web import session as page_session
from bot.web.body import ReadBudget
from bot.web.handlers import build_router
from bot.web.handlers.context import RepoViews
from bot.web.probes import Liveness
from bot.web.session import Sessions
from bot.web.webhook import MAX_PAYLOAD_BYTES, Drain, WebhookEndpoint


@dataclass
class Stopped:
    """What the App gave back as it stopped, filled in by the steps of its shutdown."""

    began: datetime | None = None
    deliveries: Drain = field(default_factory=lambda: Drain(under_way=0))
    jobs: GivenBack = field(default_factory=GivenBack)

    def summary(self, now: datetime) -> dict[str, Any]:
        """The fields of `serve`'s last log line."""
        return {
            "deliveries_under_way": self.deliveries.under_way,
            "deliveries_answered": self.deliveries.answered,
            "deliveries_cut_off": self.deliveries.cut_off,
            "jobs_finished": self.jobs.finished,
            "jobs_released": self.jobs.released,
            "jobs_not_released": self.jobs.not_released,
            "seconds": round((now - (self.began or now)).total_seconds(), 3),
        }


SETTINGS = web.AppKey("settings", Settings)
CLOCK = web.AppKey("clock", Clock)
METRICS = web.AppKey("metrics", Metrics)
STORE = web.AppKey("store", Store)
REPO_VIEWS = web.AppKey("repo_views", RepoViews)
GITHUB = web.AppKey("github", GitHubApp)
# The App's OAuth client for sign-in; absent when sign-in is not configured.
OAUTH = web.AppKey("oauth", OAuthApp)
ANALYZER = web.AppKey("analyzer", Analyzer)
NARRATOR = web.AppKey("narrator", Narrator)
EXECUTOR = web.AppKey("executor", Executor)
COMMAND_EXECUTOR = web.AppKey("command_executor", Executor)
SCHEDULER = web.AppKey("scheduler", Scheduler)
INGEST = web.AppKey("ingest", GroupCommit)
RECOVERY = web.AppKey("recovery", DeliveryRecovery)
RECOVERER = web.AppKey("recoverer", RecoverDeliveries)
LIVENESS = web.AppKey("liveness", Liveness)
WEBHOOK = web.AppKey("webhook", WebhookEndpoint)
STOPPED = web.AppKey("stopped", Stopped)
# Whether the background loops run (tests drive them step by step instead).
BACKGROUND = web.AppKey("background", bool)


def create_app(
    settings: Settings,
    *,
    clock: Clock | None = None,
    background: bool = True,
) -> web.Application:
    """Build the App. `background=False` builds the executor and scheduler but does not start
    their loops: tests call their `run_once()` instead."""
    # A little headroom over GitHub's cap so that our own 413 answers an oversized body.
    # Bodies are never inflated: GitHub does not compress them, and the webhook answers a
    # compressed one 415 without reading it (a gzip bomb costs nothing).
    app = web.Application(
        client_max_size=MAX_PAYLOAD_BYTES + 1, handler_args={"auto_decompress": False}
    )
    app[SETTINGS] = settings
    app[CLOCK] = clock or SystemClock()
    app[METRICS] = Metrics()
    app[BACKGROUND] = background
    app[LIVENESS] = Liveness()
    app[STOPPED] = Stopped()

    app.cleanup_ctx.append(_store)
    app.cleanup_ctx.append(_github)
    app.cleanup_ctx.append(_analyzer)
    app.cleanup_ctx.append(_narrator)
    app.cleanup_ctx.append(_executor)
    app.cleanup_ctx.append(_scheduler)
    app.cleanup_ctx.append(_ingest)
    app.cleanup_ctx.append(_housekeeping)
    app.cleanup_ctx.append(_recovery)
    app.cleanup_ctx.append(_pages)
    # Runs once the server takes no more connections, before the cleanup contexts.
    app.on_shutdown.append(_stop_accepting)

    app.router.add_post("/webhook", _webhook)
    app.router.add_get("/healthz", _healthz)
    app.router.add_get("/readyz", _readyz)
    app.router.add_get("/metrics", _metrics)
    if settings.sign_in_configured:
        secret = settings.session_secret
        assert secret is not None
        page_session.install(
            app,
            secret.get_secret_value(),
            settings.session_max_age_seconds,
            secure=settings.cookie_secure,
        )
    status_page.add_routes(app)
    return app


async def open_store(database_url: str) -> Store:
    """The store, or MissingSetting naming DATABASE_URL (never its password) when it cannot open."""
    try:
        return await Store.open(database_url)
    except (SQLAlchemyError, OSError) as exc:
        cause = getattr(exc, "orig", None) or exc
        reason = " ".join(str(cause).split()) or type(cause).__name__
        path = sqlite_path(database_url)
        if path is not None:
            reason = unopenable(path) or f"{path}: {reason}"
        raise MissingSetting(f"DATABASE_URL: cannot open the store: {reason}") from None


async def _store(app: web.Application) -> AsyncIterator[None]:
    store = await open_store(app[SETTINGS].database_url)
    app[STORE] = store
    app[REPO_VIEWS] = RepoViews(store)
    yield
    await store.close()


async def _github(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    # One HTTP session per process; connections to GitHub are reused by every caller.
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
        app[GITHUB] = GitHubApp(
            session,
            app_id=settings.github_app_id or "",
            private_key=settings.private_key_pem(),
            base_url=settings.github_api_url,
            graphql_url=settings.graphql_url,
            clock=app[CLOCK],
            metrics=app[METRICS],
            policy=RetryPolicy(timeout=settings.github_timeout_seconds),
        )
        if settings.sign_in_configured:
            assert settings.github_client_id and settings.github_client_secret
            app[OAUTH] = OAuthApp(
                session,
                client_id=settings.github_client_id,
                client_secret=settings.github_client_secret.get_secret_value(),
                web_url=settings.github_web_url,
                api_url=settings.github_api_url,
                wait_seconds=min(settings.github_timeout_seconds, MAX_WAIT_SECONDS),
            )
        yield


async def _analyzer(app: web.Application) -> AsyncIterator[None]:
    async with open_analyzer(app[SETTINGS], metrics=app[METRICS]) as analyzer:
        app[ANALYZER] = analyzer
        yield


async def _narrator(app: web.Application) -> AsyncIterator[None]:
    async with open_narrator(app[SETTINGS], metrics=app[METRICS]) as narrator:
        app[NARRATOR] = narrator
        yield


async def _executor(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    ctx = JobContext(
        store=app[STORE],
        github=app[GITHUB],
        clock=app[CLOCK],
        settings=settings,
        metrics=app[METRICS],
    )
    app[RECOVERY] = DeliveryRecovery(
        app[STORE],
        app[GITHUB],
        clock=app[CLOCK],
        metrics=app[METRICS],
        window=timedelta(days=settings.recovery_window_days),
    )
    app[RECOVERER] = RecoverDeliveries(ctx, app[RECOVERY])
    analyse = AnalyseCommit(ctx, app[ANALYZER])
    commands = RunCommand(ctx, governor=analyse.governor)
    executor = Executor(
        app[STORE].jobs,
        [
            RefreshConfig(ctx, app[REPO_VIEWS]),
            ExpandRange(ctx),
            analyse,
            PublishPeriod(ctx),
            SendAlerts(ctx),
            FoldAlerts(ctx),
            PublishWeek(ctx, app[NARRATOR]),
            commands,
            # A process with recovery off never claims it: the replicas that have it on do.
            *([app[RECOVERER]] if settings.recovery_enabled else []),
        ],
        clock=app[CLOCK],
        settings=settings,
    )
    app[EXECUTOR] = executor
    # Commands also have an executor of their own: someone waits for the reply, and the main
    # one runs in rounds, each waiting for its slowest job (an analysis takes seconds).
    command_executor = Executor(
        app[STORE].jobs,
        [commands],
        clock=app[CLOCK],
        settings=settings,
        kinds=[JobKind.DIGEST_COMMAND],
    )
    command_executor.name = "command-executor"
    app[COMMAND_EXECUTOR] = command_executor
    if app[BACKGROUND] and settings.worker_enabled:
        _start(app, executor)
        _start(app, command_executor)
    yield
    # SIGTERM: claim nothing more, let jobs under way finish briefly, give the rest back.
    await command_executor.stop()
    await executor.stop()
    app[STOPPED].jobs = _together(executor.given_back, command_executor.given_back)


def _together(a: GivenBack, b: GivenBack) -> GivenBack:
    return GivenBack(
        finished=a.finished + b.finished,
        released=a.released + b.released,
        not_released=a.not_released + b.not_released,
    )


def _wake_executors(app: web.Application) -> None:
    """New work was stored: both executors look for it now."""
    app[EXECUTOR].wake()
    app[COMMAND_EXECUTOR].wake()


async def _scheduler(app: web.Application) -> AsyncIterator[None]:
    scheduler = Scheduler(
        app[STORE], clock=app[CLOCK], settings=app[SETTINGS], on_enqueued=app[EXECUTOR].wake
    )
    app[SCHEDULER] = scheduler
    if app[BACKGROUND] and app[SETTINGS].scheduler_enabled:
        _start(app, scheduler)
    yield
    await scheduler.stop()


async def _ingest(app: web.Application) -> AsyncIterator[None]:
    ingest = GroupCommit(app[STORE], on_stored=lambda: _wake_executors(app))
    ingest.start()
    app[INGEST] = ingest
    app[WEBHOOK] = WebhookEndpoint(
        secret=app[SETTINGS].webhook_secret(),
        router=build_router(),
        ingest=ingest,
        repos=app[REPO_VIEWS],
        clock=app[CLOCK],
        metrics=app[METRICS],
        budget=ReadBudget(app[SETTINGS].webhook_read_budget_bytes),
        read_timeout=app[SETTINGS].webhook_read_timeout_seconds,
    )
    yield
    await ingest.close()


async def _housekeeping(app: web.Application) -> AsyncIterator[None]:
    if not app[BACKGROUND]:
        yield
        return
    housekeeping = Housekeeping(
        app[STORE],
        app[CLOCK],
        delivery_retention=timedelta(days=app[SETTINGS].delivery_retention_days),
    )
    _start(app, housekeeping)
    yield
    await housekeeping.stop()


async def _stop_accepting(app: web.Application) -> None:
    app[STOPPED].began = app[CLOCK].now()
    # aiohttp now lets the requests under way finish, up to its shutdown timeout.
    app[STOPPED].deliveries = app[WEBHOOK].stop_accepting()


async def _webhook(request: web.Request) -> web.Response:
    return await request.app[WEBHOOK].handle(request)


async def _recovery(app: web.Application) -> AsyncIterator[None]:
    # After the webhook's own context: the redeliveries the first round asks for land at once.
    if app[BACKGROUND] and app[SETTINGS].recovery_enabled and app[SETTINGS].worker_enabled:
        await app[RECOVERER].schedule_now()
        app[EXECUTOR].wake()
    yield


async def _pages(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    oauth = app.get(OAUTH)
    sessions = (
        Sessions(
            oauth,
            app[CLOCK],
            max_age=settings.session_max_age_seconds,
            recheck_seconds=settings.session_recheck_seconds,
        )
        if oauth is not None
        else None
    )
    app[status_page.PAGES] = status_page.StatusPages(
        sessions=sessions,
        reader=StatusReader(app[STORE].engine),
        settings=settings,
        clock=app[CLOCK],
    )
    yield


def _start(app: web.Application, service: BackgroundService) -> None:
    """Start a background loop that /healthz watches."""
    service.start()
    app[LIVENESS].watch(service)


async def _healthz(request: web.Request) -> web.Response:
    return await probes.healthz(request.app[LIVENESS])


async def _readyz(request: web.Request) -> web.Response:
    return await probes.readyz(request.app[STORE])


async def _metrics(request: web.Request) -> web.Response:
    app = request.app
    return await probes.metrics(app[STORE], app[METRICS], app[CLOCK].now())
