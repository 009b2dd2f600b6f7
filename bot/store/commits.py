"""Landed commits and pushes: what the analyse and expand jobs read and write.

The work itself (who does it, when, how often) is the job table's; every write here runs in
a transaction the job holder opened with `Jobs.holding`, so a holder that lost its lease
writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.analysis import AnalysisResult
from bot.models import CommitInput, FileChange, PullRequestInfo
from bot.repo_config import RepoConfig
from bot.store import schema as t
from bot.store.dialect import insert_for
from bot.store.ingest import commit_row
from bot.store.job_payloads import AnalyseCommitPayload
from bot.store.jobs import Jobs
from bot.store.records import NewCommit
from bot.store.repos import config_of


class CommitState(StrEnum):
    PENDING = "pending"
    ANALYZED = "analyzed"
    FAILED = "failed"


@dataclass(frozen=True)
class CommitWork:
    """A stored commit with what its analysis needs to know about its repository."""

    repo_id: int
    sha: str
    full_name: str
    installation_id: int | None
    title: str
    message: str
    author_name: str
    author_login: str | None
    pr_number: int | None
    state: str
    config: RepoConfig  # the repository's, in force
    landed_at: datetime


@dataclass(frozen=True)
class RangeWork:
    """A push whose payload may not list every commit, to expand through compare."""

    delivery_id: str
    repo_id: int
    full_name: str
    installation_id: int | None
    default_branch: str | None
    branch: str
    before: str | None
    after: str
    forced: bool
    pushed_at: datetime
    state: str | None


def _commit(repo_id: int, sha: str) -> sa.Update:
    return sa.update(t.commits).where(t.commits.c.repo_id == repo_id, t.commits.c.sha == sha)


class Commits:
    def __init__(self, engine: AsyncEngine, writer: AsyncEngine) -> None:
        self._engine = engine
        self._writer = writer

    async def for_analysis(
        self, repo_id: int, sha: str, default_language: str
    ) -> CommitWork | None:
        """The commit as its analysis reads it, with its repository's config in force."""
        c = t.commits.c
        async with self._engine.connect() as conn:
            r = (
                await conn.execute(
                    sa.select(
                        t.commits,
                        t.repositories.c.full_name,
                        t.repositories.c.config,
                        t.repositories.c.installation_id.label("repo_installation_id"),
                    )
                    .join(t.repositories, t.repositories.c.id == c.repo_id)
                    .where(c.repo_id == repo_id, c.sha == sha)
                )
            ).first()
        if r is None:
            return None
        return CommitWork(
            repo_id=r.repo_id,
            sha=r.sha,
            full_name=r.full_name,
            installation_id=r.installation_id or r.repo_installation_id,
            title=r.title,
            message=r.message,
            author_name=r.author_name,
            author_login=r.author_login,
            pr_number=r.pr_number,
            state=r.state,
            config=config_of(r.config, default_language),
            landed_at=r.landed_at,
        )

    @staticmethod
    async def save_details(
        conn: AsyncConnection, repo_id: int, sha: str, details: dict[str, Any]
    ) -> None:
        await conn.execute(_commit(repo_id, sha).values(details=details))

    @staticmethod
    async def complete(
        conn: AsyncConnection, repo_id: int, sha: str, result: AnalysisResult, now: datetime
    ) -> bool:
        """Store the analysis of a still-pending commit; False if it was settled meanwhile
        (the publisher analysed it with the rules at the cutoff)."""
        updated = await conn.execute(
            _commit(repo_id, sha)
            .where(t.commits.c.state == CommitState.PENDING.value)
            .values(state=CommitState.ANALYZED.value, last_error=None)
        )
        if not updated.rowcount:
            return False
        await store_analysis(conn, repo_id, sha, result, now)
        return True

    @staticmethod
    async def fail(conn: AsyncConnection, repo_id: int, sha: str, reason: str) -> None:
        await conn.execute(
            _commit(repo_id, sha)
            .where(t.commits.c.state == CommitState.PENDING.value)
            .values(state=CommitState.FAILED.value, last_error=reason[: t.MAX_ERROR_CHARS])
        )

    @staticmethod
    async def note_error(conn: AsyncConnection, repo_id: int, sha: str, reason: str) -> None:
        """Why the last attempt failed (the digest says it if the commit is never analysed)."""
        await conn.execute(_commit(repo_id, sha).values(last_error=reason[: t.MAX_ERROR_CHARS]))

    # --- push ranges ---------------------------------------------------------------------

    async def range_for_expansion(self, delivery_id: str) -> RangeWork | None:
        p = t.pushes.c
        async with self._engine.connect() as conn:
            r = (
                await conn.execute(
                    sa.select(
                        t.pushes,
                        t.repositories.c.full_name,
                        t.repositories.c.default_branch,
                        t.repositories.c.installation_id.label("repo_installation_id"),
                    )
                    .join(t.repositories, t.repositories.c.id == p.repo_id)
                    .where(p.delivery_id == delivery_id)
                )
            ).first()
        if r is None:
            return None
        return RangeWork(
            delivery_id=r.delivery_id,
            repo_id=r.repo_id,
            full_name=r.full_name,
            installation_id=r.installation_id or r.repo_installation_id,
            default_branch=r.default_branch,
            branch=r.ref.removeprefix("refs/heads/"),
            before=r.before,
            after=r.after,
            forced=r.forced,
            pushed_at=r.pushed_at,
            state=r.expand_state,
        )

    @staticmethod
    async def complete_range(
        conn: AsyncConnection,
        work: RangeWork,
        commits: list[NewCommit],
        *,
        total: int,
        now: datetime,
    ) -> int:
        """Store the range's commits (those not stored yet) and enqueue their analysis;
        returns how many were new. The push's commits left unlisted are those of the
        `total` neither in `commits` nor stored from the push's own payload (which may hold
        commits the compare's newest ones leave out)."""
        c = t.commits.c
        from_payload = await conn.execute(
            sa.select(c.sha).where(c.repo_id == work.repo_id, c.delivery_id == work.delivery_id)
        )
        listed = {commit.sha for commit in commits} | set(from_payload.scalars())
        truncated = max(0, total - len(listed))
        await conn.execute(
            sa.update(t.pushes)
            .where(t.pushes.c.delivery_id == work.delivery_id)
            .values(expand_state="done", expanded=len(commits), truncated=truncated)
        )
        if not commits:
            return 0
        rows = [
            commit_row(
                c,
                repo_id=work.repo_id,
                installation_id=work.installation_id,
                delivery_id=work.delivery_id,
                landed_at=work.pushed_at,
                branch=work.branch,
                forced=work.forced,
                now=now,
            )
            for c in commits
        ]
        result = await conn.execute(
            insert_for(conn.dialect.name)(t.commits)
            .on_conflict_do_nothing(index_elements=["repo_id", "sha"])
            .returning(t.commits.c.sha),
            rows,
        )
        new = list(result.scalars())
        await Jobs.enqueue_in(
            conn, [AnalyseCommitPayload(repo_id=work.repo_id, sha=sha) for sha in new], now
        )
        return len(new)

    @staticmethod
    async def fail_range(conn: AsyncConnection, delivery_id: str, reason: str) -> None:
        await conn.execute(
            sa.update(t.pushes)
            .where(t.pushes.c.delivery_id == delivery_id)
            .values(expand_state="failed", last_error=reason[: t.MAX_ERROR_CHARS])
        )

    async def count_by_state(self) -> dict[str, int]:
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                sa.select(t.commits.c.state, sa.func.count()).group_by(t.commits.c.state)
            )
            return {state: int(n) for state, n in rows}


