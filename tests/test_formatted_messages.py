"""A raised message read through its formatting: `%`, `.format` and an f-string alike."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from tests.clones import checked_entry, second_commit

# boltons 7bd0d48's shape (pyupgrade --py37-plus): `.format` and `%` rewritten as f-strings
BEFORE = (
    "class Bits:\n    def __init__(self, val, len_):\n        if val < 0:\n"
    "            raise ValueError('Bits cannot represent negative values')\n"
    "        if val > 2 ** len_:\n"
    "            raise ValueError('value {} cannot be represented with {} bits'"
    ".format(val, len_))\n        if len_ < 0:\n"
    "            raise ValueError('negative length %d (%s%%)' % (len_, val))\n"
    "        self.val = val\n"
)
AFTER = BEFORE.replace(
    "'value {} cannot be represented with {} bits'.format(val, len_)",
    "f'value {val} cannot be represented with {len_} bits'",
).replace("'negative length %d (%s%%)' % (len_, val)", "f'negative length {len_} ({val}%)'")


def test_a_message_rewritten_as_an_f_string_is_no_new_message(tmp_path: Path) -> None:
    _, commit = second_commit(
        tmp_path,
        {"bits/core.py": BEFORE},
        {"bits/core.py": AFTER},
        "Upgrade Python syntax with pyupgrade --py37-plus",
    )
    said = analyze(commit).model_dump_json()
    assert "ValueError" not in said and "cannot be represented" not in said, said


def test_a_formatted_message_reworded_is_said_and_checked_true(tmp_path: Path) -> None:
    """The claims checker reads a `.format` template as the analyser does: the reworded
    message it is told of is true at both revisions."""
    reworded = BEFORE.replace("cannot be represented with {} bits", "needs more than {} bits")
    analysis, verdicts = checked_entry(
        tmp_path, {"bits/core.py": BEFORE}, {"bits/core.py": reworded}, "Reword the bits error"
    )
    assert "now says “value {…} needs more than {…} bits”" in analysis.summary, analysis
    assert verdicts and all(v is Verdict.TRUE for v in verdicts), verdicts
