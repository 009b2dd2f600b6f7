"""`/digest explain <sha-prefix | #PR>`: a commit's whole analysis, as its digest shows it.

A stored commit is shown from the store, with the digest and alert that hold it. A commit the
App never stored (it landed before the App was installed, or in a push it did not receive) is
fetched from GitHub, checked to be on a tracked branch, and analysed now by the analyses' own
governor: the rules, or the LLM within the day's caps, which count it on the day it was asked.
Its analysis is kept apart from the day's commits (`explained`), so no digest, alert or
roll-up lists it, and a second explain of it costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from bot.analysis import AnalysisResult
from bot.analysis.budget import Route
from bot.analysis.sources import blob_cache
from bot.digest import command_replies as replies
from bot.digest.command_syntax import Command
from bot.digest.render import render_commit
from bot.github.calls import CommitMissing, InstallationClient
from bot.github.pulls import merge_commit
from bot.jobs.alert_jobs import sent_alerts
from bot.jobs.analyse.governor import Governor
from bot.jobs.analyse.texts import with_pull_request
from bot.jobs.context import JobContext
from bot.jobs.digest_build import build_digest
from bot.models import CommitInput, Digest
from bot.periods.period import Period
from bot.repo_config import Exclude, RepoConfig, tracks
from bot.runtime.logs import get_logger
from bot.store.digests import DayCommit
from bot.store.explained import Explained, Kept
from bot.store.job_payloads import DigestCommandPayload
from bot.store.jobs import Job
from bot.store.repos import RepoRow

log = get_logger(__name__)

# Tracked branches asked about (one compare call each); a glob in `branches` names none.
MAX_BRANCHES = 5
_GLOB = frozenset("*?[")


@dataclass(frozen=True)
class Answering:
    """A `/digest` command being answered: its job, the repository's GitHub client, the
    repository and the config in force, and what it asks."""

    job: Job[DigestCommandPayload]
    client: InstallationClient
    repo: RepoRow
    config: RepoConfig
    command: Command


@dataclass(frozen=True)
class TrackedBranches:
    """The tracked branches a commit is looked for on, and what `branches` tracks that is not
    looked at: its patterns, and how many literal names are past `MAX_BRANCHES`."""

    checked: list[str]
    patterns: list[str]
    more: int


def tracked_branches(repo: RepoRow, config: RepoConfig) -> TrackedBranches:
    """The branches a commit may be on to be digested that can be named: the literal names in
    `branches`, and the default branch when it is tracked (the first `MAX_BRANCHES`)."""
    names = [b for b in config.branches or [] if not _GLOB & set(b)]
    patterns = [b for b in config.branches or [] if _GLOB & set(b)]
    default = repo.default_branch
    if (
        default
        and default not in names
        and tracks(default, default_branch=default, patterns=config.branches)
    ):
        names.insert(0, default)
    return TrackedBranches(names[:MAX_BRANCHES], patterns, max(0, len(names) - MAX_BRANCHES))


class Explainer:
    def __init__(self, ctx: JobContext, governor: Governor) -> None:
        self._ctx = ctx
        self._governor = governor

    async def explain(self, asked: Answering) -> str:
        client, repo, config, command = asked.client, asked.repo, asked.config, asked.command
        store, language = self._ctx.store, config.language
        found = await store.digests.named_commits(
            repo.id,
            [command.pr] if command.pr is not None else [],
            [command.sha] if command.sha else [],
        )
        by_sha = {c.sha: c for c in found}
        if len(by_sha) > 1:
            what = f"#{command.pr}" if command.pr is not None else (command.sha or "")
            listed = sorted(by_sha.values(), key=lambda c: (c.landed_at, c.sha))
            return replies.ambiguous_text(
                language, what, len(listed), [(c.sha, c.title) for c in listed]
            )
        if by_sha:
            return await self._stored(repo, config, found[0])
        ref = command.sha
        if command.pr is not None:
            merged = await merge_commit(client, repo.full_name, command.pr)
            if merged is None:
                return replies.unknown_text(language, sha=None, pr=command.pr)
            if not merged:
                return replies.not_merged_text(language, command.pr)
            stored = await store.digests.named_commits(repo.id, [], [merged])
            if stored:
                return await self._stored(repo, config, stored[0])
            ref = merged
        assert ref is not None
        return await self._unstored(asked, ref)

    async def _stored(self, repo: RepoRow, config: RepoConfig, commit: DayCommit) -> str:
        store, language = self._ctx.store, config.language
        schedule = config.schedule
        day = commit.day(schedule)
        start, end = schedule.window(day)
        alerts = await sent_alerts(store, repo.id, day)
        if commit.shown:
            # Explained as its post shows it, whatever `exclude` says now.
            config = config.model_copy(update={"exclude": Exclude()})
        digest, _ = build_digest(
            repo,
            day,
            config,
            await store.digests.day_commits(repo.id, day, start, end),
            alerts=alerts,
        )
        shown = next((c for c in digest.commits if c.sha == commit.sha), None)
        if shown is None:
            return replies.pending_text(language, commit.sha, "excluded", day=day)
        if shown.analysis is None:
            return replies.pending_text(language, commit.sha, commit.state, day=day)
        posts = await store.posts.recorded(repo.id, Period.day(day).key)
        part = posts.get(commit.published_part or "") or posts.get("part-1")
        # Not in a post yet, of a day already posted: it came late, and an addendum adds it.
        late = commit.published_part is None and await store.digests.published(
            repo.id, Period.day(day)
        )
        posted = commit.published_part is not None or late
        digest_url = part.url if part is not None and posted else None
        return replies.explain_text(
            language,
            render_commit(digest, commit.sha),
            day=day,
            digest_url=digest_url,
            alert_url=alerts.get(commit.sha),
            late=late,
        )

    async def _unstored(self, asked: Answering, ref: str) -> str:
        """A commit GitHub has and the store does not: on a tracked branch, analysed now."""
        client, repo, config, pr = asked.client, asked.repo, asked.config, asked.command.pr
        ctx, language = self._ctx, config.language
        try:
            raw = await client.get_commit(repo.full_name, ref)
        except CommitMissing:
            # GitHub refuses an unknown sha and an ambiguous prefix alike.
            return replies.unknown_text(language, sha=ref, pr=None, on_github=True)
        sha = str(raw["sha"])
        tracked = tracked_branches(repo, config)
        if not await _on_any(client, repo.full_name, tracked.checked, sha):
            return replies.not_on_branch_text(
                language, sha, tracked.checked, patterns=tracked.patterns, more=tracked.more
            )
        # The files read whole as the analyse job reads them, so the answer says what it does.
        pull = await with_pull_request(
            client, repo.full_name, sha, raw, number=pr, blobs=blob_cache()
        )
        commit = CommitInput.from_github(raw, repo=repo.full_name, pull_request=pull)
        landed = _landed_at(raw) or ctx.clock.now()
        schedule = config.schedule
        day = schedule.day_of(landed)
        excluded = config.exclude.reason(
            author=commit.author,
            login=_login(raw),
            message=commit.message,
            paths=[f.filename for f in commit.files],
        )
        if excluded:
            return replies.pending_text(language, sha, "excluded", day=day)
        kept = await ctx.store.explained.get(repo.id, sha)
        now = ctx.clock.now()
        # Charged to the day it is asked on: the commit's own day is long settled.
        today = schedule.window(schedule.day_of(now))
        if kept is not None and reusable(kept, today):
            result = kept.result
        else:
            result = await self._governor.analyze(
                commit,
                repo_id=repo.id,
                installation_id=repo.installation_id,
                config=config,
                excluded=None,
                day=today,
            )
            if kept is not None and today[0] <= kept.created_at < today[1]:
                result = _with_tokens_of(result, kept.result)  # today's use stays counted
            async with ctx.store.jobs.holding(asked.job, now) as conn:
                replacing = kept.created_at if kept is not None else None
                await Explained.put(conn, repo.id, sha, result, now, replacing=replacing)
            log.info("commit_explained_now", sha=sha, route=result.route, again=kept is not None)
        return replies.explained_now_text(
            language,
            render_commit(_digest_of(repo, config, raw, commit, result=result, landed=landed), sha),
        )


def reusable(kept: Kept, today: tuple[datetime, datetime]) -> bool:
    """Whether a kept analysis answers a later explain: not when its LLM call failed (the
    LLM is asked again, within the day's caps), and a cap or budget stand-in only on the day
    it was made (`today`: that day's [start, end)), when the LLM has no room anyway."""
    route = kept.result.route
    if route == Route.LLM and kept.result.fallback_reason:
        return False
    if route in (Route.CAP, Route.BUDGET):
        return today[0] <= kept.created_at < today[1]
    return True


def _with_tokens_of(result: AnalysisResult, earlier: AnalysisResult) -> AnalysisResult:
    """`result` counting the tokens `earlier` used too (both asked the same day)."""
    return replace(
        result,
        input_tokens=result.input_tokens + earlier.input_tokens,
        output_tokens=result.output_tokens + earlier.output_tokens,
        cached_input_tokens=result.cached_input_tokens + earlier.cached_input_tokens,
    )


def _digest_of(
    repo: RepoRow,
    config: RepoConfig,
    raw: dict[str, Any],
    commit: CommitInput,
    *,
    result: AnalysisResult,
    landed: datetime,
) -> Digest:
    """A digest of the one commit, for its section."""
    day = config.schedule.day_of(landed)
    one = DayCommit(
        sha=commit.sha,
        title=commit.message.split("\n", 1)[0],
        message=commit.message,
        url=str(raw.get("html_url") or ""),
        author_name=commit.author,
        author_login=_login(raw),
        landed_at=landed,
        state="analyzed",
        last_error=None,
        details=None,
        published_part=None,
        analysis=result.analysis.model_dump(mode="json"),
        fallback_reason=result.fallback_reason,
    )
    digest, _ = build_digest(repo, day, config, [one])
    return digest


async def _on_any(
    client: InstallationClient, full_name: str, branches: list[str], sha: str
) -> bool:
    for branch in branches:
        if await client.contains(full_name, branch, sha):
            return True
    return False


def _login(raw: dict[str, Any]) -> str | None:
    author = raw.get("author")
    return str(author["login"]) if isinstance(author, dict) and author.get("login") else None


def _landed_at(raw: dict[str, Any]) -> datetime | None:
    """When the commit was committed (what GitHub knows of when it landed)."""
    inner = raw.get("commit") or {}
    stamp = (inner.get("committer") or {}).get("date") or (inner.get("author") or {}).get("date")
    try:
        at = datetime.fromisoformat(str(stamp).replace("Z", "+00:00")) if stamp else None
    except ValueError:
        return None
    return at.replace(tzinfo=UTC) if at is not None and at.tzinfo is None else at
