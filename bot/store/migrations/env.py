"""Alembic environment: runs on the connection the store hands over (see store/engine.py)."""

from __future__ import annotations

from alembic import context

from bot.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through `python -m bot migrate` or the store, not alembic")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
