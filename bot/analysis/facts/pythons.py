"""The Python requirement a package's metadata states, where it is the same at both revisions."""

from __future__ import annotations

import re
import tomllib

from bot.analysis.facts.build import cfg_python_requires
from bot.analysis.facts.parses import Parses
from bot.models import CommitInput

# `python_requires=">=3.7"` (setup.py), `python_requires = >=3.7` (setup.cfg),
# `requires-python = ">=3.7"` (pyproject.toml)
_REQUIRES = re.compile(
    r"^\s*(?:requires-python|python_requires)\s*[=:]\s*[\"']?([<>=!~][^\"',#\n]*)", re.MULTILINE
)
# the trove classifiers of the versions a package says it supports
_CLASSIFIER = re.compile(r"Programming Language :: Python :: (\d+(?:\.\d+)*)\b")


# A trove classifier written as a string (`'Programming Language :: Python :: 3.12'`) or
# as a `setup.cfg` line: a capitalised category, then ` :: ` and its parts
_TROVE = re.compile(
    r"""(?:^|["'])[ \t]*([A-Z][\w .+/()-]*(?: :: [^"'\n]+?)+)[ \t]*(?:["']|$)""", re.MULTILINE
)
# the packaging files whose classifiers are read
_CLASSIFIED = ("setup.py", "setup.cfg", "pyproject.toml")


def licence_expressed(commit: CommitInput) -> tuple[str, str] | None:
    """The SPDX expression a `pyproject.toml`'s `project.license` now is (`license = "MIT"`)
    and what it was, a table (`{text = "MIT"}`: "text `MIT`", `{file = "LICENSE"}`: "file
    `LICENSE`"): PEP 639's licence field, which replaces the `License ::` classifiers."""
    for f in commit.files:
        if f.filename.rsplit("/", 1)[-1] != "pyproject.toml" or f.sides is None:
            continue
        try:
            old, new = (tomllib.loads(t).get("project", {}).get("license") for t in f.sides)
        except tomllib.TOMLDecodeError:
            continue
        if isinstance(new, str) and isinstance(old, dict) and len(old) == 1:
            ((key, value),) = old.items()
            if key in ("text", "file") and isinstance(value, str):
                return new, f"{key} `{value}`"
    return None


def _classifiers(text: str) -> list[str]:
    """The trove classifiers a packaging text lists, in order."""
    return list(dict.fromkeys(m.strip() for m in _TROVE.findall(text)))


def classifiers_changed(commit: CommitInput) -> tuple[list[str], list[str]]:
    """The trove classifiers the changed packaging files list at the commit and did not at
    the parent, and those they no longer list (each file's two texts known)."""
    added: list[str] = []
    removed: list[str] = []
    for f in commit.files:
        if f.filename.rsplit("/", 1)[-1] not in _CLASSIFIED or f.sides is None:
            continue
        old, new = (_classifiers(t) for t in f.sides)
        added += [c for c in new if c not in old and c not in added]
        removed += [c for c in old if c not in new and c not in removed]
    return added, removed


def _stated(path: str, text: str, parses: Parses) -> frozenset[str]:
    """What one metadata text says of the Pythons it supports: its requirement(s) and the
    versions its classifiers name (a `setup.cfg`'s requirement only where setuptools reads
    it, under `[options]`)."""
    if path.rsplit("/", 1)[-1] == "setup.cfg":
        cfg = cfg_python_requires(text, parses)
        required = [cfg] if cfg else []
    else:
        required = [m.strip() for m in _REQUIRES.findall(text)]
    return frozenset(
        [f"requires {r}" for r in required] + [f"classifier {v}" for v in _CLASSIFIER.findall(text)]
    )


def python_kept(commit: CommitInput, names: tuple[str, ...], parses: Parses) -> str | None:
    """The Python requirement (`>=3.7`) the package's metadata files (`names`: their file
    names) state at the parent and the same at the commit, each changed one's two texts
    known and every one's classifiers the same too; None where one changes what it says,
    a changed one's texts are not known, or none states a requirement. The unchanged ones
    are those read for the commit (`CommitInput.modules`)."""
    before: set[str] = set()
    after: set[str] = set()
    for path, text in commit.modules:
        if path.rsplit("/", 1)[-1] in names:
            said = _stated(path, text, parses)
            before |= said
            after |= said
    for f in commit.files:
        if f.filename.rsplit("/", 1)[-1] not in names:
            continue
        if f.sides is None:
            return None
        old, new = f.sides
        before |= _stated(f.filename, old or "", parses)
        after |= _stated(f.filename, new or "", parses)
    if before != after:
        return None
    required = sorted(s.removeprefix("requires ") for s in before if s.startswith("requires "))
    return ", ".join(required) or None
