"""An entry without its author's words is summarised by what runs differently, never by a
list of private names (issue 27, filelock and typeguard commits without a body), a new helper
called is said with what its docstring says it does in one sentence, and "The fix is in …"
names only what no other sentence of the entry says. Built as clones shaped like the real
commits, each claim checked against the clone."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# filelock's `_windows.py` before 94a80aa, shortened: the opener and the lock that uses it
WINDOWS = (
    "import ctypes\n"
    "import os\n\n\n"
    "def _open_non_reparse_fd(path, mode):\n"
    '    """Open *path* for locking while refusing reparse points."""\n'
    "    handle = _kernel32.CreateFileW(path, mode)\n"
    "    if handle == -1:\n"
    "        return None\n"
    "    return handle\n\n\n"
    "class WindowsFileLock:\n"
    "    def _acquire(self):\n"
    "        fd = _open_non_reparse_fd(self.lock_file, 0o644)\n"
    "        self.fd = fd\n"
)
# what 94a80aa adds: three ctypes structures and the `NtCreateFile` opener the old one calls
STRUCTURES = (
    "class _UNICODE_STRING(ctypes.Structure):\n"
    "    _fields_ = ()\n\n\n"
    "class _OBJECT_ATTRIBUTES(ctypes.Structure):\n"
    "    _fields_ = ()\n\n\n"
    "class _IO_STATUS_BLOCK(ctypes.Structure):\n"
    "    _fields_ = ()\n\n\n"
)
NT_OPEN = (
    "\n\ndef _nt_open(path, *, read_only):\n"
    '    """Open *path* through `NtCreateFile` and return `(handle, status)`.\n\n'
    "    The handle is bound to the file locked.\n"
    '    """\n'
    "    name = _UNICODE_STRING()\n"
    "    attributes = _OBJECT_ATTRIBUTES()\n"
    "    status = _IO_STATUS_BLOCK()\n"
    "    return _ntdll.NtCreateFile(name, attributes, status, read_only), status\n"
)


def test_a_new_helper_called_is_the_summary_with_its_docstring_before_private_names(
    tmp_path: Path,
) -> None:
    # filelock 94a80aa: the summary was "Adds `_UNICODE_STRING`, `_OBJECT_ATTRIBUTES`,
    # `_IO_STATUS_BLOCK` and 1 more to `src/filelock/_windows.py`." and the docstring of
    # `_nt_open` a sentence of its own after "`_open_non_reparse_fd` now calls `_nt_open`"
    after = (
        WINDOWS.replace("import os\n\n\n", "import os\n\n\n" + STRUCTURES).replace(
            "    handle = _kernel32.CreateFileW(path, mode)\n",
            "    handle, status = _nt_open(path, read_only=not mode & 0o200)\n",
        )
        + NT_OPEN
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/filelock/_windows.py": WINDOWS},
        {"src/filelock/_windows.py": after},
        "🐛 fix(windows): open the lock file through NtCreateFile (#617)",
    )
    assert analysis.summary == (
        "`_open_non_reparse_fd` now calls `_nt_open`, whose docstring says: “Open *path* "
        "through `NtCreateFile` and return `(handle, status)`.”"
    )
    text = entry_text(analysis)
    # the private structures it adds are no sentence of a medium entry (issue 27: a list of
    # private names states no consequence); the docstring once, with the call
    assert analysis.importance is Importance.MEDIUM
    assert "_UNICODE_STRING" not in text and "_OBJECT_ATTRIBUTES" not in text
    assert "per its docstring" not in text and text.count("Open *path*") == 1
    # the one function the fix edits is said with what it now calls
    assert "The fix is in" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


# typeguard's `_checkers.py` before 121efd5, shortened
CHECKERS = (
    "from typing import Any\n\n"
    "import typing_extensions\n\n\n"
    "class TypeCheckError(Exception):\n"
    "    pass\n\n\n"
    "def check_class(value, origin_type, args, memo):\n"
    "    expected_class = args[0]\n"
    "    if expected_class is Any:\n"
    "        return\n"
    "    elif isinstance(expected_class, type):\n"
    "        if not issubclass(value, expected_class):\n"
    '            raise TypeCheckError(f"is not a subclass of {expected_class}")\n\n\n'
    "def check_self(value, origin_type, args, memo):\n"
    "    if isinstance(value, type):\n"
    "        if not issubclass(value, memo.self_type):\n"
    "            raise TypeCheckError(\n"
    '                f"is not an instance of the self type "\n'
    '                f"({memo.self_type.__qualname__})"\n'
    "            )\n"
    "    elif not isinstance(value, memo.self_type):\n"
    '        raise TypeCheckError("is not an instance of the self type")\n'
)
TESTS = "from typeguard import check_type\n\n\ndef test_any():\n    check_type(1, object)\n"
SELF_TESTS = (
    "\n\ndef test_self_type_valid():\n    check_type(int, type)\n\n\n"
    "def test_self_type_invalid():\n    check_type(str, type)\n"
)


