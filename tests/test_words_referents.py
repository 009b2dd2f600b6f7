"""A sentence that leans on another ("Same for *columns*.", "Keep it at first position …")
is never the summary without what it leans on (structlog's commits, each shaped like one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.messages import leans
from bot.analysis.summary import authored_summary
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# structlog's CHANGELOG.md before b0081ac, shortened: the item the next ones lean on
CHANGELOG = (
    "# Changelog\n\n## [Unreleased](https://github.com/hynek/structlog/compare/25.4.0...HEAD)\n\n"
    "### Added\n\n"
    "- `structlog.dev.ConsoleRenderer()` now supports setting the `exception_formatter` "
    "attribute.\n\n"
    "  You can now disable the pretty-printing of exceptions by setting it to "
    "`structlog.dev.plain_traceback`:\n\n"
    "  ```python\n  cr.exception_formatter = structlog.dev.plain_traceback\n  ```\n"
    "  [#749](https://github.com/hynek/structlog/pull/749)\n\n"
    "- Same for *sort_keys*.\n  [#756](https://github.com/hynek/structlog/pull/756)\n\n"
    "- `structlog.testing.capture_logs()` now optionally accepts *processors*.\n"
    "  [#728](https://github.com/hynek/structlog/pull/728)\n"
)
DEV = "class ConsoleRenderer:\n    def __init__(self, columns=None):\n        self._columns = columns\n"
DEV_COLUMNS = DEV + (
    "\n    @property\n    def columns(self):\n        return self._columns\n\n"
    "    @columns.setter\n    def columns(self, value):\n        self._columns = value\n"
)


def test_an_item_that_leans_on_an_older_commits_item_is_not_shown(tmp_path: Path) -> None:
    # structlog b0081ac / 1e51f5f: the title alone, and "- Same for *columns*." added to the
    # changelog; the summary was "Same for columns.", then (a reader's pass) "… now supports
    # setting the `exception_formatter` attribute. Same for columns.": #749's item, a day
    # older, credited to this commit
    after = CHANGELOG.replace(
        "- `structlog.testing",
        "- Same for *columns*.\n  [#757](https://github.com/hynek/structlog/pull/757)\n\n"
        "- `structlog.testing",
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGELOG.md": CHANGELOG, "src/structlog/dev.py": DEV},
        {"CHANGELOG.md": after, "src/structlog/dev.py": DEV_COLUMNS},
        "dev: allow columns to be got and set (#757)",
    )
    assert "exception_formatter" not in analysis.summary
    assert "Same for" not in analysis.summary


def test_an_item_that_leans_on_this_commits_item_is_said_with_it(tmp_path: Path) -> None:
    bare = "# Changelog\n\n## Unreleased\n\n### Added\n\n"
    added = "- `ConsoleRenderer.colors` can now be set.\n- Same for *force_colors*.\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGELOG.md": bare, "src/structlog/dev.py": DEV},
        {"CHANGELOG.md": bare + added, "src/structlog/dev.py": DEV_COLUMNS},
        "dev: add colors and force_colors properties",
    )
    assert analysis.summary == "`ConsoleRenderer.colors` can now be set. Same for force_colors."


def test_a_changelog_item_without_its_referent_is_not_shown(tmp_path: Path) -> None:
    # the same item where the changelog holds nothing it could lean on
    bare = "# Changelog\n\n## Unreleased\n\n### Added\n\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGELOG.md": bare, "src/structlog/dev.py": DEV},
        {"CHANGELOG.md": bare + "- Same for *columns*.\n", "src/structlog/dev.py": DEV_COLUMNS},
        "dev: allow columns to be got and set (#757)",
    )
    assert "Same for" not in analysis.summary


def test_a_bodys_sentence_whose_pronoun_points_outside_is_no_summary() -> None:
    # structlog 8b3b270: "Keep it at first position …" was the summary
    body = [
        "It's confusing to have a bool pad_level and an int pad_event.",
        "Keep it at first position such that positional uses aren't affected.",
    ]
    summary = authored_summary(
        (), body, "dev: add pad_event_to property, rename argument", limit=400
    )
    assert summary == "It's confusing to have a bool pad_level and an int pad_event."


@pytest.mark.parametrize(
    ("sentence", "leaning"),
    [
        ("Keep it at first position such that positional uses aren't affected.", True),
        ("Same for *columns*.", True),
        # multidict 8dc666e
        ("It is an optimization that eliminates `malloc()`/`free()` calls.", True),
        # yarl f8ba967
        ("They haven't been in use for quite a while.", True),
        # pytest-asyncio ee0a6be's fragment, its second sentence
        ("Use the ``pytest_asyncio_loop_factories`` hook instead.", True),
        ("It's confusing to have a bool pad_level and an int pad_event.", False),
        ("It's now possible to pass *attrs* instances to `attrs.fields()`.", False),
        ("This adds a `--debug` flag.", False),
        ("Make it possible to pass a loop factory.", False),
    ],
)
def test_what_leans_on_a_sentence_before_it(sentence: str, leaning: bool) -> None:
    assert leans(sentence) is leaning
