"""The GitHub App: its identity, one HTTP session, a client per installation."""

from __future__ import annotations

from datetime import UTC, datetime

import aiohttp
import gidgethub

from bot.github.auth import AppAuth, InstallationToken
from bot.github.calls import InstallationClient, split_repo
from bot.github.client import Credentials, GitHubAPI, Limits, Pacer, RetryPolicy
from bot.github.errors import GitHubError, InstallationSuspended, NotInstalled, RepositoryGone
from bot.runtime.clock import Clock
from bot.runtime.metrics import Metrics

__all__ = ["GitHubApp"]


class GitHubApp:
    """Hands out clients; built once by the app factory around the process's HTTP session."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        app_id: str,
        private_key: str,
        base_url: str,
        graphql_url: str,
        clock: Clock,
        metrics: Metrics,
        policy: RetryPolicy | None = None,
    ) -> None:
        self._session = session
        self._auth = AppAuth(app_id, private_key, clock)
        self._base_url = base_url
        self._graphql_url = graphql_url
        self._clock = clock
        self._metrics = metrics
        self._policy = policy or RetryPolicy()
        self._pacers: dict[int, Pacer] = {}
        self._limits: dict[int, Limits] = {}

    def _api(
        self, credentials: Credentials, pacer: Pacer | None = None, limits: Limits | None = None
    ) -> GitHubAPI:
        return GitHubAPI(
            self._session,
            base_url=self._base_url,
            graphql_url=self._graphql_url,
            credentials=credentials,
            clock=self._clock,
            metrics=self._metrics,
            policy=self._policy,
            pacer=pacer,
            limits=limits,
        )

    def as_app(self) -> GitHubAPI:
        """Authenticated as the App itself (a JWT): installation lookups and tokens."""

        async def jwt(_refused: str | None) -> str:
            return f"Bearer {self._auth.app_jwt()}"

        return self._api(jwt)

    def installation(self, installation_id: int) -> InstallationClient:
        """Authenticated as one installation, with its cached token, its own pacing and the
        long rate limits it met."""

        async def token(refused: str | None) -> str:
            if refused is not None:
                self._auth.forget(installation_id, refused.removeprefix("token "))
            value = await self._auth.installation_token(installation_id, self._request_token)
            return f"token {value}"

        pacer = self._pacers.setdefault(installation_id, Pacer(self._clock))
        limits = self._limits.setdefault(installation_id, Limits(self._clock))
        return InstallationClient(self._api(token, pacer, limits), installation_id)

    async def _request_token(self, installation_id: int, _jwt: str) -> InstallationToken:
        try:
            data = await self.as_app().post(
                "/app/installations/{installation_id}/access_tokens",
                {"installation_id": installation_id},
                data=b"",
            )
        except gidgethub.BadRequest as exc:
            if int(exc.status_code) == 403:
                # "This installation has been suspended": a pause, never "not installed".
                raise InstallationSuspended(installation_id) from exc
            if int(exc.status_code) == 404:
                raise NotInstalled(
                    f"installation {installation_id}: HTTP {int(exc.status_code)}"
                ) from exc
            raise GitHubError(f"access token for installation {installation_id}: {exc}") from exc
        expires = datetime.fromisoformat(str(data["expires_at"]).replace("Z", "+00:00"))
        return InstallationToken(token=str(data["token"]), expires_at=expires.astimezone(UTC))

    async def installation_for(self, full_name: str) -> int:
        """The installation id of the App on a repository (a push without `installation`)."""
        owner, repo = split_repo(full_name)
        try:
            data = await self.as_app().getitem(
                "/repos/{owner}/{repo}/installation", {"owner": owner, "repo": repo}
            )
        except gidgethub.BadRequest as exc:
            if int(exc.status_code) == 404:
                raise RepositoryGone(f"the App is not installed on {full_name}") from exc
            raise GitHubError(f"installation of {full_name}: {exc}") from exc
        return int(data["id"])
