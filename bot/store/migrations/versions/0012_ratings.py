"""ratings: maintainers' corrections of a commit's importance (`/digest rate`)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("repo_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("sha", sa.String(length=40), nullable=False),
        sa.Column("importance", sa.String(length=8), nullable=False),
        sa.Column("previous", sa.String(length=8), nullable=True),
        sa.Column("author", sa.String(length=255), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("comment_id", sa.BigInteger(), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("edit_pending", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("repo_id", "sha"),
    )


def downgrade() -> None:
    op.drop_table("ratings")
