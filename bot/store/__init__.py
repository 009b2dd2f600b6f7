"""Persistence: SQLite by default, PostgreSQL for several replicas; the work queue lives here."""

from bot.store.store import IngestOutcome, Store

__all__ = ["IngestOutcome", "Store"]
