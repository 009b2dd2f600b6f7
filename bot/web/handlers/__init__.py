"""Webhook handlers: one gidgethub Router per event family, composed here."""

from __future__ import annotations

from gidgethub import routing

from bot.web.handlers import comments, installation, push

# Events the App stores work for; others are answered with a quiet 2xx.
ROUTED_EVENTS = frozenset(
    {"push", "installation", "installation_repositories", "issue_comment", "discussion_comment"}
)


def build_router() -> routing.Router:
    return routing.Router(push.router, installation.router, comments.router)
