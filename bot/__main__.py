"""Command line: parse arguments, build settings, run one command."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

import pydantic
from aiohttp import web

from bot.analysis.factory import open_analyzer
from bot.app import create_app
from bot.classify import classify
from bot.logs import configure_logging
from bot.settings import MissingSetting, Settings
from bot.store import Store


def _load_settings() -> Settings:
    try:
        return Settings()
    except pydantic.ValidationError as exc:
        problems = "; ".join(
            f"{'_'.join(str(p) for p in err['loc']).upper()}: {err['msg']}" for err in exc.errors()
        )
        raise MissingSetting(f"invalid setting: {problems}") from None


def _serve(settings: Settings, _args: argparse.Namespace) -> int:
    settings.require_github()
    app = create_app(settings)
    # On SIGTERM aiohttp stops accepting, lets in-flight requests finish, then runs the
    # cleanup contexts in reverse: background work is released and the store closed.
    web.run_app(app, host=settings.host, port=settings.port, print=None, shutdown_timeout=20.0)
    return 0


def _migrate(settings: Settings, _args: argparse.Namespace) -> int:
    async def run() -> None:
        store = await Store.open(settings.database_url)
        await store.close()

    asyncio.run(run())
    print("schema is up to date")
    return 0


def _classify(settings: Settings, args: argparse.Namespace) -> int:
    language = args.lang or settings.default_language

    async def run() -> int:
        async with open_analyzer(settings) as analyzer:
            return await classify(analyzer, sys.stdin, sys.stdout, language=language)

    bad = asyncio.run(run())
    if bad:
        print(
            f"commit-digest: {bad} line(s) could not be analysed (see their error objects)",
            file=sys.stderr,
        )
    return 1 if bad else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Commit Digest: a daily digest of landed commits."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="run the GitHub App (webhook, worker, scheduler)")
    commands.add_parser("migrate", help="create or upgrade the database schema, then exit")
    classify_cmd = commands.add_parser(
        "classify",
        help="analyse commits: JSON lines on stdin, one analysis per line on stdout",
    )
    classify_cmd.add_argument("--lang", choices=["en", "zh-CN"], default=None)
    return parser


_COMMANDS = {"serve": _serve, "migrate": _migrate, "classify": _classify}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = _load_settings()
        configure_logging(fmt=settings.log_format, level=settings.log_level)
        return _COMMANDS[args.command](settings, args)
    except MissingSetting as exc:
        print(f"commit-digest: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
