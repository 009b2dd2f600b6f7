"""redeliveries: webhook deliveries the App asked GitHub to redeliver

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.migrations.frozen

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "redeliveries",
        sa.Column("guid", sa.String(length=64), nullable=False),
        sa.Column("hook_delivery_id", sa.BigInteger(), nullable=False),
        sa.Column("event", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("asked_at", bot.store.migrations.frozen.NaiveUTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("guid"),
    )
    with op.batch_alter_table("redeliveries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_redeliveries_asked_at"), ["asked_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("redeliveries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_redeliveries_asked_at"))
    op.drop_table("redeliveries")
