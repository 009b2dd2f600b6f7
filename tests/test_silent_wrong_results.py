"""A fix whose author shows a silent wrong result is high (the rubric's "fixes of silent wrong
results"), however few lines it takes."""

from __future__ import annotations

from pathlib import Path

from bot.analysis.rules import analyze
from tests.clones import second_commit

CODE = (
    "def bytes2human(nbytes):\n    for size, unit in ((1 << 10, 'K'), (1 << 20, 'M')):\n"
    "        if abs(nbytes) {op} size:\n            return '%dB' % nbytes\n"
    "    return '%d%s' % (nbytes >> 10, 'K')\n"
)
TEST = "from units import bytes2human\n\n\ndef test_kib():\n    assert bytes2human(1024)\n"


def _fix(tmp_path: Path, body: str) -> str:
    _, commit = second_commit(
        tmp_path,
        {"units/__init__.py": CODE.format(op="<=")},
        {"units/__init__.py": CODE.format(op="<"), "tests/test_units.py": TEST},
        f"fix(units): bytes2human rolls over at exact powers of 1024\n\n{body}",
    )
    return analyze(commit).importance.value


def test_a_wrong_value_returned_instead_of_the_right_one_is_high(tmp_path: Path) -> None:
    """boltons 766b554: "bytes2human(1024) returned '1024B' instead of '1K'"."""
    body = (
        "bytes2human(1024) returned '1024B' instead of '1K', because the loop compared\n"
        "the value with '<=' against each boundary. Use '<'."
    )
    assert _fix(tmp_path, body) == "high"


def test_a_value_silently_breaking_an_invariant_is_high(tmp_path: Path) -> None:
    """boltons c1c25da: "Bits(4, 2) was accepted …, silently breaking the len invariant"."""
    body = "Bits(4, 2) was accepted and produced a 3-bit value, silently breaking the invariant."
    assert _fix(tmp_path, body) == "high"


def test_a_fix_without_a_symptom_stays_medium(tmp_path: Path) -> None:
    assert _fix(tmp_path, "Use '<' so the loop advances to the next unit.") == "medium"
