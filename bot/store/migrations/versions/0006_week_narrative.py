"""A weekly roll-up keeps its LLM narrative with its record (digests.narrative)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("digests", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "narrative",
                sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
                nullable=True,
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("digests", schema=None) as batch_op:
        batch_op.drop_column("narrative")
