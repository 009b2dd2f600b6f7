"""The status page at `/`, a repository's own at `/repos/{id}`, and GitHub sign-in:
`/signin`, `/signin/callback`, `/signout`.

Server-rendered HTML with autoescaping (commit titles and config errors are hostile text), one
stylesheet, no script. A page view reads the store only; GitHub is asked at sign-in and when
the person's reach is renewed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web
from aiohttp_session import get_session
from jinja2 import Environment, FileSystemLoader, select_autoescape

from bot.digest.strings import catalogue
from bot.digest.strings.shape import PagePhrases
from bot.github.oauth import SignInFailed
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.settings import Settings
from bot.store.status import StatusReader
from bot.web.session import ReachUnknown, Sessions
from bot.web.status_view import language_of, page_view

log = get_logger(__name__)

HERE = Path(__file__).parent
STYLESHEET = (HERE / "static" / "status.css").read_bytes()
# The page is the person's own: never cached by a proxy, never framed by another site.
PRIVATE = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
}


def templates() -> Environment:
    """The page's templates, each compiled when first rendered and kept (no reload check)."""
    return Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        auto_reload=False,
        cache_size=-1,
    )


PAGE_TEMPLATES = ("signin.html", "status.html", "repository.html")


class StatusPages:
    """The page's routes; `sessions` is None when sign-in is not configured."""

    def __init__(
        self,
        *,
        sessions: Sessions | None,
        reader: StatusReader,
        settings: Settings,
        clock: Clock,
    ) -> None:
        self._sessions = sessions
        self._reader = reader
        self._settings = settings
        self._clock = clock
        # Compiled here, once with the App, so no page view pays for it.
        env = templates()
        self._templates = {name: env.get_template(name) for name in PAGE_TEMPLATES}

    def _language(self, request: web.Request) -> str:
        return language_of(request.headers.get("Accept-Language"), self._settings.default_language)

    def _html(self, template: str, status: int = 200, **values: object) -> web.Response:
        body = self._templates[template].render(**values)
        return web.Response(
            text=body, status=status, content_type="text/html", charset="utf-8", headers=PRIVATE
        )

    def _signin_page(
        self, request: web.Request, notice: str | None = None, status: int = 200
    ) -> web.Response:
        language = self._language(request)
        return self._html(
            "signin.html",
            status=status,
            language=language,
            words=catalogue(language).page,
            enabled=self._sessions is not None,
            notice=notice,
        )

    async def index(self, request: web.Request) -> web.Response:
        return await self._page(request, None)

    async def repository(self, request: web.Request) -> web.Response:
        raw = request.match_info["repo_id"]
        # int() reads "٩٠٠١", "9_001" and " 9001" too: one spelling a repository.
        repo_id = int(raw) if raw.isascii() and raw.isdigit() else -1
        return await self._page(request, repo_id)

    async def _page(self, request: web.Request, repo_id: int | None) -> web.Response:
        """`/`, every repository the person reaches; or one of them in full (`repo_id`)."""
        if self._sessions is None:
            return self._signin_page(request, status=200 if repo_id is None else 404)
        session = await get_session(request)
        had_session = bool(session.get("token"))
        try:
            signed_in = await self._sessions.current(session)
        except ReachUnknown:
            return self._signin_page(request, self._words(request).unreachable, status=503)
        if signed_in is None:
            words = self._words(request)
            return self._signin_page(request, words.session_ended if had_session else None)
        now = self._clock.now()
        reach = signed_in.reach.repo_ids
        # A repository outside the person's reach reads as one that does not exist.
        ids = reach if repo_id is None else [repo_id] if repo_id in reach else []
        read = await self._reader.read(ids, now, every_post=repo_id is not None)
        language = self._language(request)
        page = page_view(
            read,
            login=signed_in.login,
            accounts=signed_in.reach.installations,
            now=now,
            language=language,
            default_language=self._settings.default_language,
            daily_budget=self._settings.llm_daily_token_budget,
            in_full=repo_id is not None,
        )
        if repo_id is None:
            return self._html("status.html", language=language, words=page.words, page=page)
        return self._html(
            "repository.html",
            status=200 if page.installations else 404,
            language=language,
            words=page.words,
            page=page,
        )

    def _words(self, request: web.Request) -> PagePhrases:
        return catalogue(self._language(request)).page

    async def signin(self, request: web.Request) -> web.Response:
        if self._sessions is None:
            return self._signin_page(request, status=404)
        session = await get_session(request)
        state = self._sessions.begin(session)
        url = self._sessions.oauth.authorize_url(
            state=state, redirect_uri=_callback(request, self._settings.public_url)
        )
        raise web.HTTPFound(url, headers={"Cache-Control": "no-store"})

    async def callback(self, request: web.Request) -> web.Response:
        if self._sessions is None:
            return self._signin_page(request, status=404)
        session = await get_session(request)
        refused = self._words(request).refused
        # GitHub sends the person back with the state it was given: any other state is a
        # forged request (CSRF) and is refused before the code is used.
        if not self._sessions.state_matches(session, request.query.get("state")):
            log.warning("signin_state_refused")
            return self._signin_page(request, refused, status=403)
        code = request.query.get("code")
        if not code:
            # The person declined on GitHub (`error=access_denied`).
            log.info("signin_declined", error=request.query.get("error", "")[:100])
            return self._signin_page(request, refused, status=403)
        try:
            await self._sessions.sign_in(
                request, code, _callback(request, self._settings.public_url)
            )
        except SignInFailed as exc:
            log.warning("signin_failed", reason=str(exc)[:200])
            if not exc.refused:
                return self._signin_page(request, self._words(request).unreachable, status=503)
            return self._signin_page(request, refused, status=403)
        raise web.HTTPFound("/", headers={"Cache-Control": "no-store"})

    async def signout(self, request: web.Request) -> web.Response:
        if self._sessions is not None:
            await self._sessions.sign_out(await get_session(request))
        raise web.HTTPFound("/", headers={"Cache-Control": "no-store"})


def _callback(request: web.Request, public_url: str | None) -> str:
    """Where GitHub sends the person back: PUBLIC_URL, else this server as the browser
    reached it (behind a proxy that ends TLS, that is the proxy's http:// address)."""
    return f"{public_url or request.url.origin()}/signin/callback"


PAGES = web.AppKey("status_pages", StatusPages)
_Page = Callable[[StatusPages, web.Request], Awaitable[web.Response]]


def add_routes(app: web.Application) -> None:
    """The page's routes; the app factory puts a StatusPages under PAGES once the store opens."""

    def page(method: _Page) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handler(request: web.Request) -> web.Response:
            return await method(request.app[PAGES], request)

        return handler

    async def stylesheet(request: web.Request) -> web.Response:
        return web.Response(
            body=STYLESHEET, content_type="text/css", headers={"Cache-Control": "max-age=3600"}
        )

    app.router.add_get("/", page(StatusPages.index))
    app.router.add_get("/repos/{repo_id}", page(StatusPages.repository))
    app.router.add_get("/signin", page(StatusPages.signin))
    app.router.add_get("/signin/callback", page(StatusPages.callback))
    app.router.add_post("/signout", page(StatusPages.signout))
    app.router.add_get("/static/status.css", stylesheet)
