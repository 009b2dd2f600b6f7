"""Towncrier news fragments a commit adds, and the bots' lines its message carries."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.analysis.facts.parses import Parses
from bot.analysis.messages import BULLET, led, paragraphs, roles_as_code
from bot.models import FileChange, fit_sentences

# Where projects keep their fragments when no towncrier configuration is at hand.
_DIRECTORIES = frozenset(
    {"changes", "changelog", "changelog.d", "newsfragments", "news", ".changelog", "changes.d"}
)
# towncrier's own types, and those projects define most (attrs' `change`, yarl's `contrib`):
# a file in a fragment directory is a fragment only when its name carries one.
_DEFAULT_TYPES = frozenset({"feature", "bugfix", "doc", "removal", "misc"})
_COMMON_TYPES = frozenset(
    {
        "breaking",
        "deprecation",
        "contrib",
        "packaging",
        "change",
        "trivial",
        "vendor",
        "security",
        "performance",
        "improvement",
        # Keep a Changelog's sections as types (pytest-asyncio's `changelog.d/1.fixed.rst`)
        "added",
        "changed",
        "deprecated",
        "removed",
        "fixed",
    }
)
# What a type says of the change, for the types that say something.
_MEANINGS: dict[str, str] = {
    "breaking": "breaking",
    "removal": "breaking",
    "deprecation": "deprecation",
    "bugfix": "bugfix",
    "feature": "feature",
    "doc": "doc",
    "added": "feature",
    "deprecated": "deprecation",
    "removed": "breaking",
    "fixed": "bugfix",
    # a `.security` fragment: the author files the change as a security fix
    "security": "security",
}
_DEPRECATES = re.compile(r"\bdeprecat", re.IGNORECASE)
_REMOVES = re.compile(
    r"\b(?:removed|no longer|dropped|drops?|removes?|raises?|fails?)\b", re.IGNORECASE
)
# The most of a fragment's prose kept: a release note, not a design document.
_LIMIT = 600


@dataclass(frozen=True)
class Fragment:
    """One fragment: where it is, its type, what that type says, and its prose."""

    path: str
    type: str
    # "breaking", "deprecation", "bugfix", "feature", "doc" or "security"; None for other types
    meaning: str | None
    text: str


@dataclass(frozen=True)
class _Config:
    directories: frozenset[str]
    # None: towncrier's defaults and the common ones
    types: frozenset[str] | None


def _config(files: Iterable[FileChange], parses: Parses) -> _Config:
    """The repository's towncrier directory and types, where the commit's files hold its
    `pyproject.toml` or `towncrier.toml` whole; the usual ones otherwise."""
    for f in files:
        if f.filename not in ("pyproject.toml", "towncrier.toml", ".towncrier.toml") or not f.after:
            continue
        try:
            table = parses.toml(f.after).get("tool", {}).get("towncrier")
        except tomllib.TOMLDecodeError:
            continue
        if not isinstance(table, dict):
            continue
        directory = table.get("directory")
        dirs = (
            frozenset({str(directory).strip("/")}) if isinstance(directory, str) else _DIRECTORIES
        )
        return _Config(dirs, _types(table))
    return _Config(_DIRECTORIES, None)


def _types(table: Mapping[str, Any]) -> frozenset[str] | None:
    """The types a towncrier table defines (`[[tool.towncrier.type]]` or
    `[tool.towncrier.fragment.X]`); None where it keeps towncrier's."""
    found: set[str] = set()
    listed = table.get("type")
    if isinstance(listed, list):
        found |= {str(t["directory"]) for t in listed if isinstance(t, dict) and "directory" in t}
    fragment = table.get("fragment")
    if isinstance(fragment, dict):
        found |= {str(k) for k in fragment}
    return frozenset(found) or None


