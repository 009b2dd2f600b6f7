"""`.github/commit-digest.yml`: valid, missing and broken files, and the errors users read."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, time
from typing import Any

import pytest

from bot.app import EXECUTOR, STORE
from bot.repo_config import CONFIG_PATH, ConfigError, parse_config, tracks
from bot.store.jobs import JobKind
from bot.store.schema import repositories
from tests.fakes.github import FakeGitHub
from tests.scenarios import rows
from tests.support import deliver_replay, replay_pushes

REPO = "vllm-project/llm-compressor"
DAY = "2026-06-22"


def test_empty_or_missing_file_means_defaults() -> None:
    for text in ("", "# nothing here\n"):
        config = parse_config(text, default_language="zh-CN")
        assert config.timezone == "UTC" and config.cutoff == "00:00"
        assert config.language == "zh-CN"
        assert config.branches is None and config.skip_empty_days is True
        assert config.publish.to == "discussion"


def test_a_full_config() -> None:
    config = parse_config(
        """
timezone: Asia/Shanghai
cutoff: "09:30"
language: zh-CN
branches: [main, "release/*"]
publish:
  to: issue-comment
  issue: 42
  title: "{repo} digest for {date}"
skip_empty_days: false
exclude:
  authors: ["dependabot[bot]"]
  paths: ["docs/**", "*.lock"]
  messages: ["^chore\\\\(deps\\\\)"]
