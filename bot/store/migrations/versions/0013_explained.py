"""explained: commits `/digest explain` fetched and analysed on demand, apart from `commits`

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "explained",
        sa.Column("repo_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("sha", sa.String(length=64), nullable=False),
        sa.Column("analyzer", sa.String(length=120), nullable=False),
        sa.Column("route", sa.String(length=40), nullable=True),
        sa.Column(
            "data",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("fallback_reason", sa.Text(), nullable=True),
        sa.Column("input_tokens", sa.Integer(), nullable=False),
        sa.Column("cached_input_tokens", sa.Integer(), nullable=False),
        sa.Column("output_tokens", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("repo_id", "sha"),
    )


def downgrade() -> None:
    op.drop_table("explained")
