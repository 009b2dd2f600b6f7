"""Public names removed from a module the package's own code imports from are a break for
callers (mistune 5de41fb "refactor on parser": `helpers.LINK_TITLE_RE` and its sibling
regexes gone, `helpers` being what the plugins import from); the same names gone from a
module nothing imports from are not proven to be anyone's interface. A fix that adds a test
module named for security closes a hole (mistune 1bef343 "constrain include targets" adds
`tests/test_security_include.py`). Each shaped like the real commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts.expected_errors import errors_expected
from bot.analysis.facts.importers import imported_from
from bot.analysis.facts.records import ErrorExpected
from bot.analysis.facts.scan import FileReading
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import ChangeType, Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

HELPERS = (
    "import re\n\n"
    "PREVENT_BACKSLASH = r'(?<!\\\\)(?:\\\\\\\\)*'\n"
    "LINK_BRACKET_RE = re.compile(r'<([^<>\\n\\\\\\x00]*)>')\n"
    'LINK_TITLE_RE = re.compile(r\'[ \\t\\n]+("[^"]*")\')\n'
    "PAREN_END_RE = re.compile(r'\\s*\\)')\n\n\n"
    "def parse_link_href(src, start_pos):\n"
    "    m = LINK_BRACKET_RE.match(src, start_pos)\n"
    "    return m.group(1) if m else None\n\n\n"
    "def parse_link_title(src, start_pos):\n"
    "    m = LINK_TITLE_RE.match(src, start_pos)\n"
    "    if m and PAREN_END_RE.match(src, m.end()):\n"
    "        return m.group(1)\n"
    "    return None\n"
)
HELPERS_REWRITTEN = (
    "PREVENT_BACKSLASH = r'(?<!\\\\)(?:\\\\\\\\)*'\n\n\n"
    "def parse_link_href(src, start_pos):\n"
    "    if src[start_pos:start_pos + 1] != '<':\n"
    "        return None\n"
    "    end = src.find('>', start_pos)\n"
    "    return src[start_pos + 1:end] if end > 0 else None\n\n\n"
    "def parse_link_title(src, start_pos):\n"
    "    end = src.find(')', start_pos)\n"
    "    return src[start_pos:end].strip() or None if end > 0 else None\n"
)
TABLE = (
    "from ..helpers import PREVENT_BACKSLASH\n\n"
    "CELL = PREVENT_BACKSLASH + '|'\n\n\n"
    "def parse_table(src):\n"
    "    return src.split(CELL)\n"
)


# A documentation page that shows plugin writers the module: its names are the package's
# interface (mistune's `docs/plugins.rst` shows `from mistune.plugins.table import table`)
HELPERS_PAGE = "Writing plugins\n===============\n\n.. automodule:: mark.helpers\n"
# mistune's `__init__.py` at 5de41fb's parent: it hands out `core`'s classes, not `helpers`
INIT = "from .core import BlockState, InlineState\n"


def _removal(
    tmp_path: Path, importer: str | None, page: str | None = HELPERS_PAGE
) -> tuple[object, list[Verdict]]:
    before = {"src/mark/__init__.py": INIT, "src/mark/helpers.py": HELPERS}
    if page is not None:
        before["docs/plugins.rst"] = page
    after = {"src/mark/helpers.py": HELPERS_REWRITTEN}
    if importer is not None:
        before["src/mark/plugins/__init__.py"] = ""
        before["src/mark/plugins/table.py"] = importer
        after["src/mark/plugins/table.py"] = importer + "\n# cells split on unescaped pipes\n"
    return checked_entry(tmp_path, before, after, "refactor: refactor on parser")


def test_names_gone_from_a_module_the_package_imports_from_are_breaking(tmp_path: Path) -> None:
    analysis, verdicts = _removal(tmp_path, TABLE)
    assert analysis.breaking
    risk = analysis.risks[0]
    # compiled patterns are constants as much as literals are: all three are named
    assert "`LINK_BRACKET_RE`" in risk.description
    assert "`LINK_TITLE_RE`" in risk.description
    assert "`PAREN_END_RE`" in risk.description
    assert "`src/mark/helpers.py`" in risk.description
    # the name still bound is no loss
    assert "PREVENT_BACKSLASH" not in risk.description
    assert "from `mark.helpers` fails" in (risk.consequence or "")
    assert Verdict.FALSE not in verdicts


def test_names_gone_from_a_module_its_package_does_not_hand_out_are_internal(
    tmp_path: Path,
) -> None:
    # mistune 5de41fb as it was: `helpers` is imported by the package's plugins, but neither
    # its `__init__.py` nor a documentation page hands it out: its regexes were internal
    analysis, verdicts = _removal(tmp_path, TABLE, page=None)
    assert not analysis.breaking
    assert analysis.risks == []
    assert analysis.importance is not Importance.HIGH
    said = entry_text(analysis)
    assert "internal to `mark.helpers`" in said
    assert "fails" not in said
    assert Verdict.FALSE not in verdicts


def test_the_same_names_gone_from_a_module_nothing_imports_from_are_no_break(
    tmp_path: Path,
) -> None:
    # nothing of the package imports from `helpers`: not proven to be an interface
    analysis, verdicts = _removal(tmp_path, None)
    assert not analysis.breaking
    assert analysis.risks == []
    assert Verdict.FALSE not in verdicts


def test_imports_from_resolve_relative_to_the_package_and_skip_tests() -> None:
    def reading(path: str, text: str) -> FileReading:
        r = FileReading(path)
        r.texts = (text, text)
        return r

    found = imported_from(
        [
            reading("src/mark/plugins/table.py", "from ..helpers import X\nfrom . import util\n"),
            reading("src/mark/core.py", "from .core import Y\nfrom mark.util import Z\n"),
            reading("tests/test_core.py", "from mark.inline_parser import W\n"),
        ]
    )
    # a module's import of itself is none; a test imports whatever it tests
    assert found == ("mark.helpers", "mark.plugins", "mark.util")


INCLUDE = (
    "import os\n\n\n"
    "class Include:\n"
    "    def parse(self, block, m, state):\n"
    "        source_file = state.env.get('__file__')\n"
    "        dest = os.path.join(os.path.dirname(source_file), m.group('value'))\n"
    "        if not os.path.isfile(dest):\n"
    "            return {'type': 'block_error', 'raw': 'Could not find file'}\n"
    "        with open(dest) as f:\n"
    "            return {'type': 'include', 'raw': f.read()}\n"
)
INCLUDE_FIXED = INCLUDE.replace(
    "        if not os.path.isfile(dest):\n",
    "        root = os.path.realpath(os.path.dirname(source_file))\n"
    "        dest = os.path.realpath(dest)\n"
    "        if os.path.commonpath([root, dest]) != root:\n"
    "            return {'type': 'block_error', 'raw': 'Could not include outside source dir'}\n"
    "        if not os.path.isfile(dest):\n",
)
TEST_INCLUDE = (
    "from mark.directives.include import Include\n\n\n"
    "def test_include_rejects_traversal(tmp_path):\n"
    "    assert Include is not None\n"
)


@pytest.mark.parametrize(
    ("test_path", "title", "security"),
    [
        ("tests/test_security_include.py", "fix(directives): constrain include targets", True),
        ("tests/include_security.py", "fix(directives): constrain include targets", True),
        # a test named otherwise names no hole
        ("tests/test_include_paths.py", "fix(directives): constrain include targets", False),
        # a feature with a security-named test is no fix of a hole
        ("tests/test_security_include.py", "feat(directives): add include roots", False),
    ],
)
def test_a_fix_adding_a_test_named_for_security_is_a_security_fix(
    tmp_path: Path, test_path: str, title: str, security: bool
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/mark/__init__.py": "", "src/mark/directives/include.py": INCLUDE},
        {"src/mark/directives/include.py": INCLUDE_FIXED, test_path: TEST_INCLUDE},
        title,
    )
    assert (ChangeType.SECURITY in analysis.change_types) is security
    assert (analysis.importance is Importance.HIGH) is security
    assert Verdict.FALSE not in verdicts


BLOCK = (
    "class BlockParser:\n"
    "    def extract_block_quote(self, m, state):\n"
    "        text = m.group(0)\n"
    "        if not text:\n"
    "            return '', None\n"
    "        end_pos = state.cursor\n"
    "        return text.strip(), end_pos\n\n"
    "    def parse_block_quote(self, m, state):\n"
    "        text, end_pos = self.extract_block_quote(m, state)\n"
    "        return end_pos\n"
)
BLOCK_LAZY = (
    BLOCK.replace("return '', None\n", "return '', None, set()\n")
    .replace("return text.strip(), end_pos\n", "return text.strip(), end_pos, {end_pos}\n")
    .replace("text, end_pos = self", "text, end_pos, _ = self")
)


@pytest.mark.parametrize(
    ("after", "said"),
    [
        (BLOCK_LAZY, True),
        # one return still of two values: not every return is proven to have changed
        (BLOCK_LAZY.replace("return '', None, set()\n", "return '', None\n"), False),
        # a private class's method is no caller's
        (BLOCK_LAZY.replace("class BlockParser", "class _BlockParser"), False),
    ],
)
def test_a_public_method_returning_another_number_of_values_is_breaking(
    tmp_path: Path, after: str, said: bool
) -> None:
    # mistune 5de41fb: `extract_block_quote` returned `(text, end_pos)` and now adds the lazy
    # line starts; the project's own spoiler plugin had to unpack three
    before = BLOCK if "_BlockParser" not in after else BLOCK.replace("class B", "class _B")
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/mark/__init__.py": "", "src/mark/block_parser.py": before},
        {"src/mark/block_parser.py": after},
        "refactor: track lazy continuation lines",
    )
    risks = [r for r in analysis.risks if "now returns" in r.description]
    assert bool(risks) is said
    assert analysis.breaking is said
    if said:
        assert risks[0].description == (
            "`BlockParser.extract_block_quote` in `src/mark/block_parser.py` now returns 3 "
            "values (was 2)."
        )
        assert risks[0].consequence == (
            "Code that unpacks 2 values from `BlockParser.extract_block_quote` fails."
        )
    assert Verdict.FALSE not in verdicts


TEST_DIRECTIVES = (
    "class TestDirectiveInclude:\n"
    "    def test_html_include(self):\n"
    "        html = render('.. include:: ../README.md')\n"
    "        self.assertIn('Could not find file', html)\n"
    "        self.assertIn('# Table of Contents', html)\n"
)


@pytest.mark.parametrize(
    ("expected", "said"),
    [
        ("'Could not include outside source dir'", True),
        # another result expected is no new error
        ("'# Contents'", False),
    ],
)
def test_a_test_rewritten_to_expect_an_error_says_what_callers_meet(
    tmp_path: Path, expected: str, said: bool
) -> None:
    # mistune 1bef343: the test that included `../README.md` expected its table of contents,
    # and now expects the include to be refused
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "src/mark/__init__.py": "",
            "src/mark/directives/include.py": INCLUDE,
            "tests/test_directives.py": TEST_DIRECTIVES,
        },
        {
            "src/mark/directives/include.py": INCLUDE_FIXED,
            "tests/test_directives.py": TEST_DIRECTIVES.replace("'# Table of Contents'", expected),
        },
        "fix(directives): constrain include targets",
    )
    text = " ".join(
        [analysis.summary, *(v or "" for v in analysis.insights.model_dump().values())]
        if analysis.insights
        else [analysis.summary]
    )
    sentence = (
        "test in `tests/test_directives.py` that expected “# Table of Contents” now expects "
        "“Could not include outside source dir” from the same call: callers meet the new error"
    )
    assert (sentence in text) is said
    assert Verdict.FALSE not in verdicts


def test_a_test_now_expecting_an_error_the_code_already_gave_says_nothing_of_callers(
    tmp_path: Path,
) -> None:
    # deepdiff's merge #483: a test's expected string became "Error when loading t1:", which
    # its `commands.py` had long printed; the merge's code change was elsewhere
    before = INCLUDE_FIXED.replace("def ", "# a comment\ndef ", 1)
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "src/mark/__init__.py": "",
            "src/mark/directives/include.py": before,
            "tests/test_directives.py": TEST_DIRECTIVES,
        },
        {
            "src/mark/directives/include.py": INCLUDE_FIXED,
            "tests/test_directives.py": TEST_DIRECTIVES.replace(
                "'# Table of Contents'", "'Could not include outside source dir'"
            ),
        },
        "fix(directives): constrain include targets",
    )
    assert "callers meet the new error" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_only_a_literal_turned_into_an_error_is_an_error_expected() -> None:
    patch = (
        "@@ -1,4 +1,4 @@\n"
        "-        self.assertIn('# Table of Contents', html)\n"
        "+        self.assertIn('Could not include outside source dir', html)\n"
        "-        assert run('a') == 'ok'\n"
        "+        assert call('a') == 'invalid input'\n"
        "-        assert parse('x') == 'an error'\n"
        "+        assert parse('x') == 'another error'\n"
    )
    found = errors_expected("tests/test_x.py", patch)
    # the call changed too (`run` to `call`): not the same call; an error before and after:
    # no new error
    assert found == [
        ErrorExpected(
            "tests/test_x.py", "# Table of Contents", "Could not include outside source dir"
        )
    ]


STATE = (
    "class InlineState:\n"
    "    def __init__(self, env):\n"
    "        self.env = env\n"
    "        self.tokens = []\n"
    "        self.in_emphasis = False\n"
    "        self.in_strong = False\n\n"
    "    def copy(self):\n"
    "        state = self.__class__(self.env)\n"
    "        state.in_emphasis = self.in_emphasis\n"
    "        return state\n"
)
STATE_AFTER = STATE.replace(
    "        self.in_emphasis = False\n        self.in_strong = False\n", ""
).replace("        state.in_emphasis = self.in_emphasis\n", "")


@pytest.mark.parametrize(
    ("after", "user", "said"),
    [
        (STATE_AFTER, None, True),
        # a changed file still reads `in_strong` at the commit: it may still be set there
        (STATE_AFTER, "def emphasis(state):\n    return state.in_strong\n", True),
        # the class hands out any attribute asked for
        (STATE_AFTER + "\n    def __getattr__(self, name):\n        return False\n", None, False),
    ],
)
def test_attributes_a_public_class_stops_setting_are_gone_for_callers(
    tmp_path: Path, after: str, user: str | None, said: bool
) -> None:
    # mistune 5de41fb: `InlineState.in_emphasis` and `in_strong` were set in `__init__` and
    # read by plugins; the rewrite drops both
    # (mistune's `__init__.py` hands out `core`'s classes: `from .core import InlineState`)
    before = {"src/mark/__init__.py": "from .core import InlineState\n", "src/mark/core.py": STATE}
    changed = {"src/mark/core.py": after}
    if user is not None:
        before["src/mark/inline_parser.py"] = "def emphasis(state):\n    return None\n"
        changed["src/mark/inline_parser.py"] = user
    analysis, verdicts = checked_entry(tmp_path, before, changed, "refactor: drop nesting flags")
    gone = [r for r in analysis.risks if "on its instances" in r.description]
    assert bool(gone) is said
    assert analysis.breaking is said
    if said:
        names = "`in_emphasis`" if user else "`in_emphasis`, `in_strong`"
        assert gone[0].description == (
            f"`InlineState` (`src/mark/core.py`) no longer sets {names} on its instances."
        )
    assert Verdict.FALSE not in verdicts


def test_names_gone_from_an_applications_module_are_no_break(tmp_path: Path) -> None:
    # no `src/`, no `__init__.py`: a folder of an application's modules, which import from
    # each other with no caller outside
    analysis, verdicts = checked_entry(
        tmp_path,
        {"app/helpers.py": HELPERS, "app/table.py": TABLE.replace("..helpers", "app.helpers")},
        {
            "app/helpers.py": HELPERS_REWRITTEN,
            "app/table.py": TABLE.replace("..helpers", "app.helpers") + "\n# cells\n",
        },
        "refactor: refactor on parser",
    )
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts
