"""commands: `/digest` commands from comments and what was decided about each

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "commands",
        sa.Column("repo_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("comment_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("author", sa.String(length=255), nullable=False),
        sa.Column("thread", sa.String(length=120), nullable=False),
        sa.Column("decision", sa.String(length=16), nullable=False),
        sa.Column("retry_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("repo_id", "comment_id"),
    )
    with op.batch_alter_table("commands", schema=None) as batch_op:
        batch_op.create_index("ix_commands_repo_received", ["repo_id", "received_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("commands", schema=None) as batch_op:
        batch_op.drop_index("ix_commands_repo_received")
    op.drop_table("commands")
