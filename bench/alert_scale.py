"""Alerts at scale: one repository's N-commit day analysed with alerts on, against alerts off.

    python -m bench.alert_scale --n 3000

The day is `bench.growth`'s (real vllm-ascend pushes under new shas, rules analyser, the fake
GitHub in-process, deliveries at concurrency 32). Each mode runs in a process of its own, so
that the peak RSS is the mode's: `--mode off` (no alerts config), `--mode on`
(`alerts.on: [breaking, high]`). The App's clock follows the wall clock from the day's last
hour, so that what is paced by time (the "more alerts" post edited at most once a minute) is
paced as in production; once the executor has nothing due, the clock skips ahead to whatever
it still waits for (a coalesced edit) and runs that too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from bench import smoke
from bench.growth import DAY, REPO, serve_commits, synthetic_pushes
from bench.harness import harness
from bot.app import EXECUTOR, STORE
from bot.runtime.logs import configure_logging
from bot.store.jobs import JobKind, JobState
from bot.store.schema import jobs

CONFIG = ".github/commit-digest.yml"
ALERTS = "alerts:\n  on: [breaking, high]\n"
END = datetime(2026, 7, 11, tzinfo=UTC)


class WallClock:
    """The wall clock's pace from `start`; `skip` moves it ahead (nothing waits for real)."""

    def __init__(self, start: datetime) -> None:
        self._start = start
        self._began = time.monotonic()
        self._skipped = timedelta()

    def now(self) -> datetime:
        return self._start + self._skipped + timedelta(seconds=time.monotonic() - self._began)

    def skip(self, delta: timedelta) -> None:
        self._skipped += max(delta, timedelta())

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


async def pending_until(client: Any) -> datetime | None:
    """When the next job still pending is due (None: nothing pending)."""
    j = jobs.c
    async with client.app[STORE].engine.connect() as conn:
        due: datetime | None = await conn.scalar(
            sa.select(sa.func.min(j.not_before)).where(
                j.state == JobState.PENDING.value, j.kind != JobKind.RECOVER_DELIVERIES.value
            )
        )
    return due


async def run(n: int, alerts: bool) -> dict[str, Any]:
    clock = WallClock(END - timedelta(hours=1))
    pushes, served = synthetic_pushes(n, seed=n)
    async with harness(clock) as h:  # type: ignore[arg-type]
        repo = h.github.serve_replay_day(REPO, DAY)
        if alerts:
            repo.files[CONFIG] = ALERTS
        serve_commits(h.github, served)
        semaphore = asyncio.Semaphore(32)

        async def send(push: dict[str, Any]) -> None:
            async with semaphore:
                assert await h.deliver(push) == 202

        started = time.perf_counter()
        await asyncio.gather(*(send(p) for p in pushes))
        ingest = time.perf_counter() - started
        started = time.perf_counter()
        executor = h.client.app[EXECUTOR]
        for _ in range(10_000):
            await executor.drain(rounds=100_000)
            due = await pending_until(h.client)
            if due is None:
                break
            clock.skip(due - clock.now())
        analysis = time.perf_counter() - started
        calls = [c.operation for c in h.github.calls]
        posts = [d for d in repo.discussions if ":alert:" in d["body"]]
        fold = [d for d in repo.discussions if ":alerts-more -->" in d["body"]]
    return {
        "n": n,
        "alerts": alerts,
        "ingest_s": round(ingest, 2),
        "analysis_s": round(analysis, 2),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "alert_posts": len(posts),
        "fold_posts": len(fold),
        "folded": fold[0]["body"].count("\n- **") if fold else 0,
        "fold_edits": calls.count("UpdateDigestDiscussion"),
        "creates": calls.count("CreateDigestDiscussion"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=3000, help="commits in the day")
    parser.add_argument("--mode", choices=["on", "off"], help="one mode, in this process")
    args = parser.parse_args()
    args.n = smoke.size(args.n, 20)
    if args.mode:
        configure_logging(fmt="console", level="ERROR")
        print(json.dumps(asyncio.run(run(args.n, args.mode == "on"))))
        return
    results = []
    for mode in ("off", "on"):
        out = subprocess.run(
            [sys.executable, "-m", "bench.alert_scale", "--n", str(args.n), "--mode", mode],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        results.append(json.loads(out.strip().splitlines()[-1]))
    off, on = results
    print("| alerts | analysis | peak RSS | alert posts | fold entries | fold edits |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {'on' if r['alerts'] else 'off'} | {r['analysis_s']:.1f} s | {r['peak_mb']} MB "
            f"| {r['alert_posts']} | {r['folded']} | {r['fold_edits']} |"
        )
    print(
        f"on / off: time {on['analysis_s'] / off['analysis_s']:.2f}x, "
        f"memory {on['peak_mb'] / off['peak_mb']:.2f}x"
    )


if __name__ == "__main__":
    main()
