"""Reading rendered digests back with a CommonMark parser (GFM tables on), as GitHub would."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token

from bot.digest.anchors import Slugger

_PARSER = MarkdownIt("commonmark").enable("table")
MENTION = re.compile(r"(?<![\w`@/.])@[A-Za-z0-9][A-Za-z0-9-]*")
REFERENCE = re.compile(
    r"(?<![\w&/#])#\d+\b|\bGH-\d+\b|github\.com/[\w.-]+/[\w.-]+/(issues|pull)/\d+"
)


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
        """Text that GitHub would scan for mentions and references (code spans excluded)."""
        return [c.content for c in self.inline_children() if c.type == "text"]

    def html(self) -> list[str]:
        return [t.content for t in self.tokens if t.type == "html_block"] + [
            c.content for c in self.inline_children() if c.type == "html_inline"
        ]


def parse(body: str) -> Parsed:
    return Parsed(_PARSER.parse(body))


def anchors(body: str) -> set[str]:
    slugger = Slugger()
    return {slugger.slug(text) for text in parse(body).headings()}
