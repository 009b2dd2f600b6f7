"""`digest_command`: answer one `/digest` command from a comment, once.

Who may is read from GitHub's collaborator permission (cached briefly); what was decided
(taken, refused, over a limit) is recorded once, so a rerun answers the same way. The reply
goes through the post ledger, keyed by the command comment's id: a redelivery, a restart or a
create answered 502 never answers twice. A taken command gets 👀 first.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from cachetools import TTLCache
from structlog.contextvars import bound_contextvars

from bot.digest import command_replies as replies
from bot.digest.alerts import wants_alert
from bot.digest.command_syntax import parse
from bot.digest.render import render
from bot.github.calls import InstallationClient
from bot.jobs.alert_jobs import rearm_folds, sent_alerts
from bot.jobs.analyse.governor import Governor
from bot.jobs.context import POSTING_TROUBLE, JobContext
from bot.jobs.digest_build import gather_day, shown_commits
from bot.jobs.explain import Answering, Explainer
from bot.jobs.outcomes import Done, Outcome, RetryPolicy
from bot.periods.period import Period
from bot.posts.poster import Poster
from bot.posts.thread import Thread
from bot.repo_config import RepoConfig
from bot.runtime.logs import get_logger
from bot.store.commands import Asked, CommandLog, Decision, Limits, RateEffect
from bot.store.digests import DayCommit
from bot.store.job_payloads import DigestCommandPayload, PublishPeriodPayload, SendAlertsPayload
from bot.store.jobs import Job
from bot.store.posts import PostState
from bot.store.ratings import Rating, Ratings
from bot.store.repos import RepoRow, config_of

log = get_logger(__name__)

REPLY_KEY = "reply"
# Who may command the App: GitHub's roles with write access (`permission` folds maintain
# into write).
MAY = frozenset({"admin", "maintain", "write"})
PERMISSION_TTL_SECONDS = 60.0


def _alerting(config: RepoConfig, commit: DayCommit, importance: str) -> bool:
    """Whether the commit, shown with this importance, is one the repository's alerts want."""
    shown, _ = shown_commits(config, [replace(commit, rated=importance)])
    return bool(shown) and wants_alert(shown[0].analysis, config.alerts)


def _analysed_importance(analysis: dict[str, Any] | None) -> str | None:
    value = (analysis or {}).get("importance")
    return str(value) if value else None


