"""Edges a reviewer found in this stop's rules, each shaped like a commit a user could push:
a deployed application that installs itself, a resource leak, a placeholder in a code span,
settings equal only to Python, a re-raise rewritten as a narrowing, a pin moved out of a
requirements file, a package's private alias or a star import of a module listing `__all__`,
a property become an instance attribute."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.layout import same_settings
from bot.analysis.messages import roles_as_code
from bot.cli.claims_eval import entry_text
from bot.models import FileChange, Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_APP = "".join(f"def view_{i}(request):\n    return {i}\n\n\n" for i in range(6))


def test_an_application_that_installs_itself_still_requires_its_pins(tmp_path: Path) -> None:
    # a deployed application's `requirements.txt`: `-e .` beside its runtime pins, no test tool
    pins = "-e .\nflask==3.0.0\nurllib3=={}\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"requirements.txt": pins.format("2.2.1"), "app/views.py": _APP},
        {"requirements.txt": pins.format("2.2.2"), "app/views.py": _APP.replace("6", "7")},
        "Bump urllib3 to 2.2.2 to fix CVE-2024-37891",
    )
    assert "Requires `urllib3==2.2.2`" in entry_text(analysis)
    assert analysis.importance is Importance.HIGH


def test_a_resource_leaked_near_a_secret_is_no_security_fix(tmp_path: Path) -> None:
    loader = (
        "def load_credentials(path):\n    handle = open(path)\n{close}"
        "    data = handle.read()\n    return data.split()\n"
    )
    more = "".join(f"def step_{i}(x):\n    return x + {i}\n\n\n" for i in range(5))
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/auth.py": more + loader.format(close="")},
        {
            "pkg/auth.py": more.replace("x + 4", "x - 4")
            + loader.format(close="    handle.close()\n    handle = open(path)\n")
        },
        "Fix leaked file descriptor when loading credentials",
    )
    assert analysis.importance is not Importance.HIGH
    assert "another origin" not in entry_text(analysis)


def test_a_placeholder_in_a_code_span_is_no_myst_role() -> None:
    assert roles_as_code("Use `{name}` or `{id}` in the template.") == (
        "Use `{name}` or `{id}` in the template."
    )
    assert roles_as_code("Fix {meth}`Converter.hook`.") == "Fix `Converter.hook`."


@pytest.mark.parametrize(
    ("path", "before", "after"),
    [
        ("pyproject.toml", "[tool.x]\ndebug = true\n", "[tool.x]\ndebug = 1\n"),
        ("pyproject.toml", "[tool.x]\nratio = 1\n", "[tool.x]\nratio = 1.0\n"),
    ],
)
def test_settings_equal_only_to_python_are_not_the_same(path: str, before: str, after: str) -> None:
    change = FileChange(filename=path, status="modified", patch="@@", before=before, after=after)
    assert not same_settings(change)


def test_a_re_raise_rewritten_as_a_narrowing_raises_nothing_new(tmp_path: Path) -> None:
    body = "".join(f"def step_{i}(x):\n    return x + {i}\n\n\n" for i in range(4))
    before = body + (
        "def run(job):\n    try:\n        return job()\n"
        "    except KeyboardInterrupt:\n        log('stopped')\n        raise\n"
    )
    after = body.replace("x + 3", "x - 3") + (
        "def run(job):\n    try:\n        return job()\n"
        "    except BaseException as exc:\n        log('stopped')\n"
        "        if isinstance(exc, KeyboardInterrupt):\n            raise exc\n"
        "        return None\n"
    )
    analysis, _ = checked_entry(
        tmp_path, {"pkg/run.py": before}, {"pkg/run.py": after}, "Stop quietly on errors"
    )
    assert "may now raise `KeyboardInterrupt`" not in entry_text(analysis)


def test_a_pin_moved_out_of_a_requirements_file_moves_no_metadata(tmp_path: Path) -> None:
    project = '[project]\nname = "app"\nversion = "1.0"\ndependencies = [\n{deps}]\n'
    analysis, _ = checked_entry(
        tmp_path,
        {
            "requirements.txt": "flask==3.0.0\nrequests==2.31.0\n",
            "pyproject.toml": project.format(deps=""),
            "app/views.py": _APP,
        },
        {
            "requirements.txt": "flask==3.0.0\n",
            "pyproject.toml": project.format(deps='    "requests==2.31.0",\n'),
            "app/views.py": _APP.replace("6", "7"),
        },
        "Declare requests in the project",
    )
    assert "Moves the package metadata" not in entry_text(analysis)


_DECORATORS = (
    "{listed}def typechecked(func=None, *, {first}):\n    return func\n\n\n"
    "def instrument(func, *, {second}):\n    return func\n"
)


@pytest.mark.parametrize(
    ("init", "listed", "lost"),
    [
        # the package binds the function under a private name for its own use, no `__all__`
        ("from ._decorators import typechecked as _typechecked\n", "", "typechecked"),
        # a star import takes only what the private module's `__all__` lists
        ("from ._decorators import *\n", '__all__ = ["typechecked"]\n\n', "instrument"),
    ],
)
def test_a_function_the_package_does_not_hand_out_breaks_nothing(
    tmp_path: Path, init: str, listed: str, lost: str
) -> None:
    params = {"first": "config=None", "second": "config=None"}
    changed = {**params, ("first" if lost == "typechecked" else "second"): "strict=True"}
    before = {
        "src/checks/__init__.py": init + "from ._functions import check_type\n",
        "src/checks/_functions.py": "def check_type(value, hint):\n    return value\n",
        "src/checks/_decorators.py": _DECORATORS.format(listed=listed, **params),
    }
    after = {"src/checks/_decorators.py": _DECORATORS.format(listed=listed, **changed)}
    analysis, _ = checked_entry(tmp_path, before, after, "Rework the instrumentation")
    assert not analysis.breaking
    assert not any("Calls that pass" in r.consequence for r in analysis.risks)


_WRAPPER = (
    "class _Wrapper:\n    def __init__(self, fn, size):\n        self._fn = fn\n{init}\n"
    "{prop}    def __call__(self, *args):\n        return self._fn(*args)\n\n"
    "    def cache_clear(self):\n        return None\n\n\n"
    "def wrap(fn, size=128) -> _Wrapper:\n    return _Wrapper(fn, size)\n"
)


def test_a_property_become_an_instance_attribute_is_not_lost(tmp_path: Path) -> None:
    prop = "    @property\n    def size(self):\n        return self._size\n\n"
    before = {
        "src/lru/__init__.py": "from .core import wrap\n",
        "src/lru/core.py": _WRAPPER.format(init="        self._size = size\n", prop=prop),
    }
    after = {"src/lru/core.py": _WRAPPER.format(init="        self.size = size\n", prop="")}
    analysis, _ = checked_entry(tmp_path, before, after, "Store the size as an attribute")
    assert not analysis.breaking
    assert "no longer has `size`" not in entry_text(analysis)


def test_what_a_private_package_hands_out_is_its_insides(tmp_path: Path) -> None:
    impl = "def helper(x, *, {flag}=False):\n    return x\n\n\ndef other(y):\n    return y\n"
    api = "from ._internal import helper\n\n\ndef run(x):\n    return helper(x, {flag}=True)\n"
    before = {
        "src/pkg/__init__.py": "from .api import run\n",
        "src/pkg/api.py": api.format(flag="fast"),
        "src/pkg/_internal/__init__.py": "from ._impl import helper\n",
        "src/pkg/_internal/_impl.py": impl.format(flag="fast"),
    }
    after = {
        "src/pkg/api.py": api.format(flag="quick"),
        "src/pkg/_internal/__init__.py": "from ._impl import helper, other\n",
        "src/pkg/_internal/_impl.py": impl.format(flag="quick"),
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Rename the fast flag")
    assert not analysis.breaking
    assert not any("Calls that pass" in r.consequence for r in analysis.risks)


def test_a_typed_fixture_package_among_the_tests_ships_nothing(tmp_path: Path) -> None:
    cfg = (
        "[metadata]\nname = app\n\n[options]\npackages = find:\ninstall_requires =\n"
        "    attrs{floor}\n\n[options.package_data]\n* = py.typed\n"
    )
    before = {"setup.cfg": cfg.format(floor=""), "app/__init__.py": "X = 1\n", "app/py.typed": ""}
    after = {
        "setup.cfg": cfg.format(floor=">=22"),
        "tests/data/stubpkg/__init__.py": "def f() -> int: ...\n",
        "tests/data/stubpkg/py.typed": "",
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Add a typed fixture package for tests")
    assert "type information" not in entry_text(analysis)


def test_a_call_of_another_package_s_function_of_the_same_name_raises_nothing_of_ours(
    tmp_path: Path,
) -> None:
    api = (
        "from jsonschema import validate\n\nSCHEMA = {{}}\n\n\n"
        "def load(data):\n{body}    return data\n\n\ndef dump(data):\n    return data\n"
    )
    params = (
        "def validate(params):\n    if params.parallelism > {most}:\n"
        "        raise ValueError('too parallel')\n    return params\n\n\n"
        "def other():\n    return 1\n"
    )
    before = {"pkg/api.py": api.format(body=""), "pkg/params.py": params.format(most=64)}
    after = {
        "pkg/api.py": api.format(body="    validate(data, SCHEMA)\n"),
        "pkg/params.py": params.format(most=128),
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Validate loaded data")
    assert "which raises" not in entry_text(analysis)


def test_a_message_whose_spaces_alone_change_is_not_reworded(tmp_path: Path) -> None:
    body = "".join(f"def step_{i}(x):\n    return x + {i}\n\n\n" for i in range(4))
    check = "def check(x):\n    if x < 0:\n        raise ValueError({message})\n    return x\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/check.py": body + check.format(message='"value must be  positive"')},
        {"pkg/check.py": body + check.format(message='"value must be positive"')},
        "Tidy the message",
    )
    assert "now says" not in entry_text(analysis)


def test_a_long_elif_chain_rewritten_by_a_linter_is_read(tmp_path: Path) -> None:
    # generated dispatch code: 400 branches nest 400 `If` nodes deep, past `ast.dump`'s
    # recursion (the whole analysis raised RecursionError)
    chain = (
        "def dispatch(op):\n    if op == 0:\n        return 0\n"
        + "".join(f"    elif op == {i}:\n        return {i}\n" for i in range(1, 400))
        + "    return None\n"
    )
    after = chain.replace("    elif op == 1:\n", "    if op == 1:\n")
    analysis, _ = checked_entry(
        tmp_path, {"pkg/ops.py": chain}, {"pkg/ops.py": after}, "Fix ruff RET505 warnings"
    )
    assert analysis.importance is Importance.LOW
    assert not analysis.breaking


_CI = """name: CI
on:
  push:
    branches: [main]
    tags: ["*"]
  pull_request:
