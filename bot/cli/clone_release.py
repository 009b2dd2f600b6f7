"""The last release before each commit, read from a clone's version tags, and which names the
commit's removed lines hold that no release holds anywhere.

A name no text file of a release's tree holds as a word was in no function, module or setting
that release shipped, wherever the code has moved; one no version tag holds (the last before
the commit, an older one, one tagged on a release branch) was never shipped, and what the
commit takes of it breaks no user. Lines it edits that no tag's history holds
(`clone_blame.py`) were never released either: a fix of them affected no release's user.
The App reads no tags online: there `release` stays None.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from packaging.version import InvalidVersion, Version

from bot.analysis.unreleased import names_in
from bot.cli.clone_blame import edits_unreleased
from bot.cli.git import CloneError, run_git
from bot.models import CommitInput, LastRelease

_NO_NAMES = frozenset({*keyword.kwlist, "self", "cls"})
# Past this many words a commit asks about, the rest are not asked (they stay released).
_MAX_WORDS = 500
# Words one search asks about: a Perl expression's compiled size is bounded (64 KiB).
_WORDS_A_SEARCH = 1000


def _tags(path: Path, *args: str) -> list[str] | None:
    """`git tag` with `args`: the tag names; None where git failed."""
    try:
        result = run_git(path, "tag", *args, timeout=120)
    except CloneError:
        return None
    return result.stdout.split() if result.returncode == 0 else None


def version_tags(path: Path) -> dict[str, Version]:
    """The clone's tags that name a version (`v1.2.3`, `1.2.3`, `1.2.3rc1`), with it."""
    versions: dict[str, Version] = {}
    for tag in _tags(path) or ():
        try:
            versions[tag] = Version(tag)
        except InvalidVersion:
            continue
    return versions


# A tag spelt with the project's name or a word before its version (`jmespath-0.9.0`,
# `release-1.2`, `rel_1.2`)
_PREFIXED = re.compile(r"[A-Za-z][\w.]*?[-_/](?P<version>v?\d[\w.+-]*)")


def tag_versions(path: Path) -> dict[str, Version]:
    """Every tag that names a version with it: those `version_tags` reads, and those spelt
    with a word before the version (`jmespath-0.9.0`)."""
    versions: dict[str, Version] = {}
    for tag in _tags(path) or ():
        m = _PREFIXED.fullmatch(tag)
        for text in (tag, m["version"] if m else None):
            if text is None:
                continue
            try:
                versions[tag] = Version(text)
                break
            except InvalidVersion:
                continue
    return versions


def last_tag(path: Path, sha: str, versions: dict[str, Version]) -> str | None:
    """The highest version tag `sha`'s first parent reaches; None where there is none, the
    commit has no parent, or git failed."""
    merged = [t for t in _tags(path, "--merged", f"{sha}^") or () if t in versions]
    return max(merged, key=lambda t: (versions[t], t)) if merged else None


def asked(commit: CommitInput) -> list[str]:
    """The words the commit's removed lines, and the modules it deletes or renames, hold
    that may name what it takes away (a keyword, `self` or a private name never does), in
    their order, at most `_MAX_WORDS`."""
    found: dict[str, None] = {}
    for f in commit.files:
        # a module the commit deletes or renames away: its name, as its importers write it
        gone = f.filename if f.status == "removed" else f.previous_filename
        if gone and gone.endswith(".py") and f.status in ("removed", "renamed"):
            found.update(dict.fromkeys(names_in(gone.rpartition("/")[2].removesuffix(".py"))))
        for line in (f.patch or "").split("\n"):
            if line.startswith("-") and not line.startswith(("--- a/", "--- /dev/null")):
                found.update(dict.fromkeys(names_in(line)))
    return [w for w in found if w not in _NO_NAMES][:_MAX_WORDS]


# Release-branch tags asked beside the last release: the newest this many (a big project's
# hundreds of tags are minutes of `git grep`)
_MAX_LATER_TAGS = 20


def never_released(
    path: Path, tag: str, words: Iterable[str], versions: dict[str, Version]
) -> frozenset[str] | None:
    """Those of `words` no release a user may run holds as a word: `tag`'s tree asked first,
    then, for the few it lacks, the tags of higher versions (cut on release branches the
    commit's line never merged: a backport's user has them). An older release's users had
    to pass `tag` to reach the commit's next one. None where git failed."""
    gone = absent_from(path, [tag], words)
    later = sorted((t for t in versions if versions[t] > versions[tag]), key=versions.__getitem__)
    return absent_from(path, later[-_MAX_LATER_TAGS:], gone) if gone else gone


def absent_from(path: Path, tags: list[str], words: Iterable[str]) -> frozenset[str] | None:
    """Those of `words` no text file of these tags' trees holds as a word; None where git
    failed (or was built without Perl expressions)."""
    names = sorted(set(words))
    if not tags:
        return frozenset(names)
    held: set[str] = set()
    for start in range(0, len(names), _WORDS_A_SEARCH):
        found = _held(path, tags, names[start : start + _WORDS_A_SEARCH])
        if found is None:
            return None
        held |= found
    return frozenset(names) - held


