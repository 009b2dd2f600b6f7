"""What only a type checker reads changes nothing a user meets: svcs b6255ba "Fix/update
typing" (`@no_type_check` on a method of an attrs class, the type checkers' settings), svcs
88fb3b5 "Fix pyrefly" (a condition wrapped for a `# pyrefly: ignore`), a `cast` and an
`if TYPE_CHECKING:` import (trio's typing fixes) are low and ask for no regression test;
aiohappyeyeballs 1697869 (a codspeed suite with Finder's `.DS_Store` files) is low. A cast
whose type may not exist at run time, or an annotation a library reads, stays unproven."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.models import Analysis, Importance
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

CORE = "src/svcs/_core.py"
# svcs's `_core.py` at b6255ba's parent, cut down: an attrs class whose `aclose` the type
# checkers choke on
_CORE = (
    "from __future__ import annotations\n\n"
    "import logging\n\n"
    "from collections.abc import Awaitable, Callable\n"
    "from inspect import isawaitable, iscoroutinefunction\n"
    "from typing import Any, TypeVar, overload\n\n"
    "import attrs\n\n\n"
    'log = logging.getLogger("svcs")\n\n\n'
    "@attrs.define\n"
    "class Registry:\n"
    '    """A central registry of recipes for creating services."""\n\n'
    "    _services: dict[type, Any] = attrs.Factory(dict)\n"
    "    _on_close: list[tuple[Any, Callable | Awaitable]] = attrs.Factory(list)\n\n"
    "    async def aclose(self) -> None:\n"
    '        """Clear registrations and run all *on_registry_close* callbacks."""\n'
    "        for rs, oc in reversed(self._on_close):\n"
    "            try:\n"
    "                if iscoroutinefunction(oc):\n"
    "                    oc = oc()\n"
    "                if isawaitable(oc):\n"
    '                    log.debug("async closing %r", rs.name)\n'
    "                    await oc\n"
    "                else:\n"
    "                    oc()\n"
    "            except Exception:\n"
    '                log.warning("callback failed for %r.", rs.name, exc_info=True)\n\n'
    "        self._services.clear()\n"
    "        self._on_close.clear()\n"
)
_NO_TYPE_CHECK = _CORE.replace(
    "from typing import Any, TypeVar, overload",
    "from typing import Any, TypeVar, no_type_check, overload",
).replace(
    "    async def aclose(",
    "    @no_type_check  # both ty and pyrefly choke on this method\n    async def aclose(",
)
_PYPROJECT = (
    '[project]\nname = "svcs"\nrequires-python = ">=3.9"\n\n'
    '[tool.ty.rules]\npossibly-unbound-attribute = "ignore"\n\n'
    '[tool.pyrefly]\nproject-includes = ["tests/typing"]\n'
)
_PYPROJECT_AFTER = _PYPROJECT.replace("possibly-unbound", "possibly-missing").replace(
    '["tests/typing"]', '["src", "tests/typing"]'
)


def _entry(
    tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None], message: str
) -> Analysis:
    _, commit = second_commit(tmp_path, before, after, message)
    return analyze(commit)


def _asks_for_a_test(entry: Analysis) -> bool:
    return any("regression test" in r.text for r in entry.recommendations)


def test_no_type_check_on_a_method_of_an_attrs_class_is_low(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path,
        {CORE: _CORE, "pyproject.toml": _PYPROJECT},
        {CORE: _NO_TYPE_CHECK, "pyproject.toml": _PYPROJECT_AFTER},
        "Fix/update typing",
    )
    assert entry.importance is Importance.LOW
    assert not _asks_for_a_test(entry)


def test_a_field_annotation_of_an_attrs_class_is_no_typing_edit(tmp_path: Path) -> None:
    # attrs makes a field of each annotated name: `ClassVar` makes none
    entry = _entry(
        tmp_path,
        {CORE: _CORE},
        {CORE: _CORE.replace("_services: dict[type, Any]", "_services: ClassVar[dict]")},
        "Fix/update typing",
    )
    assert entry.importance is not Importance.LOW


# svcs 88fb3b5's `Container.get`: the condition wrapped so that a comment silences pyrefly
_GET = (
    "from __future__ import annotations\n\n"
    "from contextlib import AbstractAsyncContextManager\n"
    "from inspect import iscoroutine\n"
    "from unittest.mock import MagicMock\n\n\n"
    "def get(svc: object) -> object:\n"
    "    if not isinstance(svc, MagicMock) and (\n"
    "        iscoroutine(svc)\n"
    "        or isinstance(svc, AbstractAsyncContextManager)\n"
    "    ):\n"
    '        msg = "Use `aget()` for async factories."\n'
    "        raise TypeError(msg)\n"
    "    return svc\n"
)
_WRAPPED = _GET.replace(
    "    if not isinstance(svc, MagicMock) and (\n"
    "        iscoroutine(svc)\n"
    "        or isinstance(svc, AbstractAsyncContextManager)\n"
    "    ):\n",
    "    if (\n"
    "        not isinstance(svc, MagicMock)\n"
    "        and (\n"
    "            iscoroutine(svc)\n"
    "            or isinstance(\n"
    "                svc,\n"
    "                AbstractAsyncContextManager,  # pyrefly: ignore[unsafe-overlap]\n"
    "            )\n"
    "        )\n"
    "    ):\n",
)


def test_a_condition_wrapped_for_a_type_checkers_comment_is_low(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path,
        {CORE: _GET},
        {CORE: _WRAPPED},
        "Fix pyrefly\n\nNot sure what else to do about an unsafe overlap with `Never`.",
    )
    assert entry.importance is Importance.LOW
    assert not _asks_for_a_test(entry)


RUN = "src/trio/_core/_run.py"
# a module whose type checker's names are imported only for it, and a value cast
_RUN = (
    "from __future__ import annotations\n\n"
    "import select\n"
    "from typing import Any\n\n\n"
    "class Runner:\n"
    "    def __init__(self) -> None:\n"
    "        self.waiting: dict[int, Any] = {}\n\n"
    "    def wait(self, fd: int) -> Any:\n"
    "        task = self.waiting.pop(fd)\n"
    "        return task  # type: ignore[no-any-return]\n"
)
_RUN_CAST = _RUN.replace(
    "import select\nfrom typing import Any\n",
    "import select\nfrom typing import TYPE_CHECKING, Any, cast\n\n"
    "if TYPE_CHECKING:\n    from ._task import Task\n",
).replace(
    "        task = self.waiting.pop(fd)\n        return task  # type: ignore[no-any-return]\n",
    '        task = cast("Task", self.waiting.pop(fd))\n        return task\n',
)


def test_a_cast_and_an_import_for_the_type_checker_are_low(tmp_path: Path) -> None:
    entry = _entry(tmp_path, {RUN: _RUN}, {RUN: _RUN_CAST}, "Fix mypy errors in Runner.wait")
    assert entry.importance is Importance.LOW
    assert not _asks_for_a_test(entry)


def test_a_cast_to_a_name_only_the_type_checker_imports_is_unproven(tmp_path: Path) -> None:
    # `Task` is unbound at run time: the call raises NameError
    entry = _entry(
        tmp_path,
        {RUN: _RUN},
        {RUN: _RUN_CAST.replace('cast("Task", ', "cast(Task, ")},
        "Fix mypy errors in Runner.wait",
    )
    assert entry.importance is not Importance.LOW


def test_a_code_change_under_no_type_check_is_unproven(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path,
        {CORE: _CORE},
        {CORE: _NO_TYPE_CHECK.replace("oc()\n            except", "pass\n            except")},
        "Fix/update typing",
    )
    assert entry.importance is not Importance.LOW


# aiohappyeyeballs 1697869: a codspeed suite, its CI job and dependency group, and Finder's
# notes committed beside them (`src/.DS_Store` too)
_CI = "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
_BENCH = (
    "from aiohappyeyeballs import _interleave_addrinfos\n\n\n"
    "def test_interleave_addrinfos(benchmark):\n"
    "    @benchmark\n"
    "    def _run():\n"
    "        _interleave_addrinfos([])\n"
)


_POETRY = (
    '[project]\nname = "aiohappyeyeballs"\nrequires-python = ">=3.9"\n\n'
    '[tool.poetry.group.dev.dependencies]\npytest = ">=7"\n'
)
_LOCK = '[[package]]\nname = "pytest"\nversion = "8.3.4"\n'
# the lock's new packages: pytest-codspeed and what it pulls in
_CODSPEED_LOCK = "".join(
    f'\n[[package]]\nname = "{name}"\nversion = "{version}"\noptional = false\n'
    for name, version in (
        ("pytest-codspeed", "4.0.0"),
        ("cffi", "1.17.1"),
        ("rich", "13.9.4"),
        ("pycparser", "2.22"),
        ("markdown-it-py", "3.0.0"),
        ("mdurl", "0.1.2"),
    )
)


def test_a_benchmark_suite_with_finders_notes_is_low(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path,
        {
            ".github/workflows/ci-cd.yml": _CI,
            "src/aiohappyeyeballs/impl.py": "x = 1\n",
            "pyproject.toml": _POETRY,
            "poetry.lock": _LOCK,
        },
        {
            "pyproject.toml": _POETRY
            + "\n[tool.poetry.group.benchmarks]\noptional = true\n\n"
            + '[tool.poetry.group.benchmarks.dependencies]\npytest-codspeed = ">=4.0.0"\n',
            "poetry.lock": _LOCK + _CODSPEED_LOCK,
            ".github/workflows/ci-cd.yml": _CI
            + "  benchmarks:\n    runs-on: ubuntu-latest\n    steps:\n"
            + "      - uses: CodSpeedHQ/action@v4\n",
            ".DS_Store": "\x00\x00\x00\x01Bud1",
            "src/.DS_Store": "\x00\x00\x00\x01Bud1",
            "tests/benchmarks/__init__.py": '"""Benchmarks."""\n',
            "tests/benchmarks/test_interleave.py": _BENCH,
        },
        "ci: add codspeed benchmark suite for addrinfo reordering hot paths (#250)",
    )
    assert entry.importance is Importance.LOW


IO_WINDOWS = "src/trio/_core/_io_windows.py"
# trio 0f999b8 "Fix cast again": the cast's type, a name newly imported from a sibling module
_IO_WINDOWS = (
    "from __future__ import annotations\n\n"
    "from typing import cast\n\n"
    "from ._windows_cffi import CData, IoControlCodes, kernel32\n\n\n"
    "class WindowsIOManager:\n"
    "    def _refresh_afd(self, handle: int, poll_info: object) -> None:\n"
    "        kernel32.DeviceIoControl(\n"
    "            handle,\n"
    "            IoControlCodes.IOCTL_AFD_POLL,\n"
    "            cast(CData, poll_info),\n"
    "        )\n"
)
_IO_WINDOWS_CTYPE = _IO_WINDOWS.replace("CData, IoControlCodes", "CData, CType, IoControlCodes")
_IO_WINDOWS_CTYPE = _IO_WINDOWS_CTYPE.replace("cast(CData,", "cast(CType,")


def test_a_cast_to_a_name_newly_imported_asks_for_no_regression_test(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path, {IO_WINDOWS: _IO_WINDOWS}, {IO_WINDOWS: _IO_WINDOWS_CTYPE}, "Fix cast again"
    )
    # the sibling module may lack `CType`: not proven the same code, but no test could pin it
    assert not _asks_for_a_test(entry)
    assert entry.importance is not Importance.LOW


FILEIO = "src/anyio/_core/_fileio.py"
# anyio a5b4e55 "Fixed Pyright error": a class attribute annotated inside a version check,
# its type imported for the type checker alone
_FILEIO = (
    "from __future__ import annotations\n\n"
    "import pathlib\n"
    "import sys\n"
    "from typing import TYPE_CHECKING, Any\n\n"
    "if TYPE_CHECKING:\n"
    "    from _typeshed import ReadableBuffer\n"
    "else:\n"
    "    ReadableBuffer = object\n\n\n"
    "class Path:\n"
    "    def __init__(self, *args: Any) -> None:\n"
    "        self._path = pathlib.Path(*args)\n\n"
    "    if sys.version_info >= (3, 13):\n"
    "        parser = pathlib.Path.parser\n"
)
_FILEIO_TYPED = _FILEIO.replace("TYPE_CHECKING, Any", "TYPE_CHECKING, Any, ClassVar").replace(
    "if TYPE_CHECKING:\n", "if TYPE_CHECKING:\n    from types import ModuleType\n\n"
)
_FILEIO_TYPED = _FILEIO_TYPED.replace("parser = ", "parser: ClassVar[ModuleType] = ")


def test_an_annotation_inside_a_version_check_of_a_class_is_low(tmp_path: Path) -> None:
    entry = _entry(tmp_path, {FILEIO: _FILEIO}, {FILEIO: _FILEIO_TYPED}, "Fixed Pyright error")
    assert entry.importance is Importance.LOW


TASKS = "src/anyio/abc/_tasks.py"
# anyio 17af5a5 "Fixed return annotation of `__aexit__`": an abstract method's annotation
_TASKS = (
    "from __future__ import annotations\n\n"
    "from abc import ABCMeta, abstractmethod\n"
    "from types import TracebackType\n\n\n"
    "class TaskGroup(metaclass=ABCMeta):\n"
    "    @abstractmethod\n"
    "    async def __aexit__(\n"
    "        self,\n"
    "        exc_type: type[BaseException] | None,\n"
    "        exc_val: BaseException | None,\n"
    "        exc_tb: TracebackType | None,\n"
    "    ) -> bool | None:\n"
    '        """Exit the task group context waiting for all tasks to finish."""\n'
)


def test_the_annotation_of_an_abstract_method_is_low(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path,
        {TASKS: _TASKS},
        {TASKS: _TASKS.replace(") -> bool | None:", ") -> bool:")},
        "Fixed return annotation of `__aexit__` (#913)",
    )
    assert entry.importance is Importance.LOW
    assert not _asks_for_a_test(entry)


def test_the_annotation_of_a_function_another_decorator_reads_is_unproven(
    tmp_path: Path,
) -> None:
    # a decorator of the package's own may read what it wraps (`typing.get_type_hints`)
    own = _TASKS.replace("from abc import ABCMeta, abstractmethod", "from abc import ABCMeta\n")
    own = own.replace(
        "from types import TracebackType\n",
        "from types import TracebackType\n\nfrom ._hints import abstractmethod\n",
    )
    entry = _entry(
        tmp_path,
        {TASKS: own},
        {TASKS: own.replace(") -> bool | None:", ") -> bool:")},
        "Fixed return annotation of `__aexit__` (#913)",
    )
    assert entry.importance is not Importance.LOW


SUBPROCESS = "src/trio/_subprocess.py"
# trio 09fe32f "Simplify with type aliases": the signatures only a type checker reads, under
# `if TYPE_CHECKING:` with version checks of their own
_SUBPROCESS = (
    "from __future__ import annotations\n\n"
    "import sys\n"
    "from typing import TYPE_CHECKING, TypedDict\n\n"
    "if TYPE_CHECKING:\n"
    "    class GeneralProcessArgs(TypedDict, total=False):\n"
    "        stdout: int | None\n\n"
    "    if sys.version_info >= (3, 10):\n"
    "        class UnixProcessArgs(GeneralProcessArgs, total=False):\n"
    "            pass_fds: tuple[int, ...]\n\n"
    "        class UnixProcessArgs3_10(UnixProcessArgs, total=False):\n"
    "            pipesize: int\n\n\n"
    "async def open_process(command: object, **options: object) -> object:\n"
    "    if isinstance(command, str) and not options.get('shell'):\n"
    "        raise TypeError('command must be a sequence')\n"
    "    return command\n"
)
# the overloads the commit folds into one alias, one per Python version
_OVERLOADS = "".join(
    f"\n        @overload\n        async def run_process_{minor}(\n"
    f"            command: str, **kwargs: Unpack[UnixProcessArgs3_{minor}]\n"
    "        ) -> object: ...\n"
    for minor in range(6, 16)
)
_ALIASED = _SUBPROCESS.replace(
    "UnixProcessArgs(GeneralProcessArgs", "UnixProcessArgs3_9(GeneralProcessArgs"
).replace("UnixProcessArgs3_10(UnixProcessArgs,", "UnixProcessArgs3_10(UnixProcessArgs3_9,")
_SUBPROCESS = _SUBPROCESS.replace(
    "            pipesize: int\n", "            pipesize: int\n" + _OVERLOADS
)


def test_a_block_only_the_type_checker_enters_is_low(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path,
        {SUBPROCESS: _SUBPROCESS},
        {SUBPROCESS: _ALIASED},
        "Simplify with type aliases",
    )
    assert entry.importance is Importance.LOW


def test_a_block_after_the_type_checkers_is_code(tmp_path: Path) -> None:
    entry = _entry(
        tmp_path,
        {SUBPROCESS: _SUBPROCESS},
        {SUBPROCESS: _ALIASED.replace("not options.get('shell')", "options.get('shell')")},
        "Fix the shell check of open_process, simplify with type aliases",
    )
    assert entry.importance is not Importance.LOW


_SCHEDULER = (
    "{future}from collections.abc import Iterable\n"
    "from typing import TypeVar, overload\n\n"
    "from .._events import Event\n\n"
    'T_Event = TypeVar("T_Event", bound=Event)\n\n\n'
    "class AsyncScheduler:\n"
    "    def __init__(self) -> None:\n"
    "        self._events = []\n\n"
    "{overloads}"
    "    async def get_next_event(\n"
    "        self, event_types: type[Event] | Iterable[type[Event]]\n"
    "    ) -> Event:\n"
    "        return await self._wait(event_types)\n"
)
_OVERLOADS = (
    "    @overload\n"
    "    async def get_next_event(self, event_types: type[T_Event]) -> T_Event: ...\n\n"
    "    @overload\n"
    "    async def get_next_event(self, event_types: Iterable[type[Event]]) -> Event: ...\n\n"
)


@pytest.mark.parametrize(
    ("future", "importance"),
    [
        # annotations deferred: the overloads are never evaluated, and rebound at once
        ("from __future__ import annotations\n\n", Importance.LOW),
        # evaluated where defined (a name missing would raise): not proven, as before
        ("", Importance.MEDIUM),
    ],
)
def test_overloads_added_change_nothing_at_run_time(
    tmp_path: Path, future: str, importance: Importance
) -> None:
    # apscheduler b2f516d "Added overloads for get_next_event()": medium, where only a type
    # checker reads `@overload` declarations
    # the async scheduler and the sync one, as in the commit
    paths = [f"src/apscheduler/_schedulers/{m}.py" for m in ("async_", "sync")]
    _, commit = second_commit(
        tmp_path,
        {p: _SCHEDULER.format(future=future, overloads="") for p in paths},
        {p: _SCHEDULER.format(future=future, overloads=_OVERLOADS) for p in paths},
        "Added overloads for get_next_event()",
    )
    assert analyze(commit).importance is importance