jobs:
  test:
    runs-on: ${{{{ matrix.os }}}}
    strategy:
      matrix:
        os: [ubuntu-latest, windows-latest, {mac}]
    steps:
      - uses: actions/checkout@v4
      - run: pip install -e .[test]
      - run: pytest --junitxml=build/test-reports/junit.xml
      - uses: actions/upload-artifact@v4
        with:
          name: test-reports-${{{{ matrix.os }}}}
          path: build/test-reports/
"""


def test_a_tag_s_test_matrix_uploading_reports_under_build_releases_nothing(
    tmp_path: Path,
) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {".github/workflows/ci.yml": _CI.format(mac="macos-latest"), "pkg/__init__.py": "X = 1\n"},
        {".github/workflows/ci.yml": _CI.format(mac="macos-13")},
        "Pin the macOS runner",
    )
    assert "release binaries" not in entry_text(analysis)
    assert analysis.importance is Importance.LOW


def test_a_python_requirement_its_setup_cfg_already_held_is_not_newly_set(
    tmp_path: Path,
) -> None:
    setup = (
        'from setuptools import setup\n\nsetup(\n    name="app",\n    version="1.0",\n'
        '    packages=["app"],\n{extra})\n'
    )
    cfg = "[metadata]\nname = app\n\n[options]\npython_requires = >=3.8\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"setup.py": setup.format(extra=""), "setup.cfg": cfg, "app/__init__.py": "X = 1\n"},
        {"setup.py": setup.format(extra='    python_requires=">=3.8",\n')},
        "Declare python_requires in setup.py too",
    )
    assert "no Python version was required before" not in entry_text(analysis)
    assert analysis.importance is not Importance.HIGH


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"Failed to connect to %s", host', 'f"Failed to connect to {host}"'),
        ('"Failed to connect to %s" % host', '"Failed to connect to %s", host'),
        ('"Failed to connect to {}".format(host)', '"Failed to connect to %s", host'),
    ],
)
def test_a_logged_message_put_another_way_is_not_newly_logged(
    tmp_path: Path, old: str, new: str
) -> None:
    # ruff's G002/G004 fixes ("Use lazy logging"): the same warning, formatted otherwise
    head = "import logging\n\nlogger = logging.getLogger(__name__)\n\n\n" + "".join(
        f"def step_{i}(x):\n    return x + {i}\n\n\n" for i in range(4)
    )
    connect = (
        "def connect(host):\n    try:\n        return open_socket(host)\n"
        "    except OSError:\n        logger.warning({args})\n        return None\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/net.py": head + connect.format(args=old)},
        {"pkg/net.py": head + connect.format(args=new)},
        "Use lazy logging",
    )
    assert "now logs" not in entry_text(analysis)
