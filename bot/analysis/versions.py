"""Which version a commit releases, read from its version files and its changelog's headings."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from bot.analysis.messages import is_changelog
from bot.models import FileChange

# A version assignment a patch changes, per kind of file; group `v` is the version.
# (`__version__ = "1.0.0"  # x-release-please-version`, `VERSION: str = '2.1'`)
_PY_VERSION = re.compile(
    r"""^(?:__version__|VERSION)\s*(?::\s*str\s*)?=\s*(['"])(?P<v>[^'"]+)\1\s*(?:#.*)?$"""
)
# pyparsing's `__version_info__ = version_info(3, 3, 0, "final", 1)`
_VERSION_INFO = re.compile(
    r"""^__version_info__\s*=\s*version_info\(\s*(?P<major>\d+),\s*(?P<minor>\d+),\s*"""
    r"""(?P<micro>\d+),\s*['"](?P<level>\w+)['"],\s*(?P<serial>\d+)\s*\)"""
)
# wrapt's `__version_info__ = ('2', '0', '0', 'dev1')`, a version only where the file joins it
# (`__version__ = '.'.join(__version_info__)`)
_INFO_TUPLE = re.compile(
    r"""^__version_info__\s*=\s*\((?P<parts>\s*(['"])\w+\2(?:\s*,\s*(['"])\w+\3)*\s*,?\s*)\)\s*$"""
)
_INFO_PART = re.compile(r"""['"](\w+)['"]""")
_JOINED = re.compile(r"""^[ +-]?__version__\s*=\s*(['"])\.\1\.join\(__version_info__\)\s*$""", re.M)
# `setup(… version="1.2.3", …)`, one keyword a line
_SETUP_VERSION = re.compile(r"""^\s*version\s*=\s*(['"])(?P<v>[^'"]+)\1\s*,?\s*$""")
# `version = "1.0.1"` at a table's margin (`[project]`, `[tool.poetry]`, Cargo's `[package]`),
# `version = 1.0` in setup.cfg's `[metadata]`
_TOML_VERSION = re.compile(r"""^version\s*=\s*(['"]?)(?P<v>[^'"\s]+)\1\s*$""")
# package.json's own `"version"`, indented as a top-level key is
_JSON_VERSION = re.compile(r"""^ {2}"version"\s*:\s*"(?P<v>[^"]+)",?\s*$""")
# release-please's `.release-please-manifest.json`: `".": "1.0.1"` (a path per package)
_MANIFEST_VERSION = re.compile(r"""^\s*"[^"]*"\s*:\s*"(?P<v>[^"]+)",?\s*$""")
# a file that holds the version alone (`VERSION`, `version.txt`)
_BARE_VERSION = re.compile(r"^v?(?P<v>\d+(?:\.\d+)+\S*)\s*$")
_LEVELS = {"final": "", "alpha": "a", "beta": "b", "candidate": "rc", "rc": "rc"}

# A changelog's heading of a version: `## [1.0.1](…) (2025-09-17)`, `v0.14.0` over dashes,
# `Version 3.3.0 - December, 2025`
_HEADING_VERSION = re.compile(
    r"(?<![\w.])v?(?P<v>\d+\.\d+(?:\.\d+)*(?:[-.]?(?:a|b|rc|post|dev)\d*)?)(?![\w.])"
)
_UNDERLINE = re.compile(r"^([=\-~^*+#])\1{2,}\s*$")
# The heading of a version not released yet: "(unreleased)", "- in development", "TBD"
_NOT_YET = re.compile(
    r"\b(?:unreleased|not\s+(?:yet\s+)?released|(?:in|under)\s+development|in\s+progress"
    r"|upcoming|tb[ad]|tdb|wip|probably|planned|expected|dev(?:elopment)?\s+version)\b",
    re.IGNORECASE,
)
# A title that speaks of a release ("Release v1.0.0", "Prep for 3.3.0 release", "Bump version
# and update CHANGELOG."), and one that speaks of the next version's work ("Prep for 3.2.1
# work", "Update version for next release work")
_RELEASE_TITLE = re.compile(
    r"\b(?:releas(?:e[ds]?|ing)|prep(?:are)?|bump(?:ed|s)?|version)\b", re.I
)
_NEXT_TITLE = re.compile(
    r"\b(?:next|work|dev|development|start(?:ing|s)?|begin\w*|post[- ]?release|back\s+to)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_FILE_HEADER = re.compile(r"^(?:---|\+\+\+) (?:a/|b/|/dev/null)")
_ITEM = re.compile(r"^\s*[-*+] +\S")


@dataclass(frozen=True)
class Release:
    """The version a commit releases, the one before where a version file said it, and the
    file that told (a version file, else the changelog)."""

    version: str
    previous: str | None
    path: str


def _final(text: str) -> Version | None:
    """The version, when it is one users install without asking for a pre-release."""
    try:
        version = Version(text)
    except InvalidVersion:
        return None
    return None if version.is_prerelease or version.is_devrelease else version


def _assigned(path: str, line: str, joined: bool = False) -> str | None:
    """The version a line of a version file sets, or None. `joined`: the file sets
    `__version__` to its `__version_info__`'s parts joined with dots."""
    name = path.rsplit("/", 1)[-1]
    if name.endswith(".py"):
        parts = _INFO_TUPLE.match(line) if joined else None
        if parts:
            return ".".join(_INFO_PART.findall(parts["parts"]))
        info = _VERSION_INFO.match(line)
        if info:
            level = _LEVELS.get(info["level"].lower())
            if level is None:
                return None
            base = f"{info['major']}.{info['minor']}.{info['micro']}"
            return base + (f"{level}{info['serial']}" if level else "")
        found = _PY_VERSION.match(line) or (name == "setup.py" and _SETUP_VERSION.match(line))
        return found["v"] if found else None
    if name in ("pyproject.toml", "Cargo.toml", "setup.cfg"):
        found = _TOML_VERSION.match(line)
    elif name == "package.json":
        found = _JSON_VERSION.match(line)
    elif name == ".release-please-manifest.json":
        found = _MANIFEST_VERSION.match(line)
    elif name.upper() in ("VERSION", "VERSION.TXT"):
        found = _BARE_VERSION.match(line)
    else:
        return None
    return found["v"] if found else None


def version_change(files: Iterable[FileChange]) -> Release | None:
    """The first version file whose patch sets a higher version than it had (a file that
    only gains one tells no change)."""
    for f in files:
        if not f.patch or f.status != "modified":
            continue
        joined = bool(_JOINED.search(f.patch))
        removed = [
            v
            for line in f.patch.split("\n")
            if line.startswith("-") and not line.startswith("---")
            if (v := _assigned(f.filename, line[1:], joined)) is not None
        ]
        added = [
            v
            for line in f.patch.split("\n")
            if line.startswith("+") and not line.startswith("+++")
            if (v := _assigned(f.filename, line[1:], joined)) is not None
        ]
        if len(removed) != 1 or len(added) != 1:
            continue
        try:
            if Version(added[0]) > Version(removed[0]):
                return Release(added[0], removed[0], f.filename)
        except InvalidVersion:
            continue
    return None


# the time a release was stamped beside its version (pyparsing's `__version_time__`)
_STAMP = re.compile(r"""^__version_(?:time|date)__\s*(?::\s*str\s*)?=\s*(['"])[\w .:,/+-]*\1\s*$""")


def sets_version_only(f: FileChange) -> bool:
    """Every line the file's patch changes sets the version (or the time it was stamped)."""
    if not f.patch or f.status != "modified":
        return False
    joined = bool(_JOINED.search(f.patch))
    changed = [
        line[1:]
        for line in f.patch.split("\n")
        if line[:1] in ("+", "-") and not _FILE_HEADER.match(line)
    ]
    return bool(changed) and all(
        not text.strip() or _assigned(f.filename, text, joined) is not None or _STAMP.match(text)
        for text in changed
    )


@dataclass(frozen=True)
class _Heading:
    version: str
    words: str
    sign: str  # "+" added, "-" removed, " " kept
    items: int  # list items added under it before the next heading


def _headings(patch: str) -> list[_Heading]:
    """The version headings a changelog's patch shows, in order, with the items added under
    each."""
    lines = [line for line in patch.split("\n") if line[:1] in ("+", "-", " ")]
    lines = [line for line in lines if not _FILE_HEADER.match(line)]
    found: list[_Heading] = []
    for i, line in enumerate(lines):
        sign, text = line[:1], line[1:].rstrip()
        under = next((n[1:] for n in lines[i + 1 :] if n[:1] in (sign, " ")), "")
        if text.startswith("#"):
            title = text.lstrip("#").strip()
        elif text.strip() and not text[0].isspace() and _UNDERLINE.match(under.strip()):
            if _UNDERLINE.match(text):
                continue
            title = text.strip()
        elif found and sign == "+" and _ITEM.match(text) and found[-1].sign == "+":
            last = found[-1]
            found[-1] = _Heading(last.version, last.words, last.sign, last.items + 1)
            continue
        else:
            continue
        version = _HEADING_VERSION.search(title)
        if version is not None:
            found.append(_Heading(version["v"], title, sign, 0))
    return found


def _changelog_says(files: Iterable[FileChange]) -> list[_Heading]:
    """The version headings of the changelogs the commit edits (one it creates lists every
    version at once: no release of its own)."""
    return [
        h
        for f in files
        if f.patch and f.status == "modified" and is_changelog(f.filename)
        for h in _headings(f.patch)
    ]


def release_of(files: Iterable[FileChange], title: str = "") -> Release | None:
    """The version the commit releases, or None.

    A version file set to a higher final version (not `1.1.0.dev0`, `3.3.0b1`) is a release
    where the changelog gains that version's section with its items, or where the changelog
    has no new heading of it and the title speaks of a release ("Release v1.0.0"); a final
    version set to open the next one's work ("Prep for 3.2.1 work") is none. Without a
    version file, a changelog's heading of a final version, dated, that comes with its items
    or replaces the heading of that version being prepared, is a release where the title
    speaks of one. Either way the changelog's new heading of that version saying "in
    development" or "unreleased" makes it none."""
    files = list(files)
    headings = _changelog_says(files)
    added = [h for h in headings if h.sign == "+"]
    releasing = bool(_RELEASE_TITLE.search(title)) and not _NEXT_TITLE.search(title)
    changed = version_change(files)
    if changed is not None:
        if _final(changed.version) is None:
            return None
        same = [h for h in added if _same(h.version, changed.version)]
        if any(_NOT_YET.search(h.words) for h in same):
            return None
        was = [h for h in headings if h.sign == "-" and _same(h.version, changed.version)]
        if same and (any(h.items for h in same) or was):
            return changed
        # (trio-websocket aeb5f60 "fix version (accidental dev suffix)": `0.10.2-dev` →
        # `0.10.2` after 0.10.2 was out, no release of its own)
        return changed if not same and releasing else None
    if len({h.version for h in added}) != 1 or not (releasing or _named(title, added[0])):
        return None  # several versions' notes at once: a history written, no one release
    heading = added[0]
    if _NOT_YET.search(heading.words) or not _YEAR.search(heading.words):
        return None
    if _final(heading.version) is None:
        return None
    was = [h for h in headings if h.sign == "-" and _same(h.version, heading.version)]
    if not heading.items and not any(_NOT_YET.search(h.words) for h in was):
        return None
    # a version below one the file already shows is an older release's notes written late
    if any(h.sign == " " and _newer(h.version, heading.version) for h in headings):
        return None
    path = next(f.filename for f in files if f.patch and is_changelog(f.filename))
    return Release(heading.version, None, path)


@dataclass(frozen=True)
class Opening:
    """The version a commit opens the work of: a version file set to its development or
    pre-release version (`2.0.0.dev1`) beside a new changelog section of it."""

    version: str  # the section's heading's (`2.0.0`)
    development: str  # the version file's (`2.0.0.dev1`)


def opening_of(files: Iterable[FileChange]) -> Opening | None:
    """The version the commit opens, or None: a version file set to a higher development or
    pre-release version, and the changelog gaining that version's heading, not released."""
    files = list(files)
    changed = version_change(files)
    if changed is None or _final(changed.version) is not None:
        return None
    try:
        base = Version(changed.version).base_version
    except InvalidVersion:
        return None
    for h in _changelog_says(files):
        if h.sign == "+" and _same(h.version, base) and _final(h.version) is not None:
            return Opening(h.version, changed.version)
    return None


def _named(title: str, heading: _Heading) -> bool:
    """The title is the version (semantic-release's "2.7.0", "v2.7.0 (#12)")."""
    return any(_same(v["v"], heading.version) for v in _HEADING_VERSION.finditer(title))


def same_version(a: str, b: str) -> bool:
    """Whether two version strings name one version (`1.0` and `1.0.0`)."""
    return _same(a, b)


def newer_version(a: str, b: str) -> bool:
    """Whether version `a` is higher than `b` (False where either is none)."""
    return _newer(a, b)


def _same(a: str, b: str) -> bool:
    try:
        return Version(a) == Version(b)
    except InvalidVersion:
        return a == b


def _newer(a: str, b: str) -> bool:
    try:
        return Version(a) > Version(b)
    except InvalidVersion:
        return False
