"""The status page in a real browser (headless Chromium): sign-in through the fake GitHub's
OAuth pages, a maintainer's page, a stranger's, a forged state, sign-out, an expired session.

Selenium blocks, and the App and the fake GitHub answer on this test's event loop: every
browser call runs in a thread, so the servers go on answering while the browser waits.
Set STATUS_SCREENSHOT=1 to write the maintainer's page to docs/status-page.png.
"""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import WebDriverWait

from tests.fakes.github import FakeGitHub
from tests.fakes.oauth import Code
from tests.status_support import OWN, SECRET, Served
from tests.support import ROOT, FakeClock

pytestmark = pytest.mark.slow


async def visit(browser: WebDriver, url: str) -> None:
    await asyncio.to_thread(browser.get, url)


async def click(browser: WebDriver, by: str, what: str) -> None:
    """Click, and wait for the page it leads to (a form's post returns before it loads)."""
    element = await asyncio.to_thread(browser.find_element, by, what)
    old = await asyncio.to_thread(browser.find_element, By.TAG_NAME, "html")
    await asyncio.to_thread(element.click)
    await asyncio.to_thread(WebDriverWait(browser, 20).until, staleness_of(old))


async def text(browser: WebDriver) -> str:
    body = await asyncio.to_thread(browser.find_element, By.TAG_NAME, "body")
    return str(await asyncio.to_thread(lambda: body.text))


async def sign_in(browser: WebDriver, served: Served, github: FakeGitHub, person: str) -> str:
    """Open the page, follow "Sign in with GitHub" through GitHub and back; the page's text."""
    github.oauth.person = person
    await visit(browser, f"{served.url}/")
    assert "Sign in with GitHub" in await text(browser)
    await click(browser, By.LINK_TEXT, "Sign in with GitHub")
    return await text(browser)


async def test_a_maintainer_signs_in_and_sees_their_repository_and_its_failed_job(
    browser: WebDriver, served: Served, github: FakeGitHub
) -> None:
    page = await sign_in(browser, served, github, "maintainer")
    assert "Signed in as maintainer" in page
    assert OWN in page
    # In the same installation, but not reachable by this person: not shown at all.
    assert SECRET not in page and SECRET not in browser.page_source
    assert (
        "Posting a digest failed after 5 attempts: acme/engine: Discussions are turned off" in page
    )
    assert "2 commits; the oldest landed 3 h 30 min ago" in page
    link = await asyncio.to_thread(browser.find_element, By.PARTIAL_LINK_TEXT, "Digest of")
    assert link.get_attribute("href") == f"https://github.com/{OWN}/discussions/7"
    # The hostile config error is text on the page, never a script or an element.
    assert '<script>alert("x")</script>' in page
    assert not browser.find_elements(By.CSS_SELECTOR, "main script, main img")
    # The heading outline a screen reader walks: the page, the installation, the repository.
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "h1, h2, h3")]
    assert headings == ["Commit Digest: status", "acme", OWN]
    if os.environ.get("STATUS_SCREENSHOT"):
        await asyncio.to_thread(browser.set_window_size, 900, 1100)
        await asyncio.to_thread(browser.save_screenshot, str(ROOT / "docs" / "status-page.png"))


async def test_a_stranger_sees_no_repository(
    browser: WebDriver, served: Served, github: FakeGitHub
) -> None:
    page = await sign_in(browser, served, github, "stranger")
    assert "Signed in as stranger" in page
    assert "Your GitHub account reaches no repository this App is installed on." in page
    assert OWN not in browser.page_source and SECRET not in browser.page_source


async def test_a_forged_state_is_refused(
    browser: WebDriver, served: Served, github: FakeGitHub, clock: FakeClock
) -> None:
    # A code GitHub really issued, sent with a state this browser was never given (CSRF).
    callback = f"{served.url}/signin/callback"
    github.oauth.codes["c0ffee"] = Code("maintainer", callback, clock.now())
    await visit(browser, f"{served.url}/signin")  # this browser's own state, not the one sent
    await visit(browser, f"{callback}?code=c0ffee&state=forged")
    page = await text(browser)
    assert "Sign-in was refused" in page
    assert OWN not in page
    assert not github.oauth.tokens  # the code was never exchanged
    await visit(browser, f"{served.url}/")
    assert "Sign in with GitHub" in await text(browser)


async def test_sign_out_revokes_the_token_and_ends_the_session(
    browser: WebDriver, served: Served, github: FakeGitHub
) -> None:
    await sign_in(browser, served, github, "maintainer")
    [token] = github.oauth.tokens
    await click(browser, By.XPATH, "//button[text()='Sign out']")
    page = await text(browser)
    assert "Sign in with GitHub" in page and OWN not in page
    assert github.oauth.revoked == [token] and not github.oauth.tokens
    await visit(browser, f"{served.url}/")
    assert OWN not in await text(browser)


async def test_an_expired_session_shows_the_sign_in_again(
    browser: WebDriver, served: Served, github: FakeGitHub, clock: FakeClock
) -> None:
    assert OWN in await sign_in(browser, served, github, "maintainer")
    clock.advance(seconds=timedelta(hours=8).total_seconds() + 1)
    await visit(browser, f"{served.url}/")
    page = await text(browser)
    assert "Your session has ended" in page and OWN not in page
