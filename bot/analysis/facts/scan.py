"""A GitHub patch read once into hunks, and what one file's hunks show, side by side."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.analysis.facts.records import NameKind, Registry

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$")


@dataclass(frozen=True)
class Hunk:
    """One hunk: git's section heading (the enclosing definition it names) and its lines,
    each `(side, text)` with side `+`, `-` or ` ` (context)."""

    heading: str
    lines: tuple[tuple[str, str], ...]


def hunks(patch: str) -> list[Hunk]:
    """A GitHub `patch` (hunks only, no file header) split into hunks; a patch GitHub cut
    short keeps the lines it has."""
    out: list[Hunk] = []
    heading: str | None = None
    lines: list[tuple[str, str]] = []
    for line in patch.split("\n"):
        if line.startswith("@@"):
            if heading is not None or lines:
                out.append(Hunk(heading or "", tuple(lines)))
            match = _HUNK.match(line)
            heading = match.group(1) if match else ""
            lines = []
        elif line and line[0] in "+- ":
            lines.append((line[0], line[1:]))
        elif not line:
            lines.append((" ", ""))
        # "\ No newline at end of file" and anything else is not a line of the file
    if heading is not None or lines:
        out.append(Hunk(heading or "", tuple(lines)))
    return out


@dataclass
class Side:
    """What the lines of one side of a file's diff (`+` added, `-` removed) define and read."""

    # qualified name -> (kind, the defining line)
    defs: dict[str, tuple[NameKind, str]] = field(default_factory=dict)
    exports: set[str] = field(default_factory=set)
    # name -> default as written (None: none on the line)
    env: dict[str, str | None] = field(default_factory=dict)
    flags: dict[str, str | None] = field(default_factory=dict)
    keys: dict[str, str | None] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    # (name, registry, via)
    registrations: dict[str, tuple[Registry, str]] = field(default_factory=dict)
    tests: list[str] = field(default_factory=list)
    # package -> spec
    requirements: dict[str, str] = field(default_factory=dict)


@dataclass
class FileReading:
    """One file's diff, read: both sides, the definitions edited inside, the warnings added."""

    path: str
    plus: Side = field(default_factory=Side)
    minus: Side = field(default_factory=Side)
    # qualified name -> kind, for definitions a changed line sits in
    changed: dict[str, NameKind] = field(default_factory=dict)
    # (message or line, replacement)
    deprecations: list[tuple[str, str | None]] = field(default_factory=list)

    def side(self, sign: str) -> Side:
        return self.plus if sign == "+" else self.minus
