"""Words on held-out python-trio/trio, hynek/svcs and aio-libs/aiohappyeyeballs (first read
at 7a6f1db): a class a type checker saw before it ran, a new function named like a class's
field, a CommonJS config turned ES module, Python support said in two tables; each a clone
shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def test_a_class_declared_for_type_checkers_is_not_added_when_it_runs(tmp_path: Path) -> None:
    # trio 19196a8 "Drop 3.9 support": `open_memory_channel` had been a class with `__new__`
    # and `__init__` under `if TYPE_CHECKING:` (and `generic_function(_open_memory_channel)`
    # at run time); now that class runs. The entry said "Adds `open_memory_channel.__init__`"
    # and "Renames `_open_memory_channel` to `open_memory_channel.__new__`"
    body = (
        "    if max_buffer_size < 0:\n"
        '        raise ValueError("max_buffer_size must be >= 0")\n'
        "    state = MemoryChannelState(max_buffer_size)\n"
        "    return (MemorySendChannel._create(state), MemoryReceiveChannel._create(state))\n"
    )
    before = (
        "from typing import TYPE_CHECKING\n\nfrom ._util import generic_function\n\n\n"
        f"def _open_memory_channel(max_buffer_size):\n{body}\n\n"
        "if TYPE_CHECKING:\n\n"
        "    class open_memory_channel(tuple):\n"
        "        def __new__(cls, max_buffer_size):\n"
        "            return _open_memory_channel(max_buffer_size)\n\n"
        "        def __init__(self, max_buffer_size) -> None: ...\n\n"
        "else:\n"
        "    open_memory_channel = generic_function(_open_memory_channel)\n"
    )
    after = (
        "class open_memory_channel(tuple):\n"
        "    def __new__(cls, max_buffer_size):\n"
        + "".join(f"    {line}\n" for line in body.splitlines())
        + "\n    def __init__(self, max_buffer_size) -> None: ...\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/trio/_channel.py": before},
        {"src/trio/_channel.py": after},
        "Drop 3.9 support (#3345)",
    )
    text = entry_text(analysis)
    assert "open_memory_channel.__init__" not in text
    assert "open_memory_channel.__new__" not in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_new_function_named_like_a_class_field_is_added(tmp_path: Path) -> None:
    # svcs 7d56b11 "FastAPI/Starlette: add get_registry(app|testclient)": the new module
    # function `registry(request)` beside the parent's field `lifespan.registry`; the checker
    # had called "Adds `registry(request) -> svcs.Registry`" false
    before = (
        "import attrs\n\n\n@attrs.define\nclass lifespan:\n"
        "    registry: object = attrs.field(factory=dict)\n"
    )
    after = before + (
        "\n\nasync def registry(request) -> dict:\n"
        '    """The application\'s registry."""\n'
        '    return getattr(request.state, "svcs_registry")\n'
    )
    root, commit = second_commit(
        tmp_path, {"src/svcs/fastapi.py": before}, {"src/svcs/fastapi.py": after}, "Add registry"
    )
    verdicts = verdicts_of(root, commit.sha, "Adds `registry(request) -> dict`.")
    assert verdicts == [(Kind.ADDS_SIGNATURE, Verdict.TRUE)]
    # and a claim about a name the parent already had is still false
    again = verdicts_of(root, commit.sha, "Adds `lifespan.registry`.")
    assert [v for _, v in again] == [Verdict.FALSE]


