"""The fake GitHub's sign-in: the OAuth web flow and the user-to-server routes (FACTS.md §11).

`/login/oauth/authorize` sends the browser back to `redirect_uri` with a one-use code and the
state it was given (the person is taken as already signed in to GitHub, as `person`); the
code is exchanged at `/login/oauth/access_token`, which, like GitHub, answers a refusal with
HTTP 200 and an `error` field. User tokens (`ghu_…`) last 8 hours and reach only what both
the person and the App reach; `DELETE /applications/{client_id}/token` revokes one (Basic
auth with the client id and secret).
"""

from __future__ import annotations

import base64
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from aiohttp import web

if TYPE_CHECKING:
    from tests.fakes.github import Call, FakeGitHub, Handler

CLIENT_ID = "Iv23liFakeClientId01"
CLIENT_SECRET = "fake-client-secret-0123456789abcdef01234567"
CODE_LIFETIME = timedelta(minutes=10)
TOKEN_LIFETIME = timedelta(hours=8)


@dataclass
class Person:
    login: str
    id: int
    # The repositories (full names) the person can reach on GitHub.
    repos: set[str] = field(default_factory=set)


@dataclass
class Code:
    login: str
    redirect_uri: str
    issued: datetime
    used: bool = False


def _json_error(status: int, message: str) -> web.Response:
    return web.json_response(
        {"message": message, "documentation_url": "https://docs.github.com/rest"}, status=status
    )


