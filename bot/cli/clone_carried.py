"""What a release commit ships, read from a clone: the commits since its previous release
(`previous_tag`), counted as `git log --oneline TAG..RELEASE` lists them (its merges and the
release itself among them), and those others whose own analysis (the rules', each read as the
digest reads it) is breaking or high, merges and the release aside (a merge's branch is read
commit by commit; the release's own change is said by its own entry).

Offline only: the App reads no tags online, and a GitHub call per carried commit is not made.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from packaging.version import InvalidVersion, Version

from bot.analysis import rules
from bot.analysis.facts.kept import units_kept
from bot.analysis.messages import SAYS_BREAK, is_changelog
from bot.analysis.paths import PathKind, path_kind
from bot.analysis.versions import newer_version, release_of, version_change
from bot.cli.clone import files_with_patches
from bot.cli.clone_release import tag_versions, with_releases
from bot.cli.clone_sources import CatFile, blob_cache, with_modules, with_sources
from bot.cli.clone_tree import quoted_each
from bot.cli.git import CloneError, run_git
from bot.models import Carried, CarriedCommit, CommitInput, FileChange, Importance

# The most commits a release is read with one by one: each is analysed whole (a tenth of a
# second to a second with its files read, lark's 27 since 1.1.9 about 5 s on an idle machine);
# past this many that may matter (a big project's months between tags) the count alone is
# told, not which of them matter. Past `MAX_LISTED` in all, their patches are not even read.
MAX_CARRIED = 150
MAX_LISTED = 1000
# Commits named in the sentence; the rest are counted.
SHOWN = 3


def released_version(commit: CommitInput) -> str | None:
    """The final version the commit releases: its version tag's, else what its version files
    and changelog tell (`versions.release_of`)."""
    if commit.tagged:
        return commit.tagged
    released = release_of(commit.files, commit.title) if commit.files_known else None
    return released.version if released is not None else None


def previous_tag(commit: CommitInput, versions: dict[str, Version]) -> str | None:
    """The release `commit` comes after, as one of the clone's tags (`versions`, by name):
    the version its version file is bumped from where a tag names it (`X`, `vX`, `name-X`),
    whether or not the commit reaches it (a project that tags on `master` and releases by
    merging into `develop`: jmespath 0b007c9's 0.10.0); else the last version tag its parent
    reaches, where that is not older than the bumped-from version (lark ae207df's 1.2.0 was
    never tagged, and 1.1.9 is older: no previous release is named). None where neither
    holds. Where version files are bumped from different versions, the highest is the
    release: the others lagged behind it (backoff 4a4b565 bumps `__version__` from 1.10.0
    and pyproject from 1.11.0)."""
    was = _bumped_from(commit)
    if was is not None:
        named = [t for t, v in versions.items() if v == Version(was)]
        if named:
            # the plain spellings first
            return min(named, key=lambda t: (t not in (was, f"v{was}"), len(t), t))
    nearest = commit.release.tag if commit.release is not None else ""
    if not nearest:
        return None
    if was is not None and newer_version(was, nearest.removeprefix("v")):
        return None
    return nearest


def _bumped_from(commit: CommitInput) -> str | None:
    """The highest version the commit's version files are bumped from."""
    if not commit.files_known:
        return None
    found: list[tuple[Version, str]] = []
    for f in commit.files:
        changed = version_change([f])
        if changed is None or changed.previous is None:
            continue
        try:
            found.append((Version(changed.previous), changed.previous))
        except InvalidVersion:
            continue
    return max(found)[1] if found else None


def carried_shas(path: Path, sha: str, tag: str) -> list[str] | None:
    """The commits the release `sha` ships since `tag` that are read one by one, newest
    first: reachable from its parents, not from the tag, merges aside. None where git
    failed."""
    try:
        done = run_git(
            path, "rev-list", "--no-merges", f"{sha}^@", f"^refs/tags/{tag}", "--", timeout=120
        )
    except CloneError:
        return None
    return done.stdout.split() if done.returncode == 0 else None


def shipped_count(path: Path, sha: str, tag: str) -> int | None:
    """How many commits `git log --oneline {tag}..{sha}` lists: the release's history less
    the tag's, its merges and the release itself counted. None where git failed."""
    try:
        done = run_git(path, "rev-list", "--count", sha, f"^refs/tags/{tag}", "--", timeout=120)
    except CloneError:
        return None
    return int(done.stdout) if done.returncode == 0 and done.stdout.strip().isdigit() else None


# What reaches no user's running code (`signals`' quiet kinds)
_QUIET = frozenset({PathKind.DOCS, PathKind.TESTS, PathKind.CI, PathKind.LEGAL})


def quiet(message: str, files: list[FileChange]) -> bool:
    """A commit that changes only docs, tests, CI or licences, no changelog, whose message does
    not call it breaking: neither breaking nor high by its own analysis, so not read."""
    return (
        bool(files)
        and all(path_kind(f.filename) in _QUIET and not is_changelog(f.filename) for f in files)
        and not SAYS_BREAK.search(message)
        and "breaking" not in message.lower()
    )


def _read(path: Path, shas: list[str]) -> list[CommitInput]:
    """The commits as the digest reads them: patches, whole files, the tree's quoted names and
    their last release."""
    try:
        log = run_git(path, "log", "--no-walk=unsorted", "--format=%H%x1f%an%x1f%B%x1e", *shas)
    except CloneError:
        return []
    if log.returncode != 0:
        return []
    messages: dict[str, tuple[str, str]] = {}
    for record in log.stdout.split("\x1e"):
        parts = record.strip("\n").split("\x1f", 2)
        if len(parts) == 3:
            messages[parts[0]] = (parts[1], parts[2].strip())
    files = files_with_patches(path, shas)
    blobs = blob_cache()
    read = []
    with CatFile(path) as clone:
        for sha in shas:
            if sha not in messages or quiet(messages[sha][1], files.get(sha, [])):
                continue
            author, message = messages[sha]
            sides = with_sources(clone, sha, files.get(sha, []), blobs)
            commit = CommitInput(sha=sha, message=message, author=author, files=sides)
            read.append(
                commit.model_copy(
                    update={"modules": with_modules(clone, sha, sides, blobs, commit.title)}
                )
            )
    # oldest first: a run of commits each the next one's parent is searched once
    read.reverse()
    quoted = quoted_each(path, read)
    read = [
        c.model_copy(update={"quoted_before": q.before, "quoted_after": q.after})
        for c, q in zip(read, quoted, strict=True)
    ]
    return list(reversed(with_releases(path, read)))


def carried(path: Path, commit: CommitInput) -> Carried | None:
    """What the release `commit` ships since its previous release (`previous_tag`); None
    where it is no release, no previous release is told, it releases no newer version than
    that tag, or git failed."""
    version = released_version(commit)
    if version is None:
        return None
    versions = tag_versions(path)
    tag = previous_tag(commit, versions)
    if tag is None or not newer_version(version, str(versions.get(tag, ""))):
        return None
    shas = carried_shas(path, commit.sha, tag)
    count = shipped_count(path, commit.sha, tag)
    if shas is None or count is None:
        return None
    if not shas or len(shas) > MAX_LISTED:
        return Carried(since=tag, count=count, analysed=not shas)
    read = _read(path, shas)
    if len(read) > MAX_CARRIED:
        return Carried(since=tag, count=count, analysed=False)
    notable: list[CarriedCommit] = []
    # oldest first, a file parsed for one commit kept for the next, whose parent it is
    with units_kept():
        for one in reversed(read):
            analysis = rules.analyze(one)
            if analysis.breaking or analysis.importance is Importance.HIGH:
                found = CarriedCommit(sha=one.sha, title=one.title, breaking=analysis.breaking)
                notable.insert(0, found)
    # the breaking ones first, each group newest first
    notable.sort(key=lambda c: not c.breaking)
    return Carried(since=tag, count=count, notable=tuple(notable))


def with_carried(path: Path, commits: Sequence[CommitInput]) -> list[CommitInput]:
    """The commits, each release among them with what it ships (`carried`)."""
    out = []
    for commit in commits:
        found = carried(path, commit)
        out.append(commit if found is None else commit.model_copy(update={"carried": found}))
    return out
