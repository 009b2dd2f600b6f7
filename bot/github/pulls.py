"""Pull requests through GraphQL, with file texts riding on the same query: a batch of
commits' by the numbers their squash titles carry (`Title (#1234)`), and one commit's by the
commit itself (`Commit.associatedPullRequests`), GitHub's "pull requests of this commit"
(REST's, without the texts, where that query fails: `pull_request_by_rest`).

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
# Pull requests asked of one commit: GitHub lists the merged one that brought it, and where it
# is not on the default branch the open ones too (`Commit.associatedPullRequests`).
MAX_ASSOCIATED = 5


def pulls_query(count: int, blobs: int = 0) -> str:
    """`query PullRequestsByNumber($owner, $name, $n0, …, $e0, …)` with one alias per number
    and one per file revision."""
    numbers = "".join(f", $n{i}: Int!" for i in range(count))
    aliases = [f"pr{i}: pullRequest(number: $n{i}) {{ {_FIELDS} }}" for i in range(count)]
    return _query("PullRequestsByNumber", numbers, aliases, blobs)


def commit_query(blobs: int = 0) -> str:
    """`query PullRequestsOfCommit($owner, $name, $oid, $e0, …)`: the pull requests a commit
    landed through, and one alias per file revision."""
    pulls = f"associatedPullRequests(first: {MAX_ASSOCIATED}) {{ nodes {{ {_FIELDS} }} }}"
    aliases = [f"commit: object(oid: $oid) {{ ... on Commit {{ {pulls} }} }}"]
    return _query("PullRequestsOfCommit", ", $oid: GitObjectID!", aliases, blobs)


def _query(operation: str, params: str, aliases: list[str], blobs: int) -> str:
    params += "".join(f", $e{i}: String!" for i in range(blobs))
    lines = [*aliases, *(f"b{i}: object(expression: $e{i}) {{ {_BLOB} }}" for i in range(blobs))]
    body = "\n".join(f"    {line}" for line in lines)
    return (
        f"query {operation}($owner: String!, $name: String!{params}) {{\n"
        f"  repository(owner: $owner, name: $name) {{\n{body}\n  }}\n}}"
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


async def pull_request_of(
    client: InstallationClient,
    full_name: str,
    sha: str,
    *,
    number: int | None,
    blobs: dict[str, str | None] | None = None,
) -> PullRequestInfo | None:
    """The pull request a commit landed through: the one whose merge commit it is, else the
    one its title names (`number`), else the first GitHub lists; None for none, or for a
    commit GitHub does not find. `blobs` (`REV:path` expressions, at most
    `MAX_BLOBS_PER_QUERY`) ride on the same query, filled in as `pull_requests` fills them."""
    owner, name = split_repo(full_name)
    riding = list(blobs or {})[:MAX_BLOBS_PER_QUERY]
    repo = await _repository(
        client, commit_query(len(riding)), owner=owner, name=name, oid=sha, **_expressions(riding)
    )
    _fill(repo, riding, blobs)
    connection = (repo.get("commit") or {}).get("associatedPullRequests") or {}
    return _chosen(connection.get("nodes") or [], sha, number)


async def pull_request_by_rest(
    client: InstallationClient, full_name: str, sha: str, *, number: int | None
) -> PullRequestInfo | None:
    """`pull_request_of` by REST's "pull requests of a commit", chosen the same way, without
    the texts: the way round a GraphQL lookup that failed (another budget, FACTS §4)."""
    pulls = await client.commit_pulls(full_name, sha)
    nodes = [
        {
            "number": p.get("number"),
            "title": p.get("title"),
            "body": p.get("body"),
            "mergeCommit": {"oid": p.get("merge_commit_sha")},
            "labels": {"nodes": [x for x in p.get("labels") or [] if isinstance(x, dict)]},
        }
        for p in pulls
    ]
    return _chosen(nodes, sha, number)


def _chosen(nodes: list[Any], sha: str, number: int | None) -> PullRequestInfo | None:
    """The one whose merge commit `sha` is, else the one numbered `number`, else the first."""
    found = [n for n in nodes if isinstance(n, dict) and n.get("number")]
    if not found:
        return None
    chosen = next(
        (n for n in found if (n.get("mergeCommit") or {}).get("oid") == sha),
        next((n for n in found if n.get("number") == number), found[0]),
    )
    return _info(chosen)


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
        repo = await _repository(
            client,
            pulls_query(len(chunk), len(riding)),
            owner=owner,
            name=name,
            **variables,
            **_expressions(riding),
        )
        _fill(repo, riding, blobs)
        for i, number in enumerate(chunk):
            node = repo.get(f"pr{i}")
            if isinstance(node, dict) and node.get("number") == number:
                found[number] = node
    return found


async def _repository(client: InstallationClient, query: str, **variables: Any) -> dict[str, Any]:
    """The `repository` of the query's answer: a partial answer's (the aliases GitHub could
    resolve; NOT_FOUND, null, for the others); an error about the repository itself raised."""
    try:
        data = await client.gh.graphql(query, endpoint=client.gh.graphql_url, **variables)
    except gidgethub.QueryError as exc:
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
    repo = (data or {}).get("repository")
    return repo if isinstance(repo, dict) else {}


def _expressions(riding: list[str]) -> dict[str, str]:
    return {f"e{i}": e for i, e in enumerate(riding)}


def _fill(repo: dict[str, Any], riding: list[str], blobs: dict[str, str | None] | None) -> None:
    if blobs is not None:
        for i, expression in enumerate(riding):
            blobs[expression] = _text(repo.get(f"b{i}"))


def _text(node: Any) -> str | None:
    """A blob's whole text; None for a missing object, a binary blob or a text GitHub cut."""
    if not isinstance(node, dict) or node.get("isBinary") or node.get("isTruncated"):
        return None
    text = node.get("text")
    return text if isinstance(text, str) else None
