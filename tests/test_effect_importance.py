"""Importance by what a change does, not by its title's words alone (issue 27): a slowdown an
input can trigger fixed in a parser is a denial of service; a fix whose title says the old
code silently gave a wrong value or dropped data is high; code moved into a private module
is internal. Shapes from real commits (mistune 2b04d7b, 534127f, 30ef44b; tomlkit b48c094,
d548e18, 21a4942)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.models import ChangeType, Importance
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_HELPERS = "".join(f"\n\ndef helper{i}(value):\n    return value + {i}\n" for i in range(6))

# mistune 2b04d7b: each reference definition searched the rest of the text for a blank line
BLOCK = (
    "import re\n\nBLANK_LINE = re.compile(r'\\n\\s*\\n')\n\n\n"
    "class BlockParser:\n"
    "    def parse_ref_link(self, src, pos):\n"
    "        m = BLANK_LINE.search(src, pos)\n"
    "        end = m.start() if m else len(src)\n"
    "        return src[pos:end]\n" + _HELPERS
)
BLOCK_FIXED = BLOCK.replace(
    "        m = BLANK_LINE.search(src, pos)\n        end = m.start() if m else len(src)\n",
    "        end = _find_next_blank_line(src, pos)\n",
) + (
    "\n\ndef _find_next_blank_line(src, pos):\n"
    "    while True:\n"
    "        nl = src.find('\\n', pos)\n"
    "        if nl < 0:\n"
    "            return len(src)\n"
    "        if not src[pos:nl].strip():\n"
    "            return pos\n"
    "        pos = nl + 1\n"
)
TEST = "def test_ref():\n    assert True\n"
TEST_FAST = TEST + "\n\ndef test_many_refs_return_quickly():\n    assert True\n"


def _analysis(tmp_path: Path, before: dict, after: dict, title: str):  # type: ignore[no-untyped-def]
    _, commit = second_commit(tmp_path, before, after, title)
    return analyze(commit)


def test_a_quadratic_scan_fixed_in_a_parser_is_a_security_fix(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path,
        {"mistune/block_parser.py": BLOCK, "tests/test_block.py": TEST},
        {"mistune/block_parser.py": BLOCK_FIXED, "tests/test_block.py": TEST_FAST},
        "fix(block): avoid quadratic ref link scans",
    )
    assert analysis.importance is Importance.HIGH
    assert analysis.change_types[0] is ChangeType.SECURITY


def test_a_quadratic_speed_up_titled_perf_is_no_security_fix(tmp_path: Path) -> None:
    # the same diff, said as a speed-up: no fix of anything an attacker met
    analysis = _analysis(
        tmp_path,
        {"mistune/block_parser.py": BLOCK, "tests/test_block.py": TEST},
        {"mistune/block_parser.py": BLOCK_FIXED, "tests/test_block.py": TEST_FAST},
        "perf(block): avoid quadratic ref link scans",
    )
    assert ChangeType.SECURITY not in analysis.change_types


def test_a_quadratic_fix_of_code_that_reads_no_input_is_no_security_fix(tmp_path: Path) -> None:
    # a merge of dicts a program builds itself: whoever calls it chooses its cost
    before = "def merge(dicts):\n    out = {}\n    for d in dicts:\n        out = {**out, **d}\n"
    after = "def merge(dicts):\n    out = {}\n    for d in dicts:\n        out.update(d)\n"
    analysis = _analysis(
        tmp_path,
        {"toolz/dicttoolz.py": before + _HELPERS, "tests/test_dict.py": TEST},
        {"toolz/dicttoolz.py": after + _HELPERS, "tests/test_dict.py": TEST_FAST},
        "fix: avoid quadratic copying in merge",
    )
    assert ChangeType.SECURITY not in analysis.change_types


def test_an_exponential_backoff_fixed_is_no_denial_of_service(tmp_path: Path) -> None:
    before = "def parse_retry(header):\n    return 2 ** int(header)\n"
    after = "def parse_retry(header):\n    return min(2 ** int(header), 60)\n"
    analysis = _analysis(
        tmp_path,
        {"client/retry.py": before + _HELPERS, "tests/test_retry.py": TEST},
        {"client/retry.py": after + _HELPERS, "tests/test_retry.py": TEST_FAST},
        "fix: cap the exponential backoff when parsing Retry-After",
    )
    assert ChangeType.SECURITY not in analysis.change_types


# mistune 534127f "fix: improve parsing for edge cases": the words are in the docstring the
# fix writes beside the new code
UTIL = (
    "import re\n\n_strip_end_re = re.compile(r'\\n\\s+$')\n\n\n"
    "def strip_end(src):\n    return _strip_end_re.sub('\\n', src)\n" + _HELPERS
)
UTIL_FIXED = (
    "def strip_end(src):\n"
    '    """Strip trailing whitespace after the final line break.\n\n'
    "    This used to be a regex; for a long run of blank lines the regex retries from\n"
    "    every preceding newline and becomes quadratic. Scanning the suffix once keeps\n"
    '    the same behavior in linear time.\n    """\n'
    "    end = len(src)\n"
    "    while end and src[end - 1].isspace():\n"
    "        end -= 1\n"
    "    newline = src.find('\\n', end)\n"
    "    return src[: newline] + '\\n' if newline >= 0 else src\n" + _HELPERS
)


