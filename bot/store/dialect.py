"""The one place that chooses the INSERT … ON CONFLICT dialect (SQLite or PostgreSQL)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite


def insert_for(dialect: str) -> Any:
    """`insert` with `on_conflict_do_nothing/update` for the named dialect."""
    return postgresql.insert if dialect == "postgresql" else sqlite.insert
