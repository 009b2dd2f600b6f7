"""Column types as the migrations before 0007 knew them: a migration creates and writes what it
did when it was written, whatever the live schema (`bot/store/schema.py`) says now."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect


class NaiveUTCDateTime(sa.types.TypeDecorator[datetime]):
    """An instant up to revision 0006: naive UTC, in `timestamp without time zone` on
    PostgreSQL (revision 0007 makes it timestamptz)."""

    impl = sa.DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use timezone-aware UTC")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC)
