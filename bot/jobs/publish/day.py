"""`publish_period`: post a period's digest where the repository asked, exactly once.

The period's commits are those whose landing falls in the window the current config gives
the period, and those posted in its digest before a `timezone` or `cutoff` moved that window
(a commit posted in one day's digest belongs to no other day). Commits still unanalysed (past
the grace the scheduler waited) or whose analysis failed get the rules' analysis of their
stored message first. The first publication is a new Discussion (continuation parts as its
comments) or comments on an issue; commits that land after it are an addendum. A quiet day
that was skipped and then gets a late commit is published then, as its first post. Every
post goes through the post ledger (`posts/`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.analysis import AnalysisResult, rules
from bot.analysis.titles import names_a_revert
from bot.digest.render import Part, render, render_addendum
from bot.jobs.alert_jobs import rearm_folds, sent_alerts
from bot.jobs.context import JobContext
from bot.jobs.digest_build import build_digest, gather_day
from bot.jobs.outcomes import Done, Outcome, RetryPolicy, hourly
from bot.jobs.publish.posting import posting
from bot.models import Digest
from bot.periods.period import Period
from bot.posts.poster import HEAD, Delivery, Draft, Poster
from bot.posts.thread import Thread
from bot.repo_config import Exclude, Place, RepoConfig
from bot.runtime.logs import get_logger
from bot.store.commits import CommitState, commit_from_details
from bot.store.digests import DayCommit, DigestState
from bot.store.job_payloads import AnalyseCommitPayload, PublishPeriodPayload
from bot.store.jobs import Job, JobKind
from bot.store.posts import PostKind, Recorded
from bot.store.ratings import Ratings
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)

# A digest posted later than this after its cutoff (plus grace) says it is late.
LATE_AFTER = timedelta(minutes=15)


def _drafted(parts: list[Part], title: str | None = None) -> Draft:
    return Draft([(p.key, p.body) for p in parts], title)


def _drafts(digest: Digest) -> Callable[[Delivery], Draft]:
    """A day's main digest as its posts: a Discussion's, or the issue's (saying why there)."""

    def drafted(d: Delivery) -> Draft:
        if not d.issue:
            return _drafted(render(digest), digest.title)
        noted = replace(digest, fallback_note=d.note, note_every_part=d.head_stays)
        return _drafted(render(noted, with_title=True))

    return drafted


def _addendum_drafts(digest: Digest, number: int) -> Callable[[Delivery], Draft]:
    return lambda d: _drafted(render_addendum(replace(digest, fallback_note=d.note), number))


@dataclass(frozen=True)
class _Run:
    """One attempt at one period: the claimed job and what it publishes."""

    job: Job[PublishPeriodPayload]
    repo: RepoRow
    config: RepoConfig
    period: Period
    poster: Poster

    @property
    def thread(self) -> Thread:
        return Thread.of(self.repo.id, self.repo.full_name, self.period)

    @property
    def place(self) -> Place:
        return self.config.place("digest")


