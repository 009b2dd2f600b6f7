"""Making commit and LLM text safe to post: no pings, no raw HTML, no broken tables.

GitHub notifies for `@user` and `@org/team` and adds a timeline event to every issue or pull
request a post references (`#123`, `owner/repo#123`, `GH-123`, a full issue URL), but not
inside code spans (FACTS.md §9). So those become code spans; HTML is escaped; Markdown that
could turn text into links, images, emphasis or blocks is escaped; and in table cells every
`|` is escaped, code spans included (GFM splits cells on them).
"""

from __future__ import annotations

import re

_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_NEUTRALISE = re.compile(
    r"""
    (?<![\w`@/.])@[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:/[A-Za-z0-9_-]+)?  # @user, @org/team
  | https?://(?:www\.)?github\.com/[\w.-]+/[\w.-]+/(?:issues|pull|discussions)/\d+[^\s)\]]*
  | (?<![\w`])[\w.-]+/[\w.-]+\#\d+\b                                         # owner/repo#123
  | (?<![\w`&/\#])\#\d+\b                                                    # #123
  | \bGH-\d+\b
    """,
    re.VERBOSE,
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


def code(value: str) -> str:
    """A code span holding `value` verbatim (on one line), whatever backticks it contains."""
    value = " ".join(value.split())
    if not value:
        return ""
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def _plain(segment: str) -> str:
    out: list[str] = []
    last = 0
    for match in _NEUTRALISE.finditer(segment):
        out.append(segment[last : match.start()].translate(_ESCAPED))
        out.append(code(match.group(0)))
        last = match.end()
    out.append(segment[last:].translate(_ESCAPED))
    return "".join(out)


def inline(value: str) -> str:
    """Untrusted text as one line of safe Markdown; its code spans are kept as code."""
    value = " ".join(value.split())
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(value):
        out.append(_plain(value[last : match.start()]))
        out.append(code(match.group(2)))
        last = match.end()
    out.append(_plain(value[last:]))
    text = "".join(out)
    return _BLOCK_START.sub(_escape_block_start, text, count=1)


def _escape_block_start(m: re.Match[str]) -> str:
    # Only punctuation can be backslash-escaped: "1." becomes "1\.", "#" becomes "\#".
    if m.group(2):
        return f"{m.group(1)}\\{m.group(2)}"
    return f"{m.group(1)}{m.group(3)}\\{m.group(4)}"


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
