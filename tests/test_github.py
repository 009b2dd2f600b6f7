"""GitHub access against the fake GitHub: auth, token cache, retries, rate limits, lost access."""

from __future__ import annotations

import itertools
import re
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import aiohttp
import gidgethub
import jwt
import pytest
from cryptography.hazmat.primitives import serialization

from bot.github.calls import CommitMissing, GitHubError
from bot.github.client import RetryPolicy, _is_write
from bot.github.conditional import FileCheck, get_file_if_changed
from bot.github.errors import GitHubUnavailable, IssueGone, RateLimited, RepositoryGone
from bot.github.github_app import GitHubApp
from bot.github.pulls import pull_request_of
from bot.runtime.metrics import Metrics
from tests.fakes.github import FakeGitHub, Fault
from tests.processes import APP_ID
from tests.support import FakeClock, replay_day

REPO = "vllm-project/llm-compressor"
DAY = "2026-06-22"
INSTALLATION = 60292384


@pytest.fixture
def replay(github: FakeGitHub) -> None:
    github.load_replay(REPO, DAY, installation_id=INSTALLATION, repo_id=794532817)


@pytest.fixture
async def make_app(
    github_url: str, private_key_pem: str, clock: FakeClock
) -> AsyncIterator[Callable[..., GitHubApp]]:
    session = aiohttp.ClientSession()

    def make(**policy: Any) -> GitHubApp:
        return GitHubApp(
            session,
            app_id=APP_ID,
            private_key=private_key_pem,
            base_url=github_url,
            graphql_url=f"{github_url}/graphql",
            clock=clock,
            metrics=Metrics(),
            policy=RetryPolicy(**policy),
        )

    yield make
    await session.close()


def first_sha() -> str:
    sha: str = replay_day(REPO, DAY)["commits"][0]["sha"]
    return sha


@pytest.mark.usefixtures("replay")
async def test_installation_token_is_cached_and_renewed_before_expiry(
    make_app: Callable[..., GitHubApp], github: FakeGitHub, clock: FakeClock
) -> None:
    app = make_app()
    client = app.installation(INSTALLATION)
    await client.get_commit(REPO, first_sha())
    await client.get_repository(REPO)
    assert len(github.calls_to("POST", "access_tokens")) == 1
    # Tokens live an hour; 54 minutes later the cached one is still used...
    clock.advance(minutes=54)
    await client.get_repository(REPO)
    assert len(github.calls_to("POST", "access_tokens")) == 1
    # ...and within five minutes of its expiry it is renewed before use, not after a 401.
    clock.advance(minutes=2)
    await client.get_repository(REPO)
    assert len(github.calls_to("POST", "access_tokens")) == 2
    assert not [c for c in github.calls if c.status == 401]


@pytest.mark.usefixtures("replay")
async def test_app_jwt_is_reused_then_renewed(
    make_app: Callable[..., GitHubApp], github: FakeGitHub, clock: FakeClock
) -> None:
    app = make_app()
    assert await app.installation_for(REPO) == INSTALLATION
    first = app._auth.app_jwt()
    clock.advance(minutes=5)
    assert app._auth.app_jwt() == first
    clock.advance(minutes=3)
    assert app._auth.app_jwt() != first
    # The fake checks iat/exp/iss with RS256 against the App's public key: still accepted.
    assert await app.installation_for(REPO) == INSTALLATION
    assert all(c.auth == "jwt" for c in github.calls_to("GET", "/installation$"))


