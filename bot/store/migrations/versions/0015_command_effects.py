"""A command's effect is kept, and the config's blob in force apart from a rejected one's

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-24

`commands.effect`: what a taken command did (a `rate`: the commit, the importance before and
after), recorded with its effect, so a rerun of its job only replies and never applies it
again over a later one. `repositories.config_in_force_sha`: the blob the config in force came
from; `config_sha` stays the blob last read (a rejected one included), as the ETag needs it.
A repository with a rejected file before this revision has no sha in force known.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("commands", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "effect",
                sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            )
        )
    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.add_column(sa.Column("config_in_force_sha", sa.String(64)))
    op.execute(
        "UPDATE repositories SET config_in_force_sha = config_sha WHERE config_error IS NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("repositories", schema=None) as batch_op:
        batch_op.drop_column("config_in_force_sha")
    with op.batch_alter_table("commands", schema=None) as batch_op:
        batch_op.drop_column("effect")
