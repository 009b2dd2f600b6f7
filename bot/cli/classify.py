"""`python -m bot classify`: JSON lines of commits in, one analysis per line out."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

import pydantic

from bot.analysis import Analyzer
from bot.analysis.factory import open_analyzer
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


async def _one(analyzer: Analyzer, number: int, line: str, language: str) -> dict[str, Any]:
    try:
        commit = parse_line(line)
    except ValueError as exc:
        return {"line": number, "error": str(exc)}
    result = await analyzer.analyze(commit, language=language)
    out: dict[str, Any] = {"sha": commit.sha, **result.analysis.model_dump(mode="json")}
    if result.fallback_reason:
        out["fallback_reason"] = result.fallback_reason
    if result.input_tokens or result.output_tokens:
        out["tokens"] = {"input": result.input_tokens, "output": result.output_tokens}
    if result.dropped_claims:
        out["dropped_claims"] = result.dropped_claims
    return out


async def classify(analyzer: Analyzer, lines: Iterable[str], out: TextIO, *, language: str) -> int:
    """Analyse every non-empty line; returns how many lines were bad."""
    bad = 0
    window: list[tuple[int, str]] = []

    async def flush() -> None:
        nonlocal bad
        results = await asyncio.gather(*(_one(analyzer, n, text, language) for n, text in window))
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


def command(settings: Settings, *, lang: str | None) -> int:
    """Analyse stdin's lines onto stdout; 1 when a line could not be analysed."""
    language = lang or settings.default_language

    async def run() -> int:
        async with open_analyzer(settings) as analyzer:
            return await classify(analyzer, sys.stdin, sys.stdout, language=language)

    bad = asyncio.run(run())
    if bad:
        print(
            f"commit-digest: {bad} line(s) could not be analysed (see their error objects)",
            file=sys.stderr,
        )
    return 1 if bad else 0
