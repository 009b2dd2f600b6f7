"""Sign-in with GitHub and the status page over HTTP: the cookie, the checks, the words."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from http.cookies import SimpleCookie
from typing import Any

import aiohttp
import pydantic
import pytest
import sqlalchemy as sa
from yarl import URL

from bot.app import STORE
from bot.store import schema as t
from bot.web.status_view import language_of
from tests.fakes.github import FakeGitHub
from tests.status_support import (
    HOSTILE,
    OWN,
    OWN_ID,
    SECRET,
    Served,
    seed_github,
    seed_store,
    serve,
)
from tests.support import FakeClock


async def sign_in(
    http: aiohttp.ClientSession, served: Served, person: str, github: FakeGitHub
) -> aiohttp.ClientResponse:
    """The browser's round trip: the App, GitHub's authorize page, back to the App."""
    github.oauth.person = person
    return await http.get(f"{served.url}/signin")


@pytest.fixture
async def http() -> Any:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        yield session


async def test_the_session_cookie_is_encrypted_http_only_lax_and_ends(
    served: Served, github: FakeGitHub, http: aiohttp.ClientSession
) -> None:
    github.oauth.person = "maintainer"
    first = await http.get(f"{served.url}/signin", allow_redirects=False)
    assert first.status == 302
    authorize = URL(first.headers["Location"])
    assert authorize.path == "/login/oauth/authorize"
    assert authorize.query["client_id"] and len(authorize.query["state"]) >= 32
    assert authorize.query["redirect_uri"] == f"{served.url}/signin/callback"
    back = await http.get(authorize, allow_redirects=False)
    callback = await http.get(back.headers["Location"], allow_redirects=False)
    assert callback.status == 302 and callback.headers["Location"] == "/"
    cookie = SimpleCookie(callback.headers["Set-Cookie"])["commit_digest_session"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert not cookie["secure"]  # these tests' server is plain http (sign_in_settings)
    assert int(cookie["max-age"]) == 8 * 3600
    [token] = github.oauth.tokens
    # The user token is in the cookie only encrypted: neither it nor the login reads in clear.
    assert token not in cookie.value and "maintainer" not in cookie.value
    assert "ghu_" not in cookie.value


async def test_the_page_shows_what_the_person_reaches_and_no_more(
    served: Served, github: FakeGitHub, http: aiohttp.ClientSession
) -> None:
    page = await sign_in(http, served, "maintainer", github)
    html = await page.text()
    assert page.status == 200
    assert OWN in html and SECRET not in html
    assert f"https://github.com/{OWN}/discussions/7" in html
    assert f"https://github.com/{SECRET}/discussions/7" not in html
    # Hostile text from the store is escaped: it reads as text, it is never markup.
    assert HOSTILE not in html and "&lt;script&gt;" in html
    assert "Discussions are turned off" in html
    assert "2 commits; the oldest landed 3 h 30 min ago" in html
    assert "(Asia/Shanghai)" in html
    assert page.headers["Cache-Control"] == "no-store"
    assert "script-src" not in page.headers["Content-Security-Policy"]


async def test_a_page_view_makes_no_github_call_until_the_reach_is_renewed(
    served: Served, github: FakeGitHub, clock: FakeClock, http: aiohttp.ClientSession
) -> None:
    await sign_in(http, served, "maintainer", github)
    calls = len(github.calls)
    assert OWN in await (await http.get(f"{served.url}/")).text()
    assert len(github.calls) == calls
    # GitHub withdraws the person's access; after the recheck time the page asks again.
    github.oauth.people["maintainer"].repos.clear()
    clock.advance(minutes=6)
    html = await (await http.get(f"{served.url}/")).text()
    assert OWN not in html
    assert "reaches no repository" in html
    assert [c.path for c in github.calls[calls:]][:2] == ["/user", "/user/installations"]


async def test_a_revoked_token_ends_the_session_at_renewal(
    served: Served, github: FakeGitHub, clock: FakeClock, http: aiohttp.ClientSession
) -> None:
    await sign_in(http, served, "maintainer", github)
    github.oauth.tokens.clear()  # the person revoked the App on GitHub
    clock.advance(minutes=6)
    html = await (await http.get(f"{served.url}/")).text()
    assert OWN not in html and "Your session has ended" in html


async def test_a_code_used_twice_is_refused(
    served: Served, github: FakeGitHub, http: aiohttp.ClientSession
) -> None:
    github.oauth.person = "maintainer"
    first = await http.get(f"{served.url}/signin", allow_redirects=False)
    back = await http.get(first.headers["Location"], allow_redirects=False)
    callback = back.headers["Location"]
    assert (await http.get(callback, allow_redirects=False)).status == 302
    # Replayed (the state was used up with it): refused, and no second token is made.
    again = await http.get(callback, allow_redirects=False)
    assert again.status == 403
    assert len(github.oauth.tokens) == 1


async def test_sign_in_not_configured_says_so(
    aiohttp_server: Callable[..., Any],
    make_settings: Callable[..., Any],
    clock: FakeClock,
    github_url: str,
    http: aiohttp.ClientSession,
) -> None:
    served = await serve(aiohttp_server, make_settings, clock, github_url, session_secret=None)
    page = await http.get(f"{served.url}/")
    assert page.status == 200
    assert "Sign-in is not configured" in await page.text()
    assert (await http.get(f"{served.url}/signin", allow_redirects=False)).status == 404


async def test_the_page_speaks_chinese_to_who_asks_for_it(
    served: Served, github: FakeGitHub, http: aiohttp.ClientSession
) -> None:
    github.oauth.person = "maintainer"
    page = await http.get(
        f"{served.url}/signin", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"}
    )
    html = await page.text()
    assert '<html lang="zh-CN">' in html
    assert "下一份日报" in html and "退出登录" in html


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("zh-CN,zh;q=0.9", "zh-CN"),
        ("zh-TW", "zh-CN"),
        ("en-US,zh-CN;q=0.5", "en"),
        ("fr-FR, zh;q=0.8, en;q=0.5", "zh-CN"),
        ("en;q=0.2, zh;q=0.8", "zh-CN"),
        ("zh;q=0, en", "en"),
        ("de", "en"),
        ("zh;q=bad, en;q=0.1", "en"),
    ],
)
def test_the_language_is_the_first_accepted_one_the_page_speaks(
    header: str | None, language: str
) -> None:
    assert language_of(header) == language


async def test_a_job_waiting_to_retry_and_a_suspended_installation_say_what_comes_next(
    served: Served, github: FakeGitHub, clock: FakeClock, http: aiohttp.ClientSession
) -> None:
    now = clock.now()
    async with served.app[STORE].engine.begin() as conn:
        await conn.execute(sa.update(t.installations).values(suspended=True))
        await conn.execute(
            sa.insert(t.jobs).values(
                kind="analyse_commit",
                key=f"{OWN_ID}/{'1' * 40}",
                payload={"repo_id": OWN_ID, "sha": "1" * 40},
                state="pending",
                attempts=2,
                not_before=now + timedelta(minutes=30),
                last_error="GitHub answered 502 Bad Gateway",
                created_at=now,
                updated_at=now,
            )
        )
    html = await (await sign_in(http, served, "maintainer", github)).text()
    # 12:30 UTC is 20:30 in the repository's zone.
    assert (
        "Analysing a commit failed 2 times: GitHub answered 502 Bad Gateway. "
        "The App tries again at 2026-07-10 20:30 (Asia/Shanghai)." in html
    )
    assert "This installation is suspended" in html


@pytest.mark.parametrize(
    ("overrides", "secure"),
    [
        ({"session_cookie_secure": None}, True),
        ({"session_cookie_secure": None, "public_url": "https://digest.example.com/"}, True),
        ({"session_cookie_secure": None, "public_url": "http://localhost:8080"}, False),
        ({"session_cookie_secure": True, "public_url": "http://localhost:8080"}, True),
    ],
)
async def test_the_session_cookie_is_secure_unless_the_app_is_reached_over_plain_http(
    aiohttp_server: Callable[..., Any],
    make_settings: Callable[..., Any],
    clock: FakeClock,
    github_url: str,
    http: aiohttp.ClientSession,
    overrides: dict[str, Any],
    secure: bool,
) -> None:
    served = await serve(aiohttp_server, make_settings, clock, github_url, **overrides)
    first = await http.get(f"{served.url}/signin", allow_redirects=False)
    cookie = SimpleCookie(first.headers["Set-Cookie"])["commit_digest_session"]
    assert bool(cookie["secure"]) is secure
    # GitHub sends the person back to the public address when one is set.
    public = overrides.get("public_url")
    callback = URL(first.headers["Location"]).query["redirect_uri"]
    assert callback == f"{(public or served.url).rstrip('/')}/signin/callback"


async def test_sign_out_clears_the_session_when_github_does_not_answer_the_revoke(
    aiohttp_server: Callable[..., Any],
    make_settings: Callable[..., Any],
    clock: FakeClock,
    github_url: str,
    github: FakeGitHub,
    http: aiohttp.ClientSession,
) -> None:
    seed_github(github)
    served = await serve(
        aiohttp_server, make_settings, clock, github_url, github_timeout_seconds=0.5
    )
    await seed_store(served.app, clock.now())
    assert OWN in await (await sign_in(http, served, "maintainer", github)).text()
    github.hold("DELETE", r"^/applications/[^/]+/token$")  # GitHub never answers
    try:
        out = await http.post(f"{served.url}/signout", allow_redirects=False)
        assert out.status == 302
        assert SimpleCookie(out.headers["Set-Cookie"])["commit_digest_session"].value == ""
        html = await (await http.get(f"{served.url}/")).text()
        assert OWN not in html and 'href="/signin"' in html
    finally:
        github.release.set()


async def test_github_down_at_renewal_keeps_the_session_and_says_try_again(
    served: Served, github: FakeGitHub, clock: FakeClock, http: aiohttp.ClientSession
) -> None:
    await sign_in(http, served, "maintainer", github)
    github.fail("GET", r"^/user$", 502, message="Bad Gateway")
    clock.advance(minutes=6)
    down = await http.get(f"{served.url}/")
    assert down.status == 503
    assert "try again in a minute" in await down.text()
    # GitHub is back: the same session sees its repository, no new sign-in.
    back = await http.get(f"{served.url}/")
    assert back.status == 200 and OWN in await back.text()
    assert len(github.oauth.tokens) == 1


async def test_a_malformed_user_answer_at_sign_in_is_a_try_again_not_a_crash(
    served: Served, github: FakeGitHub, http: aiohttp.ClientSession
) -> None:
    # GitHub's 5xx carries no `login`: the App must not read it as a person.
    github.fail("GET", r"^/user$", 500)
    page = await sign_in(http, served, "maintainer", github)
    assert page.status == 503 and OWN not in await page.text()


# The first is ٩٠٠١ (Arabic-Indic digits), which int() reads as 9001.
@pytest.mark.parametrize("spelling", ["%D9%A9%D9%A0%D9%A0%D9%A1", "9_001", "%209001", "+9001"])
async def test_a_repository_page_has_one_spelling_of_its_id(
    served: Served, github: FakeGitHub, http: aiohttp.ClientSession, spelling: str
) -> None:
    await sign_in(http, served, "maintainer", github)
    assert (await http.get(f"{served.url}/repos/{OWN_ID}")).status == 200
    assert (await http.get(URL(f"{served.url}/repos/{spelling}", encoded=True))).status == 404


async def test_a_repository_taken_out_of_the_installation_is_not_shown(
    served: Served, github: FakeGitHub, clock: FakeClock, http: aiohttp.ClientSession
) -> None:
    async with served.app[STORE].engine.begin() as conn:
        await conn.execute(
            sa.update(t.repositories)
            .where(t.repositories.c.id == OWN_ID)
            .values(removed_at=clock.now())
        )
    assert OWN not in await (await sign_in(http, served, "maintainer", github)).text()
    assert (await http.get(f"{served.url}/repos/{OWN_ID}")).status == 404


@pytest.mark.parametrize(("secret", "accepted"), [("s" * 31, False), ("s" * 32, True)])
def test_the_session_secret_is_long_or_refused(
    make_settings: Callable[..., Any], secret: str, accepted: bool
) -> None:
    if accepted:
        assert make_settings(session_secret=secret).session_secret.get_secret_value() == secret
    else:
        with pytest.raises(pydantic.ValidationError, match="at least 32 characters"):
            make_settings(session_secret=secret)
