"""Where a period's first post went is read from the post ledger only

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27

`digests.target` repeated the `kind` of the period's first post (`part-1`) in `posts`,
which the poster reads before every publication. Every value it held is in the ledger, but
for a day whose posts were found deleted and forgotten: such a day is posted again where
posts go now (the ledger holds nothing to keep it on the issue), as its first publication
is. The downgrade fills the column from the ledger again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("digests", schema=None) as batch_op:
        batch_op.drop_column("target")


def downgrade() -> None:
    with op.batch_alter_table("digests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("target", sa.String(length=32), nullable=True))
    conn = op.get_bind()
    digests = sa.table(
        "digests",
        sa.column("repo_id"),
        sa.column("period_kind"),
        sa.column("period_start", sa.Date()),
        sa.column("state"),
        sa.column("target"),
    )
    posts = sa.table(
        "posts", sa.column("repo_id"), sa.column("period"), sa.column("key"), sa.column("kind")
    )
    heads = {
        (r.repo_id, r.period): r.kind
        for r in conn.execute(sa.select(posts).where(posts.c.key == "part-1"))
    }
    published = sa.select(digests).where(digests.c.state == "published")
    for r in conn.execute(published).all():
        kind = heads.get((r.repo_id, f"{r.period_kind}:{r.period_start.isoformat()}"))
        if kind is not None:
            conn.execute(
                sa.update(digests)
                .where(
                    digests.c.repo_id == r.repo_id,
                    digests.c.period_kind == r.period_kind,
                    digests.c.period_start == r.period_start,
                )
                .values(target=kind)
            )
