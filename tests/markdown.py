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


# GFM's extended autolinks (the GitHub Flavored Markdown spec, "Autolinks (extension)", and
# cmark-gfm, which GitHub runs), also written out on purpose without the App's expressions:
# - `www.` and a domain, at the start of a text, after whitespace or after `*`, `_`, `~`, `(`;
# - `http://`, `https://` or `ftp://` (any case) and a domain: cmark-gfm looks back from the
#   `:` over letters only, so the scheme links after anything but a letter;
# - an email address: letters, digits, `.`, `-`, `_` or `+`, then `@`, then names of letters,
#   digits, `-` or `_` joined by at least one `.`.
_DOMAIN = _WORD | {"-"}
_LOCAL_PART = _ALNUM | {".", "-", "_", "+"}
_WWW_AFTER = frozenset(" \t\n*_~(")
_SCHEMES = ("http://", "https://", "ftp://")


def _email_at(text: str, at: int) -> bool:
    if at == 0 or text[at - 1] not in _LOCAL_PART:
        return False
    end = at + 1
    while end < len(text) and text[end] in _DOMAIN | {"."}:
        end += 1
    names = text[at + 1 : end].rstrip(".").split(".")
    return len(names) >= 2 and all(names) and names[-1][-1] not in "-_"


def autolinks(text: str) -> list[str]:
    """The bare URLs and email addresses GitHub would turn into links in this text."""
    found = []
    lower = text.lower()
    for i, ch in enumerate(text):
        scheme = next((s for s in _SCHEMES if lower.startswith(s, i)), None)
        if scheme and (i == 0 or not text[i - 1].isalpha() or not text[i - 1].isascii()):
            if _next_is(text, i + len(scheme), _DOMAIN):
                found.append(text[i : i + 60])
        elif text.startswith("www.", i) and (i == 0 or text[i - 1] in _WWW_AFTER):
            if _next_is(text, i + 4, _DOMAIN):
                found.append(text[i : i + 60])
        elif ch == "@" and _email_at(text, i):
            found.append(text[max(0, i - 30) : i + 30])
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

    def autolinks(self) -> list[str]:
        """Text GitHub would turn into a link though the App wrote no link there."""
        return [hit for text in self.plain_text() for hit in autolinks(text)]

    def html(self) -> list[str]:
        return [t.content for t in self.tokens if t.type == "html_block"] + [
            c.content for c in self.inline_children() if c.type == "html_inline"
        ]


def parse(body: str) -> Parsed:
    return Parsed(_PARSER.parse(body))


def anchors(body: str) -> set[str]:
    slugger = Slugger()
    return {slugger.slug(text) for text in parse(body).headings()}
