"""`fold_alerts`: bring a day's "more alerts" post up to date, at most once a minute.

One job per repository and day. The commits past the day's `max_per_day` are recorded as
folded by their own alert jobs (`bot.jobs.publish.alerts`), which arm this one: when the
post was written less than a minute ago, for a minute after it, so a burst of alerts makes
one edit, not one per commit. A run renders the post whole from the folded commits (less
any reverted or rated down since: a commit that stops being alert-worthy arms the job too)
and writes it where it was first made, whatever the config says now. Where that post cannot
be reached any more (Discussions turned off), the commits it does not show yet go into a
new one where alerts go now, so each folded commit is in exactly one post.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from functools import partial

from bot.digest.alerts import plan_alerts, render_alert_fold, wants_alert
from bot.jobs.alert_jobs import FOLD_EVERY, NEARBY
from bot.jobs.context import JobContext
from bot.jobs.digest_build import shown_commits
from bot.jobs.outcomes import Defer, Done, Outcome
from bot.jobs.publish.alerts import AlertJob, settle
from bot.jobs.publish.posting import posting
from bot.models import DigestCommit
from bot.posts import targets
from bot.posts.places import sent_place
from bot.posts.poster import Poster
from bot.posts.reconcile import Wanted
from bot.posts.thread import Thread
from bot.repo_config import RepoConfig
from bot.runtime.logs import get_logger
from bot.store.alert_ledger import FOLD_KEY, AlertLedger, alert_period, fold_key, fold_number
from bot.store.job_payloads import FoldAlertsPayload
from bot.store.jobs import Job
from bot.store.posts import PostKind, PostState, Recorded
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)


def fold_due(written: datetime | None, now: datetime) -> datetime | None:
    """When the fold may be written next; None: now."""
    if written is None or now >= written + FOLD_EVERY:
        return None
    return written + FOLD_EVERY


class FoldAlerts(AlertJob):
    kind = FoldAlertsPayload.kind

    async def run(self, job: Job[FoldAlertsPayload]) -> Outcome:
        day = job.payload.day.isoformat()
        return await posting(self._ctx, job, partial(self._fold, job), retry=self.retry, day=day)

    async def _fold(self, job: Job[FoldAlertsPayload], repo: RepoRow, poster: Poster) -> Outcome:
        ctx, day = self._ctx, job.payload.day
        config = config_of(repo.config, ctx.settings.default_language)
        period = alert_period(day)
        made = await ctx.store.alert_ledger.fold_posts(repo.id, period)
        if not config.alerts.on:
            # Turned off since: an unclear create is settled all the same.
            for rec in [rec for rec, _ in made if rec.state is PostState.CREATING]:
                await settle(poster, config, period, rec)
            return Done()
        until = fold_due(max((at for _, at in made), default=None), ctx.clock.now())
        if until is not None:
            return Defer("the fold was written less than a minute ago", until)
        # A commit written into a fold that is gone (deleted, and forgotten) is in none now.
        live = {rec.key for rec, _ in made}
        members = {
            sha: key if key in live else None
            for sha, key in (await ctx.store.alert_ledger.folded(repo.id, period)).items()
        }
        kept = await self._kept(repo, config, members)
        if not made and not kept:
            return Done()
        fold = _Fold(self._ctx, job, poster, config=config, day=day)
        # An earlier fold (one that could no longer be reached when more commits folded) is
        # edited where it was made, only when what it holds changed (a commit reverted).
        for rec, _ in made[:-1]:
            await fold.edit(rec, [c for c in kept if members[c.sha] == rec.key])
        if not made:
            await fold.write(FOLD_KEY, None, kept)
            return Done()
        current = made[-1][0]
        mine = [c for c in kept if members[c.sha] in (None, current.key)]
        if await fold.edit(current, mine):
            return Done()
        # The current fold cannot be reached any more (Discussions turned off): the commits
        # it does not show yet go into a new one, where alerts go now; none is in two.
        new = [c for c in mine if members[c.sha] is None]
        if new:
            key = fold_key(fold_number(current.key) + 1)
            log.info("alert_fold_moved", unreachable=current.key, key=key, commits=len(new))
            await fold.write(key, None, new)
        return Done()

    async def _kept(
        self, repo: RepoRow, config: RepoConfig, members: Mapping[str, str | None]
    ) -> list[DigestCommit]:
        """The folded commits a fold lists now: alert-worthy under the config (a maintainer's
        rating included), less any reverted since, as they would have had no alert."""
        store = self._ctx.store
        folded, _ = shown_commits(config, await store.digests.commits_of(repo.id, list(members)))
        folded = [c for c in folded if wants_alert(c.analysis, config.alerts)]
        if not folded:
            return []
        landed = [c.landed_at for c in folded]
        reverts, _ = shown_commits(
            config,
            await store.digests.reverts_between(
                repo.id, min(landed) - NEARBY, max(landed) + NEARBY
            ),
        )
        plan = plan_alerts(folded, config=config.alerts, posted=(), others=reverts)
        return [c for c in folded if c.sha not in plan.reverted and c.sha not in plan.cancelled]


class _Fold:
    """One run's writes of a day's "more alerts" posts."""

    def __init__(
        self,
        ctx: JobContext,
        job: Job[FoldAlertsPayload],
        poster: Poster,
        *,
        config: RepoConfig,
        day: date,
    ) -> None:
        self._ctx, self._job, self._poster, self._config = ctx, job, poster, config
        self._day = day
        self._thread = Thread.alerts(poster.repo_id, poster.full_name, day)

    def render(self, key: str, kind: PostKind, commits: Sequence[DigestCommit]) -> Wanted:
        config = self._config
        post = render_alert_fold(
            commits,
            repo=self._poster.full_name,
            day=self._day,
            language=config.language,
            max_per_day=config.alerts.max_per_day,
            timezone=config.timezone,
            with_title=kind != PostKind.DISCUSSION,
            key=key,
        )
        return self._thread.wanted(key, kind, post.body, post.title)

    async def edit(self, rec: Recorded, commits: Sequence[DigestCommit]) -> bool:
        """The fold brought up to date where it was made; False where that place cannot be
        reached any more (it is left as it is)."""
        if rec.state is PostState.CREATING:
            # An unclear create is settled first, where it was sent (the job waits while that
            # place cannot be looked at): made, it is edited there; not made, it is made where
            # alerts go now, unless it would only say it is empty.
            found = await self._settled(rec)
            if found is None:
                if commits:
                    await self.write(rec.key, None, commits)
                return True
            rec = found
        if (
            rec.state is PostState.POSTED
            and rec.body_hash == self.render(rec.key, rec.kind, commits).hash
        ):
            # As it is already; the commits it shows are known to be in it (a run that died
            # after its edit, or rows folded before folds were told apart).
            await self._written(rec.key, commits)
            return True
        channel, _ = await sent_place(
            await self._poster.client(),
            self._poster.full_name,
            rec,
            category=self._config.place("alerts").category,
        )
        if channel is None:
            return False
        await self.write(rec.key, channel, commits)
        return True

    async def _settled(self, rec: Recorded) -> Recorded | None:
        """An unclear create looked for where it was sent: its record once found, else None
        (withdrawn)."""
        period = self._thread.period
        await settle(self._poster, self._config, period, rec)
        made = await self._ctx.store.alert_ledger.fold_posts(self._poster.repo_id, period)
        return next((r for r, _ in made if r.key == rec.key), None)

    async def write(
        self, key: str, channel: targets.Channel | None, commits: Sequence[DigestCommit]
    ) -> None:
        """The fold `key` made or edited in `channel` (None: where alerts go now, a refused
        Discussion falling back to the issue); its commits recorded as written into it."""
        poster, thread = self._poster, self._thread

        async def attempt(channel: targets.Channel) -> None:
            await poster.send(thread, channel, [self.render(key, channel.kind, commits)])

        if channel is None:
            await poster.to_place(self._config.place("alerts"), attempt)
        else:
            await attempt(channel)
        await self._written(key, commits)

    async def _written(self, key: str, commits: Sequence[DigestCommit]) -> None:
        if not commits:
            return
        ctx, period = self._ctx, self._thread.period
        async with ctx.store.jobs.holding(self._job, ctx.clock.now()) as conn:
            await AlertLedger.written_into(
                conn, self._poster.repo_id, period, [c.sha for c in commits], key
            )
