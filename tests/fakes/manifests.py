"""The fake GitHub's side of the App manifest flow: the "new App" page a manifest is POSTed to,
and `POST /app-manifests/{code}/conversions` answered as GitHub's API description says."""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode, urlsplit

from aiohttp import web
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from bot.runtime.clock import Clock

API_DOCS = "https://docs.github.com/rest/apps/apps#create-a-github-app-from-a-manifest"
# Every step of the flow must be done within an hour of the manifest (FACTS.md §10).
CODE_LIFETIME = timedelta(hours=1)


@dataclass
class Pending:
    """An App the user confirmed, waiting for its code to be exchanged."""

    manifest: dict[str, Any]
    owner: str
    owner_type: str
    made_at: datetime


@dataclass
class ManifestFlow:
    clock: Clock
    new_id: Any  # () -> int, the fake's id sequence
    pending: dict[str, Pending] = field(default_factory=dict)
    # Every App made (the conversion's answer, pem included), for tests to compare with.
    made: list[dict[str, Any]] = field(default_factory=list)
    # The manifests received, as GitHub read them, with the page they were sent to.
    received: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def new_app_page(self, request: web.Request, m: re.Match[str], call: Any) -> web.Response:
        """GitHub's "new App" page: a form POST with a `manifest` field (JSON) and `state` in
        the address. GitHub then shows the App and, once the signed-in user confirms, makes
        it and sends the browser to `redirect_url?code=…&state=…`; the fake confirms at once."""
        form = await request.post()
        raw = form.get("manifest")
        if not isinstance(raw, str):
            return _page(422, "Invalid GitHub App configuration: no manifest was sent")
        try:
            data = json.loads(raw)
        except ValueError:
            return _page(422, "Invalid GitHub App configuration: the manifest is not JSON")
        problem = _manifest_problem(data)
        if problem:
            return _page(422, f"Invalid GitHub App configuration: {problem}")
        org = m.group(1)
        self.received.append((request.path, data))
        code = secrets.token_hex(10)
        self.pending[code] = Pending(
            manifest=data,
            owner=org or "octocat",
            owner_type="Organization" if org else "User",
            made_at=self.clock.now(),
        )
        if not data.get("redirect_url"):
            # GitHub then shows the new App's own page; the code is never seen.
            return _page(200, "The GitHub App was created.")
        back = {"code": code}
        if "state" in request.query:
            back["state"] = request.query["state"]
        return web.Response(
            status=302, headers={"Location": f"{data['redirect_url']}?{urlencode(back)}"}
        )

    async def convert(self, request: web.Request, m: re.Match[str], call: Any) -> web.Response:
        """`POST /app-manifests/{code}/conversions`: 201 with the App and its credentials;
        404 for a code GitHub never gave, one used already, or one over an hour old."""
        code = m.group(1)
        pending = self.pending.pop(code, None)
        if pending is None or self.clock.now() - pending.made_at > CODE_LIFETIME:
            return web.json_response(
                {"message": "Not Found", "documentation_url": API_DOCS}, status=404
            )
        data = pending.manifest
        slug = re.sub(r"[^a-z0-9]+", "-", data.get("name", "app").lower()).strip("-")
        web_url = f"{request.scheme}://{request.host}"
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        now = self.clock.now().isoformat()
        app_id = self.new_id()
        answer = {
            "id": app_id,
            "slug": slug,
            "node_id": f"A_{app_id}",
            "owner": {"login": pending.owner, "id": self.new_id(), "type": pending.owner_type},
            "name": data.get("name", slug),
            "description": data.get("description", ""),
            "external_url": data["url"],
            "html_url": f"{web_url}/apps/{slug}",
            "created_at": now,
            "updated_at": now,
            "permissions": {"metadata": "read", **data.get("default_permissions", {})},
            "events": data.get("default_events", []),
            "client_id": "Iv1." + secrets.token_hex(8),
            "client_secret": secrets.token_hex(20),
            "webhook_secret": secrets.token_hex(20) if data.get("hook_attributes") else None,
            # GitHub hands the key over as PKCS#1 ("BEGIN RSA PRIVATE KEY").
            "pem": key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.TraditionalOpenSSL,
                serialization.NoEncryption(),
            ).decode(),
        }
        self.made.append(answer)
        return web.json_response(answer, status=201)


def _manifest_problem(data: Any) -> str | None:
    """What GitHub refuses in a manifest (FACTS.md §10: `url` and `hook_attributes.url`
    required, at most 10 `callback_urls`)."""
    if not isinstance(data, dict):
        return "the manifest is not an object"
    if not isinstance(data.get("url"), str) or not urlsplit(data["url"]).netloc:
        return "url is required"
    hook = data.get("hook_attributes")
    if hook is not None and (not isinstance(hook, dict) or not hook.get("url")):
        return "hook_attributes.url is required"
    if len(data.get("callback_urls", [])) > 10:
        return "callback_urls has more than 10 URLs"
    return None


def _page(status: int, message: str) -> web.Response:
    return web.Response(
        status=status, text=f"<!doctype html><p>{message}</p>", content_type="text/html"
    )
