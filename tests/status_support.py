"""The status page's test set-up: the App served with sign-in on, and a store seeded with
repositories in every state the page shows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from aiohttp import web

from bot.app import STORE, create_app
from bot.store import schema as t
from tests.fakes.github import FakeGitHub
from tests.fakes.oauth import CLIENT_ID, CLIENT_SECRET
from tests.support import FakeClock

SESSION_SECRET = "a-test-session-secret-of-enough-length-0123456789"
# Hostile text a commit title or a config error may carry: shown as text, never as markup.
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'

INSTALLATION = 41
OWN = "acme/engine"  # the maintainer reaches it
SECRET = "acme/vault"  # same installation, the maintainer does not reach it
OWN_ID, SECRET_ID = 9001, 9002


def sign_in_settings(github_url: str) -> dict[str, Any]:
    return {
        "github_api_url": github_url,
        "github_client_id": CLIENT_ID,
        "github_client_secret": CLIENT_SECRET,
        "session_secret": SESSION_SECRET,
        # The tests' servers are plain http: a Secure cookie would never come back to them.
        "session_cookie_secure": False,
    }


@dataclass
class Served:
    url: str
    app: web.Application


async def serve(
    aiohttp_server: Callable[..., Any],
    make_settings: Callable[..., Any],
    clock: FakeClock,
    github_url: str,
    **overrides: Any,
) -> Served:
    settings = make_settings(**{**sign_in_settings(github_url), **overrides})
    app = create_app(settings, clock=clock, background=False)
    server = await aiohttp_server(app)
    return Served(str(server.make_url("")).rstrip("/"), app)


@pytest.fixture
async def served(
    aiohttp_server: Callable[..., Any],
    make_settings: Callable[..., Any],
    clock: FakeClock,
    github_url: str,
    github: FakeGitHub,
) -> Served:
    """The App with sign-in on, the fake GitHub's people and a seeded store."""
    seed_github(github)
    served = await serve(aiohttp_server, make_settings, clock, github_url)
    await seed_store(served.app, clock.now())
    return served


def seed_github(github: FakeGitHub) -> None:
    """The installation's two repositories on GitHub, and who reaches what."""
    github.add_repo(OWN, repo_id=OWN_ID, installation_id=INSTALLATION)
    github.add_repo(SECRET, repo_id=SECRET_ID, installation_id=INSTALLATION)
    github.oauth.add_person("maintainer", repos={OWN})
    github.oauth.add_person("stranger", repos=set())


async def seed_store(app: web.Application, now: datetime) -> None:
    """Both repositories stored: a posted digest, two commits waiting, a failed job, a config
    error carrying hostile text."""
    engine = app[STORE].engine
    day = (now - timedelta(days=1)).date()
    async with engine.begin() as conn:
        await conn.execute(
            sa.insert(t.installations),
            [
                {
                    "id": INSTALLATION,
                    "account_login": "acme",
                    "account_type": "Organization",
                    "suspended": False,
                    "created_at": now,
                    "updated_at": now,
                }
            ],
        )
        await conn.execute(
            sa.insert(t.repositories),
            [
                {
                    "id": repo_id,
                    "installation_id": INSTALLATION,
                    "full_name": name,
                    "default_branch": "main",
                    "config": {"timezone": "Asia/Shanghai", "cutoff": "09:00"}
                    if repo_id == OWN_ID
                    else None,
                    "config_error": f"line 3: {HOSTILE}" if repo_id == OWN_ID else None,
                    "config_error_reported": False,
                    "timezone": "Asia/Shanghai",
                    "cutoff": "09:00",
                    "active_since": now - timedelta(days=30),
                    "created_at": now,
                    "updated_at": now,
                }
                for repo_id, name in ((OWN_ID, OWN), (SECRET_ID, SECRET))
            ],
        )
        await conn.execute(
            sa.insert(t.posts),
            [
                {
                    "repo_id": repo_id,
                    "period": f"day:{day.isoformat()}",
                    "key": "part-1",
                    "kind": "discussion",
                    "state": "posted",
                    "number": 7,
                    "url": f"https://github.com/{name}/discussions/7",
                    "created_at": now - timedelta(hours=3),
                    "updated_at": now - timedelta(hours=3),
                }
                for repo_id, name in ((OWN_ID, OWN), (SECRET_ID, SECRET))
            ],
        )
        await conn.execute(
            sa.insert(t.commits),
            [
                {
                    "repo_id": OWN_ID,
                    "sha": f"{n:040x}",
                    "installation_id": INSTALLATION,
                    "position": n,
                    "landed_at": now - timedelta(hours=n + 1, minutes=30),
                    "branch": "main",
                    "forced": False,
                    "title": HOSTILE,
                    "message": HOSTILE,
                    "author_name": "someone",
                    "url": f"https://github.com/{OWN}/commit/{n:040x}",
                    "state": "pending",
                    "created_at": now,
                }
                for n in (1, 2)
            ],
        )
        await conn.execute(
            sa.insert(t.jobs),
            [
                {
                    "kind": "publish_period",
                    "key": f"{repo_id}/day/{day.isoformat()}",
                    "payload": {
                        "repo_id": repo_id,
                        "period_kind": "day",
                        "start": day.isoformat(),
                    },
                    "state": "failed",
                    "attempts": 5,
                    "not_before": now,
                    "last_error": f"{name}: Discussions are turned off",
                    "created_at": now,
                    "updated_at": now,
                }
                for repo_id, name in ((OWN_ID, OWN), (SECRET_ID, SECRET))
            ],
        )
