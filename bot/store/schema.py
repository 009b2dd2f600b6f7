"""The tables, one logical schema for SQLite and PostgreSQL (migrations in `migrations/`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import sqlite
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect

# SQLite has no time type: it compares instants as text, so every one is written in this one
# fixed-width form (UTC, microseconds always), whose text order is time order.
SQLITE_INSTANT_FORMAT = (
    "%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d.%(microsecond)06d"
)
_SQLITE_INSTANT = sqlite.DATETIME(storage_format=SQLITE_INSTANT_FORMAT)  # type: ignore[no-untyped-call]


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """An instant, in one canonical form per engine: `timestamptz` on PostgreSQL (whatever the
    session's zone), `SQLITE_INSTANT_FORMAT` text in UTC on SQLite; aware UTC when read."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> sa.types.TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(_SQLITE_INSTANT)
        return dialect.type_descriptor(sa.DateTime(timezone=True))

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use timezone-aware UTC")
        instant = value.astimezone(UTC)
        # SQLite's text form has no offset: what it stores is UTC.
        return instant.replace(tzinfo=None) if dialect.name == "sqlite" else instant

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


JSONType = sa.JSON().with_variant(JSONB(), "postgresql")

# The most of an error's text a row keeps (`last_error`, `config_error`): a reason may quote
# what came from outside (a GitHub answer, a parser's view of the file) at any length; its
# start says what went wrong, and the row stays small.
MAX_ERROR_CHARS = 2000

metadata = sa.MetaData()

installations = sa.Table(
    "installations",
    metadata,
    sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("account_login", sa.String(255)),
    sa.Column("account_type", sa.String(32)),
    sa.Column("suspended", sa.Boolean, nullable=False, default=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)

repositories = sa.Table(
    "repositories",
    metadata,
    sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("installation_id", sa.BigInteger, index=True),
    sa.Column("full_name", sa.String(255), nullable=False, index=True),
    sa.Column("node_id", sa.String(100)),
    sa.Column("default_branch", sa.String(255)),
    # The validated `.github/commit-digest.yml` (as JSON); the blob last read (a rejected one
    # included: the ETag's), and (migration 0015) the blob the config in force came from.
    sa.Column("config", JSONType),
    sa.Column("config_sha", sa.String(64)),
    sa.Column("config_in_force_sha", sa.String(64)),
    sa.Column("config_error", sa.Text),
    sa.Column("config_error_reported", sa.Boolean, nullable=False, default=False),
    # Denormalised from the config, for reading; periods are computed from `config`.
    sa.Column("timezone", sa.String(64), nullable=False, default="UTC"),
    sa.Column("cutoff", sa.String(5), nullable=False, default="00:00"),
    sa.Column("branches", JSONType),
    # Migration 0004: the config file's ETag and the blob it named (conditional reads).
    sa.Column("config_etag", sa.String(200)),
    sa.Column("config_etag_sha", sa.String(64)),
    # Migration 0017 (org defaults): which file set each key, and the base file's ETag.
    sa.Column("config_origin", JSONType),
    sa.Column("config_base_etag", sa.String(200)),
    sa.Column("config_base_sha", sa.String(64)),
    sa.Column("active_since", UTCDateTime, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    # Migration 0017: unticked in the installation's settings (None: part of it). Its rows
    # stay until the installation is deleted, so a repository added again keeps its posts.
    sa.Column("removed_at", UTCDateTime),
)

deliveries = sa.Table(
    "deliveries",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("event", sa.String(64), nullable=False),
    sa.Column("received_at", UTCDateTime, nullable=False, index=True),
)

pushes = sa.Table(
    "pushes",
    metadata,
    # One push per delivery: its id is the delivery's, known before the insert.
    sa.Column("delivery_id", sa.String(64), primary_key=True),
    sa.Column("repo_id", sa.BigInteger, nullable=False, index=True),
    sa.Column("installation_id", sa.BigInteger),
    sa.Column("ref", sa.String(255), nullable=False),
    sa.Column("before", sa.String(64)),
    sa.Column("after", sa.String(64), nullable=False),
    sa.Column("forced", sa.Boolean, nullable=False),
    sa.Column("created", sa.Boolean, nullable=False),
    sa.Column("pushed_at", UTCDateTime, nullable=False),
    sa.Column("listed", sa.Integer, nullable=False),
    # A push whose payload may not list all its commits is expanded by an `expand_range` job:
    # pending -> done | failed.
    sa.Column("expand_state", sa.String(16)),
    sa.Column("last_error", sa.Text),
    sa.Column("expanded", sa.Integer),
    sa.Column("truncated", sa.Integer, nullable=False, default=0),
)

commits = sa.Table(
    "commits",
    metadata,
    sa.Column("repo_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("sha", sa.String(64), primary_key=True),
    sa.Column("installation_id", sa.BigInteger),
    sa.Column("delivery_id", sa.String(64)),
    sa.Column("position", sa.Integer, nullable=False, default=0),
    # The period a commit belongs to is computed from this and the current config.
    sa.Column("landed_at", UTCDateTime, nullable=False),
    sa.Column("branch", sa.String(255), nullable=False),
    sa.Column("forced", sa.Boolean, nullable=False, default=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("message", sa.Text, nullable=False),
    sa.Column("author_name", sa.String(255), nullable=False),
    sa.Column("author_login", sa.String(255)),
    sa.Column("author_email", sa.String(255)),
    sa.Column("url", sa.Text, nullable=False),
    sa.Column("pr_number", sa.Integer),
    # pending -> analyzed | failed (CommitState); the work itself is an `analyse_commit` job.
    sa.Column("state", sa.String(16), nullable=False, default="pending"),
    sa.Column("last_error", sa.Text),
    # Fetched details (file list and stats without patches, pull request) for the rules.
    sa.Column("details", JSONType),
    # Set when a digest part that lists this commit has been posted.
    sa.Column("published_part", sa.String(32)),
    # The day of the digest that part belongs to: the commit's day from then on, whatever day
    # a later `timezone` or `cutoff` would compute (NULL: posted before 0016, or not posted).
    sa.Column("published_day", sa.Date),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Index("ix_commits_landed", "repo_id", "landed_at"),
    sa.Index("ix_commits_published_day", "repo_id", "published_day"),
    # The scheduler asks every round which periods still have unpublished commits; the partial
    # index keeps that answer proportional to the backlog, not to the whole history.
    sa.Index(
        "ix_commits_unpublished",
        "repo_id",
        "landed_at",
        sqlite_where=sa.text("published_part IS NULL"),
        postgresql_where=sa.text("published_part IS NULL"),
    ),
    # Migration 0017: the status page's commits waiting for analysis.
    sa.Index(
        "ix_commits_pending",
        "repo_id",
        "landed_at",
        sqlite_where=sa.text("state = 'pending'"),
        postgresql_where=sa.text("state = 'pending'"),
    ),
)

analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("repo_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("sha", sa.String(64), primary_key=True),
    sa.Column("analyzer", sa.String(120), nullable=False),
    sa.Column("importance", sa.String(8), nullable=False),
    sa.Column("change_types", JSONType, nullable=False),
    sa.Column("breaking", sa.Boolean, nullable=False, default=False),
    sa.Column("data", JSONType, nullable=False),
    sa.Column("input_tokens", sa.Integer, nullable=False, default=0),
    sa.Column("output_tokens", sa.Integer, nullable=False, default=0),
    sa.Column("fallback_reason", sa.Text),
    sa.Column("created_at", UTCDateTime, nullable=False),
    # Migration 0004: cost accounting and reuse by content (bot/analysis/tiering.py).
    sa.Column("cached_input_tokens", sa.Integer, nullable=False, server_default="0"),
    sa.Column("route", sa.String(40)),
    sa.Column("patch_id", sa.String(40)),
    # Migration 0008: claims of the LLM's answer the fact guard dropped (bot/analysis/guard.py).
    sa.Column("dropped_claims", sa.Integer, nullable=False, server_default="0"),
    sa.Index("ix_analyses_patch_id", "repo_id", "patch_id"),
    # Migration 0017: the status page's LLM use today.
    sa.Index("ix_analyses_made", "repo_id", "created_at"),
)

digests = sa.Table(
    "digests",
    metadata,
    # Keyed by (scope, period kind, period start): today (repository, "day", date).
    sa.Column("repo_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("period_kind", sa.String(16), primary_key=True),
    sa.Column("period_start", sa.Date, primary_key=True),
    # pending -> published | skipped | failed (DigestState); the work is a `publish_period` job.
    sa.Column("state", sa.String(16), nullable=False),
    # Where its posts went is the post ledger's to say (`posts.kind`), stored there only.
    sa.Column("late", sa.Boolean, nullable=False, default=False),
    sa.Column("last_error", sa.Text),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("published_at", UTCDateTime),
    # A week's LLM narrative, kept from the one call so a retried post does not pay again:
    # {"text": ..., "analyzer": ...}, or {"text": null} when the call gave nothing.
    sa.Column("narrative", JSONType),
)

posts = sa.Table(
    "posts",
    metadata,
    # Every post the App means to have on GitHub, each found again by its hidden marker.
    sa.Column("repo_id", sa.BigInteger, primary_key=True, autoincrement=False),
    # "day:2026-01-22" for a digest's posts, "repository" for the tracking issue.
    sa.Column("period", sa.String(40), primary_key=True),
    sa.Column("key", sa.String(64), primary_key=True),
    # discussion | discussion-comment | issue | issue-comment
    sa.Column("kind", sa.String(32), nullable=False),
    # creating (a create was sent; whether it happened is unknown) -> posted (PostState)
    sa.Column("state", sa.String(16), nullable=False),
    # Where the post went: the discussion node id or issue number a comment belongs to, the
    # category id of a discussion (an unclear create is searched for there).
    sa.Column("parent", sa.String(100)),
    sa.Column("node_id", sa.String(100)),
    sa.Column("number", sa.Integer),
    sa.Column("url", sa.Text),
    sa.Column("body_hash", sa.String(16)),
    # The job that last meant to create it: while that job holds its lease, another waits.
    sa.Column("job_id", sa.BigInteger),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)

jobs = sa.Table(
    "jobs",
    metadata,
    # All work: analyse a commit, expand a range, refresh a config, publish a period, ...
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("key", sa.String(200), nullable=False),
    sa.Column("payload", JSONType, nullable=False),
    # pending -> running -> done | failed (JobState)
    sa.Column("state", sa.String(16), nullable=False),
    # Lower runs first within a round: configs before the commits they shape.
    sa.Column("priority", sa.SmallInteger, nullable=False, default=0),
    sa.Column("attempts", sa.Integer, nullable=False, default=0),
    # Pending: not before this time (a retry's backoff, a rate limit).
    sa.Column("not_before", UTCDateTime, nullable=False),
    # Running: held by `lease_owner` until `lease_until` (a heartbeat extends it).
    sa.Column("lease_owner", sa.String(64)),
    sa.Column("lease_until", UTCDateTime),
    sa.Column("last_error", sa.Text),
    # Enqueued again while running (new work arrived after the holder read its input): it
    # runs once more when the holder finishes, instead of that work waiting for nobody.
    sa.Column("rerun", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("kind", "key", name="uq_jobs_kind_key"),
    sa.Index("ix_jobs_due", "state", "not_before"),
)

redeliveries = sa.Table(
    "redeliveries",
    metadata,
    # The webhook GUID (X-GitHub-Delivery) the App asked GitHub to redeliver: once per GUID.
    sa.Column("guid", sa.String(64), primary_key=True),
    # The row of GitHub's delivery log that was redelivered, and why.
    sa.Column("hook_delivery_id", sa.BigInteger, nullable=False),
    sa.Column("event", sa.String(64), nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    # asking -> asked | refused; an `asking` row older than a few minutes is a crashed ask;
    # asked -> asking again once `next_ask_at` passed with the GUID still not stored, and
    # -> delivered once it is.
    sa.Column("state", sa.String(16), nullable=False),
    sa.Column("answer", sa.Text),
    sa.Column("asked_at", UTCDateTime, nullable=False, index=True),
    # Migration 0010: how many asks GitHub accepted, and when the next is due.
    sa.Column("asks", sa.Integer, nullable=False, server_default="0"),
    sa.Column("next_ask_at", UTCDateTime),
    # Migration 0014: when GitHub first delivered it; it is asked for until GitHub's window
    # for redelivering it (3 days from then, FACTS.md §1) closes.
    sa.Column("delivered_at", UTCDateTime),
)

commands = sa.Table(
    "commands",
    metadata,
    # A `/digest` command from a comment, and what was decided about it (once: a rerun of its
    # job reads the decision instead of deciding again).
    sa.Column("repo_id", sa.BigInteger, primary_key=True, autoincrement=False),
    # The command comment's id (REST `id`, GraphQL `databaseId`).
    sa.Column("comment_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("author", sa.String(255), nullable=False),
    # "issue:12" or "discussion:<node id>": where the command was made.
    sa.Column("thread", sa.String(120), nullable=False),
    # taken | denied | denied-quiet | denied-over | limited | limited-quiet
    # (bot.store.commands.Decision)
    sa.Column("decision", sa.String(16), nullable=False),
    # A limited command: when the author may try again.
    sa.Column("retry_at", UTCDateTime),
    sa.Column("received_at", UTCDateTime, nullable=False),
    # Migration 0015: what a taken command did, recorded with its effect (a rate's commit and
    # importances), so a rerun of its job only replies.
    sa.Column("effect", JSONType),
    sa.Index("ix_commands_repo_received", "repo_id", "received_at"),
)

ratings = sa.Table(
    "ratings",
    metadata,
    # A maintainer's correction of a commit's importance (`/digest rate`): digests, alerts and
    # roll-ups show it instead of the analysis's, which stays as the analyser made it. A later
    # rate of the same commit replaces the row.
    sa.Column("repo_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("sha", sa.String(40), primary_key=True),
    sa.Column("importance", sa.String(8), nullable=False),
    # The importance shown before this rate (the analysis's, or an earlier rate's).
    sa.Column("previous", sa.String(8)),
    sa.Column("author", sa.String(255), nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    # The command comment it came from.
    sa.Column("comment_id", sa.BigInteger, nullable=False),
    sa.Column("rated_at", UTCDateTime, nullable=False),
    # The commit's posted digest still shows the importance before this rate: its next
    # publication run edits the post, then clears this.
    sa.Column("edit_pending", sa.Boolean, nullable=False),
)

explained = sa.Table(
    "explained",
    metadata,
    # Commits `/digest explain` fetched and analysed on demand (the App never stored them: they
    # landed before it was installed, or came in a push it did not see). Kept apart from
    # `commits`, so no digest, alert or roll-up ever lists them; kept at all so a second
    # explain reuses the analysis, and so the LLM's use here counts against the day's caps.
    sa.Column("repo_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("sha", sa.String(64), primary_key=True),
    sa.Column("analyzer", sa.String(120), nullable=False),
    sa.Column("route", sa.String(40)),
    sa.Column("data", JSONType, nullable=False),
    sa.Column("fallback_reason", sa.Text),
    sa.Column("input_tokens", sa.Integer, nullable=False),
    sa.Column("cached_input_tokens", sa.Integer, nullable=False),
    sa.Column("output_tokens", sa.Integer, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)
