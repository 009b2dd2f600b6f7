"""`/digest` commands: whether a comment is one, and its arguments, parsed strictly."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

PREFIX = "/digest"
# What a webhook keeps of the command's line: enough to refuse a longer one as too long.
KEPT_LINE = 1_024
MAX_LINE = 500
# A day the App can have a digest for: after git existed, before it is retired (as pushes).
EARLIEST_DAY = date(2005, 1, 1)
LATEST_DAY = date(2199, 12, 31)

# `/digest` in any case (a phone capitalises a comment's first letter), standing alone as a
# word; ASCII-only, so no Unicode case folding (`ſ` as `s`) makes a command of another word.
# What follows it may be any Unicode whitespace (a no-break space looks like a space).
_COMMAND = re.compile(r"/digest", re.ASCII | re.IGNORECASE)
# An HTML comment (CommonMark HTML block 2, up to 3 spaces in) shows nothing on GitHub.
_COMMENT_OPENS = re.compile(r"^ {0,3}<!--")
_COMMENT_OPENS_TEXT = "<!--"
_COMMENT_CLOSES = "-->"
# CommonMark: text indented to column 4 (a tab reaching it) is an indented code block.
CODE_INDENT = 4
TAB_STOP = 4
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SHA = re.compile(r"[0-9a-f]{7,40}", re.ASCII)
_PR = re.compile(r"#([1-9][0-9]{0,8})", re.ASCII)
_DAY = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)

Name = Literal["help", "config", "explain", "preview", "rate"]
Importance = Literal["high", "medium", "low"]
IMPORTANCES: tuple[Importance, ...] = ("high", "medium", "low")


@dataclass(frozen=True)
class Problem:
    """Why the arguments were refused: a key of the replies' catalogue, and what to quote."""

    key: str  # too_long | unknown | arguments | sha | rate_sha | importance | day
    quoted: str = ""


@dataclass(frozen=True)
class Command:
    name: Name
    # explain, rate: a lowercase sha prefix (explain: or None with `pr`); preview: the day,
    # if given; rate: the importance, and the reason (the rest of the line, maybe empty).
    sha: str | None = None
    pr: int | None = None
    day: date | None = None
    problem: Problem | None = None
    importance: Importance | None = None
    reason: str = ""


def command_line(body: str) -> str | None:
    """The comment's first non-blank line when it is a `/digest` command, else None.

    Lines of an HTML comment (an issue template's) are skipped, as GitHub shows none. A
    line in a code block (fenced or indented) or a quote is not a command, and `/digest`
    (in any case) must stand alone as a word (`/digestive` is not one).
    """
    in_comment = False
    for line in body.splitlines():
        if in_comment or _COMMENT_OPENS.match(line):
            shown, in_comment = _past_comments(line, in_comment)
            if shown.strip():  # the rest of an HTML block shows as text, not a command
                return None
            continue
        if not line.strip():
            continue
        if _FENCE.match(line) or _indent(line) >= CODE_INDENT:
            return None
        text = line.strip()
        if text.startswith(">"):
            return None
        if _is_command(text):
            return text[:KEPT_LINE]
        return None
    return None


def _past_comments(line: str, in_comment: bool) -> tuple[str, bool]:
    """What is left of a line past the HTML comments it opens with (or ends), and whether
    a comment is still open at its end."""
    while True:
        if in_comment:
            end = line.find(_COMMENT_CLOSES)
            if end < 0:
                return "", True
            line, in_comment = line[end + len(_COMMENT_CLOSES) :], False
        rest = line.lstrip()
        if not rest.startswith(_COMMENT_OPENS_TEXT):
            return line, False
        line, in_comment = rest[len(_COMMENT_OPENS_TEXT) :], True


def _is_command(text: str) -> bool:
    """`/digest` starts the text, followed by its end or whitespace (Unicode's too)."""
    if not _COMMAND.match(text):
        return False
    rest = text[len(PREFIX) : len(PREFIX) + 1]
    return not rest or rest.isspace()


def _indent(line: str) -> int:
    """The column the line's text starts at, a tab reaching the next multiple of 4
    (CommonMark's tab stops)."""
    column = 0
    for char in line:
        if char == " ":
            column += 1
        elif char == "\t":
            column += TAB_STOP - column % TAB_STOP
        else:
            break
    return column


def _quoted(token: str) -> str:
    return token if len(token) <= 40 else token[:39] + "…"


def parse(line: str) -> Command:
    """The command on a line `command_line` returned; anything not exactly a command is the
    help with its problem."""
    if len(line) > MAX_LINE:
        return Command("help", problem=Problem("too_long"))
    words = line.split()[1:]
    if not words:
        return Command("help")
    name, args = words[0].lower(), words[1:]
    if name == "rate":
        return _rate(line)
    if name in ("help", "config"):
        if args:
            return Command("help", problem=Problem("arguments", name))
        return Command("help") if name == "help" else Command("config")
    if name == "explain":
        if len(args) != 1:
            return Command("help", problem=Problem("arguments", name))
        arg = args[0]
        if pr := _PR.fullmatch(arg):
            return Command("explain", pr=int(pr.group(1)))
        if _SHA.fullmatch(arg.lower()):
            return Command("explain", sha=arg.lower())
        return Command("help", problem=Problem("sha", _quoted(arg)))
    if name == "preview":
        if len(args) > 1:
            return Command("help", problem=Problem("arguments", name))
        if not args:
            return Command("preview")
        day = _day(args[0])
        if day is None:
            return Command("help", problem=Problem("day", _quoted(args[0])))
        return Command("preview", day=day)
    return Command("help", problem=Problem("unknown", _quoted(words[0])))


def _rate(line: str) -> Command:
    """`rate <sha-prefix> high|medium|low [reason]`: the reason is the rest of the line."""
    words = line.split(maxsplit=4)
    if len(words) < 4:
        return Command("help", problem=Problem("arguments", "rate"))
    sha, importance = words[2].lower(), words[3].lower()
    if not _SHA.fullmatch(sha):
        return Command("help", problem=Problem("rate_sha", _quoted(words[2])))
    chosen = next((i for i in IMPORTANCES if i == importance), None)
    if chosen is None:
        return Command("help", problem=Problem("importance", _quoted(words[3])))
    reason = words[4].strip() if len(words) > 4 else ""
    return Command("rate", sha=sha, importance=chosen, reason=reason)


def _day(text: str) -> date | None:
    match = _DAY.fullmatch(text)
    if match is None:
        return None
    try:
        day = date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None
    return day if EARLIEST_DAY <= day <= LATEST_DAY else None
