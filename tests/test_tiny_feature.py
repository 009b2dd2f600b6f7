"""A feature of a few lines that its tests pin is medium, not a tiny tweak: tomli 12314bd
"TOML 1.1: Add \\xHH Unicode escape code to basic strings" (two lines of the parser, its test
data beside them); the same lines without a test stay low. A new translation the package ships
is medium too (humanize 0d1aae6 "Add Arabic language": a `.po` file alone), a docs site's is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.models import CommitInput, FileChange, Importance
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


# distro's shape: a public `id()` reads the private `_parse_uname` of a `uname -rs` line, with
# a table of release files beside it; the tests call `id()` on a machine's files.
DISTRO = "distro.py"
_DISTRO = (
    "import re\n\n"
    "RELEASE_FILES = ['redhat-release', 'fedora-release']\n\n\n"
    "def id(lines):\n    return _parse_uname(lines).get('id', '')\n\n\n"
    "def _parse_uname(lines):\n"
    "    props = {}\n"
    "    match = re.match(r'^([^\\s]+)\\s+([\\d\\.]+)$', lines[0].strip())\n"
    "    if match:\n"
    "        print(match.groups())\n"
    "        name, version = match.groups()\n"
    "        props['id'] = name.lower()\n"
    "        props['release'] = version\n"
    "    return props\n"
)
DISTRO_TEST = "tests/test_distro.py"
_DISTRO_TEST = (
    "from distro import id\n\n\ndef test_linux():\n    assert id(['Linux 5.1']) == 'linux'\n"
)
_BSD_TEST = _DISTRO_TEST + (
    "\n\ndef test_freebsd():\n    assert id(['FreeBSD 11.1-RELEASE-p10']) == 'freebsd'\n"
)
_REGEX = (
    "    match = re.match(r'^([^\\s]+)\\s+([\\d\\.]+)$', lines[0].strip())\n",
    "    match = re.search(r'^([^\\s]+)\\s+([\\d\\.]+)', lines[0].strip())\n",
)
_PRINT = ("        print(match.groups())\n", "")
_ROW = ("'fedora-release']", "'fedora-release', 'altlinux-release']")


def _distro(*edits: tuple[str, str]) -> str:
    text = _DISTRO
    for old, new in edits:
        text = text.replace(old, new)
    return text


def _assessed(tmp_path: Path, after: str, title: str) -> Importance:
    _, commit = second_commit(
        tmp_path,
        {DISTRO: _DISTRO, DISTRO_TEST: _DISTRO_TEST},
        {DISTRO: after, DISTRO_TEST: _BSD_TEST},
        title,
    )
    return analyze(commit).importance


def test_a_parser_that_reads_a_new_input_its_tests_pin_is_medium(tmp_path: Path) -> None:
    # distro 850c54d "Add FreeBSD support": the private parser behind the public `id()` now
    # searches where it matched anchored at both ends (its debug `print` goes too)
    assert _assessed(tmp_path, _distro(_REGEX, _PRINT), "Add FreeBSD support") is Importance.MEDIUM


def test_a_debug_print_removed_is_no_feature_however_tested(tmp_path: Path) -> None:
    # distro 7096296 "Add NetBSD support": a `print` gone is all the shipped code's change
    assert _assessed(tmp_path, _distro(_PRINT), "Add NetBSD support") is Importance.LOW


def test_a_name_added_to_a_table_alone_is_no_feature(tmp_path: Path) -> None:
    # distro 40ecdd9 "Add support for ALT Linux Server 10.1 distribution": a release file's
    # name in a list, the tests beside it
    title = "Add support for ALT Linux Server 10.1 distribution"
    assert _assessed(tmp_path, _distro(_ROW), title) is Importance.LOW


CURRIED = "toolz/curried.py"
_CURRIED = (
    "import toolz\n\n\n"
    "def should_curry(f):\n"
    "    do_curry = set((toolz.map, toolz.filter))\n"
    "    return f in do_curry\n"
)
CURRIED_TEST = "toolz/tests/test_curried.py"
_CURRIED_TEST = "from toolz.curried import map\n\n\ndef test_map():\n    assert map\n"


def test_a_name_added_to_a_set_a_function_binds_is_no_feature(tmp_path: Path) -> None:
    # toolz 230dc7f "add reduce to toolz.curried": `do_curry = set((…, toolz.reduce))`
    _, commit = second_commit(
        tmp_path,
        {CURRIED: _CURRIED, CURRIED_TEST: _CURRIED_TEST},
        {
            CURRIED: _CURRIED.replace("toolz.filter)", "toolz.filter, toolz.reduce)"),
            CURRIED_TEST: _CURRIED_TEST + "\n\ndef test_reduce():\n    assert reduce\n",
        },
        "add reduce to toolz.curried",
    )
    assert analyze(commit).importance is Importance.LOW


def test_a_merge_is_no_small_feature_by_its_own_diff(tmp_path: Path) -> None:
    # distro 6e9125d "Merge pull request #254 from laffer1/master": the branch's diff
    title = "Merge pull request #254 from laffer1/master\n\nAdd MidnightBSD support"
    assert _assessed(tmp_path, _distro(_REGEX, _PRINT), title) is Importance.LOW


# Where the whole texts were not read (a replayed day: patches alone), the patch is read.
# vllm-ascend cc348a0 "[Feature] Adapt FlashComm1 SP for Step3.5 (#9597)": a condition widened
# and a name added to a list of prefixes; llm-compressor "Add GraniteForCausalLM mappings for
# AWQ and SmoothQuant (#2797)": one row of a registry, its tests beside it.
_OP = "vllm_ascend/ops/linear_op.py"
_CONDITION = (
    "@@ -683,7 +683,8 @@ def _get_column_parallel_op(\n"
    "     if enable_sp():\n"
    '-        if "shared_expert" in prefix:\n'
    '+        if "shared_expert" in prefix or "share_expert" in prefix:\n'
    "             return None\n"
    "@@ -691,6 +692,7 @@ def _get_column_parallel_op(\n"
    '             "query_key_value",  # qkv linear of Bailing\n'
    '+            "g_proj",  # attention gate projection of Step3p5\n'
    "         ]\n"
)
_REGISTRY = "src/llmcompressor/modifiers/awq/mappings.py"
_ROW_ADDED = (
    "@@ -273,6 +273,7 @@ AWQ_MAPPING_REGISTRY: dict[str, list[AWQMapping]] = {\n"
    '     "GlmMoeDsaForCausalLM": _deepseek_mappings,\n'
    '+    "GraniteForCausalLM": default_mappings,\n'
    '     "LlamaForCausalLM": default_mappings,\n'
)
_TEST_ADDED = "@@ -1,1 +1,3 @@\n import x\n+def test_it():\n+    assert x\n"


def _patched(title: str, path: str, patch: str) -> Importance:
    changed = [
        FileChange(filename=path, additions=patch.count("\n+"), deletions=1, patch=patch),
        FileChange(filename="tests/test_it.py", additions=2, patch=_TEST_ADDED),
    ]
    return analyze(CommitInput(sha="e" * 40, message=title, files=changed)).importance


def test_a_condition_a_patch_changes_is_read_without_the_whole_texts() -> None:
    title = "[Feature] Adapt FlashComm1 SP for Step3.5 (#9597)"
    assert _patched(title, _OP, _CONDITION) is Importance.MEDIUM


def test_a_registry_row_a_patch_adds_is_no_feature() -> None:
    title = "Add GraniteForCausalLM mappings for AWQ and SmoothQuant (#2797)"
    assert _patched(title, _REGISTRY, _ROW_ADDED) is Importance.LOW