def _fragment_type(path: str, config: _Config) -> str | None:
    """The type a fragment's path names (`CHANGES/1632.bugfix.rst`, `changelog.d/1592.change.md`,
    `newsfragments/+abc.feature.1.md`), or None when the path is no fragment."""
    folder, _, name = path.rpartition("/")
    folder = folder.lower()
    if not folder or not any(
        folder == d.lower() or folder.endswith("/" + d.lower()) for d in config.directories
    ):
        return None
    allowed = config.types if config.types is not None else _DEFAULT_TYPES | _COMMON_TYPES
    # the first part names the issue; the type follows (then a counter, then an extension)
    for part in name.split(".")[1:]:
        if part in allowed:
            return part
    return None


# A symbolic link names another fragment of the same change (yarl files one text under
# several types): the patch is the target's name.
_LINK = re.compile(r"^[\w.+-]+\.(?:rst|md|txt)$")
# "-- by :user:`name`.", "— by @name": who wrote it, not what it does
_BYLINE = re.compile(r"\s*(?:--|—|–)\s*by\b[^.]{0,60}\.?\s*$", re.I)
# A paragraph that only credits ("Patch by :user:`asvetlov`.", its role already read away)
_CREDIT = re.compile(
    r"(?:^|(?<=[.!?])\s+)(?:patch|contributed|reported|implemented|suggested)\s+by\b[^.]{0,60}"
    r"\.?\s*$",
    re.I,
)
_RST_LINK = re.compile(r"`([^`<]+?)\s*<[^>`]+>`__?")
_UNDERSCORED = re.compile(r"(?<![\w`])_(?=[^\s_])([^_`\n]+?)(?<=[^\s_])_(?![\w`])")
_EMPTY_CALL = re.compile(r"`([\w.]+)\(\)`")
_RFC = re.compile(r":rfc:`(\d+)[^`]*`", re.IGNORECASE)
_RST_LITERAL = re.compile(r"``([^`]+)``")
_DIRECTIVE = re.compile(r"^\s*\.\.\s")
# `:issue:`1657``, `:pr:`1657``: the pull request a sentence names ("introduced in #1657")
_ISSUE_ROLE = re.compile(r":(?:issue|pr|gh):`(\d+)`", re.IGNORECASE)
_USER_ROLE = re.compile(r":user:`([^`<]+)`", re.IGNORECASE)


def _added_text(patch: str) -> str:
    lines = [
        line[1:]
        for line in patch.split("\n")
        if line.startswith("+") and not line.startswith("+++")
    ]
    return "\n".join(lines)


def _without_byline(paragraph: str) -> str:
    """The paragraph without its by-line, which took the sentence's full stop with it."""
    if not _BYLINE.search(paragraph):
        return paragraph
    cut = _BYLINE.sub("", paragraph)
    return cut if cut.endswith((".", "!", "?", ":")) else f"{cut}."


def _removed_text(patch: str) -> str:
    return "\n".join(
        line[1:]
        for line in patch.split("\n")
        if line.startswith("-") and not line.startswith("---")
    )


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _prose(text: str) -> str:
    """A fragment's prose as a reader sees it: its first paragraphs, code named in code spans,
    no by-line, no literal blocks or directives, cut at a sentence end."""
    kept: list[str] = []
    literal = False
    for line in text.replace("\r\n", "\n").split("\n"):
        if literal:
            # an RST literal block runs while its lines are indented
            if not line.strip() or line[:1] in " \t":
                continue
            literal = False
        if _DIRECTIVE.match(line):
            literal = True
            kept.append("")
            continue
        # "Like so::" introduces a literal block and reads "Like so:"
        literal = line.rstrip().endswith("::")
        read = line.rstrip()[:-1] if literal else line
        if kept and kept[-1].strip() and read.strip() and not BULLET.match(read):
            # a hard-wrapped line goes on its sentence (one that is "(:attr:`…`)" included)
            kept[-1] = f"{kept[-1].rstrip()} {read.strip()}"
        else:
            kept.append(read)
    text = _RST_LINK.sub(r"\1", "\n".join(kept))
    # a role read away would leave a hole ("introduced in .", "Special thanks to for …")
    text = _USER_ROLE.sub(r"@\1", _ISSUE_ROLE.sub(r"#\1", text))
    # `:rfc:`3986#section-3.2.3`` is a standard, not code
    text = _RFC.sub(lambda m: f"RFC {m.group(1)}", text)
    text = _RST_LITERAL.sub(r"`\1`", roles_as_code(text))
    # `URL.without_query_params()` names the method, not a call without arguments
    text = _EMPTY_CALL.sub(r"`\1`", text)
    # Markdown's `_significantly_` and RST's `*significantly*` are emphasis, said plainly
    text = _UNDERSCORED.sub(r"\1", text)
    # no by-line ("-- by :user:`x`."), no credit ("Patch by :user:`asvetlov`.")
    found = [_CREDIT.sub("", _without_byline(p)) for p in paragraphs(text)]
    prose = "\n\n".join(p for p in found if p.strip())
    if len(prose) <= _LIMIT:
        return prose
    try:
        return fit_sentences(prose, _LIMIT)
    except ValueError:
        return ""


