"""False claims the checker found on the first reading of this stop's held-out repository
(typeguard): a package's `__init__.py` with an `__all__` exports that list alone, a test
moved into another file's class is no new test, and a function's `@overload` stubs are not
what a caller meets; each a clone shaped like the commit, judged by the checker."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_CHECKERS = "BINARY_MAGIC_METHODS = {'__eq__', '__ne__'}\n\n\ndef check_type_internal(value, hint, memo):\n    return value\n"


def test_an_import_an_init_with_all_does_not_list_is_no_export(tmp_path: Path) -> None:
    """typeguard 9cfcda5 "Moved decorators and functions away from __init__.py": the package
    `__init__.py` declares `__all__` and drops `from ._checkers import BINARY_MAGIC_METHODS`,
    which `__all__` never listed; the entry had said "Removes `BINARY_MAGIC_METHODS` … from
    `src/typeguard/__init__.py`" (the checker: not defined there at the parent)."""
    init = '__all__ = ("check_type", "typechecked")\n\nfrom ._checkers import {imports}\n{body}'
    body = (
        "\n\ndef typechecked(func):\n    if func.__name__ in BINARY_MAGIC_METHODS:\n"
        "        return func\n    return func\n\n\n"
        "def check_type(value, hint):\n    return check_type_internal(value, hint, None)\n"
    )
    before = {
        "src/typeguard/__init__.py": init.format(
            imports="BINARY_MAGIC_METHODS, check_type_internal", body=body
        ),
        "src/typeguard/_checkers.py": _CHECKERS,
    }
    # (the decorator moved with the name it reads, as in the real commit: an `__init__.py`
    # that still read it would raise NameError, which the entry would rightly say)
    moved = body.split("\n\n\ndef check_type", 1)[0]
    after = {
        "src/typeguard/__init__.py": init.format(
            imports="check_type_internal",
            body="from ._decorators import typechecked\n\n\n"
            + body.rsplit("\n\n\n", maxsplit=1)[-1],
        ),
        "src/typeguard/_decorators.py": "from ._checkers import BINARY_MAGIC_METHODS\n" + moved,
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Moved a helper import")
    assert "BINARY_MAGIC_METHODS" not in entry_text(analysis)
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts


def test_an_import_an_init_without_all_hands_out_is_still_an_export(tmp_path: Path) -> None:
    """The same import dropped from an `__init__.py` that declares no `__all__`: what it
    imported from the package was its public surface (`from typeguard import X` fails)."""
    before = {
        "src/typeguard/__init__.py": "from ._checkers import BINARY_MAGIC_METHODS, check_type_internal\n",
        "src/typeguard/_checkers.py": _CHECKERS,
    }
    after = {"src/typeguard/__init__.py": "from ._checkers import check_type_internal\n"}
    analysis, _ = checked_entry(tmp_path, before, after, "Stop exporting the magic methods")
    assert "BINARY_MAGIC_METHODS" in entry_text(analysis)


def test_a_test_moved_into_another_file_s_class_is_not_added(tmp_path: Path) -> None:
    """typeguard d113e64 "Simplified sorting of dict keys in check_typed_dict()":
    `TestCheckReturnType.test_inconsistent_keys_invalid` out of `tests/test_inline.py`,
    `TestTypedDict.test_inconsistent_keys_invalid` into `tests/test_checkers.py`; the entry
    had said "Adds the test `TestTypedDict.test_inconsistent_keys_invalid`"."""
    test = (
        "    def test_inconsistent_keys_invalid(self):\n"
        "        with pytest.raises(TypeError):\n            check({hint})\n"
    )
    inline = "import pytest\n\n\nclass TestCheckReturnType:\n    def test_simple(self):\n        assert True\n{extra}"
    checkers = "import pytest\n\n\nclass TestTypedDict:\n    def test_valid(self):\n        assert True\n{extra}"
    before = {
        "src/typeguard/_checkers.py": "def check_typed_dict(value):\n    return sorted(value)\n",
        "tests/test_inline.py": inline.format(extra="\n" + test.format(hint="1")),
        "tests/test_checkers.py": checkers.format(extra=""),
    }
    after = {
        "src/typeguard/_checkers.py": "def check_typed_dict(value):\n    return list(value)\n",
        "tests/test_inline.py": inline.format(extra=""),
        "tests/test_checkers.py": checkers.format(extra="\n" + test.format(hint="{'a': 1}")),
    }
    message = "Simplified sorting of dict keys in check_typed_dict()"
    analysis, verdicts = checked_entry(tmp_path, before, after, message)
    assert "Adds the test" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_parameter_only_overload_stubs_still_declare_is_gone_for_callers(
    tmp_path: Path,
) -> None:
    """typeguard df3ca82 "Converted @typechecked to recompile the target function": the
    implementation of `typechecked` loses `config`, which its two `@overload` stubs still
    declare; a caller passing `config=` gets a `TypeError`, so "`typechecked` no longer
    takes the parameter `config`" is true (the checker had merged the stubs' parameters)."""
    stubs = (
        "from typing import overload\n\n\n"
        "@overload\ndef typechecked(*, config=None):\n    ...\n\n\n"
        "@overload\ndef typechecked(func, *, config=None):\n    ...\n\n\n"
    )
    before = {
        "src/typeguard/_decorators.py": stubs
        + "def typechecked(func=None, *, config=None):\n    return func\n"
    }
    after = {
        "src/typeguard/_decorators.py": stubs
        + "def typechecked(func=None, *, check_arguments=True):\n    return func\n"
    }
    root, commit = second_commit(tmp_path, before, after, "Converted @typechecked")
    text = "`typechecked` no longer takes the parameter `config=None`."
    assert verdicts_of(root, commit.sha, text) == [(Kind.PARAM_GONE, Verdict.TRUE)]
    # and the stubs alone (a stub file) are still read
    stub_only = "`typechecked` gains the parameter `check_arguments=True`."
    assert verdicts_of(root, commit.sha, stub_only) == [(Kind.PARAM_NEW, Verdict.TRUE)]


def test_a_searched_tilde_role_in_a_docstring_reads_as_its_last_part(tmp_path: Path) -> None:
    """apscheduler e77f3d7 "Added method links to some exception classes": `JobCancelled`'s
    docstring now opens ":meth:`~.schedulers.sync.Scheduler.get_job_result`" (the leading dot
    asks Sphinx to search; shown as `get_job_result`); the checker had judged the entry's
    "now says: “Raised by `get_job_result` …”" false."""
    doc = 'class JobCancelled(Exception):\n    """{text}"""\n'
    before = {
        "src/apscheduler/_exceptions.py": doc.format(
            text="Raised by ``run_job()`` if the job was cancelled."
        )
    }
    after = {
        "src/apscheduler/_exceptions.py": doc.format(
            text="\n    Raised by :meth:`~.schedulers.sync.Scheduler.get_job_result` if the job was\n    cancelled.\n    "
        )
    }
    root, commit = second_commit(tmp_path, before, after, "Added method links")
    text = "The docstring of `JobCancelled` now says: “Raised by `get_job_result` if the job was cancelled.”"
    assert verdicts_of(root, commit.sha, text) == [(Kind.REDOCUMENTED, Verdict.TRUE)]


_STORE = "class MemoryDataStore:\n    def get_tasks(self):\n        return []\n"
_SCHEDULER = "class Scheduler:\n    def add_job(self, func):\n        return func\n{extra}"


def test_an_author_s_added_method_beside_an_older_one_of_its_name_is_true(
    tmp_path: Path,
) -> None:
    """apscheduler 1ecb343: the author's "Added the `configure_task()` and `get_tasks()`
    scheduler methods." (`Scheduler.get_tasks` is new; `MemoryDataStore.get_tasks`, in a file
    the commit changes too, was there already): the checker had judged it false."""
    before = {
        "src/apscheduler/datastores/memory.py": _STORE,
        "src/apscheduler/_schedulers/sync.py": _SCHEDULER.format(extra=""),
    }
    after = {
        "src/apscheduler/datastores/memory.py": _STORE
        + "\n    def get_task(self, task_id):\n        return None\n",
        "src/apscheduler/_schedulers/sync.py": _SCHEDULER.format(
            extra="\n    def configure_task(self, func):\n        return func\n\n"
            "    def get_tasks(self):\n        return []\n"
        ),
    }
    root, commit = second_commit(tmp_path, before, after, "Added task methods")
    text = "Added the `configure_task()` and `get_tasks()` scheduler methods."
    assert verdicts_of(root, commit.sha, text) == [
        (Kind.ADDS, Verdict.TRUE),
        (Kind.ADDS, Verdict.TRUE),
    ]
    # a method moved to another class is still no addition
    moved = {
        "src/apscheduler/datastores/memory.py": "class MemoryDataStore:\n    pass\n",
        "src/apscheduler/_schedulers/sync.py": _SCHEDULER.format(
            extra="\n    def get_tasks(self):\n        return []\n"
        ),
    }
    root, commit = second_commit(tmp_path / "moved", before, moved, "Moved get_tasks")
    assert verdicts_of(root, commit.sha, "Adds `get_tasks`.") == [(Kind.ADDS, Verdict.FALSE)]


def test_an_author_s_added_x_test_is_no_claim_that_x_is_new(tmp_path: Path) -> None:
    """apscheduler 4c3effd "Removed redundant `self._next_triggers` construction and added
    `AndTrigger` test.": `AndTrigger` is what the new test is about, defined long before."""
    trigger = (
        "class AndTrigger:\n    def __init__(self, triggers):\n        self._triggers = triggers\n"
    )
    before = {
        "src/apscheduler/triggers/combining.py": trigger,
        "tests/test_triggers.py": "def test_x():\n    pass\n",
    }
    after = {
        "tests/test_triggers.py": "def test_x():\n    pass\n\n\ndef test_and_trigger():\n    pass\n"
    }
    root, commit = second_commit(tmp_path, before, after, "added AndTrigger test")
    text = "Removed redundant `self._next_triggers` construction and added `AndTrigger` test."
    assert (Kind.ADDS, Verdict.FALSE) not in verdicts_of(root, commit.sha, text)
    assert not [k for k, _ in verdicts_of(root, commit.sha, text) if k is Kind.ADDS]


_HEADER = '''import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_report_header(config):
    """Add timeout config to pytest header."""
{body}
'''


def test_a_function_s_last_if_that_returns_is_no_early_return(tmp_path: Path) -> None:
    """pytest-timeout cc3f27a "add suite timeout to header": `pytest_report_header` collects
    its lines and ends `if timeout_header: return timeout_header`; the entry had said
    "`pytest_report_header` now returns early when `timeout_header`" (readers: false)."""
    before = {
        "pytest_timeout.py": _HEADER.format(
            body="    if config._env_timeout:\n        return ['timeout: %ss' % config._env_timeout]"
        )
    }
    after = {
        "pytest_timeout.py": _HEADER.format(
            body="    timeout_header = []\n    if config._env_timeout:\n"
            "        timeout_header.append('timeout: %ss' % config._env_timeout)\n"
            "    suite_timeout = config.getoption('--suite-timeout')\n"
            "    if suite_timeout:\n        timeout_header.append('suite timeout: %ss' % suite_timeout)\n"
            "    if timeout_header:\n        return timeout_header"
        )
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "add suite timeout to header")
    assert "returns early" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


_FULL = '''class _AsyncQueueProxy:
    def __init__(self, parent):
        self._parent = parent

    def full(self) -> bool:
        """Return True if there are maxsize items in the queue."""
{body}
'''


def test_a_test_read_through_a_new_local_is_the_same_test(tmp_path: Path) -> None:
    """janus 539911f "Optimize internal implementation for a little speedup": `full` binds
    `parent = self._parent` and tests `parent._maxsize <= 0` where it tested
    `self._parent._maxsize <= 0`; the entry had said "`_AsyncQueueProxy.full` now returns
    early when `parent._maxsize <= 0`" (readers: false, the parent did so already)."""
    before = {
        "janus/__init__.py": _FULL.format(
            body="        if self._parent._maxsize <= 0:\n            return False\n"
            "        else:\n            return self.qsize() >= self._parent._maxsize"
        )
    }
    after = {
        "janus/__init__.py": _FULL.format(
            body="        parent = self._parent\n        if parent._maxsize <= 0:\n"
            "            return False\n        else:\n"
            "            return parent._qsize() >= parent._maxsize"
        )
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Optimize internal implementation")
    text = entry_text(analysis)
    assert "returns early" not in text and "now tests" not in text
    assert Verdict.FALSE not in verdicts


_ADDOPTION = """def pytest_addoption(parser):
    group = parser.getgroup("timeout")
    group.addoption("--timeout", type=float, help="Timeout in seconds.")
{more}
"""


def test_a_pytest_option_added_is_a_flag_not_a_keyword_now_passed(tmp_path: Path) -> None:
    """pytest-timeout 94f948a "Add suite timeout": a second `group.addoption("--suite-timeout",
    default=None, …)` beside `--timeout`'s; the entry had said it "now passes `default=None`"
    to `addoption` (readers: reads as an existing option's default changed)."""
    before = {"pytest_timeout.py": _ADDOPTION.format(more="")}
    after = {
        "pytest_timeout.py": _ADDOPTION.format(
            more='    group.addoption(\n        "--suite-timeout",\n        action="store",\n'
            '        default=None,\n        type=float,\n        help="Timeout for the suite.",\n    )'
        )
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Add suite timeout")
    text = entry_text(analysis)
    assert "now passes" not in text
    assert "`--suite-timeout`" in text
    assert Verdict.FALSE not in verdicts


def test_two_hooks_of_other_parameters_are_no_rename(tmp_path: Path) -> None:
    """pytest-timeout c1c6691 "Fix suite timeout": the hook `pytest_runtest_logfinish(nodeid,
    location)` gone and `pytest_runtest_makereport(item, call)` new in the same file; the
    entry had said "Renames `pytest_runtest_logfinish` to `pytest_runtest_makereport`"."""
    head = "import pytest\n\n\ndef pytest_addoption(parser):\n    parser.addoption('--suite-timeout')\n\n\n"
    before = {
        "pytest_timeout.py": head
        + "def pytest_runtest_logfinish(nodeid, location):\n    if expired():\n        pytest.exit('timeout')\n"
    }
    after = {
        "pytest_timeout.py": head
        + "@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n"
        "    outcome = yield\n    if expired():\n        outcome.get_result().outcome = 'failed'\n"
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Fix suite timeout")
    text = entry_text(analysis)
    assert "Renames" not in text
    assert "`pytest_runtest_makereport" in text
    assert Verdict.FALSE not in verdicts
