"""Words on held-out agronholm/anyio (first read at 7f98952): a pin the parent wrote as a
longer version, a module function beside backends' methods of its name, a class's method
each backend defines anew, a reference's explicit title in a docstring, an action updated
at one step of several; each a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def _uvloop_pin(uvloop: str, *, extra: bool) -> str:
    # the pin where anyio wrote it (an extra's) or as the package's own requirement
    table = "[project.optional-dependencies]\ntest = [" if extra else "dependencies = ["
    return (
        f'[project]\nname = "anyio"\nversion = "4.6.2"\n{table}\n    "trustme",\n    """\\\n'
        f"    uvloop {uvloop}; platform_python_implementation == 'CPython' \\\n"
        "    and platform_system != 'Windows'\\\n"
        '    """\n]\n'
    )


def test_a_pin_the_parent_wrote_with_a_longer_version_is_new(tmp_path: Path) -> None:
    # anyio 85b4131 "Use uvloop 0.21 final in tests": `uvloop >= 0.21.0b1` became
    # `uvloop >= 0.21`; the checker had found `uvloop>=0.21` inside the parent's longer pin
    # (here the package's own requirement: anyio's, an extra's, is not said as the package's)
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": _uvloop_pin(">= 0.21.0b1", extra=False)},
        {"pyproject.toml": _uvloop_pin(">= 0.21", extra=False)},
        "Use uvloop 0.21 final in tests",
    )
    assert "Requires `uvloop>=0.21` (was `>=0.21.0b1`)" in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_an_extras_pin_is_not_said_as_the_packages_requirement(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"pyproject.toml": _uvloop_pin(">= 0.21.0b1", extra=True)},
        {"pyproject.toml": _uvloop_pin(">= 0.21", extra=True)},
        "Use uvloop 0.21 final in tests",
    )
    assert "Requires `uvloop" not in entry_text(analysis)


def test_a_module_function_is_not_a_method_that_ends_in_its_name(tmp_path: Path) -> None:
    # anyio e3acd02 "Allowed wait_socket_readable/writable to accept a file descriptor": the
    # module's `wait_socket_readable` now calls the backend's `wait_readable`, which the
    # parent's `TrioBackend.wait_socket_readable` (renamed) had called; the checker had read
    # both as one `wait_socket_readable`
    core = (
        "from ._eventloop import get_async_backend\n\n\n"
        "def wait_socket_readable(sock):\n"
        '    """Wait until the given socket has data to be read."""\n'
        "    return get_async_backend().{call}\n"
    )
    trio = (
        "from trio.lowlevel import wait_readable\n\n\nclass TrioBackend:\n"
        "    @classmethod\n    async def {name}(cls, {arg}):\n"
        "        await wait_readable({arg})\n"
    )
    before = {
        "src/anyio/_core/_sockets.py": core.format(call="wait_socket_readable(sock)"),
        "src/anyio/_backends/_trio.py": trio.format(name="wait_socket_readable", arg="sock"),
    }
    after = {
        "src/anyio/_core/_sockets.py": core.format(call="wait_readable(sock.fileno())")
        + "\n\ndef wait_readable(obj):\n"
        + '    """Wait until the given object has data to be read."""\n'
        + "    return get_async_backend().wait_readable(obj)\n",
        "src/anyio/_backends/_trio.py": trio.format(name="wait_readable", arg="obj"),
    }
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Allowed wait_socket_readable to accept a file descriptor"
    )
    assert "`wait_socket_readable` now calls `wait_readable`" in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


_BASE_LOCK = (
    "from ._eventloop import get_async_backend\n\n\nclass Lock:\n"
    "    def __new__(cls):\n        return get_async_backend().create_lock()\n\n"
    "    def acquire_nowait(self) -> None:\n"
    '        """Acquire the lock, without blocking."""\n'
    "        raise WouldBlock\n\n"
    "    async def acquire(self) -> None:\n"
    '        """Acquire the lock."""\n'
    "{body}"
)
_OWN_ACQUIRE = (
    "        try:\n            self.acquire_nowait()\n        except WouldBlock:\n"
    "            event = Event()\n            await event.wait()\n"
)
_BACKEND = (
    "import asyncio\n\nfrom .._core._synchronization import Lock as BaseLock\n\n\n"
    "class AsyncIOBackend:\n    @classmethod\n    def create_event(cls):\n"
    "        return asyncio.Event()\n"
)
_BACKEND_LOCK = (
    "\n\nclass Lock(BaseLock):\n"
    "    async def acquire(self) -> None:\n"
    "        try:\n            self.acquire_nowait()\n        except WouldBlock:\n"
    "            await self._park()\n\n"
    "    def locked(self) -> bool:\n        return self._owner is not None\n"
)


