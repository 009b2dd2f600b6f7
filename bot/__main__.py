"""Command line: parse arguments, build settings, run one command."""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pydantic
from aiohttp import web
from sqlalchemy.engine import make_url

from bot.analysis.cost import Prices
from bot.analysis.factory import open_analyzer
from bot.app import (
    ANALYZER,
    CLOCK,
    EXECUTOR,
    PUBLISHER,
    SCHEDULER,
    SETTINGS,
    STORE,
    WEEKLY,
    create_app,
    open_store,
)
from bot.classify import classify
from bot.digest.render import Part
from bot.evaluation import (
    analyse_all,
    evaluate,
    git_history,
    replay_commits,
    replay_days,
    word_lines,
)
from bot.jobs.kinds import JobKind, JobState
from bot.jobs.publish_period import publish_key
from bot.logs import configure_logging, get_logger
from bot.models import Digest
from bot.offline import OfflineError, checked_repo_name, offline_digest
from bot.settings import MissingSetting, Settings
from bot.store.digests import Period
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)


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
        log.info(
            "serve_listening",
            address=f"http://{settings.host}:{settings.port}",
            store=describe_store(settings.database_url),
            analyzer=app[ANALYZER].name,
        )

    app.on_startup.append(announce)
    # On SIGTERM aiohttp stops accepting, lets in-flight requests finish, then runs the
    # cleanup contexts in reverse: background work is released and the store closed.
    # Within Kubernetes' 30 s grace: 10 s for requests, then the executor's short grace.
    web.run_app(app, sock=sock, print=None, shutdown_timeout=10.0)
    return 0


