"""`push`: store the commits that land on a tracked branch, as pending work."""

from __future__ import annotations

from gidgethub import routing, sansio

from bot.repo_config import CONFIG_PATH, tracks
from bot.runtime.logs import get_logger
from bot.store.records import MarkConfigStale, NewCommit, RecordPush, UpsertRepository
from bot.web.handlers.context import HandlerContext, parse_payload
from bot.web.payloads import ZERO_SHA, PushCommit, PushEvent

router = routing.Router()
log = get_logger(__name__)

# The webhook payload lists at most this many commits; a push at the cap may have more.
PAYLOAD_COMMIT_CAP = 2048


def _new_commit(commit: PushCommit, position: int) -> NewCommit:
    return NewCommit.build(
        sha=commit.id,
        position=position,
        message=commit.message,
        author_name=commit.author.name,
        author_login=commit.author.username,
        author_email=commit.author.email,
        url=commit.url,
    )


def _needs_expansion(push: PushEvent, *, default_branch: str | None) -> bool:
    """Whether the payload may not list every commit that landed."""
    if len(push.commits) >= PAYLOAD_COMMIT_CAP:
        return True
    # A new branch has no `before` to compare from; compare it with the default branch,
    # as GitHub's own `compare` link does. A new default branch is the repository's first
    # push: its listed commits are all there is to say.
    return push.created and push.before == ZERO_SHA and push.branch != default_branch


def _owner(full_name: str) -> str:
    return full_name.partition("/")[0]


@router.register("push")
async def on_push(event: sansio.Event, *, ctx: HandlerContext) -> None:
    push = parse_payload(PushEvent, event.data)
    repo = push.repository
    branch = push.branch
    if branch is None or push.deleted:
        log.info("push_ignored", reason="deleted" if push.deleted else "not_a_branch", ref=push.ref)
        return

    default_branch = repo.default_branch
    config_touched = branch == default_branch and any(c.touches(CONFIG_PATH) for c in push.commits)
    view = await ctx.repos.get(repo.id)
    patterns = view.branches if view else None
    if not tracks(branch, default_branch=default_branch, patterns=patterns):
        log.info("push_ignored", reason="untracked_branch", branch=branch)
        # A config change counts even when the default branch itself is not tracked.
        if config_touched:
            ctx.operations += [
                _upsert_repository(push),
                MarkConfigStale(repo_id=repo.id, owner=_owner(repo.full_name)),
            ]
        return

    # Which period the commit belongs to is decided when the period is published, from
    # this instant and the config in force then.
    pushed_at = repo.pushed_at_utc() or ctx.delivery.received_at
    record = RecordPush(
        repo_id=repo.id,
        installation_id=push.installation.id if push.installation else None,
        delivery_id=ctx.delivery.id,
        ref=push.ref,
        branch=branch,
        before=None if push.before == ZERO_SHA else push.before,
        after=push.after,
        forced=push.forced,
        created=push.created,
        pushed_at=pushed_at,
        commits=tuple(_new_commit(c, i) for i, c in enumerate(push.commits)),
        needs_expansion=_needs_expansion(push, default_branch=default_branch),
    )
    upsert = _upsert_repository(push)
    if view is None or (view.full_name, view.default_branch, view.installation_id) != (
        upsert.full_name,
        upsert.default_branch,
        upsert.installation_id,
    ):
        ctx.operations.append(upsert)
    ctx.operations.append(record)
    if config_touched:
        ctx.operations.append(MarkConfigStale(repo_id=repo.id, owner=_owner(repo.full_name)))
    log.info(
        "push_recorded",
        branch=branch,
        commits=len(record.commits),
        forced=push.forced,
        expand=record.needs_expansion,
    )


def _upsert_repository(push: PushEvent) -> UpsertRepository:
    repo = push.repository
    return UpsertRepository(
        id=repo.id,
        installation_id=push.installation.id if push.installation else None,
        full_name=repo.full_name,
        node_id=repo.node_id,
        default_branch=repo.default_branch,
    )
