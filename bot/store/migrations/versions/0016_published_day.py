"""A commit keeps the day of the digest it was posted in

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-24

`commits.published_day`: the day whose digest (its first post or an addendum) took the
commit, set with `published_part`. The day a commit belongs to is otherwise computed from its
landing and the config in force, which a later `timezone` or `cutoff` may move: a commit
posted keeps the day it was posted in. A commit posted before this revision has none: its
day is computed, as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("commits", schema=None) as batch_op:
        batch_op.add_column(sa.Column("published_day", sa.Date()))
        batch_op.create_index(
            "ix_commits_published_day", ["repo_id", "published_day"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("commits", schema=None) as batch_op:
        batch_op.drop_index("ix_commits_published_day")
        batch_op.drop_column("published_day")
