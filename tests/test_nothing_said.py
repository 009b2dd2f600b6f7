"""Medium entries that said nothing beyond their title (issue 27): a fix that rewrites a
function's own import says which import became which (pytest-mock e696bf0 "Fix standalone
mock support": `from unittest import mock` became `import mock`), and a linter's or
formatter's commit that reformats tests too is proven internal and low (pytest-mock 74640dc
"[pre-commit.ci] auto fixes from pre-commit.com hooks"), built as clones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# pytest-mock's `_util.py`, shortened: the mock module read once, from the standalone
# package when the option says so
UTIL = (
    "_mock_module = None\n\n\n"
    "def get_mock_module(config):\n"
    '    """Import and return the actual "mock" module."""\n'
    "    global _mock_module\n"
    "    if _mock_module is None:\n"
    "        use_standalone_module = parse_ini_boolean(\n"
    '            config.getini("mock_use_standalone_module")\n'
    "        )\n"
    "        if use_standalone_module:\n"
    "            from unittest import mock\n\n"
    "            _mock_module = mock\n"
    "        else:\n"
    "            _mock_module = unittest.mock\n"
    "    return _mock_module\n\n\n"
    "def parse_ini_boolean(value):\n"
    "    if isinstance(value, bool):\n"
    "        return value\n"
    '    if value.lower() == "true":\n'
    "        return True\n"
    '    if value.lower() == "false":\n'
    "        return False\n"
    '    raise ValueError("unknown string for bool: %r" % value)\n'
)


def test_a_fix_of_a_functions_own_import_says_which_import_became_which(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/pytest_mock/_util.py": "import unittest.mock\n\n" + UTIL},
        {
            "src/pytest_mock/_util.py": "import unittest.mock\n\n"
            + UTIL.replace("from unittest import mock", "import mock")
        },
        "Fix standalone mock support (#531)\n\nFix #530",
    )
    assert analysis.importance is not Importance.LOW
    text = entry_text(analysis)
    assert "In `get_mock_module`, `from unittest import mock` became `import mock`" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


# a plugin module and its tests as a formatter leaves them: quotes, wrapped calls
PLUGIN = "".join(
    f"def helper_{i}(mocker, value):\n"
    f"    result = mocker.patch('os.path.{i}', return_value = value)\n"
    f"    if result is None:\n"
    f"        return None\n"
    f"    return result\n\n\n"
    for i in range(6)
)
TESTS = "".join(
    f"def test_helper_{i}(mocker):\n"
    f"    value = helper_{i}(mocker, 'x')\n"
    f"    assert value.return_value == 'x'\n"
    f"    assert value.called == False\n\n\n"
    for i in range(6)
)


def _formatted(text: str) -> str:
    return text.replace("'", '"').replace("return_value = value", "return_value=value")


def test_a_formatters_fixes_that_touch_tests_too_are_low_and_internal(tmp_path: Path) -> None:
    before = {"src/pytest_mock/plugin.py": PLUGIN, "tests/test_pytest_mock.py": TESTS}
    after = {
        "src/pytest_mock/plugin.py": _formatted(PLUGIN),
        "tests/test_pytest_mock.py": _formatted(TESTS).replace(" == False", " is False"),
    }
    analysis, verdicts = checked_entry(
        tmp_path,
        before,
        after,
        "[pre-commit.ci] auto fixes from pre-commit.com hooks\n\n"
        "for more information, see https://pre-commit.ci",
    )
    assert analysis.importance is Importance.LOW
    # the shipped module proven the same code: said so, which says more than its names kept
    assert (
        "No behaviour change: `src/pytest_mock/plugin.py` is the same code as before"
        in entry_text(analysis)
    )
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_formatters_commit_that_drops_a_test_is_not_proven_internal(tmp_path: Path) -> None:
    before = {"src/pytest_mock/plugin.py": PLUGIN, "tests/test_pytest_mock.py": TESTS}
    dropped = _formatted(TESTS).split("def test_helper_5")[0]
    after = {"src/pytest_mock/plugin.py": _formatted(PLUGIN), "tests/test_pytest_mock.py": dropped}
    analysis, _ = checked_entry(
        tmp_path, before, after, "[pre-commit.ci] auto fixes from pre-commit.com hooks"
    )
    assert "Internal only" not in entry_text(analysis)
