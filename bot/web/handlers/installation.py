"""`installation` and `installation_repositories`: which installations and repositories exist."""

from __future__ import annotations

from gidgethub import routing, sansio

from bot.runtime.logs import get_logger
from bot.store.records import (
    DeleteInstallation,
    RemoveRepository,
    UpsertInstallation,
    UpsertRepository,
)
from bot.web.handlers.context import HandlerContext, parse_payload
from bot.web.payloads import (
    Installation,
    InstallationEvent,
    InstallationRepositoriesEvent,
    RepositoryRef,
)

router = routing.Router()
log = get_logger(__name__)


def _upsert_installation(installation: Installation, *, suspended: bool) -> UpsertInstallation:
    account = installation.account
    return UpsertInstallation(
        id=installation.id,
        account_login=account.login if account else None,
        account_type=account.type if account else None,
        suspended=suspended,
    )


def _upsert_repo(repo: RepositoryRef, installation_id: int) -> UpsertRepository:
    return UpsertRepository(
        id=repo.id, installation_id=installation_id, full_name=repo.full_name, node_id=repo.node_id
    )


@router.register("installation", action="created")
@router.register("installation", action="unsuspend")
@router.register("installation", action="new_permissions_accepted")
async def on_installation_active(event: sansio.Event, *, ctx: HandlerContext) -> None:
    payload = parse_payload(InstallationEvent, event.data)
    ctx.operations.append(_upsert_installation(payload.installation, suspended=False))
    ctx.operations.extend(
        _upsert_repo(repo, payload.installation.id) for repo in payload.repositories or ()
    )
    log.info("installation_recorded", repositories=len(payload.repositories or ()))


@router.register("installation", action="suspend")
async def on_installation_suspended(event: sansio.Event, *, ctx: HandlerContext) -> None:
    payload = parse_payload(InstallationEvent, event.data)
    ctx.operations.append(_upsert_installation(payload.installation, suspended=True))
    log.info("installation_suspended")


@router.register("installation", action="deleted")
async def on_installation_deleted(event: sansio.Event, *, ctx: HandlerContext) -> None:
    payload = parse_payload(InstallationEvent, event.data)
    ctx.operations.append(DeleteInstallation(id=payload.installation.id))
    log.info("installation_deleted")


@router.register("installation_repositories", action="added")
@router.register("installation_repositories", action="removed")
async def on_repositories_changed(event: sansio.Event, *, ctx: HandlerContext) -> None:
    payload = parse_payload(InstallationRepositoriesEvent, event.data)
    installation_id = payload.installation.id
    ctx.operations.extend(_upsert_repo(r, installation_id) for r in payload.repositories_added)
    ctx.operations.extend(
        RemoveRepository(id=r.id, at=ctx.delivery.received_at) for r in payload.repositories_removed
    )
    log.info(
        "installation_repositories_changed",
        added=len(payload.repositories_added),
        removed=len(payload.repositories_removed),
    )
