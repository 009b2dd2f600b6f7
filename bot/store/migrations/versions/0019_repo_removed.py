"""A repository removed from the installation keeps its rows until the installation is deleted

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-26

`repositories.removed_at`: when a maintainer last unticked the repository in the
installation's settings (`installation_repositories` `removed`); None while it is part of the
installation. Removal stops its work but keeps its post ledger, commits and digests, so that
a repository added again edits or adds to the posts it made instead of posting a day twice.
Its rows go when GitHub deletes the installation.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.add_column(sa.Column("removed_at", sa.DateTime(timezone=True)))


def downgrade() -> None:
    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.drop_column("removed_at")
