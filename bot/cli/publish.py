"""`publish`: a period of a repository published now, in this process, by the scheduler's rules."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta

from aiohttp import web

from bot.app import CLOCK, EXECUTOR, PUBLISHER, SCHEDULER, SETTINGS, STORE, WEEKLY, create_app
from bot.cli.arguments import day_value
from bot.jobs.publish.day import publish_key
from bot.settings import MissingSetting, Settings
from bot.store.digests import Period
from bot.store.jobs import JobKind, JobState
from bot.store.repos import RepoRow, config_of


def command(settings: Settings, *, repo: str, day: str | None, week: str | None) -> int:
    """Publish `--day` or `--week` of `repo` now; 1 when nothing could be posted."""
    settings.require_github()
    weekly = week is not None
    when = day_value(week, flag="--week") if weekly else day_value(day)
    assert when is not None
    publish = publish_week if weekly else publish_day

    async def run() -> tuple[str, str | None]:
        runner = web.AppRunner(create_app(settings, background=False))
        await runner.setup()  # runs the app's cleanup contexts: store, GitHub, scheduler
        try:
            return await publish(runner.app, repo, when)
        finally:
            await runner.cleanup()

    state, url = asyncio.run(run())
    if state in ("deferred", "failed"):
        # A script must see that nothing was posted; the log line above says why.
        print(f"commit-digest: {state}: not posted (the log says why; run it again later)")
        return 1
    print(f"commit-digest: {state}" + (f": {url}" if url else ""))
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
