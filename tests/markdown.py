"""Reading rendered digests back with a CommonMark parser (GFM tables on), as GitHub would."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token

from bot.digest.anchors import Slugger

_PARSER = MarkdownIt("commonmark").enable("table")

# GitHub's rule, written out here on purpose without the App's regular expressions: `@name`
# (a login starts with a letter or digit) and `#123` are linked at the start of a text or after
# any character that is not [A-Za-z0-9_]; `owner/repo#123`, `GH-123` and issue, pull request
# and discussion URLs (any case, with or without a scheme or `www.`) are references too.
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_ALNUM = _WORD - {"_"}
_DIGITS = frozenset("0123456789")
_REPO_CHARS = _WORD | {".", "-"}


def _after_boundary(text: str, i: int) -> bool:
    return i == 0 or text[i - 1] not in _WORD


def _next_is(text: str, i: int, chars: frozenset[str]) -> bool:
    return i < len(text) and text[i] in chars


def pings(text: str) -> list[str]:
    """The `@name` mentions GitHub would link (and notify) in this text."""
    found = []
    for i, ch in enumerate(text):
        if ch == "@" and _after_boundary(text, i) and _next_is(text, i + 1, _ALNUM):
            found.append(text[i : i + 40])
    return found


def _cross_repo(text: str, i: int) -> bool:
    """`owner/repo#123`: the word before the `#` holds a slash between two names."""
    start = i
    while start > 0 and text[start - 1] in _REPO_CHARS | {"/"}:
        start -= 1
    owner, slash, repo = text[start:i].partition("/")
    return bool(slash and owner and repo and "/" not in repo)


def references(text: str) -> list[str]:
    """The issue and pull request references GitHub would link (and cross-reference)."""
    found = []
    lower = text.lower()
    for i, ch in enumerate(text):
        if ch == "#" and _next_is(text, i + 1, _DIGITS):
            if _after_boundary(text, i) or _cross_repo(text, i):
                found.append(text[max(0, i - 40) : i + 10])
        elif (
            lower.startswith("gh-", i)
            and _after_boundary(text, i)
            and _next_is(text, i + 3, _DIGITS)
        ):
            found.append(text[i : i + 10])
    at = lower.find("github.com/")
    while at != -1:
        parts = lower[at + len("github.com/") :].split("/", 3)
        kind = parts[2] if len(parts) >= 4 else ""
        if kind in ("issues", "pull", "discussions") and parts[3][:1] in _DIGITS:
            found.append(text[at : at + 60])
        at = lower.find("github.com/", at + 1)
    return found


@dataclass
class Parsed:
    tokens: list[Token]

    def inline_children(self) -> Iterator[Token]:
        for token in self.tokens:
            if token.type == "inline":
                yield from token.children or []

    def headings(self) -> list[str]:
        """The text GitHub makes each heading's anchor from, in document order."""
        out = []
        for i, token in enumerate(self.tokens):
            if token.type == "heading_open":
                inline = self.tokens[i + 1]
                out.append(
                    "".join(
                        c.content
                        for c in inline.children or []
                        if c.type in ("text", "code_inline")
                    )
                )
        return out

    def links(self) -> list[str]:
        # The parser percent-encodes hrefs; GitHub's anchors are compared decoded.
        return [
            unquote(str(c.attrs.get("href")))
            for c in self.inline_children()
            if c.type == "link_open"
        ]

    def table_rows(self) -> list[list[str]]:
        rows: list[list[str]] = []
        in_row = False
        for token in self.tokens:
            if token.type == "tr_open":
                rows.append([])
                in_row = True
            elif token.type == "tr_close":
                in_row = False
            elif token.type == "inline" and in_row:
                rows[-1].append(token.content)
        return rows

    def plain_text(self) -> list[str]:
        """Text that GitHub scans for mentions and references: outside code spans, code
        blocks (not inline tokens at all) and link text; each text node on its own."""
        texts = []
        in_link = 0
        for c in self.inline_children():
            if c.type == "link_open":
                in_link += 1
            elif c.type == "link_close":
                in_link -= 1
            elif c.type == "text" and not in_link:
                texts.append(c.content)
        return texts

    def pings_and_references(self) -> list[str]:
        return [hit for text in self.plain_text() for hit in pings(text) + references(text)]

    def html(self) -> list[str]:
        return [t.content for t in self.tokens if t.type == "html_block"] + [
            c.content for c in self.inline_children() if c.type == "html_inline"
        ]


def parse(body: str) -> Parsed:
    return Parsed(_PARSER.parse(body))


def anchors(body: str) -> set[str]:
    slugger = Slugger()
    return {slugger.slug(text) for text in parse(body).headings()}