class PublishPeriod:
    kind = PublishPeriodPayload.kind
    # Publishing that keeps failing (GitHub down for hours) is given up after 8 tries.
    retry = RetryPolicy(attempts=8, trouble=hourly, log_as="digest")

    def __init__(self, ctx: JobContext) -> None:
        self._ctx = ctx

    async def run(self, job: Job[PublishPeriodPayload]) -> Outcome:
        period = job.payload.period

        async def attempt(repo: RepoRow, poster: Poster) -> Outcome:
            return await self._publish(job, repo, period, poster)

        return await posting(self._ctx, job, attempt, retry=self.retry, period=period.key)

    async def given_up(self, job: Job[PublishPeriodPayload], reason: str) -> None:
        ctx = self._ctx
        payload = job.payload
        await ctx.store.digests.fail(payload.repo_id, payload.period, reason, ctx.clock.now())
        ctx.metrics.digests.labels(outcome="failed").inc()

    async def _publish(
        self,
        job: Job[PublishPeriodPayload],
        repo: RepoRow,
        period: Period,
        poster: Poster,
    ) -> Outcome:
        ctx = self._ctx
        config = config_of(repo.config, ctx.settings.default_language)
        start, end = config.schedule.window(period.start)
        now = ctx.clock.now()
        record = await ctx.store.digests.get(repo.id, period)
        if record is not None and record.state == DigestState.FAILED:
            return Done()
        run = _Run(job, repo, config, period, poster)
        if now < end and not job.payload.now:
            # The config moved the cutoff: the scheduler enqueues the day again then. A day
            # posted already still shows the ratings made since (`/digest rate`) at once.
            if record is None or record.state != DigestState.PUBLISHED:
                return Done()
            posted = await ctx.store.digests.day_commits(repo.id, period.start, start, end)
            return await self._ratings_only(run, posted, bool(record.late))
        commits = await self._analysed(run, start, end)
        unpublished = [c for c in commits if c.published_part is None]
        first = record is None or record.state in (DigestState.PENDING, DigestState.SKIPPED)
        if first:
            grace = timedelta(minutes=ctx.settings.grace_minutes)
            late = now > end + grace + LATE_AFTER
            state = await self._first(run, unpublished, late=late)
        elif unpublished or job.payload.now:
            head = (await poster.recorded(run.thread)).get(HEAD)
            if job.payload.now and head is not None:
                # By hand (`publish --day`), the day is posted only if its first post is
                # there: one confirmed gone is forgotten, and the day posted again below.
                head = await poster.still_there(head)
            if head is None:
                # The day's posts went with an issue that is gone (deleted): rather than an
                # addendum to nothing, the whole day is posted again, where posts go now.
                assert record is not None
                log.info("digest_posted_again", commits=len(commits))
                state = await self._first(run, commits, late=bool(record.late), again=True)
            elif unpublished:
                # Ratings of the posted parts first: the addendum's record finishes the job.
                await self._revise(run, commits, bool(record and record.late), finish=False)
                state = await self._addendum(run, commits, unpublished, head)
            else:
                return await self._ratings_only(run, commits, bool(record and record.late))
        else:
            return await self._ratings_only(run, commits, bool(record and record.late))
        ctx.metrics.digests.labels(outcome=state).inc()
        return Done(recorded=True)

    async def _ratings_only(self, run: _Run, commits: list[DayCommit], late: bool) -> Outcome:
        """A posted day with nothing new to post: the edits for the ratings made since (the
        job ends with them), if any."""
        return Done(recorded=await self._revise(run, commits, late, finish=True))

    async def _analysed(self, run: _Run, start: datetime, end: datetime) -> list[DayCommit]:
        """The day's commits (`Digests.day_commits`: the window's, and those posted in the
        day's digest before the config moved its window), each with an analysis: the rules
        stand in for one not done by now (past the grace) or one that failed, from the stored
        message and details."""
        ctx = self._ctx
        job, repo, config = run.job, run.repo, run.config
        day = run.period.start
        commits = await ctx.store.digests.day_commits(repo.id, day, start, end)
        missing = [c for c in commits if c.analysis is None and c.published_part is None]
        if not missing:
            return commits
        results: list[tuple[str, AnalysisResult]] = []
        for c in missing:
            if c.state == CommitState.FAILED:
                why = (
                    f"analysis failed ({c.last_error or 'unknown'}); "
                    "rules analysis of the stored message"
                )
            else:
                why = "not analysed by the cutoff's grace period; rules analysis used"
            try:
                analysis = rules.analyze(
                    commit_from_details(c.sha, c.message, c.details), language=config.language
                )
            except Exception as exc:  # the digest lists it as not analysed, with the reason
                log.warning("rules_analysis_failed", sha=c.sha, error=repr(exc))
                continue
            results.append((c.sha, AnalysisResult(analysis, fallback_reason=why)))
        if results:
            now = ctx.clock.now()
            async with ctx.store.jobs.holding(job, now) as conn:
                for sha, result in results:
                    await ctx.store.digests.force_analysis(conn, repo.id, sha, result, now)
                done = [AnalyseCommitPayload(repo_id=repo.id, sha=sha).key for sha, _ in results]
                await ctx.store.jobs.finish_pending(conn, JobKind.ANALYSE_COMMIT, done, now)
                if config.alerts.on:
                    # A revert analysed only now still takes what it undoes out of a fold.
                    for c in missing:
                        if names_a_revert(c.title, c.message):
                            await rearm_folds(conn, repo.id, now, revert_landed=c.landed_at)
            log.info("commits_analysed_at_cutoff", count=len(results))
            commits = await ctx.store.digests.day_commits(repo.id, day, start, end)
        return commits

    # --- the first publication -------------------------------------------------------------

    async def _first(
        self,
        run: _Run,
        commits: list[DayCommit],
        *,
        late: bool,
        again: bool = False,
    ) -> str:
        """The day's digest of `commits` (`again`: all of a published day's, its first posts
        gone: the record keeps when the day was first published)."""
        ctx = self._ctx
        repo, config, day = run.repo, run.config, run.period.start
        alerts = await sent_alerts(ctx.store, repo.id, day)
        digest, shas = await gather_day(
            ctx.store, ctx.settings, repo, config, commits, day=day, late=late, alerts=alerts
        )
        if digest.commits or not (again or config.skip_empty_days):
            published = await run.poster.publish(
                run.thread, run.place, _drafts(digest), what="digest"
            )
            state, key, outcome = DigestState.PUBLISHED, "main", "published"
            log.info("digest_published", url=published.url, parts=published.count, late=late)
        else:
            # Nothing to post: a day posted before stays published (its commits as an addendum
            # of excluded ones), a quiet day is skipped.
            state = DigestState.PUBLISHED if again else DigestState.SKIPPED
            key, outcome = "excluded" if again else "main", "skipped"
            log.info("digest_skipped", excluded=len(shas))
        await self._finish(run, state, shas, key, late=late, first=not again)
        if digest.config_error and outcome == "published":
            await ctx.store.repos.config_error_reported(repo.id)
        return outcome

    async def _finish(
        self,
        run: _Run,
        state: DigestState,
        shas: list[str],
        part_key: str,
        *,
        late: bool,
        first: bool = True,
    ) -> None:
        ctx = self._ctx
        job, repo, period = run.job, run.repo, run.period
        now = ctx.clock.now()
        async with ctx.store.jobs.holding(job, now, finish=True) as conn:
            await ctx.store.digests.ensure(conn, repo.id, period, now)
            await ctx.store.digests.finish(
                conn,
                repo.id,
                period,
                state=state,
                first=first,
                shas=shas,
                part_key=part_key,
                late=late,
                now=now,
            )
            # What was just posted shows the commits' ratings as they are now.
            await Ratings.edited(conn, repo.id, shas)

    # --- maintainers' ratings -------------------------------------------------------------

    async def _revise(
        self, run: _Run, commits: list[DayCommit], late: bool, *, finish: bool
    ) -> bool:
        """Edit the posted parts that show a commit a maintainer rated since (`/digest rate`):
        each part rendered again from its own commits, and the ledger edits what differs.
        Whether there was any to edit (then its last write ended the job, with `finish`)."""
        ctx = self._ctx
        repo, period = run.repo, run.period
        # A part is edited to show what it was posted with: its commits were shown then, so an
        # `exclude` added since does not take them out of it.
        config = run.config.model_copy(update={"exclude": Exclude()})
        pending = [c for c in commits if c.rating_edit_pending and c.published_part]
        if not pending:
            return False
        keys = {c.published_part for c in pending} - {"excluded"}
        poster = run.poster
        head = (await poster.recorded(run.thread)).get(HEAD)
        # The newest rate's wait: an older edit kept pending does not cut a new one's short.
        rated = [c.rated_at for c in pending if c.rated_at is not None]
        rated_since = max(rated, default=ctx.clock.now())
        kept = False  # the edits stay pending (the day's discussion hidden too long)
        if keys and head is not None:
            alerts = await sent_alerts(ctx.store, repo.id, period.start)
            # Edits of a day posted as a discussion GitHub hides (Discussions turned off, or
            # not the App's) wait for it, up to UNCLEAR_WAIT since the rate; then they are
            # left pending for the day's next run.
            if head.kind == PostKind.DISCUSSION and await poster.hidden_since(
                rated_since,
                "the day's discussion cannot be edited",
                event="rating_edit_place_hidden",
            ):
                keys, kept = set(), True
            for key in sorted(k for k in keys if k):
                mine = [c for c in commits if c.published_part == key]
                if key == "main":
                    digest, _ = await gather_day(
                        ctx.store,
                        ctx.settings,
                        repo,
                        config,
                        mine,
                        day=period.start,
                        late=late,
                        alerts=alerts,
                        part=key,
                    )
                    await poster.revise(run.thread, head, run.place, _drafts(digest))
                    continue
                others = [c for c in commits if c.published_part not in (None, key)]
                digest, _ = build_digest(
                    repo, period.start, config, mine, recent=others, alerts=alerts
                )
                number = int(key.removeprefix("addendum-"))
                await poster.add(
                    run.thread, head, run.place, _addendum_drafts(digest, number), since=rated_since
                )
        now = ctx.clock.now()
        async with ctx.store.jobs.holding(run.job, now, finish=finish) as conn:
            if not kept:
                await Ratings.edited(conn, repo.id, [c.sha for c in pending])
        if not kept:
            log.info("digest_revised_for_ratings", commits=len(pending))
        return True

    # --- late commits ----------------------------------------------------------------------

    async def _addendum(
        self, run: _Run, everything: list[DayCommit], commits: list[DayCommit], head: Recorded
    ) -> str:
        ctx = self._ctx
        repo, period = run.repo, run.period
        # Numbered by the addenda already completed (their commits carry the number), so a
        # retry after a crash reuses its number and finds its own post in the ledger.
        completed = {
            c.published_part for c in everything if (c.published_part or "").startswith("addendum-")
        }
        number = len(completed) + 1
        key = f"addendum-{number}"
        digest, shas = build_digest(
            repo,
            period.start,
            run.config,
            commits,
            recent=[c for c in everything if c.published_part is not None],
            alerts=await sent_alerts(ctx.store, repo.id, period.start),
        )
        if not digest.commits:
            await self._finish(
                run, DigestState.PUBLISHED, shas, "excluded", late=False, first=False
            )
            return "skipped"
        # While the day's discussion is hidden, the addendum waits for it, up to UNCLEAR_WAIT
        # since its commits were stored (`Poster.add`).
        stored = [c.stored_at for c in commits if c.stored_at is not None]
        await run.poster.add(
            run.thread,
            head,
            run.place,
            _addendum_drafts(digest, number),
            since=min(stored, default=ctx.clock.now()),
        )
        await self._finish(run, DigestState.PUBLISHED, shas, key, late=False, first=False)
        log.info("digest_addendum_published", commits=len(shas))
        return "addendum"
