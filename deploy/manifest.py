"""The page that registers the App from its manifest (`app.yml`) with GitHub's manifest flow.

    .venv/bin/python deploy/manifest.py --webhook-url https://HOST/webhook > register.html
    .venv/bin/python deploy/manifest.py --webhook-url https://HOST/webhook --org ORG > register.html

Open register.html in a browser signed in to GitHub and press the button: GitHub shows the
App it is about to create (for your account, or for the organisation ORG) and, once you
confirm, sends the browser to `https://HOST/?code=…` (`--redirect-url` to change it; the page
need not exist, the code is in the address) to exchange for the App's id, key and webhook
secret (deploy/README.md). Needs only the project's own dependencies (PyYAML).
"""

from __future__ import annotations

import argparse
import html
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

MANIFEST = Path(__file__).resolve().parents[1] / "app.yml"


def manifest(webhook_url: str | None, redirect_url: str | None = None) -> dict[str, Any]:
    """`app.yml` as GitHub reads it, with the deployment's webhook address put in, and where
    GitHub sends the browser with the code once the App is made (default: the webhook's
    host)."""
    data: dict[str, Any] = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    if webhook_url:
        data["hook_attributes"]["url"] = webhook_url
    parts = urlsplit(data["hook_attributes"]["url"])
    data["redirect_url"] = redirect_url or f"{parts.scheme}://{parts.netloc}/"
    return data


def page(data: dict[str, Any], org: str | None) -> str:
    """An HTML form that POSTs the manifest to GitHub's "new App" page."""
    where = f"organizations/{org}/settings" if org else "settings"
    action = f"https://github.com/{where}/apps/new"
    value = html.escape(json.dumps(data), quote=True)
    return (
        "<!doctype html>\n"
        '<meta charset="utf-8">\n'
        f"<title>Register {html.escape(data['name'])}</title>\n"
        f'<form action="{html.escape(action, quote=True)}" method="post">\n'
        f'  <input type="hidden" name="manifest" value="{value}">\n'
        f"  <button>Create the GitHub App “{html.escape(data['name'])}”</button>\n"
        "</form>\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--webhook-url",
        help="where GitHub sends webhooks: https://HOST/webhook (default: app.yml's)",
    )
    parser.add_argument("--org", help="register the App for this organisation, not your account")
    parser.add_argument(
        "--redirect-url",
        help="where GitHub sends the browser with the code (default: https://HOST/ of the webhook)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the manifest as JSON instead of the page"
    )
    args = parser.parse_args()
    data = manifest(args.webhook_url, args.redirect_url)
    sys.stdout.write(json.dumps(data) + "\n" if args.json else page(data, args.org))


if __name__ == "__main__":
    main()
