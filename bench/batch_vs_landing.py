"""Batch versus as-they-land: time from the cutoff to the digest posted, with an LLM that
takes a fixed time per call (8 s by default).

    python -m bench.batch_vs_landing [--latency 8] [--scale 100]

Time is scaled down by `--scale` (a call of 8 s takes 80 ms; gaps between pushes shrink the
same way) and reported scaled back. Per replay day:

- the App: pushes arrive at their real landing times; commits landing more than 30 minutes
  before the cutoff were analysed long before it (their analysis takes seconds), the last 30
  minutes are replayed live against the running worker; at the cutoff the App waits only for
  analyses still in flight, then renders and posts;
- the batch job this App replaces: at the cutoff, one LLM call per commit, one after the
  other, then the same rendering and posting.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from datetime import UTC, datetime, timedelta

import openai
import sqlalchemy as sa

from bench import smoke
from bench.harness import harness
from bot.analysis.llm import LLMAnalyzer
from bot.app import EXECUTOR, STORE
from bot.models import CommitInput
from bot.runtime.logs import configure_logging
from bot.store import Store
from bot.store.schema import commits, digests
from tests.fakes.llm import FakeLLM
from tests.support import FakeClock, publish_round, replay_day, replay_pushes

TAIL = timedelta(minutes=30)


async def unfinished(store: Store, repo_id: int) -> int:
    async with store.engine.connect() as conn:
        return int(
            (
                await conn.execute(
                    sa.select(sa.func.count()).where(
                        commits.c.repo_id == repo_id, commits.c.state.in_(("pending", "analyzing"))
                    )
                )
            ).scalar_one()
        )


async def app_run(repo: str, day: str, latency: float, scale: float) -> tuple[float, float]:
    """(waiting at the cutoff for analyses in flight, in scaled seconds; publishing, real)."""
    end = datetime.fromisoformat(day).replace(tzinfo=UTC) + timedelta(days=1)
    clock = FakeClock(end - timedelta(hours=1))
    llm = FakeLLM(latency=latency / scale)
    async with harness(clock, with_llm=True, llm=llm, worker_concurrency=4, llm_concurrency=4) as h:
        h.github.serve_replay_day(repo, day)
        pushes = replay_pushes(repo, day)
        landed = [
            datetime.fromtimestamp(p["payload"]["repository"]["pushed_at"], UTC) for p in pushes
        ]
        early = [p for p, t in zip(pushes, landed, strict=True) if t < end - TAIL]
        tail = [(p, t) for p, t in zip(pushes, landed, strict=True) if t >= end - TAIL]
        for push in early:
            await h.deliver(push)
        worker = h.client.app[EXECUTOR]
        await worker.drain()
        worker.start()
        loop = asyncio.get_running_loop()
        cutoff = loop.time() + TAIL.total_seconds() / scale
        for push, at in tail:
            delay = cutoff - (end - at).total_seconds() / scale - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            await h.deliver(push)
        await asyncio.sleep(max(0.0, cutoff - loop.time()))
        started = time.perf_counter()
        store = h.client.app[STORE]
        repo_id = pushes[0]["payload"]["repository"]["id"]
        while await unfinished(store, repo_id):  # noqa: ASYNC110 - polling the database
            await asyncio.sleep(0.005)
        waited = time.perf_counter() - started
        clock.current = end + timedelta(seconds=1)
        started = time.perf_counter()
        await publish_round(h.client)
        # The running worker may have claimed the publication itself (a loaded machine): it
        # is waited for, not stopped mid-way.
        deadline = time.perf_counter() + 60
        while await day_state(store) != "published" and time.perf_counter() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
        publishing = time.perf_counter() - started
        await worker.stop()
        assert await day_state(store) == "published"
        return waited, publishing


async def day_state(store: Store) -> str | None:
    async with store.engine.connect() as conn:
        state = (await conn.execute(sa.select(digests.c.state))).scalar_one_or_none()
    return None if state is None else str(state)


async def batch_llm_time(repo: str, day: str, latency: float, scale: float) -> float:
    """One LLM call per commit, one after the other, as the old job did (scaled seconds)."""
    llm = FakeLLM(latency=latency / scale)
    async with harness(FakeClock(), with_llm=True, llm=llm) as h:
        client = openai.AsyncOpenAI(base_url=h.llm_url, api_key="test-key", max_retries=0)
        # The App's own analyser, called for each commit in turn (concurrency 1).
        sequential = LLMAnalyzer(
            client,
            model=llm.model,
            max_input_tokens=12_000,
            max_output_tokens=2_000,
            concurrency=1,
            timeout_seconds=60,
        )
        started = time.perf_counter()
        for raw in replay_day(repo, day)["commits"]:
            await sequential.analyze(CommitInput.from_github(raw, repo=repo), language="en")
        elapsed = time.perf_counter() - started
        await client.close()
        return elapsed


async def main_async(args: argparse.Namespace) -> None:
    configure_logging(fmt="console", level="ERROR")
    scale = args.scale
    print(
        f"# batch vs as-they-land: LLM {args.latency:g} s a call; LLM and push timing scaled "
        f"1/{scale:g} and reported scaled back, rendering and posting at real speed"
    )
    print(
        "| day | commits | App: waiting for analyses | App: posting | App: cutoff → posted "
        "| batch job: cutoff → posted | batch / App |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    days = smoke.days()
    if not smoke.on():
        await app_run(days[0]["repo"], days[0]["date"], args.latency, scale)  # warm-up
    ratios = []
    for d in days:
        waited, posting = await app_run(d["repo"], d["date"], args.latency, scale)
        app_s = waited * scale + posting
        batch_s = await batch_llm_time(d["repo"], d["date"], args.latency, scale) * scale + posting
        ratios.append(batch_s / app_s)
        print(
            f"| {d['repo'].split('/')[1]} {d['date']} | {d['commits']} | {waited * scale:.1f} s "
            f"| {posting:.2f} s | {app_s:.1f} s | {batch_s:.0f} s | {batch_s / app_s:.0f}× |"
        )
    print(f"\nMedian ratio: {sorted(ratios)[len(ratios) // 2]:.0f}×")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--latency", type=float, default=8.0)
    parser.add_argument("--scale", type=float, default=100.0)
    args = parser.parse_args()
    # Smoke: the day's last half hour replayed in a fifth of a second, calls of 1 ms.
    args.scale = smoke.size(args.scale, 10_000.0)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
