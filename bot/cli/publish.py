"""`publish`: a period of a repository published now, in this process, by the scheduler's rules."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum

from aiohttp import web

from bot.app import CLOCK, EXECUTOR, SCHEDULER, SETTINGS, STORE, create_app
from bot.cli.arguments import day_value
from bot.jobs.publish.week import posted_overlap
from bot.periods.period import Period
from bot.settings import MissingSetting, Settings
from bot.store import Store
from bot.store.digests import DigestState
from bot.store.job_payloads import publish_key
from bot.store.jobs import JobKind, JobState
from bot.store.posts import PostState
from bot.store.repos import RepoRow, config_of

# Another process holding the publication is waited for this many of its leases at most.
WAIT_LEASES = 3
# Runs of the job here at most (armed again behind another process, an unclear create settled).
MAX_RUNS = 4


class Result(StrEnum):
    """How a `publish` went, as the command prints it."""

    PUBLISHED = "published"  # this run posted the period (or posted it again, its posts gone)
    ADDENDUM = "addendum"  # this run posted the day's commits that came after its digest
    SKIPPED = "skipped"  # nothing new to post
    NOT_PUBLISHED = "not published"  # nothing to post, and the period has no record
    BUSY = "busy"  # another process is still publishing it, past the wait
    DEFERRED = "deferred"  # GitHub failed it or limited it: the job tries again later
    FAILED = "failed"

    @property
    def posted_nothing(self) -> bool:
        """Not known to be posted: a script must see it (exit status 1)."""
        return self in (Result.BUSY, Result.DEFERRED, Result.FAILED)


def command(settings: Settings, *, repo: str, day: str | None, week: str | None) -> int:
    """Publish `--day` or `--week` of `repo` now; 1 when nothing could be posted."""
    settings.require_github()
    weekly = week is not None
    when = day_value(week, flag="--week") if weekly else day_value(day)
    assert when is not None
    publish = publish_week if weekly else publish_day

    async def run() -> tuple[Result, str | None]:
        runner = web.AppRunner(create_app(settings, background=False))
        await runner.setup()  # runs the app's cleanup contexts: store, GitHub, scheduler
        try:
            return await publish(runner.app, repo, when)
        finally:
            await runner.cleanup()

    result, url = asyncio.run(run())
    if result.posted_nothing:
        # A script must see that nothing was posted; the log line above says why.
        why = (
            "another process is still publishing it; run it again later"
            if result is Result.BUSY
            else "the log says why; run it again later"
        )
        print(f"commit-digest: {result}: not posted ({why})")
        return 1
    print(f"commit-digest: {result}" + (f": {url}" if url else ""))
    return 0


async def _seen(app: web.Application, repo_name: str) -> RepoRow:
    repo = await app[STORE].repos.by_name(repo_name)
    if repo is None:
        raise MissingSetting(
            f"the App has not seen {repo_name}: install it there and push, then retry"
        )
    return repo


async def publish_day(app: web.Application, repo_name: str, day: date) -> tuple[Result, str | None]:
    """Publish the day now, in this process, and say how it went and where its post is."""
    repo = await _seen(app, repo_name)
    config = config_of(repo.config, app[SETTINGS].default_language)
    period = Period.day(day)
    window = config.schedule.window(day)
    before = await _published(app[STORE], repo, period, window)
    await app[SCHEDULER].publish_now(repo, day)
    return await _run_now(app, repo, JobKind.PUBLISH_PERIOD, period, before=before, window=window)


async def publish_week(
    app: web.Application, repo_name: str, day: date
) -> tuple[Result, str | None]:
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
    clash = await posted_overlap(app[STORE], repo.id, week)
    if clash is not None:
        other = f"{clash.first} to {clash.first + timedelta(days=len(week.days) - 1)}"
        if clash.unclear:
            raise MissingSetting(
                f"{span} overlaps the roll-up of {other}, whose create GitHub has not "
                "confirmed yet (it was sent before `weekly:` moved its weekday): its days are "
                "not rolled up twice; run this again once that roll-up's job has looked for it"
            )
        raise MissingSetting(
            f"{span} overlaps the roll-up posted for {other} (before `weekly:` moved its "
            "weekday): its days are not rolled up twice"
        )
    period = Period.week(week.first)
    before = await _published(app[STORE], repo, period, None)
    await app[SCHEDULER].publish_week_now(repo, week)
    return await _run_now(app, repo, JobKind.PUBLISH_WEEK, period, before=before, window=None)


@dataclass(frozen=True)
class _Published:
    """What the store holds of a period's publication: its record's state (None: no record),
    and, for a day, the part each of its commits went out in (None: not yet)."""

    state: str | None
    parts: Mapping[str, str | None]
    # Where its first post is (None: none recorded).
    head: str | None = None


async def _published(
    store: Store, repo: RepoRow, period: Period, window: tuple[datetime, datetime] | None
) -> _Published:
    record = await store.digests.get(repo.id, period)
    commits = await store.digests.window_commits(repo.id, *window) if window else []
    head = (await store.posts.recorded(repo.id, period.key)).get("part-1")
    return _Published(
        state=record.state if record is not None else None,
        parts={c.sha: c.published_part for c in commits},
        head=head.url if head is not None and head.state is PostState.POSTED else None,
    )


def _posted(before: _Published, after: _Published) -> Result | None:
    """What the run between the two reads posted, if anything (part keys as the day's job
    writes them: "main" for the digest, "addendum-N" for the commits that came after it)."""
    if after.state != DigestState.PUBLISHED:
        return None
    if before.state != DigestState.PUBLISHED:
        return Result.PUBLISHED
    new = {p for sha, p in after.parts.items() if p is not None and before.parts.get(sha) is None}
    if "main" in new or (after.head is not None and after.head != before.head):
        return Result.PUBLISHED  # posted again: the day's first posts were gone
    if any(p.startswith("addendum-") for p in new):
        return Result.ADDENDUM
    return None


async def _run_now(
    app: web.Application,
    repo: RepoRow,
    kind: JobKind,
    period: Period,
    *,
    before: _Published,
    window: tuple[datetime, datetime] | None,
) -> tuple[Result, str | None]:
    """Run the period's publication, just armed, here; say how it went (from what the store
    held before and holds after) and where its post is. Another process holding the job is
    waited for, until it ends or its lease lapses (then its work is taken over here), for
    at most WAIT_LEASES of its leases; a create whose answer was lost is settled at once (its
    marker searched for) instead of waiting out the backoff."""
    store, clock = app[STORE], app[CLOCK]
    key = publish_key(repo.id, period)
    lease = timedelta(seconds=app[SETTINGS].worker_lease_seconds)
    deadline = clock.now() + WAIT_LEASES * lease
    runs = settled = 0
    said = False
    while True:
        await app[EXECUTOR].drain()
        runs += 1
        job = await store.jobs.get(kind, key)
        now = clock.now()
        if job is None:
            break
        if job.state == JobState.RUNNING and now < deadline:
            if not said:
                print(
                    f"commit-digest: waiting for another process publishing it (its lease "
                    f"ends {job.lease_until.isoformat(sep=' ', timespec='seconds')} unless "
                    "renewed)",
                    file=sys.stderr,
                )
                said = True
            await clock.sleep(max(0.2, lease.total_seconds() / 10))
            other = await store.jobs.get(kind, key)
            if other is not None and other.state != JobState.RUNNING:
                # The other process ended its run: what it posted is not this run's doing.
                before = await _published(store, repo, period, window)
            continue
        if job.state != JobState.PENDING or runs >= MAX_RUNS:
            break
        if job.not_before <= now:
            # Pending and due: another process held the job when this one asked, and it was
            # armed to run once more when that run ended. Run it here rather than report
            # "deferred".
            continue
        if not settled and await _unclear(store, repo, period):
            # A create GitHub may have carried out: the next run looks for its marker now.
            settled += 1
            await store.jobs.bring_forward(kind, key, now)
            continue
        break
    if job is not None and job.state == JobState.RUNNING:
        return Result.BUSY, None
    after = await _published(store, repo, period, window)
    if job is not None and job.state == JobState.FAILED:
        result = Result.FAILED
    elif (posted := _posted(before, after)) is not None:
        result = posted
    elif job is not None and job.state == JobState.PENDING:
        result = Result.DEFERRED
    else:
        result = Result.SKIPPED if after.state is not None else Result.NOT_PUBLISHED
    head = (await store.posts.recorded(repo.id, period.key)).get("part-1")
    return result, head.url if head is not None and head.url else None


async def _unclear(store: Store, repo: RepoRow, period: Period) -> bool:
    """Whether a create of the period's posts was sent and not confirmed."""
    recorded = await store.posts.recorded(repo.id, period.key)
    return any(r.state is PostState.CREATING for r in recorded.values())
