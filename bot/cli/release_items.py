"""A changelog's list items as a reader sees them rendered, for the claims checker: Markdown
and reStructuredText bullets at the margin, each under the heading above it."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_BULLET = re.compile(r"^[-*+] +(?=\S)")
_UNDERLINE = re.compile(r"^([=\-~^*+#\"'`:.])\1{2,}\s*$")
# Sphinx roles as they render: `:r:`title <target>`` shows the title, `:r:`~a.b.C`` the
# last part, `:rfc:`N[#anchor]``/`:pep:`N`` "RFC N…"/"PEP N…", any other its text; an
# intersphinx role names its inventory with a `+` (`:external+python:exc:`)
_TITLED_ROLE = re.compile(r":[\w:+-]+:`([^`<]*?)\s*<[^>]*>`")
_NUMBERED_ROLE = re.compile(r":(rfc|pep):`(\d+(?:#[^`]*)?)`", re.IGNORECASE)
_TILDE_ROLE = re.compile(r":[\w:+-]+:`~[^`]*?([^.`]+)`")
_ROLE = re.compile(r":[\w:+-]+:`([^`]*)`")
# links: Markdown `[text](url)`, reStructuredText `` `text <url>`_ ``
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_RST_LINK = re.compile(r"`([^`<]*?)\s*<[^>]*>`_+")


@dataclass(frozen=True)
class Item:
    words: tuple[str, ...]
    heading: tuple[str, ...]


def words(text: str) -> tuple[str, ...]:
    """The words of rendered text, lowercased, markup and punctuation aside."""
    text = _RST_LINK.sub(r"\1", text)
    text = _TITLED_ROLE.sub(r"\1", text)
    text = _NUMBERED_ROLE.sub(r"\1 \2", text)
    text = _TILDE_ROLE.sub(r"\1", text)
    text = _ROLE.sub(r"\1", text)
    text = _MD_LINK.sub(r"\1", text)
    return tuple(re.findall(r"[^\W_]+", text.lower()))


def items(text: str) -> list[Item]:
    """The bullets at the left margin, each with its indented lines, and its heading (a
    Markdown `#` line, or a reStructuredText title over its underline)."""
    lines = text.splitlines()
    found: list[tuple[list[str], str]] = []
    heading = ""
    current: list[str] | None = None
    for i, line in enumerate(lines):
        under = lines[i + 1] if i + 1 < len(lines) else ""
        if line.startswith("#") or (
            line.strip() and not line[0].isspace() and _UNDERLINE.match(under)
        ):
            heading, current = line.lstrip("#").strip(), None
        elif _BULLET.match(line):
            current = [_BULLET.sub("", line)]
            found.append((current, heading))
        elif current is not None and (not line.strip() or line[0].isspace()):
            current.append(line)
        else:
            current = None
    return [Item(words("\n".join(body)), words(h)) for body, h in found]


def new_items(before: str, after: str) -> list[Item]:
    """The items of `after` that `before` does not have (as many times)."""
    had = Counter(i.words for i in items(before))
    out = []
    for item in items(after):
        if had[item.words]:
            had[item.words] -= 1
        else:
            out.append(item)
    return out


def holds(item: Item, quoted: str) -> bool:
    """Whether an item's words hold the quotation's, each piece around a `…` whole and in
    order."""
    at = 0
    for piece in quoted.split("…"):
        said = words(piece)
        if not said:
            continue
        for start in range(at, len(item.words) - len(said) + 1):
            if item.words[start : start + len(said)] == said:
                at = start + len(said)
                break
        else:
            return False
    return True
