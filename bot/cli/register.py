"""`register`: GitHub's App manifest flow from a page this command serves on 127.0.0.1, to the
App's `.env` and private key on disk and its installation address printed."""

from __future__ import annotations

import asyncio
import hmac
import secrets
import shlex
import socket
import sys
import webbrowser
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import aiohttp
from aiohttp import web

from bot.cli.credentials import CredentialFiles, Written
from bot.cli.register_page import MANIFEST, done_page, form_page, manifest, problem_page
from bot.github.manifest import ConversionFailed, GitHubSite, RegisteredApp, convert
from bot.settings import MissingSetting

# GitHub's manifest flow must be finished within an hour (FACTS.md §10); so does the wait.
FLOW_SECONDS = 3600.0
# Holds the browser's second secret, from the page to the way back (GitHub's redirect is a
# top-level GET, which carries a SameSite=Lax cookie).
COOKIE = "commit_digest_register"
_LOOPBACK_NAMES = ("127.0.0.1", "localhost")
_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def _same(given: str | None, secret: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), secret.encode())


@web.middleware
async def _only_this_address(request: web.Request, handler: Any) -> web.StreamResponse:
    """Refuses a request whose Host is not this server's own loopback address: a page from
    another site that rebinds its name to 127.0.0.1 (DNS rebinding) gets nothing."""
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    port = sockname[1] if sockname else None
    if port is None or request.headers.get("Host", "") not in {
        f"{name}:{port}" for name in _LOOPBACK_NAMES
    }:
        return _html(problem_page("Refused: this page answers on its own address only."), 403)
    response: web.StreamResponse = await handler(request)
    return response


class Registration:
    """The two local routes: the page with the form, and where GitHub sends the browser back."""

    def __init__(
        self,
        *,
        data: dict[str, Any],
        site: GitHubSite,
        org: str | None,
        files: CredentialFiles,
        session: aiohttp.ClientSession,
    ) -> None:
        self._data = data
        self._site = site
        self._org = org
        self._files = files
        self._session = session
        self._state = secrets.token_urlsafe(24)
        # In the address the command opens or prints: the page, and its state, go to it only.
        self.token = secrets.token_urlsafe(32)
        # Set by the page as a cookie; the way back must carry it as well as the state.
        self._cookie = secrets.token_urlsafe(32)
        self.done: asyncio.Future[tuple[RegisteredApp, Written, str | None]] = (
            asyncio.get_running_loop().create_future()
        )

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/", self.start), web.get("/callback", self.callback)]

    def application(self) -> web.Application:
        app = web.Application(middlewares=[_only_this_address])
        app.add_routes(self.routes())
        return app

    def address(self, local: str) -> str:
        """The page's address, with the token that opens it."""
        return f"{local}/?{urlencode({'token': self.token})}"

    async def start(self, request: web.Request) -> web.Response:
        if not _same(request.query.get("token"), self.token):
            return _html(
                problem_page(
                    "Refused: open the address `commit-digest register` printed, token included."
                ),
                403,
            )
        page = form_page(self._data, self._site.new_app_url(self._org), self._state)
        response = web.Response(text=page, content_type="text/html")
        response.headers["Cache-Control"] = "no-store"
        response.set_cookie(COOKIE, self._cookie, path="/", httponly=True, samesite="Lax")
        return response

    async def callback(self, request: web.Request) -> web.StreamResponse:
        if self.done.done():
            return _html(problem_page("The App is registered already."), 409)
        if not _same(request.cookies.get(COOKIE), self._cookie):
            return _html(
                problem_page(
                    "Refused: this browser did not open this registration's page (its cookie "
                    "is missing): start again from the address the command printed."
                ),
                403,
            )
        state = request.query.get("state", "")
        if not hmac.compare_digest(state.encode(), self._state.encode()):
            return _html(
                problem_page(
                    "This answer is not for this registration (its state differs): start "
                    "again from the first page."
                ),
                400,
            )
        code = request.query.get("code", "")
        if not code:
            return _html(problem_page("GitHub sent no code: start again."), 400)
        try:
            app = await convert(self._session, self._site.api_url, code)
        except ConversionFailed as exc:
            # A network failure leaves the code good: reloading this page tries again. A code
            # GitHub refused is spent: only a new registration helps.
            then = (
                "Reload this page to try again."
                if exc.code_holds
                else "Run `commit-digest register` again to start over."
            )
            return _html(problem_page(f"{exc}. {then}"), 502)
        try:
            written = self._files.write(app, self._site)
            failure = None
            response = _html(done_page(app, written.env), 200)
        except OSError as exc:
            # GitHub hands the key over once: kept in the temporary folder rather than lost.
            written = self._files.save_elsewhere(app, self._site)
            failure = (
                f"{app.name} (App id {app.id}) is registered, but its files could not be "
                f"written to {self._files.folder} ({exc.strerror or exc}). They were saved to "
                f"{written.env} and {written.key} (readable by you only): move them there."
            )
            response = _html(problem_page(failure), 500)
        # Answered in full before the command stops its server.
        await response.prepare(request)
        await response.write_eof()
        self.done.set_result((app, written, failure))
        return response


