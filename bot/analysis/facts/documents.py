"""Facts in settings files (YAML, TOML, INI) and documents (Markdown): values and headings."""

from __future__ import annotations

import re

from bot.analysis.facts.scan import FileReading, Hunk
from bot.analysis.messages import fences

# `key: value`, `key = value`, `- key: value`: a short scalar value on one line.
_VALUE = re.compile(
    r"^([+-])[ \t]*(?:-[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*[:=][ \t]*"
    r"([^\s#|>{\[&*$][^#\n]{0,38}?)[ \t]*$",
    re.MULTILINE,
)
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$")
# A "heading" that is a shell comment or a sentence left in a code block, not a title.
_NOT_A_TITLE = re.compile(r"[=|$]|[:.]$|^[a-z]")


def read_settings(file_hunks: list[Hunk], reading: FileReading) -> None:
    """Scalar values on each side; a key met twice on one side is ambiguous (a list of
    mappings repeats its keys) and is left out."""
    for hunk in file_hunks:
        for m in _VALUE.finditer("\n" + hunk.text):
            values = reading.side(m.group(1)).values
            key, value = m.group(2), m.group(3).strip().strip("\"'")
            values[key] = None if key in values else value


def read_document(file_hunks: list[Hunk], reading: FileReading) -> None:
    """Markdown headings on each side, outside code blocks (a hunk that starts inside one
    is read as if it did not: its headings may be a shell's comments, which the shape of a
    title tells apart)."""
    for hunk in file_hunks:
        if "#" not in hunk.text:
            continue
        fenced = {"+": False, "-": False}
        for sign, text in hunk.lines:
            sides = ("+", "-") if sign == " " else (sign,)
            if fences(text):
                for s in sides:
                    fenced[s] = not fenced[s]
                continue
            if sign == " " or fenced[sign] or not text.startswith("#"):
                continue
            match = _HEADING.match(text)
            if match:
                title = match.group(1).strip("*_` ")
                if title and not _NOT_A_TITLE.search(title):
                    reading.side(sign).sections.append(title)
