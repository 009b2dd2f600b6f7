"""A changelog's list items as a reader sees them rendered, for the claims checker: Markdown
and reStructuredText bullets at the margin, each under the heading above it."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

_BULLET = re.compile(r"^[-*+] +(?=\S)")
# a one-line paragraph at the margin that ends in a colon: a list's label
_LABEL = re.compile(r"^[^\s\-*+#][^:]{0,60}:\s*$")
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


def items(text: str, *, markdown: bool = False) -> list[Item]:
    """The bullets at the left margin, each with its indented lines, and its heading (a
    Markdown `#` line, or a reStructuredText title over its underline). In Markdown an
    unindented line right after a line of the item's text that opens no block of its own
    continues the item's paragraph (CommonMark's lazy continuation line)."""
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
        elif _LABEL.match(line) and not (i and lines[i - 1].strip()) and not under.strip():
            # a paragraph of its own that is only a label ("Features:", "Bug fixes:") reads
            # to the reader as the heading of the list under it (marshmallow's CHANGELOG.rst)
            heading, current = line.strip().rstrip(":").strip(), None
        elif _BULLET.match(line):
            current = [_BULLET.sub("", line)]
            found.append((current, heading))
        elif current is not None and (
            not line.strip()
            or line[0].isspace()
            or (markdown and current[-1].strip() and not _MD_BLOCK.match(line))
        ):
            current.append(line)
        else:
            current = None
    return [Item(words("\n".join(body)), words(h)) for body, h in found]


# A Markdown line that opens a block of its own, never a paragraph's lazy continuation: a
# heading, a list item, a quotation, a fence, a thematic break or an HTML block.
_MD_BLOCK = re.compile(r"^(?:#|[-*+](?:\s|$)|\d+[.)](?:\s|$)|>|```|~~~|<|([-*_])(?:\s*\1){2,}\s*$)")
# Words of an item alike enough to another's to be it reworded (a stray "by" dropped, a link
# made text): the share of words in common, in order, difflib's ratio.
_REWORDED = 0.8


def new_items(before: str, after: str, *, markdown: bool = False) -> list[Item]:
    """The items of `after` that `before` does not have (as many times), an item reworded in
    place aside: one of `after`'s alike (`_REWORDED`) to one of `before`'s that `after` no
    longer has, each paired once, most alike first, is that item edited, not a new one."""
    old = items(before, markdown=markdown)
    had = Counter(i.words for i in old)
    out = []
    for item in items(after, markdown=markdown):
        if had[item.words]:
            had[item.words] -= 1
        else:
            out.append(item)
    gone = [w for w, n in had.items() for _ in range(n)]
    pairs = sorted(
        (
            (ratio, a, g)
            for a, item in enumerate(out)
            for g, was in enumerate(gone)
            if (ratio := SequenceMatcher(None, was, item.words, autojunk=False).ratio())
            >= _REWORDED
        ),
        reverse=True,
    )
    edited: set[int] = set()
    used: set[int] = set()
    for _, a, g in pairs:
        if a not in edited and g not in used:
            edited.add(a)
            used.add(g)
    return [item for a, item in enumerate(out) if a not in edited]


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