def describe_store(database_url: str) -> str:
    """The store for a log line: its engine and where, never a password."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        return f"sqlite {url.database}"
    return f"postgresql {url.host or 'localhost'}:{url.port or 5432}/{url.database or ''}"


def _migrate(settings: Settings, _args: argparse.Namespace) -> int:
    async def run() -> None:
        store = await open_store(settings.database_url)
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
    if args.labels is None and args.replay is None and args.git is None:
        raise MissingSetting("eval needs LABELS.jsonl, --replay DIR or --git PATH")
    if args.labels is not None and args.git is not None:
        raise MissingSetting("--git measures a clone's history without labels; drop LABELS.jsonl")
    lines: list[str] = []
    if args.labels is not None:
        labels = Path(args.labels)
        try:
            lines = labels.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise MissingSetting(f"cannot read {labels}: {exc}") from None
    replay = None
    commits = []
    if args.replay:
        directory = Path(args.replay)
        if not directory.exists():
            raise MissingSetting(f"--replay must be a directory of replay days, not {directory}")
        if args.labels is None:
            commits = replay_days(directory)
        else:
            replay = replay_commits(directory)
    if args.git is not None:
        try:
            commits = git_history(Path(args.git))
        except OfflineError as exc:
            raise MissingSetting(f"--git {args.git}: {exc}") from None
    language = args.lang or settings.default_language

    async def run() -> list[str]:
        async with open_analyzer(settings) as analyzer:
            if args.labels is None:
                entries = await analyse_all(analyzer, commits, language=language)
                words = word_lines(entries, show_examples=args.show_words)
                return [f"analyser: {analyzer.name}", f"commits: {len(entries)}", *words]
            report = await evaluate(
                analyzer,
                lines,
                replay=replay,
                language=language,
                prices=Prices.from_settings(settings),
            )
        return report.lines(show_disagreements=args.show_disagreements) + word_lines(
            report.entries, show_examples=args.show_words
        )

    text = "\n".join(asyncio.run(run())) + "\n"
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0


# Days the date arithmetic of a zone's day can hold, with margin for any offset.
_FIRST_DAY, _LAST_DAY = date(1900, 1, 1), date(9998, 12, 31)


def _day(value: str | None, *, flag: str = "--day") -> date | None:
    if value is None:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise MissingSetting(f"{flag} must be YYYY-MM-DD, not {value!r}") from None
    if not _FIRST_DAY <= day <= _LAST_DAY:
        raise MissingSetting(f"{flag} must be between {_FIRST_DAY} and {_LAST_DAY}, not {value}")
    return day


def _writable(out: str | None) -> Path | None:
    """Check `--out` before any work is done: its folder exists and it is not a folder."""
    if out is None:
        return None
    path = Path(out)
    if path.is_dir():
        raise MissingSetting(f"--out {out} is a directory; give a file name inside it")
    if not path.parent.is_dir():
        raise MissingSetting(f"--out {out}: the directory {path.parent} does not exist")
    return path


def _digest(settings: Settings, args: argparse.Namespace) -> int:
    day = _day(args.day)
    try:
        ZoneInfo(args.tz)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise MissingSetting(
            f"--tz must be an IANA time zone such as Asia/Shanghai, not {args.tz!r}"
        ) from None
    try:
        repo = checked_repo_name(args.repo) if args.repo else None
    except ValueError as exc:
        raise MissingSetting(str(exc)) from None
    out = _writable(args.out)
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
                repo=repo,
            )

    try:
        digest, parts = asyncio.run(run())
    except OfflineError as exc:
        print(f"commit-digest: {exc}", file=sys.stderr)
        return 2
    text = "\n\n".join(part.body for part in parts) + "\n"
    # Always UTF-8, whatever the terminal's locale: Chinese digests must not turn to mojibake.
    if out is not None:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise MissingSetting(f"--out {out}: cannot write it: {exc.strerror}") from None
    else:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    if not any(c.url for c in digest.commits) and digest.commits:
        print(
            "commit-digest: the clone has no GitHub origin, so commits are not linked; "
            "pass --repo OWNER/NAME",
            file=sys.stderr,
        )
    print(
        f"commit-digest: {len(digest.commits)} commits of {digest.day} in {digest.repo}"
        + (f", {len(parts)} posts" if len(parts) > 1 else ""),
        file=sys.stderr,
    )
    return 0


async def _seen(app: web.Application, repo_name: str) -> RepoRow:
    repo = await app[STORE].repos.by_name(repo_name)
    if repo is None:
        raise MissingSetting(
            f"the App has not seen {repo_name}: install it there and push, then retry"
        )
    return repo


async def publish_day(app: web.Application, repo_name: str, day: date) -> tuple[str, str | None]:
    """Publish the day now, in this process, and say how it went and where its post is."""
    repo = await _seen(app, repo_name)
    await app[SCHEDULER].publish_now(repo, day)
    period, done_here = Period.day(day), app[PUBLISHER].done_here
    return await _run_now(app, repo, JobKind.PUBLISH_PERIOD, period, done_here)


async def publish_week(app: web.Application, repo_name: str, day: date) -> tuple[str, str | None]:
    """Publish the roll-up of the week that holds digest day `day` now, in this process, and
    say how it went and where its post is."""
    repo = await _seen(app, repo_name)
    config = config_of(repo.config, app[SETTINGS].default_language)
    if not config.weekly.enabled:
        raise MissingSetting(
            f"{repo_name} has no weekly roll-up: its .github/commit-digest.yml does not set "
            "weekly: {enabled: true}"
        )
    try:
        week = config.week_schedule.week_of_day(day)
    except (StopIteration, ValueError):
        # A date its zone skipped (Samoa's 2011-12-30) can leave no weekly cutoff in reach.
        raise MissingSetting(
            f"no roll-up week holds {day} in {config.timezone}: pick another day of it"
        ) from None
    span = f"the week {week.first} to {week.last}"
    if app[CLOCK].now() < week.due:
        raise MissingSetting(
            f"{span} has not ended: its roll-up is due at "
            f"{week.due.isoformat(sep=' ', timespec='minutes')}"
        )
    if week.end <= repo.active_since:
        # The scheduler's rule too: the App has none of its commits, so nothing to roll up.
        raise MissingSetting(
            f"{span} ended before the App first saw {repo_name} "
            f"({repo.active_since.isoformat(sep=' ', timespec='minutes')}): no roll-up for it"
        )
    # Under an earlier `weekly:` weekday the weeks were other days: one posted then that
    # shares days with this one already counts them.
    starts = await app[STORE].digests.published_starts(
        repo.id, "week", week.first - timedelta(days=len(week.days) - 1), week.last
    )
    posted = [s for s in starts if s != week.first]
    if posted:
        raise MissingSetting(
            f"{span} overlaps the roll-up posted for {posted[0]} to "
            f"{posted[0] + timedelta(days=len(week.days) - 1)} (before `weekly:` moved its "
            "weekday): its days are not rolled up twice"
        )
    await app[SCHEDULER].publish_week_now(repo, week)
    period, done_here = Period.week(week.first), app[WEEKLY].done_here
    return await _run_now(app, repo, JobKind.PUBLISH_WEEK, period, done_here)


async def _run_now(
    app: web.Application, repo: RepoRow, kind: JobKind, period: Period, done_here: dict[str, str]
) -> tuple[str, str | None]:
    """Run the period's publication, just armed, here; say how it went and where its post is."""
    store = app[STORE]
    key = publish_key(repo.id, period)
    done_here.pop(key, None)  # an earlier run in this process is not this one
    for _ in range(3):
        await app[EXECUTOR].drain()
        job = await store.jobs.get(kind, key)
        # Pending and due: another replica held the job when this one asked, and it was armed
        # to run once more when that run ended. Run it here rather than report "deferred".
        if job is None or job.state != JobState.PENDING or job.not_before > app[CLOCK].now():
            break
    if job is not None and job.state == JobState.RUNNING:
        return "busy", None  # another replica is publishing it right now
    record = await store.digests.get(repo.id, period)
    if job is not None and job.state == JobState.FAILED:
        state = "failed"
    elif key in done_here:
        state = done_here[key]
    elif job is not None and job.state == JobState.PENDING:
        state = "deferred"  # GitHub failed it or limited it: the job tries again later
    else:
        state = "skipped" if record is not None else "not published"
    head = (await store.posts.recorded(repo.id, period.key)).get("part-1")
    return state, head.url if head is not None and head.url else None


