"""A redelivery is asked for until GitHub's window for its delivery closes, not a fixed count

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-24

Asking stopped after 10 asks (about 22.6 hours), though GitHub redelivers a delivery for 3
days (FACTS.md §1). Each row now keeps when GitHub first delivered it, and is asked again,
with its capped backoff, until it is stored or that window closes. A row asked for before
this revision takes its last ask as that time (later than the delivery: GitHub's refusal
past its window ends it).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("redeliveries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("delivered_at", sa.DateTime(timezone=True)))
    op.execute("UPDATE redeliveries SET delivered_at = asked_at")


def downgrade() -> None:
    with op.batch_alter_table("redeliveries", schema=None) as batch_op:
        batch_op.drop_column("delivered_at")
