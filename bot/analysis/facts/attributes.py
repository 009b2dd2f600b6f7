"""Public instance attributes a class's own methods stop setting on `self`, that no changed
file uses any more: code that reads them fails."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from bot.analysis.facts.records import MemberGone, NameKind
from bot.analysis.facts.scan import FileReading, Side

_SELF = re.compile(r"\bself\s*\.\s*([A-Za-z]\w*)")
_DOTTED = re.compile(r"\.\s*([A-Za-z]\w*)")


def _set_on_self(side: Side, cls: str) -> set[str]:
    """The public attributes the class's own methods assign on `self` (`self.in_strong =
    False`)."""
    found: set[str] = set()
    for name, node in side.functions.items():
        if name.rpartition(".")[0] != cls:
            continue
        for n in ast.walk(node):
            if (
                isinstance(n, ast.Attribute)
                and isinstance(n.ctx, ast.Store)
                and isinstance(n.value, ast.Name)
                and n.value.id == "self"
                and not n.attr.startswith("_")
            ):
                found.add(n.attr)
    return found


def _used(texts: Iterable[str]) -> set[str]:
    """Every attribute name the texts read or set (`state.in_emphasis`), and every string
    (a `getattr(state, "in_emphasis")`, a `__slots__` entry)."""
    found: set[str] = set()
    for text in texts:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.Attribute):
                found.add(n.attr)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                found.add(n.value)
    return found


def attributes_gone(readings: list[FileReading], whole: set[str]) -> list[MemberGone]:
    """The public instance attributes of a public class (of a Python file read whole, the
    class at both revisions, without a `__getattr__`) that its methods set on `self` at the
    parent and none does at the commit, named by no changed file at the commit, nor bound
    as the class's attribute, method or property."""
    python = [r for r in readings if r.path in whole and r.path.endswith(".py")]
    if not python:
        return []
    candidates: list[tuple[FileReading, str, set[str]]] = []
    for r in python:
        # (an attribute the commit's text still names after a dot is one some code uses:
        # never said; a file where every `self.X` of the parent is so named is not walked)
        if not set(_SELF.findall(r.texts[0])) - set(_DOTTED.findall(r.texts[1])):
            continue
        for cls, (kind, _) in r.minus.defs.items():
            if (
                kind is not NameKind.CLASS
                or any(part.startswith("_") for part in cls.split("."))
                or (now := r.plus.defs.get(cls)) is None
                or now[0] is not NameKind.CLASS
                or f"{cls}.__getattr__" in r.plus.defs
                or f"{cls}.__getattribute__" in r.plus.defs
                # a class whose methods' bodies are all as they were sets what it set
                or not any(
                    r.minus.bodies.get(n, n) != r.plus.bodies.get(n)
                    for n in (*r.minus.functions, *r.plus.functions)
                    if n.startswith(f"{cls}.")
                )
            ):
                continue
            lost = _set_on_self(r.minus, cls) - _set_on_self(r.plus, cls)
            if lost:
                candidates.append((r, cls, lost))
    if not candidates:
        return []
    used = _used(r.texts[1] for r in python if r.texts[1])
    out = []
    for r, cls, lost in candidates:
        for attr in sorted(lost):
            member = f"{cls}.{attr}"
            if attr in used or member in r.plus.defs or member in r.plus.assigned:
                continue
            out.append(MemberGone(r.path, cls, attr, attribute=True, instance=True))
    return out