def test_a_method_each_backend_defines_anew_is_said_with_its_file(tmp_path: Path) -> None:
    # anyio 0c8ad51 "Delegated the implementations of Lock and Semaphore to the async backend
    # class": each backend's new `Lock(BaseLock)` defines `acquire`, `locked`, which the base
    # class in `_core/_synchronization.py` had already; the entry said "Adds
    # `Lock.acquire() -> None`, …" and "`Lock.acquire` … no longer call … `acquire_nowait`"
    # (the backend's does), naming no file
    before = {
        "src/anyio/_core/_synchronization.py": _BASE_LOCK.format(body=_OWN_ACQUIRE),
        "src/anyio/_backends/_asyncio.py": _BACKEND,
        "src/anyio/_backends/_trio.py": _BACKEND.replace("asyncio", "trio"),
    }
    after = {
        "src/anyio/_core/_synchronization.py": _BASE_LOCK.format(
            body="        raise NotImplementedError\n"
        ),
        "src/anyio/_backends/_asyncio.py": _BACKEND + _BACKEND_LOCK,
        "src/anyio/_backends/_trio.py": _BACKEND.replace("asyncio", "trio") + _BACKEND_LOCK,
    }
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Delegated the implementations of Lock to the async backend"
    )
    text = entry_text(analysis)
    assert "to `src/anyio/_backends/_asyncio.py`" in text
    assert "`Lock.acquire` in `src/anyio/_core/_synchronization.py` no longer calls" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_raise_new_to_one_backend_s_method_is_said_with_its_file(tmp_path: Path) -> None:
    # anyio ebdc950 "Added task handle support to start() and start_soon()": the asyncio
    # backend's `TaskGroup.start` now raises the `RuntimeError` that the trio backend's
    # already raised; the entry said "`TaskGroup.start` may now raise `RuntimeError` with …"
    message = "This task group is not active; no new tasks can be started."
    check = f"        if not self._active:\n            raise RuntimeError({message!r})\n\n"
    group = (
        "class TaskGroup:\n    async def start(self, func, *args, name=None):\n"
        "{check}        return await self._nursery.start(func, *args, name=name)\n"
    )
    before = {
        "src/anyio/_backends/_asyncio.py": group.format(check=""),
        "src/anyio/_backends/_trio.py": group.format(check=check),
    }
    after = {
        "src/anyio/_backends/_asyncio.py": group.format(check=check),
        "src/anyio/_backends/_trio.py": group.format(check=check) + "\n# handles\n",
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Added task handle support")
    said = "`TaskGroup.start` in `src/anyio/_backends/_asyncio.py` may now raise `RuntimeError`"
    assert said in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_docstring_reference_reads_as_its_explicit_title(tmp_path: Path) -> None:
    # anyio ebdc950: `TaskHandle.start_value`'s docstring opens "The value passed to
    # :meth:`task_status.started() <.abc.TaskStatus.started>`,"; a reader sees the title
    doc = "The value passed to :meth:`task_status.started() <.abc.TaskStatus.started>`,"
    after = (
        "class TaskHandle:\n    @property\n    def start_value(self):\n"
        f'        """\n        {doc}\n        """\n        return self._start_value\n'
    )
    root, commit = second_commit(
        tmp_path,
        {"src/anyio/_core/_tasks.py": "class TaskHandle:\n    pass\n"},
        {"src/anyio/_core/_tasks.py": after},
        "Added task handle support",
    )
    words = "`TaskHandle.start_value`, per its docstring: “The value passed to `task_status.started()`,”."
    assert verdicts_of(root, commit.sha, words) == [(Kind.DOCUMENTED, Verdict.TRUE)]


def _workflow(*refs: str) -> str:
    steps = "".join(f"      - uses: actions/checkout@{ref}\n      - run: pytest\n" for ref in refs)
    return f"name: downstream\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n{steps}"


def test_an_action_updated_at_one_step_of_several_is_not_the_file_s(tmp_path: Path) -> None:
    # anyio 7392f37 "Updated the Starlette downstream test jobs to use uv": one job's
    # `actions/checkout@v4` became `@v5`, the other jobs' stay; the entry said "Updates the
    # GitHub Action `actions/checkout` from `v4` to `v5` in `…/test-downstream.yml`"
    path = ".github/workflows/test-downstream.yml"
    analysis, verdicts = checked_entry(
        tmp_path,
        {path: _workflow("v4", "v4", "v4")},
        {path: _workflow("v4", "v5", "v4")},
        "Updated the Starlette downstream test jobs to use uv",
    )
    assert "GitHub Action" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)
    # every step updated is the file's update
    analysis, verdicts = checked_entry(
        tmp_path / "all",
        {path: _workflow("v4", "v4", "v4")},
        {path: _workflow("v5", "v5", "v5")},
        "Bump actions/checkout from 4 to 5",
    )
    assert "Updates the GitHub Action `actions/checkout` from `v4` to `v5`" in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_reads_a_bare_call_in_prose_as_the_function_it_names(tmp_path: Path) -> None:
    # anyio e3acd02's version history: "Added the `wait_readable()` and `wait_writable()`
    # functions …" was read as signatures taking no parameter, false beside `(obj)`
    sockets = "def wait_socket_readable(sock):\n    return sock\n"
    added = sockets + "\n\ndef wait_readable(obj):\n    return obj\n"
    root, commit = second_commit(
        tmp_path,
        {"src/anyio/_core/_sockets.py": sockets},
        {"src/anyio/_core/_sockets.py": added},
        "Allowed wait_socket_readable to accept a file descriptor",
    )
    said = "Added the `wait_readable()` function which accepts an object with a `.fileno()`."
    assert verdicts_of(root, commit.sha, said) == [(Kind.ADDS, Verdict.TRUE)]
    # a function the parent had already is refuted all the same
    assert verdicts_of(root, commit.sha, said.replace("wait_readable", "wait_socket_readable")) == [
        (Kind.ADDS, Verdict.FALSE)
    ]
