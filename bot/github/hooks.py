"""The App's webhook delivery log: its recent deliveries, and a request to redeliver one.

Both take the App's JWT (GitHub serves the log to nothing else). The log is newest first and
cursor-paged (`GET /app/hook/deliveries`); a redelivery
(`POST /app/hook/deliveries/{id}/attempts`) keeps its GUID, and the client may send it twice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from bot.github.client import GitHubAPI
from bot.runtime.logs import get_logger

log = get_logger(__name__)


class HookDelivery(BaseModel):
    """One row of GitHub's delivery log: one attempt to deliver one event (its GUID)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: int
    guid: str
    delivered_at: datetime
    status: str = ""
    status_code: int
    event: str
    action: str | None = None

    @field_validator("delivered_at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        # GitHub writes `Z`; a time without a zone is UTC too, never compared as naive.
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value

    @property
    def answered_2xx(self) -> bool:
        return 200 <= self.status_code < 300


async def hook_deliveries(
    app_api: GitHubAPI, *, per_page: int
) -> AsyncIterator[list[HookDelivery]]:
    """The delivery log a page at a time, newest first; a row that does not read as one is
    logged and left out."""
    async for page in app_api.pages("/app/hook/deliveries{?per_page}", {"per_page": per_page}):
        rows: list[HookDelivery] = []
        for item in page if isinstance(page, list) else []:
            try:
                rows.append(HookDelivery.model_validate(item))
            except ValidationError as exc:
                log.warning("hook_delivery_unreadable", error=str(exc).splitlines()[0])
        yield rows


async def redeliver(app_api: GitHubAPI, hook_delivery_id: int) -> None:
    """Ask GitHub to deliver that row of the log again (`gidgethub.BadRequest` when it will not)."""
    await app_api.post(
        "/app/hook/deliveries/{delivery_id}/attempts",
        {"delivery_id": hook_delivery_id},
        data=b"",
    )
