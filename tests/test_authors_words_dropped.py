"""The author's words for a change where they were dropped: a changelog entry under an
`UNRELEASED` heading, an entry beside a line added to an older item, and a squashed branch's
later steps never read as the description (each shaped like the real commit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

PLUGIN = (
    "def spy(obj, name):\n"
    "    result = getattr(obj, name)\n"
    "    spy_obj = Spy(result)\n"
    "    return spy_obj\n" + "".join(f"\n\ndef helper{i}():\n    return {i}\n" for i in range(8))
)
SPY_ITER = PLUGIN.replace(
    "    return spy_obj\n",
    "    spy_obj.spy_return_iter = None\n    return spy_obj\n",
)
RST_HEAD = "Releases\n========\n\n"
RST_OLDER = "3.14.1 (2025-05-26)\n-------------------\n\n* Older item.\n"
RST_ENTRY = (
    "UNRELEASED\n----------\n\n"
    "* `#524 <https://github.com/pytest-dev/pytest-mock/pull/524>`_: Added ``spy_return_iter`` "
    "to ``mocker.spy``, which contains a duplicate of the return value of the spied method if "
    "it is an ``Iterator``.\n\n"
)


def test_an_entry_under_an_upper_case_unreleased_heading_is_read(tmp_path: Path) -> None:
    # pytest-mock 5aa9e9c: "UNRELEASED" was read as a release's prose, the entry dropped; the
    # summary was "Adds the tests `test_spy_return_iter`, …"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.rst": RST_HEAD + RST_OLDER, "src/pytest_mock/plugin.py": PLUGIN},
        {"CHANGELOG.rst": RST_HEAD + RST_ENTRY + RST_OLDER, "src/pytest_mock/plugin.py": SPY_ITER},
        "Add `spy_return_iter` attribute to `spy` (#524)\n\n\n---------\n\n"
        "Co-authored-by: Bruno Oliveira <bruno@soliv.dev>",
    )
    assert "duplicate of the return value of the spied method" in analysis.summary
    assert Verdict.FALSE not in verdicts


CORE = "class ServicePing:\n    def ping(self):\n        return self._ping()\n" + "".join(
    f"\n\ndef helper{i}():\n    return {i}\n" for i in range(8)
)
APING = CORE.replace(
    "        return self._ping()\n",
    "        return self._ping()\n\n    async def aping(self):\n        return await self._ping()\n",
)
MD_HEAD = "# Changelog\n\n## [Unreleased](https://github.com/hynek/svcs/compare/1.0.0...HEAD)\n\n"
MD_OLD_ITEM = (
    "### Added\n\n"
    "- Async method `Container.aget()`.\n"
    "  This was necessary for generator-based cleanups.\n"
)
MD_NEW = (
    "  It works with sync factories too, so you can use it universally in async code.\n"
    "- Async method `ServicePing.aping()`.\n"
    "  It works with sync factories and pings too, so you can use it universally in async "
    "code.\n"
)
MD_TAIL = "\n\n### Changed\n\n- Something older.\n"


def test_an_entry_beside_a_line_added_to_an_older_item_is_read(tmp_path: Path) -> None:
    # svcs 8e2e518: the line added under `Container.aget()` (an earlier change's item) was read
    # as a release's prose and the whole entry dropped; the summary listed names
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.md": MD_HEAD + MD_OLD_ITEM + MD_TAIL, "src/svc_reg/_core.py": CORE},
        {"CHANGELOG.md": MD_HEAD + MD_OLD_ITEM + MD_NEW + MD_TAIL, "src/svc_reg/_core.py": APING},
        "Add ServicePing.aping() & make aget() work w/ sync factories/values (#4)",
    )
    assert "sync factories and pings too" in analysis.summary
    # the older item's line is not this entry's
    assert "sync factories too," not in analysis.summary
    assert Verdict.FALSE not in verdicts


SSL = "class Listener:\n    def accept(self):\n        return self._accept()\n" + "".join(
    f"\n\ndef helper{i}():\n    return {i}\n" for i in range(8)
)
SSL_TYPED = SSL.replace("    def accept(self):\n", "    def accept(self) -> object:\n")
# GitHub's squash message as written on Windows ("\r\n"), its one-line steps first and a later
# step with a text of its own
SQUASH = "\r\n".join(
    [
        "Add type annotations for `_ssl.py` (#2745)",
        "",
        "* Somehow this did not get in to edbf981",
        "",
        "* Add type annotations to `_ssl.py`",
        "",
        "* Fix for pre-3.10",
        "",
        "* Revert changes to `_highlevel_ssl_helpers`",
        "Apparently already being handled in #2756",
        "",
        "* Remove `_ssl` from not fully typed block",
        "",
        "---------",
        "",
        "Co-authored-by: CoolCat467 <CoolCat467@users.noreply.github.com>",
    ]
)


def test_a_squashed_branchs_later_step_is_no_description(tmp_path: Path) -> None:
    # trio f9fdeb7: the squash log's one-line steps were cut away, and the later step left
    # ("Revert changes to … Apparently already being handled in #2756") read as the summary
    analysis, verdicts = checked_entry(
        tmp_path, {"trio/_ssl.py": SSL}, {"trio/_ssl.py": SSL_TYPED}, SQUASH
    )
    assert "Apparently" not in analysis.summary
    assert "Revert" not in analysis.summary
    assert Verdict.FALSE not in verdicts