@pytest.mark.usefixtures("replay")
async def test_the_private_key_is_parsed_once_for_every_jwt(
    make_app: Callable[..., GitHubApp],
    github: FakeGitHub,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Parsing a PEM key checks the RSA key: tens of milliseconds a time.
    parsed: list[bytes] = []
    load = serialization.load_pem_private_key

    def counting(data: bytes, password: bytes | None) -> Any:
        if b"PRIVATE KEY" in data:  # PyJWT tries a public key as a private one first
            parsed.append(data)
        return load(data, password)

    monkeypatch.setattr(serialization, "load_pem_private_key", counting)
    monkeypatch.setattr(jwt.algorithms, "load_pem_private_key", counting)
    app = make_app()
    signed = set()
    for _ in range(3):
        signed.add(app._auth.app_jwt())
        # The fake checks each JWT against the App's public key.
        assert await app.installation_for(REPO) == INSTALLATION
        clock.advance(minutes=8)  # past the JWT's renewal: the next one is signed anew
    assert len(signed) == 3
    assert len(github.calls_to("GET", "/installation$")) == 3
    assert len(parsed) == 1


@pytest.mark.usefixtures("replay")
async def test_server_errors_are_retried_with_backoff(
    make_app: Callable[..., GitHubApp], github: FakeGitHub, clock: FakeClock
) -> None:
    github.fail("GET", r"/commits/[0-9a-f]+$", 502, times=2, message="Bad Gateway")
    before = clock.now()
    commit = await make_app().installation(INSTALLATION).get_commit(REPO, first_sha())
    assert commit["sha"] == first_sha()
    assert [c.status for c in github.calls_to("GET", r"/commits/[0-9a-f]+$")] == [502, 502, 200]
    # Backoff slept (on the injected clock) at least 1 s, then 2 s.
    assert clock.now() - before >= timedelta(seconds=3)


@pytest.mark.usefixtures("replay")
async def test_persistent_server_errors_give_up(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    github.fail("GET", r"/commits/[0-9a-f]+$", 503, times=10)
    with pytest.raises(GitHubUnavailable):
        await make_app(attempts=3).installation(INSTALLATION).get_commit(REPO, first_sha())
    assert len(github.calls_to("GET", r"/commits/[0-9a-f]+$")) == 3


@pytest.mark.usefixtures("replay")
async def test_timeouts_are_retried(make_app: Callable[..., GitHubApp], github: FakeGitHub) -> None:
    github.fail("GET", r"/repos/[^/]+/[^/]+$", 200, hang=True)
    info = await make_app(timeout=0.3).installation(INSTALLATION).get_repository(REPO)
    github.release.set()
    assert info.default_branch == "main"


@pytest.mark.usefixtures("replay")
async def test_secondary_rate_limit_waits_retry_after(
    make_app: Callable[..., GitHubApp], github: FakeGitHub, clock: FakeClock
) -> None:
    github.secondary_rate_limit("GET", r"/commits/[0-9a-f]+$", retry_after=30)
    app = make_app()
    before = clock.now()
    await app.installation(INSTALLATION).get_commit(REPO, first_sha())
    assert clock.now() - before >= timedelta(seconds=30)
    waits = app._metrics.github_rate_limit_waits.labels(kind="secondary")._value.get()
    assert waits == 1


@pytest.mark.usefixtures("replay")
async def test_long_rate_limit_is_deferred_not_slept(
    make_app: Callable[..., GitHubApp], github: FakeGitHub, clock: FakeClock
) -> None:
    github.secondary_rate_limit("GET", r"/commits/[0-9a-f]+$", retry_after=900)
    before = clock.now()
    with pytest.raises(RateLimited) as caught:
        await make_app().installation(INSTALLATION).get_commit(REPO, first_sha())
    assert caught.value.until >= before + timedelta(seconds=900)
    assert clock.now() == before
    assert len(github.calls_to("GET", r"/commits/[0-9a-f]+$")) == 1


@pytest.mark.usefixtures("replay")
async def test_primary_rate_limit_waits_until_reset(
    make_app: Callable[..., GitHubApp], github: FakeGitHub, clock: FakeClock
) -> None:
    reset = int(clock.now().timestamp()) + 40
    github.fail(
        "GET",
        r"/repos/[^/]+/[^/]+$",
        403,
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)},
        message="API rate limit exceeded for installation.",
    )
    await make_app().installation(INSTALLATION).get_repository(REPO)
    assert clock.now().timestamp() >= reset


