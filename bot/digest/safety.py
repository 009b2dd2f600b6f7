"""Making commit and LLM text safe to post: no pings, no links, no raw HTML, no broken tables.

GitHub notifies for `@user` and `@org/team` and adds a timeline event to every issue or pull
request a post references (`#123`, `owner/repo#123`, `GH-123`, a full issue URL), but not
inside code spans (FACTS.md §9); GFM turns bare URLs (`https://…`, `www.…`) and email
addresses into links, but not inside code spans either. So those become code spans; HTML is
escaped; Markdown that could turn text into links, images, emphasis or blocks is escaped; and
in table cells every `|` is escaped, code spans included (GFM splits cells on them). A title
is plain text, where a code span would show its backticks: there each of them is broken by
an invisible word joiner instead.
"""

from __future__ import annotations

import re

from bot.analysis.spans import code
from bot.models import one_spaced

_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
# GitHub links `@name` and `#123` at the start of a text or after any character that is not
# [A-Za-z0-9_] (a backtick, a dot, a slash, `@`, a CJK or accented letter): hence the ASCII
# look-behinds, never `\w`, which would also skip letters such as `é` or `修`.
_NEUTRALISE = re.compile(
    r"""
    (?<![A-Za-z0-9_])@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9_-]+)?         # @user, @org/team
  | (?i:(?:https?://)?(?:www\.)?github\.com/[\w.-]+/[\w.-]+/(?:issues|pull|discussions)/\d+)
    [^\s)\]]*                                                              # any case, www.
  | (?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\#\d+                # owner/repo#123
  | (?<![A-Za-z0-9_])\#\d+                                                 # #123
  | (?i:(?<![A-Za-z0-9_])GH-\d+)                                           # GH-123
  # GFM's extended autolinks: a scheme links after anything but a letter (cmark-gfm looks
  # back over letters for it), `www.` after a space, `*`, `_`, `~` or `(` (here: after
  # anything but a letter or digit); an email address wherever it is.
  | (?i:(?<![A-Za-z])(?:https?|ftp)://)[^\s<]+                              # a bare URL
  | (?i:(?<![A-Za-z0-9])www\.)[^\s<]+                                      # www.host
  | (?<![A-Za-z0-9.+_-])[A-Za-z0-9.+_-]+@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+  # an email address
    """,
    re.VERBOSE,
)
# What ends a sentence or a quotation after a URL is not the URL's: GFM leaves trailing
# `?!.,:*_~` and an unmatched `)` out of an autolink; a closing quote or bracket the text put
# round the URL is no more part of it ("“… issues/177”." spans the URL alone).
_URL_START = re.compile(r"(?i:https?://|ftp://|www\.|github\.com/)")
_URL_TRAILING = frozenset("?!.,:;*_~'\"”’»」』)]")


def _url_end(segment: str, start: int, end: int) -> int:
    """Where the URL at `segment[start:end]` ends once its trailing punctuation is left out;
    a `)` stays where the URL opened one (`…/Foo_(bar)`)."""
    while end > start + 1 and segment[end - 1] in _URL_TRAILING:
        url = segment[start:end]
        if segment[end - 1] == ")" and url.count("(") >= url.count(")"):
            break
        end -= 1
    return end


# In a title (plain text) a WORD JOINER, invisible and without width, after each sigil and
# separator of a span stops GitHub's patterns from matching; the title reads the same.
_WORD_JOINER = "\u2060"
_TITLE_BREAKS = re.compile(r"(^.|[@#/:.])")
# What follows a code span starts a new text for GitHub, where `@name` or `#123` is at the start
# and links: so a neutralised span takes in whatever would link right after it.
_LINKABLE_AT_START = re.compile(
    r"@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9_-]+)?|\#\d+|(?i:GH-\d+)"
    r"|[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\#\d+"  # owner/repo#123
)
_ESCAPED = str.maketrans(
    {
        "\\": "\\\\",
        "*": "\\*",
        "_": "\\_",
        "[": "\\[",
        "]": "\\]",
        "~": "\\~",
        "`": "\\`",
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
    }
)
# At the start of a line these would make a heading, quote, list, setext underline or rule.
_BLOCK_START = re.compile(r"^(\s*)(?:([#>+=-])|(\d+)([.)]))")
# At the end of a heading, a run of `#` after a space is the ATX closing sequence: CommonMark
# drops it, and the heading's anchor would no longer be the one the contents link to.
_ATX_CLOSING = re.compile(r"(^|[ \t])(#+)([ \t]*)$")


