"""Replay of the real days: each day of tests/reference/replay pushed through /webhook in landing
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

from bench import smoke
from bench.harness import harness
from bot.analysis.cost import Prices
from bot.analysis.diff import estimate_tokens
from bot.analysis.rules import analyze
from bot.app import EXECUTOR, STORE
from bot.models import CommitInput
from bot.runtime.logs import configure_logging
from bot.store.schema import analyses, commits
from tests.fakes.llm import FakeLLM
from tests.support import FakeClock, publish_round, replay_day, replay_pushes

# DeepSeek's published API prices (deepseek-chat, USD per million tokens) since the
# V3.2-Exp price cut of 2025-09-29: input on a cache hit, on a cache miss, output.
DEEPSEEK = Prices(input=0.28, cached_input=0.028, output=0.42)


async def run_day(
    repo: str,
    day: str,
    *,
    with_llm: bool,
    stream: bool = False,
    config: str | None = None,
    window: float = 0.0,
) -> dict[str, Any]:
    """One replay day. `stream`: every push is delivered at its recorded time and the worker
    runs as it would (right away, or once the oldest pending commit has waited `window`
    seconds, WORKER_BATCH_SECONDS); otherwise all pushes arrive first and the worker catches
    up."""
    data = replay_day(repo, day)
    end = datetime.fromisoformat(day).replace(tzinfo=UTC) + timedelta(days=1)
    clock = FakeClock(end - timedelta(hours=1))
    llm = FakeLLM(cache="deepseek") if with_llm else None
    pushes = replay_pushes(repo, day)
    if stream:
        clock.current = _at(pushes[0]) - timedelta(seconds=1)
    async with harness(
        clock, with_llm=with_llm, llm=llm, worker_batch_seconds=window if stream else 0.0
    ) as h:
        served = h.github.serve_replay_day(repo, day)
        if config is not None:
            served.files[".github/commit-digest.yml"] = config
        worker = h.client.app[EXECUTOR]
        store = h.client.app[STORE]
        started = time.perf_counter()
        analysis = 0.0
        for push in pushes:
            if stream:
                # The worker's rounds between two pushes: the window runs out at most once.
                waiting = await _oldest_pending(store.engine)
                if waiting is not None and waiting + timedelta(seconds=window) < _at(push):
                    clock.current = waiting + timedelta(seconds=window)
                    analysis += await _timed(worker.drain())
                clock.current = max(clock.current, _at(push))
            assert await h.deliver(push) == 202
            if stream:
                analysis += await _timed(worker.drain())
        ingest = time.perf_counter() - started - analysis
        if stream:
            clock.current = max(clock.current, end - timedelta(seconds=1))
        analysis += await _timed(worker.drain())
        fetch_calls = len(h.github.calls)
        async with h.client.app[STORE].engine.connect() as conn:
            tokens = (
                await conn.execute(
                    sa.select(
                        sa.func.sum(analyses.c.input_tokens),
                        sa.func.sum(analyses.c.output_tokens),
                        sa.func.sum(analyses.c.cached_input_tokens),
                        sa.func.count().filter(analyses.c.route != "llm"),
                    )
                )
            ).one()
        requests = llm.requests if llm is not None else []
        systems = {r["messages"][0]["content"] for r in requests}
        prompt_tokens = [
            sum(estimate_tokens(m["content"]) for m in r["messages"]) for r in requests
        ]
        prefix = estimate_tokens(next(iter(systems))) if len(systems) == 1 else 0
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
            "llm_calls": len(requests) / n,
            "rules_share": (tokens[3] or 0) / n,
            "prompt_in": sum(prompt_tokens) / n,
            "prefix": prefix,
            "prefix_share": prefix * len(requests) / sum(prompt_tokens) if prompt_tokens else 0,
            "stable_prefix": len(systems) <= 1,
            "cached_in": (tokens[2] or 0) / n,
            "cost": DEEPSEEK.cost(tokens[0] or 0, tokens[2] or 0, tokens[1] or 0),
            "cost_no_cache": DEEPSEEK.cost(tokens[0] or 0, 0, tokens[1] or 0),
            "ingest_s": ingest,
            "analysis_s": analysis,
            "publish_s": publish,
            "publish_paced_s": publish + paced,
        }


def _at(push: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(push["delivered_at"].replace("Z", "+00:00"))


async def _timed(work: Any) -> float:
    started = time.perf_counter()
    await work
    return time.perf_counter() - started


async def _oldest_pending(engine: Any) -> datetime | None:
    async with engine.connect() as conn:
        oldest: datetime | None = (
            await conn.execute(
                sa.select(sa.func.min(commits.c.created_at)).where(commits.c.state == "pending")
            )
        ).scalar_one()
    return oldest


def rules_only_throughput() -> float:
    """Commits a second the rules analyser alone manages on every replay commit."""
    commits = []
    for d in smoke.days():
        for raw in replay_day(d["repo"], d["date"])["commits"]:
            commits.append(CommitInput.from_github(raw, repo=d["repo"]))
    rounds = smoke.size(5, 1)
    started = time.perf_counter()
    for _ in range(rounds):
        for commit in commits:
            analyze(commit)
    return rounds * len(commits) / (time.perf_counter() - started)


async def main_async(args: argparse.Namespace) -> None:
    configure_logging(fmt="console", level="ERROR")
    days = smoke.days()
    if not smoke.on():
        await run_day(days[0]["repo"], days[0]["date"], with_llm=True)  # warm-up (imports, caches)
    config = f"llm:\n  for: [{args.llm_for}]\n" if args.llm_for else None
    llm_rows = [await run_day(d["repo"], d["date"], with_llm=True, config=config) for d in days]
    rules_rows = [await run_day(d["repo"], d["date"], with_llm=False) for d in days]
    stream_rows = [
        await run_day(d["repo"], d["date"], with_llm=True, stream=True, config=config) for d in days
    ]
    window_rows = [
        await run_day(
            d["repo"], d["date"], with_llm=True, stream=True, config=config, window=args.window
        )
        for d in days
    ]
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
    print(f"\n# cost and GitHub budget (LLM configured, config: {config or 'default'!r})")
    print(
        "| day | commits | GitHub calls/commit (caught up) | GitHub calls/commit (each push "
        f"as it lands) | (as it lands, WORKER_BATCH_SECONDS={args.window:g}) "
        "| LLM calls/commit | decided without the LLM | prompt tokens/commit "
        "| shared prefix (tokens, share of input) | cached input (fake DeepSeek cache) "
        "| day's cost at DeepSeek prices | without any cache hit |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r, st, w in zip(llm_rows, stream_rows, window_rows, strict=True):
        assert r["stable_prefix"] and st["stable_prefix"]
        print(
            f"| {r['repo'].split('/')[1]} {r['day']} | {r['commits']} "
            f"| {r['calls_per_commit']:.2f} | {st['calls_per_commit']:.2f} "
            f"| {w['calls_per_commit']:.2f} | {r['llm_calls']:.2f} | {r['rules_share']:.0%} "
            f"| {r['prompt_in']:.0f} "
            f"| {r['prefix']} ({r['prefix_share']:.0%}) | {r['cached_in']:.0f}/commit "
            f"| ${r['cost']:.4f} | ${r['cost_no_cache']:.4f} |"
        )
    n = sum(r["commits"] for r in llm_rows)
    print(
        f"| all days | {n} "
        f"| {sum(r['calls_per_commit'] * r['commits'] for r in llm_rows) / n:.2f} "
        f"| {sum(r['calls_per_commit'] * r['commits'] for r in stream_rows) / n:.2f} "
        f"| {sum(r['calls_per_commit'] * r['commits'] for r in window_rows) / n:.2f} "
        f"| {sum(r['llm_calls'] * r['commits'] for r in llm_rows) / n:.2f} "
        f"| {sum(r['rules_share'] * r['commits'] for r in llm_rows) / n:.0%} "
        f"| {sum(r['prompt_in'] * r['commits'] for r in llm_rows) / n:.0f} | | "
        f"| ${sum(r['cost'] for r in llm_rows):.4f} "
        f"| ${sum(r['cost_no_cache'] for r in llm_rows):.4f} |"
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
    parser.add_argument(
        "--llm-for",
        default="",
        help="the repositories' `llm.for` (e.g. 'high, medium'); default: the default config",
    )
    parser.add_argument(
        "--window",
        type=float,
        default=1800.0,
        help="WORKER_BATCH_SECONDS for the push-by-push run with a batching window",
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
