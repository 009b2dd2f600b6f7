"""Commits that change nothing a user installs are low, whatever their titles say (issue 27,
held-out readers): a release's scripts at the top of the tree (pathspec 4e782be, 69d9955 "Fix
testpypi build"), benchmark runners (pyparsing 0ea6580), a Makefile whose recipes run the dev
tools through a variable (pathspec f6bfc89 "Fix docs build": `${VENV} tox -e docs`), a
changelog entry beside the version's timestamp (pyparsing 9c06ffa). A break in the helpers a
package ships for its users' tests is medium, and a changelog line that records another
commit's fix is not this commit's summary (pyparsing 5d54550)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.paths import dev_tooling, tooling_path
from bot.analysis.paths import testing_helper as helper_module
from bot.analysis.rules import analyze
from bot.models import FileChange, Importance
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

PKG = "def parse(text):\n    return text.split()\n"
PREBUILD = (
    "import re\n\n\ndef version(text):\n"
    '    return re.search(\'^__version__\\\\s*=\\\\s*"([^"]+)"\', text, re.M).group(1)\n'
)
PREBUILD_FIXED = PREBUILD.replace('\\\\s*"([^"]+)"', "\\\\s*[\"\\'](.+)[\"\\']")


def _analysis(tmp_path: Path, before: dict, after: dict, title: str):  # type: ignore[no-untyped-def]
    _, commit = second_commit(tmp_path, before, after, title)
    return analyze(commit)


@pytest.mark.parametrize(
    "path",
    ["prebuild.py", "testpypi_prepublish.py", "run_perf_all_tags.sh", "run_perf_all_tags.bat"],
)
def test_release_and_benchmark_scripts_at_the_top_are_tooling(path: str) -> None:
    assert tooling_path(path)


@pytest.mark.parametrize(
    "path", ["distro.py", "install.sh", "pkg/release.py", "pkg/prebuild.py", "src/run.sh"]
)
def test_a_module_an_installer_or_a_packaged_script_is_not_tooling(path: str) -> None:
    assert not tooling_path(path)


def _makefile(patch: str) -> FileChange:
    return FileChange(filename="Makefile", status="modified", additions=1, deletions=1, patch=patch)


def test_a_makefile_recipe_run_through_a_variable_is_tooling() -> None:
    patch = "@@ -1,2 +1,2 @@\n-dev-test-doc:\n-\t${VENV} tox -e doc\n+dev-test-docs:\n+\t${VENV} tox -e docs\n"
    assert dev_tooling(_makefile(patch))


def test_a_makefile_recipe_that_compiles_is_not_tooling() -> None:
    patch = "@@ -1,2 +1,2 @@\n ext:\n-\t$(CC) -O2 -o ext.so ext.c\n+\t$(CC) -O3 -o ext.so ext.c\n"
    assert not dev_tooling(_makefile(patch))


def test_a_fix_of_a_release_script_at_the_top_is_low(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path,
        {"pkg/__init__.py": PKG, "prebuild.py": PREBUILD},
        {"pkg/__init__.py": PKG, "prebuild.py": PREBUILD_FIXED},
        "Fix testpypi build",
    )
    assert analysis.importance is Importance.LOW


def test_the_same_fix_in_the_package_is_not_low(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path,
        {"pkg/__init__.py": PKG, "pkg/prebuild.py": PREBUILD},
        {"pkg/__init__.py": PKG, "pkg/prebuild.py": PREBUILD_FIXED},
        "Fix version parsing",
    )
    assert analysis.importance is not Importance.LOW


STAMP = '__version__ = "3.3.0a1"\n__version_time__ = "19 Oct 2025 16:41 UTC"\n\n' + PKG
CHANGES = "Version 3.3.0 - in development\n\n- Fixed a bug.\n"
CHANGES_NEW = CHANGES + "\n- Implemented a TINY language parser in the examples directory.\n"


def test_a_changelog_entry_beside_the_version_timestamp_is_low(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path,
        {"pkg/__init__.py": STAMP, "CHANGES": CHANGES},
        {
            "pkg/__init__.py": STAMP.replace("19 Oct 2025 16:41", "23 Nov 2025 11:05"),
            "CHANGES": CHANGES_NEW,
        },
        "Add CHANGES notes on addition of TINY language example.",
    )
    assert analysis.importance is Importance.LOW


def test_a_changed_line_of_code_beside_the_timestamp_is_not_low(tmp_path: Path) -> None:
    changed = STAMP.replace("19 Oct 2025 16:41", "23 Nov 2025 11:05").replace(
        "text.split()", "text.split(',')"
    )
    analysis = _analysis(
        tmp_path,
        {"pkg/__init__.py": STAMP, "CHANGES": CHANGES},
        {"pkg/__init__.py": changed, "CHANGES": CHANGES_NEW},
        "Split on commas",
    )
    assert analysis.importance is not Importance.LOW


HELPER = (
    "class TestAsserts:\n"
    "    def assertRaisesParseException(self, exc_type=ValueError, msg=None):\n"
    "        return self.assertRaises(exc_type, msg=msg)\n"
)
TESTING = "from .testing import TestAsserts\n"
HELPER_NEW = HELPER.replace(
    "exc_type=ValueError, msg=None", "exc_type=ValueError, expected_msg=None, msg=None"
)


def test_a_break_in_the_shipped_test_helpers_is_medium(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path,
        # (pyparsing's `__init__.py` hands it out: `from .testing import pyparsing_test`)
        {"pkg/__init__.py": PKG + TESTING, "pkg/testing.py": HELPER},
        {"pkg/__init__.py": PKG + TESTING, "pkg/testing.py": HELPER_NEW},
        "enhanced assertRaisesParseException to accept an expected exception message",
    )
    assert analysis.breaking
    assert analysis.importance is Importance.MEDIUM


def test_the_same_break_in_a_module_is_high(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path,
        # (and `from .core import *`)
        {"pkg/__init__.py": PKG + "from .core import *\n", "pkg/core.py": HELPER},
        {"pkg/__init__.py": PKG + "from .core import *\n", "pkg/core.py": HELPER_NEW},
        "enhanced assertRaisesParseException to accept an expected exception message",
    )
    assert analysis.breaking
    assert analysis.importance is Importance.HIGH


def test_test_helper_modules_by_name() -> None:
    assert helper_module("pkg/testing.py") and helper_module("pkg/testutils.py")
    assert not helper_module("pkg/core.py") and not helper_module("tests/testing.py")


def test_an_entry_beside_the_timestamp_is_said_as_recorded(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path,
        {"pkg/__init__.py": STAMP, "CHANGES": CHANGES},
        {
            "pkg/__init__.py": STAMP.replace("19 Oct 2025 16:41", "23 Nov 2025 11:05"),
            "CHANGES": CHANGES_NEW,
        },
        "Add CHANGES notes on addition of TINY language example.",
    )
    assert analysis.summary.startswith("Records")
    assert "TINY language parser" in analysis.summary


def test_an_entry_beside_shipped_code_is_its_summary(tmp_path: Path) -> None:
    changed = STAMP.replace("text.split()", "text.split(',')")
    analysis = _analysis(
        tmp_path,
        {"pkg/__init__.py": STAMP, "CHANGES": CHANGES},
        {"pkg/__init__.py": changed, "CHANGES": CHANGES + "\n- Split the text on commas.\n"},
        "Split on commas",
    )
    assert not analysis.summary.startswith("Records")
