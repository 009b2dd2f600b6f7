"""Which commits the rules decide for sure, so that they never go to the LLM.

Docs, tests, CI, licence, benchmark-only, dev-tooling-only (`paths.dev_tooling`: a
`pyproject.toml` by the tables its patch touches), formatting-only and lockfile-only changes
and version bumps are recognised from the changed paths and the title alone (never from the
rules' own importance verdict), a release that only sets the version from its patches too
(`versions.py`): a commit is "sure" only when every changed file is of such a kind, or the
whole diff only moves whitespace. Bot authors listed in `exclude.authors` are left out
of the digest before this is asked.
"""

from __future__ import annotations

import re

from bot.analysis.messages import is_changelog
from bot.analysis.paths import PathKind, dev_tooling, path_kind
from bot.analysis.titles import parse_title
from bot.analysis.versions import release_of, sets_version_only
from bot.models import CommitInput, FileChange

_BENCHMARK = re.compile(r"(^|/)benchmarks?/")
_LOCKFILE = re.compile(
    r"(^|/)([^/]*\.lock|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.ya?ml|go\.sum"
    r"|requirements[^/]*\.lock|[^/]*\.lockfile)$"
)
# Files a release or version bump touches besides docs and changelogs.
_VERSION_FILE = re.compile(
    r"(^|/)(pyproject\.toml|setup\.(py|cfg)|package\.json|Cargo\.toml|[^/]*version[^/]*"
    r"|__init__\.py|[^/]*\.lock|package-lock\.json|Chart\.ya?ml|VERSION)$",
    re.IGNORECASE,
)
_VERSION = r"v?\d+\.\d+(?:\.\d+)?(?:[.-]?(?:rc|post|dev|a|b)\d*)?"
_BUMP_TITLE = re.compile(
    rf"^(?:bump(?:ed)?\b.*\b(?:to|version)\s+{_VERSION}\b|bump(?:ed)?\s+version\b"
    rf"|(?:prepare\s+)?release\s+{_VERSION}\b|version\s+{_VERSION}\b|{_VERSION}$)",
    re.IGNORECASE,
)
_FORMAT_TAGS = frozenset({"lint", "linting", "format", "formatting", "style", "pre-commit"})
# Kinds of files that never make a commit important on their own.
_HOUSEKEEPING = {
    PathKind.DOCS: "docs",
    PathKind.TESTS: "tests",
    PathKind.CI: "ci",
    PathKind.LEGAL: "legal",
}


def _file_kind(f: FileChange) -> str | None:
    """The housekeeping kind of a file, or None when it is anything else."""
    for name in (f.filename, f.previous_filename):
        if name is None:
            continue
        if _BENCHMARK.search(name):
            kind = "benchmarks"
        elif _LOCKFILE.search(name):
            kind = "lockfile"
        else:
            kind = _HOUSEKEEPING.get(path_kind(name), "")
        if not kind and not dev_tooling(f):
            return None
    if _BENCHMARK.search(f.filename):
        return "benchmarks"
    if _LOCKFILE.search(f.filename):
        return "lockfile"
    housekeeping = _HOUSEKEEPING.get(path_kind(f.filename))
    return housekeeping if housekeeping is not None or not dev_tooling(f) else "tooling"


def whitespace_only(files: list[FileChange]) -> bool:
    """Every patch removes and adds the same lines but for whitespace (a reformat)."""
    if not files:
        return False
    for f in files:
        if f.patch is None or f.status != "modified":
            return False
        removed = "".join(
            "".join(line[1:].split()) for line in f.patch.split("\n") if line.startswith("-")
        )
        added = "".join(
            "".join(line[1:].split()) for line in f.patch.split("\n") if line.startswith("+")
        )
        if removed != added:
            return False
    return True


def rules_sure(commit: CommitInput) -> str | None:
    """Why the rules decide this commit without the LLM (`docs`, `tests+ci`, `version bump`,
    …), or None when it needs a closer look. Only the paths and the title are read."""
    if not commit.files_known or not commit.files:
        return None
    title = parse_title(commit.title)
    kinds = {_file_kind(f) for f in commit.files}
    if None not in kinds:
        return "+".join(sorted(str(k) for k in kinds))
    if _BUMP_TITLE.match(title.text.strip()) and all(
        _VERSION_FILE.search(f.filename) or _file_kind(f) is not None for f in commit.files
    ):
        return "version bump"
    if release_of(commit.files, commit.title) is not None and all(
        _file_kind(f) is not None or is_changelog(f.filename) or sets_version_only(f)
        for f in commit.files
    ):
        # a release that only sets the version: the rules say what it releases
        return "release"
    if whitespace_only(commit.files):
        return "formatting"
    if (title.conventional == "style" or _FORMAT_TAGS.intersection(title.tags)) and whitespace_only(
        [f for f in commit.files if _file_kind(f) is None]
    ):
        return "formatting"
    return None
