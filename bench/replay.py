"""Replay of the real days: each day of ../shared/replay pushed through /webhook in landing
order, against the fake GitHub and a fake LLM that counts tokens.

    python -m bench.replay

Per day: GitHub calls per commit (fetching and analysing; then publishing), LLM input and
output tokens per commit (prompt built from the real diff, the fake counts ~4 chars a token),
analysis throughput with the rules analyser, and the time from the cutoff to the last part
of the digest posted (compute, and with GitHub's one-second spacing of posts).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from bench.harness import harness
from bot.analysis.rules import analyze
from bot.app import EXECUTOR, STORE
from bot.logs import configure_logging
from bot.models import CommitInput
from bot.store.schema import analyses
from tests.support import FakeClock, publish_round, replay_day, replay_index, replay_pushes


async def run_day(repo: str, day: str, *, with_llm: bool) -> dict[str, Any]:
    data = replay_day(repo, day)
    end = datetime.fromisoformat(day).replace(tzinfo=UTC) + timedelta(days=1)
    clock = FakeClock(end - timedelta(hours=1))
    async with harness(clock, with_llm=with_llm) as h:
        h.github.serve_replay_day(repo, day)
        started = time.perf_counter()
        for push in replay_pushes(repo, day):
            assert await h.deliver(push) == 202
        ingest = time.perf_counter() - started
        worker = h.client.app[EXECUTOR]
        started = time.perf_counter()
        await worker.drain()
        analysis = time.perf_counter() - started
        fetch_calls = len(h.github.calls)
        async with h.client.app[STORE].engine.connect() as conn:
            tokens = (
                await conn.execute(
                    sa.select(
                        sa.func.sum(analyses.c.input_tokens), sa.func.sum(analyses.c.output_tokens)
                    )
                )
            ).one()
        clock.current = end + timedelta(seconds=1)
        before_calls = len(h.github.calls)
        started, paced_from = time.perf_counter(), clock.now()
        await publish_round(h.client)
        publish = time.perf_counter() - started
        paced = (clock.now() - paced_from).total_seconds()
        repo_state = h.github.repos[repo]
        posts = sum(1 + len(d["comments"]) for d in repo_state.discussions)
        n = data["commit_count"]
        return {
            "repo": repo,
            "day": day,
            "commits": n,
            "files": sum(len(c["files"]) for c in data["commits"]),
            "calls_per_commit": fetch_calls / n,
            "publish_calls": len(h.github.calls) - before_calls,
            "posts": posts,
            "tokens_in": (tokens[0] or 0) / n,
            "tokens_out": (tokens[1] or 0) / n,
            "ingest_s": ingest,
            "analysis_s": analysis,
            "publish_s": publish,
            "publish_paced_s": publish + paced,
        }


def rules_only_throughput() -> float:
    """Commits a second the rules analyser alone manages on every replay commit."""
    commits = []
    for d in replay_index():
        for raw in replay_day(d["repo"], d["date"])["commits"]:
            commits.append(CommitInput.from_github(raw, repo=d["repo"]))
    started = time.perf_counter()
    for _ in range(5):
        for commit in commits:
            analyze(commit)
    return 5 * len(commits) / (time.perf_counter() - started)


async def main_async(args: argparse.Namespace) -> None:
    configure_logging(fmt="console", level="ERROR")
    first = replay_index()[0]
    await run_day(first["repo"], first["date"], with_llm=True)  # warm-up (imports, caches)
    llm_rows = [await run_day(d["repo"], d["date"], with_llm=True) for d in replay_index()]
    rules_rows = [await run_day(d["repo"], d["date"], with_llm=False) for d in replay_index()]
    print("# replay: every replay day through /webhook, fake GitHub, fake LLM counting tokens")
    print(
        "| day | commits | files | GitHub calls/commit | LLM tokens in/commit "
        "| LLM tokens out/commit | posts | publish calls | cutoff → posted (compute) "
        "| cutoff → posted (paced) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in llm_rows:
        print(
            f"| {r['repo'].split('/')[1]} {r['day']} | {r['commits']} | {r['files']} "
            f"| {r['calls_per_commit']:.2f} "
            f"| {r['tokens_in']:.0f} | {r['tokens_out']:.0f} | {r['posts']} | {r['publish_calls']} "
            f"| {r['publish_s'] * 1000:.0f} ms | {r['publish_paced_s']:.1f} s |"
        )
    total = sum(r["commits"] for r in rules_rows)
    seconds = sum(r["analysis_s"] for r in rules_rows)
    print(
        "\nRules analyser through the worker (fetch from the fake GitHub over HTTP, "
        "analyse, store): "
        f"{total / seconds:.0f} commits/s ({total} commits in {seconds:.2f} s)"
    )
    print(f"Rules analyser alone: {rules_only_throughput():.0f} commits/s")
    print(
        f"Median tokens per commit: in {statistics.median(r['tokens_in'] for r in llm_rows):.0f}, "
        f"out {statistics.median(r['tokens_out'] for r in llm_rows):.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
