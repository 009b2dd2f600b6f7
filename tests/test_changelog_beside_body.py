"""The entry a commit adds to its CHANGELOG.md is its author's words for users also beside a
body, and one item is the summary even where the body says what the change does; a release's
quoted items stand alone (structlog's commits, each shaped like one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.messages import changelog_entry
from bot.cli.claim_check import Verdict
from bot.models import FileChange
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

HEAD = (
    "# Changelog\n\n## [Unreleased](https://github.com/hynek/structlog/compare/25.5.0...HEAD)\n\n"
)
OLDER = "## [25.5.0](https://github.com/hynek/structlog/compare/25.4.0...25.5.0) - 2025-10-27\n"
OUTPUT = (
    "import threading\n\nWRITE_LOCKS = {}\n\n\ndef _get_lock_for_file(file):\n"
    "    lock = WRITE_LOCKS.get(file)\n    if lock is None:\n"
    "        lock = threading.Lock()\n        WRITE_LOCKS[file] = lock\n    return lock\n"
    + "".join(f"\n\ndef h{i}():\n    return {i}\n" for i in range(12))
)
WEAK = OUTPUT.replace("import threading\n", "import threading\nimport weakref\n").replace(
    "WRITE_LOCKS = {}", "WRITE_LOCKS = weakref.WeakKeyDictionary()"
)
LEAK_ENTRY = (
    "### Fixed\n\n"
    "- `structlog.BytesLogger`, `structlog.PrintLogger`, and `structlog.WriteLogger` now hold "
    "*weak* references to the files they use for output.\n"
    "  This prevents their leakage in long-running processes that open many logfiles, such as "
    "task executors that create a per-task `BytesLogger` or `WriteLogger`.\n"
    "  [#807](https://github.com/hynek/structlog/pull/807)\n\n"
)
SQUASHED = (
    "Use WeakKeyDictionary for WRITE_LOCKS to prevent file object leaks (#807)\n\n"
    "* Use WeakKeyDictionary for WRITE_LOCKS to prevent file object leaks\n\n"
    "File objects registered in WRITE_LOCKS were never released, causing a\n"
    "memory leak in long-running processes that open many log files (e.g.,\n"
    "task executors creating a per-task BytesLogger or WriteLogger).\n\n"
    "WeakKeyDictionary stores keys as weak references, so entries expire\n"
    "automatically when the last strong reference to a file object is\n"
    "dropped — no manual cleanup needed.\n\n"
    "Closes #806 (no need to expose it, we tidy it up correctly ourselves)\n\n"
    "* docs: rewrite changelog from user's perspective\n\n* tests: adapt style\n\n"
    "---------\n\nCo-authored-by: Hynek Schlawack <hs@ox.cx>"
)


def test_the_changelog_entry_is_the_summary_beside_a_bodys_story(tmp_path: Path) -> None:
    # structlog 79032b3: the body tells the leak and how a WeakKeyDictionary works; the
    # summary was "WeakKeyDictionary stores keys as weak references, …"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.md": HEAD + OLDER, "src/structlog/_output.py": OUTPUT},
        {"CHANGELOG.md": HEAD + LEAK_ENTRY + OLDER, "src/structlog/_output.py": WEAK},
        SQUASHED,
    )
    assert analysis.summary.startswith(
        "`structlog.BytesLogger`, `structlog.PrintLogger`, and `structlog.WriteLogger` now hold"
    )
    assert "This prevents their leakage" in analysis.summary
    assert "#807" not in analysis.summary and "WeakKeyDictionary stores" not in analysis.summary
    assert all(v is Verdict.TRUE for v in verdicts)


def test_the_one_changelog_item_leads_before_a_body_that_says_what_the_change_does(
    tmp_path: Path,
) -> None:
    # structlog ba04ac2: "This fix captures thread info …" is the author's own statement of
    # the change in the code's terms; the one CHANGELOG.md item says it for users, and is
    # the summary (issue 27: held-out readers preferred the changelog's words)
    entry = (
        "### Fixed\n\n- `structlog.processors.CallsiteParameterAdder` now reports the calling "
        "thread's id and name for async log methods, instead of the thread from the executor "
        "pool that runs the underlying sync logger.\n"
        "  [#805](https://github.com/hynek/structlog/pull/805)\n\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGELOG.md": HEAD + OLDER, "src/structlog/_output.py": OUTPUT},
        {"CHANGELOG.md": HEAD + entry + OLDER, "src/structlog/_output.py": WEAK},
        "Fix thread name CallsiteParameterAdder in async methods (issue #710) (#805)\n\n"
        "* Fix thread name CallsiteParameterAdder in async methods (issue #710)\n\n"
        "When using async logging methods (.ainfo(), etc.), the CallsiteParameterAdder\n"
        "processor was collecting thread information from the executor thread pool\n"
        "instead of the caller's thread.\n\n"
        "This fix captures thread info (thread_id and thread_name) before passing\n"
        "control to the executor thread, storing it in a contextvar.\n\n"
        "* Adjust code style, add changelog\n",
    )
    assert analysis.summary == (
        "`structlog.processors.CallsiteParameterAdder` now reports the calling thread's id and"
        " name for async log methods, instead of the thread from the executor pool that runs"
        " the underlying sync logger."
    )


def test_a_release_quotes_no_item_that_leans_on_the_one_before(tmp_path: Path) -> None:
    # structlog's "- Same for *sort_keys*." under the item it leans on: quoted alone in a
    # release's list it says nothing
    items = (
        "### Added\n\n"
        "- `ConsoleRenderer()` supports `exception_formatter`.\n"
        "  [#749](https://github.com/hynek/structlog/pull/749)\n"
        "- Same for *sort_keys*.\n  [#756](https://github.com/hynek/structlog/pull/756)\n"
        "- `capture_logs()` accepts *processors*.\n"
        "- `structlog.stdlib.render_to_log_args_and_kwargs()` passes `extra` on.\n"
        "- Python 3.14 is supported.\n\n"
    )
    release = "## [25.6.0](https://github.com/hynek/structlog/compare/25.5.0...25.6.0)\n\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"CHANGELOG.md": HEAD + OLDER, "src/structlog/_output.py": OUTPUT},
        {"CHANGELOG.md": HEAD + release + items + OLDER, "src/structlog/_output.py": OUTPUT},
        "Prepare 25.6.0",
    )
    text = " ".join([analysis.summary, *(analysis.insights or [])])
    assert "lists 5 new items" in text, text
    assert "Same for" not in text
    assert "capture_logs()" in text


def test_an_entry_that_is_all_the_commit_changes_is_no_summary(tmp_path: Path) -> None:
    # pytest-asyncio 9fd64da adds only a line under the released 0.24.0 for an option an
    # older commit added; the summary said "Added the … configuration option."
    rst = (
        "=========\nChangelog\n=========\n\n0.24.0 (2024-08-22)\n===================\n"
        "- BREAKING: Updated minimum supported pytest version to v8.2.0\n\n"
    )
    added = rst.replace(
        "v8.2.0\n",
        "v8.2.0\n- Added the ``asyncio_default_fixture_loop_scope`` configuration option "
        "`c74d1c3 <https://github.com/pytest-dev/pytest-asyncio/commit/c74d1c3>`_\n",
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"docs/reference/changelog.rst": rst},
        {"docs/reference/changelog.rst": added},
        "changelog += `asyncio_default_fixture_loop_scope`\n\n"
        "This config option is arguably a new API surface, and it took me a fair bit of git "
        "archaeology to figure out from which version on I can use this config option.\n\n"
        "This entry might save some users some time in the future :)",
    )
    assert not analysis.summary.startswith("Added the")


def test_an_item_s_leading_issue_reference_is_no_words_of_its(tmp_path: Path) -> None:
    # pytest-mock 4f59636 "Add SpyType for mocker.spy return type": CHANGELOG.rst's
    # "* `#547 <https://…/issues/547>`_: Added ``SpyType`` …"; the summary began "`#547`\_:"
    changelog = "Releases\n========\n\n3.15.1\n------\n\n* Older item.\n"
    entry = (
        "Unreleased\n----------\n\n"
        "* `#547 <https://github.com/pytest-dev/pytest-mock/issues/547>`_: Added ``SpyType`` "
        "for annotating ``mocker.spy`` results.\n\n"
    )
    plugin = "class MockType:\n    pass\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.rst": changelog, "src/pytest_mock/plugin.py": plugin},
        {
            "CHANGELOG.rst": changelog.replace("3.15.1\n", entry + "3.15.1\n", 1),
            "src/pytest_mock/plugin.py": plugin + "\n\nclass SpyType(MockType):\n    pass\n",
        },
        "Add SpyType for mocker.spy return type (#582)\n\nCloses #547",
    )
    assert analysis.summary == "Added `SpyType` for annotating `mocker.spy` results."
    assert all(v is Verdict.TRUE for v in verdicts)


_HISTORY = (
    "Version history\n===============\n\n**UNRELEASED**\n\n"
    "- Fixed ``TLSStream.wrap()`` matching an internationalized host name against the peer\n"
    "  certificate using IDNA 2003 instead of IDNA 2008\n"
    "  (`#1208 <https://github.com/agronholm/anyio/pull/1208>`_)\n"
    "{moved}\n**4.14.1**\n\n- Older item.\n"
)
_GROUPS = (
    "- Fixed ``anyio.open_process()`` (and ``run_process()``) ignoring the ``extra_groups``\n"
    "  argument, as it mistakenly passed the value of the ``group`` argument instead\n"
    "  (`#1209 <https://github.com/agronholm/anyio/pull/1209>`_)\n"
)
_SUBPROCESS = "def open_process(command, *, group=None, extra_groups=None):\n    return {}\n"


def test_a_version_history_is_a_changelog_and_its_long_instead_stands_alone(
    tmp_path: Path,
) -> None:
    # anyio eb562e6 "Fixed `extra_groups` not being passed to backend `open_process()`":
    # `docs/versionhistory.rst` was read as no changelog, and its item, ending "… instead",
    # as leaning on a sentence before it; the summary was "Adds the test …"
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "docs/versionhistory.rst": _HISTORY.format(moved=""),
            "src/anyio/_core/_subprocesses.py": _SUBPROCESS.format("group"),
        },
        {
            "docs/versionhistory.rst": _HISTORY.format(moved=_GROUPS),
            "src/anyio/_core/_subprocesses.py": _SUBPROCESS.format("extra_groups"),
        },
        "Fixed `extra_groups` not being passed to backend `open_process()` (#1209)",
    )
    assert analysis.summary == (
        "Fixed `anyio.open_process()` (and `run_process()`) ignoring the `extra_groups` "
        "argument, as it mistakenly passed the value of the `group` argument instead."
    )
    assert all(v is Verdict.TRUE for v in verdicts)


def test_an_item_moved_in_the_changelog_is_not_a_rewrite(tmp_path: Path) -> None:
    # anyio f1b7301 "Fixed stderr writes in a worker subprocess causing a deadlock": its item
    # went in where #1209's had been, which moved below #1208's; a changed item had read as
    # an older entry rewritten, and the summary was "Adds the test `test_stderr_flood`"
    before = _HISTORY.format(moved="").replace(
        "- Fixed ``TLSStream", _GROUPS + "- Fixed ``TLSStream"
    )
    item = (
        "- Fixed ``to_process.run_sync()`` deadlocking when the worker function writes enough\n"
        "  data to ``sys.stderr`` to fill the (undrained) pipe buffer\n"
    )
    after = _HISTORY.format(moved=_GROUPS).replace(
        "- Fixed ``TLSStream", item + "- Fixed ``TLSStream"
    )
    worker = "import sys\n\n\ndef process_worker():\n    sys.stdin = None\n{}    return 0\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"docs/versionhistory.rst": before, "src/anyio/to_process.py": worker.format("")},
        {
            "docs/versionhistory.rst": after,
            "src/anyio/to_process.py": worker.format("    sys.stderr = None\n"),
        },
        "Fixed stderr writes in a worker subprocess causing a deadlock (#1207)",
    )
    assert analysis.summary.startswith("Fixed `to_process.run_sync()` deadlocking when")
    assert "extra_groups" not in analysis.summary
    assert all(v is Verdict.TRUE for v in verdicts)


def test_an_item_named_as_a_thing_takes_its_section_s_verb(tmp_path: Path) -> None:
    # svcs 267fa1e "3.8 is EOL": "### Added" "- Python 3.13 support." and "### Removed"
    # "- Python 3.8 support."; the summary read "Python 3.13 support. Python 3.8 support.", as
    # if both were added. 30d5cd6 "Drop EOL 3.9" added "- Support for Python 3.9." under a
    # "### Removed" heading above its hunk
    head = "# Changelog\n\n## [Unreleased](https://github.com/hynek/svcs/compare/24.1.0...HEAD)\n\n"
    older = "## [24.1.0](https://github.com/hynek/svcs/compare/23.21.0...24.1.0) - 2024-01-25\n"
    changed = "### Changed\n\n- Flask: The registry is now stored on `app.extensions`.\n\n"
    entry = "### Added\n\n- Python 3.13 support.\n\n\n### Removed\n\n- Python 3.8 support.\n\n\n"
    code = {"src/svcs/__init__.py": "X = 1\n"}
    # (the commits change the CI's Pythons beside the changelog: a commit that only writes
    # its changelog records the items, test_words_distro.py)
    ci = ".github/workflows/ci.yml"
    matrix = "jobs:\n  tests:\n    strategy:\n      matrix:\n        python: [{}]\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.md": head + changed + older, ci: matrix.format('"3.8", "3.12"'), **code},
        {
            "CHANGELOG.md": head + entry + changed + older,
            ci: matrix.format('"3.9", "3.13"'),
            **code,
        },
        "3.8 is EOL",
    )
    assert analysis.summary == "Adds Python 3.13 support. Removes Python 3.8 support."
    assert all(v is Verdict.TRUE for v in verdicts)
    removed = (
        "### Removed\n\n- The Pyramid integration.\n" + "  [#135](https://x/135)\n" * 12 + "\n"
    )
    analysis, _ = checked_entry(
        tmp_path / "above",
        {"CHANGELOG.md": head + removed + changed + older, ci: matrix.format('"3.9"'), **code},
        {
            "CHANGELOG.md": head + removed + "- Support for Python 3.9.\n\n" + changed + older,
            ci: matrix.format('"3.10"'),
            **code,
        },
        "Drop EOL 3.9",
    )
    assert analysis.summary == "Removes support for Python 3.9."


def test_a_restructuredtext_link_keeps_its_words_and_a_reference_its_place(
    tmp_path: Path,
) -> None:
    # anyio fb81dfe "Fixed regression caused by (`#807 <…>`_) that prevented …" read "caused
    # by that prevented"; ede2029's "`truststore <…>`_ SSL certificate" lost "truststore"; an
    # item's "(`#1189 <…>`_; PR by @greymoth-jp)" left "PR by `@greymoth-jp`)"
    link = "https://github.com/agronholm/anyio/pull/"
    entry = (
        f"- Fixed regression caused by (`#807 <{link}807>`_)\n"
        "  that prevented the use of parametrized async fixtures\n"
        f"- Fixed ``TypeError`` when using a `truststore <https://pypi.org/p/truststore>`_\n"
        f"  SSL certificate (`#1189 <{link}1189>`_; PR by @greymoth-jp)\n"
    )
    history = "Version history\n===============\n\n**UNRELEASED**\n\n{}\n**4.14.1**\n\n- Older.\n"
    plugin = "def pytest_fixture_setup(fixturedef, request):\n    return {}\n"
    analysis, verdicts = checked_entry(
        tmp_path,
        {"docs/versionhistory.rst": history.format(""), "src/anyio/pytest_plugin.py": plugin},
        {
            "docs/versionhistory.rst": history.format(entry),
            "src/anyio/pytest_plugin.py": plugin.replace("{}", "None"),
        },
        "Fixed regression that prevented parametrized async fixtures",
    )
    assert analysis.summary.startswith(
        "Fixed regression caused by #807 that prevented the use of parametrized async fixtures."
    )
    assert "when using a truststore SSL certificate." in analysis.summary
    assert "PR by" not in analysis.summary and ")" not in analysis.summary
    assert all(v is Verdict.TRUE for v in verdicts)


def test_an_emphasised_name_of_a_parameter_takes_its_section_s_verb(tmp_path: Path) -> None:
    # A Keep a Changelog item under "### Added" that names the thing added, emphasised:
    # "- *salt* parameter to `argon2.PasswordHasher.hash()` to allow for custom salts." was
    # the summary as it stood, opening with a lower-case word and no verb
    head = "# Changelog\n\n## [Unreleased](https://github.com/o/r/compare/21.3.0...HEAD)\n\n"
    older = "## [21.3.0](https://github.com/o/r/compare/21.2.0...21.3.0) - 2021-12-11\n"
    added = "### Added\n\n- `InvalidHashError` as a replacement for `InvalidHash`.\n\n"
    item = (
        "- *salt* parameter to `hasher.PasswordHasher.hash()` to allow for custom salts.\n"
        "  This is only useful for specialized use-cases.\n"
        "  [#153](https://github.com/o/r/pull/153)\n\n"
    )
    body = "class PasswordHasher:\n    def hash(self, password: str{}) -> str:\n{}        return password\n"
    extra = "".join(f"        x{i} = {i}\n" for i in range(8))
    analysis, verdicts = checked_entry(
        tmp_path,
        {"CHANGELOG.md": head + added + older, "src/hasher/__init__.py": body.format("", "")},
        {
            "CHANGELOG.md": head + added + item + older,
            "src/hasher/__init__.py": body.format(", *, salt: bytes | None = None", extra),
        },
        "PasswordHasher.hash: allow passing explicit salt (#153)",
    )
    assert analysis.summary.startswith("Adds "), analysis.summary
    assert "salt" in analysis.summary and "parameter to `hasher.PasswordHasher.hash()`" in (
        analysis.summary
    )
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_list_of_steps_keeps_what_the_change_does(tmp_path: Path) -> None:
    # anyio #790 "Fixed `asyncio.Task.cancelling` issues": its squashed body lists six steps,
    # and the summary joined them all: "Fix uncancel() being called too early; Refactor to
    # avoid duplicate computation; Test TaskInfo.has_pending_cancellation in cleanup code; …"
    body = (
        "* Fix uncancel() being called too early\n"
        "* Refactor to avoid duplicate computation\n"
        "* Test TaskInfo.has_pending_cancellation in cleanup code\n"
        "* Fix TaskInfo.has_pending_cancellation in cleanup code on asyncio\n"
        "* Test that uncancel() isn't called too early\n\n"
        "Co-authored-by: Thomas Grainger <tagrain@gmail.com>"
    )
    scope = (
        "class CancelScope:\n    def __exit__(self, *exc):\n"
        "        if self._cancel_called{}:\n            self._uncancel()\n"
        "        return None\n\n    def _uncancel(self):\n        self.count -= 1\n"
        "        self.pending = False\n        self.task = None\n        return self.count\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/anyio/_backends/_asyncio.py": scope.format("")},
        {"src/anyio/_backends/_asyncio.py": scope.format(" and not self._pending")},
        "Fixed `asyncio.Task.cancelling` issues (#790)\n\n" + body,
    )
    assert "Fix uncancel() being called too early" in analysis.summary, analysis.summary
    assert "Fix TaskInfo.has" in analysis.summary
    assert "Refactor" not in analysis.summary and "Test " not in analysis.summary
    assert all(v is Verdict.TRUE for v in verdicts)


def test_an_entry_under_a_renamed_unreleased_heading_and_a_label_is_read() -> None:
    # environs 73c372d "Improve typing (#375)": the unreleased heading renamed (12.1.0 →
    # 13.0.0), the item under a new "Other changes:" label, its second sentence "Use
    # `default` instead." leaning on its first: the summary was "Adds the section …"
    patch = (
        "@@ -1,8 +1,12 @@\n # Changelog\n \n-## 12.1.0 (unreleased)\n+## 13.0.0 (unreleased)\n"
        " \n Features:\n \n - Typing: Add type hints for parser methods.\n \n"
        "+Other changes:\n+\n+- _Backwards-incompatible_: Remove `load_default` param from "
        "parser methods. Use `default` instead.\n+\n ## 12.0.0 (2025-01-06)\n"
    )
    changelog = FileChange(
        filename="CHANGELOG.md", status="modified", additions=5, deletions=1, patch=patch
    )
    assert changelog_entry([changelog]) == (
        "- _Backwards-incompatible_: Remove `load_default` param from parser methods. "
        "Use `default` instead."
    )
    # a released heading rewritten is still an older change's words
    released = patch.replace("## 12.1.0 (unreleased)", "## 12.0.0 (2025-01-06)")
    assert changelog_entry([changelog.model_copy(update={"patch": released})]) == ""
