"""A real browser for the tests of pages: Debian's Chromium, headless, driven by Selenium.

`.ci/run` installs `chromium` and `chromium-driver` from Debian's packages where they are
missing; on a machine without them the browser tests are skipped, except under CI, where a
missing browser is a failure rather than a silent skip.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
# The closed network refuses Chromium's background connections (updates, sync, QUIC, the
# first-run pages), many at a time: these flags keep it to the pages a test opens.
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
)


def have_browser() -> bool:
    return shutil.which(CHROMIUM) is not None and shutil.which(CHROMEDRIVER) is not None


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    """A fresh headless Chromium (own profile: no cookie outlives the test)."""
    if not have_browser():
        if os.environ.get("CI"):
            pytest.fail(f"no browser for the page tests: {CHROMIUM} and {CHROMEDRIVER} needed")
        pytest.skip(
            "Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
        )
    profile = tempfile.mkdtemp(prefix="chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
