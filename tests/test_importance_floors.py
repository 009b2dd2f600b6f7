"""Importance floors read from the code: a variable users set from now on is at least
medium, a gitmoji before a conventional prefix keeps the author's type (platformdirs 0760b3c
"✨ feat(windows): add PLATFORMDIRS_* env var overrides", typed config and low), and a test
suite's rework beside a script's reworded banner is low (platformdirs 265020e "Modernize the
test suite and add main tests", medium)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.analysis.titles import parse_title
from bot.models import ChangeType, Importance
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def test_a_gitmoji_before_a_conventional_prefix_keeps_its_type() -> None:
    title = parse_title("✨ feat(windows): add PLATFORMDIRS_* env var overrides (#427)")
    assert (title.conventional, title.scope) == ("feat", "windows")
    assert title.text == "add PLATFORMDIRS_* env var overrides"
    assert parse_title("🐛 fix(unix): use the runtime dir").conventional == "fix"
    # an emoji before words that are no prefix stays the title's
    assert parse_title("✨ new thing: yes").conventional is None


WINDOWS_BEFORE = '''"""Windows folders."""

import os
from functools import lru_cache


def _resolve(csidl_name: str) -> str:
    return "C:/Users/" + csidl_name


get_win_folder = lru_cache(maxsize=None)(_resolve)
'''
WINDOWS_AFTER = '''"""Windows folders."""

import os


def _resolve(csidl_name: str) -> str:
    return "C:/Users/" + csidl_name


def get_win_folder(csidl_name: str) -> str:
    """
    Get a Windows folder path, checking for ``PLATFORMDIRS_*`` environment variable overrides first.

    For example, ``CSIDL_LOCAL_APPDATA`` can be overridden by setting ``PLATFORMDIRS_LOCAL_APPDATA``.

    """
    env_var = f"PLATFORMDIRS_{csidl_name.removeprefix('CSIDL_')}"
    if override := os.environ.get(env_var, "").strip():
        return override
    return _resolve(csidl_name)
'''


def test_a_gitmoji_feature_of_a_few_lines_is_medium(tmp_path: Path) -> None:
    tests = "".join(f"def test_override_{i}() -> None:\n    assert True\n\n\n" for i in range(10))
    _, commit = second_commit(
        tmp_path,
        {"src/dirs/windows.py": WINDOWS_BEFORE},
        {
            "src/dirs/windows.py": WINDOWS_AFTER,
            "tests/test_windows.py": tests,
            "docs/platforms.rst": "Overrides\n=========\n\n" + "Set a variable.\n" * 30,
        },
        "✨ feat(windows): add PLATFORMDIRS_* env var overrides (#427)",
    )
    analysis = analyze(commit)
    assert analysis.change_types[0] is ChangeType.FEATURE
    assert analysis.importance is Importance.MEDIUM


def test_shipped_code_that_reads_a_new_variable_is_at_least_medium(tmp_path: Path) -> None:
    before = 'import os\n\n\ndef cache_dir() -> str:\n    return "/var/cache"\n'
    after = (
        "import os\n\n\ndef cache_dir() -> str:\n"
        '    return os.environ.get("DIRS_CACHE_HOME", "/var/cache")\n'
    )
    _, commit = second_commit(
        tmp_path,
        {"src/dirs/paths.py": before},
        {"src/dirs/paths.py": after},
        "Honour DIRS_CACHE_HOME",
    )
    assert analyze(commit).importance is Importance.MEDIUM


MAIN = """from dirs import Dirs, __version__
{props}

def main():
{local}    print(f"-- {banner} {{__version__}} --")
    dirs = Dirs("MyApp")
    for prop in {name}:
        print(f"{{prop}}: {{getattr(dirs, prop)}}")
"""
PROPS = "(\n" + "".join(f'    "{w}_{k}_dir",\n' for w in ("user", "site") for k in "abcde") + ")\n"


def test_a_test_suite_rework_beside_a_reworded_banner_is_low(tmp_path: Path) -> None:
    old_tests = "".join(
        f"def test_prop_{i}():\n    dirs = Dirs('MyApp')\n    assert isinstance(dirs.p{i}, str)\n\n\n"
        for i in range(12)
    )
    new_tests = (
        "import pytest\n\n\n@pytest.mark.parametrize('prop', PROPS)\n"
        "def test_property_result_is_str(prop):\n    assert isinstance(prop, str)\n\n\n"
        + "".join(
            f"def test_main_{i}(capsys):\n    main()\n    out = capsys.readouterr().out\n"
            f"    assert 'platformdirs' in out\n    assert out.count('\\n') > {i}\n\n\n"
            for i in range(14)
        )
    )
    _, commit = second_commit(
        tmp_path,
        {
            "src/dirs/__main__.py": MAIN.format(
                props="",
                local="    props = "
                + PROPS.replace("\n    ", "\n        ").replace("\n)", "\n    )"),
                banner="app dirs",
                name="props",
            ),
            "tests/test_api.py": old_tests,
        },
        {
            "src/dirs/__main__.py": MAIN.format(
                props=f"\nPROPS = {PROPS}", local="", banner="platformdirs", name="PROPS"
            ),
            "tests/test_api.py": new_tests,
            "tests/conftest.py": "import pytest\n\n\n@pytest.fixture\ndef app():\n    return 'x'\n",
        },
        "Modernize the test suite and add main tests (#19)",
    )
    analysis = analyze(commit)
    assert analysis.change_types[0] is ChangeType.TESTS
    assert analysis.importance is Importance.LOW
