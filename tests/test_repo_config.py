"""`.github/commit-digest.yml`: valid, missing and broken files, and the errors users read."""

from __future__ import annotations

from datetime import time

import pytest

from bot.repo_config import ConfigError, parse_config


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
    assert config.tracks("release/v2", "main") and not config.tracks("feature/x", "main")
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
    # YAML 1.1 reads 09:00 as the base-60 integer 540.
    assert parse_config("cutoff: 09:00\n").cutoff == "09:00"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("timezone: Mars/Olympus\n", ["`timezone`", "IANA"]),
        ("cutoff: '25:00'\n", ["`cutoff`", "HH:MM"]),
        ("language: fr\n", ["`language`", "'en'"]),
        ("publish:\n  to: slack\n", ["`publish.to`", "discussion"]),
        ("publish:\n  issue: 0\n", ["`publish.issue`"]),
        ("publish:\n  title: '{repository} {date}'\n", ["`publish.title`", "{repo}"]),
        ("timzone: UTC\n", ["`timzone`", "unknown key"]),
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


def test_oversized_file_is_refused() -> None:
    with pytest.raises(ConfigError, match="larger than"):
        parse_config("# " + "x" * 70_000)
