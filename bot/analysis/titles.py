"""Reading a commit title: bracket tags, conventional-commit prefixes, reverts, the PR suffix."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TAG = re.compile(r"^\s*\[([^\[\]]{1,60})\]\s*")
# `type(scope)!: text`, e.g. `fix(api)!: drop v1`
_CONVENTIONAL = re.compile(
    r"^\s*(?P<type>[a-zA-Z]{2,12})(?:\((?P<scope>[^()]{1,60})\))?(?P<bang>!)?:\s+(?P<rest>.+)$"
)
_PR_SUFFIX = re.compile(r"\s*\(#\d{1,9}\)\s*$")
_REVERT = re.compile(r'^\s*(?:revert\b[:\s]*"?|reverts?\s+)', re.IGNORECASE)
_NUMBERED = re.compile(r"^\s*\[?\d+\s*/\s*(?:\d+|n)\]?\s*", re.IGNORECASE)

CONVENTIONAL_TYPES = frozenset(
    {"feat", "fix", "docs", "doc", "style", "refactor", "perf", "test", "tests", "build", "ci"}
    | {"chore", "revert", "deps", "security", "config", "release", "bugfix", "feature", "hotfix"}
)


@dataclass(frozen=True)
class ParsedTitle:
    """The parts of a title the rules read."""

    text: str
    tags: tuple[str, ...] = ()
    conventional: str | None = None
    scope: str | None = None
    bang: bool = False
    revert: bool = False
    words: frozenset[str] = field(default_factory=frozenset)


def normalise_tag(tag: str) -> list[str]:
    """`CI/Build` -> ["ci", "build"]; `Model Runner V2` -> ["model runner v2"]."""
    return [part.strip().lower() for part in re.split(r"[/,|+&]", tag) if part.strip()]


def parse_title(title: str) -> ParsedTitle:
    text = _PR_SUFFIX.sub("", title.strip())
    revert = bool(_REVERT.match(text))
    tags: list[str] = []
    while True:
        match = _TAG.match(text)
        if not match:
            break
        tags += normalise_tag(match.group(1))
        text = text[match.end() :]
    text = _NUMBERED.sub("", text).lstrip(":;,-–— ")
    conventional = scope = None
    bang = False
    match = _CONVENTIONAL.match(text)
    if match and match.group("type").lower() in CONVENTIONAL_TYPES:
        conventional = match.group("type").lower()
        scope = match.group("scope")
        bang = bool(match.group("bang"))
        text = match.group("rest")
    revert = revert or conventional == "revert"
    words = frozenset(re.findall(r"[a-z0-9_.+-]+", text.lower()))
    return ParsedTitle(
        text=text.strip() or title.strip(),
        tags=tuple(tags),
        conventional=conventional,
        scope=scope,
        bang=bang,
        revert=revert,
        words=words,
    )


_TRAILING_PR = re.compile(r"\(#(\d{1,9})\)\s*$")


def pr_number(title: str) -> int | None:
    """The PR number GitHub's squash and merge buttons append: `Title (#1234)`."""
    match = _TRAILING_PR.search(title)
    return int(match.group(1)) if match else None