"""
    )
    assert config.schedule.zone.key == "Asia/Shanghai"
    assert config.schedule.cutoff == time(9, 30)
    assert config.branches == ["main", "release/*"]
    assert config.publish.issue == 42 and config.publish.to == "issue-comment"
    assert (
        config.exclude.reason(author="x", login="dependabot[bot]", message="m", paths=[])
        == "author"
    )
    assert (
        config.exclude.reason(author="a", login=None, message="chore(deps): bump", paths=[])
        == "message"
    )
    assert config.exclude.reason(author="a", login=None, message="m", paths=["uv.lock"]) == "paths"
    # A commit that also touches code is not excluded by its docs.
    assert (
        config.exclude.reason(author="a", login=None, message="m", paths=["docs/a.md", "src/a.py"])
        is None
    )


def test_unquoted_cutoff_is_understood() -> None:
    # YAML 1.1 reads 09:00 as the base-60 integer 540; the file is read as YAML 1.2 reads it.
    assert parse_config("cutoff: 09:00\n").cutoff == "09:00"
    assert parse_config("weekly:\n  cutoff: 18:30\n").weekly.cutoff == "18:30"


@pytest.mark.parametrize("text", ["cutoff: 900\n", "cutoff: 9.30\n", "weekly:\n  cutoff: 1530\n"])
def test_a_number_is_no_cutoff(text: str) -> None:
    """`900` is no time a reader can be sure of (09:00? 15:00 as base-60?): refused, with
    the form to write."""
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    assert 'must be "HH:MM" in quotes' in str(caught.value)


def test_a_refused_value_is_named_beside_the_values_as_they_must_be_written() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config("language: zh-cn\n")
    message = str(caught.value)
    # The accepted spelling as the file must hold it, and the value refused.
    assert "'zh-CN'" in message and "'en'" in message and "not 'zh-cn'" in message


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("timezone: Mars/Olympus\n", ["`timezone`", "IANA"]),
        # Files of the server's zone database, not zones: `localtime` is the server's own zone.
        ("timezone: localtime\n", ["`timezone`", "IANA"]),
        ("timezone: posixrules\n", ["`timezone`", "IANA"]),
        ("cutoff: '25:00'\n", ["`cutoff`", "HH:MM"]),
        ("language: fr\n", ["`language`", "'en'"]),
        ("publish:\n  to: slack\n", ["`publish.to`", "discussion"]),
        ("publish:\n  issue: 0\n", ["`publish.issue`"]),
        # GitHub's issue numbers are 32-bit: no such issue can exist.
        ("publish:\n  issue: 99999999999999999999\n", ["`publish.issue`"]),
        ("publish:\n  title: '{repository} {date}'\n", ["`publish.title`", "{repo}"]),
        ("exclude:\n  messages: ['(unclosed']\n", ["`exclude.messages`", "regular expression"]),
        ("branches: []\n", ["`branches`"]),
        ("- just\n- a list\n", ["expected a mapping"]),
        ("timezone: [UTC\n", ["YAML syntax error", "line"]),
    ],
)
def test_broken_files_name_the_key_and_the_problem(text: str, names: list[str]) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    message = str(caught.value)
    assert message.startswith(".github/commit-digest.yml")
    for name in names:
        assert name in message


@pytest.mark.parametrize(
    ("branch", "default_branch", "patterns", "tracked"),
    [
        # No `branches`: the default branch only.
        ("main", "main", None, True),
        ("dev", "main", None, False),
        ("main", None, None, False),  # the default branch is not known yet
        # An empty list names no branch: the default holds (the config refuses one anyway).
        ("main", "main", (), True),
        ("dev", "main", (), False),
        # Globs, matched as written: the default branch only if one names it.
        ("release/v2", "main", ("main", "release/*"), True),
        ("main", "main", ("main", "release/*"), True),
        ("feature/x", "main", ("main", "release/*"), False),
        ("main", "main", ("release/*",), False),
        ("Main", "main", None, False),  # git's names are case-sensitive
        ("MAIN", "main", ("main",), False),
    ],
)
def test_which_branches_are_tracked(
    branch: str, default_branch: str | None, patterns: tuple[str, ...] | None, tracked: bool
) -> None:
    assert tracks(branch, default_branch=default_branch, patterns=patterns) is tracked


def test_oversized_file_is_refused() -> None:
    with pytest.raises(ConfigError, match="larger than"):
        parse_config("# " + "x" * 70_000)


# --- hostile files ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "title",
    ["{date:>300000000}", "{date:>40}", "{date!r}", "{repo.__class__}", "{0}", "{}", "{date[0]}"],
)
def test_no_format_spec_or_attribute_reaches_a_title(title: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(f"publish:\n  title: '{title}'\n")
    assert "`publish.title`" in str(caught.value)
    assert "{weekday}" in str(caught.value)


def test_titles_substitute_named_fields_within_githubs_limit() -> None:
    config = parse_config("publish:\n  title: '{{{owner}}} {name} — {weekday} {date}'\n")
    title = config.publish.title_for("acme/app", date(2026, 7, 10), language="en", default="x")
    assert title == "{acme} app — Friday 2026-07-10"
    zh = config.publish.title_for("acme/app", date(2026, 7, 10), language="zh-CN", default="x")
    assert "星期五" in zh
    # GitHub refuses titles over 256 characters: a long repository name still fits.
    long = parse_config("publish:\n  title: '" + "{repo} " * 28 + "'\n")
    title = long.publish.title_for(
        "o" * 39 + "/" + "r" * 100, date(2026, 7, 10), language="en", default="x"
    )
    assert len(title) <= 256 and title.endswith("…")


def test_a_backtracking_pattern_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config("exclude:\n  messages: ['^chore', '^(a+)+$']\n")
    assert "`exclude.messages`" in str(caught.value) and "item 1" in str(caught.value)
    assert "too long" in str(caught.value)


@pytest.mark.parametrize("pattern", ["(?:a{200}){200}", "x{50000}", "(?:[0-9a-f]{40} ){300}"])
def test_a_pattern_whose_counted_repeats_multiply_out_is_a_config_error(pattern: str) -> None:
    # `regex` writes out counted repeats when it compiles: `a{1000000}` costs 270 MB and
    # `x{4294967294}` takes the process down, before any time limit applies.
    with pytest.raises(ConfigError) as caught:
        parse_config(f"exclude:\n  messages: ['^chore', '{pattern}']\n")
    assert "`exclude.messages`" in str(caught.value) and "item 1" in str(caught.value)
    assert "repeats" in str(caught.value)
    # Counted repeats of everyday size are fine.
    parse_config("exclude:\n  messages: ['^[0-9a-f]{40}$', '\\d{4}-\\d{2}-\\d{2}', 'a{2,}']\n")


def test_a_pattern_that_times_out_on_a_message_is_ignored_from_then_on() -> None:
    # It gets through the checks at parse time, but backtracks on this one message.
    exclude = parse_config("exclude:\n  messages: ['^(a(b|bb)+)+$']\n").exclude
    assert exclude.reason(author="x", login=None, message="abb", paths=[]) == "message"
    hostile = "a" + "b" * 40 + "!"
    assert exclude.problem() is None
    assert exclude.reason(author="x", login=None, message=hostile, paths=[]) is None
    assert exclude.reason(author="x", login=None, message="abb", paths=[]) is None
    # Reported as a config error (the digest's footer shows it), naming the item.
    problem = exclude.problem()
    assert problem is not None
    assert problem.startswith("`exclude.messages`: item 0") and "ignored" in problem


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('publish:\n  title: "Digest \\0 {date}"\n', "publish.title"),
        ('exclude:\n  authors: [bot, "a\\0b"]\n', "exclude.authors.1"),
        ('branches: ["main\\0"]\n', "branches.0"),
    ],
)
def test_a_nul_character_is_a_config_error_naming_the_key(text: str, key: str) -> None:
    # YAML's "\0" escape: the saved config is JSONB on PostgreSQL, which refuses NUL.
    with pytest.raises(ConfigError, match=f"`{re.escape(key)}`: contains a NUL"):
        parse_config(text)


@pytest.mark.parametrize("text", ["a: " + "[" * 2000 + "]" * 2000, "a:\n" + "- " * 3000 + "x"])
def test_deeply_nested_yaml_is_a_config_error(text: str) -> None:
    with pytest.raises(ConfigError, match="nested too deeply"):
        parse_config(text)


@pytest.mark.parametrize("value", ["yes", "no", "on", "true"])
def test_a_boolean_cutoff_is_an_error_naming_the_key(value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(f"cutoff: {value}\n")
    assert "`cutoff`" in str(caught.value) and "HH:MM" in str(caught.value)
    with pytest.raises(ConfigError) as caught:
        parse_config(f"weekly:\n  enabled: true\n  cutoff: {value}\n")
    assert "`weekly.cutoff`" in str(caught.value) and "HH:MM" in str(caught.value)


@pytest.mark.parametrize("content", [b"timezone: UTC\nlanguage: \xff\xfe\n", "cutoff: '\udcff'\n"])
def test_a_file_that_is_not_utf8_is_a_config_error(content: str | bytes) -> None:
    with pytest.raises(ConfigError, match="not UTF-8 text") as caught:
        parse_config(content)
    assert "line 2" in str(caught.value) or "line 1" in str(caught.value)


async def test_a_file_on_github_that_is_not_utf8_is_reported_not_a_crash(
    app_client: Callable[..., Any], github: FakeGitHub
) -> None:
    push = replay_pushes(REPO, DAY)[0]
    github.load_replay(
        REPO,
        DAY,
        installation_id=push["payload"]["installation"]["id"],
        repo_id=push["payload"]["repository"]["id"],
    )
    github.repos[REPO].files[CONFIG_PATH] = "timezone: Asia/Shanghai\n# café\n".encode("latin-1")
    client = await app_client()
    assert await deliver_replay(client, push) == 202
    await client.app[EXECUTOR].drain(kinds=[JobKind.REFRESH_CONFIG])
    (repo,) = await rows(client, repositories)
    assert repo.config_error == f"{CONFIG_PATH} is not UTF-8 text (an invalid byte on line 2)"
    assert repo.timezone == "UTC"
    # Read once and settled: no job left to read it again (and no crash that retries it).
    job = await client.app[STORE].jobs.get(JobKind.REFRESH_CONFIG, str(repo.id))
    assert job.state == "done" and job.attempts == 1