def test_a_fix_whose_comment_says_the_old_parser_was_quadratic_is_security(
    tmp_path: Path,
) -> None:
    analysis = _analysis(
        tmp_path,
        {"mistune/util.py": UTIL, "mistune/inline_parser.py": BLOCK, "tests/test_x.py": TEST},
        {
            "mistune/util.py": UTIL_FIXED,
            "mistune/inline_parser.py": BLOCK_FIXED,
            "tests/test_x.py": TEST_FAST,
        },
        "fix: improve parsing for edge cases",
    )
    assert analysis.importance is Importance.HIGH
    assert analysis.change_types[0] is ChangeType.SECURITY


def test_a_comment_on_the_new_codes_cost_is_no_word_on_the_old(tmp_path: Path) -> None:
    # the note tells the new code's cost, not what the fix closed
    fixed = UTIL_FIXED.replace(
        "    This used to be a regex; for a long run of blank lines the regex retries from\n"
        "    every preceding newline and becomes quadratic. Scanning the suffix once keeps\n"
        "    the same behavior in linear time.\n",
        "    Quadratic in the number of trailing lines, which stay few.\n",
    )
    analysis = _analysis(
        tmp_path,
        {"mistune/util.py": UTIL, "mistune/inline_parser.py": BLOCK, "tests/test_x.py": TEST},
        {
            "mistune/util.py": fixed,
            "mistune/inline_parser.py": BLOCK_FIXED,
            "tests/test_x.py": TEST_FAST,
        },
        "fix: improve parsing for edge cases",
    )
    assert ChangeType.SECURITY not in analysis.change_types


# tomlkit b48c094 / d548e18: the parser took a bad literal and returned a wrong value
PARSER = (
    "class Parser:\n"
    "    def _parse_number(self, raw):\n"
    "        try:\n"
    "            return float(raw) if '.' in raw else int(raw)\n"
    "        except ValueError:\n"
    "            return float('inf')\n" + _HELPERS
)
PARSER_FIXED = PARSER.replace(
    "            return float('inf')\n", "            raise InvalidNumberError(raw)\n"
)


@pytest.mark.parametrize(
    ("title", "body"),
    [
        (
            "reject overlong decimal integer instead of coercing to inf (#538)",
            "\n\nThe parser returned inf for a literal of more digits than int() takes.",
        ),
        ("raise on malformed array element instead of dropping it (#527)", ""),
    ],
)
def test_a_refusal_of_what_was_silently_mangled_is_a_high_bug_fix(
    tmp_path: Path, title: str, body: str
) -> None:
    analysis = _analysis(
        tmp_path,
        {"tomlkit/parser.py": PARSER, "tests/test_parser.py": TEST},
        {"tomlkit/parser.py": PARSER_FIXED, "tests/test_parser.py": TEST_FAST},
        title + body,
    )
    assert analysis.change_types[0] is ChangeType.BUGFIX
    assert analysis.importance is Importance.HIGH


def test_a_refusal_that_names_no_silent_loss_is_a_bug_fix_of_limited_reach(
    tmp_path: Path,
) -> None:
    # tomlkit 21a4942: "comment" names what the code handles, not a docs edit
    analysis = _analysis(
        tmp_path,
        {"tomlkit/parser.py": PARSER, "tests/test_parser.py": TEST},
        {"tomlkit/parser.py": PARSER_FIXED, "tests/test_parser.py": TEST_FAST},
        "reject a comment containing line breaks in Item.comment and add_line (#544)",
    )
    assert analysis.change_types[0] is ChangeType.BUGFIX
    assert analysis.importance is Importance.MEDIUM


def test_raising_a_version_is_no_refusal(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path,
        {"tomlkit/parser.py": PARSER, "tests/test_parser.py": TEST},
        {"tomlkit/parser.py": PARSER.replace("inf", "nan"), "tests/test_parser.py": TEST},
        "raise the minimum number precision to 64 bits",
    )
    assert ChangeType.BUGFIX not in analysis.change_types


