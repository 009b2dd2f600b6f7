"""The status page for many repositories: those in trouble in full first, the others a line
each in a table, each with its own page; and the day's LLM use as the budget counts it."""

from __future__ import annotations

import re
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import aiohttp_session
import pytest
import sqlalchemy as sa
from aiohttp import web

from bot.app import STORE
from bot.store import schema as t
from bot.store.status import StatusReader
from bot.store.usage import UsageLedger
from tests.fakes.github import FakeGitHub
from tests.status_support import (
    INSTALLATION,
    OWN,
    OWN_ID,
    SECRET,
    SECRET_ID,
    Served,
    seed_github,
    seed_store,
    serve,
)
from tests.support import FakeClock

WELL = "acme/docs"  # reached by the maintainer, nothing wrong with it
WELL_ID = 9003


def main_of(html: str) -> ET.Element:
    """The page's `<main>`, parsed: its markup is well-formed (every element closed), so the
    standard library's XML parser reads it and a test can look by element."""
    found = re.search(r"<main>.*</main>", html, re.DOTALL)
    assert found is not None
    return ET.fromstring(found.group(0))


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


@pytest.fixture
async def http() -> aiohttp.ClientSession:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        yield session  # type: ignore[misc]


async def add_well_repository(served: Served, github: FakeGitHub, now: datetime) -> None:
    """A third repository the maintainer reaches: its digests posted, nothing failed."""
    github.add_repo(WELL, repo_id=WELL_ID, installation_id=INSTALLATION)
    github.oauth.people["maintainer"].repos.add(WELL)
    async with served.app[STORE].engine.begin() as conn:
        await conn.execute(
            sa.insert(t.repositories).values(
                id=WELL_ID,
                installation_id=INSTALLATION,
                full_name=WELL,
                default_branch="main",
                config_error_reported=False,
                timezone="UTC",
                cutoff="00:00",
                active_since=now - timedelta(days=30),
                created_at=now,
                updated_at=now,
            )
        )
        await conn.execute(
            sa.insert(t.posts),
            [
                {
                    "repo_id": WELL_ID,
                    "period": f"day:{(now - timedelta(days=days)).date().isoformat()}",
                    "key": key,
                    "kind": "discussion",
                    "state": "posted",
                    "number": number,
                    "url": f"https://github.com/{WELL}/discussions/{number}#{key}",
                    "created_at": now,
                    "updated_at": now,
                }
                for days, number in ((1, 11), (2, 10))
                for key in ("part-1", "part-2")
            ],
        )


async def signed_in(http: aiohttp.ClientSession, served: Served, github: FakeGitHub) -> str:
    github.oauth.person = "maintainer"
    return await (await http.get(f"{served.url}/signin")).text()


async def test_a_repository_in_trouble_comes_first_in_full_and_one_that_is_well_is_a_row(
    served: Served, github: FakeGitHub, clock: FakeClock, http: aiohttp.ClientSession
) -> None:
    await add_well_repository(served, github, clock.now())
    page = main_of(await signed_in(http, served, github))
    [card] = page.findall(".//article[@class='repo']")
    assert text_of(card.find("h3")) == OWN  # type: ignore[arg-type]
    assert "Discussions are turned off" in text_of(card)
    assert "Needing attention: 1 of 2 repositories." in text_of(page)
    [row] = page.findall(".//table[@class='well']/tbody/tr")
    cells = [text_of(c) for c in row]
    yesterday = (clock.now() - timedelta(days=1)).date().isoformat()
    assert cells[0] == WELL and cells[1] == yesterday and cells[3] == "nothing"
    # The newest digest, at its first part; the repository's name leads to its own page.
    assert [a.get("href") for a in row.iter("a")] == [
        f"/repos/{WELL_ID}",
        f"https://github.com/{WELL}/discussions/11#part-1",
    ]
    # The card comes before the table: what needs attention is read first.
    text = text_of(page)
    assert text.index(OWN) < text.index(WELL)
    assert SECRET not in text