def _html(text: str, status: int) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html")


def _require_https(option: str, url: str) -> None:
    """Secrets and the App's webhooks travel to this address: https, except on this machine."""
    parts = urlsplit(url)
    if parts.scheme != "https" and parts.hostname not in _LOOPBACK_HOSTS:
        raise MissingSetting(
            f"{option} {url}: not https; plain http is accepted for 127.0.0.1, localhost and "
            "::1 only"
        )


def command(
    *,
    org: str | None,
    github_url: str,
    webhook_url: str | None,
    out_dir: str,
    force: bool,
    port: int,
    open_browser: bool,
) -> int:
    try:
        site = GitHubSite.of(github_url)
    except ValueError as exc:
        raise MissingSetting(f"--github-url: {exc}") from None
    _require_https("--github-url", site.url)
    if webhook_url is not None:
        parts = urlsplit(webhook_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise MissingSetting(
                f"--webhook-url {webhook_url!r}: not an absolute web address such as "
                "https://HOST/webhook"
            )
        _require_https("--webhook-url", webhook_url)
    files = CredentialFiles(Path(out_dir), force=force)
    files.check()
    try:
        listener = socket.create_server(("127.0.0.1", port))
    except OSError as exc:
        raise MissingSetting(f"--port: cannot listen on 127.0.0.1:{port}: {exc.strerror}") from None
    local = f"http://127.0.0.1:{listener.getsockname()[1]}"
    data = manifest(MANIFEST, webhook_url, f"{local}/callback")
    if not webhook_url:
        print(
            f"commit-digest: the webhook URL is app.yml's {data['hook_attributes']['url']}; "
            "give --webhook-url, or change it on the App's settings page afterwards",
            file=sys.stderr,
        )
    try:
        return asyncio.run(
            _run(
                listener=listener,
                local=local,
                data=data,
                site=site,
                org=org,
                files=files,
                open_browser=open_browser,
            )
        )
    except KeyboardInterrupt:
        print("commit-digest: register stopped", file=sys.stderr)
        return 130


async def _run(
    *,
    listener: socket.socket,
    local: str,
    data: dict[str, Any],
    site: GitHubSite,
    org: str | None,
    files: CredentialFiles,
    open_browser: bool,
) -> int:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
        registration = Registration(data=data, site=site, org=org, files=files, session=session)
        app = registration.application()
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.SockSite(runner, listener).start()
        owner = f"the organisation {org}" if org else "your account"
        page = registration.address(local)
        print(
            f"Open {page} in a browser signed in to {site.url} to register the App for {owner}.",
            flush=True,
        )
        if open_browser:
            webbrowser.open(page)
        try:
            registered, written, failure = await asyncio.wait_for(registration.done, FLOW_SECONDS)
        except TimeoutError:
            print("commit-digest: no answer within the hour GitHub allows", file=sys.stderr)
            return 1
        finally:
            await runner.cleanup()
    if failure:
        print(f"commit-digest: {failure}", file=sys.stderr)
        print(f"Install it on your repositories: {registered.install_url}", file=sys.stderr)
        return 1
    print(f"Registered {registered.name} (App id {registered.id}).")
    print(f"Settings: {written.env}; private key: {written.key} (both readable by you only).")
    if written.env != files.env:
        load = f"set -a && . {shlex.quote(str(written.env))} && set +a && commit-digest serve"
        print(
            f"The existing {files.env} was kept, not overwritten: the new App's settings are in "
            f"{written.env}. In step 3, load that file instead: {load}"
        )
    print(f"Install it on your repositories: {registered.install_url}")
    return 0