def _held(path: Path, tags: list[str], names: list[str]) -> set[str] | None:
    # One expression, not fixed strings: git tries each fixed string on every line (minutes
    # for a day's words); `\b` inside it, not `-w`, lets `check` give way to `check_return`.
    expression = f"\\b(?:{'|'.join(names)})\\b"
    try:
        result = run_git(
            path,
            "grep",
            "-I",
            "-h",
            "-o",
            "-P",
            "--no-color",
            "-f",
            "-",
            *(f"refs/tags/{t}" for t in tags),
            stdin=f"{expression}\n",
            timeout=300,
        )
    except CloneError:
        return None
    # 1: nothing matched; anything else but 0 is an error
    if result.returncode not in (0, 1):
        return None
    return set(result.stdout.split("\n"))


def _released_before(
    path: Path, commits: Sequence[CommitInput], tags: list[str | None], versions: dict[str, Version]
) -> dict[str, frozenset[str]]:
    """By last release, the version tags that do not hold the newest of the commits after it:
    what those users run lacks the fix (the releases before it, one cut on a release branch).
    One read for the commits after the same release, not one each: a tag cut between two of
    them holds the older one, whose lines are then all released (`edits_unreleased`). A
    release whose tags git could not read is left out."""
    shas: dict[str, list[str]] = {}
    for commit, tag in zip(commits, tags, strict=True):
        if tag is not None and commit.parents == 1:
            shas.setdefault(tag, []).append(commit.sha)
    out: dict[str, frozenset[str]] = {}
    for tag, mine in shas.items():
        try:
            heads = run_git(path, "merge-base", "--independent", *mine, timeout=120)
        except CloneError:
            continue
        if heads.returncode != 0:
            continue
        # the union over the newest: a tag that holds one of them holds its fix
        found: set[str] = set()
        for head in heads.stdout.split():
            lacking = _tags(path, "--no-contains", head)
            if lacking is None:
                break
            found.update(t for t in lacking if t in versions)
        else:
            out[tag] = frozenset(found)
    return out


def tagged_releases(path: Path, versions: dict[str, Version]) -> dict[str, str]:
    """By commit sha, the highest final version its version tags name (`v23.1.0`: `23.1.0`);
    a pre-release's (`v2.0.0rc1`) is no release users install unasked. Empty where git
    failed."""
    try:
        # (an annotated tag's commit is its peeled `*objectname`)
        done = run_git(
            path,
            "for-each-ref",
            "--format=%(refname:short) %(objectname) %(*objectname)",
            "refs/tags",
            timeout=120,
        )
    except CloneError:
        return {}
    if done.returncode != 0:
        return {}
    best: dict[str, Version] = {}
    for line in done.stdout.splitlines():
        name, _, shas = line.partition(" ")
        version = versions.get(name)
        if version is None or version.is_prerelease or version.is_devrelease:
            continue
        sha = shas.split()[-1] if shas.split() else ""
        if sha and (sha not in best or version > best[sha]):
            best[sha] = version
    return {sha: str(v) for sha, v in best.items()}


def with_releases(path: Path, commits: Sequence[CommitInput]) -> list[CommitInput]:
    """The commits with `release` read from the clone at `path`, the releases searched once
    for the words all the commits after the same last release ask about, and `tagged` where
    a final version's tag points at one. A commit without a version tag behind it, or whose
    releases git could not search, keeps None."""
    versions = version_tags(path)
    if not versions:
        return list(commits)
    tagged = tagged_releases(path, versions)
    commits = [
        c.model_copy(update={"tagged": tagged[c.sha]}) if c.sha in tagged else c for c in commits
    ]
    # a commit before the first release ('' for its tag): the releases that lack it are
    # the only ones a user could have run it from (none, where every release holds it)
    tags = [last_tag(path, c.sha, versions) or ("" if c.parents == 1 else None) for c in commits]
    words = [asked(c) for c in commits]
    wanted: dict[str, set[str]] = {}
    for tag, mine in zip(tags, words, strict=True):
        if tag is not None:
            wanted.setdefault(tag, set()).update(mine)
    before = _released_before(path, commits, tags, versions)
    absent = {
        tag: never_released(path, tag, names, versions)
        if tag
        else absent_from(path, sorted(before[tag]), names)
        if tag in before
        else None
        for tag, names in wanted.items()
    }
    out = []
    for commit, tag, mine in zip(commits, tags, words, strict=True):
        found = absent.get(tag) if tag is not None else None
        if tag is None or found is None:
            out.append(commit)
            continue
        release = LastRelease(
            tag=tag,
            absent=frozenset(mine) & found,
            edits_unreleased=bool(tag)
            and edits_unreleased(path, commit, before.get(tag, ()), last=tag),
        )
        out.append(commit.model_copy(update={"release": release}))
    return out
