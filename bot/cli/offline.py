"""The offline digest of a local git clone: no GitHub, no credentials, the App's own renderer.

Commits are the first-parent history of a branch whose committer date falls on the day (in
the repository's zone); files, stats and patches come from git against the first parent,
shaped like GitHub's "get a commit" answer, so every analyser sees what it sees online. The
settings are the clone's own `.github/commit-digest.yml` at the branch tip, with the command
line's flags over it.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.analysis import Analyzer
from bot.analysis.factory import open_analyzer, open_narrator
from bot.cli import offline_week
from bot.cli.arguments import day_value, writable
from bot.cli.clone import (
    checked_repo_name,
    commits_between,
    latest_commit_time,
    repo_identity,
    resolve_branch,
    unresolved,
)
from bot.cli.clone_analysis import analyse
from bot.cli.clone_config import CloneSettings, Flags, clone_settings
from bot.cli.git import CloneError
from bot.digest.render import Part, render
from bot.digest.strings import catalogue
from bot.digest.synthesis import named
from bot.models import Digest, SettingsSources
from bot.repo_config import RepoConfig, default_config, parse_cutoff
from bot.settings import MissingSetting, Settings

__all__ = ["CloneError", "command", "offline_digest"]


def _latest_day(path: Path, branch: str, config: RepoConfig) -> date:
    latest = latest_commit_time(path, branch)
    if latest is None:
        raise CloneError(f"branch {branch} has no commits")
    try:
        day = config.schedule.day_of(latest)
        config.schedule.window(day)
    except OverflowError:
        # A committer clock set to the year 9999: no day around it can be computed.
        raise CloneError(
            f"the latest commit on {branch} is dated {latest:%Y-%m-%d}, past the last day a "
            "digest can cover; pass --day YYYY-MM-DD"
        ) from None
    return day


async def offline_digest(
    path: Path,
    analyzer: Analyzer,
    *,
    branch: str | None = None,
    day: date | None = None,
    config: RepoConfig | None = None,
    repo: str | None = None,
    settings_from: SettingsSources | None = None,
    now: datetime | None = None,
) -> tuple[Digest, list[Part]]:
    """The digest of a local clone's day, rendered as the App would post it; a day not over
    at `now` says so in its footer."""
    branch = resolve_branch(path, branch)
    config = config or default_config()
    if day is None:
        day = _latest_day(path, branch, config)
    start, end = config.schedule.window(day)
    now = now or datetime.now(UTC)
    if settings_from is not None and now < end:
        settings_from = replace(settings_from, so_far=offline_week.local_time(now, config.timezone))
    name, url_prefix = repo_identity(path, repo)
    found = await analyse(
        path,
        commits_between(path, branch, start, end),
        analyzer,
        repo=name,
        url_prefix=url_prefix,
        config=config,
    )
    language = config.language
    digest = Digest(
        repo=name,
        day=day,
        language=language,
        timezone=config.timezone,
        cutoff=config.schedule.cutoff,
        title=config.publish.title_for(
            name, day, language=language, default=catalogue(language).digest.default_title
        ),
        commits=tuple(found.shown),
        excluded=dict(found.excluded),
        usage=found.usage,
        settings_from=settings_from,
        # (a sha no commit of the clone has is linked to nothing: `synthesis`)
        unresolved=unresolved(path, named(found.shown)[1]),
    )
    return digest, render(digest, with_title=True)


def sources_of(settings: CloneSettings, *, week: bool = False) -> SettingsSources:
    """What the footer says of the settings (`weekly` only in a roll-up)."""
    shown = {k: v for k, v in settings.sources.items() if week or k != "weekly"}
    return SettingsSources(
        settings.ref, shown, settings.error, settings.found, ignored=settings.ignored
    )


def _flags(tz: str | None, cutoff: str | None, lang: str | None) -> Flags:
    """The flags given, each checked; MissingSetting naming the flag otherwise."""
    if tz is not None:
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise MissingSetting(
                f"--tz must be an IANA time zone such as Asia/Shanghai, not {tz!r}"
            ) from None
    if cutoff is not None:
        try:
            parse_cutoff(cutoff)
        except ValueError as exc:
            raise MissingSetting(f"--cutoff {exc}") from None
    return Flags(timezone=tz, cutoff=cutoff, language=lang)


def command(
    settings: Settings,
    *,
    clone: str,
    branch: str | None,
    day: str | None,
    tz: str | None,
    lang: str | None,
    repo: str | None,
    out: str | None,
    cutoff: str | None = None,
    week: str | None = None,
) -> int:
    """The `digest` command: the day's posts (or the week's roll-up) to `out` (or stdout), a
    summary line on stderr; 2 when the clone cannot be read."""
    digest_day = day_value(day)
    week_day = day_value(week, flag="--week")
    flags = _flags(tz, cutoff, lang)
    try:
        repo_name = checked_repo_name(repo) if repo else None
    except ValueError as exc:
        raise MissingSetting(str(exc)) from None
    out_path = writable(out)
    path = Path(clone)

    async def run() -> tuple[list[str], str]:
        branch_name = resolve_branch(path, branch)
        found = clone_settings(path, branch_name, flags, default_language=settings.default_language)
        if found.error:
            print(f"commit-digest: {found.error}; using the defaults", file=sys.stderr)
        async with open_analyzer(settings) as analyzer:
            if week_day is not None:
                async with open_narrator(settings) as narrator:
                    post, rollup = await offline_week.offline_week(
                        path,
                        analyzer,
                        narrator,
                        branch=branch_name,
                        day=week_day,
                        config=found.config,
                        repo=repo_name,
                        settings_from=sources_of(found, week=True),
                    )
                first, last = rollup.week.first, rollup.week.last
                return [post.body], (
                    f"{rollup.counts.commits} commits of the week {first} to {last} "
                    f"in {rollup.repo}"
                )
            digest, parts = await offline_digest(
                path,
                analyzer,
                branch=branch_name,
                day=digest_day,
                config=found.config,
                repo=repo_name,
                settings_from=sources_of(found),
            )
        if not any(c.url for c in digest.commits) and digest.commits:
            print(
                "commit-digest: the clone has no GitHub origin, so commits are not linked; "
                "pass --repo OWNER/NAME",
                file=sys.stderr,
            )
        return [p.body for p in parts], (
            f"{len(digest.commits)} commits of {digest.day} in {digest.repo}"
            + (f", {len(parts)} posts" if len(parts) > 1 else "")
        )

    try:
        bodies, summary = asyncio.run(run())
    except CloneError as exc:
        print(f"commit-digest: {exc}", file=sys.stderr)
        return 2
    text = "\n\n".join(bodies) + "\n"
    # Always UTF-8, whatever the terminal's locale: Chinese digests must not turn to mojibake.
    if out_path is not None:
        try:
            out_path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise MissingSetting(f"--out {out_path}: cannot write it: {exc.strerror}") from None
    else:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
    print(f"commit-digest: {summary}", file=sys.stderr)
    return 0
