"""Medium entries that said nothing a maintainer can act on (issue 27, held-out readers on
argon2-cffi and trio-websocket), built as clones shaped like the real commits: a `setup.py`
whose `install_requires` raises a floor says the requirement (trio-websocket 218124b
"wsproto_0.14": `wsproto>=0.12,<0.13` became `>=0.14,<0.15`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Analysis
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# trio-websocket's `setup.py`, shortened: the requirements one list in the call
SETUP = (
    "from setuptools import setup, find_packages\n\n"
    "setup(\n"
    "    name='trio-websocket',\n"
    "    packages=find_packages(exclude=['docs', 'examples', 'tests']),\n"
    "    install_requires=[\n"
    "        # After modifying dependencies, always rebuild the requirements-dev.txt\n"
    "        # file! See developer's docs [sic] for more details.\n"
    "        'async_generator>=1.10,<2',\n"
    "        'trio>=0.11',\n"
    "        'wsproto>=0.12,<0.13',\n"
    "    ],\n"
    "    extras_require={'dev': ['pytest>=3.6']},\n"
    ")\n"
)
IMPL = (
    "class WebSocketConnection:\n"
    "    def __init__(self, stream, wsproto):\n"
    "        self._stream = stream\n"
    "        self._wsproto = wsproto\n\n"
    "    async def send_message(self, message):\n"
    "        data = self._wsproto.send(message)\n"
    "        await self._stream.send_all(data)\n"
)


def test_a_setup_py_that_raises_a_floor_says_the_requirement(tmp_path: Path) -> None:
    after_impl = IMPL.replace("self._wsproto.send(message)", "self._wsproto.send(Message(message))")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"setup.py": SETUP, "trio_websocket/_impl.py": IMPL},
        {
            "setup.py": SETUP.replace("'wsproto>=0.12,<0.13'", "'wsproto>=0.14,<0.15'"),
            "trio_websocket/_impl.py": after_impl,
        },
        "Merge pull request #106 from HyperionGray/wsproto_0.14\n\nUpgrade to wsproto 0.14",
    )
    text = entry_text(analysis)
    assert "Requires `wsproto>=0.14,<0.15` (was `>=0.12,<0.13`)" in text
    # the requirements it kept, and an extra's pin, are not said
    assert "trio>=0.11" not in text and "pytest" not in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


# the same `setup.py` written as many are: the requirements a list bound to a name above
SETUP_BOUND = (
    "from setuptools import setup\n\n"
    "REQUIRES = [\n"
    "    'trio>=0.11',\n"
    "    'wsproto>=0.12,<0.13',\n"
    "]\n\n"
    "setup(name='trio-websocket', install_requires=REQUIRES)\n"
)


def test_requirements_bound_to_a_name_are_what_the_call_passes(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"setup.py": SETUP_BOUND, "trio_websocket/_impl.py": IMPL},
        {
            "setup.py": SETUP_BOUND.replace("'wsproto>=0.12,<0.13'", "'wsproto>=0.14,<0.15'"),
            "trio_websocket/_impl.py": IMPL,
        },
        "Upgrade to wsproto 0.14",
    )
    assert "Requires `wsproto>=0.14,<0.15` (was `>=0.12,<0.13`)" in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_requirements_bound_twice_are_not_read_as_one_list(tmp_path: Path) -> None:
    # which binding the call passes depends on what runs: no requirement is claimed
    twice = SETUP_BOUND.replace(
        "\nsetup(", "if sys.platform == 'win32':\n    REQUIRES = ['pywin32']\n\nsetup("
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"setup.py": twice, "trio_websocket/_impl.py": IMPL},
        {
            "setup.py": twice.replace("'wsproto>=0.12,<0.13'", "'wsproto>=0.14,<0.15'"),
            "trio_websocket/_impl.py": IMPL,
        },
        "Upgrade to wsproto 0.14",
    )
    assert "Requires `wsproto" not in entry_text(analysis)


# trio-websocket's exceptions, shortened: the close reason kept on the instance only
EXCEPTIONS = (
    "class CloseReason:\n"
    "    def __init__(self, code, reason):\n"
    "        self.code = code\n"
    "        self.reason = reason\n\n\n"
    "class ConnectionClosed(Exception):\n"
    "    '''A WebSocket operation cannot be completed because the connection is closed.'''\n\n"
    "    def __init__(self, reason):\n"
    "        super().__init__()\n"
    "        self.reason = reason\n\n"
    "    def __repr__(self):\n"
    "        return f'{self.__class__.__name__}<{self.reason}>'\n\n\n"
    "class ConnectionRejected(Exception):\n"
    "    def __init__(self, status_code, headers, body):\n"
    "        super().__init__()\n"
    "        self.status_code = status_code\n"
    "        self.headers = headers\n"
    "        self.body = body\n"
)


def test_an_exception_built_with_its_arguments_says_so(tmp_path: Path) -> None:
    # trio-websocket b74d6bf "fix loss of context/cause on exceptions raised inside
    # open_websocket (#192)": `ConnectionClosed` now hands `reason` to `Exception`
    analysis, verdicts = checked_entry(
        tmp_path,
        {"trio_websocket/_impl.py": EXCEPTIONS},
        {
            "trio_websocket/_impl.py": EXCEPTIONS.replace(
                "super().__init__()", "super().__init__(reason)", 1
            ).replace("super().__init__()", "super().__init__(status_code, headers, body)")
        },
        "fix loss of context/cause on exceptions raised inside open_websocket (#192)\n\nfixes #191",
    )
    text = entry_text(analysis)
    assert "`super().__init__()` became `super().__init__(reason)`" in text
    # two calls that share little text are still one statement rewritten
    assert "`super().__init__()` became `super().__init__(status_code, headers, body)`" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


# argon2-cffi's hasher and helpers, shortened: the parameters checked for types only
HASHER = (
    "from ._utils import Parameters, _check_types\n\n\n"
    "class PasswordHasher:\n"
    "    def __init__(self, time_cost=3, parallelism=4):\n"
    "        e = _check_types(time_cost=(time_cost, int), parallelism=(parallelism, int))\n"
    "        if e:\n"
    "            raise TypeError(e)\n"
    "        params = Parameters(time_cost=time_cost, parallelism=parallelism)\n"
    "        self._parameters = params\n"
)
UTILS = (
    "import platform\n"
    "from dataclasses import dataclass\n\n"
    "from .exceptions import UnsupportedParamsError\n\n\n"
    "@dataclass\n"
    "class Parameters:\n"
    "    time_cost: int\n"
    "    parallelism: int\n\n\n"
    "def _check_types(**kw):\n"
    "    return ', '.join(k for k, (v, t) in kw.items() if not isinstance(v, t))\n"
)
GUARD = (
    "\n\ndef _is_wasm():\n"
    "    return platform.machine() in ('wasm32', 'wasm64')\n\n\n"
    "def validate_params_for_platform(params):\n"
    '    """Validate *params* against current platform."""\n'
    "    if _is_wasm() and params.parallelism != 1:\n"
    "        msg = 'In WebAssembly environments `parallelism` must be 1.'\n"
    "        raise UnsupportedParamsError(msg)\n"
)


def _wasm(tmp_path: Path, call: str, message: str) -> tuple[Analysis, list[Verdict]]:
    """argon2-cffi 52db639's clone: the hasher's constructor gains `call` (its statements that
    call `validate_params_for_platform`) before it keeps its parameters."""
    exceptions = "class UnsupportedParamsError(ValueError):\n    pass\n"
    return checked_entry(
        tmp_path,
        {
            "src/argon2/_password_hasher.py": HASHER,
            "src/argon2/_utils.py": UTILS,
            "src/argon2/exceptions.py": "",
        },
        {
            "src/argon2/_password_hasher.py": HASHER.replace(
                "_check_types\n", "_check_types, validate_params_for_platform\n"
            ).replace(
                "        self._parameters = params\n", call + "        self._parameters = params\n"
            ),
            "src/argon2/_utils.py": UTILS + GUARD,
            "src/argon2/exceptions.py": exceptions,
        },
        message,
    )


def test_a_new_call_of_a_function_that_raises_says_when(tmp_path: Path) -> None:
    # argon2-cffi 52db639 "Add support for wasm32-pyodide (#190)": the hasher's constructor
    # now validates its parameters for the platform, and the helper raises on WebAssembly
    analysis, verdicts = _wasm(
        tmp_path,
        "        validate_params_for_platform(params)\n",
        "Add support for wasm32-pyodide (#190)\n\n* Added support for wasm32-pyodide\n\n"
        "* Pre-commit\n\n---------\n\nCo-authored-by: Hynek Schlawack <hs@ox.cx>",
    )
    text = entry_text(analysis)
    assert (
        "`PasswordHasher.__init__` now calls `validate_params_for_platform`, which raises "
        "`UnsupportedParamsError` when `_is_wasm() and params.parallelism != 1`" in text
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_same_values_passed_by_keyword_to_the_base_are_not_said(tmp_path: Path) -> None:
    # apscheduler 3542f5a: `super().__init__(first_num, last_num)` became
    # `super().__init__(first=first_num, last=last_num)`: the base built the same
    module = (
        "class RangeExpression:\n"
        "    def __init__(self, first, last):\n"
        "        self.first, self.last = first, last\n\n\n"
        "class MonthRangeExpression(RangeExpression):\n"
        "    def __init__(self, first, last):\n"
        "        first_num = int(first)\n"
        "        last_num = int(last)\n"
        "        super().__init__(first_num, last_num)\n"
    )
    after = module.replace(
        "super().__init__(first_num, last_num)", "super().__init__(first=first_num, last=last_num)"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"src/apscheduler/triggers/cron/expressions.py": module},
        {"src/apscheduler/triggers/cron/expressions.py": after},
        "Pass the range's bounds by name",
    )
    assert "became" not in entry_text(analysis)


# `ConnectionRejected` passing its fields to the base by name
_PASSED = "super().__init__(status_code=status_code, headers=headers, body=body)"
_BY_NAME = EXCEPTIONS.replace(
    "    def __init__(self, status_code, headers, body):\n        super().__init__()",
    f"    def __init__(self, status_code, headers, body):\n        {_PASSED}",
)


def test_the_same_keywords_passed_to_the_base_in_another_order_are_not_said(
    tmp_path: Path,
) -> None:
    # trio-websocket b74d6bf's shape, the reviewer's edge: the keywords reordered beside another
    # edit of the function; the base is built the same, the statement is no rewrite
    after = _BY_NAME.replace(
        _PASSED, "super().__init__(body=body, status_code=status_code, headers=headers)"
    ).replace("        self.body = body\n", "        self.body = bytes(body)\n")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"trio_websocket/_impl.py": _BY_NAME},
        {"trio_websocket/_impl.py": after},
        "Keep the rejection's body as bytes",
    )
    assert "became" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_call_whose_keywords_alone_are_reordered_is_the_same_code(tmp_path: Path) -> None:
    # the same shape, the keywords' order the only edit: the entry had said it "became"
    after = _BY_NAME.replace(
        _PASSED, "super().__init__(headers=headers, body=body, status_code=status_code)"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"trio_websocket/_impl.py": _BY_NAME},
        {"trio_websocket/_impl.py": after},
        "Pass the rejection's fields in the order of the docs",
    )
    assert entry_text(analysis) == "Pass the rejection's fields in the order of the docs."


@pytest.mark.parametrize(
    ("handler", "said"),
    [
        ("except UnsupportedParamsError:", False),
        # its base, followed into `exceptions.py`
        ("except ValueError:", False),
        ("except (TypeError, Exception):", False),
        ("except:", False),
        # a handler of another class catches none of it
        ("except TypeError:", True),
    ],
)
def test_a_new_call_its_caller_catches_around_raises_nothing_for_callers(
    tmp_path: Path, handler: str, said: bool
) -> None:
    # argon2-cffi 52db639's shape, the reviewer's edge: the hasher catches what the new call
    # raises, and its callers meet none of it
    caught = (
        "        try:\n"
        "            validate_params_for_platform(params)\n"
        f"        {handler}\n"
        "            params = Parameters(time_cost=time_cost, parallelism=1)\n"
    )
    analysis, verdicts = _wasm(tmp_path, caught, "Add support for wasm32-pyodide (#190)")
    assert ("which raises `UnsupportedParamsError`" in entry_text(analysis)) is said
    assert Verdict.FALSE not in verdicts
