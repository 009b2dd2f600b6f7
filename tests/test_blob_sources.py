"""Changed files' texts at both revisions, riding on the pull requests' GraphQL query."""

from __future__ import annotations

import copy
import itertools
import subprocess
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.analysis.rules import analyze
from bot.analysis.sources import blob_cache
from bot.app import EXECUTOR, STORE
from bot.cli.evaluation import git_history
from bot.github.calls import InstallationClient
from bot.github.client import RetryPolicy
from bot.github.github_app import GitHubApp
from bot.github.pulls import pull_requests
from bot.jobs.analyse.prefetch import prefetch
from bot.models import Analysis, CommitInput, PullRequestInfo
from bot.runtime.metrics import Metrics
from bot.store.commits import CommitWork
from bot.store.jobs import JobKind
from tests.clones import TYPEGUARD_DECORATORS, TYPEGUARD_INIT, commit_files
from tests.fakes.github import BLOB_TEXT_LIMIT, FakeGitHub, FakeRepo
from tests.processes import APP_ID
from tests.scenarios import land
from tests.support import FakeClock, deliver_replay, replay_day, replay_pushes

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


# typeguard df3ca82 "Converted @typechecked to recompile the target function": the private
# `_decorators.py`'s `typechecked`, which the package `__init__.py` (not changed) imports and
# lists in `__all__`, loses `config`; a later commit changes its `def` again.
_TG_TEXTS = [
    TYPEGUARD_DECORATORS.format(params="config=None"),
    TYPEGUARD_DECORATORS.format(params="check_arguments=True"),
    TYPEGUARD_DECORATORS.format(params="check_arguments=True, check_return=True"),
]
_INIT = "src/typeguard/__init__.py"
_DECORATORS = "src/typeguard/_decorators.py"
ASCEND, ASCEND_DAY = "vllm-project/vllm-ascend", "2026-07-10"


def _typeguard_round(
    github: FakeGitHub, root: Path
) -> tuple[FakeRepo, list[str], list[CommitInput]]:
    """Two commits of the shape, as a clone reads them offline (`eval --git`), and the same
    files served by the fake GitHub as two commits of a replay day that are fetched together:
    the served repository, their shas, and the offline commits."""
    root.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    layout = {
        _INIT: TYPEGUARD_INIT,
        "src/typeguard/_functions.py": "def check_type(v, h):\n    return v\n",
    }
    commit_files(root, {**layout, _DECORATORS: _TG_TEXTS[0]}, "Initial layout")
    commit_files(root, {_DECORATORS: _TG_TEXTS[1]}, "Converted @typechecked")
    commit_files(root, {_DECORATORS: _TG_TEXTS[2]}, "Check return values")
    offline = [c for _, c in git_history(root, branch="HEAD~2..HEAD")]
    repo = github.serve_replay_day(ASCEND, ASCEND_DAY)
    shas = [c["sha"] for c in replay_day(ASCEND, ASCEND_DAY)["commits"][1:3]]
    for sha, commit, (before, after) in zip(
        shas, offline, itertools.pairwise(_TG_TEXTS), strict=True
    ):
        served = copy.deepcopy(repo.commits[sha])
        served["files"] = [f.model_dump(exclude={"before", "after"}) for f in commit.files]
        repo.commits[sha] = served
        repo.revisions |= {
            f"{sha}^:{_DECORATORS}": before,
            f"{sha}:{_DECORATORS}": after,
            f"{sha}^:{_INIT}": TYPEGUARD_INIT,
            f"{sha}:{_INIT}": TYPEGUARD_INIT,
        }
    return repo, shas, offline


async def _delivered(app_client: Callable[..., Any], *, analyse: bool) -> Any:
    """The App with the day's pushes delivered (`land` would serve the day again, with its own
    files), its analyses run or not."""
    client = await app_client()
    for push in replay_pushes(ASCEND, ASCEND_DAY):
        assert await deliver_replay(client, push) == 202
    await client.app[EXECUTOR].drain(kinds=None if analyse else [JobKind.REFRESH_CONFIG])
    return client