# (enough lines that the move is no tiny tweak by its size)
_STEPS = "".join(f"    new_state.step{i} = state.step{i} + {i}\n" for i in range(24))
# mistune 30ef44b: a private method of a public module moved to a private package's function
INLINE = (
    "class InlineParser:\n"
    "    def parse_link(self, text, state):\n"
    "        return self._parse_link_token(text, state)\n\n"
    "    def _parse_link_token(self, text, state):\n"
    "        new_state = state.copy()\n"
    "        new_state.src = text\n"
    + _STEPS.replace("\n    ", "\n        ").replace("    new_state", "        new_state", 1)
    + "        return {'type': 'link', 'children': self.render(new_state)}\n"
)
INLINE_MOVED = (
    "from ._inline.links import build_link_token\n\n\n"
    "class InlineParser:\n"
    "    def parse_link(self, text, state):\n"
    "        return build_link_token(self, text, state)\n"
)
LINKS = "def _unused():\n    return None\n"
LINKS_MOVED = LINKS + (
    "\n\ndef build_link_token(inline, text, state):\n"
    "    new_state = state.copy()\n"
    "    new_state.src = text\n"
    + _STEPS
    + "    return {'type': 'link', 'children': inline.render(new_state)}\n"
)


def test_code_moved_into_a_private_module_is_low(tmp_path: Path) -> None:
    before = {"mistune/inline_parser.py": INLINE, "mistune/_inline/links.py": LINKS}
    after = {"mistune/inline_parser.py": INLINE_MOVED, "mistune/_inline/links.py": LINKS_MOVED}
    analysis = _analysis(tmp_path, before, after, "refactor: move link token construction")
    assert analysis.importance is Importance.LOW


def test_a_public_name_a_move_removes_is_no_internal_change(tmp_path: Path) -> None:
    # the moved method was public: its callers meet its absence
    public = INLINE.replace("_parse_link_token", "parse_link_token")
    before = {"mistune/inline_parser.py": public, "mistune/_inline/links.py": LINKS}
    after = {"mistune/inline_parser.py": INLINE_MOVED, "mistune/_inline/links.py": LINKS_MOVED}
    analysis = _analysis(tmp_path, before, after, "refactor: move link token construction")
    assert analysis.importance is not Importance.LOW


def _said(analysis) -> str:  # type: ignore[no-untyped-def]
    insights = analysis.insights
    return f"{analysis.summary} {insights.architecture if insights else ''}"


def test_a_private_module_that_gains_a_public_spelled_name_is_not_said_kept(
    tmp_path: Path,
) -> None:
    # `build_link_token` is a name `mistune._inline.links` now binds: the sentence keeps to
    # the public module, whose names are the same
    before = {"mistune/inline_parser.py": INLINE, "mistune/_inline/links.py": LINKS}
    after = {"mistune/inline_parser.py": INLINE_MOVED, "mistune/_inline/links.py": LINKS_MOVED}
    analysis = _analysis(tmp_path, before, after, "refactor: move link token construction")
    said = _said(analysis)
    assert "no public name, signature or default changes in `mistune/inline_parser.py`." in said
    assert "_inline/links.py" not in said.split("no public name", 1)[-1]


def test_a_private_module_that_gains_only_private_names_is_said_kept(tmp_path: Path) -> None:
    private = LINKS_MOVED.replace("build_link_token", "_build_link_token")
    moved = INLINE_MOVED.replace("build_link_token", "_build_link_token")
    before = {"mistune/inline_parser.py": INLINE, "mistune/_inline/links.py": LINKS}
    after = {"mistune/inline_parser.py": moved, "mistune/_inline/links.py": private}
    analysis = _analysis(tmp_path, before, after, "refactor: move link token construction")
    assert "`mistune/_inline/links.py`" in _said(analysis).split("no public name", 1)[-1]


def test_a_move_that_only_grows_private_modules_claims_nothing_internal(
    tmp_path: Path,
) -> None:
    # every file said would be a private module with a new name: no file to say
    before = {"mistune/_inline/links.py": LINKS, "mistune/_inline/emphasis.py": INLINE}
    after = {
        "mistune/_inline/links.py": LINKS_MOVED,
        "mistune/_inline/emphasis.py": INLINE.replace("new_state.src", "new_state.text"),
    }
    analysis = _analysis(tmp_path, before, after, "refactor: move link token construction")
    assert "no public name" not in _said(analysis)
