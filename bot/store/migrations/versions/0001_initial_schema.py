"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import bot.store.migrations.frozen

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "analyses",
        sa.Column("repo_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("sha", sa.String(length=64), nullable=False),
        sa.Column("analyzer", sa.String(length=120), nullable=False),
        sa.Column("importance", sa.String(length=8), nullable=False),
        sa.Column(
            "change_types",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("breaking", sa.Boolean(), nullable=False),
        sa.Column(
            "data",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("input_tokens", sa.Integer(), nullable=False),
        sa.Column("output_tokens", sa.Integer(), nullable=False),
        sa.Column("fallback_reason", sa.Text(), nullable=True),
        sa.Column("created_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("repo_id", "sha"),
    )
    op.create_table(
        "commits",
        sa.Column("repo_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("sha", sa.String(length=64), nullable=False),
        sa.Column("installation_id", sa.BigInteger(), nullable=True),
        sa.Column("delivery_id", sa.String(length=64), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("landed_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("branch", sa.String(length=255), nullable=False),
        sa.Column("forced", sa.Boolean(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("author_name", sa.String(length=255), nullable=False),
        sa.Column("author_login", sa.String(length=255), nullable=True),
        sa.Column("author_email", sa.String(length=255), nullable=True),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("pr_number", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_until", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=True),
        sa.Column("lease_token", sa.String(length=32), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column(
            "details",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("published_part", sa.String(length=32), nullable=True),
        sa.Column("created_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("repo_id", "sha"),
    )
    with op.batch_alter_table("commits", schema=None) as batch_op:
        batch_op.create_index("ix_commits_day", ["repo_id", "day"], unique=False)
        batch_op.create_index("ix_commits_queue", ["state", "lease_until"], unique=False)
        batch_op.create_index(
            "ix_commits_unpublished",
            ["repo_id", "day"],
            unique=False,
            sqlite_where=sa.text("published_part IS NULL"),
            postgresql_where=sa.text("published_part IS NULL"),
        )

    op.create_table(
        "deliveries",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("event", sa.String(length=64), nullable=False),
        sa.Column("received_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("deliveries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_deliveries_received_at"), ["received_at"], unique=False
        )

    op.create_table(
        "digests",
        sa.Column("repo_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_until", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=True),
        sa.Column("lease_token", sa.String(length=32), nullable=True),
        sa.Column("target", sa.String(length=32), nullable=True),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column(
            "parts",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.Column("published_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("repo_id", "day"),
    )
    op.create_table(
        "installations",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("account_login", sa.String(length=255), nullable=True),
        sa.Column("account_type", sa.String(length=32), nullable=True),
        sa.Column("suspended", sa.Boolean(), nullable=False),
        sa.Column("created_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.Column("updated_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "pushes",
        sa.Column("delivery_id", sa.String(length=64), nullable=False),
        sa.Column("repo_id", sa.BigInteger(), nullable=False),
        sa.Column("installation_id", sa.BigInteger(), nullable=True),
        sa.Column("ref", sa.String(length=255), nullable=False),
        sa.Column("before", sa.String(length=64), nullable=True),
        sa.Column("after", sa.String(length=64), nullable=False),
        sa.Column("forced", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Boolean(), nullable=False),
        sa.Column("pushed_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.Column("listed", sa.Integer(), nullable=False),
        sa.Column("expand_state", sa.String(length=16), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_until", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=True),
        sa.Column("lease_token", sa.String(length=32), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("expanded", sa.Integer(), nullable=True),
        sa.Column("truncated", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("delivery_id"),
    )
    with op.batch_alter_table("pushes", schema=None) as batch_op:
        batch_op.create_index("ix_pushes_expand", ["expand_state", "lease_until"], unique=False)
        batch_op.create_index(batch_op.f("ix_pushes_repo_id"), ["repo_id"], unique=False)

    op.create_table(
        "repositories",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("installation_id", sa.BigInteger(), nullable=True),
        sa.Column("full_name", sa.String(length=255), nullable=False),
        sa.Column("node_id", sa.String(length=100), nullable=True),
        sa.Column("default_branch", sa.String(length=255), nullable=True),
        sa.Column(
            "config",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("config_sha", sa.String(length=64), nullable=True),
        sa.Column("config_stale", sa.Boolean(), nullable=False),
        sa.Column("config_error", sa.Text(), nullable=True),
        sa.Column("config_error_reported", sa.Boolean(), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("cutoff", sa.String(length=5), nullable=False),
        sa.Column(
            "branches",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("tracking_issue", sa.Integer(), nullable=True),
        sa.Column("active_since", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.Column("created_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.Column("updated_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_repositories_full_name"), ["full_name"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_repositories_installation_id"), ["installation_id"], unique=False
        )


def downgrade() -> None:

    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_repositories_installation_id"))
        batch_op.drop_index(batch_op.f("ix_repositories_full_name"))

    op.drop_table("repositories")
    with op.batch_alter_table("pushes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_pushes_repo_id"))
        batch_op.drop_index("ix_pushes_expand")

    op.drop_table("pushes")
    op.drop_table("installations")
    op.drop_table("digests")
    with op.batch_alter_table("deliveries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deliveries_received_at"))

    op.drop_table("deliveries")
    with op.batch_alter_table("commits", schema=None) as batch_op:
        batch_op.drop_index(
            "ix_commits_unpublished",
            sqlite_where=sa.text("published_part IS NULL"),
            postgresql_where=sa.text("published_part IS NULL"),
        )
        batch_op.drop_index("ix_commits_queue")
        batch_op.drop_index("ix_commits_day")

    op.drop_table("commits")
    op.drop_table("analyses")
