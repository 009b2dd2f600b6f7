"""`serve`: the App on its port until stopped; `migrate`: the schema brought up to date."""

from __future__ import annotations

import asyncio
import socket

from aiohttp import web
from sqlalchemy.engine import make_url

from bot.app import ANALYZER, CLOCK, STOPPED, create_app, open_store
from bot.runtime.logs import get_logger
from bot.settings import MissingSetting, Settings

log = get_logger(__name__)


def serve(settings: Settings) -> int:
    settings.require_github()
    app = create_app(settings)
    # Bound here so that a taken port is one line, and so that the line below is true: the
    # socket listens (connections wait in its backlog) before the App has even started.
    try:
        family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
        sock = socket.create_server((settings.host, settings.port), family=family)
    except OSError as exc:
        raise MissingSetting(
            f"HOST/PORT: cannot listen on {settings.host}:{settings.port}: {exc.strerror}"
        ) from None

    async def announce(app: web.Application) -> None:
        address = f"http://{settings.host}:{settings.port}"
        log.info(
            "serve_listening",
            address=address,
            # Where the App's webhook URL on GitHub (or a forwarder such as smee's client)
            # must deliver: this process answers webhooks on this path only.
            webhook=f"{address}/webhook",
            store=describe_store(settings.database_url),
            analyzer=app[ANALYZER].name,
        )

    app.on_startup.append(announce)
    # On SIGTERM aiohttp stops accepting, lets in-flight requests finish, then runs the
    # cleanup contexts in reverse: background work is released and the store closed.
    # Within Kubernetes' 30 s grace: 10 s for requests, then the executor's short grace.
    web.run_app(app, sock=sock, print=None, shutdown_timeout=10.0)
    log.info("serve_stopped", **app[STOPPED].summary(app[CLOCK].now()))
    return 0


def describe_store(database_url: str) -> str:
    """The store for a log line: its engine and where, never a password."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        return f"sqlite {url.database}"
    return f"postgresql {url.host or 'localhost'}:{url.port or 5432}/{url.database or ''}"


def migrate(settings: Settings) -> int:
    async def run() -> None:
        store = await open_store(settings.database_url)
        await store.close()

    asyncio.run(run())
    print("schema is up to date")
    return 0
