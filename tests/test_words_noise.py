"""A medium entry is read whole, so each sentence must tell a maintainer something (issue 27,
"True words": readers skipped 57 sentences in 20 mistune entries and 24 in 16 tomlkit ones).
Never said there: a list of private names added, removed or now called, what the new tests
call, a bare "Refs #N" as the summary, a new constant that only names a parameter's new
default, and an early return that only replaced the parent's own. Built as clones shaped
like the real commits, each remaining claim checked against the clone."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.summary import authored_summary
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# mistune's `toc.py` before c4093c4, shortened: the hook that gives each heading its id
TOC = (
    "def add_toc_hook(md, min_level=1, max_level=3, heading_id=None):\n"
    "    def toc_hook(md, state):\n"
    "        headings = []\n"
    "        for tok in state.tokens:\n"
    "            tok['attrs']['id'] = heading_id(tok, len(headings))\n"
    "            headings.append(tok)\n"
    "        state.env['toc_items'] = headings\n"
    "    md.before_render_hooks.append(toc_hook)\n"
)
# c4093c4: two private helpers the hook now calls, and a test
TOC_FIXED = (
    TOC.replace(
        "        headings = []\n",
        "        headings = []\n        seen = _find_html_ids(state.tokens)\n",
    ).replace(
        "heading_id(tok, len(headings))\n",
        "_unique_id(heading_id(tok, len(headings)), seen)\n",
    )
    + "\n\ndef _find_html_ids(tokens):\n"
    "    return {t.get('attrs', {}).get('id') for t in tokens}\n"
    "\n\ndef _unique_id(value, seen):\n"
    "    index = 1\n"
    "    candidate = value\n"
    "    while candidate in seen:\n"
    "        index += 1\n"
    "        candidate = f'{value}-{index}'\n"
    "    seen.add(candidate)\n"
    "    return candidate\n"
)
TOC_TEST = (
    "from mistune.toc import add_toc_hook\n\n\n"
    "def test_toc_ids_do_not_collide_with_html_ids():\n"
    "    assert add_toc_hook\n"
)


def test_a_medium_fix_never_lists_the_private_helpers_it_adds_and_calls(tmp_path: Path) -> None:
    # mistune c4093c4: "Adds `_find_html_ids`, `_unique_id` to `src/mistune/toc.py`." and
    # "`add_toc_hook` now calls `_find_html_ids` and `_unique_id`.": both skipped by readers
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/mistune/toc.py": TOC, "tests/test_toc.py": "def test_old():\n    pass\n"},
        {"src/mistune/toc.py": TOC_FIXED, "tests/test_toc.py": TOC_TEST},
        "fix(toc): avoid generated id collisions",
    )
    assert analysis.importance is Importance.MEDIUM
    text = entry_text(analysis)
    assert "_find_html_ids" not in text and "_unique_id" not in text
    assert "now calls" not in text
    # what is left to say: the test it adds, named for the bug it pins (never a fix's
    # summary: the title is)
    assert analysis.summary == "Avoid generated id collisions"
    assert "`test_toc_ids_do_not_collide_with_html_ids`" in text
    # nor where the fix lies, said in place of the wiring: "The fix is in `add_toc_hook`"
    assert "The fix is in" not in text
    assert Verdict.FALSE not in verdicts


# mistune's `inline_parser.py` before 0396492, shortened: the guards `parse_link` runs
PARSER = (
    "class InlineParser:\n"
    "    def parse_link(self, m, state):\n"
    "        pos = m.end()\n"
    "        end = _find_closing_bracket(state.src, pos)\n"
    "        if end is None:\n"
    "            return None\n"
    "        if _label_contains_link(state.src[pos:end]):\n"
    "            return None\n"
    "        return end + 1\n"
    "\n\ndef _find_closing_bracket(src, pos):\n"
    "    i = src.find(']', pos)\n"
    "    return None if i < 0 else i\n"
    "\n\ndef _label_contains_link(label):\n"
    "    return '](' in label\n"
)
# 0396492: the guards moved, with their helpers, into a module `parse_link` now calls
PARSER_SPLIT = (
    "from ._links import link_end\n\n\n"
    "class InlineParser:\n"
    "    def parse_link(self, m, state):\n"
    "        end = link_end(state.src, m.end())\n"
    "        if end is None:\n"
    "            return None\n"
    "        return end + 1\n"
)
LINKS = (
    "def link_end(src, pos):\n"
    "    end = _find_closing_bracket(src, pos)\n"
    "    if end is None:\n"
    "        return None\n"
    "    if _label_contains_link(src[pos:end]):\n"
    "        return None\n"
    "    return end\n"
    "\n\ndef _find_closing_bracket(src, pos):\n"
    "    i = src.find(']', pos)\n"
    "    return None if i < 0 else i\n"
    "\n\ndef _label_contains_link(label):\n"
    "    return '](' in label\n"
)


def test_guards_that_moved_into_a_helper_are_never_said_no_longer_called(tmp_path: Path) -> None:
    # mistune 0396492: "`InlineParser.parse_link` no longer calls `_find_closing_bracket` and
    # `_label_contains_link`" read as the DoS and nested-link guards dropped; they moved
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/mistune/inline_parser.py": PARSER},
        {"src/mistune/inline_parser.py": PARSER_SPLIT, "src/mistune/_links.py": LINKS},
        "fix: split inline parser modules",
    )
    assert analysis.importance is not Importance.LOW
    text = entry_text(analysis)
    assert "no longer call" not in text
    assert "`_find_closing_bracket`" not in text
    assert Verdict.FALSE not in verdicts


def test_only_the_issues_a_body_refers_to_are_no_summary() -> None:
    # mistune 2f2449d, 614b019: "Refs #379, #383." was the whole summary
    for body in ("Refs #379, #383.", "Refs #441, #419, #401.", "refs: #12", "Related to #5"):
        assert authored_summary((), (body,), "fix(cli): add entrypoint", limit=200) is None
    # a sentence that says what changed and then refers to an issue is still the author's
    said = authored_summary(
        (), ("Write the CLI output as UTF-8 on every platform, refs #379.",), "fix(cli)", limit=200
    )
    assert said.startswith("Write the CLI output as UTF-8")


# mistune's `block_parser.py` before bf95c32, shortened
BLOCK = (
    "class BlockParser:\n"
    "    def __init__(self, block_quote_rules=None, max_nested_level: int = 100):\n"
    "        self.block_quote_rules = block_quote_rules\n"
    "        self.max_nested_level = max_nested_level\n"
)


def test_a_constant_that_only_names_a_new_default_is_no_new_constant(tmp_path: Path) -> None:
    # mistune bf95c32: "Adds `DEFAULT_MAX_NESTED_LEVEL = 20` to `src/mistune/block_parser.py`"
    # read as a new constant; it is `max_nested_level`'s default, lowered from 100 (no
    # release held 100 here, so the default's change is not said either)
    after = "DEFAULT_MAX_NESTED_LEVEL = 20\n\n\n" + BLOCK.replace(
        "max_nested_level: int = 100", "max_nested_level: int = DEFAULT_MAX_NESTED_LEVEL"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/mistune/block_parser.py": BLOCK},
        {"src/mistune/block_parser.py": after},
        "perf: improve performance",
    )
    text = entry_text(analysis)
    assert "Adds `DEFAULT_MAX_NESTED_LEVEL" not in text
    assert Verdict.FALSE not in verdicts
    # a new public constant nothing takes as a default is still said
    other = "DEFAULT_MAX_NESTED_LEVEL = 20\n\n\n" + BLOCK
    analysis, _ = checked_entry(
        tmp_path / "kept",
        {"src/mistune/block_parser.py": BLOCK},
        {"src/mistune/block_parser.py": other},
        "perf: improve performance",
    )
    assert "`DEFAULT_MAX_NESTED_LEVEL = 20`" in entry_text(analysis)


# mistune's `formatting.py` before 96d0f57, shortened: the scan for the closing marker
FORMATTING = (
    "import re\n\n\n"
    "def parse_strikethrough(inline, m, state):\n"
    "    return _parse_to_end(inline, m, state, 'strikethrough', re.compile(r'~~'))\n"
    "\n\ndef _parse_to_end(inline, m, state, tok_type, end_pattern):\n"
    "    pos = m.end()\n"
    "    m1 = end_pattern.search(state.src, pos)\n"
    "    if not m1:\n"
    "        return None\n"
    "    end_pos = m1.end()\n"
    "    state.append_token({'type': tok_type, 'raw': state.src[pos:end_pos]})\n"
    "    return end_pos\n"
)
FORMATTING_FIXED = (
    FORMATTING.replace("re.compile(r'~~')", "'~~'")
    .replace("end_pattern):", "marker):")
    .replace(
        "    m1 = end_pattern.search(state.src, pos)\n"
        "    if not m1:\n"
        "        return None\n"
        "    end_pos = m1.end()\n",
        "    end_pos = _find_end_marker(state.src, pos, marker)\n"
        "    if end_pos is None:\n"
        "        return None\n",
    )
    + "\n\ndef _find_end_marker(src, pos, marker):\n"
    "    i = src.find(marker, pos)\n"
    "    return None if i < 0 else i + len(marker)\n"
)


def test_an_early_return_that_replaced_the_parents_own_is_no_new_behaviour(
    tmp_path: Path,
) -> None:
    # mistune 96d0f57: "`_parse_to_end` now returns early when `end_pos is None`" while the
    # parent returned `None` the same way when no end matched (`if not m1: return None`)
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/mistune/plugins/formatting.py": FORMATTING},
        {"src/mistune/plugins/formatting.py": FORMATTING_FIXED},
        "fix(formatting): avoid quadratic marker scans",
    )
    assert "returns early" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts
    # a guard that returns something else than the parent's did is new, and said
    other = FORMATTING_FIXED.replace(
        "    if end_pos is None:\n        return None\n",
        "    if end_pos is None:\n        return pos\n",
    )
    analysis, _ = checked_entry(
        tmp_path / "other",
        {"src/mistune/plugins/formatting.py": FORMATTING},
        {"src/mistune/plugins/formatting.py": other},
        "fix(formatting): avoid quadratic marker scans",
    )
    assert "`_parse_to_end` now returns early when `end_pos is None`" in entry_text(analysis)
