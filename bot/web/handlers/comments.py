"""`issue_comment` and `discussion_comment`: a new comment that is a `/digest` command becomes
a job; every other comment, and every comment by a bot (the App's own replies), is ignored."""

from __future__ import annotations

from gidgethub import routing, sansio

from bot.digest.command_syntax import command_line
from bot.runtime.logs import get_logger
from bot.store.job_payloads import DigestCommandPayload
from bot.store.records import RecordCommand, UpsertRepository
from bot.web.handlers.context import HandlerContext, MalformedPayload, parse_payload
from bot.web.payloads import CommentEvent, CommentUser

router = routing.Router()
log = get_logger(__name__)


def _is_bot(user: CommentUser) -> bool:
    return user.type == "Bot" or user.login.lower().endswith("[bot]")


@router.register("issue_comment", action="created")
@router.register("discussion_comment", action="created")
async def on_comment(event: sansio.Event, *, ctx: HandlerContext) -> None:
    comment_event = parse_payload(CommentEvent, event.data)
    comment = comment_event.comment
    # Bots never command the App, so no reply can answer a reply: no loop can start.
    if (
        comment.performed_via_github_app is not None
        or _is_bot(comment.user)
        or _is_bot(comment_event.sender)
    ):
        return
    line = command_line(comment.body or "")
    if line is None:
        return
    repo = comment_event.repository
    issue = discussion = discussion_number = None
    if event.event == "issue_comment":
        if comment_event.issue is None:
            raise MalformedPayload("invalid CommentEvent: issue")
        issue = comment_event.issue.number
    else:
        if comment_event.discussion is None:
            raise MalformedPayload("invalid CommentEvent: discussion")
        discussion = comment_event.discussion.node_id
        discussion_number = comment_event.discussion.number
    installation_id = comment_event.installation.id if comment_event.installation else None
    view = await ctx.repos.get(repo.id)
    if view is None:
        # A repository first seen through a command: record it (its config is read too).
        ctx.operations.append(
            UpsertRepository(
                id=repo.id,
                installation_id=installation_id,
                full_name=repo.full_name,
                node_id=repo.node_id,
                default_branch=repo.default_branch,
            )
        )
    ctx.operations.append(
        RecordCommand(
            DigestCommandPayload(
                repo_id=repo.id,
                installation_id=installation_id,
                comment_id=comment.id,
                comment_node_id=comment.node_id,
                parent_id=comment.parent_id,
                author=comment.user.login,
                line=line,
                received_at=ctx.delivery.received_at,
                issue=issue,
                discussion=discussion,
                discussion_number=discussion_number,
            )
        )
    )
    log.info("command_recorded", comment_id=comment.id)