def _plain(segment: str) -> list[tuple[bool, str]]:
    """The segment as pieces: (True, raw text for a code span) or (False, escaped Markdown)."""
    out: list[tuple[bool, str]] = []
    last = 0
    for match in _NEUTRALISE.finditer(segment):
        start = max(match.start(), last)
        if start >= match.end():
            continue  # already taken in by the span before it
        out.append((False, segment[last:start].translate(_ESCAPED)))
        end = match.end()
        if _URL_START.match(segment, start):
            end = _url_end(segment, start, end)
        while more := _LINKABLE_AT_START.match(segment, end):
            end = more.end()
        out.append((True, segment[start:end]))
        last = end
    out.append((False, segment[last:].translate(_ESCAPED)))
    return out


def _joined(pieces: list[tuple[bool, str]]) -> str:
    """Markdown of the pieces, where code spans side by side become one span: the fences of two
    adjacent spans run together (`` `a``b` ``), CommonMark pairs them differently, and the text
    of one span would be left outside code, where it links."""
    out: list[str] = []
    pending: list[str] = []
    for is_code, text in pieces:
        if is_code:
            pending.append(text)
        elif text:
            if pending:
                out.append(code("".join(pending), spaces=True))
                pending = []
            out.append(text)
    if pending:
        out.append(code("".join(pending), spaces=True))
    return "".join(out)


def inline(value: str) -> str:
    """Untrusted text as one line of safe Markdown; its code spans are kept as code."""
    value = one_spaced(value)
    pieces: list[tuple[bool, str]] = []
    last = 0
    for match in _CODE_SPAN.finditer(value):
        pieces += _plain(value[last : match.start()])
        pieces.append((True, match.group(2)))
        last = match.end()
    pieces += _plain(value[last:])
    text = _BLOCK_START.sub(_escape_block_start, _joined(pieces), count=1)
    return _ATX_CLOSING.sub(r"\1\\\2\3", text)


def _escape_block_start(m: re.Match[str]) -> str:
    # Only punctuation can be backslash-escaped: "1." becomes "1\.", "#" becomes "\#".
    if m.group(2):
        return f"{m.group(1)}\\{m.group(2)}"
    return f"{m.group(1)}{m.group(3)}\\{m.group(4)}"


def plain_title(value: str) -> str:
    """Untrusted text for a plain-text title (a Discussion's): mentions, references and
    links broken, so none pings, cross-references or links."""
    value = " ".join(value.split())
    return _NEUTRALISE.sub(
        lambda m: _TITLE_BREAKS.sub(lambda c: c.group(0) + _WORD_JOINER, m.group(0)), value
    )


def cell(value: str) -> str:
    """Untrusted text for a table cell."""
    return inline(value).replace("|", "\\|")


_RENDERED = re.compile(r"(`+)(.+?)\1|\\(.)|&(lt|gt|amp);|.", re.DOTALL)
_ENTITIES = {"lt": "<", "gt": ">", "amp": "&"}


def rendered(markdown: str) -> str:
    """The text GitHub shows for Markdown made by `inline` (what heading anchors are made from)."""
    out: list[str] = []
    for m in _RENDERED.finditer(markdown):
        if m.group(2) is not None:
            inner = m.group(2)
            both = len(inner) > 2 and inner.startswith(" ") and inner.endswith(" ")
            out.append(inner[1:-1] if both else inner)
        elif m.group(3) is not None:
            out.append(m.group(3))
        elif m.group(4) is not None:
            out.append(_ENTITIES[m.group(4)])
        else:
            out.append(m.group(0))
    return "".join(out)
