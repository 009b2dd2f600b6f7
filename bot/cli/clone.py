"""A local git clone read as GitHub would answer for it: the first-parent history of a branch,
each commit's files, stats and patches against its first parent, and its GitHub identity."""

from __future__ import annotations

import itertools
import re
import subprocess
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from bot.cli import progress
from bot.cli.clone_files import MAX_PATCH_BYTES, READ_BUDGET, files_of_commits
from bot.cli.clone_sizes import capped_output, changed_sizes
from bot.cli.git import CloneError, git, name_status, run_git
from bot.models import FileChange

# After this many commits older than the day, the walk back through history stops.
_PAST_WINDOW = 200
_REMOTE = re.compile(r"github\.com[:/]+([^/\s]+)/([^/\s]+?)(?:\.git)?/?$")


@dataclass(frozen=True)
class LocalCommit:
    sha: str
    author: str
    committed_at: datetime
    message: str
    parents: int = 1


def require_clone(path: Path) -> None:
    """CloneError, in a line of our own, unless `path` is a git clone (a work tree or bare)."""
    if not path.exists():
        raise CloneError(f"no clone at {path}: there is no such folder")
    if not path.is_dir():
        raise CloneError(f"{path} is a file, not a git clone")
    try:
        git(path, "rev-parse", "--git-dir")
    except CloneError:
        raise CloneError(
            f"{path} is not a git repository (no .git in it or in a folder above it); "
            "clone one with git clone URL"
        ) from None


_REPO_NAME = re.compile(r"[A-Za-z0-9-]{1,39}/[A-Za-z0-9._-]{1,100}")


def checked_repo_name(value: str) -> str:
    """`OWNER/NAME` as GitHub spells repositories; ValueError otherwise."""
    if not _REPO_NAME.fullmatch(value) or value.endswith((".git", "/.", "/..")):
        raise ValueError(f"--repo must be OWNER/NAME, like vllm-project/vllm, not {value!r}")
    return value


def repo_identity(path: Path, repo: str | None = None) -> tuple[str, str | None]:
    """`owner/name` and the commit URL prefix: `--repo`, or the clone's GitHub origin."""
    if repo is not None:
        return repo, f"https://github.com/{repo}/commit/"
    try:
        remote = git(path, "remote", "get-url", "origin").strip()
    except CloneError:
        remote = ""
    match = _REMOTE.search(remote)
    if match:
        name = f"{match.group(1)}/{match.group(2)}"
        return name, f"https://github.com/{name}/commit/"
    return path.resolve().name, None


