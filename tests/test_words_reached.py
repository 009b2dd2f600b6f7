"""Members of a private class a public function hands its callers (issue 27, aio-libs/async-lru's
2.0 rewrite: `alru_cache` returns `_LRUCacheWrapper`, whose `cache_open()` caeb9a0 removes and
whose `invalidate()` b8df413 renames); and the package metadata a `setup.py` holds (aiodns
9dafe6b sets `python_requires`, async-lru 09f3009 moves it to `setup.cfg`), and the `py.typed`
a package newly ships. Clones shaped like the commits."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_WRAPPER = """from typing import Any, Callable, Generic, TypeVar, Union, overload

_R = TypeVar("_R")


class _LRUCacheWrapper(Generic[_R]):
    def __init__(self, fn: Callable[..., Any], maxsize: int) -> None:
        self.__wrapped__ = fn
        self.__maxsize = maxsize
        self.__cache: dict[Any, Any] = {}

    def cache_clear(self) -> None:
        self.__cache.clear()
@MEMBERS@
    def __get__(self, instance: Any, owner: Any) -> "_BoundWrapper[_R]":
        return _BoundWrapper(self, instance)

    async def __call__(self, *args: Any) -> _R:
        if args in self.__cache:
            return self.__cache[args]
        result = await self.__wrapped__(*args)
        self.__cache[args] = result
        return result


class _BoundWrapper(Generic[_R]):
    def __init__(self, wrapper: _LRUCacheWrapper[_R], instance: Any) -> None:
        self.__wrapper = wrapper
        self.__instance = instance

    def cache_clear(self) -> None:
        self.__wrapper.cache_clear()
@BOUND@

def _make_wrapper(maxsize: int) -> Callable[[Callable[..., Any]], _LRUCacheWrapper[Any]]:
    def wrapper(fn: Callable[..., Any]) -> _LRUCacheWrapper[Any]:
        return _LRUCacheWrapper(fn, maxsize)

    return wrapper


def alru_cache(
    maxsize: Union[int, Callable[..., Any]] = 128,
) -> Union[Callable[[Callable[..., Any]], _LRUCacheWrapper[Any]], _LRUCacheWrapper[Any]]:
    if callable(maxsize):
        return _make_wrapper(128)(maxsize)
    return _make_wrapper(maxsize)
"""


def _module(members: str, bound: str, source: str = _WRAPPER) -> str:
    return source.replace("@MEMBERS@", members).replace("@BOUND@", bound)


_OPEN = """
    def cache_open(self) -> None:
        self.__closed = False
        self.__cache.clear()
"""
_CLOSE_OLD = """
    async def cache_close(self, *, cancel: bool = False, return_exceptions: bool = True) -> None:
        self.__closed = True
        if cancel:
            self.__cache.clear()
"""
_CLOSE_NEW = """
    async def cache_close(self, *, wait: bool = False) -> None:
        self.__closed = True
        if wait:
            self.__cache.clear()
"""
_BOUND_OPEN = """
    def cache_open(self) -> None:
        self.__wrapper.cache_open()
