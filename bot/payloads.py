"""Webhook payloads as pydantic models that declare only the fields the App reads."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

# SHA-1 today; SHA-256 repositories exist on GitHub Enterprise Server.
Sha = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}([0-9a-f]{24})?$")]
Name = Annotated[str, StringConstraints(min_length=1, max_length=255)]
ZERO_SHA = "0" * 40

_TRAILING_PR = re.compile(r"\(#(\d{1,9})\)\s*$")


def pr_number(title: str) -> int | None:
    """The PR number GitHub's squash and merge buttons append: `Title (#1234)`."""
    match = _TRAILING_PR.search(title)
    return int(match.group(1)) if match else None


class _Payload(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class GitActor(_Payload):
    name: str = ""
    email: str | None = None
    username: str | None = None


class PushCommit(_Payload):
    id: Sha
    message: str
    timestamp: datetime
    url: str
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


class Owner(_Payload):
    login: str | None = None
    name: str | None = None
    id: int


class Repository(_Payload):
    id: int
    node_id: str | None = None
    full_name: Name
    default_branch: Name | None = None
    # Unix seconds in push payloads, an ISO string elsewhere.
    pushed_at: int | datetime | None = None

    def pushed_at_utc(self) -> datetime | None:
        if self.pushed_at is None:
            return None
        if isinstance(self.pushed_at, int):
            return datetime.fromtimestamp(self.pushed_at, UTC)
        if self.pushed_at.tzinfo is None:
            return self.pushed_at.replace(tzinfo=UTC)
        return self.pushed_at.astimezone(UTC)


class InstallationRef(_Payload):
    id: int


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
    login: str | None = None
    id: int | None = None
    type: str | None = None


class Installation(_Payload):
    id: int
    account: Account | None = None


class RepositoryRef(_Payload):
    id: int
    node_id: str | None = None
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