def test_a_javascript_tool_s_settings_file_exports_no_api(tmp_path: Path) -> None:
    # aiohappyeyeballs 9baf0b3: `commitlint.config.js`'s `module.exports = {extends, rules}`
    # became `commitlint.config.mjs`'s `export default {extends, rules}`; the entry said
    # "Removes `extends`, `rules` from `commitlint.config.mjs`"; a tool's settings at the top
    # are no module anybody imports (the file's deletion, b5dec0c, said the same)
    keys = '  extends: ["@commitlint/config-conventional"],\n  rules: {},\n};\n'
    analysis, verdicts = checked_entry(
        tmp_path,
        {"commitlint.config.js": "module.exports = {\n" + keys},
        {"commitlint.config.js": None, "commitlint.config.mjs": "export default {\n" + keys},
        "chore(deps-ci): bump the github-actions group with 9 updates (#135)",
    )
    assert "Removes" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_python_support_the_parent_wrote_in_poetry_s_table_is_not_new(tmp_path: Path) -> None:
    # aiohappyeyeballs 850640e "chore: migrate to poetry 2.0": `requires-python = ">=3.9"`
    # added while `[tool.poetry.dependencies] python = ">=3.9"` stays; the entry said
    # "Requires `python>=3.9`, `poetry-core>=2.0.0` (was `>=1.0.0`)"
    tail = (
        '[tool.poetry.dependencies]\npython = ">=3.9"\n\n'
        '[build-system]\nrequires = ["poetry-core>={core}"]\n'
        'build-backend = "poetry.core.masonry.api"\n'
    )
    before = '[tool.poetry]\nname = "aiohappyeyeballs"\nversion = "2.4.4"\n\n' + tail.format(
        core="1.0.0"
    )
    after = (
        '[project]\nname = "aiohappyeyeballs"\nversion = "2.4.4"\nrequires-python = ">=3.9"\n\n'
        "[tool.poetry]\n\n" + tail.format(core="2.0.0")
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": before},
        {"pyproject.toml": after},
        "chore: migrate to poetry 2.0 (#132)",
    )
    text = entry_text(analysis)
    assert "python>=3.9" not in text
    assert "`poetry-core>=2.0.0` (was `>=1.0.0`)" in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_an_exception_raised_through_a_called_function_is_not_new(tmp_path: Path) -> None:
    # trio f03663a "Change `fail_after`&`move_on_after` to set deadline relative to
    # entering": `fail_after` had raised `TooSlowError` through `fail_at` and now raises it
    # itself; its `ValueError` now comes from `move_on_after`. The entry said "`fail_after`
    # now raises `TooSlowError` instead of `ValueError`"
    common = (
        "from contextlib import contextmanager\n\n\n"
        "class TooSlowError(Exception):\n    pass\n\n\n"
        "def move_on_after(seconds):\n"
        "    if seconds < 0:\n"
        '        raise ValueError("`seconds` must be non-negative")\n'
        "    return CancelScope(relative_deadline=seconds)\n\n\n"
        "@contextmanager\n"
        "def fail_at(deadline):\n"
        "    with move_on_at(deadline) as scope:\n        yield scope\n"
        "    if scope.cancelled_caught:\n        raise TooSlowError\n\n\n"
    )
    before = common + (
        "def fail_after(seconds):\n"
        "    if seconds < 0:\n"
        '        raise ValueError("timeout must be non-negative")\n'
        "    return fail_at(current_time() + seconds)\n"
    )
    after = common + (
        "@contextmanager\n"
        "def fail_after(seconds):\n"
        "    with move_on_after(seconds) as scope:\n        yield scope\n"
        "    if scope.cancelled_caught:\n        raise TooSlowError\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/trio/_timeouts.py": before},
        {"src/trio/_timeouts.py": after},
        "Set the deadline of fail_after relative to entering",
    )
    text = entry_text(analysis)
    assert "TooSlowError" not in text and "instead of" not in text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_parameters_no_caller_names_are_neither_gained_nor_lost(tmp_path: Path) -> None:
    # trio b914c84 "Switch to using PEP570 for positional-only arguments": PEP 484's
    # `def recv(__self, __buflen, __flags=0)` became `def recv(self, buflen, flags=0, /)`; the
    # entry said "`SocketType.recv` … gains the parameters `buflen`, `flags`"
    before = (
        "class SocketType:\n"
        "    def recv(__self, __buflen: int, __flags: int = 0) -> bytes:\n"
        "        raise NotImplementedError\n\n"
        "    async def sendmsg(self, __buffers, __ancdata=(), __flags=0) -> int:\n"
        "        raise NotImplementedError\n"
    )
    after = (
        "class SocketType:\n"
        "    def recv(self, buflen: int, flags: int = 0, /) -> bytes:\n"
        "        raise NotImplementedError\n\n"
        "    async def sendmsg(self, buffers, ancdata=(), flags=0, /) -> int:\n"
        "        raise NotImplementedError\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/trio/_socket.py": before},
        {"src/trio/_socket.py": after},
        "Switch to using PEP570 for positional-only arguments (#3094)",
    )
    text = entry_text(analysis)
    assert "parameter" not in text, text
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_type_respelled_is_no_type_a_caller_meets_anew(tmp_path: Path) -> None:
    # frozenlist 0726dc8 "Enable UP rules in ruff config": pyupgrade wrote
    # `Optional[Iterable[_T]]` as `Iterable[_T] | None`; the entry said "`FrozenList.__init__`
    # now takes `Iterable[_T] | None` (was `Optional[Iterable[_T]]`)"
    before = (
        "from typing import Generic, Iterable, Optional, TypeVar\n\n_T = TypeVar('_T')\n\n\n"
        "class FrozenList(Generic[_T]):\n"
        "    def __init__(self, items: Optional[Iterable[_T]] = None) -> None:\n"
        "        self._items = list(items or ())\n"
    )
    after = before.replace("Optional[Iterable[_T]]", "Iterable[_T] | None").replace(
        "from typing import Generic, Iterable, Optional, TypeVar",
        "from collections.abc import Iterable\nfrom typing import Generic, TypeVar",
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"frozenlist/__init__.py": before},
        {"frozenlist/__init__.py": after},
        "Enable UP rules in ruff config (#770)",
    )
    assert "now takes" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_scratch_scripts_no_import_reaches_are_not_shipped(tmp_path: Path) -> None:
    # trio b10c043 "Merge pull request #3117 from jakkdl/remove_notes_to_self": the folder
    # `notes-to-self/` of scratch scripts deleted; the entry was medium for "Removes `AFDLab`,
    # `AFDLab.afd_poll`, `fill_socket` and 1 more from `notes-to-self/afd-lab.py`"
    script = (
        "class AFDLab:\n    def afd_poll(self, sock):\n        return sock\n\n\n"
        "def fill_socket(sock):\n    sock.send(b'x' * 65536)\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"notes-to-self/afd-lab.py": script, "src/trio/_core.py": "X = 1\n"},
        {"notes-to-self/afd-lab.py": None},
        "Remove notes-to-self",
    )
    assert analysis.importance.value == "low"
    assert "AFDLab" not in analysis.summary
    assert all(v is Verdict.TRUE for v in verdicts)
    # a module of the package is shipped, and its public removal said
    analysis, _ = checked_entry(
        tmp_path / "package",
        {"src/trio/afd_lab.py": script},
        {"src/trio/afd_lab.py": "X = 1\n"},
        "Remove the AFD lab",
    )
    assert "`AFDLab`" in entry_text(analysis)


