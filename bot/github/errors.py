"""What can go wrong talking to GitHub, as the jobs need to tell it apart."""

from __future__ import annotations

from datetime import datetime


class GitHubError(Exception):
    """Base of the App's GitHub errors."""


class RepositoryGone(GitHubError):
    """The repository (or commit) is not there for this installation any more: 404 or 410,
    or access lost. Its work ends quietly."""


class IssueGone(GitHubError):
    """The repository is there, but an issue the App posts on is not: deleted, never there
    (`issue` its number, None when the call named none), or Issues are turned off
    (`disabled`). Where the posts go next is the job's to decide."""

    def __init__(self, message: str, *, issue: int | None, disabled: bool) -> None:
        super().__init__(message)
        self.issue = issue
        self.disabled = disabled


class PostGone(GitHubError):
    """The repository is there, but a post the App made is not (`node_id`, a discussion or
    a discussion comment): a maintainer deleted it. It is made again through the ledger."""

    def __init__(self, message: str, *, node_id: str) -> None:
        super().__init__(message)
        self.node_id = node_id


class RateLimited(GitHubError):
    """A rate limit that would take longer to wait out than a worker should sleep: `kind`
    `primary` or `secondary`, `api` the one that answered it, `graphql` or `rest` (GitHub
    keeps their budgets apart)."""

    def __init__(self, until: datetime, kind: str, *, api: str = "rest") -> None:
        super().__init__(f"{kind} rate limit until {until.isoformat()}")
        self.until = until
        self.kind = kind
        self.api = api


class GitHubUnavailable(GitHubError):
    """5xx answers or timeouts, retries exhausted."""


class NotInstalled(GitHubError):
    """The App has no installation on this repository (GitHub answers 404 for its token only
    once the installation is deleted)."""


class InstallationSuspended(Exception):
    """The installation is suspended: GitHub refuses its token with a 403 until it is
    unsuspended. Not a GitHubError on purpose: no job handles it as a failed call; the
    executor pauses the job, spending no attempt, until the `unsuspend` event."""

    def __init__(self, installation_id: int) -> None:
        super().__init__(suspended_reason(installation_id))
        self.installation_id = installation_id


def suspended_reason(installation_id: int) -> str:
    """The reason a job paused by a suspension keeps (how `unsuspend` finds its jobs)."""
    return f"installation {installation_id} is suspended"


class UnclearWrite(GitHubUnavailable):
    """A create whose answer was a 5xx or never came: GitHub may have carried it out.
    It is not retried blindly; the next attempt looks for the post's marker first."""
