"""Command line: parse arguments, build settings, run one command (each lives in `bot.cli`)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import NoReturn

import pydantic
import shtab

from bot.runtime.logs import configure_logging
from bot.settings import MissingSetting, Settings


def _load_settings() -> Settings:
    try:
        return Settings()
    except pydantic.ValidationError as exc:
        problems = "; ".join(
            f"{'_'.join(str(p) for p in err['loc']).upper()}: {err['msg']}" for err in exc.errors()
        )
        raise MissingSetting(f"invalid setting: {problems}") from None


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
`breaking` agreement, tokens; then the measures of the words. With LABELS.jsonl and --git
PATH, each label's commit is read from the clone by its `sha` (full commits: files, patches,
both sides), not from its title. Without labels, with
--replay DIR (every commit of the replay days) or --git PATH (every commit of a clone's
history but merges, with its patches; --range A..B or a branch, --since/--until to take
part of it): the measures of the words alone, per day or clone:
title echo, boilerplate, facts from the change, nothing to say, source files called
configuration, English in zh-CN (with --lang zh-CN), unsupported claims.

With --corrections OWNER/NAME: the maintainers' `/digest rate` corrections of that repository,
read from DATABASE_URL, printed as labels (sha, title, importance, repo, day, why), one JSON a
line: a labelled set to score an analyser against.

With --claims --git PATH: every checkable claim of the entries (in English) of the clone's
commits (--range A..B or a branch, --since/--until; or --replay DIR's commits) verified
against the clone at the commit and its parent; prints the false ones by kind, and totals
(checked, false, unverifiable). docs/claims.md gives the rules.
"""

_DIGEST_HELP = """\
Digests one day of a local git clone, with the App's own renderer and analysis (every
commit with its patches): no GitHub and no credentials. The commits are the first-parent
history of the branch whose committer date falls on the day in the zone. The settings are
the clone's `.github/commit-digest.yml` at the branch tip (zone, cutoff, language, exclude,
title); --tz, --cutoff and --lang override it, and the footer says where each came from.
--week YYYY-MM-DD prints the weekly roll-up of the week that holds that day instead.
"""

_PUBLISH_HELP = """\
Publishes one period of a repository now, in this process, with the scheduler's rules:
a posted period is not posted again, a failed one is tried again. --day YYYY-MM-DD is a
digest day; --week YYYY-MM-DD is the weekly roll-up of the week (per the repository's
`weekly:` weekday and cutoff) that holds that digest day: the week must have ended, and
must not have ended before the App first saw the repository. Prints published (with the
URL), addendum, skipped (nothing new to post) or not published (nothing to post). Waits,
saying so, while another process holds the period; exits 1 when it is still busy past the
wait, deferred or failed.
"""

_REGISTER_HELP = """\
Registers the GitHub App from its manifest (app.yml) with GitHub's manifest flow: serves a
page on 127.0.0.1 that sends the manifest to GitHub, where you confirm; GitHub sends the
browser back here with a code, exchanged at once for the App's id, private key, webhook
secret and OAuth client. Writes them to DIR/.env (GITHUB_APP_ID, GITHUB_WEBHOOK_SECRET,
GITHUB_PRIVATE_KEY_PATH, GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, and GITHUB_API_URL for
GitHub Enterprise Server) and the key to DIR/github-app.pem, both mode 0600, never over an
existing file unless --force; prints the address that installs the App.
"""


_MIGRATE_HELP = """\
Creates the database schema of DATABASE_URL, or brings an older one up to date (Alembic
migrations, applied in order), then exits. `serve` does the same on start; run `migrate`
first when several replicas share one PostgreSQL database, or to check a DATABASE_URL.
Safe to run again: an up-to-date schema is left as it is.
"""

_COMPLETION_HELP = """\
Prints a completion script generated from this command's own options:
  eval "$(commit-digest completion bash)"      in ~/.bashrc
  commit-digest completion zsh > "${fpath[1]}/_commit-digest"
"""

_SHELLS = ("bash", "zsh")


def _port(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535: argparse reports anything else in one line."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: 0 (any free one) to 65535")
    return port


def _version() -> str:
    try:
        return metadata.version("commit-digest")
    except metadata.PackageNotFoundError:  # run from a tree that was never installed
        return "unknown"


