"""The weekly roll-up of a local clone, built and rendered as the App builds its own: the week
per the repository's `weekly:` weekday and cutoff, compared with the week before."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.analysis import Analyzer
from bot.analysis.narrative import Narrator
from bot.analysis.rollup import Counts, Rollup, RollupCommit, build_rollup, commits_a_day
from bot.cli.clone import commits_between, repo_identity
from bot.cli.clone_analysis import analyse
from bot.digest.sameday import settled_week
from bot.digest.sources import sources_lines
from bot.digest.weekly import WeeklyPost, render_weekly
from bot.models import SettingsSources
from bot.repo_config import RepoConfig


def local_time(instant: datetime, timezone: str) -> str:
    """`2026-11-24 17:15 Asia/Shanghai`: when the clone was read, in the repository's zone."""
    return f"{instant.astimezone(ZoneInfo(timezone)):%Y-%m-%d %H:%M} {timezone}"


async def offline_week(
    path: Path,
    analyzer: Analyzer,
    narrator: Narrator,
    *,
    branch: str,
    day: date,
    config: RepoConfig,
    repo: str | None = None,
    settings_from: SettingsSources | None = None,
    now: datetime | None = None,
) -> tuple[WeeklyPost, Rollup]:
    """The roll-up of the week that holds digest day `day`, with the LLM's narrative where
    one is configured."""
    schedule = config.week_schedule
    week = schedule.week_of_day(day)
    before = schedule.previous(week)
    name, url_prefix = repo_identity(path, repo)
    # Both weeks in one walk: the week before is analysed too, for its counts.
    found = await analyse(
        path,
        commits_between(path, branch, before.start, week.end),
        analyzer,
        repo=name,
        url_prefix=url_prefix,
        config=config,
    )
    rollup = build_rollup(
        name,
        week,
        schedule.days,
        settled_week(
            [RollupCommit(c, found.changes[c.sha]) for c in found.shown if c.landed_at in week],
            schedule.days,
        ),
        previous=Counts.of(c for c in found.shown if c.landed_at in before),
        previous_days=commits_a_day(before, schedule.days, found.shown),
    )
    narrative = None
    if narrator.enabled and not rollup.empty:
        narrative = await narrator.write(rollup, language=config.language)
    now = now or datetime.now(UTC)
    if settings_from is not None and now < week.end:
        settings_from = replace(settings_from, so_far=local_time(now, config.timezone))
    notes = sources_lines(settings_from, config.language) if settings_from is not None else []
    ahead = next((d for d in week.days if config.schedule.window(d)[0] > now), None)
    post = render_weekly(
        rollup,
        language=config.language,
        timezone=config.timezone,
        narrative=narrative,
        with_title=True,
        offline=True,
        notes=notes,
        ahead_from=ahead,
    )
    return post, rollup
