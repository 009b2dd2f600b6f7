"""one job table, one post ledger, digests keyed by period

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

Work moves from per-table leases (commits, pushes, digests) to `jobs`; what was posted moves
from `digests.parts` to `posts`; a commit's day is no longer stored (it is computed from its
landing time and the current config when its period is claimed).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

from bot.store.migrations.frozen import NaiveUTCDateTime
from bot.store.schema import JSONType

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

UTC_DT = NaiveUTCDateTime


def _now() -> datetime:
    return datetime.now(UTC)


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("payload", JSONType, nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("priority", sa.SmallInteger(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("not_before", UTC_DT(), nullable=False),
        sa.Column("lease_owner", sa.String(length=64), nullable=True),
        sa.Column("lease_until", UTC_DT(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", UTC_DT(), nullable=False),
        sa.Column("updated_at", UTC_DT(), nullable=False),
        sa.UniqueConstraint("kind", "key", name="uq_jobs_kind_key"),
    )
    op.create_index("ix_jobs_due", "jobs", ["state", "not_before"])
    op.create_table(
        "posts",
        sa.Column("repo_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("period", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("parent", sa.String(length=100), nullable=True),
        sa.Column("node_id", sa.String(length=100), nullable=True),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("body_hash", sa.String(length=16), nullable=True),
        sa.Column("created_at", UTC_DT(), nullable=False),
        sa.Column("updated_at", UTC_DT(), nullable=False),
        sa.PrimaryKeyConstraint("repo_id", "period", "key"),
    )
    op.create_table(
        "digests_v2",
        sa.Column("repo_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("period_kind", sa.String(length=16), nullable=False),
        sa.Column("period_start", sa.Date(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("target", sa.String(length=32), nullable=True),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", UTC_DT(), nullable=False),
        sa.Column("published_at", UTC_DT(), nullable=True),
        sa.PrimaryKeyConstraint("repo_id", "period_kind", "period_start"),
    )
    _move_data()
    op.drop_table("digests")
    op.rename_table("digests_v2", "digests")

    with op.batch_alter_table("commits") as batch:
        batch.drop_index("ix_commits_unpublished")
        batch.drop_index("ix_commits_queue")
        batch.drop_index("ix_commits_day")
        batch.drop_column("day")
        batch.drop_column("attempts")
        batch.drop_column("lease_until")
        batch.drop_column("lease_token")
    with op.batch_alter_table("commits") as batch:
        batch.create_index("ix_commits_landed", ["repo_id", "landed_at"])
        batch.create_index(
            "ix_commits_unpublished",
            ["repo_id", "landed_at"],
            sqlite_where=sa.text("published_part IS NULL"),
            postgresql_where=sa.text("published_part IS NULL"),
        )
    with op.batch_alter_table("pushes") as batch:
        batch.drop_index("ix_pushes_expand")
        batch.drop_column("attempts")
        batch.drop_column("lease_until")
        batch.drop_column("lease_token")
    with op.batch_alter_table("repositories") as batch:
        batch.drop_column("config_stale")
        batch.drop_column("tracking_issue")


def _move_data() -> None:
    """Open work becomes jobs; recorded parts become posts; digests get their period key."""
    conn = op.get_bind()
    now = _now()
    jobs = sa.table(
        "jobs",
        sa.column("kind"),
        sa.column("key"),
        sa.column("payload", JSONType),
        sa.column("state"),
        sa.column("priority"),
        sa.column("attempts"),
        sa.column("not_before", UTC_DT()),
        sa.column("created_at", UTC_DT()),
        sa.column("updated_at", UTC_DT()),
    )

    def job(kind: str, key: str, payload: dict[str, Any], priority: int) -> dict[str, Any]:
        return {
            "kind": kind,
            "key": key,
            "payload": payload,
            "state": "pending",
            "priority": priority,
            "attempts": 0,
            "not_before": now,
            "created_at": now,
            "updated_at": now,
        }

    rows = [
        job("refresh_config", str(r.id), {"repo_id": r.id}, 0)
        for r in conn.execute(sa.text("SELECT id FROM repositories WHERE config_stale"))
    ]
    rows += [
        job("expand_range", r.delivery_id, {"delivery_id": r.delivery_id}, 1)
        for r in conn.execute(
            sa.text("SELECT delivery_id FROM pushes WHERE expand_state IN ('pending', 'expanding')")
        )
    ]
    rows += [
        job("analyse_commit", f"{r.repo_id}/{r.sha}", {"repo_id": r.repo_id, "sha": r.sha}, 2)
        for r in conn.execute(
            sa.text("SELECT repo_id, sha FROM commits WHERE state IN ('pending', 'analyzing')")
        )
    ]
    if rows:
        conn.execute(sa.insert(jobs), rows)
    conn.execute(sa.text("UPDATE commits SET state = 'pending' WHERE state = 'analyzing'"))
    conn.execute(
        sa.text("UPDATE pushes SET expand_state = 'pending' WHERE expand_state = 'expanding'")
    )

    old = sa.table(
        "digests",
        sa.column("repo_id"),
        sa.column("day", sa.Date()),
        sa.column("state"),
        sa.column("target"),
        sa.column("late"),
        sa.column("parts", JSONType),
        sa.column("last_error"),
        sa.column("created_at", UTC_DT()),
        sa.column("published_at", UTC_DT()),
    )
    new = sa.table(
        "digests_v2",
        *(
            sa.column(name)
            for name in ("repo_id", "period_kind", "period_start", "state", "target", "late")
        ),
        sa.column("last_error"),
        sa.column("created_at", UTC_DT()),
        sa.column("published_at", UTC_DT()),
    )
    posts = sa.table(
        "posts",
        *(sa.column(name) for name in ("repo_id", "period", "key", "kind", "state", "parent")),
        *(sa.column(name) for name in ("node_id", "number", "url", "body_hash")),
        sa.column("created_at", UTC_DT()),
        sa.column("updated_at", UTC_DT()),
    )
    for r in conn.execute(
        sa.text("SELECT id, tracking_issue FROM repositories WHERE tracking_issue IS NOT NULL")
    ).all():
        conn.execute(
            sa.insert(posts).values(
                repo_id=r.id,
                period="repository",
                key="tracking-issue",
                kind="issue",
                state="posted",
                number=r.tracking_issue,
                created_at=now,
                updated_at=now,
            )
        )
    for r in conn.execute(sa.select(old)).all():
        state = r.state
        if state == "publishing":
            state = "published" if r.published_at is not None else "pending"
        conn.execute(
            sa.insert(new).values(
                repo_id=r.repo_id,
                period_kind="day",
                period_start=r.day,
                state=state,
                target=r.target,
                late=bool(r.late),
                last_error=r.last_error,
                created_at=r.created_at,
                published_at=r.published_at,
            )
        )
        head = next((p for p in r.parts or [] if p.get("key") == "part-1"), None)
        for part in r.parts or []:
            kind = str(part.get("kind") or "issue-comment")
            parent: str | None = None
            if kind == "discussion-comment" and head is not None:
                parent = str(head.get("id"))
            elif kind == "issue-comment" and part.get("number") is not None:
                parent = str(part.get("number"))
            conn.execute(
                sa.insert(posts).values(
                    repo_id=r.repo_id,
                    period=f"day:{r.day.isoformat()}",
                    key=str(part["key"]),
                    kind=kind,
                    state="posted",
                    parent=parent,
                    node_id=str(part.get("id")),
                    number=part.get("number") if kind == "discussion" else None,
                    url=part.get("url"),
                    body_hash=part.get("hash"),
                    created_at=r.created_at,
                    updated_at=r.created_at,
                )
            )
        if state in ("pending", "published"):
            # A publication that was under way (or waiting for late commits) is looked at again.
            conn.execute(
                sa.insert(jobs).values(
                    job(
                        "publish_period",
                        f"{r.repo_id}/day/{r.day.isoformat()}",
                        {"repo_id": r.repo_id, "period_kind": "day", "start": r.day.isoformat()},
                        3,
                    )
                    | {"state": "done" if state == "published" else "pending"}
                )
            )


def downgrade() -> None:
    raise NotImplementedError("0002 moves work into jobs and posts; restore a backup instead")
