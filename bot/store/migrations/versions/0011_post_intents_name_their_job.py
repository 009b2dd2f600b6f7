"""A post's ledger row names the job that last meant to create it

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24

The tracking issue is shared by every job of a repository: a job that finds another's
"creating" row while that job still holds its lease waits for it instead of creating a
second issue.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("job_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.drop_column("job_id")