async def store_analysis(
    conn: AsyncConnection, repo_id: int, sha: str, result: AnalysisResult, now: datetime
) -> None:
    analysis = result.analysis
    values = {
        "analyzer": analysis.analyzer,
        "importance": analysis.importance.value,
        "change_types": [c.value for c in analysis.change_types],
        "breaking": analysis.breaking,
        "data": analysis.model_dump(mode="json"),
        "input_tokens": result.input_tokens,
        "output_tokens": result.output_tokens,
        "fallback_reason": result.fallback_reason,
        "created_at": now,
        "cached_input_tokens": result.cached_input_tokens,
        "route": result.route,
        "patch_id": result.patch_id,
        "dropped_claims": result.dropped_claims,
    }
    stmt = insert_for(conn.dialect.name)(t.analyses).values(repo_id=repo_id, sha=sha, **values)
    await conn.execute(stmt.on_conflict_do_update(index_elements=["repo_id", "sha"], set_=values))


def details_of(commit: CommitInput) -> dict[str, Any]:
    """What is kept of a fetched commit: enough for the rules to run later, no patches."""
    return {
        "files": [f.model_dump(exclude={"patch", "before", "after"}) for f in commit.files],
        "pull_request": commit.pull_request.model_dump() if commit.pull_request else None,
        "parents": commit.parents,
    }


def commit_from_details(sha: str, message: str, details: dict[str, Any] | None) -> CommitInput:
    """A commit for the analysers from the stored row (details may not be fetched yet)."""
    if not details:
        return CommitInput(sha=sha, message=message, files_known=False)
    pr = details.get("pull_request")
    return CommitInput(
        sha=sha,
        message=message,
        files=[FileChange.model_validate(f) for f in details.get("files") or []],
        pull_request=PullRequestInfo.model_validate(pr) if pr else None,
        parents=_parents(details.get("parents")),
    )


def _parents(stored: object) -> int:
    """How many parents the stored details say (older rows have none: one)."""
    if isinstance(stored, int) and not isinstance(stored, bool) and stored >= 1:
        return stored
    return len(stored) if isinstance(stored, list) and stored else 1
