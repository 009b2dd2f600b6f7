"""Facts in build and dependency files: the requirements a change sets, old and new."""

from __future__ import annotations

import re

from bot.analysis.facts.scan import FileReading, Hunk

_PIN = re.compile(r"^([A-Za-z0-9][\w.-]*(?:\[[\w,]+\])?)\s*(==|>=|<=|~=|!=|<|>)\s*([\w.*+-]+)")


def read_requirements(file_hunks: list[Hunk], reading: FileReading) -> None:
    """Requirement lines (`torch==2.5.1`, `"transformers>=4.57",`) on each side."""
    for hunk in file_hunks:
        for sign, text in hunk.lines:
            if sign == " ":
                continue
            match = _PIN.match(text.strip().strip("\"',"))
            if match:
                package = match.group(1).lower()
                reading.side(sign).requirements[package] = f"{match.group(2)}{match.group(3)}"
