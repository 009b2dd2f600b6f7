"""Instants in one form per engine: timestamptz on PostgreSQL, microsecond text on SQLite

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24

SQLite compares instants as text. Ingest's bulk insert let the driver write whole seconds
without their fraction (`2026-06-22 00:00:00`), which sorts before the same instant in the
form every other write and every query uses (`2026-06-22 00:00:00.000000`): a commit pushed
exactly on a cutoff second was in no day's window. Those values are rewritten in the one
form. PostgreSQL's naive UTC timestamps become timestamptz, so that no comparison depends
on the session's time zone.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# Every instant column of revision 0006 (bot.store.schema.UTCDateTime).
INSTANTS = {
    "installations": ("created_at", "updated_at"),
    "repositories": ("active_since", "created_at", "updated_at"),
    "deliveries": ("received_at",),
    "pushes": ("pushed_at",),
    "commits": ("landed_at", "created_at"),
    "analyses": ("created_at",),
    "digests": ("created_at", "published_at"),
    "posts": ("created_at", "updated_at"),
    "jobs": ("not_before", "lease_until", "created_at", "updated_at"),
    "redeliveries": ("asked_at",),
}
# What Python's sqlite3 adapter writes for a datetime without microseconds.
_WHOLE_SECONDS = len("2026-06-22 00:00:00")


def _postgresql_columns(naive: bool) -> list[tuple[str, str]]:
    """The instant columns whose type is still (`naive`) or no longer timestamp without zone
    (a database created at a later revision has timestamptz from the start)."""
    rows = op.get_bind().execute(
        sa.text(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND data_type = :type"
        ),
        {"type": "timestamp without time zone" if naive else "timestamp with time zone"},
    )
    found = {(table, column) for table, column in rows}
    return [(t, c) for t, columns in INSTANTS.items() for c in columns if (t, c) in found]


def _retype(columns: list[tuple[str, str]], type_: str) -> None:
    # With the session in UTC the conversion reads and writes UTC (the naive values are UTC),
    # and PostgreSQL 12+ changes the type without rewriting the table.
    op.execute("SET LOCAL timezone = 'UTC'")
    for table, column in columns:
        op.execute(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" TYPE {type_}')


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _retype(_postgresql_columns(naive=True), "timestamp with time zone")
        return
    for table, columns in INSTANTS.items():
        for column in columns:
            op.execute(
                f'UPDATE "{table}" SET "{column}" = "{column}" || \'.000000\' '
                f'WHERE length("{column}") = {_WHOLE_SECONDS}'
            )


def downgrade() -> None:
    # SQLite: the canonical form is what revision 0006 writes and reads as well.
    if op.get_bind().dialect.name == "postgresql":
        _retype(_postgresql_columns(naive=False), "timestamp without time zone")
