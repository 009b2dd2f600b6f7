"""Persistence: SQLite by default, PostgreSQL for several replicas."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.store.store import IngestOutcome, Store

__all__ = ["IngestOutcome", "Store"]


def __getattr__(name: str) -> Any:
    # Imported lazily: the job table (bot.jobs) and the store's modules import each other's
    # schema, and `import bot.store.schema` must not pull the whole store in first.
    if name in __all__:
        from bot.store import store  # noqa: PLC0415

        return getattr(store, name)
    raise AttributeError(name)
