"""The GitHub calls the App makes, each a small typed function on one installation's client."""

from __future__ import annotations

import base64
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import gidgethub

from bot.github.client import GitHubAPI
from bot.github.errors import GitHubError, IssueGone, PostGone, RepositoryGone
from bot.github.limits import MAX_COMMIT_FILES

P = ParamSpec("P")
R = TypeVar("R")

# Commits per page of a compare (its own cap, without paging, is 250).
COMPARE_PAGE = 100


class Forbidden(GitHubError):
    """403 that is not a rate limit: a permission the installation lacks."""


class CommitMissing(GitHubError):
    """The repository is there but the commit is not (force-pushed away, or never pushed)."""


class GraphQLFailed(GitHubError):
    """A GraphQL answer with errors; `types` holds their `type` fields."""

    def __init__(self, message: str, types: set[str]) -> None:
        super().__init__(message)
        self.types = types


class NotFound(GitHubError):
    """GraphQL NOT_FOUND for a node a call named by id (a discussion, a comment, a category):
    deleted, its repository gone, or a moment's trouble. `InstallationClient.not_found`
    tells which; only a repository lookup that finds nothing means the repository is gone."""


def _graphql_types(exc: gidgethub.QueryError) -> set[str]:
    errors = exc.response.get("errors", []) if isinstance(exc.response, dict) else []
    return {str(e.get("type")) for e in errors if isinstance(e, dict)}