class FakeOAuth:
    def __init__(self, github: FakeGitHub) -> None:
        self._github = github
        self.people: dict[str, Person] = {}
        # Who is signed in to GitHub in the browser (the authorize page acts as them).
        self.person: str | None = None
        # The person declines on GitHub's consent page.
        self.decline = False
        self.codes: dict[str, Code] = {}
        self.tokens: dict[str, tuple[str, datetime]] = {}
        self.revoked: list[str] = []

    # --- seeding ---------------------------------------------------------------------------

    def add_person(self, login: str, *, repos: set[str] | None = None) -> Person:
        person = Person(login, self._github.new_id(), set(repos or ()))
        self.people[login] = person
        return person

    def expire_tokens(self) -> None:
        for token, (login, _) in list(self.tokens.items()):
            self.tokens[token] = (login, self._github.clock.now() - timedelta(seconds=1))

    # --- routes ----------------------------------------------------------------------------

    def routes(self) -> list[tuple[str, re.Pattern[str], str, Handler]]:
        return [
            ("GET", re.compile(r"^/login/oauth/authorize$"), "page", self._authorize),
            ("POST", re.compile(r"^/login/oauth/access_token$"), "page", self._access_token),
            ("GET", re.compile(r"^/user$"), "user", self._user),
            ("GET", re.compile(r"^/user/installations$"), "user", self._installations),
            (
                "GET",
                re.compile(r"^/user/installations/(\d+)/repositories$"),
                "user",
                self._repositories,
            ),
            ("DELETE", re.compile(r"^/applications/([^/]+)/token$"), "basic", self._revoke),
        ]

    def authenticate(self, request: web.Request, call: Call, kind: str) -> web.Response | None:
        """The credentials of the sign-in routes: none, a user token, or the client's Basic."""
        call.auth = kind
        header = request.headers.get("Authorization", "")
        scheme, _, credential = header.partition(" ")
        if kind == "none":
            return None
        if kind == "basic":
            try:
                given = base64.b64decode(credential).decode()
            except ValueError:
                given = ""
            if scheme.lower() != "basic" or given != f"{CLIENT_ID}:{CLIENT_SECRET}":
                return _json_error(401, "Requires authentication")
            return None
        held = self.tokens.get(credential)
        if scheme.lower() not in ("token", "bearer") or held is None:
            return _json_error(401, "Bad credentials")
        if held[1] <= self._github.clock.now():
            return _json_error(401, "Bad credentials")
        return None

    def _login_of(self, request: web.Request) -> Person:
        token = request.headers["Authorization"].partition(" ")[2]
        return self.people[self.tokens[token][0]]

    def _reached(self, person: Person) -> dict[int, list[Any]]:
        """The App's installations the person reaches, with the repositories both reach."""
        reached: dict[int, list[Any]] = {}
        for name in sorted(person.repos):
            repo = self._github.repos.get(name)
            if repo is not None and repo.installation_id in self._github.installations:
                reached.setdefault(repo.installation_id, []).append(repo)
        return reached

    async def _authorize(
        self, request: web.Request, m: re.Match[str], call: Call
    ) -> web.StreamResponse:
        query = request.query
        if query.get("client_id") != CLIENT_ID:
            return web.Response(status=404, text="Not Found")
        redirect_uri = query.get("redirect_uri", "")
        if not redirect_uri.startswith(("http://127.0.0.1:", "http://localhost:")):
            # GitHub only sends people to the App's registered callback URLs.
            return web.Response(status=400, text="redirect_uri is not a callback URL of the App")
        back: dict[str, str] = {}
        if self.decline or self.person is None:
            back["error"] = "access_denied"
        else:
            code = secrets.token_hex(10)
            self.codes[code] = Code(self.person, redirect_uri, self._github.clock.now())
            back["code"] = code
        if "state" in query:
            back["state"] = query["state"]
        raise web.HTTPFound(f"{redirect_uri}?{urlencode(back)}")

    async def _access_token(
        self, request: web.Request, m: re.Match[str], call: Call
    ) -> web.StreamResponse:
        if request.content_type == "application/json":
            form = {k: str(v) for k, v in (await request.json()).items()}
        else:
            form = dict(await request.post())  # type: ignore[arg-type]
        wants_json = "application/json" in request.headers.get("Accept", "")

        def answer(body: dict[str, Any]) -> web.Response:
            # GitHub answers refusals with 200 too: the body says what went wrong.
            if wants_json:
                return web.json_response(body)
            return web.Response(
                text=urlencode(body), content_type="application/x-www-form-urlencoded"
            )

        if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
            return answer({"error": "incorrect_client_credentials"})
        code = self.codes.get(str(form.get("code", "")))
        now = self._github.clock.now()
        if code is None or code.used or now - code.issued > CODE_LIFETIME:
            return answer({"error": "bad_verification_code"})
        if form.get("redirect_uri", code.redirect_uri) != code.redirect_uri:
            return answer({"error": "redirect_uri_mismatch"})
        code.used = True
        token = f"ghu_{secrets.token_urlsafe(27)}"
        self.tokens[token] = (code.login, now + TOKEN_LIFETIME)
        return answer(
            {
                "access_token": token,
                "expires_in": int(TOKEN_LIFETIME.total_seconds()),
                "refresh_token": f"ghr_{secrets.token_urlsafe(60)}",
                "refresh_token_expires_in": 15_811_200,
                "scope": "",
                "token_type": "bearer",
            }
        )

    async def _user(self, request: web.Request, m: re.Match[str], call: Call) -> web.StreamResponse:
        person = self._login_of(request)
        return web.json_response({"login": person.login, "id": person.id, "type": "User"})

    async def _installations(
        self, request: web.Request, m: re.Match[str], call: Call
    ) -> web.StreamResponse:
        reached = self._reached(self._login_of(request))
        items = [
            {"id": i, "account": {"login": self._github.installations[i]}, "app_id": 1}
            for i in sorted(reached)
        ]
        page, links = _page(request, items)
        return web.json_response({"total_count": len(items), "installations": page}, headers=links)

    async def _repositories(
        self, request: web.Request, m: re.Match[str], call: Call
    ) -> web.StreamResponse:
        reached = self._reached(self._login_of(request))
        installation = int(m.group(1))
        if installation not in reached:
            return _json_error(404, "Not Found")
        items = [
            {
                "id": repo.id,
                "node_id": repo.node_id,
                "full_name": repo.full_name,
                "name": repo.full_name.split("/")[1],
                "owner": {"login": repo.full_name.split("/")[0]},
                "private": False,
            }
            for repo in reached[installation]
        ]
        page, links = _page(request, items)
        return web.json_response(
            {"total_count": len(items), "repository_selection": "selected", "repositories": page},
            headers=links,
        )

    async def _revoke(
        self, request: web.Request, m: re.Match[str], call: Call
    ) -> web.StreamResponse:
        if m.group(1) != CLIENT_ID:
            return _json_error(404, "Not Found")
        token = str((await request.json()).get("access_token", ""))
        if token not in self.tokens:
            return _json_error(404, "Not Found")
        del self.tokens[token]
        self.revoked.append(token)
        return web.Response(status=204)


def _page(request: web.Request, items: list[Any]) -> tuple[list[Any], dict[str, str]]:
    """One page of `items` and its `Link` header, as GitHub paginates (per_page at most 100)."""
    per_page = min(100, int(request.query.get("per_page", 30)))
    page = int(request.query.get("page", 1))
    last = max(1, -(-len(items) // per_page))
    links = []
    if page < last:
        url = request.url.update_query(page=page + 1, per_page=per_page)
        links.append(f'<{url}>; rel="next"')
        url = request.url.update_query(page=last, per_page=per_page)
        links.append(f'<{url}>; rel="last"')
    headers = {"Link": ", ".join(links)} if links else {}
    return items[(page - 1) * per_page : page * per_page], headers
