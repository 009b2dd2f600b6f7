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

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from structlog.contextvars import bound_contextvars

from bot.analysis import AnalysisResult, rules
from bot.digest.alerts import names_a_revert
from bot.digest.markers import day_marker
from bot.digest.render import Part, render, render_addendum
from bot.digest.synthesis import named
from bot.github import InstallationClient
from bot.github.calls import Forbidden
from bot.jobs.alert_jobs import rearm_folds, sent_alerts
from bot.jobs.context import JobContext
from bot.jobs.digest_build import build_digest, day_usage, shown_commits
from bot.jobs.outcomes import Done, Outcome, RetryPolicy, hourly
from bot.jobs.publish import places
from bot.models import Digest
from bot.periods.period import Period
from bot.posts import targets
from bot.posts.reconcile import Wanted
from bot.repo_config import Exclude, RepoConfig
from bot.runtime.logs import get_logger
from bot.store.commits import CommitState, commit_from_details
from bot.store.digests import DayCommit, DigestState
from bot.store.job_payloads import AnalyseCommitPayload, PublishPeriodPayload
from bot.store.jobs import Job, JobKind
from bot.store.posts import PostState, Recorded
from bot.store.ratings import Ratings
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)

# Why a day's later part or addendum went to the issue when GitHub refused it as a comment on
# the day's discussion (no Discussions write permission, or the discussion locked).
COMMENT_REFUSED = (
    "GitHub refused a comment on the day's discussion (the App needs the Discussions: write "
    "permission, and the discussion must not be locked)."
)

# A revert or a fix in the day finds the commit it names among this many days before it.
RECENT = timedelta(days=2)
# A digest posted later than this after its cutoff (plus grace) says it is late.
LATE_AFTER = timedelta(minutes=15)


def _issue_of(head: Recorded | None) -> int | None:
    """The issue a day's first post went to as a comment (None: not an issue comment)."""
    if head is None or head.kind != "issue-comment" or not (head.parent or "").isdigit():
        return None
    return int(head.parent or "")


@dataclass(frozen=True)
class _Run:
    """One attempt at one period: the claimed job and what it publishes."""

    job: Job[PublishPeriodPayload]
    repo: RepoRow
    config: RepoConfig
    period: Period
    gone: places.GoneIssues


