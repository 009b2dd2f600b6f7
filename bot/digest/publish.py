"""Publishing a day's digest where the repository asked, exactly once.

A new Discussion each day (continuation parts as its comments) in the configured category, or
comments on an issue. Every post carries a hidden marker; before creating a post the App
looks for its marker (and records each post the moment it exists), so a crash between
posting and recording edits or skips instead of posting twice. A repository without
Discussions (or without the category, or without permission) gets an issue comment that says why.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

import aiohttp

from bot.clock import Clock
from bot.digest.i18n import strings
from bot.digest.render import Part, marker, render, render_addendum
from bot.digest.usage import day_usage
from bot.github import GitHubApp, InstallationClient
from bot.github.calls import Category, DiscussionSetup, Forbidden, GraphQLFailed
from bot.github.errors import GitHubError, NotInstalled, RateLimited, RepositoryGone
from bot.logs import get_logger
from bot.metrics import Metrics
from bot.models import Analysis, Digest, DigestCommit
from bot.repo_config import RepoConfig
from bot.settings import Settings
from bot.store import Store
from bot.store.digests import ClaimedDigest, DayCommit
from bot.store.repos import RepoRow
from bot.worker import config_of

log = get_logger(__name__)

TRACKING_ISSUE_TITLE = "Commit digest"
# Publishing that keeps failing (GitHub down for hours) is given up after this many tries.
MAX_PUBLISH_ATTEMPTS = 8


@dataclass(frozen=True)
class Outcome:
    state: str  # published | skipped | busy | deferred | failed
    url: str | None = None
    parts: int = 0


class FallBack(Exception):
    """Discussions cannot be used here; the reason is told to readers."""


def _digest_title(config: RepoConfig, repo: str, day: date) -> str:
    default = strings(config.language).default_title
    return config.publish.title_for(repo, day, language=config.language, default=default)


def build_digest(
    repo: RepoRow,
    day: date,
    config: RepoConfig,
    commits: list[DayCommit],
    *,
    late: bool = False,
    forced: int = 0,
    truncated: int = 0,
) -> tuple[Digest, list[str]]:
    """The digest of these commits (excluded ones counted, not listed), and all their shas."""
    excluded: Counter[str] = Counter()
    shown: list[DigestCommit] = []
    for c in commits:
        paths = [str(f.get("filename")) for f in (c.details or {}).get("files") or []]
        reason = config.exclude.reason(
            author=c.author_name, login=c.author_login, message=c.message, paths=paths
        )
        if reason:
            excluded[reason] += 1
            continue
        analysis = Analysis.model_validate(c.analysis) if c.analysis else None
        if analysis is None:
            why = c.last_error or ("not analysed yet" if c.state != "failed" else "analysis failed")
        else:
            why = None
        shown.append(
            DigestCommit(
                sha=c.sha,
                title=c.title,
                url=c.url,
                author=c.author_login or c.author_name,
                landed_at=c.landed_at,
                analysis=analysis,
                not_analysed=why,
                fallback_reason=c.fallback_reason,
            )
        )
    digest = Digest(
        repo=repo.full_name,
        day=day,
        language=config.language,
        timezone=config.timezone,
        cutoff=config.schedule.cutoff,
        title=_digest_title(config, repo.full_name, day),
        commits=tuple(shown),
        excluded=dict(excluded),
        config_error=_config_error(repo, config),
        late=late,
        forced_pushes=forced,
        truncated=truncated,
    )
    return digest, [c.sha for c in commits]


def _config_error(repo: RepoRow, config: RepoConfig) -> str | None:
    """The file's error not yet told, and any exclude pattern that ran out of time just now."""
    known = repo.config_error if repo.config_error and not repo.config_error_reported else None
    slow = config.exclude.problem()
    return "; ".join(e for e in (known, slow) if e) or None


