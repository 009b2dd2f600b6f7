"""The files a commit reads whole online: the revisions asked of GitHub, kept, and attached."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.analysis.sources import (
    MAX_COMMIT_SOURCE_BYTES,
    MAX_SOURCE_BYTES,
    BlobCache,
    modules_named,
    revisions,
    worth_reading,
)
from bot.github.calls import InstallationClient
from bot.github.errors import GitHubError, RateLimited
from bot.github.pulls import MAX_BLOBS_PER_QUERY, pull_request_by_rest, pull_request_of
from bot.models import FileChange, PullRequestInfo
from bot.runtime.logs import get_logger

log = get_logger(__name__)

# A commit as GitHub's "get a commit" gives it (or prefetch.py makes it): its sha, the answer.
Raw = tuple[str, dict[str, Any] | None]


async def with_pull_request(
    client: InstallationClient,
    full_name: str,
    sha: str,
    raw: dict[str, Any],
    *,
    number: int | None,
    blobs: BlobCache,
) -> PullRequestInfo | None:
    """The pull request a commit landed through, its files' texts riding on the same query
    (one call, as the lookup alone), and the texts, read now or before, attached to `raw`.
    Where that query fails (5xx, timeout, `errors`, GraphQL's rate limit), REST's lookup finds
    the pull request, the files then read from their patches; where that fails too the commit
    stands without it. A rate limit on both is raised, for the job to wait out the first."""
    wanted = riding([(sha, raw)], blobs)
    pull = await _looked_up(client, full_name, sha, number=number, wanted=wanted, blobs=blobs)
    attach(sha, raw, blobs)
    return pull


async def _looked_up(
    client: InstallationClient,
    full_name: str,
    sha: str,
    *,
    number: int | None,
    wanted: dict[str, str | None],
    blobs: BlobCache,
) -> PullRequestInfo | None:
    limits = client.gh.limits
    # GraphQL limited a while yet (another commit met it): not asked again before it ends
    why = "graphql_rate_limited" if limits.current("graphql") else ""
    if not why:
        try:
            pull = await pull_request_of(client, full_name, sha, number=number, blobs=wanted)
        except RateLimited as exc:
            if exc.api != "graphql":
                raise  # REST's (a token): no way round it, the job waits
            why = _failure(exc)
        except GitHubError as exc:
            why = _failure(exc)
        else:
            keep(blobs, wanted)
            return pull
    graphql = limits.current("graphql")
    until = {"graphql_until": graphql.until.isoformat()} if graphql else {}
    log.info("pull_request_by_rest", sha=sha, repo=full_name, reason=why, **until)
    try:
        return await pull_request_by_rest(client, full_name, sha, number=number)
    except RateLimited as exc:
        # Neither answers now: the job waits for the first of the two to.
        if graphql is not None and graphql.until < exc.until:
            raise RateLimited(graphql.until, graphql.kind, api="graphql") from exc
        raise
    except GitHubError as exc:
        # The PR adds context; the commit stands without it.
        log.info("pull_request_unavailable", sha=sha, repo=full_name, reason=_failure(exc))
        return None


def _failure(exc: GitHubError) -> str:
    """What went wrong, in a word for the log (never GitHub's answer itself)."""
    if isinstance(exc, RateLimited):
        return f"{exc.api}_rate_limited"
    return type(exc).__name__


def riding(commits: Iterable[Raw], blobs: BlobCache) -> dict[str, str | None]:
    """The file revisions of these commits not yet in `blobs`, to ask GitHub for: the changed
    files' two sides, and the unchanged modules' one; within `MAX_BLOBS_PER_QUERY`."""
    wanted: dict[str, str | None] = {}
    for sha, raw in commits:
        parent = _parent(raw)
        revs = [r for f in _files(raw) for r in revisions(sha, f, parent).values()]
        revs += [r for _, r in _modules(sha, raw)]
        revs = [r for r in dict.fromkeys(revs) if r not in blobs and r not in wanted]
        # A commit's files all ride, or none do: half of them would say no more than the patch.
        if len(wanted) + len(revs) <= MAX_BLOBS_PER_QUERY:
            wanted |= dict.fromkeys(revs)
    return wanted


def keep(blobs: BlobCache, found: dict[str, str | None]) -> None:
    """The texts GitHub answered, each within `MAX_SOURCE_BYTES` (None: read from the patch)."""
    blobs.update(
        (rev, text if text is None or len(text) <= MAX_SOURCE_BYTES else None)
        for rev, text in found.items()
    )


def attach(sha: str, raw: dict[str, Any] | None, blobs: BlobCache) -> None:
    """The commit's files with the texts found, within the commit's byte bound, and the
    unchanged modules found (`CommitInput.modules`)."""
    if raw is None:
        return
    # (as offline: one side each, outside the changed files' byte bound)
    modules = [(path, blobs.get(rev)) for path, rev in _modules(sha, raw)]
    raw["modules"] = [(path, text) for path, text in modules if text is not None]
    entries = {e.get("filename"): e for e in raw.get("files") or [] if isinstance(e, dict)}
    budget = MAX_COMMIT_SOURCE_BYTES
    parent = _parent(raw)
    # in `worth_reading`'s order: code takes the byte bound before documents do
    for f in _files(raw):
        entry = entries[f.filename]
        for side, rev in revisions(sha, f, parent).items():
            text = blobs.get(rev)
            if text is not None and len(text) <= budget:
                budget -= len(text)
                entry[side] = text


def _parent(raw: dict[str, Any] | None) -> str | None:
    """The first parent's full sha, where the answer names it (prefetch's commits do not)."""
    parents = raw.get("parents") if raw else None
    first = parents[0] if isinstance(parents, list) and parents else None
    sha = first.get("sha") if isinstance(first, dict) else None
    return sha if isinstance(sha, str) and sha else None


def _title(raw: dict[str, Any] | None) -> str:
    """The commit message's first line, where the answer holds it (GitHub's `commit.message`
    or the simple shape's `message`)."""
    if raw is None:
        return ""
    inner = raw.get("commit")
    message = inner.get("message") if isinstance(inner, dict) else raw.get("message")
    return message.split("\n", 1)[0].strip() if isinstance(message, str) else ""


def _changes(raw: dict[str, Any] | None) -> list[FileChange]:
    files = raw.get("files") if raw else None
    if not isinstance(files, list):
        return []
    return [FileChange.model_validate(f) for f in files]


def _files(raw: dict[str, Any] | None) -> list[FileChange]:
    return worth_reading(_changes(raw))


def _modules(sha: str, raw: dict[str, Any] | None) -> list[tuple[str, str]]:
    """The unchanged modules offline reads for the commit (`sources.modules_named`), each
    with its `SHA:path` expression: the same text at the parent, so asked once. Chosen from
    the patches, as the texts are not read yet."""
    paths = modules_named(_changes(raw), patches_only=True, title=_title(raw))
    return [(p, f"{sha}:{p}") for p in paths if "\n" not in p]
