"""LLM usage and reuse (cached input tokens, route, patch-id); the config file's ETag

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("analyses", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("cached_input_tokens", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(sa.Column("route", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("patch_id", sa.String(length=40), nullable=True))
        batch_op.create_index("ix_analyses_patch_id", ["repo_id", "patch_id"], unique=False)
    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.add_column(sa.Column("config_etag", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("config_etag_sha", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.drop_column("config_etag_sha")
        batch_op.drop_column("config_etag")
    with op.batch_alter_table("analyses", schema=None) as batch_op:
        batch_op.drop_index("ix_analyses_patch_id")
        batch_op.drop_column("patch_id")
        batch_op.drop_column("route")
        batch_op.drop_column("cached_input_tokens")
