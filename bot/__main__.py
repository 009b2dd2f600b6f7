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
from bot.app import SCHEDULER, STORE, create_app
from bot.classify import classify
from bot.digest.render import Part
from bot.evaluation import evaluate, replay_commits
from bot.logs import configure_logging
from bot.models import Digest
from bot.offline import OfflineError, offline_digest
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


def _eval(settings: Settings, args: argparse.Namespace) -> int:
    labels = Path(args.labels)
    try:
        lines = labels.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise MissingSetting(f"cannot read {labels}: {exc}") from None
    replay = None
    if args.replay:
        directory = Path(args.replay)
        if not directory.is_dir():
            raise MissingSetting(f"--replay must be a directory of replay days, not {directory}")
        replay = replay_commits(directory)
    language = args.lang or settings.default_language

    async def run() -> list[str]:
        async with open_analyzer(settings) as analyzer:
            report = await evaluate(analyzer, lines, replay=replay, language=language)
        return report.lines(show_disagreements=args.show_disagreements)

    text = "\n".join(asyncio.run(run())) + "\n"
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0


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
            await app[STORE].digests.reopen(repo.id, day)
            outcome = await app[SCHEDULER].publish_now(repo, day)
            return f"{outcome.state}" + (f": {outcome.url}" if outcome.url else "")
        finally:
            await runner.cleanup()

    print(f"commit-digest: {asyncio.run(run())}")
    return 0


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
    eval_cmd = commands.add_parser(
        "eval",
        help="score the configured analyser against labelled commits (JSON lines)",
    )
    eval_cmd.add_argument("labels", metavar="LABELS.jsonl")
    eval_cmd.add_argument(
        "--replay", default=None, metavar="DIR", help="look commits up by sha in these replay days"
    )
    eval_cmd.add_argument("--lang", choices=["en", "zh-CN"], default=None)
    eval_cmd.add_argument("--show-disagreements", action="store_true")
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
    "eval": _eval,
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