@pytest.mark.usefixtures("replay")
async def test_unhinted_secondary_limit_waits_a_minute_then_doubles(
    make_app: Callable[..., GitHubApp], github: FakeGitHub, clock: FakeClock
) -> None:
    github.fail(
        "GET",
        r"/repos/[^/]+/[^/]+$",
        403,
        times=2,
        message="You have exceeded a secondary rate limit.",
    )
    before = clock.now()
    await make_app(max_rate_limit_wait=300).installation(INSTALLATION).get_repository(REPO)
    assert clock.now() - before >= timedelta(seconds=180)


@pytest.mark.usefixtures("replay")
async def test_expired_token_mid_day_is_renewed_once(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    client = make_app().installation(INSTALLATION)
    await client.get_repository(REPO)
    github.expire_tokens()
    await client.get_repository(REPO)
    assert [c.status for c in github.calls_to("GET", r"/repos/[^/]+/[^/]+$")] == [200, 401, 200]
    assert len(github.calls_to("POST", "access_tokens")) == 2


@pytest.mark.usefixtures("replay")
async def test_lost_access_is_repository_gone(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    client = make_app().installation(INSTALLATION)
    github.revoke(REPO)
    with pytest.raises(RepositoryGone):
        await client.get_commit(REPO, first_sha())
    # One call: a 404 is not retried.
    assert len(github.calls_to("GET", r"/commits/")) == 1


@pytest.mark.usefixtures("replay")
async def test_an_issue_gone_is_told_apart_from_the_repository_gone(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    client = make_app().installation(INSTALLATION)
    number = (await client.create_issue(REPO, title="Digests", body="b")).number
    comment = await client.create_comment(REPO, number, body="c")
    github.delete_issue(REPO, number)
    with pytest.raises(IssueGone) as deleted:
        await client.create_comment(REPO, number, body="c")
    assert (deleted.value.issue, deleted.value.disabled) == (number, False)
    with pytest.raises(IssueGone) as listed:
        _ = [c async for c in client.issue_comments(REPO, number)]
    assert (listed.value.issue, listed.value.disabled) == (number, False)
    with pytest.raises(IssueGone) as edited:
        await client.update_comment(REPO, int(comment.id), body="d")
    assert (edited.value.issue, edited.value.disabled) == (None, False)
    # GitHub answers 410 for a deleted issue too: only the repository says Issues are off.
    github.fail("POST", r"/issues/\d+/comments$", 410, message="This issue was deleted")
    with pytest.raises(IssueGone) as gone:
        await client.create_comment(REPO, number, body="c")
    assert gone.value.disabled is False
    github.repos[REPO].has_issues = False
    with pytest.raises(IssueGone) as off:
        await client.create_issue(REPO, title="Digests", body="b")
    assert (off.value.issue, off.value.disabled) == (None, True)
    # Each time, one look at the repository decided.
    assert len(github.calls_to("GET", rf"^/repos/{REPO}$")) == 5
    github.revoke(REPO)
    with pytest.raises(RepositoryGone):
        await client.create_comment(REPO, number, body="c")


@pytest.mark.usefixtures("replay")
async def test_missing_commit_is_told_apart(make_app: Callable[..., GitHubApp]) -> None:
    with pytest.raises(CommitMissing):
        await make_app().installation(INSTALLATION).get_commit(REPO, "f" * 40)


@pytest.mark.usefixtures("replay")
async def test_commit_files_are_paginated_past_300(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    repo = github.repos[REPO]
    sha = first_sha()
    repo.commits[sha]["files"] = [
        {
            "filename": f"src/f{i}.py",
            "status": "added",
            "additions": 1,
            "deletions": 0,
            "changes": 1,
        }
        for i in range(650)
    ]
    commit = await make_app().installation(INSTALLATION).get_commit(REPO, sha)
    assert len(commit["files"]) == 650
    assert len(github.calls_to("GET", rf"/commits/{sha}$")) == 3


@pytest.mark.usefixtures("replay")
async def test_compare_pages_oldest_first_and_keeps_the_newest_within_the_limit(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    day = replay_day(REPO, DAY)
    client = make_app().installation(INSTALLATION)
    comparison = await client.compare(REPO, day["before"], day["after"], limit=1000)
    assert [c["sha"] for c in comparison.commits] == [c["sha"] for c in day["commits"]]
    limited = await client.compare(REPO, day["before"], day["after"], limit=4)
    # GitHub lists the newest last: the limit leaves out the oldest.
    assert [c["sha"] for c in limited.commits] == [c["sha"] for c in day["commits"]][-4:]
    assert limited.truncated == len(day["commits"]) - 4


@pytest.mark.usefixtures("replay")
async def test_pull_request_of_a_commit(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    sha = first_sha()
    client = make_app().installation(INSTALLATION)
    pr = await pull_request_of(client, REPO, sha, number=2846)
    assert (
        pr is not None
        and pr.number == 2846
        and pr.title == "Remove all device movement from pipelines"
    )
    # one GraphQL query (checked against GitHub's schema by the fake), no REST lookup
    assert [c.operation for c in github.calls if c.path == "/graphql"] == ["PullRequestsOfCommit"]
    assert not github.calls_to("GET", r"/pulls$")

    # Several: the one the commit is the merge commit of, else the title's, else the first.
    repo = github.repos[REPO]
    merged = repo.pulls[sha][0]
    others = [{**merged, "number": n, "merge_commit_sha": "b" * 40} for n in (7, 8)]
    repo.pulls[sha] = [*others, merged]
    assert [
        getattr(await pull_request_of(client, REPO, sha, number=n), "number", None)
        for n in (8, None)
    ] == [2846, 2846]
    repo.pulls[sha] = others
    assert [
        getattr(await pull_request_of(client, REPO, sha, number=n), "number", None)
        for n in (8, None)
    ] == [8, 7]

    # A commit GitHub does not have (`object` null, no error): none; the texts still answered.
    blobs: dict[str, str | None] = {f"{sha}:README.md": "stale"}
    repo.revisions[f"{sha}:README.md"] = "# Read me\n"
    assert await pull_request_of(client, REPO, "0" * 40, number=2846, blobs=blobs) is None
    assert blobs == {f"{sha}:README.md": "# Read me\n"}


@pytest.mark.usefixtures("replay")
async def test_a_commit_lookup_answered_in_part(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    """GitHub's partial answer (HTTP 200, `errors` beside `data`): NOT_FOUND for the commit is
    no pull request, the texts it found are kept; an error about the repository raises."""
    sha, path = first_sha(), "src/a.py"
    blob = {"text": "A = 1\n", "byteSize": 6, "isBinary": False, "isTruncated": False, "oid": "1"}
    missing = {"type": "NOT_FOUND", "path": ["repository", "commit"], "message": "No commit"}
    github.faults.append(
        Fault(
            "POST",
            re.compile(r"^/graphql$"),
            200,
            {},
            {"data": {"repository": {"commit": None, "b0": blob}}, "errors": [missing]},
            times=1,
            operation="PullRequestsOfCommit",
        )
    )
    client = make_app().installation(INSTALLATION)
    blobs: dict[str, str | None] = {f"{sha}:{path}": None}
    assert await pull_request_of(client, REPO, sha, number=2846, blobs=blobs) is None
    assert blobs == {f"{sha}:{path}": "A = 1\n"}
    github.graphql_not_found("PullRequestsOfCommit", "repository")
    with pytest.raises(RepositoryGone):
        await pull_request_of(client, REPO, sha, number=2846)


@pytest.mark.usefixtures("replay")
async def test_config_file_present_and_absent(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    client = make_app().installation(INSTALLATION)
    path = ".github/commit-digest.yml"
    absent = await get_file_if_changed(client, REPO, path, ref="main", etag=None)
    assert absent == FileCheck(unchanged=False)
    github.repos[REPO].files[path] = "timezone: Asia/Shanghai\n"
    check = await get_file_if_changed(client, REPO, path, ref="main", etag=None)
    content = check.content
    assert (
        content is not None
        and content.text == "timezone: Asia/Shanghai\n"
        and len(content.sha) == 40
    )
    # The file read again with its ETag: GitHub answers 304, and nothing is read.
    again = await get_file_if_changed(client, REPO, path, ref="main", etag=check.etag)
    assert check.etag and again == FileCheck(unchanged=True, etag=check.etag)


@pytest.mark.usefixtures("replay")
async def test_content_creation_is_paced(
    make_app: Callable[..., GitHubApp], github: FakeGitHub, clock: FakeClock
) -> None:
    repo = github.repos[REPO]
    client = make_app().installation(INSTALLATION)
    issue = await client.create_issue(REPO, title="Commit digest", body="tracking")
    stamps = []
    for i in range(3):
        await client.create_comment(REPO, issue.number, body=f"part {i}")
        stamps.append(clock.now())
    assert all(b - a >= timedelta(seconds=1) for a, b in itertools.pairwise(stamps))
    assert [c["body"] for c in repo.comments] == ["part 0", "part 1", "part 2"]


@pytest.mark.usefixtures("replay")
async def test_body_over_the_limit_is_refused_like_github(
    make_app: Callable[..., GitHubApp],
) -> None:
    client = make_app().installation(INSTALLATION)
    issue = await client.create_issue(REPO, title="Commit digest", body="x")
    with pytest.raises(GitHubError, match="422"):
        await client.create_comment(REPO, issue.number, body="x" * 65_537)


@pytest.mark.usefixtures("replay")
async def test_discussions_through_graphql(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    client = make_app().installation(INSTALLATION)
    setup = await client.discussion_setup(REPO)
    assert setup.enabled and [c.slug for c in setup.categories] == ["general", "announcements"]
    created = await client.create_discussion(
        setup.repository_id, setup.categories[0].id, title="Daily digest", body="part 1"
    )
    await client.add_discussion_comment(created.id, body="part 2")
    await client.update_discussion(created.id, body="part 1, edited")
    found = [d async for d in client.recent_discussions(REPO, setup.categories[0].id)]
    assert [(d.title, d.body) for d in found] == [("Daily digest", "part 1, edited")]
    comments = [c async for c in client.discussion_comments(created.id)]
    assert [c.body for c in comments] == ["part 2"]
    assert {c.operation for c in github.calls_to("POST", "/graphql")} >= {
        "RepoDiscussionSetup",
        "CreateDigestDiscussion",
        "AddDigestComment",
        "RecentDiscussions",
    }


@pytest.mark.usefixtures("replay")
async def test_the_fake_refuses_what_github_refuses(
    make_app: Callable[..., GitHubApp], github: FakeGitHub
) -> None:
    gh = make_app().installation(INSTALLATION).gh
    with pytest.raises(gidgethub.BadRequest) as refused:
        await gh.post(
            "/repos/{owner}/{repo}/issues",
            {"owner": "vllm-project", "repo": "llm-compressor"},
            data={"body": "no title"},
        )
    assert int(refused.value.status_code) == 422
    assert github.violations and "title" in github.violations[0]
    github.violations.clear()
    github.unexpected.clear()
    with pytest.raises(gidgethub.BadRequest) as missing:
        await gh.getitem("/repos/vllm-project/llm-compressor/branches")
    assert int(missing.value.status_code) == 404
    assert github.unexpected == ["GET /repos/vllm-project/llm-compressor/branches"]
    github.unexpected.clear()


@pytest.mark.parametrize(
    ("body", "write"),
    [
        (b'{"query": "mutation Add($x: ID!) { a }", "variables": {}}', True),
        # However the JSON is spaced and the operation indented, a mutation is never resent.
        (b'{"query":"\\n  mutation Add { a }"}', True),
        (b'{"variables": {}, "query": "mutation Add { a }"}', True),
        (b"not json", True),
        (b'{"query": "query Q { viewer { login } }"}', False),
        (b'{"query": "\\nquery Q { viewer { login } }"}', False),
    ],
)
def test_graphql_mutations_are_writes_however_they_are_spelled(body: bytes, write: bool) -> None:
    assert _is_write("POST", "https://api.github.com/graphql", body) is write