def _hash(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()[:16]


class Publisher:
    def __init__(
        self,
        store: Store,
        github: GitHubApp,
        *,
        clock: Clock,
        settings: Settings,
        metrics: Metrics,
        lease: timedelta = timedelta(minutes=10),
    ) -> None:
        self._store = store
        self._github = github
        self._clock = clock
        self._settings = settings
        self._metrics = metrics
        self._lease = lease

    async def publish(self, repo: RepoRow, day: date, *, late: bool = False) -> Outcome:
        """Publish the day (once); a published day gets its late commits as an addendum."""
        record = await self._store.digests.get(repo.id, day)
        addendum = record is not None and record.published_at is not None
        claim = await self._store.digests.claim(
            repo.id, day, self._clock.now(), lease=self._lease, addendum=addendum
        )
        if claim is None:
            return Outcome("busy")
        try:
            outcome = await (
                self._addendum(repo, claim) if addendum else self._main(repo, claim, late)
            )
        except RateLimited as exc:
            await self._store.digests.release(claim, str(exc), not_before=exc.until, give_up=False)
            return Outcome("deferred")
        except (RepositoryGone, NotInstalled) as exc:
            log.info("digest_unpublishable", day=day.isoformat(), error=str(exc))
            await self._store.digests.release(claim, str(exc), not_before=None, give_up=True)
            self._metrics.digests.labels(outcome="failed").inc()
            return Outcome("failed")
        except (GitHubError, aiohttp.ClientError) as exc:
            give_up = claim.attempts >= MAX_PUBLISH_ATTEMPTS
            delay = timedelta(minutes=min(60, 2**claim.attempts))
            log.warning(
                "digest_publish_failed", day=day.isoformat(), error=str(exc), give_up=give_up
            )
            await self._store.digests.release(
                claim, str(exc), not_before=self._clock.now() + delay, give_up=give_up
            )
            if give_up:
                self._metrics.digests.labels(outcome="failed").inc()
            return Outcome("failed" if give_up else "deferred")
        self._metrics.digests.labels(outcome=outcome.state).inc()
        return outcome

    # --- the day's digest ------------------------------------------------------------------

    async def _main(self, repo: RepoRow, claim: ClaimedDigest, late: bool) -> Outcome:
        config = config_of(repo.config, self._settings.default_language)
        start, end = config.schedule.window(claim.day)
        forced, truncated = await self._store.digests.pushes_between(repo.id, start, end)
        commits = await self._store.digests.day_commits(repo.id, claim.day)
        digest, shas = build_digest(
            repo, claim.day, config, commits, late=late, forced=forced, truncated=truncated
        )
        usage = await day_usage(self._store, self._settings, repo.id, claim.day)
        digest = replace(digest, usage=usage)
        done = self._store.digests.finish
        if not digest.commits and config.skip_empty_days:
            await done(
                claim, state="skipped", shas=shas, part_key="main", late=late, now=self._clock.now()
            )
            log.info("digest_skipped", day=claim.day.isoformat(), excluded=len(shas))
            return Outcome("skipped")

        client = await self._client(repo)
        url: str
        count: int
        if config.publish.to == "discussion" and claim.target != "issue-comment":
            try:
                setup, category = await self._discussion_target(client, repo, config)
                parts = render(digest)
                url = await self._post_discussion(
                    client=client,
                    repo=repo,
                    claim=claim,
                    setup=setup,
                    category=category,
                    digest=digest,
                    parts=parts,
                )
                count = len(parts)
            except FallBack as reason:
                log.info("digest_fallback_to_issue", reason=str(reason))
                digest = _with_note(digest, str(reason))
                parts = render(digest, with_title=True)
                url = await self._post_issue_comments(client, repo, claim, config, parts)
                count = len(parts)
        else:
            parts = render(digest, with_title=True)
            url = await self._post_issue_comments(client, repo, claim, config, parts)
            count = len(parts)
        await done(
            claim, state="published", shas=shas, part_key="main", late=late, now=self._clock.now()
        )
        if digest.config_error:
            await self._store.repos.config_error_reported(repo.id)
        log.info("digest_published", day=claim.day.isoformat(), url=url, parts=count, late=late)
        return Outcome("published", url=url, parts=count)

    async def _client(self, repo: RepoRow) -> InstallationClient:
        installation = repo.installation_id or await self._github.installation_for(repo.full_name)
        return self._github.installation(installation)

    async def _discussion_target(
        self, client: InstallationClient, repo: RepoRow, config: RepoConfig
    ) -> tuple[DiscussionSetup, Category]:
        setup = await client.discussion_setup(repo.full_name)
        if not setup.enabled:
            raise FallBack("Discussions are turned off in this repository.")
        wanted = config.publish.category
        if wanted:
            key = wanted.casefold()
            category = next(
                (c for c in setup.categories if key in (c.name.casefold(), c.slug.casefold())), None
            )
            if category is None:
                raise FallBack(f"the discussion category “{wanted}” does not exist.")
            return setup, category
        # Announcement-format categories take posts from maintainers only: prefer General.
        category = next((c for c in setup.categories if c.slug == "general"), None)
        if category is None and setup.categories:
            category = setup.categories[0]
        if category is None:
            raise FallBack("the repository has no discussion category.")
        return setup, category

    async def _post_discussion(
        self,
        *,
        client: InstallationClient,
        repo: RepoRow,
        claim: ClaimedDigest,
        setup: DiscussionSetup,
        category: Category,
        digest: Digest,
        parts: list[Part],
    ) -> str:
        recorded = {p["key"]: p for p in claim.parts}
        first = parts[0]
        head = recorded.get(first.key)
        if head is None:
            found = await self._find_discussion(
                client, repo, category.id, marker(repo.full_name, claim.day, first.key)
            )
            if found is not None:
                head = {
                    "key": first.key,
                    "kind": "discussion",
                    "id": found["id"],
                    "url": found["url"],
                    "number": found["number"],
                    "hash": _hash(found.get("body") or ""),
                }
            else:
                try:
                    created = await client.create_discussion(
                        setup.repository_id, category.id, title=digest.title, body=first.body
                    )
                except Forbidden as exc:
                    raise FallBack(
                        "the App may not create discussions here "
                        "(it needs the Discussions: write permission)."
                    ) from exc
                except GraphQLFailed as exc:
                    if "UNPROCESSABLE" in exc.types:
                        raise FallBack("GitHub refused to create the discussion.") from exc
                    raise
                head = {
                    "key": first.key,
                    "kind": "discussion",
                    "id": created["id"],
                    "url": created["url"],
                    "number": created["number"],
                    "hash": _hash(first.body),
                }
            await self._store.digests.record_part(claim, head, target="discussion")
        if head["hash"] != _hash(first.body):
            await client.update_discussion(head["id"], body=first.body)
            await self._store.digests.record_part(
                claim, {**head, "hash": _hash(first.body)}, target="discussion"
            )
        await self._post_comments(
            claim,
            parts[1:],
            list_existing=lambda: client.discussion_comments(head["id"]),
            create=lambda body: client.add_discussion_comment(head["id"], body=body),
            update=lambda rec, body: client.update_discussion_comment(rec["id"], body=body),
            kind="discussion-comment",
            target="discussion",
            repo=repo.full_name,
        )
        return str(head["url"])

    async def _find_discussion(
        self, client: InstallationClient, repo: RepoRow, category_id: str, needle: str
    ) -> dict[str, Any] | None:
        # `repository.discussions` has no title or body filter: page the newest and look.
        async for discussion in client.recent_discussions(repo.full_name, category_id):
            if needle in (discussion.get("body") or ""):
                return discussion
        return None

    async def _issue_number(
        self, client: InstallationClient, repo: RepoRow, config: RepoConfig
    ) -> int:
        if config.publish.issue:
            return config.publish.issue
        if repo.tracking_issue:
            return repo.tracking_issue
        issue = await client.create_issue(
            repo.full_name,
            title=TRACKING_ISSUE_TITLE,
            body="The App posts the daily digest of this repository's commits here, "
            "one comment a day.",
        )
        number = int(issue["number"])
        await self._store.repos.set_tracking_issue(repo.id, number)
        return number

    async def _post_issue_comments(
        self,
        client: InstallationClient,
        repo: RepoRow,
        claim: ClaimedDigest,
        config: RepoConfig,
        parts: list[Part],
        *,
        issue: int | None = None,
    ) -> str:
        number = (
            issue
            or next(
                (int(p["number"]) for p in claim.parts if p.get("kind") == "issue-comment"), None
            )
            or await self._issue_number(client, repo, config)
        )
        urls = await self._post_comments(
            claim,
            parts,
            list_existing=lambda: client.issue_comments(repo.full_name, number),
            create=lambda body: client.create_comment(repo.full_name, number, body=body),
            update=lambda rec, body: client.update_comment(
                repo.full_name, int(rec["id"]), body=body
            ),
            kind="issue-comment",
            target="issue-comment",
            repo=repo.full_name,
            number=number,
        )
        return urls[0] if urls else ""

    async def _post_comments(
        self,
        claim: ClaimedDigest,
        parts: list[Part],
        *,
        list_existing: Any,
        create: Any,
        update: Any,
        kind: str,
        target: str,
        repo: str,
        number: int | None = None,
    ) -> list[str]:
        """Post each part once: recorded ones are edited if changed, found ones adopted."""
        recorded = {p["key"]: p for p in claim.parts}
        existing: list[dict[str, Any]] | None = None
        urls = []
        for part in parts:
            rec = recorded.get(part.key)
            if rec is None:
                if existing is None:
                    existing = [c async for c in list_existing()]
                needle = marker(repo, claim.day, part.key)
                found = next((c for c in existing if needle in (c.get("body") or "")), None)
                if found is not None:
                    rec = {
                        "key": part.key,
                        "kind": kind,
                        "id": found["id"],
                        "url": found.get("html_url") or found.get("url"),
                        "number": number,
                        "hash": _hash(found.get("body") or ""),
                    }
                else:
                    made = await create(part.body)
                    rec = {
                        "key": part.key,
                        "kind": kind,
                        "id": made["id"],
                        "url": made.get("html_url") or made.get("url"),
                        "number": number,
                        "hash": _hash(part.body),
                    }
                await self._store.digests.record_part(claim, rec, target=target)
            if rec["hash"] != _hash(part.body):
                await update(rec, part.body)
                rec = {**rec, "hash": _hash(part.body)}
                await self._store.digests.record_part(claim, rec, target=target)
            urls.append(str(rec["url"]))
        return urls

    # --- late commits ----------------------------------------------------------------------

    async def _addendum(self, repo: RepoRow, claim: ClaimedDigest) -> Outcome:
        config = config_of(repo.config, self._settings.default_language)
        everything = await self._store.digests.day_commits(repo.id, claim.day)
        # Numbered by the addenda already completed (their commits carry the number), so a
        # retry after a crash reuses its number and finds its own post by marker.
        completed = {
            c.published_part for c in everything if (c.published_part or "").startswith("addendum-")
        }
        number = len(completed) + 1
        commits = [c for c in everything if c.published_part is None]
        digest, shas = build_digest(repo, claim.day, config, commits)
        done = self._store.digests.finish
        now = self._clock.now()
        if not digest.commits:
            await done(
                claim, state="published", shas=shas, part_key="excluded", late=False, now=now
            )
            return Outcome("skipped")
        parts = render_addendum(digest, number)
        client = await self._client(repo)
        head = next((p for p in claim.parts if p["key"] == "part-1"), None)
        if head is not None and head.get("kind") == "discussion":
            discussion_id = head["id"]
            urls = await self._post_comments(
                claim,
                parts,
                list_existing=lambda: client.discussion_comments(discussion_id),
                create=lambda body: client.add_discussion_comment(discussion_id, body=body),
                update=lambda rec, body: client.update_discussion_comment(rec["id"], body=body),
                kind="discussion-comment",
                target="discussion",
                repo=repo.full_name,
            )
        else:
            issue = int(head["number"]) if head and head.get("number") else None
            urls = [
                await self._post_issue_comments(client, repo, claim, config, parts, issue=issue)
            ]
        key = f"addendum-{number}"
        await done(claim, state="published", shas=shas, part_key=key, late=False, now=now)
        log.info("digest_addendum_published", day=claim.day.isoformat(), commits=len(shas))
        return Outcome("addendum", url=urls[0] if urls else None, parts=len(parts))


def _with_note(digest: Digest, note: str) -> Digest:
    return replace(digest, fallback_note=note)