def test_a_try_moved_into_a_helper_the_function_calls_still_catches(tmp_path: Path) -> None:
    # svcs b5f8ac5 "Add ty": `_takes_container`'s `try: inspect.signature(…) except
    # Exception: return False` moved into `_robust_signature`, which it now calls; the entry
    # said "`_takes_container` no longer catches `Exception`"
    before = (
        "import inspect\n\n\n"
        "def takes_container(factory) -> bool:\n"
        "    try:\n        sig = inspect.signature(factory)\n"
        "    except Exception:\n        return False\n"
        "    return bool(sig.parameters)\n"
    )
    after = (
        "import inspect\n\n\n"
        "def _robust_signature(factory):\n"
        "    try:\n        return inspect.signature(factory)\n"
        "    except Exception:\n        return None\n\n\n"
        "def takes_container(factory) -> bool:\n"
        "    if not (sig := _robust_signature(factory)):\n        return False\n"
        "    return bool(sig.parameters)\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/svcs/_core.py": before},
        {"src/svcs/_core.py": after},
        "Add ty",
    )
    assert "catches" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_sentence_split_into_a_paragraph_of_its_own_is_not_new(tmp_path: Path) -> None:
    # trio 96ca688 "Address review feedback": "Returned by :meth:`MemorySendChannel.statistics`
    # …" became a paragraph of its own; the entry said "The docstring of
    # `MemoryChannelStatistics` now says: “Returned by `MemorySendChannel.statistics` …”"
    before = (
        "class MemoryChannelStatistics:\n"
        '    """Statistics describing the current state of a memory channel.\n'
        "    Returned by :meth:`MemorySendChannel.statistics` and\n"
        "    :meth:`MemoryReceiveChannel.statistics`.\n\n"
        "    * ``current_buffer_used`` (int): items stored.\n"
        '    """\n\n    current_buffer_used: int\n'
    )
    after = before.replace(
        "a memory channel.\n    Returned", "a memory channel.\n\n    Returned"
    ).replace("    * ``current_buffer_used`` (int): items stored.\n", "")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/trio/_channel.py": before},
        {"src/trio/_channel.py": after},
        "Address review feedback",
    )
    assert "now says" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)
