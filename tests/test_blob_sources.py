"""Changed files' texts at both revisions, riding on the pull requests' GraphQL query."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest

from bot.github import GitHubApp
from bot.github.client import RetryPolicy
from bot.github.pulls import pull_requests
from bot.runtime.metrics import Metrics
from tests.fakes.github import BLOB_TEXT_LIMIT, FakeGitHub
from tests.processes import APP_ID
from tests.scenarios import land
from tests.support import FakeClock, replay_day

REPO = "vllm-project/llm-compressor"
DAY = "2026-06-22"
INSTALLATION = 60292384


@pytest.fixture
async def app(github_url: str, private_key_pem: str, clock: FakeClock) -> AsyncIterator[GitHubApp]:
    async with aiohttp.ClientSession() as session:
        yield GitHubApp(
            session,
            app_id=APP_ID,
            private_key=private_key_pem,
            base_url=github_url,
            graphql_url=f"{github_url}/graphql",
            clock=clock,
            metrics=Metrics(),
            policy=RetryPolicy(),
        )


async def test_blobs_ride_on_the_pull_request_query(app: GitHubApp, github: FakeGitHub) -> None:
    repo = github.load_replay(REPO, DAY, installation_id=INSTALLATION, repo_id=794532817)
    sha = "a" * 40
    repo.revisions |= {
        f"{sha}^:pkg/a.py": "A = 1\n",
        f"{sha}:pkg/a.py": "A = 2\n",
        f"{sha}:pkg/big.py": "B = 1\n" * (BLOB_TEXT_LIMIT // 6 + 1),
        f"{sha}:pkg/k.cu": b"\x00\x01binary",
    }
    blobs: dict[str, str | None] = dict.fromkeys(
        [*repo.revisions, f"{sha}:pkg/missing.py"], "stale"
    )
    numbers = [pr["number"] for pulls in list(repo.pulls.values())[:2] for pr in pulls]
    found = await pull_requests(app.installation(INSTALLATION), REPO, numbers, blobs)
    assert sorted(found) == sorted(numbers)
    assert blobs == {
        f"{sha}^:pkg/a.py": "A = 1\n",
        f"{sha}:pkg/a.py": "A = 2\n",
        # cut by GitHub (`isTruncated`), binary, or naming nothing: read from the patch
        f"{sha}:pkg/big.py": None,
        f"{sha}:pkg/k.cu": None,
        f"{sha}:pkg/missing.py": None,
    }
    # one query for both, checked against GitHub's schema by the fake
    assert [c.operation for c in github.calls if c.path == "/graphql"] == ["PullRequestsByNumber"]


async def test_a_day_reads_its_files_whole_without_one_more_call(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    repo_name, day = "vllm-project/vllm-ascend", "2026-07-10"
    repo = github.serve_replay_day(repo_name, day)
    commits = replay_day(repo_name, day)["commits"]
    sha = commits[1]["sha"]
    path = commits[1]["files"][0]["filename"]
    repo.revisions |= {f"{sha}^:{path}": "def kept():\n    pass\n", f"{sha}:{path}": "X = 1\n"}
    await land(app_client, github, None, repo_name, day)
    # the changed code files of the commits fetched together were asked for, at both sides
    assert {f"{sha}^:{path}", f"{sha}:{path}"} <= set(repo.objects_asked)
    # each asked for once: a revision already read costs nothing
    assert len(repo.objects_asked) == len(set(repo.objects_asked))
    # and no call more than the day's budget of GitHub calls per commit
    assert len(github.calls) <= 1.2 * len(commits)
    assert all(c.status == 200 for c in github.calls if c.operation == "PullRequestsByNumber")