def first_parent_commits(path: Path, branch: str) -> Iterator[LocalCommit]:
    """The branch's first-parent history, newest first, read as git writes it."""
    with subprocess.Popen(
        [
            "git",
            "-C",
            str(path),
            "log",
            "--first-parent",
            "--format=%H%x1f%an%x1f%ct%x1f%P%x1f%B%x1e",
            branch,
            "--",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
        errors="replace",
    ) as proc:
        stream = proc.stdout
        assert stream is not None
        buffer = ""
        for chunk in iter(lambda: stream.read(65536), ""):
            buffer += chunk
            *records, buffer = buffer.split("\x1e")
            for raw in records:
                record = raw.strip("\n")
                if record:
                    sha, author, stamp, parents, message = record.split("\x1f", 4)
                    yield LocalCommit(
                        sha,
                        author,
                        datetime.fromtimestamp(int(stamp), UTC),
                        message.rstrip("\n"),
                        max(1, len(parents.split())),
                    )
        proc.kill()


def commits_between(path: Path, branch: str, start: datetime, end: datetime) -> list[LocalCommit]:
    """Commits whose committer date is in [start, end), oldest first.

    Not `git log --since`: git stops at the first commit older than the bound, and committer
    dates on a first-parent history are not always in order (clock skew, rebased merges).
    """
    found = []
    older_in_a_row = 0
    for commit in first_parent_commits(path, branch):
        if start <= commit.committed_at < end:
            found.append(commit)
            older_in_a_row = 0
        elif commit.committed_at < start:
            older_in_a_row += 1
            if older_in_a_row >= _PAST_WINDOW:
                break
    return found[::-1]


def merged_authors(path: Path, merges: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The authors (names as git writes them) of the commits each merge brings to its first
    parent's line: who wrote what it lands, beside its merger. A merge git cannot read
    brings none."""
    out: dict[str, tuple[str, ...]] = {}
    for sha in merges:
        try:
            names = git(path, "log", "--format=%an", f"{sha}^1..{sha}", "--")
        except CloneError:
            continue
        out[sha] = tuple(dict.fromkeys(n for n in names.splitlines() if n))
    return out


def unresolved(path: Path, shas: Iterable[str]) -> frozenset[str]:
    """The shas (lower case) no commit of the clone has: a message's reference to a branch
    rebased before it landed. None are where the clone is shallow (what lies past its
    boundary is unknown)."""
    shallow = run_git(path, "rev-parse", "--is-shallow-repository")
    if shallow.returncode != 0 or shallow.stdout.strip() != "false":
        return frozenset()
    return frozenset(
        sha.lower()
        for sha in shas
        if run_git(path, "cat-file", "-e", f"{sha}^{{commit}}").returncode != 0
    )


def latest_commit_time(path: Path, branch: str) -> datetime | None:
    times = [
        c.committed_at for c in itertools.islice(first_parent_commits(path, branch), _PAST_WINDOW)
    ]
    return max(times, default=None)


# A merge is compared with its first parent, as GitHub's "get a commit" compares it.
_DIFF_TREE = ("diff-tree", "-r", "-M", "--root", "--diff-merges=first-parent", "--no-commit-id")


def files_of(path: Path, sha: str, *, with_patches: bool) -> list[FileChange]:
    """Changed files with line counts (and patches) against the first parent."""
    numstat = git(path, *_DIFF_TREE, "--numstat", "-z", sha)
    names = git(path, *_DIFF_TREE, "--name-status", "-z", sha)
    statuses: dict[str, tuple[str, str | None]] = {}
    for code, before, name in name_status(names):
        if before is not None:
            statuses[name] = ("renamed" if code[0] == "R" else "copied", before)
        else:
            kind = {"A": "added", "D": "removed", "M": "modified"}.get(code[:1], "changed")
            statuses[name] = (kind, None)
    files: list[FileChange] = []
    parts = numstat.split("\0")
    i = 0
    while i < len(parts) - 1:
        added, deleted, name = parts[i].split("\t", 2)
        if name == "":  # a rename: the old and new paths follow
            name = parts[i + 2]
            i += 3
        else:
            i += 1
        status, previous = statuses.get(name, ("modified", None))
        files.append(
            FileChange(
                filename=name,
                status=status,
                additions=int(added) if added.isdigit() else 0,
                deletions=int(deleted) if deleted.isdigit() else 0,
                previous_filename=previous,
            )
        )
    if with_patches and files:
        patches = _patches_within_limits(path, sha, files)
        files = [f.model_copy(update={"patch": patches.get(f.filename)}) for f in files]
    return files


def _patches_within_limits(path: Path, sha: str, files: list[FileChange]) -> dict[str, str]:
    """The commit's patches, read a few files at a time as their sizes allow: a file whose
    patch may pass GitHub's limit is read alone and given up past it, never held whole."""
    sizes = changed_sizes(path, [sha]).get(sha, {})
    groups: list[list[FileChange]] = []
    held = READ_BUDGET + 1
    for f in files:
        size = sizes.get(f.filename, 0)
        if size > MAX_PATCH_BYTES or held + size > READ_BUDGET:
            groups.append([])
            held = 0
        groups[-1].append(f)
        # A file past the limit is read alone: the next one starts a group of its own.
        held = READ_BUDGET + 1 if size > MAX_PATCH_BYTES else held + size
    patches: dict[str, str] = {}
    for group in groups:
        alone = len(group) == 1 and sizes.get(group[0].filename, 0) > MAX_PATCH_BYTES
        # Past GitHub's limit (plus room for the headers) the patch is left out anyway.
        cap = MAX_PATCH_BYTES + 64 * 1024 if alone else 3 * READ_BUDGET
        specs = [
            f":(literal){name}"
            for f in group
            for name in (f.filename, f.previous_filename)
            if name is not None
        ]
        text = capped_output(path, [*_DIFF_TREE, "-p", sha, "--", *specs], cap)
        if text is not None:
            patches.update(_patches(text))
    return patches


def files_with_patches(path: Path, shas: Sequence[str]) -> dict[str, list[FileChange]]:
    """Each commit's files with their patches, most of them through one `git log` a batch."""
    with progress.bar(len(shas), "reading") as shown:
        return files_of_commits(
            path, shas, lambda sha: files_of(path, sha, with_patches=True), shown.update
        )


def resolve_branch(path: Path, branch: str | None) -> str:
    """The branch to read (default: the checked-out one); CloneError naming what is wrong."""
    require_clone(path)
    if branch is None:
        try:
            git(path, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        except CloneError:
            raise CloneError(f"{path} has no commits yet") from None
        branch = git(path, "rev-parse", "--abbrev-ref", "HEAD").strip()
    try:
        git(path, "rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}")
    except CloneError:
        known = git(path, "for-each-ref", "--count=10", "--format=%(refname:short)", "refs/heads")
        names = ", ".join(known.split()) or "none"
        raise CloneError(f"no branch {branch!r} in {path} (branches: {names})") from None
    return branch


def _patches(diff: str) -> dict[str, str]:
    """Per file, the hunks only, as GitHub's `patch` field holds them."""
    try:
        parsed = PatchSet(diff)
    except UnidiffParseError:
        return {}
    out = {}
    for patched in parsed:
        hunks = "".join(str(h) for h in patched).rstrip("\n")
        if hunks:
            out[patched.path] = hunks
    return out
