"""Indexes for the status page: pending commits and the day's LLM use, read by index

Revision ID: 0017_status_page
Revises: 0016
Create Date: 2026-11-26

The status page reads, for every repository a person can reach, its commits still waiting
for analysis (few, among many analysed: a partial index) and the tokens its analyses used
today (an index on when each analysis was made), so a page of a thousand repositories never
scans their whole history.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_status_page"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_commits_pending",
        "commits",
        ["repo_id", "landed_at"],
        unique=False,
        sqlite_where=sa.text("state = 'pending'"),
        postgresql_where=sa.text("state = 'pending'"),
    )
    op.create_index("ix_analyses_made", "analyses", ["repo_id", "created_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_analyses_made", table_name="analyses")
    op.drop_index("ix_commits_pending", table_name="commits")