async def test_a_package_init_rides_on_the_query_and_the_break_is_said_as_offline(
    app_client: Callable[..., Any], github: FakeGitHub, tmp_path: Path
) -> None:
    repo, shas, offline = _typeguard_round(github, tmp_path / "typeguard")
    # offline, the clone reads the unchanged `__init__.py`: the lost `config` breaks callers
    assert [[p for p, _ in c.modules] for c in offline] == [[_INIT], [_INIT]]
    said = analyze(offline[0])
    assert said.breaking
    assert [r.consequence for r in said.risks] == ["Calls that pass `config` by name fail."]

    client = await _delivered(app_client, analyse=True)
    store = client.app[STORE]
    found = await store.repos.by_name(ASCEND)
    assert found is not None
    day = await store.digests.window_commits(
        found.id, datetime(2026, 7, 9, tzinfo=UTC), datetime(2026, 7, 12, tzinfo=UTC)
    )
    stored = {c.sha: Analysis.model_validate(c.analysis) for c in day if c.analysis}
    # online, the same break, in the same words
    online = stored[shas[0]]
    assert online.breaking
    assert [r.description for r in online.risks] == [r.description for r in said.risks]
    assert [r.consequence for r in online.risks] == [r.consequence for r in said.risks]
    assert stored[shas[1]].breaking == analyze(offline[1]).breaking
    # the `__init__.py` asked once a commit, at the commit, on the pull requests' query: no
    # call of its own, and none per commit
    assert [e for e in repo.objects_asked if e.endswith(_INIT)] == [f"{s}:{_INIT}" for s in shas]
    assert {c.operation for c in github.calls if c.path == "/graphql"} == {"PullRequestsByNumber"}
    assert not [
        c for c in github.calls if any(s in c.path for s in shas) or f"/contents/{_INIT}" in c.path
    ]
    assert len(github.calls) <= 1.2 * len(day)


async def test_an_unchanged_module_is_asked_once_and_kept(
    app_client: Callable[..., Any], github: FakeGitHub, app: GitHubApp, tmp_path: Path
) -> None:
    repo, shas, offline = _typeguard_round(github, tmp_path / "typeguard")
    client = await _delivered(app_client, analyse=False)
    store = client.app[STORE]
    found = await store.repos.by_name(ASCEND)
    assert found is not None
    works = [await store.commits.for_analysis(found.id, sha, "en") for sha in shas]
    claims = [w for w in works if w is not None]
    assert len(claims) == 2

    async def client_for(work: CommitWork) -> InstallationClient:
        return app.installation(work.installation_id)

    blobs = blob_cache()
    asked = len(github.calls)
    done = await prefetch(claims, engine=store.engine, client_for=client_for, blobs=blobs)
    # one compare call and one GraphQL query, as without the module (the App's token aside)
    made = [c for c in github.calls[asked:] if not c.path.endswith("/access_tokens")]
    assert ["compare" if "/compare/" in c.path else c.operation for c in made] == [
        "compare",
        "PullRequestsByNumber",
    ]
    assert [e for e in repo.objects_asked if e.endswith(_INIT)] == [f"{s}:{_INIT}" for s in shas]
    inputs = [CommitInput.from_github(done.commits[(found.id, sha)], repo=ASCEND) for sha in shas]
    assert [c.modules for c in inputs] == [c.modules for c in offline]
    # the next round asks the same commits' files and modules no more (a retry, a late job)
    objects = len(repo.objects_asked)
    again = await prefetch(claims, engine=store.engine, client_for=client_for, blobs=blobs)
    assert len(repo.objects_asked) == objects
    assert [CommitInput.from_github(again.commits[(found.id, s)]).modules for s in shas] == [
        c.modules for c in offline
    ]
    # a path GitHub has no object at (`object` null, no error) is simply absent, and known so
    del repo.revisions[f"{shas[1]}:{_INIT}"]
    blobs = blob_cache()
    gone = await prefetch(claims, engine=store.engine, client_for=client_for, blobs=blobs)
    assert [CommitInput.from_github(gone.commits[(found.id, s)]).modules for s in shas] == [
        offline[0].modules,
        (),
    ]
    assert blobs[f"{shas[1]}:{_INIT}"] is None


async def _stored(client: Any) -> dict[str, Any]:
    """The day's commits as the store keeps them, by sha."""
    store = client.app[STORE]
    found = await store.repos.by_name(ASCEND)
    assert found is not None
    day = await store.digests.window_commits(
        found.id, datetime(2026, 7, 9, tzinfo=UTC), datetime(2026, 7, 12, tzinfo=UTC)
    )
    return {c.sha: c for c in day}


async def _push_alone(client: Any, github: FakeGitHub, sha: str) -> list[str]:
    """The push of `sha` delivered and analysed on its own (a quiet repository's push): the
    GitHub calls its analysis made, as `METHOD path [operation]`."""
    push = next(p for p in replay_pushes(ASCEND, ASCEND_DAY) if p["payload"]["after"] == sha)
    assert await deliver_replay(client, push) == 202
    worker = client.app[EXECUTOR]
    await worker.drain(kinds=[JobKind.REFRESH_CONFIG])
    asked = len(github.calls)
    await worker.drain()
    return [
        f"{c.method} {c.path} {c.operation or ''}".strip()
        for c in github.calls[asked:]
        if not c.path.endswith("/access_tokens")
    ]


