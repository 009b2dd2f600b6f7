"""A function renamed whose docstring says the same but for the words its name changed
(tinydb 50d0cd8: `purge_tables` → `drop_tables`, “Purge all tables from the database.” →
“Drop all tables from the database.”): its author's own words say it is the same function."""

from __future__ import annotations

import ast
import re

from bot.analysis.facts.records import Name, NameKind, Renamed
from bot.analysis.facts.scan import FileReading

# A docstring this short says too little to tell one function from another.
_MIN_WORDS = 4
_WORD = re.compile(r"[A-Za-z]+")


def renamed_documented(
    added: list[Name], removed: list[Name], readings: list[FileReading]
) -> list[Renamed]:
    """Functions and methods out of a file under one name and into it under another, in the
    same class, taking the same parameters, whose docstrings (at least `_MIN_WORDS` words)
    are the same once the words the name changed are read as the new ones (`purge` as
    `drop`, `Purge` as `Drop`), and that change is in the docstring; where one pair alone
    matches each way."""
    at = {r.path: r for r in readings}
    candidates: dict[Name, list[Name]] = {}
    for out in removed:
        reading = at.get(out.path)
        if reading is None or out.kind not in (NameKind.FUNCTION, NameKind.METHOD):
            continue
        was = reading.minus.functions.get(out.name)
        if was is None or out.name in reading.minus.redefined:
            continue
        for n in added:
            now = reading.plus.functions.get(n.name)
            if (
                n.path == out.path
                and n.kind is out.kind
                and now is not None
                and n.name not in reading.plus.redefined
                and n.name.rpartition(".")[0] == out.name.rpartition(".")[0]
                and reading.minus.signatures.get(out.name) == reading.plus.signatures.get(n.name)
                and same_documented(was, now)
            ):
                candidates.setdefault(out, []).append(n)
    taken = [n for news in candidates.values() for n in news]
    return [
        Renamed(out, news[0])
        for out, news in candidates.items()
        if len(news) == 1 and taken.count(news[0]) == 1
    ]


def same_documented(
    was: ast.FunctionDef | ast.AsyncFunctionDef, now: ast.FunctionDef | ast.AsyncFunctionDef
) -> bool:
    """Whether `now`'s docstring is `was`'s with the words `was`'s name has and `now`'s has
    not read as those `now`'s name has instead (one for one, in order), at least one of
    them read."""
    old_doc, new_doc = ast.get_docstring(was), ast.get_docstring(now)
    if not old_doc or not new_doc or len(_WORD.findall(old_doc)) < _MIN_WORDS:
        return False
    old_words, new_words = was.name.strip("_").split("_"), now.name.strip("_").split("_")
    gone = [w for w in old_words if w not in new_words]
    fresh = [w for w in new_words if w not in old_words]
    if not gone or len(gone) != len(fresh):
        return False
    pairs = {g.lower(): f.lower() for g, f in zip(gone, fresh, strict=True)}
    read = 0

    def swap(match: re.Match[str]) -> str:
        nonlocal read
        word = match[0]
        new = pairs.get(word.lower())
        if new is None:
            return word
        read += 1
        return new.capitalize() if word[0].isupper() else new

    return _WORD.sub(swap, old_doc) == new_doc and read > 0
