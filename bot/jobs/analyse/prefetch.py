"""Fetch the commits of a round's `analyse_commit` jobs together: consecutive pushes of a
branch through one compare call (`git format-patch` form, parsed and checked per commit),
and their pull requests through one GraphQL query by the numbers in their squash titles.

What cannot be fetched together (a lone commit, a created branch, a force push, a merge,
a commit whose patch does not add up, a GitHub error) is left to the analyse jobs' per-commit
calls: a failed batch costs its own call, never a commit. GitHub documents the patch media
type for compare; that its body is the range's `git format-patch` series (as github.com's
`/compare/A...B.patch` is) is our reading of it, which the per-commit diffstat check guards.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.analysis.sources import BlobCache
from bot.github.calls import InstallationClient, split_repo
from bot.github.patches import commits_from_series
from bot.github.pulls import pull_requests
from bot.jobs.analyse.texts import attach, keep, riding
from bot.models import PullRequestInfo
from bot.runtime.logs import get_logger
from bot.store.commits import CommitWork
from bot.store.lineage import PushOf, pushes_of

log = get_logger(__name__)

Key = tuple[int, str]
ClientFor = Callable[[CommitWork], Awaitable[InstallationClient]]
# A compare call covers at most this many claimed commits (GitHub lists 250 without paging,
# and a large series may time out).
MAX_SERIES = 50


@dataclass
class Prefetched:
    """Commits (GitHub "get a commit" shape) and pull requests fetched for a round."""

    commits: dict[Key, dict[str, Any]] = field(default_factory=dict)
    # Commits whose title number is not a pull request of the repository are not here: the
    # per-commit lookup finds what they landed through.
    pulls: dict[Key, PullRequestInfo] = field(default_factory=dict)


def runs(claims: list[CommitWork], pushes: dict[Key, PushOf]) -> list[list[CommitWork]]:
    """Runs of claims of one repository and branch whose pushes follow each other."""
    out: list[list[CommitWork]] = []
    last: dict[tuple[int, str], tuple[list[CommitWork], PushOf]] = {}
    for claim in claims:
        push = pushes.get((claim.repo_id, claim.sha))
        if push is None or not push.linear:
            continue
        lane = (claim.repo_id, push.branch)
        previous = last.get(lane)
        if (
            previous is not None
            and len(previous[0]) < MAX_SERIES
            and (push.delivery_id == previous[1].delivery_id or push.before == previous[1].after)
        ):
            previous[0].append(claim)
            last[lane] = (previous[0], push)
            continue
        run = [claim]
        out.append(run)
        last[lane] = (run, push)
    return [r for r in out if len(r) >= 2]


def _raw(claim: CommitWork, files: list[dict[str, Any]]) -> dict[str, Any]:
    owner, name = split_repo(claim.full_name)
    return {
        "sha": claim.sha,
        "html_url": f"https://github.com/{owner}/{name}/commit/{claim.sha}",
        "commit": {"message": claim.message, "author": {"name": claim.author_name}},
        "files": files,
    }


async def prefetch(
    claims: list[CommitWork],
    *,
    engine: AsyncEngine,
    client_for: ClientFor,
    blobs: BlobCache | None = None,
) -> Prefetched:
    """What could be fetched together for these claims (never raises for GitHub's answers).
    With `blobs`, the changed code files of the commits fetched together are read whole at
    both revisions in the pull requests' query, and the unchanged modules the analysis reads
    for them (`sources.modules_named`) once at the commit; each text kept in `blobs`."""
    done = Prefetched()
    if len(claims) < 2:
        return done
    pushes = await pushes_of(engine, [(c.repo_id, c.sha) for c in claims])
    for run in runs(claims, pushes):
        first = pushes[(run[0].repo_id, run[0].sha)]
        assert first.before is not None
        try:
            client = await client_for(run[0])
            text = await client.compare_series(run[0].full_name, first.before, run[-1].sha)
        except Exception as exc:  # batching only saves calls: anything wrong, fetch one by one
            log.info("series_fetch_failed", repo=run[0].full_name, error=str(exc)[:200])
            continue
        found = commits_from_series(text, [c.sha for c in run])
        for claim in run:
            if claim.sha in found:
                done.commits[(claim.repo_id, claim.sha)] = _raw(claim, found[claim.sha])
        log.info("series_fetched", repo=run[0].full_name, commits=len(run), parsed=len(found))

    by_repo: dict[int, list[CommitWork]] = {}
    for claim in claims:
        if claim.pr_number is not None:
            by_repo.setdefault(claim.repo_id, []).append(claim)
    for group in by_repo.values():
        if len(group) < 2:
            continue  # one commit: the per-commit lookup costs the same and checks the sha
        wanted = (
            None
            if blobs is None
            else riding([(c.sha, done.commits.get((c.repo_id, c.sha))) for c in group], blobs)
        )
        try:
            client = await client_for(group[0])
            found_pulls = await pull_requests(
                client, group[0].full_name, [c.pr_number for c in group if c.pr_number], wanted
            )
        except Exception as exc:
            log.info("pull_requests_fetch_failed", repo=group[0].full_name, error=str(exc)[:200])
            continue
        if blobs is not None and wanted is not None:
            keep(blobs, wanted)
            for claim in group:
                attach(claim.sha, done.commits.get((claim.repo_id, claim.sha)), blobs)
        for claim in group:
            if claim.pr_number in found_pulls:
                done.pulls[(claim.repo_id, claim.sha)] = found_pulls[claim.pr_number]
    return done
