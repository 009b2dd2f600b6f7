"""One frozen payload model per job kind: its kind, its dedupe key and the JSON it stores.

Every producer builds the model, and the executor validates a claimed job's stored JSON into
it once (`parse_payload`), so no job reads a dict. What a model stores is exactly the JSON the
App always wrote for its kind (tests/test_job_payloads.py pins it): rows written before these
models, and their keys, keep working.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_serializer, field_validator

from bot.periods.period import Period
from bot.store.jobs import JobKind


class PayloadInvalid(ValueError):
    """A stored payload that does not fit its kind's model (a hand edit, a restore)."""


class JobPayload(BaseModel):
    """What one job of `kind` works on; `key` dedupes it in the job table."""

    # A key a later version adds does not fail the job on a replica not yet updated.
    model_config = ConfigDict(frozen=True, extra="ignore")

    kind: ClassVar[JobKind]

    @property
    def key(self) -> str:
        raise NotImplementedError

    def stored(self) -> dict[str, Any]:
        """The JSON for the job table. An optional field is stored only when it was given
        (or read): the App always wrote it that way, and a row read back is written as is."""
        return self.model_dump(mode="json", exclude_unset=True)


class RefreshConfigPayload(JobPayload):
    kind = JobKind.REFRESH_CONFIG
    repo_id: int

    @property
    def key(self) -> str:
        return str(self.repo_id)


class ExpandRangePayload(JobPayload):
    kind = JobKind.EXPAND_RANGE
    delivery_id: str

    @property
    def key(self) -> str:
        return self.delivery_id


class AnalyseCommitPayload(JobPayload):
    kind = JobKind.ANALYSE_COMMIT
    repo_id: int
    sha: str

    @property
    def key(self) -> str:
        # bot/jobs/analyse/batching.py joins commits to their jobs by this key, in SQL.
        return f"{self.repo_id}/{self.sha}"


def publish_key(repo_id: int, period: Period) -> str:
    """The key of a period's publication, a day's or a week's."""
    return f"{repo_id}/{period.kind}/{period.start.isoformat()}"


class PublishPeriodPayload(JobPayload):
    kind = JobKind.PUBLISH_PERIOD
    repo_id: int
    period_kind: str
    start: date
    # Even before the period's cutoff (the `publish` command); stored only when set.
    now: bool = False

    @classmethod
    def of(cls, repo_id: int, period: Period, *, now: bool = False) -> PublishPeriodPayload:
        if now:
            return cls(repo_id=repo_id, period_kind=period.kind, start=period.start, now=True)
        return cls(repo_id=repo_id, period_kind=period.kind, start=period.start)

    @property
    def period(self) -> Period:
        return Period(self.period_kind, self.start)

    @property
    def key(self) -> str:
        return publish_key(self.repo_id, self.period)


class PublishWeekPayload(JobPayload):
    kind = JobKind.PUBLISH_WEEK
    repo_id: int
    first: date

    @property
    def period(self) -> Period:
        return Period.week(self.first)

    @property
    def key(self) -> str:
        return publish_key(self.repo_id, self.period)


class SendAlertsPayload(JobPayload):
    """One commit's alert. `day`: a job of a whole day, written before alerts were kept per
    commit (its run enqueues one job per commit of that day)."""

    kind = JobKind.SEND_ALERTS
    repo_id: int
    sha: str | None = None
    day: date | None = None

    @property
    def key(self) -> str:
        if self.sha is None and self.day is not None:
            return f"{self.repo_id}/{self.day.isoformat()}"
        return f"{self.repo_id}/{self.sha}"


class FoldAlertsPayload(JobPayload):
    """A day's "more alerts" post, brought up to date."""

    kind = JobKind.FOLD_ALERTS
    repo_id: int
    day: date

    @property
    def key(self) -> str:
        return f"{self.repo_id}/{self.day.isoformat()}"


class RecoverDeliveriesPayload(JobPayload):
    kind = JobKind.RECOVER_DELIVERIES
    # Where the last complete round began; absent before the first one.
    covered_since: datetime | None = None

    @property
    def key(self) -> str:
        return "app"  # one job for the whole App

    @field_validator("covered_since", mode="before")
    @classmethod
    def _readable(cls, value: Any) -> datetime | None:
        if isinstance(value, datetime):
            return value
        try:
            return datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            return None  # unreadable: list GitHub's whole window, which is always safe

    @field_serializer("covered_since")
    def _iso(self, value: datetime | None) -> str | None:
        # As `isoformat` wrote it (`+00:00`), not pydantic's own form (`Z`).
        return value.isoformat() if value is not None else None


class DigestCommandPayload(JobPayload):
    """A `/digest` command from a comment: everything answering it needs, from the webhook."""

    kind = JobKind.DIGEST_COMMAND
    repo_id: int
    installation_id: int | None = None
    comment_id: int
    comment_node_id: str
    # A discussion comment's parent, when the command is a threaded reply.
    parent_id: int | None = None
    author: str
    line: str  # the command's line, as much as a webhook keeps
    received_at: datetime
    # Where it was made: an issue (or pull request) number, or a discussion's node id.
    issue: int | None = None
    discussion: str | None = None
    discussion_number: int | None = None

    @property
    def key(self) -> str:
        return f"{self.repo_id}/{self.comment_id}"

    @property
    def thread(self) -> str:
        return f"issue:{self.issue}" if self.issue is not None else f"discussion:{self.discussion}"


_MODELS: dict[JobKind, type[JobPayload]] = {
    model.kind: model
    for model in (
        RefreshConfigPayload,
        ExpandRangePayload,
        AnalyseCommitPayload,
        PublishPeriodPayload,
        PublishWeekPayload,
        SendAlertsPayload,
        FoldAlertsPayload,
        RecoverDeliveriesPayload,
        DigestCommandPayload,
    )
}


def parse_payload(kind: JobKind, stored: Any) -> JobPayload:
    """The stored JSON as its kind's model; PayloadInvalid (saying which fields, never their
    values) when it does not fit."""
    try:
        return _MODELS[kind].model_validate(stored)
    except ValidationError as exc:
        wrong = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'payload'}: {e['msg']}" for e in exc.errors()
        )
        raise PayloadInvalid(f"payload does not fit {kind.value}: {wrong}") from None
