"""App authentication: the App's JWT and per-installation access tokens, cached and renewed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import jwt
from cachetools import TLRUCache
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from bot.runtime.clock import Clock

# GitHub accepts an App JWT for at most 10 minutes; `iat` is backdated for clock drift.
JWT_BACKDATE = timedelta(seconds=60)
JWT_LIFETIME = timedelta(minutes=9)
# Renew a cached JWT this long before it expires.
JWT_MARGIN = timedelta(minutes=2)
# Installation tokens live one hour; renew them this long before `expires_at`.
TOKEN_MARGIN = timedelta(minutes=5)


@dataclass(frozen=True)
class InstallationToken:
    token: str
    expires_at: datetime


# Asks GitHub for a token with the App's JWT: (installation id, jwt) -> token.
TokenRequest = Callable[[int, str], Awaitable[InstallationToken]]


class AppAuth:
    """The App's credentials. One per process; tokens are shared by every caller."""

    def __init__(self, app_id: str, private_key: str, clock: Clock) -> None:
        self._app_id = app_id
        self._pem = private_key
        self._key: rsa.RSAPrivateKey | None = None
        self._clock = clock
        self._jwt: tuple[str, datetime] | None = None
        # Each entry lives until shortly before its own `expires_at` (time-aware LRU).
        self._tokens: TLRUCache[int, InstallationToken] = TLRUCache(
            maxsize=10_000,
            ttu=lambda _key, value, _now: (value.expires_at - TOKEN_MARGIN).timestamp(),
            timer=lambda: self._clock.now().timestamp(),
        )
        self._locks: dict[int, asyncio.Lock] = {}

    def app_jwt(self) -> str:
        """A JWT for the App (RS256), reused until shortly before it expires."""
        now = self._clock.now()
        if self._jwt is not None and now < self._jwt[1] - JWT_MARGIN:
            return self._jwt[0]
        issued = now - JWT_BACKDATE
        expires = now + JWT_LIFETIME
        token = jwt.encode(
            {"iat": int(issued.timestamp()), "exp": int(expires.timestamp()), "iss": self._app_id},
            self._private_key(),
            algorithm="RS256",
        )
        self._jwt = (token, expires)
        return token

    def _private_key(self) -> rsa.RSAPrivateKey:
        """The key, parsed from its PEM text on first use and kept: parsing checks the RSA
        key, which costs tens of milliseconds, and a JWT is signed every few minutes."""
        if self._key is None:
            key = serialization.load_pem_private_key(self._pem.encode(), password=None)
            if not isinstance(key, rsa.RSAPrivateKey):
                raise ValueError("the App's private key is not an RSA key")  # settings say so
            self._key = key
        return self._key

    async def installation_token(self, installation_id: int, request: TokenRequest) -> str:
        """A valid token for the installation; at most one request per installation at a time."""
        cached = self._tokens.get(installation_id)
        if cached is not None:
            return cached.token
        lock = self._locks.setdefault(installation_id, asyncio.Lock())
        async with lock:
            cached = self._tokens.get(installation_id)
            if cached is None:
                cached = await request(installation_id, self.app_jwt())
                self._tokens[installation_id] = cached
        return cached.token

    def forget(self, installation_id: int, token: str) -> None:
        """Drop a token GitHub refused (401), so the next call asks for a new one.

        Only that token: requests in flight when it expired all get a 401, and the first
        renewal serves them all.
        """
        cached = self._tokens.get(installation_id)
        if cached is not None and cached.token == token:
            self._tokens.pop(installation_id, None)
