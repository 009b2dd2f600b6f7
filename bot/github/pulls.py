"""The pull requests of a batch of commits in one GraphQL query, by the numbers their squash
titles carry (`Title (#1234)`), instead of one "pull requests of this commit" call each.

GitHub answers a number that is not a pull request (an issue, or a PR of another repository
quoted in a title) with a NOT_FOUND error for that alias and the other aliases' data; those
commits fall back to the per-commit lookup.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import gidgethub

from bot.github.calls import InstallationClient, split_repo
from bot.github.errors import GitHubError, RepositoryGone
from bot.models import PullRequestInfo

# Aliases per query: well under GitHub's node limits, and one failing query costs little.
MAX_PER_QUERY = 50
MAX_LABELS = 20

_FIELDS = (
    f"number title body mergeCommit {{ oid }} labels(first: {MAX_LABELS}) {{ nodes {{ name }} }}"
)


# A file's text at a revision rides on the same query (`object(expression: "REV:path")`).
_BLOB = "... on Blob { text byteSize isBinary isTruncated oid }"
# Blob aliases per query: most source files are tens of KB, so the answer stays a few MB
# (GitHub times a query out after 10 s); the commits beyond it are read from their patches.
MAX_BLOBS_PER_QUERY = 60


def pulls_query(count: int, blobs: int = 0) -> str:
    """`query PullRequestsByNumber($owner, $name, $n0, …, $e0, …)` with one alias per number
    and one per file revision."""
    numbers = "".join(f", $n{i}: Int!" for i in range(count))
    numbers += "".join(f", $e{i}: String!" for i in range(blobs))
    aliases = "\n".join(
        [f"    pr{i}: pullRequest(number: $n{i}) {{ {_FIELDS} }}" for i in range(count)]
        + [f"    b{i}: object(expression: $e{i}) {{ {_BLOB} }}" for i in range(blobs)]
    )
    return (
        f"query PullRequestsByNumber($owner: String!, $name: String!{numbers}) {{\n"
        f"  repository(owner: $owner, name: $name) {{\n{aliases}\n  }}\n}}"
    )


def _info(node: dict[str, Any]) -> PullRequestInfo:
    labels = ((node.get("labels") or {}).get("nodes")) or []
    return PullRequestInfo(
        number=int(node["number"]),
        title=str(node.get("title") or ""),
        body=str(node.get("body") or ""),
        labels=[str(label["name"]) for label in labels if label and label.get("name")],
    )


async def pull_requests(
    client: InstallationClient,
    full_name: str,
    numbers: Iterable[int],
    blobs: dict[str, str | None] | None = None,
) -> dict[int, PullRequestInfo]:
    """The pull requests found among these numbers (missing ones are left out). With
    `blobs` (`REV:path` expressions), the first query also carries up to
    `MAX_BLOBS_PER_QUERY` of them and fills in each one's text: None where it is missing,
    binary, or cut by GitHub (`isTruncated`), so that file is read from its patch."""
    found = await _nodes(client, full_name, numbers, blobs)
    return {n: _info(node) for n, node in found.items()}


async def merge_commit(client: InstallationClient, full_name: str, number: int) -> str | None:
    """The commit a merged pull request made on its base branch (its merge, squash or last
    rebased commit), "" for a pull request not merged, None for a number that is not one."""
    node = (await _nodes(client, full_name, [number])).get(number)
    if node is None:
        return None
    return str((node.get("mergeCommit") or {}).get("oid") or "")


async def _nodes(
    client: InstallationClient,
    full_name: str,
    numbers: Iterable[int],
    blobs: dict[str, str | None] | None = None,
) -> dict[int, dict[str, Any]]:
    wanted = sorted(set(numbers))
    owner, name = split_repo(full_name)
    found: dict[int, dict[str, Any]] = {}
    expressions = list(blobs or {})[:MAX_BLOBS_PER_QUERY]
    for start in range(0, len(wanted), MAX_PER_QUERY):
        chunk = wanted[start : start + MAX_PER_QUERY]
        variables: dict[str, Any] = {f"n{i}": n for i, n in enumerate(chunk)}
        riding = expressions if start == 0 else []
        variables |= {f"e{i}": e for i, e in enumerate(riding)}
        try:
            data = await client.gh.graphql(
                pulls_query(len(chunk), len(riding)),
                endpoint=client.gh.graphql_url,
                owner=owner,
                name=name,
                **variables,
            )
        except gidgethub.QueryError as exc:
            # Partial answers: the aliases GitHub could resolve, NOT_FOUND for the others.
            response = exc.response if isinstance(exc.response, dict) else {}
            errors = [e for e in response.get("errors") or [] if isinstance(e, dict)]
            if any(e.get("path") in (None, ["repository"]) for e in errors):
                if any(e.get("type") == "NOT_FOUND" for e in errors):
                    raise RepositoryGone(f"pull_requests: {exc}") from exc
                raise GitHubError(f"pull_requests: {exc}") from exc
            data = response.get("data") or {}
        except gidgethub.GraphQLException as exc:
            raise GitHubError(f"pull_requests: {exc}") from exc
        except gidgethub.BadRequest as exc:
            raise GitHubError(f"pull_requests: HTTP {int(exc.status_code)}") from exc
        repo = (data or {}).get("repository") or {}
        if blobs is not None:
            for i, expression in enumerate(riding):
                blobs[expression] = _text(repo.get(f"b{i}"))
        for i, number in enumerate(chunk):
            node = repo.get(f"pr{i}")
            if isinstance(node, dict) and node.get("number") == number:
                found[number] = node
    return found


def _text(node: Any) -> str | None:
    """A blob's whole text; None for a missing object, a binary blob or a text GitHub cut."""
    if not isinstance(node, dict) or node.get("isBinary") or node.get("isTruncated"):
        return None
    text = node.get("text")
    return text if isinstance(text, str) else None
