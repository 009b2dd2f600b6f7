"""Org defaults: the org's `.github` repository's config applies to a repository without its
own; `_extends` starts a repository's file from another of the org's; unknown keys are left
out with "did you mean", and the rest applies."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.app import EXECUTOR, STORE
from bot.repo_config import (
    BASE,
    FILE,
    ConfigError,
    base_repo,
    build_config,
    parse_with_origin,
)
from bot.store.job_payloads import RefreshConfigPayload
from tests.command_support import REPO as CMD_REPO
from tests.command_support import app_with_repo, command, in_issue, only_reply
from tests.fakes.github import FakeGitHub
from tests.support import (
    FakeClock,
    deliver,
    deliver_replay,
    publish_round,
    replay_day,
    replay_pushes,
)

REPO = "vllm-project/llm-compressor"
ORG_REPO = "vllm-project/.github"
DAY = "2026-06-22"
PATH = ".github/commit-digest.yml"


# --- the pure part ------------------------------------------------------------------------


def test_the_repositorys_keys_override_the_bases_and_mappings_merge_deeply() -> None:
    org = {"timezone": "Asia/Tokyo", "publish": {"to": "issue-comment", "issue": 7}}
    own = {"_extends": ".github", "language": "zh-CN", "publish": {"issue": 9}}
    config, origin = build_config([(BASE, org), (FILE, own)], base=ORG_REPO)
    assert (config.timezone, config.language) == ("Asia/Tokyo", "zh-CN")
    assert (config.publish.to, config.publish.issue) == ("issue-comment", 9)
    assert origin.base == ORG_REPO
    assert origin.source_of("timezone") == BASE
    assert origin.source_of("language") == FILE
    assert origin.source_of("publish.to") == BASE
    assert origin.source_of("publish.issue") == FILE
    assert origin.source_of("cutoff") is None  # the default


def test_a_list_in_the_repositorys_file_replaces_the_bases() -> None:
    org = {"exclude": {"authors": ["bot-a", "bot-b"], "paths": ["docs/**"]}}
    own = {"exclude": {"authors": ["bot-c"]}}
    config, _ = build_config([(BASE, org), (FILE, own)])
    assert config.exclude.authors == ["bot-c"]
    assert config.exclude.paths == ["docs/**"]


def test_only_one_level_of_extends_is_followed() -> None:
    # The base's own `_extends` is not a key of the config, and is not followed.
    config, origin = build_config([(BASE, {"_extends": "other", "cutoff": "09:00"}), (FILE, {})])
    assert config.cutoff == "09:00"
    assert origin.ignored == ()


@pytest.mark.parametrize(
    ("mapping", "base"),
    [
        (None, "acme/.github"),  # no file of its own: the org's defaults
        ({}, None),  # a file without `_extends` stands alone
        ({"_extends": ".github"}, "acme/.github"),
        ({"_extends": "shared-config"}, "acme/shared-config"),
        ({"_extends": "acme/shared-config"}, "acme/shared-config"),
        ({"_extends": " .github "}, "acme/.github"),
    ],
)
def test_the_base_a_repository_starts_from(mapping: dict[str, Any] | None, base: str) -> None:
    assert base_repo("acme/widgets", mapping) == base


def test_the_orgs_own_github_repository_has_no_base() -> None:
    assert base_repo("acme/.github", None) is None


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("other-org/config", "is not a repository of acme"),
        ("widgets", "names this repository itself"),
        ("base:path/to.yml", "must name a repository of acme"),
        (["a", "b"], "must name a repository of acme"),
        ("..", "must name a repository of acme"),
    ],
)
def test_an_extends_that_cannot_be_followed_is_an_error(value: object, said: str) -> None:
    with pytest.raises(ConfigError, match=said) as caught:
        base_repo("acme/widgets", {"_extends": value})
    assert "`_extends`" in str(caught.value)


def test_unknown_keys_are_left_out_with_did_you_mean_and_the_rest_applies() -> None:
    text = (
        "languagee: zh-CN\n"
        "timezone: Asia/Shanghai\n"
        "publish:\n  too: issue-comment\n  category: News\n"
        "alerts:\n  on: high\n  max_par_day: 3\n"
        "colour: blue\n"
    )
    config, origin = parse_with_origin(text)
    assert (config.timezone, config.publish.category, config.alerts.on) == (
        "Asia/Shanghai",
        "News",
        ["high"],
    )
    assert config.language == "en"  # the misspelt key set nothing
    assert origin.ignored == (
        "`alerts.max_par_day` (did you mean `alerts.max_per_day`?)",
        "`colour`",
        "`languagee` (did you mean `language`?)",
        "`publish.too` (did you mean `publish.to`?)",
    )
    assert origin.source_of("languagee") is None
    assert origin.source_of("timezone") == FILE


def test_an_unknown_key_beside_a_wrong_value_still_rejects_the_file() -> None:
    with pytest.raises(ConfigError, match="`timezone`"):
        parse_with_origin("timezone: Nowhere/Special\ncolour: blue\n")


# --- end to end, through the fake GitHub ---------------------------------------------------


def _serve(github: FakeGitHub, *, org_installation: int | None = None) -> int:
    first = replay_pushes(REPO, DAY)[0]["payload"]
    installation = first["installation"]["id"]
    data = replay_day(REPO, DAY)
    github.load_replay(REPO, DAY, installation_id=installation, repo_id=first["repository"]["id"])
    assert data["commits"]
    github.add_repo(
        ORG_REPO,
        repo_id=1,
        installation_id=org_installation or installation,
    )
    return first["repository"]["id"]


async def _start(app_client: Callable[..., Any]) -> TestClient[Any, Any]:
    client = await app_client()
    await deliver_replay(client, replay_pushes(REPO, DAY)[0])
    await client.app[EXECUTOR].drain()
    return client


async def _refresh(client: TestClient[Any, Any], repo_id: int, clock: FakeClock) -> Any:
    store = client.app[STORE]
    await store.jobs.enqueue(RefreshConfigPayload(repo_id=repo_id), clock.now(), rearm=True)
    await client.app[EXECUTOR].drain()
    return await store.repos.get(repo_id)


def _zone(repo: Any) -> str:
    return str((repo.config or {}).get("timezone", "UTC"))


def _config_reads(github: FakeGitHub, repo: str) -> list[int]:
    return [c.status for c in github.calls if c.path == f"/repos/{repo}/contents/{PATH}"]


async def test_the_orgs_file_applies_to_a_repository_without_its_own(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo_id = _serve(github)
    github.repos[ORG_REPO].files[PATH] = "timezone: Asia/Shanghai\nlanguage: zh-CN\n"
    client = await _start(app_client)
    repo = await client.app[STORE].repos.get(repo_id)
    assert (_zone(repo), repo.config["language"], repo.config_error) == (
        "Asia/Shanghai",
        "zh-CN",
        None,
    )
    assert repo.config_origin.base == ORG_REPO
    assert repo.config_origin.source_of("timezone") == BASE
    assert repo.config_in_force_sha is None  # the repository has no file of its own


async def test_extends_starts_from_the_orgs_file_and_overrides_keys(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo_id = _serve(github)
    github.repos[ORG_REPO].files[PATH] = (
        "timezone: Asia/Shanghai\nlanguage: zh-CN\npublish:\n  category: Org news\n"
    )
    github.repos[REPO].files[PATH] = "_extends: .github\nlanguage: en\n"
    client = await _start(app_client)
    repo = await client.app[STORE].repos.get(repo_id)
    assert _zone(repo) == "Asia/Shanghai"
    assert repo.config["language"] == "en"
    assert repo.config["publish"]["category"] == "Org news"
    assert repo.config_origin.source_of("language") == FILE
    assert repo.config_origin.source_of("publish.category") == BASE


async def test_a_file_without_extends_ignores_the_orgs(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo_id = _serve(github)
    github.repos[ORG_REPO].files[PATH] = "timezone: Asia/Shanghai\n"
    github.repos[REPO].files[PATH] = "cutoff: '09:00'\n"
    client = await _start(app_client)
    repo = await client.app[STORE].repos.get(repo_id)
    assert (_zone(repo), repo.config["cutoff"]) == ("UTC", "09:00")
    assert repo.config_origin.base is None
    assert _config_reads(github, ORG_REPO) == []


async def test_an_org_repository_outside_the_installation_is_not_read(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    # The org's `.github` belongs to another installation: this one's token gets 404.
    repo_id = _serve(github, org_installation=999)
    github.repos[ORG_REPO].files[PATH] = "timezone: Asia/Shanghai\n"
    client = await _start(app_client)
    repo = await client.app[STORE].repos.get(repo_id)
    assert (_zone(repo), repo.config, repo.config_error) == ("UTC", None, None)
    assert _config_reads(github, ORG_REPO) == [404]
    # Named explicitly, an unreadable base is an error: the last good config stays.
    github.repos[REPO].files[PATH] = "_extends: .github\ncutoff: '09:00'\n"
    repo = await _refresh(client, repo_id, clock)
    assert repo.config is None
    assert f"no {PATH} in {ORG_REPO} that the App can read" in repo.config_error


async def test_an_unchanged_org_file_is_read_conditionally_and_a_change_is_taken(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo_id = _serve(github)
    github.repos[ORG_REPO].files[PATH] = "timezone: Asia/Shanghai\n"
    github.repos[REPO].files[PATH] = "_extends: .github\n"
    client = await _start(app_client)
    assert _config_reads(github, ORG_REPO) == [200]
    await _refresh(client, repo_id, clock)
    # Both files answered 304: nothing was read again, nothing counted against the limit.
    assert _config_reads(github, REPO)[-1] == 304
    assert _config_reads(github, ORG_REPO) == [200, 304]
    github.repos[ORG_REPO].files[PATH] = "timezone: Europe/Paris\n"
    repo = await _refresh(client, repo_id, clock)
    assert _zone(repo) == "Europe/Paris"
    assert repo.config_origin.source_of("timezone") == BASE


async def test_an_invalid_org_file_is_named_and_the_last_good_config_stays(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo_id = _serve(github)
    github.repos[ORG_REPO].files[PATH] = "timezone: Asia/Shanghai\n"
    client = await _start(app_client)
    github.repos[ORG_REPO].files[PATH] = "timezone: [Asia\n"
    repo = await _refresh(client, repo_id, clock)
    assert _zone(repo) == "Asia/Shanghai"
    assert repo.config_error.startswith(f"{ORG_REPO}: {PATH}: YAML syntax error")


async def test_unknown_keys_are_stored_with_the_config_they_left(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo_id = _serve(github)
    github.repos[REPO].files[PATH] = "languagee: zh-CN\ntimezone: Asia/Shanghai\n"
    client = await _start(app_client)
    repo = await client.app[STORE].repos.get(repo_id)
    assert (_zone(repo), repo.config_error) == ("Asia/Shanghai", None)
    assert repo.config_origin.ignored == ("`languagee` (did you mean `language`?)",)


# --- `/digest config` says where each value came from ----------------------------------------


async def test_digest_config_marks_the_orgs_values_the_files_and_the_defaults(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    org = "octo-org/.github"
    github.add_repo(org, repo_id=4343, installation_id=77).files[PATH] = (
        "timezone: Asia/Shanghai\ncutoff: '09:00'\n"
    )
    fake = github.add_repo(CMD_REPO, repo_id=4242, installation_id=77)
    fake.files[PATH] = "_extends: .github\ncutoff: '18:00'\nlanguagee: zh-CN\n"
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest config")
    await command(client, github, payload)
    reply = only_reply(github, payload)
    assert '- `timezone`: `"Asia/Shanghai"` (`octo-org/.github`)' in reply
    assert '- `cutoff`: `"18:00"` (file)' in reply
    assert '- `language`: `"en"` (default)' in reply
    assert "It starts from `.github/commit-digest.yml` in `octo-org/.github` (`_extends`)" in reply
    assert "Unknown keys, ignored (the file's other keys apply): `languagee`" in reply
    assert "did you mean `language`?" in reply


async def test_digest_config_of_a_repository_without_a_file_names_the_orgs(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    github.add_repo("octo-org/.github", repo_id=4343, installation_id=77).files[PATH] = (
        "language: zh-CN\n"
    )
    client, _ = await app_with_repo(app_client, github)
    payload = in_issue(github, "/digest config")
    await command(client, github, payload)
    reply = only_reply(github, payload)
    assert "来自组织的默认配置：`octo-org/.github` 中的 `.github/commit-digest.yml`" in reply
    assert '- `language`: `"zh-CN"` (`octo-org/.github`)' in reply
    assert '- `timezone`: `"UTC"` (默认)' in reply


# --- the footer says which keys were ignored -------------------------------------------------


async def test_the_posted_digests_footer_names_the_ignored_keys(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    _serve(github)
    github.repos[REPO].files[PATH] = "timezone: Asia/Shanghai\ncutof: '09:00'\n"
    client = await _start(app_client)
    clock.current = datetime(2026, 6, 24, 1, 0, tzinfo=UTC)
    await publish_round(client)
    (discussion,) = github.repos[REPO].discussions
    body = discussion["body"]
    assert "`.github/commit-digest.yml` has unknown keys, ignored (its other keys apply)" in body
    assert "`cutof` (did you mean `cutoff`?)" in body
    assert "2026-06-23" in discussion["title"]  # the valid `timezone` beside it applied


async def test_a_push_to_the_orgs_file_rereads_the_orgs_repositories(
    app_client: Callable[..., Any], github: FakeGitHub, clock: FakeClock
) -> None:
    repo_id = _serve(github)
    github.repos[ORG_REPO].files[PATH] = "timezone: Asia/Shanghai\n"
    client = await _start(app_client)
    github.repos[ORG_REPO].files[PATH] = "timezone: Europe/Paris\n"
    push = copy.deepcopy(replay_pushes(REPO, DAY)[1]["payload"])
    org = github.repos[ORG_REPO]
    push["repository"].update(id=org.id, node_id=org.node_id, name=".github", full_name=ORG_REPO)
    push["ref"] = f"refs/heads/{push['repository']['default_branch']}"
    push["commits"] = push["commits"][:1]
    push["commits"][0]["modified"] = [PATH]
    for commit in push["commits"]:
        org.commits[commit["id"]] = github.repos[REPO].commits[commit["id"]]
    assert (await deliver(client, "push", push))[0] == 202
    await client.app[EXECUTOR].drain()
    repo = await client.app[STORE].repos.get(repo_id)
    assert _zone(repo) == "Europe/Paris"
    assert repo.config_origin.base == ORG_REPO
