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


def read_document_whole(before: str, after: str, reading: FileReading) -> None:
    """Markdown headings of the whole file at the parent and at the commit, outside code
    blocks: a heading whose title the file already had ("Fixed" under each release) is no
    new section."""
    for text, side in ((before, reading.minus), (after, reading.plus)):
        fenced = False
        for line in text.splitlines():
            if fences(line):
                fenced = not fenced
            elif not fenced and line.startswith("#"):
                title = _title(line)
                if title is not None:
                    side.sections.append(title)


def _title(line: str) -> str | None:
    match = _HEADING.match(line)
    if match is None:
        return None
    title = match.group(1).strip("*_` ")
    return title if title and not _NOT_A_TITLE.search(title) else None


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
            title = _title(text)
            if title is not None:
                reading.side(sign).sections.append(title)
