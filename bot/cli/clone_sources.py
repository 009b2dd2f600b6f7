"""Changed files read whole from a clone at the parent and at the commit, by `git cat-file`.

Sizes are asked first (`--batch-check`), so a blob over the bounds is never read; blobs are
kept by object id, so a file the previous commit already read costs nothing. A day's
commits are read through one `CatFile` (its processes kept open, `git_batch.py`); a `Path`
is read through processes of its own, ended before the call returns.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.analysis.facts.exposure import is_document
from bot.analysis.sources import (
    MAX_COMMIT_SOURCE_BYTES,
    MAX_SOURCE_BYTES,
    BlobCache,
    blob_cache,
    documents_asked,
    modules_named,
    revisions,
    worth_reading,
)
from bot.cli.git_batch import CatFile
from bot.models import FileChange

# Documentation pages read a commit for the modules it may take names from (`git grep`)
MAX_DOCUMENTS = 2
_PAGES = ("*.md", "*.markdown", "*.rst", "*.txt")

__all__ = ["BlobCache", "CatFile", "blob_cache", "with_modules", "with_sources"]


@contextmanager
def _opened(clone: Path | CatFile) -> Iterator[CatFile]:
    """The clone's `CatFile`: the one given, or one of its own, closed at the end."""
    if isinstance(clone, CatFile):
        yield clone
        return
    with CatFile(clone) as own:
        yield own


def _sizes(clone: CatFile, expressions: list[str]) -> list[tuple[str, int] | None]:
    """Each `rev:path`'s blob id and size; None where it is missing or not a blob."""
    found: list[tuple[str, int] | None] = []
    for expression in expressions:
        info = clone.info(expression)
        found.append((info[0], info[2]) if info is not None and info[1] == "blob" else None)
    return found


def _read(clone: CatFile, oids: list[str], cache: BlobCache) -> None:
    """Read the blobs into the cache, each as text, or None when binary or not UTF-8."""
    for oid in oids:
        found = clone.read(oid)
        blob = found[1] if found is not None and found[0] == "blob" else None
        try:
            cache[oid] = None if blob is None or b"\0" in blob else blob.decode("utf-8")
        except UnicodeDecodeError:
            cache[oid] = None


def with_sources(
    clone: Path | CatFile, sha: str, files: list[FileChange], cache: BlobCache
) -> list[FileChange]:
    """`files` with the whole texts of those worth reading (`bot/analysis/sources.py`) at
    `sha`'s first parent and at `sha`; a side over the bounds, missing or binary stays None,
    and that file is read from its patch."""
    wanted: list[tuple[int, str, str]] = []
    index_of = {f.filename: index for index, f in enumerate(files)}
    # in `worth_reading`'s order: code takes the byte bound before documents do
    for f in worth_reading(files):
        index = index_of[f.filename]
        if "\n" in f.filename:
            continue
        wanted += [(index, side, rev) for side, rev in revisions(sha, f).items()]
    if not wanted:
        return files
    try:
        with _opened(clone) as cat:
            sizes = _sizes(cat, [expression for _, _, expression in wanted])
            budget = MAX_COMMIT_SOURCE_BYTES
            chosen: dict[tuple[int, str], str] = {}
            for (index, side, _), found in zip(wanted, sizes, strict=True):
                if found is None or found[1] > MAX_SOURCE_BYTES or found[1] > budget:
                    continue
                budget -= found[1]
                chosen[(index, side)] = found[0]
            missing = [oid for oid in dict.fromkeys(chosen.values()) if oid not in cache]
            if missing:
                _read(cat, missing, cache)
    except (OSError, ValueError, subprocess.SubprocessError):
        return files
    out = list(files)
    for (index, side), oid in chosen.items():
        out[index] = out[index].model_copy(update={side: cache.get(oid)})
    return out


def with_modules(
    clone: Path | CatFile, sha: str, files: list[FileChange], cache: BlobCache, title: str = ""
) -> tuple[tuple[str, str], ...]:
    """The modules of `sha`'s tree the changed files (with their texts, as `with_sources`
    gives them) raise exceptions from in place of others (`sources.modules_named`), each
    (path, text) where it is there, within the bounds and UTF-8; the commit does not change
    them, so the text at `sha` is the parent's too. `title`: the commit's, which may ask for
    the root's metadata files."""
    paths = modules_named(files, title=title)
    if not paths:
        return ()
    with _opened(clone) as cat:
        read = _blobs(cat, sha, paths, cache)
        named = documents_asked(files, read)
        if not named:
            return read
        return read + _blobs(cat, sha, _documents_naming(cat.path, sha, named), cache)


def _documents_naming(path: Path, sha: str, modules: list[str]) -> list[str]:
    """The documentation pages of `sha`'s tree (`exposure.is_document`) that name one of the
    dotted `modules`, at most `MAX_DOCUMENTS` (one `git grep`)."""
    patterns = [x for m in modules for x in ("-e", m)]
    try:
        result = subprocess.run(
            ["git", "-C", str(path), "grep", "-l", "-I", "-F", *patterns, sha, "--", *_PAGES],
            capture_output=True,
            check=False,
            timeout=120,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    found = [
        line.split(":", 1)[1]
        for line in result.stdout.decode(errors="replace").splitlines()
        if ":" in line
    ]
    pages = [p for p in found if is_document(p)]
    # (the documentation's own pages first: a test's data file may quote anything)
    pages.sort(key=lambda p: not p.lower().startswith(("doc", "readme")))
    return pages[:MAX_DOCUMENTS]


def _blobs(
    clone: CatFile, sha: str, paths: list[str], cache: BlobCache
) -> tuple[tuple[str, str], ...]:
    """Each of `paths` at `sha`, (path, text), where it is there, within the bounds and UTF-8."""
    if not paths:
        return ()
    try:
        sizes = _sizes(clone, [f"{sha}:{p}" for p in paths])
        chosen = {
            p: found[0]
            for p, found in zip(paths, sizes, strict=True)
            if found is not None and found[1] <= MAX_SOURCE_BYTES
        }
        missing = [oid for oid in dict.fromkeys(chosen.values()) if oid not in cache]
        if missing:
            _read(clone, missing, cache)
    except (OSError, ValueError, subprocess.SubprocessError):
        return ()
    return tuple((p, text) for p, oid in chosen.items() if (text := cache.get(oid)) is not None)