def _publish(settings: Settings, args: argparse.Namespace) -> int:
    settings.require_github()
    week = args.week is not None
    day = _day(args.week, flag="--week") if week else _day(args.day)
    assert day is not None
    publish = publish_week if week else publish_day

    async def run() -> tuple[str, str | None]:
        runner = web.AppRunner(create_app(settings, background=False))
        await runner.setup()  # runs the app's cleanup contexts: store, GitHub, scheduler
        try:
            return await publish(runner.app, args.repo, day)
        finally:
            await runner.cleanup()

    state, url = asyncio.run(run())
    if state in ("deferred", "failed"):
        # A script must see that nothing was posted; the log line above says why.
        print(f"commit-digest: {state}: not posted (the log says why; run it again later)")
        return 1
    print(f"commit-digest: {state}" + (f": {url}" if url else ""))
    return 0


_SERVE_HELP = """\
Runs the GitHub App: POST /webhook, GET /healthz, /readyz and /metrics, the job executor
and the scheduler that posts each day's digest at the repository's cutoff.

Needs, from the environment:
  GITHUB_APP_ID            the App's id (or client id)
  GITHUB_PRIVATE_KEY       its private key, PEM text (or GITHUB_PRIVATE_KEY_PATH: a file)
  GITHUB_WEBHOOK_SECRET    the webhook secret
Optional (default):
  DATABASE_URL             sqlite:///./commit-digest.db, or postgresql://user@host/db
  HOST, PORT               0.0.0.0, 8080
  LLM_BASE_URL             unset: the rules analyser; set: an OpenAI-compatible server
                           (LLM_API_KEY, LLM_MODEL gpt-4o-mini)
  LOG_FORMAT, LOG_LEVEL    json, INFO
README.md lists every setting.
"""

_CLASSIFY_HELP = """\
Reads JSON lines on stdin, one commit a line: GitHub's "get a commit" answer
(gh api repos/OWNER/REPO/commits/SHA | jq -c .) or simply
{"sha": "...", "message": "...", "files": [{"filename": "...", "additions": 1, ...}]}.
Writes one analysis JSON a line on stdout, in input order; a line that is not a commit
gets {"line": N, "error": "..."} and the exit status is 1. Uses the LLM when LLM_BASE_URL
is set, else the rules.
"""

_EVAL_HELP = """\
Score the configured analyser (the rules, or the LLM when LLM_BASE_URL is set).

With LABELS.jsonl: importance agreement, the confusion table, high recall, type and
`breaking` agreement, tokens; then the measures of the words. Without labels, with
--replay DIR (every commit of the replay days) or --git PATH (every commit of a clone's
history but merges, with its patches): the measures of the words alone, per day or clone:
title echo, boilerplate, facts from the change, nothing to say, source files called
configuration, English in zh-CN (with --lang zh-CN), unsupported claims.
"""

