"""A feature of a few lines that its tests pin is medium, not a tiny tweak: tomli 12314bd
"TOML 1.1: Add \\xHH Unicode escape code to basic strings" (two lines of the parser, its test
data beside them); the same lines without a test stay low. A new translation the package ships
is medium too (humanize 0d1aae6 "Add Arabic language": a `.po` file alone), a docs site's is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.models import Importance
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

PARSER = "src/tomli/_parser.py"
_PARSER = (
    "ESCAPES = {'\\\\n': '\\n', '\\\\t': '\\t'}\n\n\n"
    "def parse_escape(src: str, pos: int) -> tuple[int, str]:\n"
    "    code = src[pos : pos + 2]\n"
    "    if code == '\\\\u':\n"
    "        return parse_hex(src, pos + 2, 4)\n"
    "    return pos + 2, ESCAPES[code]\n\n\n"
    "def parse_hex(src: str, pos: int, n: int) -> tuple[int, str]:\n"
    "    return pos + n, chr(int(src[pos : pos + n], 16))\n"
)
_FEATURE = _PARSER.replace(
    "    if code == '\\\\u':\n",
    "    if code == '\\\\x':\n        return parse_hex(src, pos + 2, 2)\n    if code == '\\\\u':\n",
)
TEST = "tests/test_escapes.py"
_TEST = (
    "from tomli._parser import parse_escape\n\n\n"
    "def test_unicode():\n    assert parse_escape('\\\\u00e9', 0) == (6, 'é')\n"
)
_TESTED = _TEST + "\n\ndef test_hex():\n    assert parse_escape('\\\\xe9', 0) == (4, 'é')\n"
TITLE = "TOML 1.1: Add \\xHH Unicode escape code to basic strings (#202)"


def test_a_feature_of_two_lines_its_tests_pin_is_medium(tmp_path: Path) -> None:
    _, commit = second_commit(
        tmp_path, {PARSER: _PARSER, TEST: _TEST}, {PARSER: _FEATURE, TEST: _TESTED}, TITLE
    )
    assert analyze(commit).importance is Importance.MEDIUM


def test_the_same_lines_without_a_test_stay_low(tmp_path: Path) -> None:
    _, commit = second_commit(tmp_path, {PARSER: _PARSER}, {PARSER: _FEATURE}, TITLE)
    assert analyze(commit).importance is Importance.LOW


_PO = 'msgid ""\nmsgstr ""\n"Language: ar_SA\\n"\n\nmsgid "%d second"\nmsgstr "%d ثانية"\n'
README = "# humanize\n\nLanguages: fr_FR\n"


@pytest.mark.parametrize(
    ("path", "importance"),
    [
        ("src/humanize/locale/ar_SA/LC_MESSAGES/humanize.po", Importance.MEDIUM),
        ("docs/locale/ar_SA/LC_MESSAGES/index.po", Importance.LOW),
    ],
)
def test_a_new_translation_the_package_ships_is_medium(
    tmp_path: Path, path: str, importance: Importance
) -> None:
    _, commit = second_commit(
        tmp_path,
        {"README.md": README},
        {"README.md": README.replace("fr_FR", "ar_SA, fr_FR"), path: _PO},
        "Add Arabic language (#256)",
    )
    assert analyze(commit).importance is importance
