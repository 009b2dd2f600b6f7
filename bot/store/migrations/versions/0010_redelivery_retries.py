"""A redelivery asked for is asked again, with backoff, until the webhook stores it

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24

A redelivery that met the App down again (a 503 during a database outage) was never asked for
a second time. Each row now counts its asks and says when the next is due; a GUID asked
before this revision is due at once (a round finds it stored, or asks again).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("redeliveries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("asks", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("next_ask_at", sa.DateTime(timezone=True)))
    op.execute("UPDATE redeliveries SET asks = 1, next_ask_at = asked_at WHERE state = 'asked'")


def downgrade() -> None:
    with op.batch_alter_table("redeliveries", schema=None) as batch_op:
        batch_op.drop_column("next_ask_at")
        batch_op.drop_column("asks")
