"""Words the held-out readers of this stop found false or skipped: a generic class
subscripted and called is still called; a pin raised asks no one to update an environment;
each a clone shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_CONNECTION = (
    "from trio.lowlevel import Future\n\n\n"
    "class WebSocketConnection:\n"
    "    def __init__(self, stream, ws_connection{hint}):\n"
    "        self._stream = stream\n"
    "        self._wsproto = ws_connection\n"
    "        self._reader_running = True\n"
    "        self._path = None\n"
    "        self._subprotocol = None\n"
    "        self._handshake_headers = tuple()\n"
    "        self._open_handshake = {future}\n"
    "        self._close_handshake = {future}\n"
    "        self._send_lock = None\n\n"
    "    def local(self){ret}:\n"
    "        return self._stream\n\n"
    "    def remote(self){ret}:\n"
    "        return self._stream\n"
)


def test_a_generic_class_subscripted_and_called_is_still_called(tmp_path: Path) -> None:
    # trio-websocket 49b93c1 "Add/complete type annotations": `Future()` became
    # `Future[WebSocketRequest]()`; the entry said "`WebSocketConnection.__init__` no longer
    # calls `Future`", and the checker agreed
    before = _CONNECTION.format(hint="", future="Future()", ret="")
    after = _CONNECTION.format(
        hint=": 'WSConnection'", future="Future[WebSocketRequest]()", ret=" -> object"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"trio_websocket/_impl.py": before},
        {"trio_websocket/_impl.py": after},
        "Add/complete type annotations (#193)",
    )
    assert "no longer calls `Future`" not in entry_text(analysis)
    said = "`WebSocketConnection.__init__` no longer calls `Future`."
    assert [v for _, v in verdicts_of(tmp_path / "repo", "HEAD", said)] == [Verdict.FALSE]


def test_a_pin_raised_asks_no_one_to_update_an_environment(tmp_path: Path) -> None:
    # argon2-cffi 811841d, aiodns 9dafe6b: "Update development environments to `tox>4`" (its
    # tox.ini already asked for tox 4) and "… to `pycares==4.5.0`" (a pin lowered); the
    # requirement the entry says already tells what changed
    setup = (
        '[project]\nname = "pkg"\nversion = "1.0"\ndependencies = [\n    "{pin}",\n]\n\n'
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
    )
    code = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(6))
    analysis, _ = checked_entry(
        tmp_path,
        {"pyproject.toml": setup.format(pin="pycares>=4.0.0"), "pkg/__init__.py": code},
        {
            "pyproject.toml": setup.format(pin="pycares>=4.9.0"),
            "pkg/__init__.py": code.replace("x + 5", "x + 50"),
        },
        "Require pycares 4.9",
    )
    text = entry_text(analysis)
    assert "`pycares>=4.9.0`" in text
    assert "Update development environments" not in text


def test_a_version_string_alone_is_a_release_s_plumbing(tmp_path: Path) -> None:
    # trio-websocket aeb5f60 "fix version (accidental dev suffix)": `__version__ = '0.10.2-dev'`
    # became `'0.10.2'`, and nothing else; it was a medium bug fix with nothing to say
    code = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(6))
    version = "__version__ = '{}'\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/_version.py": version.format("0.10.2-dev"), "pkg/__init__.py": code},
        {"pkg/_version.py": version.format("0.10.2"), "pkg/__init__.py": code},
        "fix version (accidental dev suffix)",
    )
    assert analysis.importance is Importance.LOW
    # the version beside a change of code is no plumbing alone
    analysis, _ = checked_entry(
        tmp_path / "code",
        {"pkg/_version.py": version.format("0.10.2-dev"), "pkg/__init__.py": code},
        {
            "pkg/_version.py": version.format("0.10.2"),
            "pkg/__init__.py": code.replace("x + 3", "x - 3").replace("x + 4", "x * 4"),
        },
        "fix version and the sums (accidental dev suffix)",
    )
    assert analysis.importance is Importance.MEDIUM


def test_a_requirements_file_that_installs_the_project_is_its_dev_environment(
    tmp_path: Path,
) -> None:
    # aiodns 9dafe6b: `requirements.txt` holds `-e .`, `pycares==4.6.0`, `pytest==8.3.5`; its
    # pin lowered to `pycares==4.5.0` was said "Requires `pycares==4.5.0` (was `==4.6.0`)",
    # where the package's `setup.py` requires `pycares>=4.0.0`
    setup = (
        "from setuptools import setup\n\nsetup(name='pkg', install_requires=['pycares>=4.0.0'])\n"
    )
    pins = "-e .\npycares=={}\npytest==8.3.5\npytest-cov==6.1.0\n"
    code = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(6))
    analysis, _ = checked_entry(
        tmp_path,
        {"setup.py": setup, "requirements.txt": pins.format("4.6.0"), "pkg/__init__.py": code},
        {
            "setup.py": setup,
            "requirements.txt": pins.format("4.5.0"),
            "pkg/__init__.py": code.replace("x + 3", "x - 3").replace("x + 4", "x * 4"),
        },
        "Pin pycares for the tests",
    )
    text = entry_text(analysis)
    assert "Requires `pycares==4.5.0`" not in text
    assert "The dev tools' requirement files pin `pycares==4.5.0`" in text or (
        "pycares" not in text
    )


_OPEN = (
    "async def open_websocket(host, port):\n"
    "    user_error = None\n"
    "    try:\n"
    "        return await connect(host, port)\n"
    "    except BaseExceptionGroup as e:\n"
    "        for sub_exc in e.exceptions:\n"
    "            if isinstance(sub_exc, KeyboardInterrupt):\n"
    "                {reraise}\n"
    "        if user_error is not None:\n"
    "{user}"
    "        raise TrioWebsocketInternalError('multiple exceptions') from e\n\n\n"
    "async def connect(host, port):\n"
    "    return (host, port)\n\n\n"
    "class TrioWebsocketInternalError(Exception):\n"
    "    pass\n"
)


def test_a_variable_raised_under_isinstance_raises_that_class(tmp_path: Path) -> None:
    # trio-websocket b74d6bf: `raise sub_exc from e` under `if isinstance(sub_exc,
    # KeyboardInterrupt):` became `raise KeyboardInterrupt from e`; the summary said
    # "`open_websocket` may now raise `KeyboardInterrupt`", which it did before
    before = _OPEN.format(
        reraise="raise sub_exc from e", user="            raise user_error from e\n"
    )
    after = _OPEN.format(
        reraise="raise KeyboardInterrupt from e",
        user=(
            "            exceptions = [x for x in e.exceptions if x is not user_error]\n"
            "            user_error.__context__ = BaseExceptionGroup('internal', exceptions)\n"
            "            user_error.__suppress_context__ = False\n"
            "            raise user_error\n"
        ),
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"trio_websocket/_impl.py": before},
        {"trio_websocket/_impl.py": after},
        "fix loss of context/cause on exceptions raised inside open_websocket (#192)",
    )
    assert "may now raise `KeyboardInterrupt`" not in entry_text(analysis)
    said = "`open_websocket` may now raise `KeyboardInterrupt`."
    assert [v for _, v in verdicts_of(tmp_path / "repo", "HEAD", said)] == [Verdict.FALSE]


_ALRU = (
    "from typing import Callable, Optional, Union, overload\n\n"
    '__all__ = ("alru_cache",)\n\n\n'
    "def _make_wrapper(maxsize, typed{cx}, ttl):\n"
    "    def wrapper(fn):\n        return fn\n\n    return wrapper\n\n\n"
    "@overload\n"
    "def alru_cache(\n    maxsize: Optional[int] = 128,\n    typed: bool = False,\n    *,\n"
    "{kw}    ttl: Optional[float] = None,\n) -> Callable: ...\n\n\n"
    "@overload\n"
    "def alru_cache(\n    maxsize: Callable,\n) -> Callable: ...\n\n\n"
    "def alru_cache(\n    maxsize: Union[Optional[int], Callable] = 128,\n"
    "    typed: bool = False,\n    *,\n{kw}    ttl: Optional[float] = None,\n) -> Callable:\n"
    "    if maxsize is None or isinstance(maxsize, int):\n"
    "        return _make_wrapper(maxsize, typed{cx_arg}, ttl)\n"
    "    return _make_wrapper(128, False{cx_none}, None)(maxsize)\n"
)


def test_an_overloaded_public_function_s_lost_parameter_is_said(tmp_path: Path) -> None:
    # async-lru 23d95de "Drop cache_exceptions mode": `alru_cache` (in `__all__`, two
    # `@overload`s and its implementation) lost `cache_exceptions`; the overloads made it
    # "defined twice", so only the private `_make_wrapper`'s loss was said, as medium
    kw = "    cache_exceptions: bool = False,\n"
    before = _ALRU.format(
        cx=", cache_exceptions", kw=kw, cx_arg=", cache_exceptions", cx_none=", False"
    )
    after = _ALRU.format(cx="", kw="", cx_arg="", cx_none="")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"async_lru/__init__.py": before},
        {"async_lru/__init__.py": after},
        "Drop cache_exceptions mode. It is absent in stdlib",
    )
    assert analysis.breaking
    assert any(
        r.consequence == "Calls that pass `cache_exceptions` by name fail." for r in analysis.risks
    )
    assert all(v is Verdict.TRUE for v in verdicts)


_PYPROJECT = (
    '[project]\nname = "argon2-cffi"\ndynamic = ["version", "readme"]\n'
    'dependencies = ["argon2-cffi-bindings"]\n\n'
    '[tool.hatch.metadata.hooks.fancy-pypi-readme]\ncontent-type = "text/markdown"\n\n'
    '[[tool.hatch.metadata.hooks.fancy-pypi-readme.fragments]]\npath = "README.md"\n{start}\n'
    '[[tool.hatch.metadata.hooks.fancy-pypi-readme.fragments]]\npath = "CHANGELOG.md"\n'
    'start-after = "<!-- changelog follows -->"\npattern = "{pattern}"\n\n'
    '[[tool.hatch.metadata.hooks.fancy-pypi-readme.fragments]]\ntext = """\n{text}"""\n\n'
    '[tool.pytest.ini_options]\naddopts = ["-ra"]\n'
)


def test_the_pypi_page_s_text_is_no_install_s(tmp_path: Path) -> None:
    # argon2-cffi 001ae15 "docs: streamline": the README, the docs' index and the
    # `[tool.hatch.metadata.hooks.fancy-pypi-readme]` fragments that piece the PyPI page
    # together; it was medium
    readme = "# argon2-cffi\n\n{}Hashing passwords.\n\n## Credits\n\nHynek.\n"
    before = {
        "pyproject.toml": _PYPROJECT.format(
            start="", pattern="## ([^\\\\n]+?\\\\n\\\\n)###", text="\n## Release Information for "
        ),
        "README.md": readme.format(""),
        "docs/index.md": "# argon2-cffi\n\nWelcome.\n",
    }
    after = {
        "pyproject.toml": _PYPROJECT.format(
            start='start-after = "<!-- begin pypi -->\\\\n"\nend-before = "\\\\n<!-- end pypi -->"\n',
            pattern="\\\\n(###.+?\\\\n)## ",
            text="---\n\n[Full Changelog](https://github.com/o/r/blob/main/CHANGELOG.md)\n\n"
            + "".join(f"Line {i} of the page's footer.\n" for i in range(8)),
        ),
        "README.md": readme.format("<!-- begin pypi -->\n\n"),
        "docs/index.md": "# argon2-cffi\n\nWelcome.\n\n## Indices and Tables\n\n- genindex\n",
    }
    analysis, _ = checked_entry(tmp_path, before, after, "docs: streamline")
    assert analysis.importance is Importance.LOW