async def test_a_lone_commit_reads_its_files_on_its_pull_request_lookup(
    app_client: Callable[..., Any], github: FakeGitHub, tmp_path: Path
) -> None:
    repo, shas, offline = _typeguard_round(github, tmp_path / "typeguard")
    said = analyze(offline[0])
    assert said.breaking
    client = await app_client()
    made = await _push_alone(client, github, shas[0])
    stored = (await _stored(client))[shas[0]]
    online = Analysis.model_validate(stored.analysis)
    # online, alone, the same break in the same words as offline
    assert online.breaking
    assert [r.description for r in online.risks] == [r.description for r in said.risks]
    assert [r.consequence for r in online.risks] == [r.consequence for r in said.risks]
    # the calls of a commit analysed alone, as before: "get a commit", then its pull request,
    # now one GraphQL query that carries the files too (no REST "pulls of a commit")
    assert made == [
        f"GET /repos/{ASCEND}/commits/{shas[0]}",
        "POST /graphql PullRequestsOfCommit",
    ]
    # both sides of the changed file, and the unchanged `__init__.py` at the commit
    parent = repo.commits[shas[0]]["parents"][0]["sha"]
    assert sorted(repo.objects_asked) == sorted(
        [f"{parent}:{_DECORATORS}", f"{shas[0]}:{_DECORATORS}", f"{shas[0]}:{_INIT}"]
    )
    assert stored.details["pull_request"]["number"] == repo.pulls[shas[0]][0]["number"]


# A sentence only the pull request's description holds: the entry's summary shows it.
_PR_WORDS = "Decorated functions now check their return values against the annotation."


def _described(repo: FakeRepo, sha: str) -> int:
    """The commit's pull request, given a description of its own; its number."""
    (pull,) = repo.pulls[sha]
    pull["body"] = _PR_WORDS
    return int(pull["number"])


_LOOKUP = "PullRequestsOfCommit"
# GitHub failing the lookup as it does (FACTS §4): its 502 page (HTML) on every retry, the
# installation's GraphQL points spent (HTTP 200, RATE_LIMITED, `x-ratelimit-remaining: 0`),
# a secondary limit for half an hour (403, `Retry-After`), a query it could not run (HTTP
# 200, `errors` and no `data`): none of them the commit's.
_GRAPHQL_FAILURES: dict[str, Callable[[FakeGitHub], None]] = {
    "502 page": lambda gh: gh.graphql_bad_gateway(_LOOKUP, times=100),
    "points spent": lambda gh: gh.graphql_rate_limited(_LOOKUP, times=100),
    "secondary limit": lambda gh: gh.secondary_rate_limit(
        "POST", r"^/graphql$", retry_after=1800, times=100, operation=_LOOKUP
    ),
    "errors": lambda gh: gh.graphql_went_wrong(_LOOKUP, times=100),
}


@pytest.mark.parametrize("failure", list(_GRAPHQL_FAILURES))
async def test_a_lone_commit_whose_lookup_fails_gets_its_pull_request_by_rest(
    app_client: Callable[..., Any], github: FakeGitHub, tmp_path: Path, failure: str
) -> None:
    repo, shas, _ = _typeguard_round(github, tmp_path / "typeguard")
    number = _described(repo, shas[0])
    _GRAPHQL_FAILURES[failure](github)
    client = await app_client()
    made = await _push_alone(client, github, shas[0])
    # "get a commit", the GraphQL lookup (its retries), then REST's lookup, once
    assert made[0] == f"GET /repos/{ASCEND}/commits/{shas[0]}"
    assert set(made[1:-1]) == {f"POST /graphql {_LOOKUP}"}
    assert made[-1] == f"GET /repos/{ASCEND}/commits/{shas[0]}/pulls"
    stored = (await _stored(client))[shas[0]]
    # analysed now, its pull request's words in its entry; the files read from the patches
    assert stored.state == "analyzed"
    assert stored.details["pull_request"]["number"] == number
    assert stored.details["pull_request"]["body"] == _PR_WORDS
    online = Analysis.model_validate(stored.analysis)
    assert _PR_WORDS.rstrip(".") in online.summary
    pull = PullRequestInfo(number=number, title="", body=_PR_WORDS)
    patches = analyze(
        CommitInput.from_github(repo.commits[shas[0]], repo=ASCEND, pull_request=pull)
    )
    assert [r.description for r in online.risks] == [r.description for r in patches.risks]
    github.assert_clean()