"""


def test_a_member_the_wrapper_a_public_decorator_returns_loses_is_the_callers_loss(
    tmp_path: Path,
) -> None:
    # caeb9a0 "Simplify cache closing behavior": said "`_LRUCacheWrapper.cache_close` no
    # longer calls `_wait_closed`", medium, the removal as a private class's
    before = {"async_lru/__init__.py": _module(_OPEN + _CLOSE_OLD, _BOUND_OPEN)}
    after = {"async_lru/__init__.py": _module(_CLOSE_NEW, "")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Simplify cache closing behavior")
    text = entry_text(analysis)
    assert analysis.summary == (
        "Functions decorated with `alru_cache` no longer have `cache_open()`."
    )
    assert (
        "`cache_close()` no longer takes the parameters `cancel`, `return_exceptions` on"
        " functions decorated with `alru_cache`." in text
    )
    assert analysis.breaking
    assert analysis.importance is Importance.HIGH
    assert Verdict.FALSE not in verdicts


def test_a_member_the_wrapper_renames_is_said_renamed_once(tmp_path: Path) -> None:
    # b8df413 "Add cache_ prefix to all public functions of LRUCacheWrapper"
    old = "\n    def invalidate(self, *args: Any) -> bool:\n        return self.__cache.pop(args, None) is not None\n"
    new = old.replace("def invalidate", "def cache_invalidate")
    bound_old = "\n    def invalidate(self, *args: Any) -> bool:\n        return self.__wrapper.invalidate(self.__instance, *args)\n"
    bound_new = "\n    def cache_invalidate(self, *args: Any) -> bool:\n        return self.__wrapper.cache_invalidate(self.__instance, *args)\n"
    before = {"async_lru/__init__.py": _module(old, bound_old)}
    after = {"async_lru/__init__.py": _module(new, bound_new)}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Add cache_ prefix")
    text = entry_text(analysis)
    assert (
        "`invalidate()` of functions decorated with `alru_cache` is renamed"
        " `cache_invalidate()`." in text
    )
    assert "no longer have `invalidate()`" not in text
    assert analysis.breaking
    assert Verdict.FALSE not in verdicts


def test_a_private_class_no_public_function_returns_stays_internal(tmp_path: Path) -> None:
    # the same removal where `alru_cache` is annotated to return nothing of the module's
    source = _WRAPPER.replace(
        "-> Union[Callable[[Callable[..., Any]], _LRUCacheWrapper[Any]], _LRUCacheWrapper[Any]]",
        "-> Any",
    )
    before = {"async_lru/__init__.py": _module(_OPEN, "", source)}
    after = {"async_lru/__init__.py": _module("", "", source)}
    analysis, _ = checked_entry(tmp_path, before, after, "Drop cache_open")
    assert "decorated with" not in entry_text(analysis)
    assert not analysis.breaking


def test_what_a_public_factory_constructs_is_said_as_what_it_returns(tmp_path: Path) -> None:
    source = (
        "class _Client:\n    def __init__(self, url: str) -> None:\n        self.url = url\n"
        "@MEMBERS@\n\ndef connect(url: str):\n    return _Client(url)\n"
    )
    members = "\n    def ping(self) -> bool:\n        return bool(self.url)\n"
    before = {"client/__init__.py": _module(members, "", source)}
    after = {"client/__init__.py": _module("", "", source)}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Remove ping")
    assert "What `connect` returns no longer has `ping()`." in entry_text(analysis)
    assert analysis.breaking
    assert Verdict.FALSE not in verdicts


_SETUP_PY = """from setuptools import setup

setup(name="aiodns",
      version="3.2.0",
      packages=["aiodns"],
      package_data={"aiodns": ["py.typed"]},
@PYTHON@      install_requires=["pycares>=4.0.0"],
      classifiers=[
          "Programming Language :: Python :: 3",
      ])
"""


def test_python_requires_newly_set_in_setup_py_is_said_as_requires_python(
    tmp_path: Path,
) -> None:
    # aiodns 9dafe6b "Drop Python 3.8": `python_requires=">=3.9"` added to `setup.py`, unsaid
    # (a `setup.py` read whole was read as code only)
    before = {"aiodns/__init__.py": "x = 1\n", "setup.py": _SETUP_PY.replace("@PYTHON@", "")}
    after = {"setup.py": _SETUP_PY.replace("@PYTHON@", '      python_requires=">=3.9",\n')}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Drop Python 3.8 (#129)")
    text = entry_text(analysis)
    assert (
        "Releases from this commit on install only on `python>=3.9` (no Python version was"
        " required before)" in text
    )
    assert analysis.breaking
    assert Verdict.FALSE not in verdicts


def test_python_requires_newly_declared_under_a_title_that_drops_nothing_is_no_break(
    tmp_path: Path,
) -> None:
    # pytest-timeout 00720d1 "Merge pull request #103 from …/bugfix/add-python-requires":
    # `python_requires=">=3.6"` declared where none was, Python 2 gone releases before; the
    # entry had been "⚠️ Breaking: … install only on `python>=3.6`"
    before = {"aiodns/__init__.py": "x = 1\n", "setup.py": _SETUP_PY.replace("@PYTHON@", "")}
    after = {"setup.py": _SETUP_PY.replace("@PYTHON@", '      python_requires=">=3.6",\n')}
    title = "Merge pull request #103 from Nicusor97/bugfix/add-python-requires"
    analysis, verdicts = checked_entry(tmp_path, before, after, title)
    assert not analysis.breaking
    assert "python>=3.6" in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


_OLD_SETUP = """import os
from setuptools import setup


