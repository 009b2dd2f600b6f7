"""Sign-in with GitHub: the OAuth web flow's calls and what a person's user token can reach.

GitHub answers a refused code exchange with HTTP 200 and an `error` field, so the body is
read, not only the status. A GitHub App's user token has no scopes: it reaches what both the
person and the App can reach, which is exactly what the status page may show them.
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import aiohttp

from bot.github.client import API_VERSION, USER_AGENT

# A person waits on these calls (sign-in, a renewed page, sign-out): never a minute.
MAX_WAIT_SECONDS = 10.0


class SignInFailed(Exception):
    """GitHub refused the code, the credentials or the token (`refused`), or could not be
    asked (a timeout, a 5xx, a malformed answer); the message is GitHub's error code or an
    HTTP status, never a token."""

    def __init__(self, reason: str, *, refused: bool = True) -> None:
        super().__init__(reason)
        self.refused = refused


def _failed(status: int) -> SignInFailed:
    # 5xx and 429 say nothing of the token: GitHub is down or busy, not refusing.
    return SignInFailed(f"HTTP {status}", refused=status < 500 and status != 429)


@contextmanager
def _asking() -> Iterator[None]:
    """Whatever goes wrong in a call to GitHub, as SignInFailed."""
    try:
        yield
    except SignInFailed:
        raise
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise SignInFailed(f"unreachable ({type(exc).__name__})", refused=False) from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise SignInFailed(f"malformed answer ({type(exc).__name__})", refused=False) from exc


@dataclass(frozen=True)
class Reachable:
    """The installations of the App a person can reach, and their repositories' ids."""

    login: str
    installations: dict[int, str]  # id -> account login
    repo_ids: frozenset[int]


@dataclass(frozen=True)
class OAuthApp:
    """The App's OAuth client: where people sign in and the calls made with their token."""

    session: aiohttp.ClientSession
    client_id: str
    client_secret: str
    web_url: str
    api_url: str
    wait_seconds: float = MAX_WAIT_SECONDS

    @property
    def _timeout(self) -> aiohttp.ClientTimeout:
        return aiohttp.ClientTimeout(total=self.wait_seconds)

    def authorize_url(self, *, state: str, redirect_uri: str) -> str:
        query = urlencode(
            {"client_id": self.client_id, "redirect_uri": redirect_uri, "state": state}
        )
        return f"{self.web_url}/login/oauth/authorize?{query}"

    async def exchange(self, code: str, redirect_uri: str) -> str:
        """The code GitHub sent back, exchanged server-side for the person's user token."""
        form = {
            "client_id": self.client_id,
            "client_secret": self.client_secret,
            "code": code,
            "redirect_uri": redirect_uri,
        }
        headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
        with _asking():
            async with self.session.post(
                f"{self.web_url}/login/oauth/access_token",
                data=form,
                headers=headers,
                timeout=self._timeout,
            ) as response:
                if response.status != 200:
                    raise _failed(response.status)
                body = await response.json(content_type=None)
            if not isinstance(body, dict) or "error" in body or not body.get("access_token"):
                error = body.get("error") if isinstance(body, dict) else None
                raise SignInFailed(str(error or "no access_token"))
            return str(body["access_token"])

    async def reachable(self, token: str) -> Reachable:
        """Who the token's person is, and which installations and repositories they reach."""
        with _asking():
            user = await self._get(token, "/user")
            installations: dict[int, str] = {}
            repo_ids: set[int] = set()
            async for page in self._pages(token, "/user/installations?per_page=100"):
                for item in page.get("installations", []):
                    installations[int(item["id"])] = str(item["account"]["login"])
            for installation in installations:
                url = f"/user/installations/{installation}/repositories?per_page=100"
                async for page in self._pages(token, url):
                    repo_ids.update(int(repo["id"]) for repo in page.get("repositories", []))
            return Reachable(str(user["login"]), installations, frozenset(repo_ids))

    async def revoke(self, token: str) -> None:
        """Revoke the person's token at sign-out (Basic auth with the App's client id)."""
        basic = base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode()
        with _asking():
            async with self.session.delete(
                f"{self.api_url}/applications/{self.client_id}/token",
                json={"access_token": token},
                headers={**self._headers(None), "Authorization": f"Basic {basic}"},
                timeout=self._timeout,
            ) as response:
                # 404: the token was already gone (expired, or revoked by the person on GitHub).
                if response.status not in (204, 404):
                    raise _failed(response.status)

    def _headers(self, token: str | None) -> dict[str, str]:
        headers = {
            "Accept": "application/vnd.github+json",
            "User-Agent": USER_AGENT,
            "X-GitHub-Api-Version": API_VERSION,
        }
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        return headers

    async def _get(self, token: str, path: str) -> dict[str, Any]:
        async with self.session.get(
            f"{self.api_url}{path}", headers=self._headers(token), timeout=self._timeout
        ) as response:
            if response.status != 200:
                raise _failed(response.status)
            body = await response.json(content_type=None)
        if not isinstance(body, dict):
            raise SignInFailed("not an object")
        return body

    async def _pages(self, token: str, path: str) -> AsyncIterator[dict[str, Any]]:
        url: str | None = f"{self.api_url}{path}"
        while url is not None:
            async with self.session.get(
                url, headers=self._headers(token), timeout=self._timeout
            ) as response:
                if response.status != 200:
                    raise _failed(response.status)
                body = await response.json(content_type=None)
                following = response.links.get("next")
                url = str(following["url"]) if following else None
            if not isinstance(body, dict):
                raise SignInFailed("not an object")
            yield body