async def test_graphql_out_of_points_is_not_asked_again_until_its_reset(
    app_client: Callable[..., Any], github: FakeGitHub, tmp_path: Path, clock: FakeClock
) -> None:
    """The next lone commit goes to REST at once: GitHub is not asked while it said no."""
    repo, shas, _ = _typeguard_round(github, tmp_path / "typeguard")
    github.graphql_rate_limited(_LOOKUP, times=100, reset_in=3600)
    client = await app_client()
    await _push_alone(client, github, shas[0])
    made = await _push_alone(client, github, shas[1])
    assert made == [
        f"GET /repos/{ASCEND}/commits/{shas[1]}",
        f"GET /repos/{ASCEND}/commits/{shas[1]}/pulls",
    ]
    stored = await _stored(client)
    assert [stored[s].details["pull_request"]["number"] for s in shas] == [
        repo.pulls[s][0]["number"] for s in shas
    ]
    assert len([c for c in github.calls if c.operation == _LOOKUP]) == 1


@pytest.mark.parametrize("failure", ["502 page", "points spent"])
async def test_a_lone_commit_whose_lookups_both_fail_is_analysed_without_its_pull_request(
    app_client: Callable[..., Any], github: FakeGitHub, tmp_path: Path, failure: str
) -> None:
    """GraphQL failing, and REST's lookup answering 502 each time: nothing lost, no crash."""
    repo, shas, _ = _typeguard_round(github, tmp_path / "typeguard")
    _GRAPHQL_FAILURES[failure](github)
    github.fail("GET", r"/commits/[0-9a-f]+/pulls$", 502, times=100, message="Server Error")
    client = await app_client()
    made = await _push_alone(client, github, shas[0])
    assert made[0] == f"GET /repos/{ASCEND}/commits/{shas[0]}"
    assert {m.rsplit("/", 1)[-1] for m in made[1:]} == {f"graphql {_LOOKUP}", "pulls"}
    stored = (await _stored(client))[shas[0]]
    # kept, analysed from what "get a commit" gave, without its pull request
    assert stored.state == "analyzed"
    assert stored.details["pull_request"] is None
    patches = analyze(CommitInput.from_github(repo.commits[shas[0]], repo=ASCEND))
    online = Analysis.model_validate(stored.analysis)
    assert [r.description for r in online.risks] == [r.description for r in patches.risks]


async def test_both_lookups_rate_limited_wait_for_the_first_to_end(
    app_client: Callable[..., Any], github: FakeGitHub, tmp_path: Path, clock: FakeClock
) -> None:
    """REST limited too: not hammered, and not analysed without its pull request and files;
    the job waits for the first limit to end (REST's here), then REST's lookup finds it."""
    repo, shas, _ = _typeguard_round(github, tmp_path / "typeguard")
    github.graphql_rate_limited(_LOOKUP, times=100, reset_in=3600)
    github.secondary_rate_limit("GET", r"/commits/[0-9a-f]+/pulls$", retry_after=1800)
    client = await app_client()
    made = await _push_alone(client, github, shas[0])
    assert [m.rsplit("/", 1)[-1] for m in made] == [shas[0], f"graphql {_LOOKUP}", "pulls"]
    assert (await _stored(client))[shas[0]].state == "pending"
    assert await client.app[EXECUTOR].run_once() == 0  # nothing asked before the limit ends
    clock.advance(minutes=31)
    await client.app[EXECUTOR].drain()
    stored = (await _stored(client))[shas[0]]
    assert stored.state == "analyzed"
    assert stored.details["pull_request"]["number"] == repo.pulls[shas[0]][0]["number"]
    # GraphQL, still out of points, was not asked again
    assert len([c for c in github.calls if c.operation == _LOOKUP]) == 1


async def test_lone_commits_ask_for_a_file_revision_once(
    app_client: Callable[..., Any], github: FakeGitHub, tmp_path: Path
) -> None:
    repo, shas, offline = _typeguard_round(github, tmp_path / "typeguard")
    client = await app_client()
    for sha in shas:
        made = await _push_alone(client, github, sha)
        assert [m.split("/")[-1] for m in made] == [sha, "graphql PullRequestsOfCommit"]
    parent = repo.commits[shas[0]]["parents"][0]["sha"]
    # the second commit's parent side is the first's new side: asked once, by the first
    assert [e for e in repo.objects_asked if e.endswith(_DECORATORS)] == [
        f"{parent}:{_DECORATORS}",
        f"{shas[0]}:{_DECORATORS}",
        f"{shas[1]}:{_DECORATORS}",
    ]
    stored = await _stored(client)
    assert [Analysis.model_validate(stored[s].analysis).breaking for s in shas] == [
        analyze(c).breaking for c in offline
    ]
