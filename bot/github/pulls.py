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


def pulls_query(count: int) -> str:
    """`query PullRequestsByNumber($owner, $name, $n0, $n1, …)` with one alias per number."""
    numbers = "".join(f", $n{i}: Int!" for i in range(count))
    aliases = "\n".join(
        f"    pr{i}: pullRequest(number: $n{i}) {{ {_FIELDS} }}" for i in range(count)
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
    client: InstallationClient, full_name: str, numbers: Iterable[int]
) -> dict[int, PullRequestInfo]:
    """The pull requests found among these numbers (missing ones are left out)."""
    return {n: _info(node) for n, node in (await _nodes(client, full_name, numbers)).items()}


async def merge_commit(client: InstallationClient, full_name: str, number: int) -> str | None:
    """The commit a merged pull request made on its base branch (its merge, squash or last
    rebased commit), "" for a pull request not merged, None for a number that is not one."""
    node = (await _nodes(client, full_name, [number])).get(number)
    if node is None:
        return None
    return str((node.get("mergeCommit") or {}).get("oid") or "")


async def _nodes(
    client: InstallationClient, full_name: str, numbers: Iterable[int]
) -> dict[int, dict[str, Any]]:
    wanted = sorted(set(numbers))
    owner, name = split_repo(full_name)
    found: dict[int, dict[str, Any]] = {}
    for start in range(0, len(wanted), MAX_PER_QUERY):
        chunk = wanted[start : start + MAX_PER_QUERY]
        variables = {f"n{i}": n for i, n in enumerate(chunk)}
        try:
            data = await client.gh.graphql(
                pulls_query(len(chunk)),
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
        for i, number in enumerate(chunk):
            node = repo.get(f"pr{i}")
            if isinstance(node, dict) and node.get("number") == number:
                found[number] = node
    return found
