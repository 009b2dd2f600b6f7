"""Who is signed in: the encrypted session cookie, its age, and what the person can reach.

The cookie is encrypted and authenticated (Fernet, through aiohttp-session), HTTP-only and
`SameSite=Lax`, so the user token in it is never readable in clear and a cross-site form
post does not carry it. What the person reaches is kept here, by a random session id, for
a short time: a page view then makes no GitHub call, and a renewed session asks again.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from aiohttp import web
from aiohttp_session import Session, new_session, session_middleware
from aiohttp_session.cookie_storage import EncryptedCookieStorage
from cachetools import TTLCache

from bot.github.oauth import OAuthApp, Reachable, SignInFailed
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger

log = get_logger(__name__)

COOKIE = "commit_digest_session"
STATE = "oauth_state"


def cookie_key(secret: str) -> bytes:
    """The 32-byte Fernet key of SESSION_SECRET, whatever its length (a hash of it)."""
    return hashlib.sha256(secret.encode("utf-8")).digest()


def install(app: web.Application, secret: str, max_age: int, *, secure: bool) -> None:
    """Put the session middleware on the App: an encrypted, HTTP-only, SameSite=Lax cookie,
    sent over https only when `secure`."""
    storage = EncryptedCookieStorage(
        cookie_key(secret),
        cookie_name=COOKIE,
        max_age=max_age,
        httponly=True,
        samesite="Lax",
        secure=secure,
    )
    app.middlewares.append(session_middleware(storage))


class ReachUnknown(Exception):
    """GitHub could not be asked what a signed-in person reaches; the session stays."""


@dataclass(frozen=True)
class SignedIn:
    login: str
    reach: Reachable


class Sessions:
    """Signs people in and out, and says who is signed in and what they may see."""

    def __init__(
        self, oauth: OAuthApp, clock: Clock, *, max_age: int, recheck_seconds: int
    ) -> None:
        self.oauth = oauth
        self._clock = clock
        self._max_age = max_age
        self._reach: TTLCache[str, Reachable] = TTLCache(
            maxsize=10_000, ttl=max(recheck_seconds, 1), timer=self._now
        )

    def _now(self) -> float:
        return self._clock.now().timestamp()

    def begin(self, session: Session) -> str:
        """A fresh unguessable state for the authorize redirect, kept in the session."""
        state = secrets.token_urlsafe(32)
        session[STATE] = state
        return state

    @staticmethod
    def state_matches(session: Session, state: str | None) -> bool:
        expected = session.pop(STATE, None)
        return bool(state and expected) and secrets.compare_digest(str(expected), str(state))

    async def sign_in(self, request: web.Request, code: str, redirect_uri: str) -> SignedIn:
        """Exchange the code, ask what the person reaches, and start a new session."""
        token = await self.oauth.exchange(code, redirect_uri)
        reach = await self.oauth.reachable(token)
        # A new session (a new cookie) at sign-in: nothing set before it carries over.
        session = await new_session(request)
        sid = secrets.token_urlsafe(16)
        session.update({"token": token, "login": reach.login, "at": self._now(), "sid": sid})
        self._reach[sid] = reach
        log.info("signed_in", login=reach.login, repositories=len(reach.repo_ids))
        return SignedIn(reach.login, reach)

    async def current(self, session: Session) -> SignedIn | None:
        """Who is signed in, or None (never signed in, session over, access withdrawn);
        ReachUnknown when GitHub cannot be asked (an outage signs nobody out)."""
        token, sid = session.get("token"), session.get("sid")
        if not token or not sid:
            return None
        if self._now() - float(session.get("at", 0)) > self._max_age:
            log.info("session_ended", login=session.get("login"))
            session.invalidate()
            return None
        reach = self._reach.get(sid)
        if reach is None:
            # Renewed: ask GitHub again what the person reaches (access may have changed).
            try:
                reach = await self.oauth.reachable(str(token))
            except SignInFailed as exc:
                if not exc.refused:
                    log.warning("reach_unknown", login=session.get("login"), reason=str(exc))
                    raise ReachUnknown(str(exc)) from exc
                log.info("session_refused", login=session.get("login"), reason=str(exc))
                session.invalidate()
                return None
            self._reach[sid] = reach
        return SignedIn(reach.login, reach)

    async def sign_out(self, session: Session) -> None:
        token, sid = session.get("token"), session.get("sid")
        session.invalidate()
        if sid:
            self._reach.pop(str(sid), None)
        if token:
            try:
                await self.oauth.revoke(str(token))
            except SignInFailed as exc:
                # The cookie is cleared all the same: the response must still carry it.
                log.warning("token_not_revoked", reason=str(exc))
