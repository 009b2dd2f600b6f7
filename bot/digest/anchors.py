"""GitHub's heading anchors (the github-slugger algorithm), so a table of contents links work."""

from __future__ import annotations

import unicodedata

import regex

# Letters of category So that Unicode still calls Alphabetic (circled letters like ⓔ) stay.
_ALPHABETIC = regex.compile(r"\p{Alphabetic}")


def _kept(ch: str) -> bool:
    if ch in "- ":
        return True
    category = unicodedata.category(ch)
    if category == "Cn":
        return False
    if category[0] in "LM" or category in ("Nd", "Nl", "Pc"):
        return True
    return bool(_ALPHABETIC.match(ch))


def slug(text: str) -> str:
    """Lowercase, drop punctuation, symbols and emoji, each space becomes a hyphen."""
    return "".join(ch for ch in text.lower() if _kept(ch)).replace(" ", "-")


class Slugger:
    """Anchors for one rendered document: repeats get -1, -2, … as GitHub numbers them."""

    def __init__(self) -> None:
        self._occurrences: dict[str, int] = {}

    def slug(self, text: str) -> str:
        base = result = slug(text)
        while result in self._occurrences:
            self._occurrences[base] += 1
            result = f"{base}-{self._occurrences[base]}"
        self._occurrences[result] = 0
        return result