def test_what_a_fix_now_raises_is_the_summary_before_the_call_and_is_not_named_again(
    tmp_path: Path,
) -> None:
    # typeguard 121efd5: the summary was "`check_class` now calls `check_self`." and the
    # insights "The fix is in `check_class`, `check_self`." beside the reworded message
    after = CHECKERS.replace(
        "        return\n    elif isinstance",
        "        return\n"
        "    elif expected_class is typing_extensions.Self:\n"
        "        check_self(value, None, (), memo)\n"
        "    elif isinstance",
    ).replace(
        '                f"is not an instance of the self type "\n'
        '                f"({memo.self_type.__qualname__})"\n',
        '                f"is not a subclass of the self type ({memo.self_type.__qualname__})"\n',
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/typeguard/_checkers.py": CHECKERS, "tests/test_checkers.py": TESTS},
        {"src/typeguard/_checkers.py": after, "tests/test_checkers.py": TESTS + SELF_TESTS},
        "Fixed `TypeError` when checking a class against `type[Self]`",
    )
    # what the fix now raises, and when: the call said with the raise it reaches (a bare
    # "now calls" is wiring), the reworded message beside it
    assert analysis.summary.startswith(
        "`check_class` now calls `check_self`, which raises `TypeCheckError` when "
        "`not issubclass(value, memo.self_type)`"
    )
    text = entry_text(analysis)
    assert "“is not a subclass of the self type ({…})”" in text
    assert "`check_class` now calls `check_self`." not in text
    assert "The fix is in" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


# filelock's `_api.py` and `_unix.py` before 87f6037, shortened
API = (
    "class BaseFileLock:\n"
    "    def release(self, force=False):\n"
    "        if self._context.lock_counter == 0 or force:\n"
    "            self._release()\n"
    "            self._context.lock_counter = 0\n"
)
UNIX = (
    "import os\n\n"
    "from ._api import BaseFileLock\n\n\n"
    "class UnixFileLock(BaseFileLock):\n"
    "    def _release(self):\n"
    "        fd = self._context.lock_file_fd\n"
    "        os.close(fd)\n"
)


