"""Reference webhook handlers for the ingest benchmark: the ceiling and the floor any App pays.

python -m bench.reference_server --mode bare   --port 9001   # read the body, answer 202
python -m bench.reference_server --mode verify --port 9002   # + gidgethub verify and parse
"""

from __future__ import annotations

import argparse

from aiohttp import web
from gidgethub import ValidationFailure, sansio


def build(mode: str, secret: str) -> web.Application:
    async def bare(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(status=202)

    async def verify(request: web.Request) -> web.Response:
        body = await request.read()
        try:
            event = sansio.Event.from_http(request.headers, body, secret=secret)
        except ValidationFailure:
            return web.Response(status=401)
        if not isinstance(event.data, dict):
            return web.Response(status=400)
        return web.Response(status=202)

    async def ready(_: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application(client_max_size=25 * 1024 * 1024)
    app.router.add_post("/webhook", bare if mode == "bare" else verify)
    # The probes the App answers, so one wait (`tests.processes.wait_healthy`) fits all targets.
    app.router.add_get("/healthz", ready)
    app.router.add_get("/readyz", ready)
    return app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["bare", "verify"], required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret", default="bench-secret")
    args = parser.parse_args()
    web.run_app(
        build(args.mode, args.secret), host="127.0.0.1", port=args.port, print=None, access_log=None
    )


if __name__ == "__main__":
    main()
