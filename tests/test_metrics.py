"""`/metrics` serves what docs/metrics.md and the READMEs name: the build, the webhook's
latency to durable storage, the oldest waiting job, and whether GitHub answers."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import timedelta
from importlib.metadata import version
from typing import Any

import pytest

from bot.app import GITHUB, STORE
from bot.github.errors import GitHubUnavailable, RepositoryGone
from bot.store.jobs import JobKind
from tests.fakes.github import FakeGitHub
from tests.scenarios import COMPRESSOR, Client
from tests.support import ROOT, FakeClock, deliver_replay, replay_pushes

DAY = "2026-06-22"
INSTALLATION = 60292384
# The exposition format's metadata line: `# TYPE <family> <type>`.
TYPE_LINE = re.compile(r"^# TYPE (\S+) (\S+)$", re.MULTILINE)
# A histogram family is served as these series.
HISTOGRAM_SERIES = ("_bucket", "_sum", "_count")


def served(text: str) -> dict[str, str]:
    """Every metric family in a scrape, with its type; not the `_created` timestamps that
    prometheus_client writes beside an unlabelled counter or histogram (OpenMetrics' companion
    series, which the classic text format can only show as a gauge family of their own)."""
    families = dict(TYPE_LINE.findall(text))
    companions = {
        name
        for name in families
        if name.endswith("_created")
        and (
            families.get(name.removesuffix("_created") + "_total") == "counter"
            or families.get(name.removesuffix("_created")) == "histogram"
        )
    }
    return {name: kind for name, kind in families.items() if name not in companions}


def sample(text: str, series: str) -> float:
    """The value of one unlabelled series (or one written out with its labels) in a scrape."""
    (value,) = re.findall(rf"^{re.escape(series)} (\S+)$", text, re.MULTILINE)
    return float(value)


def documented() -> dict[str, str]:
    """docs/metrics.md's table: each metric's name and type."""
    table = {}
    for line in (ROOT / "docs/metrics.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`commit_digest_"):
            table[cells[0].strip("`")] = cells[1]
    return table


async def scrape(client: Client) -> str:
    response = await client.get("/metrics")
    assert response.status == 200
    return await response.text()


async def test_the_documented_table_is_what_the_endpoint_serves(client: Client) -> None:
    families = served(await scrape(client))
    assert len(families) >= 20
    assert documented() == families


# Every page of prose the project has: wherever a metric is named, it is one that is served.
PAGES = sorted(
    str(path.relative_to(ROOT))
    for path in [ROOT / "README.md", ROOT / "deploy/README.md", *(ROOT / "docs").glob("*.md")]
)


@pytest.mark.parametrize("page", PAGES)
async def test_every_metric_named_in_the_docs_is_served(client: Client, page: str) -> None:
    families = served(await scrape(client))
    text = (ROOT / page).read_text(encoding="utf-8")
    named = set(re.findall(r"\bcommit_digest_[a-z0-9_]+", text))
    series = {
        name.removesuffix(suffix)
        for name in named
        for suffix in HISTOGRAM_SERIES
        if name.endswith(suffix) and families.get(name.removesuffix(suffix)) == "histogram"
    }
    unknown = {name for name in named if name not in families} - {
        f"{s}{suffix}" for s in series for suffix in HISTOGRAM_SERIES
    }
    assert not unknown, f"{page} names metrics /metrics does not serve: {sorted(unknown)}"


async def test_build_info_names_the_installed_release(client: Client) -> None:
    text = await scrape(client)
    assert sample(text, f'commit_digest_build_info{{version="{version("commit-digest")}"}}') == 1


async def test_a_stored_delivery_is_timed_and_a_duplicate_is_not(client: Client) -> None:
    count = "commit_digest_webhook_stored_seconds_count"
    assert sample(await scrape(client), count) == 0
    push = replay_pushes(COMPRESSOR, DAY)[0]
    assert await deliver_replay(client, push) == 202
    text = await scrape(client)
    assert sample(text, count) == 1
    assert 0 < sample(text, "commit_digest_webhook_stored_seconds_sum") < 10
    assert await deliver_replay(client, push) == 200  # the same delivery again: nothing stored
    assert sample(await scrape(client), count) == 1


async def test_the_oldest_waiting_job_ages_until_it_is_claimed(
    client: Client, clock: FakeClock
) -> None:
    oldest = "commit_digest_oldest_waiting_job_seconds"
    assert sample(await scrape(client), oldest) == 0
    assert await deliver_replay(client, replay_pushes(COMPRESSOR, DAY)[0]) == 202
    assert sample(await scrape(client), oldest) == 0  # due just now
    clock.advance(seconds=90)
    assert sample(await scrape(client), oldest) == 90
    clock.advance(minutes=10)
    assert sample(await scrape(client), oldest) == 690
    # Claimed: nothing waits. A holder that stopped leaves its job waiting from its lease's end.
    claimed, _ = await client.app[STORE].jobs.claim(
        clock.now(),
        owner="replica-1",
        limit=100,
        lease=timedelta(seconds=30),
        max_attempts=dict.fromkeys(JobKind, 5),
    )
    assert claimed
    assert sample(await scrape(client), oldest) == 0
    clock.advance(seconds=100)
    assert sample(await scrape(client), oldest) == 70


def reachable(text: str) -> float:
    return sample(text, "commit_digest_github_reachable")


async def test_github_reachability_follows_the_last_call(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    github.load_replay(COMPRESSOR, DAY, installation_id=INSTALLATION, repo_id=794532817)
    client = await app_client(github_timeout_seconds=0.3)
    assert math.isnan(reachable(await scrape(client)))  # no call yet: unknown, not "down"
    repos = client.app[GITHUB].installation(INSTALLATION)
    await repos.get_repository(COMPRESSOR)
    assert reachable(await scrape(client)) == 1
    github.fail("GET", r"/repos/[^/]+/[^/]+$", 503, times=10)
    with pytest.raises(GitHubUnavailable):
        await repos.get_repository(COMPRESSOR)
    assert reachable(await scrape(client)) == 0
    github.faults.clear()
    # A 404 is GitHub answering: reachable again.
    with pytest.raises(RepositoryGone):
        await repos.get_repository("vllm-project/no-such-repo")
    assert reachable(await scrape(client)) == 1
    # No answer at all within the timeout.
    github.fail("GET", r"/repos/[^/]+/[^/]+$", 200, hang=True, times=10)
    with pytest.raises(GitHubUnavailable):
        await repos.get_repository(COMPRESSOR)
    github.release.set()
    assert reachable(await scrape(client)) == 0
