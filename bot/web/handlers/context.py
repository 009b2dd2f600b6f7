"""What every webhook handler receives: the delivery, repository lookups, and the writes it adds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

import pydantic
from cachetools import TTLCache

from bot.store import Store
from bot.store.records import DeliveryRecord, Operation, RepoIngestView

ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)


class MalformedPayload(Exception):
    """The payload lacks a field the App reads, or has it in the wrong type."""


def parse_payload(model: type[ModelT], data: Any) -> ModelT:
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        # Name the fields, never echo the values: payloads are not logged.
        fields = sorted({".".join(str(p) for p in err["loc"]) or "(body)" for err in exc.errors()})
        raise MalformedPayload(f"invalid {model.__name__}: {', '.join(fields[:5])}") from None


class RepoViews:
    """Per-repository identity and tracked branches, cached briefly in each replica."""

    def __init__(self, store: Store, *, ttl_seconds: float = 60.0) -> None:
        self._store = store
        self._cache: TTLCache[int, RepoIngestView | None] = TTLCache(
            maxsize=50_000, ttl=ttl_seconds
        )

    async def get(self, repo_id: int) -> RepoIngestView | None:
        try:
            return self._cache[repo_id]
        except KeyError:
            view = await self._store.repos.ingest_view(repo_id)
            self._cache[repo_id] = view
            return view

    def invalidate(self, repo_id: int) -> None:
        self._cache.pop(repo_id, None)


@dataclass
class HandlerContext:
    """The contract of every handler: `async def on_x(event, *, ctx)`; writes go to `operations`.

    Handlers run inside the webhook request, which makes no GitHub or LLM call, so they get
    no GitHub client: they only decide what to store.
    """

    delivery: DeliveryRecord
    repos: RepoViews
    operations: list[Operation] = field(default_factory=list)
