"""The files and patches of a clone's commits, read by one `git log` per batch and shaped as
GitHub's "get a commit" answers them (first parent, renames, per-file and per-commit limits).

The batch is written as a `git format-patch` series and parsed by the same code that reads
the App's compare series (`bot.github.patches`), which checks each commit against its own
diffstat; a commit that does not add up (an unusual path, an empty commit) is read on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.cli.clone_sizes import changed_sizes
from bot.cli.git import git
from bot.github.limits import MAX_COMMIT_FILES
from bot.github.patches import commits_from_series
from bot.models import FileChange

# GitHub shows no diff of a single file over 20,000 lines or 500 KB ("Repository limits",
# diff limits), and its API then leaves the file's `patch` out.
MAX_PATCH_LINES = 20_000
MAX_PATCH_BYTES = 500 * 1024
# Commits per `git log`: a batch's patches are held in memory at once.
BATCH = 100
# The bytes of changed blobs (before and after) whose patches one git call may return at
# once: the text and its parse stay well under 250 MB, whatever the commit.
READ_BUDGET = 4 * 1024 * 1024
_FROM = "From %H Mon Sep 17 00:00:00 2001"
# Whatever the user's git config says, the output must be the plain form the parser reads.
_PLAIN = (
    "-c",
    "core.quotePath=false",
    "-c",
    "log.showSignature=false",
    "-c",
    "log.showRoot=true",
    "-c",
    "diff.noprefix=false",
)
_LOG = (
    "log",
    "--stdin",
    "--no-walk=unsorted",
    "--diff-merges=first-parent",
    "-M",
    "--stat",
    "--patch",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-relative",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    f"--format={_FROM}",
)


def within_limits(file: FileChange) -> FileChange:
    """The file as GitHub's API gives it: no `patch` past GitHub's diff limits."""
    patch = file.patch
    if patch is not None and (
        patch.count("\n") + 1 > MAX_PATCH_LINES or len(patch.encode()) > MAX_PATCH_BYTES
    ):
        return file.model_copy(update={"patch": None})
    return file


def _series(path: Path, shas: Sequence[str]) -> str:
    return git(path, *_PLAIN, *_LOG, stdin="\n".join(shas) + "\n")


def files_of_commits(
    path: Path,
    shas: Sequence[str],
    one_by_one: Callable[[str], list[FileChange]],
    done: Callable[[int], object] = lambda _: None,
) -> dict[str, list[FileChange]]:
    """Each commit's changed files with their patches against its first parent; a commit
    the series cannot account for is read by `one_by_one`. `done` is told each batch read."""
    out: dict[str, list[FileChange]] = {}
    for i in range(0, len(shas), BATCH):
        batch = list(shas[i : i + BATCH])
        sizes = changed_sizes(path, batch)
        found: dict[str, list[dict[str, Any]]] = {}
        for group in light_groups(batch, sizes):
            found.update(commits_from_series(_series(path, group), group))
        for sha in batch:
            files = found.get(sha)
            # A heavy commit (or one the series cannot account for) is read file by file.
            changed = (
                one_by_one(sha) if files is None else [FileChange.model_validate(f) for f in files]
            )
            out[sha] = [within_limits(f) for f in changed[:MAX_COMMIT_FILES]]
        done(len(batch))
    return out


def light_groups(shas: Sequence[str], sizes: dict[str, dict[str, int]]) -> list[list[str]]:
    """The commits whose every patch is surely within GitHub's limit, in groups whose files
    add up to at most READ_BUDGET bytes: what one `git log --patch` may hold at once."""
    groups: list[list[str]] = []
    held = READ_BUDGET + 1
    for sha in shas:
        files = sizes.get(sha, {})
        total = sum(files.values())
        if max(files.values(), default=0) > MAX_PATCH_BYTES or total > READ_BUDGET:
            continue
        if held + total > READ_BUDGET:
            groups.append([])
            held = 0
        groups[-1].append(sha)
        held += total
    return groups
