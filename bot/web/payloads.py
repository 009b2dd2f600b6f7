"""Webhook payloads as pydantic models that declare only the fields the App reads.

Every string that is stored is cleaned and bounded here, so that whatever one engine stores
the other stores too: PostgreSQL refuses NUL characters and values longer than a column,
SQLite accepts both. Identifiers GitHub generates are refused when out of bounds (a payload
that carries one is not GitHub's); free text loses its NULs and is cut at its column's bound.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
)

from bot.analysis.titles import pr_number


def _without_nul(value: str) -> str:
    return value.replace("\x00", "")


def _cut(limit: int) -> AfterValidator:
    return AfterValidator(lambda value: value[:limit])


# SHA-1 today; SHA-256 repositories exist on GitHub Enterprise Server.
Sha = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}([0-9a-f]{24})?$")]
# Identifiers: bounded by their columns, NUL (which no GitHub name holds) refused.
Name = Annotated[str, StringConstraints(min_length=1, max_length=255, pattern=r"^[^\x00]*$")]
NodeId = Annotated[str, StringConstraints(max_length=100, pattern=r"^[^\x00]*$")]
AccountType = Annotated[str, StringConstraints(max_length=32, pattern=r"^[^\x00]*$")]
Login = Annotated[str, StringConstraints(max_length=255, pattern=r"^[^\x00]*$")]
# Free text: NULs dropped, then cut to what is kept.
Text = Annotated[str, AfterValidator(_without_nul)]
Short = Annotated[str, AfterValidator(_without_nul), _cut(255)]
# Database ids are signed 64-bit integers on both engines.
Id = Annotated[int, Field(ge=1, le=2**63 - 1)]
ZERO_SHA = "0" * 40

# A push happened after git existed and before this software is retired: anything else is a
# forged or broken payload, and would overflow the date arithmetic of a digest day.
_EARLIEST_PUSH = datetime(2005, 1, 1, tzinfo=UTC)
_LATEST_PUSH = datetime(2200, 1, 1, tzinfo=UTC)


def _push_time(value: object) -> object:
    """Unix seconds (push payloads) or ISO 8601 (elsewhere), as aware UTC within range."""
    if value is None or isinstance(value, datetime):
        return value
    if isinstance(value, bool):
        raise ValueError("must be Unix seconds or an ISO 8601 time")
    if isinstance(value, int | float):
        if not _EARLIEST_PUSH.timestamp() <= value < _LATEST_PUSH.timestamp():
            raise ValueError("out of range")
        return datetime.fromtimestamp(value, UTC)
    return value


class _Payload(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class GitActor(_Payload):
    name: Short = ""
    email: Short | None = None
    username: Login | None = None


class PushCommit(_Payload):
    id: Sha
    message: Text
    timestamp: datetime
    url: Annotated[str, StringConstraints(max_length=2048, pattern=r"^[^\x00]*$")]
    author: GitActor
    committer: GitActor | None = None
    distinct: bool = True
    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    modified: list[str] = Field(default_factory=list)

    @property
    def title(self) -> str:
        return self.message.split("\n", 1)[0].strip()

    @property
    def pr_number(self) -> int | None:
        return pr_number(self.title)

    def touches(self, path: str) -> bool:
        return path in self.added or path in self.modified or path in self.removed


class Repository(_Payload):
    id: Id
    node_id: NodeId | None = None
    full_name: Name
    default_branch: Name | None = None
    # Unix seconds in push payloads, an ISO string elsewhere.
    pushed_at: Annotated[datetime | None, BeforeValidator(_push_time)] = None

    @field_validator("pushed_at")
    @classmethod
    def _in_range(cls, value: datetime | None) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        try:
            value = value.astimezone(UTC)
        except OverflowError:
            raise ValueError("out of range") from None
        if not _EARLIEST_PUSH <= value < _LATEST_PUSH:
            raise ValueError("out of range")
        return value

    def pushed_at_utc(self) -> datetime | None:
        return self.pushed_at


class InstallationRef(_Payload):
    id: Id


class PushEvent(_Payload):
    ref: Name
    before: Sha
    after: Sha
    created: bool = False
    deleted: bool = False
    forced: bool = False
    commits: list[PushCommit] = Field(default_factory=list)
    repository: Repository
    installation: InstallationRef | None = None

    @property
    def branch(self) -> str | None:
        """The branch name, or None for tags and other refs."""
        prefix = "refs/heads/"
        return self.ref[len(prefix) :] if self.ref.startswith(prefix) else None


class Account(_Payload):
    login: Login | None = None
    id: int | None = None
    type: AccountType | None = None


class Installation(_Payload):
    id: Id
    account: Account | None = None


class RepositoryRef(_Payload):
    id: Id
    node_id: NodeId | None = None
    full_name: Name


class InstallationEvent(_Payload):
    action: str
    installation: Installation
    repositories: list[RepositoryRef] | None = None


class InstallationRepositoriesEvent(_Payload):
    action: str
    installation: Installation
    repositories_added: list[RepositoryRef] = Field(default_factory=list)
    repositories_removed: list[RepositoryRef] = Field(default_factory=list)


class CommentUser(_Payload):
    login: Login
    type: AccountType = "User"


class GitHubAppRef(_Payload):
    id: int | None = None


class Comment(_Payload):
    id: Id
    node_id: NodeId
    body: Text | None = None
    user: CommentUser
    # Set when an App made the comment through its API (the App's own replies among them).
    performed_via_github_app: GitHubAppRef | None = None
    # A discussion comment's parent when it is a threaded reply.
    parent_id: int | None = None


class IssueRef(_Payload):
    number: Annotated[int, Field(ge=1, le=2**31 - 1)]


class DiscussionRef(_Payload):
    node_id: NodeId
    number: Annotated[int, Field(ge=1, le=2**31 - 1)]


class CommentEvent(_Payload):
    """`issue_comment` and `discussion_comment` (one of `issue` and `discussion` is set)."""

    action: str
    comment: Comment
    repository: Repository
    sender: CommentUser
    installation: InstallationRef | None = None
    issue: IssueRef | None = None
    discussion: DiscussionRef | None = None
