"""Config bombs: every hostile `.github/commit-digest.yml` is one error line naming its key,
online and offline, read off the event loop so webhooks go on being answered."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.jobs.refresh_config
from bot.app import EXECUTOR, STORE
from bot.repo_config import CONFIG_PATH, ConfigError, RepoConfig, parse_config, read_mapping
from bot.store.jobs import JobKind
from bot.store.schema import repositories
from tests.bombs import BOMBS
from tests.clones import _config, _digest, repo
from tests.fakes.github import FakeGitHub
from tests.scenarios import rows
from tests.support import deliver_replay, replay_pushes

REPO = "vllm-project/llm-compressor"
DAY = "2026-06-22"
__all__ = ["repo"]  # the offline tests' clone fixture

# The offline digest runs in-process: it must not point the suite's logging at a captured stream.
pytestmark = pytest.mark.usefixtures("keep_test_logging")


@pytest.mark.parametrize(("name", "text", "key", "words"), BOMBS, ids=[b[0] for b in BOMBS])
def test_each_bomb_is_one_line_naming_its_key(name: str, text: str, key: str, words: str) -> None:
    assert len(text.encode()) <= 64 * 1024, name  # within the file size the App reads
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300
    assert message.startswith(f"{CONFIG_PATH}: {key}")
    assert words in message


@pytest.mark.parametrize(
    "text",
    [
        # Anchors and aliases a real file uses stay fine.
        "exclude:\n  authors: &bots [dependabot, renovate]\nalerts:\n  on: [breaking]\n",
        "a: &x 3\nalerts:\n  max_per_day: 12345678901234567890\n",
        "exclude:\n  paths:\n" + "".join(f"    - 'docs/{i}/**'\n" for i in range(100)),
    ],
)
def test_ordinary_files_are_within_the_bounds(text: str) -> None:
    try:
        config = parse_config(text)
    except ConfigError as exc:
        # Only the schema may refuse them (an unknown key, a too-large number), never a bound.
        assert "unknown key" in str(exc) or "less than or equal" in str(exc), str(exc)
    else:
        assert isinstance(config, RepoConfig)


async def _first_push(github: FakeGitHub) -> dict[str, Any]:
    github.serve_replay_day(REPO, DAY)
    return replay_pushes(REPO, DAY)[0]


@pytest.mark.parametrize(
    ("text", "key"),
    [(BOMBS[0][1], "`llm.for"), (BOMBS[6][1], "`cutoff`"), (BOMBS[9][1], "`exclude`")],
    ids=["anchors", "digits", "keys"],
)
async def test_the_app_reports_a_bomb_once_as_the_config_error(
    app_client: Callable[..., Any], github: FakeGitHub, text: str, key: str
) -> None:
    push = await _first_push(github)
    github.repos[REPO].files[CONFIG_PATH] = text
    client = await app_client()
    assert await deliver_replay(client, push) == 202
    await client.app[EXECUTOR].drain(kinds=[JobKind.REFRESH_CONFIG])
    (row,) = await rows(client, repositories)
    assert row.config_error.startswith(f"{CONFIG_PATH}: {key}")
    assert "\n" not in row.config_error
    assert row.timezone == "UTC"  # nothing of the file applied, the defaults stand
    # Settled on the first attempt: a bomb is the file's fault, never a retry.
    job = await client.app[STORE].jobs.get(JobKind.REFRESH_CONFIG, str(row.id))
    assert job.state == "done" and job.attempts == 1


async def test_webhooks_are_answered_while_a_config_is_read(
    app_client: Callable[..., Any], github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    pushes = replay_pushes(REPO, DAY)
    await _first_push(github)
    github.repos[REPO].files[CONFIG_PATH] = "timezone: Asia/Shanghai\n"
    reading, release = threading.Event(), threading.Event()

    def slow_read(text: str) -> dict[Any, Any]:
        reading.set()
        # Were this on the event loop, the webhook below could not be answered: fail, not hang.
        assert release.wait(10), "the webhook was not answered while the config was read"
        return read_mapping(text)

    monkeypatch.setattr(bot.jobs.refresh_config, "read_mapping", slow_read)
    client = await app_client()
    assert await deliver_replay(client, pushes[0]) == 202
    refresh = asyncio.create_task(client.app[EXECUTOR].drain(kinds=[JobKind.REFRESH_CONFIG]))
    assert await asyncio.to_thread(reading.wait, 10)
    assert await deliver_replay(client, pushes[1]) == 202
    release.set()
    await refresh
    (row,) = await rows(client, repositories)
    assert row.timezone == "Asia/Shanghai" and row.config_error is None


async def test_a_read_past_the_time_bound_is_a_config_error(
    app_client: Callable[..., Any], github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    push = await _first_push(github)
    github.repos[REPO].files[CONFIG_PATH] = "timezone: Asia/Shanghai\n"
    release = threading.Event()

    def stuck_read(text: str) -> dict[Any, Any]:
        release.wait(10)
        return read_mapping(text)

    monkeypatch.setattr(bot.jobs.refresh_config, "read_mapping", stuck_read)
    monkeypatch.setattr(bot.jobs.refresh_config, "PARSE_SECONDS", 0.05)
    client = await app_client()
    assert await deliver_replay(client, push) == 202
    try:
        await client.app[EXECUTOR].drain(kinds=[JobKind.REFRESH_CONFIG])
    finally:
        release.set()
    (row,) = await rows(client, repositories)
    assert row.config_error == f"{CONFIG_PATH}: took over 0.05 s to read, so it is refused"
    assert row.timezone == "UTC"


@pytest.mark.parametrize(
    ("name", "text", "key", "words"), BOMBS[::3], ids=[b[0] for b in BOMBS[::3]]
)
def test_offline_a_bomb_is_one_warning_line_and_the_defaults(
    repo: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, key: str, words: str
) -> None:
    _config(repo, text)
    out, err = _digest(capsys, "--git", str(repo), "--day", "2026-06-22")
    (warning,) = [line for line in err.splitlines() if "commit-digest.yml" in line]
    assert key in warning and words in warning
    assert "Traceback" not in err
    assert "Daily digest" in out and "Times are in UTC" in out