class RunCommand:
    kind = DigestCommandPayload.kind
    retry = RetryPolicy(attempts=5, log_as="command")

    def __init__(
        self, ctx: JobContext, *, governor: Governor, limits: Limits | None = None
    ) -> None:
        self._ctx = ctx
        self._limits = limits or Limits()
        # The analyses' own governor: what explain sends to the LLM counts against their caps.
        self._explainer = Explainer(ctx, governor)
        self._permissions: TTLCache[tuple[int, str, str], str] = TTLCache(
            maxsize=10_000,
            ttl=PERMISSION_TTL_SECONDS,
            timer=lambda: ctx.clock.now().timestamp(),
        )

    async def run(self, job: Job[DigestCommandPayload]) -> Outcome:
        ctx = self._ctx
        repo = await ctx.store.repos.get(job.payload.repo_id)
        if repo is None:
            return Done()  # uninstalled since
        comment_id = job.payload.comment_id
        with bound_contextvars(repo=repo.full_name, comment_id=comment_id):
            try:
                return await self._answer(job, repo, comment_id)
            except POSTING_TROUBLE as exc:
                return ctx.posting_outcome(exc, job=job, retry=self.retry)

    async def given_up(self, job: Job[DigestCommandPayload], reason: str) -> None:
        """A taken command whose answer never came: its 👀 becomes 😕, so nobody waits on
        it, or 👍 when it took effect (a rating stored); a refusal got no 👀, and a reply on
        record needs no sign."""
        ctx, p = self._ctx, job.payload
        log.warning("command_given_up", comment_id=p.comment_id, reason=reason)
        repo = await ctx.store.repos.get(p.repo_id)
        installation_id = p.installation_id or (repo.installation_id if repo else None)
        if repo is None or installation_id is None:
            return
        decided = await ctx.store.commands.decided(repo.id, p.comment_id)
        if decided is None or decided.decision is not Decision.TAKEN:
            return
        period = Thread.reply(repo.id, repo.full_name, p.comment_id).period
        made = (await ctx.store.posts.recorded(repo.id, period)).get(REPLY_KEY)
        if made is not None and made.state is PostState.POSTED:
            return
        client = ctx.github.installation(installation_id)
        try:
            if decided.effect is not None:
                # It did what was asked (a rating is stored): only its reply is missing.
                await client.react_took_effect(p.comment_node_id)
            else:
                await client.react_given_up(p.comment_node_id)
        except POSTING_TROUBLE as exc:
            log.warning("command_given_up_unmarked", error=str(exc))
            return
        log.info("command_given_up_marked", took_effect=decided.effect is not None)

    async def _answer(
        self, job: Job[DigestCommandPayload], repo: RepoRow, comment_id: int
    ) -> Outcome:
        ctx, p = self._ctx, job.payload
        period = Thread.reply(repo.id, repo.full_name, comment_id).period
        made = (await ctx.store.posts.recorded(repo.id, period)).get(REPLY_KEY)
        if made is not None and made.state is PostState.POSTED:
            return Done()  # answered already (a redelivery, a rerun)
        config = config_of(repo.config, ctx.settings.default_language)
        author = p.author
        client = await ctx.client(
            job, p.installation_id or repo.installation_id, repo.full_name, repo.id
        )
        decided = await ctx.store.commands.decided(repo.id, comment_id)
        if decided is None:
            allowed = await self._allowed(client, repo, author)
            asked = Asked(
                repo_id=repo.id,
                comment_id=comment_id,
                author=author,
                thread=p.thread,
                received_at=p.received_at,
            )
            async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
                decided = await CommandLog.decide(conn, asked, allowed=allowed, limits=self._limits)
        log.info("command_decided", decision=decided.decision.value)
        language = config.language
        match decided.decision:
            case Decision.DENIED_QUIET | Decision.LIMITED_QUIET:
                return Done()
            case Decision.DENIED_OVER:
                log.warning("command_refused_silently", author=author, reason="refusals_spent")
                return Done()
            case Decision.DENIED:
                text = replies.denied_text(language)
            case Decision.LIMITED:
                assert decided.retry_at is not None
                text = replies.limited_text(
                    language,
                    decided.retry_at,
                    per_repository=self._limits.per_repository,
                    per_person=self._limits.per_person,
                    timezone=config.timezone,
                )
            case Decision.TAKEN:
                await self._react(client, repo, p)
                text = await self._run(Answering(job, client, repo, config, parse(p.line)))
        body = replies.finish(repo.full_name, comment_id, text)
        await self._reply(job, client, repo, p, body)
        log.info("command_answered", decision=decided.decision.value)
        return Done()

    async def _allowed(self, client: InstallationClient, repo: RepoRow, login: str) -> bool:
        key = (client.installation_id, repo.full_name.lower(), login.lower())
        role = self._permissions.get(key)
        if role is None:
            role = await client.collaborator_permission(repo.full_name, login)
            self._permissions[key] = role
        return role in MAY

    async def _react(
        self, client: InstallationClient, repo: RepoRow, p: DigestCommandPayload
    ) -> None:
        if p.issue is not None:
            await client.react_to_comment(repo.full_name, p.comment_id)
        else:
            await client.react_in_discussion(p.comment_node_id)

    async def _reply(
        self,
        job: Job[DigestCommandPayload],
        client: InstallationClient,
        repo: RepoRow,
        p: DigestCommandPayload,
        body: str,
    ) -> None:
        async def connected() -> InstallationClient:
            return client

        ctx = self._ctx
        poster = Poster(
            ctx.store, ctx.clock, job, repo_id=repo.id, full_name=repo.full_name, client=connected
        )
        reply_to: str | None = None
        if p.issue is None:
            # A reply to a reply goes under the same top-level comment.
            node = p.comment_node_id
            reply_to = await client.thread_of(node) if p.parent_id else node
        await poster.answer(
            Thread.reply(repo.id, repo.full_name, p.comment_id),
            REPLY_KEY,
            body,
            issue=p.issue,
            discussion=None if p.discussion is None else str(p.discussion),
            reply_to=reply_to,
        )

    # --- the commands ----------------------------------------------------------------------

    async def _run(self, asked: Answering) -> str:
        repo, config, command = asked.repo, asked.config, asked.command
        language = config.language
        match command.name:
            case "config":
                origin = repo.config_origin
                fields = replies.config_fields(config, self._ctx.settings.default_language, origin)
                return replies.config_text(
                    language,
                    fields,
                    sha=repo.config_in_force_sha,
                    error=repo.config_error,
                    rejected_sha=repo.config_sha if repo.config_error else None,
                    origin=origin,
                )
            case "explain":
                return await self._explainer.explain(asked)
            case "preview":
                return await self._preview(repo, config, command.day)
            case "rate":
                return await self._rate(asked)
            case _:
                return replies.help_text(language, command.problem)

    async def _rate(self, asked: Answering) -> str:
        """Store the maintainer's importance; a posted digest of the commit's day is edited
        to match by its publication, run again (in the same transaction, so it cannot be
        lost)."""
        repo, config, command = asked.repo, asked.config, asked.command
        ctx, language = self._ctx, config.language
        assert command.sha is not None and command.importance is not None
        found = await ctx.store.digests.named_commits(repo.id, [], [command.sha])
        if not found:
            return replies.unknown_text(language, sha=command.sha, pr=None)
        if len(found) > 1:
            return replies.ambiguous_text(language, command.sha, len(found))
        commit = found[0]
        comment_id = asked.job.payload.comment_id
        earlier = await ctx.store.ratings.get(repo.id, commit.sha)
        decided = await ctx.store.commands.decided(repo.id, comment_id)
        # A rate is applied once: its job run again only replies, so it never puts its
        # rating back over a later one.
        effect = decided.effect if decided is not None else None
        if effect is None and earlier is not None and earlier.comment_id == comment_id:
            # Applied before its effect was recorded apart (migration 0015).
            effect = await self._effect(repo, config, commit, earlier.importance, earlier.previous)
        later = None
        if effect is None:
            effect = await self._apply(asked, commit)
        elif earlier is not None and earlier.comment_id != comment_id:
            later = (earlier.author, earlier.importance)
        return replies.rated_text(
            language,
            commit.sha,
            effect.previous,
            effect.importance,
            day=effect.day,
            posted=effect.posted,
            analysed=effect.analysed,
            excluded=effect.excluded,
            late=effect.late,
            later=later,
        )

    async def _effect(
        self,
        repo: RepoRow,
        config: RepoConfig,
        commit: DayCommit,
        importance: str,
        previous: str | None,
    ) -> RateEffect:
        """What rating the commit `importance` does, as things stand now."""
        day = commit.day(config.schedule)
        day_posted = await self._ctx.store.digests.published(repo.id, Period.day(day))
        posted = commit.published_part is not None and day_posted
        _, excluded = shown_commits(config, [commit])
        return RateEffect(
            sha=commit.sha,
            previous=previous,
            importance=importance,
            day=day,
            posted=posted,
            analysed=commit.analysis is not None,
            excluded=bool(excluded) and not commit.shown,
            late=day_posted and commit.published_part is None,
        )

    async def _apply(self, asked: Answering, commit: DayCommit) -> RateEffect:
        """Store the rating, and record with it (in one transaction) that this command did."""
        ctx, job, repo, command = self._ctx, asked.job, asked.repo, asked.command
        assert command.importance is not None
        previous = commit.rated or _analysed_importance(commit.analysis)
        changed = previous != command.importance
        effect = await self._effect(repo, asked.config, commit, command.importance, previous)
        day, posted = effect.day, effect.posted
        rating = Rating(
            repo_id=repo.id,
            sha=commit.sha,
            importance=command.importance,
            previous=previous,
            author=job.payload.author,
            reason=command.reason,
            comment_id=job.payload.comment_id,
            rated_at=ctx.clock.now(),
        )
        async with ctx.store.jobs.holding(job, ctx.clock.now()) as conn:
            await Ratings.rate(conn, rating, edit=posted and changed)
            await CommandLog.took_effect(conn, repo.id, job.payload.comment_id, effect)
            if posted and changed:
                await ctx.store.jobs.enqueue_in(
                    conn,
                    [PublishPeriodPayload.of(repo.id, Period.day(day))],
                    ctx.clock.now(),
                    rearm=True,
                )
            elif changed and _alerting(asked.config, commit, command.importance):
                # An alert goes ahead of its day's digest: the day's alerts look again.
                await ctx.store.jobs.enqueue_in(
                    conn,
                    [SendAlertsPayload(repo_id=repo.id, sha=commit.sha)],
                    ctx.clock.now(),
                    rearm=True,
                )
            if changed:
                # A folded commit rated below what alerts want (or back) leaves its fold.
                await rearm_folds(conn, repo.id, ctx.clock.now(), shas=[commit.sha])
        log.info("commit_rated", sha=commit.sha, importance=command.importance)
        return effect

    async def _preview(self, repo: RepoRow, config: RepoConfig, day: date | None) -> str:
        store, language = self._ctx.store, config.language
        schedule = config.schedule
        today = schedule.day_of(self._ctx.clock.now())
        day = day or today
        if day > today:
            return replies.preview_future_text(language, day, today, config.timezone)
        if await store.digests.published(repo.id, Period.day(day)):
            head = (await store.posts.recorded(repo.id, Period.day(day).key)).get("part-1")
            if head is not None and head.state is PostState.POSTED and head.url:
                return replies.preview_posted_text(language, day, head.url)
        start, end = schedule.window(day)
        commits = await store.digests.day_commits(repo.id, day, start, end)
        since = schedule.day_of(repo.active_since)
        if not commits and day < since:
            return replies.preview_before_text(language, day, since)
        # As the cutoff will post it: its pushes, the days before and the LLM use beside it.
        alerts = await sent_alerts(store, repo.id, day)
        digest, _ = await gather_day(
            store, self._ctx.settings, repo, config, commits, day=day, late=False, alerts=alerts
        )
        if not digest.commits:
            return replies.preview_text(language, day, None, more_parts=0)
        parts = render(digest)
        # The part's own marker would let the digest's publisher adopt this reply as its post.
        first = parts[0].body.split("\n", 1)[1] if "\n" in parts[0].body else ""
        return replies.preview_text(language, day, first, more_parts=len(parts) - 1)