def read(name):
    with open(os.path.join(os.path.dirname(__file__), name)) as fp:
        return fp.read()


setup(
    name="async-lru",
    version="2.0.0",
    long_description=read("README.rst"),
    packages=["async_lru"],
    include_package_data=True,
    python_requires=">=3.8",
    install_requires=["typing_extensions>=4.0.0"],
)
"""
_NEW_CFG = """[metadata]
name = async-lru
version = attr: async_lru.__version__

[options]
python_requires = >=3.8
packages = find:

install_requires =
  typing_extensions>=4.0.0

[options.package_data]
* =
  py.typed

[flake8]
max-line-length = 88
"""


def test_metadata_moved_from_setup_py_to_setup_cfg_is_said_moved(tmp_path: Path) -> None:
    # async-lru 09f3009 "Setup build CI": said "Requires `python>=3.8`,
    # `typing_extensions>=4.0.0`", and the `py.typed` it now packs was unsaid
    before = {
        "async_lru/__init__.py": "__version__ = '2.0.0'\n",
        "async_lru/py.typed": "\n",
        "setup.py": _OLD_SETUP,
        "setup.cfg": "[flake8]\nmax-line-length = 88\n",
    }
    after = {
        "async_lru/py.typed": "# placeholder",
        "setup.py": "from setuptools import setup\n\nsetup()\n",
        "setup.cfg": _NEW_CFG,
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Setup build CI")
    text = entry_text(analysis)
    assert analysis.summary == "Moves the package metadata from `setup.py` to `setup.cfg`."
    assert "Requires" not in text
    assert "The package now ships type information (`py.typed`)" in text
    assert analysis.importance is Importance.MEDIUM
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts


def test_a_type_marker_no_packaging_file_declares_is_not_said_shipped(tmp_path: Path) -> None:
    # async-lru f2d0df0 "Make package PEP 561 compatible": the marker alone, which that
    # `setup.py` (no `package_data`, a `MANIFEST.in` without it) did not pack
    before = {"async_lru/__init__.py": "x = 1\n", "setup.py": _OLD_SETUP}
    after = {"async_lru/py.typed": "\n"}
    analysis, _ = checked_entry(tmp_path, before, after, "Make package PEP 561 compatible")
    assert "ships type information" not in entry_text(analysis)
    assert analysis.importance is Importance.LOW


def test_a_marker_the_author_names_newly_declared_package_data_is_shipped(
    tmp_path: Path,
) -> None:
    # aiodns ca7b018 "Added a missing py.typed file for wheel": `package_data` gains the
    # marker the tree already held; said as a low, unnamed setup.py change
    setup = _SETUP_PY.replace("@PYTHON@", "")
    before = {
        "aiodns/__init__.py": "x = 1\n",
        "aiodns/py.typed": "",
        "setup.py": setup.replace('      package_data={"aiodns": ["py.typed"]},\n', ""),
    }
    after = {"setup.py": setup}
    analysis, verdicts = checked_entry(
        tmp_path, before, after, "Added a missing py.typed file for wheel"
    )
    assert analysis.summary == (
        "The package now ships type information (`py.typed`): type checkers read its own"
        " annotations."
    )
    assert analysis.importance is Importance.MEDIUM
    assert Verdict.FALSE not in verdicts


def test_a_marker_setuptools_scm_shipped_already_is_not_said_newly_shipped(
    tmp_path: Path,
) -> None:
    # typeguard 98ee364 "Ensure that py.typed gets included even when building w/o a git
    # checkout": the build took every file git tracks (setuptools-scm), the marker with them
    pyproject = (
        '[build-system]\nrequires = ["setuptools >= 64", "setuptools_scm[toml] >= 6.4"]\n'
        'build-backend = "setuptools.build_meta"\n\n[project]\nname = "typeguard"\n'
        'dynamic = ["version"]\n{data}\n[tool.setuptools_scm]\nversion_scheme = "post-release"\n'
    )
    data = '\n[tool.setuptools.package-data]\ntypeguard = ["py.typed"]\n'
    before = {
        "src/typeguard/__init__.py": "x = 1\n",
        "src/typeguard/py.typed": "",
        "pyproject.toml": pyproject.format(data=""),
    }
    after = {"pyproject.toml": pyproject.format(data=data)}
    title = "Ensure that py.typed gets included even when building w/o a git checkout"
    analysis, verdicts = checked_entry(tmp_path, before, after, title)
    assert "now ships type information" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_parameter_the_bound_form_still_takes_is_no_callers_loss(tmp_path: Path) -> None:
    # caeb9a0 itself: `_LRUCacheWrapperInstanceMethod.cache_close` still took `cancel`, so a
    # decorated method's callers could still pass it (the checker found the claim false)
    bound = (
        "\n    async def cache_close(self, *, cancel: bool = False,"
        " return_exceptions: bool = True) -> None:\n"
        "        await self.__wrapper.cache_close()\n"
    )
    before = {"async_lru/__init__.py": _module(_OPEN + _CLOSE_OLD, _BOUND_OPEN + bound)}
    after = {"async_lru/__init__.py": _module(_CLOSE_NEW, bound)}
    analysis, verdicts = checked_entry(tmp_path, before, after, "Simplify cache closing behavior")
    text = entry_text(analysis)
    assert "no longer takes the parameters `cancel`, `return_exceptions` on" not in text
    assert "Functions decorated with `alru_cache` no longer have `cache_open()`." in text
    assert Verdict.FALSE not in verdicts


def test_a_marker_declared_under_a_key_that_is_no_package_is_not_shipped(
    tmp_path: Path,
) -> None:
    # trio-websocket 49b93c1: `package_data={"trio-websocket": ["py.typed"]}` beside
    # `trio_websocket/py.typed`: setuptools packs data by package name, and none is so named
    setup = (
        "from setuptools import setup\n\nsetup(name='trio-websocket', packages=['trio_websocket'],"
        "\n      @DATA@)\n"
    )
    before = {"trio_websocket/__init__.py": "x = 1\n", "setup.py": setup.replace("@DATA@", "")}
    after = {
        "trio_websocket/py.typed": "",
        "setup.py": setup.replace("@DATA@", 'package_data={"trio-websocket": ["py.typed"]},'),
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Add type annotations")
    assert "ships type information" not in entry_text(analysis)
    good = dict(
        after, **{"setup.py": after["setup.py"].replace('"trio-websocket"', '"trio_websocket"')}
    )
    analysis, verdicts = checked_entry(tmp_path / "good", before, good, "Add type annotations")
    assert "The package now ships type information (`py.typed`)" in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_python_requirement_a_variable_held_before_is_not_newly_set(tmp_path: Path) -> None:
    # doc2dash 4f9436e "Switch to Hatch": `setup.py` (deleted) passed
    # `python_requires=PYTHON_REQUIRES`; `pyproject.toml` writes `requires-python = ">=3.8"`
    before = {
        "src/doc2dash/__init__.py": "x = 1\n",
        "setup.py": (
            'from setuptools import setup\n\nPYTHON_REQUIRES = ">=3.8"\n\n'
            'setup(name="doc2dash", python_requires=PYTHON_REQUIRES)\n'
        ),
        "pyproject.toml": '[build-system]\nrequires = ["setuptools"]\n',
    }
    after = {
        "setup.py": None,
        "pyproject.toml": (
            '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n\n'
            '[project]\nname = "doc2dash"\nversion = "3.0"\nrequires-python = ">=3.8"\n'
        ),
    }
    analysis, verdicts = checked_entry(tmp_path, before, after, "Switch to Hatch")
    assert "no Python version was required before" not in entry_text(analysis)
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts
    # the variable is what the call passed: a floor it held lower is raised, and said so
    lower = dict(before, **{"setup.py": before["setup.py"].replace(">=3.8", ">=3.7")})
    analysis, verdicts = checked_entry(tmp_path / "lower", lower, after, "Switch to Hatch")
    assert "(was `>=3.7`)" in entry_text(analysis)
    assert Verdict.FALSE not in verdicts