def _prog_name() -> str:
    """The name the user typed: the console script, or `python -m bot`."""
    invoked = os.path.basename(sys.argv[0]) if sys.argv else ""
    return "commit-digest" if invoked.startswith("commit-digest") else "python -m bot"


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line naming where help is, not the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=_prog_name(), description="Commit Digest: a daily digest of landed commits."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    completion_cmd = commands.add_parser(
        "completion",
        help="print the shell completion script (bash or zsh)",
        description=_COMPLETION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    completion_cmd.add_argument("shell", choices=list(_SHELLS))
    raw = argparse.RawDescriptionHelpFormatter
    commands.add_parser(
        "serve",
        help="run the GitHub App (webhook, job executor, scheduler)",
        description=_SERVE_HELP,
        formatter_class=raw,
    )
    commands.add_parser(
        "migrate",
        help="create or upgrade the database schema, then exit",
        description=_MIGRATE_HELP,
        formatter_class=raw,
    )
    classify_cmd = commands.add_parser(
        "classify",
        help="analyse commits: JSON lines on stdin, one analysis per line on stdout",
        description=_CLASSIFY_HELP,
        formatter_class=raw,
    )
    classify_cmd.add_argument(
        "--lang", choices=["en", "zh-CN"], default=None, help="default: DEFAULT_LANGUAGE (en)"
    )
    classify_cmd.add_argument(
        "--git",
        default=None,
        metavar="PATH",
        help="a local clone holding the commits: each changed file is read whole at the "
        "parent and at the commit (files and patches too, when a line gives none)",
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
        help="a local clone: with labels, each label's full commit (by sha); without, "
        "every commit of its history",
    )
    eval_cmd.add_argument(
        "--lang", choices=["en", "zh-CN"], default=None, help="default: DEFAULT_LANGUAGE (en)"
    )
    eval_cmd.add_argument("--show-disagreements", action="store_true")
    eval_cmd.add_argument(
        "--corrections",
        default=None,
        metavar="OWNER/NAME",
        help="print the repository's `/digest rate` corrections (the database of DATABASE_URL) "
        "as labels, one JSON a line, instead of scoring",
    )
    eval_cmd.add_argument(
        "--show-words", action="store_true", help="print a few offending texts per measure"
    )
    eval_cmd.add_argument(
        "--claims",
        action="store_true",
        help="verify each claim of the entries against the --git clone (docs/claims.md)",
    )
    eval_cmd.add_argument(
        "--range", default=None, metavar="REVS", help="with --git: A..B or a branch (HEAD)"
    )
    eval_cmd.add_argument("--since", default=None, metavar="DATE", help="with --git")
    eval_cmd.add_argument("--until", default=None, metavar="DATE", help="with --git")
    eval_cmd.add_argument(
        "--show-unverifiable", action="store_true", help="with --claims: list each one"
    )
    digest_cmd = commands.add_parser(
        "digest",
        help="the offline digest of a local git clone (no GitHub, no credentials)",
        description=_DIGEST_HELP,
        formatter_class=raw,
    )
    digest_cmd.add_argument(  # type: ignore[attr-defined]
        "--git", required=True, metavar="PATH", help="a local git clone"
    ).complete = shtab.DIRECTORY
    digest_cmd.add_argument("--branch", default=None, help="default: the checked-out branch")
    digest_period = digest_cmd.add_mutually_exclusive_group()
    digest_period.add_argument(
        "--day",
        default=None,
        metavar="YYYY-MM-DD",
        help="default: the latest day with commits on the branch",
    )
    digest_period.add_argument(
        "--week",
        default=None,
        metavar="YYYY-MM-DD",
        help="the weekly roll-up of the week (per the file's `weekly:`) that holds this day",
    )
    digest_cmd.add_argument(
        "--tz",
        default=None,
        metavar="ZONE",
        help="IANA time zone of the day (default: the file's `timezone`, else UTC)",
    )
    digest_cmd.add_argument(
        "--cutoff",
        default=None,
        metavar="HH:MM",
        help="when the day ends (default: the file's `cutoff`, else 00:00)",
    )
    digest_cmd.add_argument(
        "--lang",
        choices=["en", "zh-CN"],
        default=None,
        help="default: the file's `language`, else DEFAULT_LANGUAGE (en)",
    )
    digest_cmd.add_argument(
        "--repo",
        default=None,
        metavar="OWNER/NAME",
        help="the GitHub repository, for its name and commit links "
        "(default: read from the clone's GitHub origin)",
    )
    digest_cmd.add_argument(  # type: ignore[attr-defined]
        "--out",
        default=None,
        metavar="FILE",
        help="write here, in UTF-8 (default: stdout, as does -)",
    ).complete = shtab.FILE
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
    register_cmd = commands.add_parser(
        "register",
        help="register the GitHub App from app.yml (GitHub's manifest flow) and write its .env",
        description=_REGISTER_HELP,
        formatter_class=raw,
    )
    register_cmd.add_argument(
        "--org", default=None, help="register it for this organisation (default: your account)"
    )
    register_cmd.add_argument(
        "--github-url",
        default="https://github.com",
        metavar="URL",
        help="github.com (default) or a GitHub Enterprise Server, e.g. https://github.example.com",
    )
    register_cmd.add_argument(
        "--webhook-url",
        default=None,
        metavar="URL",
        help="where GitHub sends webhooks: https://HOST/webhook, or a forwarder's address "
        "(default: app.yml's)",
    )
    register_cmd.add_argument(
        "--out-dir", default=".", metavar="DIR", help="where .env and the key go (default: .)"
    )
    register_cmd.add_argument(
        "--force", action="store_true", help="overwrite an existing .env or key"
    )
    register_cmd.add_argument(
        "--port",
        type=_port,
        default=0,
        help="the local page's port on 127.0.0.1 (default: any free one)",
    )
    register_cmd.add_argument(
        "--no-browser", action="store_true", help="print the page's address, do not open it"
    )
    return parser


def _run(settings: Settings, args: argparse.Namespace) -> int:
    # each command's module is imported when it runs: a digest does not load the web app,
    # the store or the claims checker (a second of CPU a run)
    match args.command:
        case "serve":
            from bot.cli import serve

            return serve.serve(settings)
        case "migrate":
            from bot.cli import serve

            return serve.migrate(settings)
        case "classify":
            from bot.cli import classify

            return classify.command(settings, lang=args.lang, clone=args.git)
        case "eval" if args.corrections:
            from bot.cli import corrections

            return corrections.command(settings, args.corrections)
        case "eval" if args.claims:
            from bot.cli import claims_eval

            if args.labels is not None:
                raise MissingSetting("--claims checks an analyser's own text: drop LABELS.jsonl")
            if args.lang not in (None, "en"):
                raise MissingSetting("--claims reads the claims of English entries: drop --lang")
            return claims_eval.command(
                settings,
                clone=args.git,
                replay=args.replay,
                revisions=args.range,
                since=args.since,
                until=args.until,
                show_unverifiable=args.show_unverifiable,
            )
        case "eval" if args.show_unverifiable:
            raise MissingSetting("--show-unverifiable goes with --claims")
        case "eval" if (args.range or args.since or args.until) and (
            args.git is None or args.labels is not None
        ):
            raise MissingSetting("--range, --since and --until go with --git (without labels)")
        case "eval":
            from bot.cli import evaluation

            return evaluation.command(
                settings,
                labels=args.labels,
                replay=args.replay,
                clone=args.git,
                revisions=args.range,
                since=args.since,
                until=args.until,
                lang=args.lang,
                show_disagreements=args.show_disagreements,
                show_words=args.show_words,
            )
        case "digest":
            from bot.cli import offline

            return offline.command(
                settings,
                clone=args.git,
                branch=args.branch,
                day=args.day,
                tz=args.tz,
                lang=args.lang,
                repo=args.repo,
                out=args.out,
                cutoff=args.cutoff,
                week=args.week,
            )
        case "register":
            from bot.cli import register

            return register.command(
                org=args.org,
                github_url=args.github_url,
                webhook_url=args.webhook_url,
                out_dir=args.out_dir,
                force=args.force,
                port=args.port,
                open_browser=not args.no_browser,
            )
        case "publish":
            from bot.cli import publish

            return publish.command(settings, repo=args.repo, day=args.day, week=args.week)
    raise AssertionError(f"no command {args.command}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "completion":
        # Needs no settings: it is run from a shell's start-up file. It completes the console
        # script's name, whichever way it was generated.
        parser.prog = "commit-digest"
        print(shtab.complete(parser, shell=args.shell), end="")
        return 0
    try:
        settings = _load_settings()
        configure_logging(fmt=settings.log_format, level=settings.log_level)
        return _run(settings, args)
    except MissingSetting as exc:
        print(f"commit-digest: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
