"""`python -m bot classify`: JSON lines of commits in, one analysis per line out."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

import pydantic

from bot.analysis import Analyzer
from bot.analysis.factory import open_analyzer
from bot.cli.clone import files_of, require_clone
from bot.cli.clone_carried import with_carried
from bot.cli.clone_release import with_releases
from bot.cli.clone_sources import BlobCache, CatFile, blob_cache, with_modules, with_sources
from bot.cli.clone_tree import with_quoted_before
from bot.cli.git import CloneError
from bot.models import CommitInput
from bot.settings import Settings

# Lines are analysed this many at a time; output keeps the input order.
_WINDOW = 64


def parse_line(line: str) -> CommitInput:
    """A commit in GitHub's "get a commit" shape, or simply `{sha, message, files}`."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError("each line must be a JSON object")
    inner = data.get("commit")
    message = inner.get("message") if isinstance(inner, dict) else data.get("message")
    if not isinstance(data.get("sha"), str) or not data["sha"]:
        raise ValueError("missing `sha`")
    if not isinstance(message, str) or not message.strip():
        raise ValueError("missing `commit.message` (or `message`)")
    try:
        return CommitInput.from_github(data)
    except pydantic.ValidationError as exc:
        where = ", ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors()[:3])
        raise ValueError(f"invalid commit: {where}") from None


class Clone:
    """A local clone the commits are read from whole, at the parent and at the commit,
    through one `CatFile`; close it when done."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.blobs: BlobCache = blob_cache()
        self.cat = CatFile(path)

    def close(self) -> None:
        self.cat.close()

    def complete(self, commit: CommitInput) -> CommitInput:
        """The commit with its files' whole texts; its file list and patches from the clone
        when the line gave none. A commit the clone lacks keeps what the line gave."""
        files = commit.files
        try:
            if not files:
                files = files_of(self.path, commit.sha, with_patches=True)
        except CloneError:
            return commit
        files = with_sources(self.cat, commit.sha, files, self.blobs)
        read = commit.model_copy(
            update={
                "files": files,
                "modules": with_modules(self.cat, commit.sha, files, self.blobs, commit.title),
                # files read from the clone are the commit's whole list
                "files_known": commit.files_known or bool(files),
            }
        )
        released = with_releases(self.path, [with_quoted_before(self.path, read)])
        return with_carried(self.path, released)[0]


async def _one(
    analyzer: Analyzer, number: int, line: str, language: str, clone: Clone | None = None
) -> dict[str, Any]:
    try:
        commit = parse_line(line)
    except ValueError as exc:
        return {"line": number, "error": str(exc)}
    if clone is not None:
        commit = clone.complete(commit)
    result = await analyzer.analyze(commit, language=language)
    out: dict[str, Any] = {"sha": commit.sha, **result.analysis.model_dump(mode="json")}
    if result.fallback_reason:
        out["fallback_reason"] = result.fallback_reason
    if result.input_tokens or result.output_tokens:
        out["tokens"] = {"input": result.input_tokens, "output": result.output_tokens}
    if result.dropped_claims:
        out["dropped_claims"] = result.dropped_claims
    return out


async def classify(
    analyzer: Analyzer,
    lines: Iterable[str],
    out: TextIO,
    *,
    language: str,
    clone: Clone | None = None,
) -> int:
    """Analyse every non-empty line; returns how many lines were bad."""
    bad = 0
    window: list[tuple[int, str]] = []

    async def flush() -> None:
        nonlocal bad
        results = await asyncio.gather(
            *(_one(analyzer, n, text, language, clone) for n, text in window)
        )
        for result in results:
            bad += "error" in result
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
        window.clear()

    for number, line in enumerate(lines, start=1):
        if line.strip():
            window.append((number, line))
        if len(window) >= _WINDOW:
            await flush()
    await flush()
    return bad


def command(settings: Settings, *, lang: str | None, clone: str | None = None) -> int:
    """Analyse stdin's lines onto stdout; 1 when a line could not be analysed; with `clone`,
    each commit's files are read whole from that clone."""
    language = lang or settings.default_language
    local = None
    if clone is not None:
        try:
            require_clone(Path(clone))
        except CloneError as exc:
            print(f"commit-digest: {exc}", file=sys.stderr)
            return 2
        local = Clone(Path(clone))

    async def run() -> int:
        async with open_analyzer(settings) as analyzer:
            return await classify(analyzer, sys.stdin, sys.stdout, language=language, clone=local)

    try:
        bad = asyncio.run(run())
    finally:
        if local is not None:
            local.close()
    if bad:
        print(
            f"commit-digest: {bad} line(s) could not be analysed (see their error objects)",
            file=sys.stderr,
        )
    return 1 if bad else 0