class PublishPeriod:
    kind = PublishPeriodPayload.kind
    # Publishing that keeps failing (GitHub down for hours) is given up after 8 tries.
    retry = RetryPolicy(attempts=8, trouble=hourly, log_as="digest")

    def __init__(self, ctx: JobContext) -> None:
        self._ctx = ctx

    async def run(self, job: Job[PublishPeriodPayload]) -> Outcome:
        ctx = self._ctx
        repo = await ctx.store.repos.get(job.payload.repo_id)
        if repo is None:
            return Done()
        period = job.payload.period
        with bound_contextvars(repo=repo.full_name, period=period.key):
            return await places.posting(
                ctx,
                job,
                repo,
                lambda gone: self._publish(job, repo, period, gone),
                retry=self.retry,
            )

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
        gone: places.GoneIssues,
    ) -> Outcome:
        ctx = self._ctx
        config = config_of(repo.config, ctx.settings.default_language)
        start, end = config.schedule.window(period.start)
        now = ctx.clock.now()
        record = await ctx.store.digests.get(repo.id, period)
        if record is not None and record.state == DigestState.FAILED:
            return Done()
        run = _Run(job, repo, config, period, gone)
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
            head = (await ctx.store.posts.recorded(repo.id, period.key)).get("part-1")
            if job.payload.now and head is not None:
                # By hand (`publish --day`), the day is posted only if its first post is
                # there: one confirmed gone is forgotten, and the day posted again below.
                head = await self._still_there(run, head)
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
        ctx, job, repo, config = self._ctx, run.job, run.repo, run.config
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
        self, run: _Run, commits: list[DayCommit], *, late: bool, again: bool = False
    ) -> str:
        """The day's digest of `commits` (`again`: all of a published day's, its first posts
        gone: the record keeps when the day was first published)."""
        ctx, repo, config, period = self._ctx, run.repo, run.config, run.period
        start, end = config.schedule.window(period.start)
        forced, truncated = await ctx.store.digests.pushes_between(repo.id, start, end)
        digest, shas = build_digest(
            repo,
            period.start,
            config,
            commits,
            late=late,
            forced=forced,
            truncated=truncated,
            recent=await self._recent(run, commits, start),
            alerts=await sent_alerts(ctx.store, repo.id, period.start),
        )
        usage = await day_usage(ctx.store, ctx.settings, repo.id, (start, end))
        digest = replace(digest, usage=usage)
        if not digest.commits and again:
            # As an addendum of excluded commits: nothing to post, the day stays published.
            await self._finish(run, DigestState.PUBLISHED, shas, "excluded", late=late, first=False)
            return "skipped"
        if not digest.commits and config.skip_empty_days:
            await self._finish(run, DigestState.SKIPPED, shas, "main", late=late)
            log.info("digest_skipped", excluded=len(shas))
            return "skipped"
        client = await self._client(run)
        record = await ctx.store.digests.get(repo.id, period)
        # A first post once sent stays where it went, whatever the config says now: the retry
        # of a create GitHub may have carried out looks for its marker there, never elsewhere.
        head = (await ctx.store.posts.recorded(repo.id, period.key)).get("part-1")
        if head is not None:
            to_discussion = head.kind == "discussion"
        else:
            to_discussion = config.publish.to == "discussion" and (
                record is None or record.target != "issue-comment"
            )
        issue = _issue_of(head)
        target = "issue-comment"
        gone = run.gone.note(config.publish.issue)
        url: str | None
        if to_discussion:
            try:
                url, count = await self._discussion(run, client, digest)
                target = "discussion"
            except (places.FallBack, Forbidden) as exc:
                # Forbidden: a later part refused as a comment on the day's discussion.
                reason = str(exc) if isinstance(exc, places.FallBack) else COMMENT_REFUSED
                log.info("digest_fallback_to_issue", reason=reason)
                made = (await ctx.store.posts.recorded(repo.id, period.key)).get("part-1")
                digest = replace(
                    digest,
                    fallback_note=places.joined(reason, gone),
                    # Part 1 stays in its discussion: the parts here say why.
                    note_every_part=made is not None and made.kind == "discussion",
                )
                parts = render(digest, with_title=True)
                await self._settle_elsewhere(
                    run, client, self._wanted(repo, period, parts, "issue-comment")
                )
                url, count = await self._issue(run, client, parts)
        else:
            digest = replace(digest, fallback_note=gone)
            url, count = await self._issue(
                run, client, render(digest, with_title=True), number=issue
            )
        await self._finish(
            run,
            DigestState.PUBLISHED,
            shas,
            "main",
            late=late,
            target=target,
            first=not again,
        )
        if digest.config_error:
            await ctx.store.repos.config_error_reported(repo.id)
        log.info("digest_published", url=url, parts=count, late=late)
        return "published"

    async def _still_there(self, run: _Run, head: Recorded) -> Recorded | None:
        """The day's first post, unless GitHub confirms it gone (a maintainer deleted it):
        then it is forgotten with its comments (None), so that the day is posted again."""
        if head.state is not PostState.POSTED or not head.node_id:
            return head
        ctx, repo = self._ctx, run.repo
        client = await self._client(run)
        if head.kind == "discussion":
            gone = await client.post_gone(repo.full_name, head.node_id)
        elif head.kind == "issue-comment" and head.node_id.isdigit():
            gone = await client.comment_gone(repo.full_name, int(head.node_id))
        else:
            return head
        if not gone:
            return head
        async with ctx.store.jobs.holding(run.job, ctx.clock.now()) as conn:
            forgotten = await ctx.store.posts.forget_post(conn, repo.id, head.node_id)
        log.warning("post_gone", node_id=head.node_id, posts_forgotten=forgotten)
        return None

    async def _recent(
        self, run: _Run, commits: list[DayCommit], start: datetime
    ) -> list[DayCommit]:
        """The days before, where the day's reverts, relands and fixes find what they name:
        the last RECENT days, and any older stored commit named by number or sha."""
        store, repo_id = self._ctx.store, run.repo.id
        recent = await store.digests.window_commits(repo_id, start - RECENT, start)
        shown, _ = shown_commits(run.config, commits)
        prs, shas = named(shown)
        older = await store.digests.named_commits(repo_id, prs, shas, before=start - RECENT)
        return older + recent

    async def _finish(
        self,
        run: _Run,
        state: DigestState,
        shas: list[str],
        part_key: str,
        *,
        late: bool,
        target: str | None = None,
        first: bool = True,
    ) -> None:
        ctx, job, repo, period = self._ctx, run.job, run.repo, run.period
        now = ctx.clock.now()
        async with ctx.store.jobs.holding(job, now, finish=True) as conn:
            await ctx.store.digests.ensure(conn, repo.id, period, now)
            await ctx.store.digests.finish(
                conn,
                repo.id,
                period,
                state=state,
                first=first,
                target=target,
                shas=shas,
                part_key=part_key,
                late=late,
                now=now,
            )
            # What was just posted shows the commits' ratings as they are now.
            await Ratings.edited(conn, repo.id, shas)

    async def _client(self, run: _Run) -> InstallationClient:
        repo = run.repo
        return await self._ctx.client(run.job, repo.installation_id, repo.full_name, repo.id)

    async def _discussion(
        self, run: _Run, client: InstallationClient, digest: Digest
    ) -> tuple[str | None, int]:
        repo, period = run.repo, run.period
        parts = render(digest)
        head = self._wanted(repo, period, parts[:1], "discussion", title=digest.title)
        (posted,) = await places.sync_discussions(
            self._ctx,
            run.job,
            client,
            repo.full_name,
            head,
            category=run.config.publish.category,
            repo_id=repo.id,
            period=period.key,
        )
        assert posted.node_id is not None
        comments = targets.discussion_comments(client, repo.full_name, posted.node_id)
        later = self._wanted(repo, period, parts[1:], "discussion-comment")
        await self._settle_elsewhere(run, client, later)
        await self._sync(run, comments, later)
        return posted.url, len(parts)

    async def _settle_elsewhere(
        self, run: _Run, client: InstallationClient, wanted: list[Wanted]
    ) -> None:
        """Before the wanted posts are made: a post whose create went to the other place (the
        issue while the day's discussion was hidden, or the discussion before it was) and was
        left unclear is looked for there first, and kept there when GitHub made it, never
        made a second time (`places.settle_elsewhere`)."""
        ctx, repo = self._ctx, run.repo
        await places.settle_elsewhere(
            ctx,
            run.job,
            client,
            wanted,
            repo_id=repo.id,
            full_name=repo.full_name,
            period=run.period.key,
            category=run.config.publish.category,
        )

    async def _sync(
        self, run: _Run, channel: targets.Channel, wanted: list[Wanted], *, period: str = ""
    ) -> list[Recorded]:
        return await targets.sync_posts(
            self._ctx.store,
            self._ctx.clock,
            run.job,
            channel,
            wanted,
            repo_id=run.repo.id,
            period=period or run.period.key,
        )

    async def _issue(
        self, run: _Run, client: InstallationClient, parts: list[Part], *, number: int | None = None
    ) -> tuple[str | None, int]:
        repo = run.repo
        number = number or await places.comment_issue(
            self._ctx, run.job, client, repo, configured=run.config.publish.issue, gone=run.gone
        )
        channel = targets.issue_comments(client, repo.full_name, number)
        posted = await self._sync(
            run, channel, self._wanted(repo, run.period, parts, "issue-comment")
        )
        return (posted[0].url if posted else None), len(parts)

    @staticmethod
    def _wanted(
        repo: RepoRow, period: Period, parts: list[Part], kind: str, *, title: str | None = None
    ) -> list[Wanted]:
        return [
            Wanted(p.key, kind, day_marker(repo.full_name, period.start, p.key), p.body, title)
            for p in parts
        ]

    # --- maintainers' ratings -------------------------------------------------------------

    async def _revise(
        self, run: _Run, commits: list[DayCommit], late: bool, *, finish: bool
    ) -> bool:
        """Edit the posted parts that show a commit a maintainer rated since (`/digest rate`):
        each part rendered again from its own commits, and the ledger edits what differs.
        Whether there was any to edit (then its last write ended the job, with `finish`)."""
        ctx, repo, period = self._ctx, run.repo, run.period
        # A part is edited to show what it was posted with: its commits were shown then, so an
        # `exclude` added since does not take them out of it.
        config = run.config.model_copy(update={"exclude": Exclude()})
        pending = [c for c in commits if c.rating_edit_pending and c.published_part]
        if not pending:
            return False
        keys = {c.published_part for c in pending} - {"excluded"}
        head = (await ctx.store.posts.recorded(repo.id, period.key)).get("part-1")
        # The newest rate's wait: an older edit kept pending does not cut a new one's short.
        rated = [c.rated_at for c in pending if c.rated_at is not None]
        rated_since = max(rated, default=ctx.clock.now())
        kept = False  # the edits stay pending (the day's discussion hidden too long)
        if keys and head is not None:
            client = await self._client(run)
            if head.kind == "discussion" and await self._edit_given_up(run, client, rated_since):
                keys, kept = set(), True
            alerts = await sent_alerts(ctx.store, repo.id, period.start)
            for key in sorted(k for k in keys if k):
                mine = [c for c in commits if c.published_part == key]
                if key == "main":
                    start, end = config.schedule.window(period.start)
                    forced, truncated = await ctx.store.digests.pushes_between(repo.id, start, end)
                    digest, _ = build_digest(
                        repo,
                        period.start,
                        config,
                        mine,
                        late=late,
                        forced=forced,
                        truncated=truncated,
                        recent=await self._recent(run, mine, start),
                        alerts=alerts,
                    )
                    usage = await day_usage(
                        ctx.store, ctx.settings, repo.id, (start, end), part=key
                    )
                    digest = replace(digest, usage=usage)
                    if head.kind == "discussion":
                        await self._discussion(run, client, digest)
                    else:
                        issue = _issue_of(head)
                        await self._issue(
                            run, client, render(digest, with_title=True), number=issue
                        )
                    continue
                others = [c for c in commits if c.published_part not in (None, key)]
                digest, _ = build_digest(
                    repo, period.start, config, mine, recent=others, alerts=alerts
                )
                number = int(key.removeprefix("addendum-"))
                await self._place_addendum(run, client, head, digest, number, since=rated_since)
        now = ctx.clock.now()
        async with ctx.store.jobs.holding(run.job, now, finish=finish) as conn:
            if not kept:
                await Ratings.edited(conn, repo.id, [c.sha for c in pending])
        if not kept:
            log.info("digest_revised_for_ratings", commits=len(pending))
        return True

    async def _edit_given_up(self, run: _Run, client: InstallationClient, since: datetime) -> bool:
        """Whether the edits of a day posted as a discussion GitHub hides (Discussions turned
        off, or not the App's) are left pending for the day's next run: the job waits for the
        discussion to come back (raises Unsettled) up to UNCLEAR_WAIT since the rate."""
        hidden = await places.discussions_hidden(client, run.repo.full_name)
        if hidden is None:
            return False
        waiting = places.still_waiting(
            self._ctx.clock.now(), since, "the day's discussion cannot be edited", hidden
        )
        log.warning("rating_edit_place_hidden", reason=hidden, gave_up=waiting is None)
        if waiting is not None:
            raise waiting
        return True

    # --- late commits ----------------------------------------------------------------------

    async def _addendum(
        self, run: _Run, everything: list[DayCommit], commits: list[DayCommit], head: Recorded
    ) -> str:
        ctx, repo, period = self._ctx, run.repo, run.period
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
        stored = [c.stored_at for c in commits if c.stored_at is not None]
        await self._place_addendum(
            run,
            await self._client(run),
            head,
            digest,
            number,
            since=min(stored, default=ctx.clock.now()),
        )
        await self._finish(run, DigestState.PUBLISHED, shas, key, late=False, first=False)
        log.info("digest_addendum_published", commits=len(shas))
        return "addendum"

    async def _place_addendum(
        self,
        run: _Run,
        client: InstallationClient,
        head: Recorded,
        digest: Digest,
        number: int,
        *,
        since: datetime,
    ) -> None:
        """An addendum's posts, where the day's first post went. While that is a discussion
        GitHub hides (Discussions turned off, or not the App's), the addendum waits for it,
        up to UNCLEAR_WAIT since its commits were stored; then it goes to the issue, saying
        why, so that no late commit is lost."""
        ctx, repo = self._ctx, run.repo
        if head.kind != "discussion" or not head.node_id:
            parts = render_addendum(digest, number)
            await self._issue(run, client, parts, number=_issue_of(head))
            return
        hidden = await places.discussions_hidden(client, repo.full_name)
        if hidden is None:
            channel = targets.discussion_comments(client, repo.full_name, head.node_id)
            parts = render_addendum(digest, number)
            wanted = self._wanted(repo, run.period, parts, "discussion-comment")
            try:
                await self._settle_elsewhere(run, client, wanted)
                await self._sync(run, channel, wanted)
            except Forbidden:
                # GitHub refuses the comment (its create withdrawn): to the issue, at once.
                why = COMMENT_REFUSED
                log.warning("addendum_comment_refused")
            else:
                return
        else:
            waiting = places.still_waiting(
                ctx.clock.now(), since, "the day's discussion cannot be looked at", hidden
            )
            log.warning("addendum_place_hidden", reason=hidden, gave_up=waiting is None)
            if waiting is not None:
                raise waiting
            why = f"{hidden}."
        note = places.joined(why, run.gone.note(run.config.publish.issue))
        parts = render_addendum(replace(digest, fallback_note=note), number)
        wanted = self._wanted(repo, run.period, parts, "issue-comment")
        await self._settle_elsewhere(run, client, wanted)
        await self._issue(run, client, parts)
