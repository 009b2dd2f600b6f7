"""Whether a name an entry says no release had is in no version tag's tree, and whether the tag
it says the name came after is one the commit's parent reaches."""

from __future__ import annotations

import keyword
import re
from collections.abc import Collection
from pathlib import Path

from bot.cli.clone_release import version_tags
from bot.cli.git import CloneError, run_git

# the identifiers of a name as written (`cache_open()`, `C.m`), a parameter's annotation and
# default aside (`check_arguments: bool = True`)
_IDENTIFIER = re.compile(r"(?<!\w)[A-Za-z]\w*")


def _grep_finds(path: Path, word: str, trees: list[str]) -> bool | None:
    """Whether a text file of one of the trees holds `word` as a whole word; None: git failed."""
    if not trees:
        return False
    try:
        done = run_git(path, "grep", "-q", "-I", "-w", "-F", "-e", word, *trees, "--", timeout=300)
    except CloneError:
        return None
    return {0: True, 1: False}.get(done.returncode)


def judged(
    path: Path, parent: str | None, name: str, tag: str, sha: str = ""
) -> tuple[bool | None, str]:
    """(True: proven, False: disproven, None: not told; why) of "`name` (added after `tag`,
    never released)": `tag` a version tag the parent reaches, and a word of `name` held by
    the parent's tree and by no version tag's. Without a tag, "(before the first release,
    never released)": the parent reaches no version tag, and a word of `name` held by the
    parent's tree and by no version tag that lacks the commit `sha`."""
    if parent is None:
        return False, "a root commit comes after no release"
    versions = version_tags(path)
    if not tag:
        return _before_first(path, parent, sha, name, versions)
    if tag not in versions:
        return False, f"`{tag}` is no version tag of the clone"
    try:
        reached = run_git(path, "merge-base", "--is-ancestor", f"refs/tags/{tag}", parent)
    except CloneError:
        return None, "git failed"
    if reached.returncode != 0:
        return False, f"the parent does not reach `{tag}`"
    return _held_unreleased(path, parent, name, list(versions))


def _before_first(
    path: Path, parent: str, sha: str, name: str, versions: Collection[str]
) -> tuple[bool | None, str]:
    try:
        reached = run_git(path, "tag", "--merged", parent)
        lacking = run_git(path, "tag", "--no-contains", sha) if sha else None
    except CloneError:
        return None, "git failed"
    if reached.returncode != 0 or lacking is None or lacking.returncode != 0:
        return None, "git failed"
    passed = [t for t in reached.stdout.split() if t in versions]
    if passed:
        return False, f"the parent reaches the release `{passed[0]}`"
    return _held_unreleased(
        path, parent, name, [t for t in lacking.stdout.split() if t in versions]
    )


def _held_unreleased(
    path: Path, parent: str, name: str, tags: list[str]
) -> tuple[bool | None, str]:
    """Whether a word of `name` is in the parent's tree and in none of the tags' trees."""
    bare = re.split(r"[:=]", name, maxsplit=1)[0]
    words = [w for w in _IDENTIFIER.findall(bare) if w not in keyword.kwlist]
    for word in words:
        held, released = (
            _grep_finds(path, word, [parent]),
            _grep_finds(path, word, [f"refs/tags/{t}" for t in tags]),
        )
        if held is None or released is None:
            return None, "git failed"
        if held and not released:
            return True, f"`{word}` is at the parent and in no version tag"
    return False, f"every word of `{name}` is in a version tag, or not at the parent"
