"""What goes into the store from a webhook delivery: plain records, one transaction per delivery."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.analysis.titles import pr_number
from bot.store.job_payloads import DigestCommandPayload


@dataclass(frozen=True)
class DeliveryRecord:
    id: str
    event: str
    received_at: datetime


@dataclass(frozen=True)
class UpsertInstallation:
    id: int
    account_login: str | None
    account_type: str | None
    suspended: bool = False


@dataclass(frozen=True)
class DeleteInstallation:
    """Forget an installation and everything stored for its repositories."""

    id: int


@dataclass(frozen=True)
class UpsertRepository:
    id: int
    installation_id: int | None
    full_name: str
    node_id: str | None = None
    default_branch: str | None = None


@dataclass(frozen=True)
class RemoveRepository:
    """Unticked in the installation's settings: its work stops, its rows stay (a purge
    comes only with the installation's deletion)."""

    id: int
    at: datetime


@dataclass(frozen=True)
class MarkConfigStale:
    """A push touched `.github/commit-digest.yml`: read it again, and (`owner` given) the
    owner's other repositories' too, whose config may start from this file (org defaults,
    `_extends`)."""

    repo_id: int
    owner: str | None = None


# Bounds on what one row keeps (PostgreSQL refuses a longer value); GitHub has the rest.
MAX_TITLE = 1_000
MAX_MESSAGE = 65_536
MAX_NAME = 255


@dataclass(frozen=True)
class NewCommit:
    sha: str
    position: int
    title: str
    message: str
    author_name: str
    author_login: str | None
    author_email: str | None
    url: str
    pr_number: int | None

    @classmethod
    def build(
        cls,
        *,
        sha: str,
        position: int,
        message: str,
        author_name: str | None,
        author_login: str | None,
        author_email: str | None,
        url: str,
    ) -> NewCommit:
        """The one builder of commit records (a push payload's or a compare answer's)."""
        title = message.split("\n", 1)[0].strip()
        return cls(
            sha=sha,
            position=position,
            title=title[:MAX_TITLE],
            message=message[:MAX_MESSAGE],
            author_name=(author_name or author_login or "")[:MAX_NAME],
            author_login=author_login[:MAX_NAME] if author_login else None,
            author_email=(author_email or "")[:MAX_NAME] or None,
            url=url,
            pr_number=pr_number(title),
        )


@dataclass(frozen=True)
class RecordPush:
    """A push to a tracked branch and the commits its payload lists."""

    repo_id: int
    installation_id: int | None
    delivery_id: str
    ref: str
    branch: str
    before: str | None
    after: str
    forced: bool
    created: bool
    pushed_at: datetime
    commits: tuple[NewCommit, ...]
    # The payload may not list every commit: an `expand_range` job lists them via compare.
    needs_expansion: bool = False


@dataclass(frozen=True)
class RecordCommand:
    """A `/digest` command in a comment: a job answers it (the payload is all it needs)."""

    payload: DigestCommandPayload


Operation = (
    UpsertInstallation
    | DeleteInstallation
    | UpsertRepository
    | RemoveRepository
    | MarkConfigStale
    | RecordPush
    | RecordCommand
)


@dataclass
class IngestUnit:
    """All a delivery writes, applied atomically with its dedupe row."""

    delivery: DeliveryRecord
    operations: list[Operation] = field(default_factory=list)


@dataclass(frozen=True)
class RepoIngestView:
    """What ingest needs to know about a stored repository: identity and tracked branches."""

    full_name: str
    default_branch: str | None
    installation_id: int | None
    branches: tuple[str, ...] | None
