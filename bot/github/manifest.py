"""GitHub's App manifest flow: where a manifest is sent, and the code exchanged for the App."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

import aiohttp
from pydantic import BaseModel, ConfigDict, ValidationError

from bot.github.client import API_VERSION, USER_AGENT

GITHUB_COM = "https://github.com"


@dataclass(frozen=True)
class GitHubSite:
    """github.com or a GitHub Enterprise Server, by its web address."""

    url: str

    @classmethod
    def of(cls, url: str) -> GitHubSite:
        """The site at `url`; ValueError unless it is an http(s) address with a host."""
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
            raise ValueError(f"{url!r} is not a web address such as {GITHUB_COM}")
        return cls(f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}")

    @property
    def is_github_com(self) -> bool:
        return self.url == GITHUB_COM

    @property
    def api_url(self) -> str:
        """Its REST API: api.github.com, or GHES's `/api/v3` on the same host."""
        return "https://api.github.com" if self.is_github_com else f"{self.url}/api/v3"

    def new_app_url(self, org: str | None) -> str:
        """The "new App" page a manifest is POSTed to, for the signed-in user or an org."""
        owner = f"/organizations/{quote(org, safe='')}" if org else ""
        return f"{self.url}{owner}/settings/apps/new"


class _Conversion(BaseModel):
    """The fields of GitHub's 201 answer to a conversion that the App keeps."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: int
    slug: str
    name: str
    html_url: str
    pem: str
    # Null when the manifest had no webhook (ours always has one).
    webhook_secret: str | None
    client_id: str
    client_secret: str


@dataclass(frozen=True)
class RegisteredApp:
    """The App GitHub made from the manifest, with its credentials (never printed)."""

    id: int
    slug: str
    name: str
    html_url: str
    client_id: str
    pem: str = field(repr=False)
    webhook_secret: str | None = field(repr=False)
    client_secret: str = field(repr=False)

    @property
    def install_url(self) -> str:
        return f"{self.html_url}/installations/new"


class ConversionFailed(Exception):
    """The code could not be exchanged; the message says why. `code_holds`: the code may still
    be good (GitHub was not reached), so trying it again can work."""

    def __init__(self, message: str, *, code_holds: bool = False) -> None:
        super().__init__(message)
        self.code_holds = code_holds


async def convert(session: aiohttp.ClientSession, api_url: str, code: str) -> RegisteredApp:
    """`POST /app-manifests/{code}/conversions`: the App's id, key and secrets. Not retried: a
    code is good for one conversion, so a second try after a lost answer only gets a 404."""
    url = f"{api_url}/app-manifests/{quote(code, safe='')}/conversions"
    headers = {
        "Accept": "application/vnd.github+json",
        "User-Agent": USER_AGENT,
        "X-GitHub-Api-Version": API_VERSION,
    }
    try:
        async with session.post(url, headers=headers) as response:
            status = response.status
            body = await response.read()
    except (TimeoutError, aiohttp.ClientError) as exc:
        raise ConversionFailed(
            f"cannot reach {api_url}: {type(exc).__name__} {exc}", code_holds=True
        ) from None
    if status == 404:
        # GitHub's answer for a code it does not know, one already used and one over an hour old.
        raise ConversionFailed(
            "GitHub does not know this code: it was used already or is over an hour old"
        )
    if status != 201:
        raise ConversionFailed(f"GitHub answered {status} to the conversion: {body[:300]!r}")
    try:
        data = _Conversion.model_validate_json(body)
    except ValidationError as exc:
        raise ConversionFailed(f"GitHub's answer lacks what the App needs: {exc}") from None
    return RegisteredApp(**data.model_dump())