_DIGEST_HELP = """\
Digests one day of a local git clone, with the App's own renderer: no GitHub and no
credentials. The commits are the first-parent history of the branch whose committer date
falls on the day in the zone.
"""

_PUBLISH_HELP = """\
Publishes one period of a repository now, in this process, with the scheduler's rules:
a posted period is not posted again, a failed one is tried again. --day YYYY-MM-DD is a
digest day; --week YYYY-MM-DD is the weekly roll-up of the week (per the repository's
`weekly:` weekday and cutoff) that holds that digest day: the week must have ended, and
must not have ended before the App first saw the repository. Prints published (with the
URL), skipped (nothing new to post) or busy; exits 1 when deferred or failed.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Commit Digest: a daily digest of landed commits."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    raw = argparse.RawDescriptionHelpFormatter
    commands.add_parser(
        "serve",
        help="run the GitHub App (webhook, job executor, scheduler)",
        description=_SERVE_HELP,
        formatter_class=raw,
    )
    commands.add_parser("migrate", help="create or upgrade the database schema, then exit")
    classify_cmd = commands.add_parser(
        "classify",
        help="analyse commits: JSON lines on stdin, one analysis per line on stdout",
        description=_CLASSIFY_HELP,
        formatter_class=raw,
    )
    classify_cmd.add_argument(
        "--lang", choices=["en", "zh-CN"], default=None, help="default: DEFAULT_LANGUAGE (en)"
    )
    eval_cmd = commands.add_parser(
        "eval",
        help="score the configured analyser against labelled commits (JSON lines), and its words",
        description=_EVAL_HELP,
        formatter_class=raw,
    )
    eval_cmd.add_argument("labels", metavar="LABELS.jsonl", nargs="?", default=None)
    eval_cmd.add_argument(
        "--replay",
        default=None,
        metavar="DIR",
        help="replay days (a folder, or one day file): labels look commits up by sha in them; "
        "without labels every commit is measured",
    )
    eval_cmd.add_argument(
        "--git",
        default=None,
        metavar="PATH",
        help="measure every commit of a local clone's history (no labels)",
    )
    eval_cmd.add_argument(
        "--lang", choices=["en", "zh-CN"], default=None, help="default: DEFAULT_LANGUAGE (en)"
    )
    eval_cmd.add_argument("--show-disagreements", action="store_true")
    eval_cmd.add_argument(
        "--show-words", action="store_true", help="print a few offending texts per measure"
    )
    digest_cmd = commands.add_parser(
        "digest",
        help="the offline digest of a local git clone (no GitHub, no credentials)",
        description=_DIGEST_HELP,
        formatter_class=raw,
    )
    digest_cmd.add_argument("--git", required=True, metavar="PATH", help="a local git clone")
    digest_cmd.add_argument("--branch", default=None, help="default: the checked-out branch")
    digest_cmd.add_argument(
        "--day",
        default=None,
        metavar="YYYY-MM-DD",
        help="default: the latest day with commits on the branch",
    )
    digest_cmd.add_argument(
        "--tz", default="UTC", metavar="ZONE", help="IANA time zone of the day (default: UTC)"
    )
    digest_cmd.add_argument(
        "--lang", choices=["en", "zh-CN"], default=None, help="default: DEFAULT_LANGUAGE (en)"
    )
    digest_cmd.add_argument(
        "--repo",
        default=None,
        metavar="OWNER/NAME",
        help="the GitHub repository, for its name and commit links "
        "(default: read from the clone's GitHub origin)",
    )
    digest_cmd.add_argument(
        "--out", default=None, metavar="FILE", help="write here, in UTF-8 (default: stdout)"
    )
    publish_cmd = commands.add_parser(
        "publish",
        help="render and publish a repository's day or weekly roll-up now "
        "(exactly once, like the scheduler)",
        description=_PUBLISH_HELP,
        formatter_class=raw,
    )
    publish_cmd.add_argument("--repo", required=True, metavar="OWNER/NAME")
    period = publish_cmd.add_mutually_exclusive_group(required=True)
    period.add_argument("--day", metavar="YYYY-MM-DD", help="the digest day to publish")
    period.add_argument(
        "--week",
        metavar="YYYY-MM-DD",
        help="any digest day of the roll-up week to publish (its weeks follow `weekly:`)",
    )
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