def _mapped(call: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """gidgethub's HTTP errors as the App's own (a GraphQL NOT_FOUND: the repository the call
    names is gone)."""
    return _mapping(call, not_found=RepositoryGone)


def _by_id(call: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """As `_mapped`, for a call that names nodes by id: their NOT_FOUND is `NotFound`."""
    return _mapping(call, not_found=NotFound)


def _mapping(
    call: Callable[P, Awaitable[R]], *, not_found: type[GitHubError]
) -> Callable[P, Awaitable[R]]:
    @wraps(call)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await call(*args, **kwargs)
        except gidgethub.BadRequest as exc:
            status = int(exc.status_code)
            if status in (404, 410):
                raise RepositoryGone(f"{call.__name__}: HTTP {status}") from exc
            if status == 403:
                raise Forbidden(f"{call.__name__}: {exc}") from exc
            if status == 422 and call.__name__ == "get_commit":
                raise CommitMissing(f"{call.__name__}: {exc}") from exc
            raise GitHubError(f"{call.__name__}: HTTP {status}: {exc}") from exc
        except gidgethub.QueryError as exc:
            types = _graphql_types(exc)
            if "NOT_FOUND" in types:
                raise not_found(f"{call.__name__}: {exc}") from exc
            if "FORBIDDEN" in types:
                raise Forbidden(f"{call.__name__}: {exc}") from exc
            raise GraphQLFailed(f"{call.__name__}: {exc}", types) from exc
        except gidgethub.GraphQLException as exc:
            raise GraphQLFailed(f"{call.__name__}: {exc}", set()) from exc

    return wrapper


@dataclass(frozen=True)
class RepoInfo:
    id: int
    node_id: str
    full_name: str
    default_branch: str
    has_issues: bool


@dataclass(frozen=True)
class FileContent:
    sha: str
    text: str


@dataclass(frozen=True)
class Comparison:
    """Commits of `base...head`, oldest first: the newest `limit` of them."""

    commits: list[dict[str, Any]]
    total: int

    @property
    def truncated(self) -> int:
        return max(0, self.total - len(self.commits))


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    slug: str


@dataclass(frozen=True)
class DiscussionSetup:
    repository_id: str
    enabled: bool
    categories: list[Category]


@dataclass(frozen=True)
class Made:
    """A post GitHub just made: its id (a node id, or a REST comment's number as text), its
    page, and its number where it has one (a discussion, an issue)."""

    id: str
    url: str | None
    number: int | None = None


@dataclass(frozen=True)
class Discussion:
    """A discussion as a listing shows it."""

    id: str
    number: int | None
    url: str | None
    title: str
    body: str
    category_id: str | None
    viewer_did_author: bool


@dataclass(frozen=True)
class Issue:
    """An issue as a listing shows it."""

    number: int
    url: str | None
    body: str
    viewer_did_author: bool


@dataclass(frozen=True)
class Comment:
    """A comment (a discussion's, a reply, an issue's) as a listing shows it; `id` is a node
    id, or an issue comment's REST number as text."""

    id: str
    url: str | None
    body: str
    viewer_did_author: bool


def _comment(node: dict[str, Any]) -> Comment:
    return Comment(
        str(node["id"]), node.get("url"), node.get("body") or "", bool(node.get("viewerDidAuthor"))
    )


def file_content(data: Any, path: str) -> FileContent:
    """A text file from the contents API's answer."""
    if not isinstance(data, dict) or data.get("type") != "file":
        raise GitHubError(f"{path} is not a file")
    if data.get("encoding") != "base64":
        # Files over 1 MB come without content (encoding "none").
        raise GitHubError(f"{path} is too large to read ({data.get('size')} bytes)")
    # Not UTF-8 is the file's problem, told by the parser that reads it, not a crash here.
    text = base64.b64decode(data.get("content") or "").decode("utf-8", "surrogateescape")
    return FileContent(sha=str(data["sha"]), text=text)


def split_repo(full_name: str) -> tuple[str, str]:
    owner, _, name = full_name.partition("/")
    return owner, name


# --- GraphQL operations (validated against GitHub's schema by the fake GitHub) --------------

Q_SETUP = """query RepoDiscussionSetup($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    id
    hasDiscussionsEnabled
    discussionCategories(first: 25) { nodes { id name slug } }
  }
}"""

Q_RECENT = """query RecentDiscussions(
  $owner: String!, $name: String!, $categoryId: ID, $after: String
) {
  repository(owner: $owner, name: $name) {
    discussions(first: 50, after: $after, categoryId: $categoryId,
                orderBy: {field: CREATED_AT, direction: DESC}) {
      pageInfo { hasNextPage endCursor }
      nodes { id number title url body createdAt viewerDidAuthor category { id } }
    }
  }
}"""

Q_RECENT_ISSUES = """query RecentIssues($owner: String!, $name: String!, $after: String) {
  repository(owner: $owner, name: $name) {
    issues(first: 50, after: $after, orderBy: {field: CREATED_AT, direction: DESC}) {
      pageInfo { hasNextPage endCursor }
      nodes { number url body viewerDidAuthor }
    }
  }
}"""

Q_ISSUE = """query IssueThere($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    issue(number: $number) { number repository { nameWithOwner } }
  }
}"""

Q_NODE = """query PostThere($id: ID!) {
  node(id: $id) { id }
}"""

Q_COMMENTS = """query DiscussionComments($id: ID!, $after: String) {
  node(id: $id) {
    ... on Discussion {
      comments(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id url body viewerDidAuthor }
      }
    }
  }
}"""

M_CREATE = """mutation CreateDigestDiscussion(
  $repositoryId: ID!, $categoryId: ID!, $title: String!, $body: String!
) {
  createDiscussion(input: {
    repositoryId: $repositoryId, categoryId: $categoryId, title: $title, body: $body
  }) {
    discussion { id number url title }
  }
}"""

M_UPDATE = """mutation UpdateDigestDiscussion($discussionId: ID!, $body: String) {
  updateDiscussion(input: {discussionId: $discussionId, body: $body}) {
    discussion { id url }
  }
}"""

M_COMMENT = """mutation AddDigestComment($discussionId: ID!, $body: String!) {
  addDiscussionComment(input: {discussionId: $discussionId, body: $body}) {
    comment { id url }
  }
}"""

M_UPDATE_COMMENT = """mutation UpdateDigestComment($commentId: ID!, $body: String!) {
  updateDiscussionComment(input: {commentId: $commentId, body: $body}) {
    comment { id url }
  }
}"""

M_REPLY = """mutation ReplyToCommand($discussionId: ID!, $replyToId: ID!, $body: String!) {
  addDiscussionComment(input: {discussionId: $discussionId, replyToId: $replyToId, body: $body}) {
    comment { id url }
  }
}"""

M_REACT = """mutation ReactToCommand($subjectId: ID!) {
  addReaction(input: {subjectId: $subjectId, content: EYES}) {
    reaction { content }
  }
}"""

# A command given up on: 😕 in place of its 👀. By node id, as an issue comment is Reactable
# too, and GitHub's REST API (the subset the App uses) has no call to take a reaction away.
M_GAVE_UP = """mutation CommandGivenUp($subjectId: ID!) {
  confused: addReaction(input: {subjectId: $subjectId, content: CONFUSED}) {
    reaction { content }
  }
  eyes: removeReaction(input: {subjectId: $subjectId, content: EYES}) {
    reaction { content }
  }
}"""

M_TOOK_EFFECT = """mutation CommandTookEffect($subjectId: ID!) {
  done: addReaction(input: {subjectId: $subjectId, content: THUMBS_UP}) {
    reaction { content }
  }
  eyes: removeReaction(input: {subjectId: $subjectId, content: EYES}) {
    reaction { content }
  }
}"""

Q_THREAD = """query CommandThread($id: ID!) {
  node(id: $id) {
    ... on DiscussionComment { id replyTo { id } }
  }
}"""

Q_REPLIES = """query CommandReplies($id: ID!, $after: String) {
  node(id: $id) {
    ... on DiscussionComment {
      replies(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id url body viewerDidAuthor }
      }
    }
  }
}"""


class InstallationClient:
    """GitHub as one installation sees it."""

    def __init__(self, gh: GitHubAPI, installation_id: int) -> None:
        self.gh = gh
        self.installation_id = installation_id

    # --- reads ---------------------------------------------------------------------------

    @_mapped
    async def get_commit(self, full_name: str, sha: str) -> dict[str, Any]:
        """The commit with all its files (GitHub pages them past 300, up to 3,000)."""
        owner, repo = split_repo(full_name)
        commit: dict[str, Any] | None = None
        async for page in self.gh.pages(
            "/repos/{owner}/{repo}/commits/{ref}", {"owner": owner, "repo": repo, "ref": sha}
        ):
            if commit is None:
                commit = page
                commit["files"] = list(page.get("files") or [])
            else:
                commit["files"] += page.get("files") or []
            if len(commit["files"]) >= MAX_COMMIT_FILES:
                break
        assert commit is not None
        return commit

    @_mapped
    async def compare(self, full_name: str, base: str, head: str, *, limit: int) -> Comparison:
        """The newest `limit` commits of `base...head`, oldest first, and how many it has.

        GitHub pages compare's commits chronologically (FACTS §2: the newest come last), so
        beyond `limit` the first page only tells the total, and the pages holding the
        newest are asked for by number."""
        owner, repo = split_repo(full_name)
        template = "/repos/{owner}/{repo}/compare/{basehead}{?per_page,page}"
        variables = {"owner": owner, "repo": repo, "basehead": f"{base}...{head}"}
        first = await self.gh.getitem(template, {**variables, "per_page": COMPARE_PAGE, "page": 1})
        total = int(first.get("total_commits") or 0)
        pages = -(-total // COMPARE_PAGE)  # ceiling
        skip = max(0, total - limit)  # the oldest, left out
        start = skip // COMPARE_PAGE + 1
        commits: list[dict[str, Any]] = []
        for page in range(start, pages + 1):
            data = (
                first
                if page == 1
                else await self.gh.getitem(
                    template, {**variables, "per_page": COMPARE_PAGE, "page": page}
                )
            )
            commits += data.get("commits") or []
        commits = commits[skip - (start - 1) * COMPARE_PAGE :]
        if total == 0:
            commits = first.get("commits") or []
        return Comparison(commits=commits[-limit:], total=max(total, len(commits)))

    @_mapped
    async def contains(self, full_name: str, branch: str, sha: str) -> bool:
        """Whether `sha` is in `branch`'s history: `branch...sha` compares `behind` or
        `identical` (a branch GitHub does not know, or no common history, answers 404)."""
        owner, repo = split_repo(full_name)
        try:
            data = await self.gh.getitem(
                "/repos/{owner}/{repo}/compare/{basehead}{?per_page}",
                {"owner": owner, "repo": repo, "basehead": f"{branch}...{sha}", "per_page": 1},
            )
        except gidgethub.BadRequest as exc:
            if int(exc.status_code) == 404:
                return False
            raise
        return isinstance(data, dict) and data.get("status") in ("behind", "identical")

    @_mapped
    async def compare_series(self, full_name: str, base: str, head: str) -> str:
        """The commits of `base...head` as one `git format-patch` series (the patch media
        type; see `bot.github.patches`), or "" when the answer is not text."""
        owner, repo = split_repo(full_name)
        text = await self.gh.getitem(
            "/repos/{owner}/{repo}/compare/{basehead}",
            {"owner": owner, "repo": repo, "basehead": f"{base}...{head}"},
            accept="application/vnd.github.patch",
        )
        return text if isinstance(text, str) else ""

    @_mapped
    async def commit_pulls(self, full_name: str, sha: str) -> list[dict[str, Any]]:
        """REST's "pull requests of a commit" (`GET /repos/{o}/{r}/commits/{sha}/pulls`): the
        merged one that brought it, and where it is not on the default branch the open ones."""
        owner, repo = split_repo(full_name)
        pulls = await self.gh.getitem(
            "/repos/{owner}/{repo}/commits/{commit_sha}/pulls",
            {"owner": owner, "repo": repo, "commit_sha": sha},
        )
        return [p for p in pulls if isinstance(p, dict)] if isinstance(pulls, list) else []

    @_mapped
    async def get_repository(self, full_name: str) -> RepoInfo:
        owner, repo = split_repo(full_name)
        data = await self.gh.getitem("/repos/{owner}/{repo}", {"owner": owner, "repo": repo})
        return RepoInfo(
            id=int(data["id"]),
            node_id=str(data["node_id"]),
            full_name=str(data["full_name"]),
            default_branch=str(data["default_branch"]),
            has_issues=bool(data.get("has_issues", True)),
        )

    # --- issues (REST) -------------------------------------------------------------------

    @asynccontextmanager
    async def _issue_or_repository(self, full_name: str, issue: int | None) -> AsyncIterator[None]:
        """An issue call's 404 or 410 as RepositoryGone or IssueGone: one look at the
        repository tells which. GitHub answers 410 both for a deleted issue and where Issues
        are turned off, so only the repository's `has_issues` says they are off."""
        try:
            yield
        except gidgethub.BadRequest as exc:
            status = int(exc.status_code)
            if status not in (404, 410):
                raise
            repo = await self.get_repository(full_name)  # a 404 here: RepositoryGone
            what = f"issue #{issue}" if issue is not None else "an issue call"
            if (
                issue is not None
                and repo.has_issues
                and await self._issue_is_here(full_name, issue)
            ):
                # Forgetting an issue's posts makes them again: only an issue GitHub says is
                # gone counts, not one answer (a replica behind, an outage) about one that is there.
                raise GitHubError(
                    f"{what} in {full_name}: HTTP {status}, yet the issue is there"
                ) from exc
            off = "" if repo.has_issues else " (Issues are turned off)"
            raise IssueGone(
                f"{what} in {full_name}: HTTP {status}{off}",
                issue=issue,
                disabled=not repo.has_issues,
            ) from exc

    async def _issue_is_here(self, full_name: str, issue: int) -> bool:
        """Whether GitHub shows the issue in this repository (not deleted, never there, or
        transferred away; GraphQL answers NOT_FOUND for the first two)."""
        owner, name = split_repo(full_name)
        try:
            data = await self._graphql(Q_ISSUE, owner=owner, name=name, number=issue)
        except gidgethub.QueryError as exc:
            if "NOT_FOUND" in _graphql_types(exc):
                return False
            raise GraphQLFailed(f"issue #{issue}: {exc}", set()) from exc
        found = (data.get("repository") or {}).get("issue") or {}
        where = str((found.get("repository") or {}).get("nameWithOwner") or "")
        return where.casefold() == full_name.casefold()

    @_mapped
    async def create_issue(self, full_name: str, *, title: str, body: str) -> Made:
        owner, repo = split_repo(full_name)
        async with self._issue_or_repository(full_name, None):
            result: dict[str, Any] = await self.gh.post(
                "/repos/{owner}/{repo}/issues",
                {"owner": owner, "repo": repo},
                data={"title": title, "body": body},
            )
        return Made(str(result["id"]), result.get("html_url"), int(result["number"]))

    @_mapped
    async def create_comment(self, full_name: str, issue: int, *, body: str) -> Made:
        owner, repo = split_repo(full_name)
        async with self._issue_or_repository(full_name, issue):
            result: dict[str, Any] = await self.gh.post(
                "/repos/{owner}/{repo}/issues/{issue_number}/comments",
                {"owner": owner, "repo": repo, "issue_number": issue},
                data={"body": body},
            )
        return Made(str(result["id"]), result.get("html_url") or result.get("url"))

    @_mapped
    async def update_comment(self, full_name: str, comment_id: int, *, body: str) -> None:
        """IssueGone (with no number) when the comment is gone, alone or with its issue."""
        owner, repo = split_repo(full_name)
        async with self._issue_or_repository(full_name, None):
            await self.gh.patch(
                "/repos/{owner}/{repo}/issues/comments/{comment_id}",
                {"owner": owner, "repo": repo, "comment_id": comment_id},
                data={"body": body},
            )

    async def comment_gone(self, full_name: str, comment_id: int) -> bool:
        """Whether GitHub confirms an issue comment gone: 404 for it, its repository there
        with Issues on (RepositoryGone when not there), and 404 again when asked once more."""
        owner, repo = split_repo(full_name)
        for _ in range(2):
            try:
                async with self._issue_or_repository(full_name, None):
                    await self.gh.getitem(
                        "/repos/{owner}/{repo}/issues/comments/{comment_id}",
                        {"owner": owner, "repo": repo, "comment_id": comment_id},
                    )
            except IssueGone as exc:
                if exc.disabled:
                    return False  # Issues turned off hide their comments: not deleted
                continue
            return False
        return True

    async def issue_comments(self, full_name: str, issue: int) -> AsyncIterator[Comment]:
        owner, repo = split_repo(full_name)
        async with self._issue_or_repository(full_name, issue):
            async for c in self.gh.getiter(
                "/repos/{owner}/{repo}/issues/{issue_number}/comments{?per_page}",
                {"owner": owner, "repo": repo, "issue_number": issue, "per_page": 100},
            ):
                # REST has no `viewerDidAuthor`: the App's comments are its bot account's, and
                # only an installed App's token can post as a Bot (no user can).
                mine = (c.get("user") or {}).get("type") == "Bot"
                yield Comment(
                    str(c["id"]), c.get("html_url") or c.get("url"), c.get("body") or "", mine
                )

    # --- discussions (GraphQL) -----------------------------------------------------------

    async def _graphql(self, query: str, **variables: Any) -> dict[str, Any]:
        data: dict[str, Any] = await self.gh.graphql(
            query, endpoint=self.gh.graphql_url, **variables
        )
        return data

    async def _nodes(
        self,
        not_found: type[GitHubError],
        query: str,
        path: str,
        pages: int | None = None,
        **variables: Any,
    ) -> AsyncIterator[dict[str, Any]]:
        """The nodes of the connection at `path` (as `node.replies`) in `query`'s answers, page
        after page (at most `pages` of them; None: all); a NOT_FOUND raises `not_found`."""
        after: str | None = None
        for _ in itertools.count() if pages is None else range(pages):
            data = await _mapping(self._graphql, not_found=not_found)(
                query, after=after, **variables
            )
            outer, inner = path.split(".")
            connection = (data.get(outer) or {}).get(inner) or {}
            for node in connection.get("nodes") or []:
                yield node
            info = connection.get("pageInfo") or {}
            if not info.get("hasNextPage"):
                return
            after = info.get("endCursor")

    async def not_found(self, full_name: str, node_id: str | None) -> GitHubError:
        """What a NOT_FOUND about `node_id` (a post; None: a create's category or repository)
        means: RepositoryGone only when the repository itself is not found, PostGone when the
        repository is there and the post is not, else a moment's trouble (tried again)."""
        setup = await self.discussion_setup(full_name)  # RepositoryGone when it is not there
        if not setup.enabled:
            # With Discussions turned off GitHub hides them: NOT_FOUND proves nothing then.
            return GitHubError(
                f"{full_name}: NOT_FOUND while Discussions are turned off (hidden, not gone)"
            )
        if node_id is not None:
            try:
                await _by_id(self._graphql)(Q_NODE, id=node_id)
            except NotFound:
                return PostGone(f"post {node_id} in {full_name} is gone", node_id=node_id)
        return GitHubError(f"{full_name}: GitHub answered NOT_FOUND for what is there")

    async def confirmed(self, full_name: str, node_id: str | None, call: Awaitable[R]) -> R:
        """`call`, its NOT_FOUND told apart (`not_found`): the repository gone, the post
        gone, or neither."""
        try:
            return await call
        except NotFound as exc:
            raise await self.not_found(full_name, node_id) from exc

    async def post_gone(self, full_name: str, node_id: str) -> bool:
        """Whether GitHub confirms a post (a discussion or its comment) gone: NOT_FOUND for it,
        its repository there (RepositoryGone when not). One call while it is there."""
        try:
            await _by_id(self._graphql)(Q_NODE, id=node_id)
        except NotFound:
            return isinstance(await self.not_found(full_name, node_id), PostGone)
        return False

    @_mapped
    async def discussion_setup(self, full_name: str) -> DiscussionSetup:
        owner, name = split_repo(full_name)
        repo = (await self._graphql(Q_SETUP, owner=owner, name=name))["repository"]
        if repo is None:
            raise RepositoryGone(f"repository {full_name} not visible")
        return DiscussionSetup(
            repository_id=repo["id"],
            enabled=bool(repo["hasDiscussionsEnabled"]),
            categories=[
                Category(id=c["id"], name=c["name"], slug=c["slug"])
                for c in repo["discussionCategories"]["nodes"]
            ],
        )

    async def recent_discussions(
        self, full_name: str, category_id: str | None, *, pages: int = 4
    ) -> AsyncIterator[Discussion]:
        """Newest first; `repository.discussions` has no title filter, so callers compare."""
        owner, name = split_repo(full_name)
        variables = {"owner": owner, "name": name, "categoryId": category_id}
        async for d in self._nodes(
            NotFound, Q_RECENT, "repository.discussions", pages, **variables
        ):
            yield Discussion(
                str(d["id"]),
                d.get("number"),
                d.get("url"),
                d.get("title") or "",
                d.get("body") or "",
                (d.get("category") or {}).get("id"),
                bool(d.get("viewerDidAuthor")),
            )

    async def recent_issues(self, full_name: str, *, pages: int = 4) -> AsyncIterator[Issue]:
        """Newest first (the App's own tracking issue is found by its marker)."""
        owner, name = split_repo(full_name)
        variables = {"owner": owner, "name": name}
        async for i in self._nodes(
            RepositoryGone, Q_RECENT_ISSUES, "repository.issues", pages, **variables
        ):
            yield Issue(
                int(i["number"]), i.get("url"), i.get("body") or "", bool(i.get("viewerDidAuthor"))
            )

    async def discussion_comments(self, discussion_id: str) -> AsyncIterator[Comment]:
        async for node in self._nodes(NotFound, Q_COMMENTS, "node.comments", id=discussion_id):
            yield _comment(node)

    @_by_id
    async def create_discussion(
        self, repository_id: str, category_id: str, *, title: str, body: str
    ) -> Made:
        data = await self._graphql(
            M_CREATE, repositoryId=repository_id, categoryId=category_id, title=title, body=body
        )
        d = data["createDiscussion"]["discussion"]
        return Made(str(d["id"]), d.get("url"), d.get("number"))

    @_by_id
    async def update_discussion(self, discussion_id: str, *, body: str) -> None:
        await self._graphql(M_UPDATE, discussionId=discussion_id, body=body)

    @_by_id
    async def add_discussion_comment(self, discussion_id: str, *, body: str) -> Made:
        data = await self._graphql(M_COMMENT, discussionId=discussion_id, body=body)
        c = data["addDiscussionComment"]["comment"]
        return Made(str(c["id"]), c.get("url"))

    @_by_id
    async def update_discussion_comment(self, comment_id: str, *, body: str) -> None:
        await self._graphql(M_UPDATE_COMMENT, commentId=comment_id, body=body)

    # --- commands ------------------------------------------------------------------------

    @_mapped
    async def collaborator_permission(self, full_name: str, login: str) -> str:
        """`admin`, `maintain`, `write`, `triage`, `read` or `none` (one who is no user: none)."""
        owner, repo = split_repo(full_name)
        try:
            data = await self.gh.getitem(
                "/repos/{owner}/{repo}/collaborators/{username}/permission",
                {"owner": owner, "repo": repo, "username": login},
            )
        except gidgethub.BadRequest as exc:
            if int(exc.status_code) == 404:
                return "none"
            raise
        # `permission` folds maintain into write and triage into read; `role_name` names it.
        role = str(data.get("role_name") or "")
        return (
            role
            if role in ("admin", "maintain", "write", "triage", "read")
            else str(data.get("permission") or "none")
        )

    @_mapped
    async def react_to_comment(self, full_name: str, comment_id: int) -> None:
        """👀 on an issue comment (GitHub answers 200 for a reaction already there)."""
        owner, repo = split_repo(full_name)
        await self.gh.post(
            "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
            {"owner": owner, "repo": repo, "comment_id": comment_id},
            data={"content": "eyes"},
            accept="application/vnd.github+json",
        )

    @_mapped
    async def react_in_discussion(self, subject_id: str) -> None:
        """👀 on a discussion comment (adding it again changes nothing)."""
        await self._graphql(M_REACT, subjectId=subject_id)

    @_by_id
    async def react_given_up(self, subject_id: str) -> None:
        """😕 in place of 👀 on a command's comment (an issue's or a discussion's, by node
        id): its answer never came. Taking away a reaction not there changes nothing."""
        await self._graphql(M_GAVE_UP, subjectId=subject_id)

    @_by_id
    async def react_took_effect(self, subject_id: str) -> None:
        """👍 in place of 👀 on a command's comment: it took effect, but its reply never
        went out."""
        await self._graphql(M_TOOK_EFFECT, subjectId=subject_id)

    @_mapped
    async def thread_of(self, comment_id: str) -> str:
        """The top-level comment a discussion comment's replies go under: itself, or the one
        it replies to (GitHub threads one level deep)."""
        node = (await self._graphql(Q_THREAD, id=comment_id)).get("node") or {}
        if not node:
            raise RepositoryGone(f"discussion comment {comment_id} is gone")
        return str((node.get("replyTo") or {}).get("id") or node.get("id") or comment_id)

    @_mapped
    async def reply_in_discussion(self, discussion_id: str, reply_to: str, *, body: str) -> Made:
        data = await self._graphql(
            M_REPLY, discussionId=discussion_id, replyToId=reply_to, body=body
        )
        c = data["addDiscussionComment"]["comment"]
        return Made(str(c["id"]), c.get("url"))

    async def discussion_replies(self, comment_id: str) -> AsyncIterator[Comment]:
        async for node in self._nodes(RepositoryGone, Q_REPLIES, "node.replies", id=comment_id):
            yield _comment(node)
