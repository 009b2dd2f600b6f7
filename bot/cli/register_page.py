"""`register`'s pages: the manifest (`app.yml`) as GitHub reads it, the form that sends it to
GitHub's "new App" page, and the answers shown once GitHub sends the browser back."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import yaml

from bot.github.manifest import RegisteredApp
from bot.settings import MissingSetting

# The clone's `app.yml`, beside the package.
MANIFEST = Path(__file__).resolve().parents[2] / "app.yml"


def manifest(path: Path, webhook_url: str | None, redirect_url: str) -> dict[str, Any]:
    """`app.yml` with the deployment's webhook address, and where GitHub sends the browser
    back with the code."""
    try:
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MissingSetting(f"cannot read the App's manifest {path}: {exc.strerror}") from None
    if webhook_url:
        data["hook_attributes"]["url"] = webhook_url
    data["redirect_url"] = redirect_url
    return data


def _page(title: str, body: str) -> str:
    return (
        "<!doctype html>\n"
        '<html lang="en"><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n"
        '<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">\n'
        f"<h1>{html.escape(title)}</h1>\n{body}</body></html>\n"
    )


def form_page(data: dict[str, Any], action: str, state: str) -> str:
    """The form that POSTs the manifest to GitHub's "new App" page (the `state` comes back
    with the code, so an answer meant for another registration is refused)."""
    target = f"{action}?{urlencode({'state': state})}"
    value = html.escape(json.dumps(data), quote=True)
    name = html.escape(data["name"])
    webhook = html.escape(data["hook_attributes"]["url"])
    return _page(
        f"Register {data['name']}",
        f"<p>GitHub will show the App <b>{name}</b> (webhooks to <code>{webhook}</code>) and "
        "create it once you confirm. Be signed in to GitHub in this browser.</p>\n"
        f'<form action="{html.escape(target, quote=True)}" method="post">\n'
        f'  <input type="hidden" name="manifest" value="{value}">\n'
        f'  <button id="create" type="submit">Create the GitHub App “{name}”</button>\n'
        "</form>\n",
    )


def done_page(app: RegisteredApp, env: Path) -> str:
    install = html.escape(app.install_url, quote=True)
    return _page(
        f"{app.name} is registered",
        f"<p>Its settings are in <code>{html.escape(str(env))}</code>. Install it on your "
        f'repositories: <a id="install" href="{install}">{html.escape(app.install_url)}</a></p>\n'
        "<p>You may close this page.</p>\n",
    )


def problem_page(message: str) -> str:
    return _page("Not registered", f'<p id="problem">{html.escape(message)}</p>\n')
