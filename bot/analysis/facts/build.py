"""Facts in build and dependency files: the requirements a change sets, old and new."""

from __future__ import annotations

import re

from bot.analysis.facts.scan import FileReading, Hunk

# The Python versions a package supports: PEP 621's `requires-python = ">=3.9"`, setuptools'
# `python_requires=">=3.9"` (setup.py) or `python_requires = >=3.9` (setup.cfg).
_PYTHON = re.compile(r"^(?:requires-python|python_requires)\s*[=:]\s*[\"']?([<>=!~][^\"',#]*)")
# A lock file is written by the resolver: every dependency's pin, and a copy of the package's
# own `requires-python` (uv.lock). Not the project's requirements: nothing is read from it.
_LOCK_FILE = re.compile(r"(?:\.lock|-lock\.json|-lock\.ya?ml|(?:^|/)go\.sum)$")
_QUOTED = re.compile(r"[\"']([^\"']+)[\"']")
_PIN = re.compile(r"^([A-Za-z0-9][\w.-]*(?:\[[\w,]+\])?)\s*(==|>=|<=|~=|!=|<|>)\s*([\w.*+-]+)")


def read_requirements(file_hunks: list[Hunk], reading: FileReading) -> None:
    """Requirement lines (`torch==2.5.1`, `"transformers>=4.57",`) and the Python versions
    supported (`requires-python = ">=3.9"`) on each side; none from a lock file."""
    if _LOCK_FILE.search(reading.path):
        return
    for hunk in file_hunks:
        for sign, text in hunk.lines:
            if sign == " ":
                continue
            python = _PYTHON.match(text.strip())
            if python:
                reading.side(sign).requirements["python"] = python.group(1).strip()
                continue
            # `dependencies = ["MarkupSafe>=2.0"]` on one line is the same requirement as
            # `"MarkupSafe>=2.0",` on a line of its own: each quoted item is one
            quoted = _QUOTED.findall(text) if "=" in text and "[" in text else []
            for item in quoted or [text.strip().strip("\"',")]:
                match = _PIN.match(item.strip())
                if match:
                    package = match.group(1).lower()
                    spec = f"{match.group(2)}{match.group(3)}"
                    reading.side(sign).requirements[package] = spec
