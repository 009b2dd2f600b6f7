"""Org defaults: where each config value came from, and the base file's ETag

Revision ID: 0018
Revises: 0017_status_page
Create Date: 2026-11-26

`repositories.config_origin`: which file set each key of the config in force (the
repository's, or the base it starts from: the org's `.github` repository, or the one its
`_extends` names), the base's repository, and the unknown keys left out. `config_base_etag`
and `config_base_sha`: the base file's ETag and the blob it named, so that reading it again
is conditional, as the repository's own file is (0004).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0018"
down_revision = "0017_status_page"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "config_origin",
                sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
                nullable=True,
            )
        )
        batch_op.add_column(sa.Column("config_base_etag", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("config_base_sha", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.drop_column("config_base_sha")
        batch_op.drop_column("config_base_etag")
        batch_op.drop_column("config_origin")
