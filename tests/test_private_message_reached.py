"""A private validator's message that a public method raises through it is what users meet
(Compatibility); a condition the helper tests anew is its own (Architecture)."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from tests.clones import second_commit

# prettytable 7401618's shape: `add_column` calls `self._validate_valign` outside any `try`,
# and the `hrules` setter reaches `_validate_hrules` through `_validate_option`
BEFORE = """class Table:
    def __init__(self):
        self.rows = []

    def add_column(self, name, valign="t"):
        self._validate_valign(valign)
        self.rows.append((name, valign))

    @property
    def hrules(self):
        return self._hrules

    @hrules.setter
    def hrules(self, val):
        self._validate_option("hrules", val)
        self._hrules = val

    def _validate_option(self, option, val):
        if option == "hrules":
            self._validate_hrules(option, val)

    def _validate_valign(self, val):
        if val not in ("t", "m", "b", None):
            msg = f"Alignment {val} is invalid, use t, m, b or None"
            raise ValueError(msg)

    def _validate_hrules(self, name, val):
        if val not in (0, 1, 2):
            raise ValueError(f"Invalid value for {name}. Must be ALL, FRAME or NONE.")

    def _pad(self, width):
        if width > 0:
            return " " * width
        return ""
"""
AFTER = (
    BEFORE.replace('("t", "m", "b", None)', '("t", "m", "b")')
    .replace("use t, m, b or None", "use t, m, b")
    .replace("Must be ALL, FRAME or NONE.", "Must be HRuleStyle.")
    .replace("if width > 0:", "if width > 1:")
    .replace(
        'def add_column(self, name, valign="t"):',
        'def add_column(self, name, valign="t", *, fill=None):',
    )
)


def test_a_message_raised_through_a_public_method_is_compatibility(tmp_path: Path) -> None:
    _, commit = second_commit(
        tmp_path,
        {"table/core.py": BEFORE},
        {"table/core.py": AFTER},
        "Add type aliases for Align (#325)",
    )
    insights = analyze(commit).insights
    assert insights is not None
    compatibility = insights.compatibility or ""
    assert "_validate_valign` now says" in compatibility, insights
    assert "_validate_hrules` now says" in compatibility, insights
    # the helper's own condition stays its own
    assert "_validate_valign` now tests" in (insights.architecture or ""), insights
    assert "now tests" not in compatibility, insights
