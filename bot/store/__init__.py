"""Persistence: SQLite by default, PostgreSQL for several replicas."""

from bot.store.store import IngestOutcome, Store

__all__ = ["IngestOutcome", "Store"]