def fragments(files: Iterable[FileChange], parses: Parses | None = None) -> tuple[Fragment, ...]:
    """The fragments the commit adds, each with its type and prose (a link to another
    fragment has its type and no prose); `parses`: the commit's settings files parsed."""
    files = list(files)
    config = _config(files, Parses() if parses is None else parses)
    removed = _words(" ".join(_removed_text(f.patch or "") for f in files))
    found: list[Fragment] = []
    for f in files:
        if f.status != "added":
            continue
        kind = _fragment_type(f.filename, config)
        if kind is None:
            continue
        raw = f.after if f.after is not None else _added_text(f.patch or "")
        opening = _words(raw)[:6]
        if len(opening) >= 3 and f" {' '.join(opening)} " in f" {' '.join(removed)} ":
            # a note moved out of the changelog into a fragment (pytest-asyncio 4f27d52):
            # an earlier change's words, not this one's
            continue
        text = "" if _LINK.match(raw.strip()) else _prose(raw)
        meaning = _MEANINGS.get(kind)
        if (
            kind in ("removal", "removed")
            and _DEPRECATES.search(text)
            and not _REMOVES.search(text)
        ):
            # towncrier's `removal` is "Deprecations and Removals": a warning is no break yet
            meaning = "deprecation"
        found.append(Fragment(f.filename, kind, meaning, text))
    return tuple(found)


def fragment_entry(found: Iterable[Fragment]) -> str:
    """The fragments' prose as one description: each text once, at most three, a text that
    names only what its type says of it led by that ("Fixes a `RuntimeError` when …")."""
    texts = list(dict.fromkeys(led(f.type, f.text) for f in found if f.text))
    return "\n\n".join(texts[:3])


# Lines a bot writes into a message: pre-commit.ci's fixes, dependabot's and renovate's
# boilerplate. None is the author's word on the change.
_BOT_LINE = re.compile(
    r"""^\s*(?:[-*]\s+)?(?:<\w+>\s*)?(?:
        \[pre-commit\.ci\].*
      | for\ more\ information,\ see\ https?://pre-commit\.ci\S*
      | pre-commit-ci\[bot\].*
      | (?:\[!\[)?dependabot\ compatibility\ score.*
      | dependabot\ will\ (?:resolve|merge|rebase).*
      | you\ can\ trigger\ (?:a\ )?dependabot\ actions.*
      | dependabot\ commands\ and\ options.*
      | `?@dependabot\ \w+.*
      | (?:[-*]\s+)?(?:\[\s?\]\s*)?(?:<!--.*?-->)?\s*if\ you\ want\ to\ rebase/retry.*
      | (?:📅|🚦|♻️?|🔕)\s*\*\*\w+\*\*:.*
      | this\ pr\ (?:was|has\ been)\ generated\ by\ .*renovate.*
      | .*\[renovate\ bot\]\(.*
      | co-authored-by:.*
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_RENOVATE = re.compile(r"\brenovate\b|mend\.io", re.IGNORECASE)


def without_bot_lines(text: str) -> str:
    """A message without the lines bots write into it (and renovate's tables of updates)."""
    renovate = bool(_RENOVATE.search(text))
    return "\n".join(
        line
        for line in text.split("\n")
        if not _BOT_LINE.match(line) and not (renovate and _TABLE_ROW.match(line))
    )
