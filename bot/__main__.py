"""Command line: parse arguments, build settings, run one command."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pydantic
from aiohttp import web

from bot.analysis.factory import open_analyzer
from bot.app import EXECUTOR, PUBLISHER, SCHEDULER, STORE, create_app
from bot.classify import classify
from bot.digest.render import Part
from bot.jobs.kinds import JobKind, JobState
from bot.jobs.publish_period import publish_key
from bot.logs import configure_logging
from bot.models import Digest
from bot.offline import OfflineError, offline_digest
from bot.settings import MissingSetting, Settings
from bot.store import Store
from bot.store.digests import Period


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
    # Within Kubernetes' 30 s grace: 10 s for requests, then the executor's short grace.
    web.run_app(app, host=settings.host, port=settings.port, print=None, shutdown_timeout=10.0)
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


def _day(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise MissingSetting(f"--day must be YYYY-MM-DD, not {value!r}") from None


def _digest(settings: Settings, args: argparse.Namespace) -> int:
    day = _day(args.day)
    try:
        ZoneInfo(args.tz)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise MissingSetting(
            f"--tz must be an IANA time zone such as Asia/Shanghai, not {args.tz!r}"
        ) from None
    language = args.lang or settings.default_language

    async def run() -> tuple[Digest, list[Part]]:
        async with open_analyzer(settings) as analyzer:
            return await offline_digest(
                Path(args.git),
                analyzer,
                branch=args.branch,
                day=day,
                timezone=args.tz,
                language=language,
            )

    try:
        digest, parts = asyncio.run(run())
    except OfflineError as exc:
        print(f"commit-digest: {exc}", file=sys.stderr)
        return 2
    text = "\n\n".join(part.body for part in parts) + "\n"
    # Always UTF-8, whatever the terminal's locale: Chinese digests must not turn to mojibake.
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    print(
        f"commit-digest: {len(digest.commits)} commits of {digest.day} in {digest.repo}"
        + (f", {len(parts)} posts" if len(parts) > 1 else ""),
        file=sys.stderr,
    )
    return 0


def _publish(settings: Settings, args: argparse.Namespace) -> int:
    settings.require_github()
    day = _day(args.day)
    assert day is not None

    async def run() -> str:
        runner = web.AppRunner(create_app(settings, background=False))
        await runner.setup()  # runs the app's cleanup contexts: store, GitHub, scheduler
        try:
            app = runner.app
            repo = await app[STORE].repos.by_name(args.repo)
            if repo is None:
                raise MissingSetting(
                    f"the App has not seen {args.repo}: install it there and push, then retry"
                )
            store = app[STORE]
            period = Period.day(day)
            key = publish_key(repo.id, period)
            await app[SCHEDULER].publish_now(repo, day)
            await app[EXECUTOR].drain()
            job = await store.jobs.get(JobKind.PUBLISH_PERIOD, key)
            if job is not None and job.state == JobState.RUNNING:
                return "busy"  # another replica is publishing it right now
            record = await store.digests.get(repo.id, period)
            if job is not None and job.state == JobState.FAILED:
                state = "failed"
            elif key in app[PUBLISHER].done_here:
                state = app[PUBLISHER].done_here[key]
            else:
                state = "skipped" if record is not None else "not published"
            head = (await store.posts.recorded(repo.id, period.key)).get("part-1")
            return f"{state}" + (f": {head.url}" if head is not None and head.url else "")
        finally:
            await runner.cleanup()

    print(f"commit-digest: {asyncio.run(run())}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Commit Digest: a daily digest of landed commits."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="run the GitHub App (webhook, job executor, scheduler)")
    commands.add_parser("migrate", help="create or upgrade the database schema, then exit")
    classify_cmd = commands.add_parser(
        "classify",
        help="analyse commits: JSON lines on stdin, one analysis per line on stdout",
    )
    classify_cmd.add_argument("--lang", choices=["en", "zh-CN"], default=None)
    digest_cmd = commands.add_parser(
        "digest", help="the offline digest of a local git clone (no GitHub, no credentials)"
    )
    digest_cmd.add_argument("--git", required=True, metavar="PATH", help="a local git clone")
    digest_cmd.add_argument("--branch", default=None, help="default: the checked-out branch")
    digest_cmd.add_argument(
        "--day", default=None, metavar="YYYY-MM-DD", help="default: the latest day with commits"
    )
    digest_cmd.add_argument("--tz", default="UTC", metavar="ZONE", help="IANA time zone of the day")
    digest_cmd.add_argument("--lang", choices=["en", "zh-CN"], default=None)
    digest_cmd.add_argument("--out", default=None, metavar="FILE", help="default: stdout")
    publish_cmd = commands.add_parser(
        "publish",
        help="render and publish a repository's day now (exactly once, like the scheduler)",
    )
    publish_cmd.add_argument("--repo", required=True, metavar="OWNER/NAME")
    publish_cmd.add_argument("--day", required=True, metavar="YYYY-MM-DD")
    return parser


_COMMANDS = {
    "serve": _serve,
    "migrate": _migrate,
    "classify": _classify,
    "digest": _digest,
    "publish": _publish,
}


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