def test_the_fix_is_in_names_only_what_no_other_sentence_says(tmp_path: Path) -> None:
    # filelock 87f6037: "The fix is in `BaseFileLock.release`, `BaseAsyncFileLock.release`,
    # `UnixFileLock._release`." after sentences that said both `release`s with what they now
    # catch and test: only `UnixFileLock._release` was news
    api = (
        "class BaseFileLock:\n"
        "    def release(self, force=False):\n"
        "        if not force and self._context.lock_counter > 1:\n"
        "            self._context.lock_counter -= 1\n"
        "            return\n"
        "        try:\n"
        "            self._release()\n"
        "        except BaseException:\n"
        "            raise\n"
        "        self._context.lock_counter = 0\n"
    )
    unix = UNIX.replace(
        "        os.close(fd)\n",
        "        self._context.lock_file_fd = None\n        os.close(fd)\n",
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/filelock/_api.py": API, "src/filelock/_unix.py": UNIX, "tests/test_api.py": TESTS},
        {
            "src/filelock/_api.py": api,
            "src/filelock/_unix.py": unix,
            "tests/test_api.py": TESTS + "\n\ndef test_release_keeps_lock_held():\n    pass\n",
        },
        "🐛 fix(api): make native lock release transactional (#615)",
    )
    text = entry_text(analysis)
    assert "`BaseFileLock.release` now catches `BaseException`" in text
    assert "The fix is in `UnixFileLock._release`." in text
    assert "The fix is in `BaseFileLock.release`" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_reads_a_call_and_its_callees_docstring_in_one_sentence(
    tmp_path: Path,
) -> None:
    after = (
        WINDOWS.replace("import os\n\n\n", "import os\n\n\n" + STRUCTURES).replace(
            "    handle = _kernel32.CreateFileW(path, mode)\n",
            "    handle, status = _nt_open(path, read_only=not mode & 0o200)\n",
        )
        + NT_OPEN
    )
    root, commit = second_commit(
        tmp_path,
        {"src/filelock/_windows.py": WINDOWS},
        {"src/filelock/_windows.py": after},
        "🐛 fix(windows): open the lock file through NtCreateFile (#617)",
    )
    said = "`_open_non_reparse_fd` now calls `_nt_open`, whose docstring says: “{}”"
    cases = {
        "Open *path* through `NtCreateFile` and return `(handle, status)`.": Verdict.TRUE,
        # words the docstring does not open with, and a quoted `(was …)` kept as written
        "Open *path* through `CreateFileW`.": Verdict.FALSE,
        "Open *path* (was `CreateFileW`).": Verdict.FALSE,
    }
    for words, verdict in cases.items():
        found = verdicts_of(root, commit.sha, said.format(words))
        assert sorted(found) == sorted([(Kind.DOCUMENTED, verdict), (Kind.CALLS, Verdict.TRUE)])
    # the docstring said of a callee the function does not call is the callee's all the same
    found = verdicts_of(
        root,
        commit.sha,
        "`WindowsFileLock._acquire` now calls `_nt_open`, whose docstring "
        "says: “Open *path* through `NtCreateFile` and return `(handle, status)`.”",
    )
    assert sorted(found) == sorted([(Kind.DOCUMENTED, Verdict.TRUE), (Kind.CALLS, Verdict.FALSE)])


# typeguard's `_checkers.py` before 7a61486, shortened: the lookup of a checker by origin
LOOKUP = (
    "from typing import Any, ParamSpec\n\n\n"
    "def check_instance(value, origin_type, args, memo):\n"
    "    if not isinstance(value, origin_type):\n"
    "        raise TypeError(f'{value!r} is not an instance of {origin_type}')\n\n\n"
    "def builtin_checker_lookup(origin_type, args, extras):\n"
    "    checker = origin_type_checkers.get(origin_type)\n"
    "    if checker is not None:\n"
    "        return checker\n"
    "    return None\n"
)


def test_a_function_added_to_a_private_module_yields_to_what_runs_differently(
    tmp_path: Path,
) -> None:
    # typeguard 7a61486 "Fixed unwarranted TypeError when encountering a ParamSpec
    # annotation": the summary was "Adds `check_paramspec` to `src/typeguard/_checkers.py`."
    # (a module's name a user never imports) while the lookup now returns early for one
    after = LOOKUP.replace(
        "    checker = origin_type_checkers",
        "    if isinstance(origin_type, ParamSpec):\n"
        "        return check_paramspec\n"
        "    checker = origin_type_checkers",
    ) + ("\n\ndef check_paramspec(value, origin_type, args, memo):\n    pass  # No-op for now\n")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/typeguard/_checkers.py": LOOKUP, "src/typeguard/__init__.py": "x = 1\n"},
        {"src/typeguard/_checkers.py": after},
        "Fixed unwarranted TypeError when encountering a ParamSpec annotation",
    )
    assert analysis.summary.startswith("`builtin_checker_lookup` now returns early when")
    assert "Adds `check_paramspec`" in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_an_operator_method_is_said_as_callers_use_it(tmp_path: Path) -> None:
    # tinydb 3e66d33 "fix(table): make `len(db)` work with empty databases": `Table.__len__`
    # wrapped its read in `try` … `except KeyError: return 0`, and the entry said nothing but
    # the title (a dunder was never said: callers write `len(table)`, which runs it)
    before = (
        "class Table:\n"
        "    def __len__(self):\n"
        "        tables = self._storage.read()\n"
        "        return len(tables[self.name])\n"
    )
    after = before.replace(
        "        return len(tables[self.name])\n",
        "        try:\n"
        "            return len(tables[self.name])\n"
        "        except KeyError:\n"
        "            return 0\n",
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"tinydb/table.py": before},
        {"tinydb/table.py": after},
        "fix(table): make `len(db)` work with empty databases",
    )
    assert analysis.summary == "`Table.__len__` now catches `KeyError`."
    assert Verdict.FALSE not in verdicts
