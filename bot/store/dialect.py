"""The one place for what SQLite and PostgreSQL differ in: the INSERT … ON CONFLICT dialect, and
how many bound parameters one statement may take."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite


def insert_for(dialect: str) -> Any:
    """`insert` with `on_conflict_do_nothing/update` for the named dialect."""
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


# Bound parameters per statement stay far below SQLite's and asyncpg's limits.
CHUNK = 500


def in_chunks(values: Collection[str]) -> Iterator[list[str]]:
    """The values, sorted, in lists of at most CHUNK (one statement's `IN (...)` each)."""
    ordered = sorted(values)
    for start in range(0, len(ordered), CHUNK):
        yield ordered[start : start + CHUNK]