async def test_a_repositorys_own_page_shows_it_in_full_and_no_other(
    served: Served, github: FakeGitHub, clock: FakeClock, http: aiohttp.ClientSession
) -> None:
    await add_well_repository(served, github, clock.now())
    await signed_in(http, served, github)
    answer = await http.get(f"{served.url}/repos/{WELL_ID}")
    assert answer.status == 200
    page = main_of(await answer.text())
    [card] = page.findall(".//article[@class='repo']")
    assert text_of(card.find("h3")) == WELL  # type: ignore[arg-type]
    links = [a.get("href") for a in card.findall(".//ul[@class='posts']//a")]
    assert links == [
        f"https://github.com/{WELL}/discussions/11#part-1",
        f"https://github.com/{WELL}/discussions/10#part-1",
    ]
    assert OWN not in text_of(page)


@pytest.mark.parametrize("path", [f"/repos/{SECRET_ID}", "/repos/424242", "/repos/x"])
async def test_a_repository_outside_the_persons_reach_reads_as_none(
    served: Served, github: FakeGitHub, http: aiohttp.ClientSession, path: str
) -> None:
    await signed_in(http, served, github)
    answer = await http.get(f"{served.url}{path}")
    html = await answer.text()
    assert answer.status == 404
    assert SECRET not in html and OWN not in html
    assert "not one your GitHub account and this App can both reach" in html


async def test_a_repositorys_page_asks_for_sign_in_first(
    served: Served, http: aiohttp.ClientSession
) -> None:
    html = await (await http.get(f"{served.url}/repos/{OWN_ID}")).text()
    assert "Sign in with GitHub" in html and OWN not in html


async def test_the_days_llm_use_is_the_installations_as_the_budget_counts_it(
    served: Served, clock: FakeClock
) -> None:
    now = clock.now()
    engine = served.app[STORE].engine
    analysis = {
        "importance": "low",
        "change_types": [],
        "breaking": False,
        "data": {},
        "cached_input_tokens": 0,
    }
    async with engine.begin() as conn:
        await conn.execute(
            sa.insert(t.analyses),
            [
                # An LLM analysis, one that fell back to the rules after the call, one of
                # yesterday, and one of a repository the person does not reach.
                {**analysis, "repo_id": OWN_ID, "sha": "a" * 40, "analyzer": "llm:m",
                 "input_tokens": 1000, "output_tokens": 200, "created_at": now},
                {**analysis, "repo_id": OWN_ID, "sha": "b" * 40, "analyzer": "rules",
                 "route": "llm", "input_tokens": 300, "output_tokens": 0, "created_at": now},
                {**analysis, "repo_id": OWN_ID, "sha": "c" * 40, "analyzer": "llm:m",
                 "input_tokens": 5000, "output_tokens": 5000,
                 "created_at": now - timedelta(days=1)},
                {**analysis, "repo_id": SECRET_ID, "sha": "d" * 40, "analyzer": "llm:m",
                 "input_tokens": 40, "output_tokens": 2, "created_at": now},
            ],
        )  # fmt: skip
        await conn.execute(
            sa.insert(t.explained).values(
                repo_id=OWN_ID,
                sha="e" * 40,
                analyzer="llm:m",
                data={},
                input_tokens=7,
                cached_input_tokens=0,
                output_tokens=3,
                created_at=now,
            )
        )
    read = await StatusReader(engine).read([OWN_ID], now)
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    counts, _ = await UsageLedger(engine).day_counts(
        OWN_ID, (day, day + timedelta(days=1)), INSTALLATION, now
    )
    assert read.tokens_today == {INSTALLATION: counts.installation_tokens}
    assert counts.installation_tokens == 1200 + 300 + 42 + 10


async def test_only_the_session_library_uses_keys_that_are_not_typed(
    aiohttp_server: Callable[..., Any],
    make_settings: Callable[..., Any],
    clock: FakeClock,
    github_url: str,
    github: FakeGitHub,
    http: aiohttp.ClientSession,
) -> None:
    seed_github(github)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        served = await serve(aiohttp_server, make_settings, clock, github_url)
        await seed_store(served.app, clock.now())
        assert OWN in await signed_in(http, served, github)
        await http.get(f"{served.url}/repos/{OWN_ID}")
    untyped = [w for w in caught if issubclass(w.category, web.NotAppKeyWarning)]
    # None of the App's keys; aiohttp warns of the session library's request keys once a
    # process, and pyproject.toml filters those while the library still names them so.
    assert {Path(w.filename).parent.name for w in untyped} <= {"aiohttp_session"}
    assert isinstance(aiohttp_session.SESSION_KEY, str), "drop the filter in pyproject.toml"
