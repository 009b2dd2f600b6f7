"""A scheduler round over many repositories, with the weekly roll-up off and on.

`python -m bench.scheduler_round` fills a SQLite database like `bench.growth` (1,000
repositories, 100 analysed and published commits each), then times scheduler rounds in one
process: first with every repository on the default config, then with `weekly` enabled on
all of them: once with every repository's last week due (each round enqueues 1,000 weeks,
as no executor runs them), once with every week already posted (the steady state). Prints
the first round and the median of the next ones.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
from datetime import UTC, datetime
from datetime import time as clock_time
from pathlib import Path

from bench import smoke
from bench.growth import fill, scheduler_rounds
from bench.harness import keys
from bot.periods.days import DaySchedule
from bot.periods.weeks import WeekSchedule
from bot.runtime.logs import configure_logging
from bot.store import Store

WEEKLY = {"weekly": {"enabled": True, "weekday": "monday"}}


async def rounds(url: str, private: str, count: int) -> tuple[float, float]:
    """The first round, and the median of the `count` after it (seconds)."""
    took = await scheduler_rounds(url, private, count + 1)
    return took[0], statistics.median(took[1:])


async def main_async(args: argparse.Namespace) -> None:
    private, _ = keys()
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "bench.db"
        url = f"sqlite:///{database}"
        store = await Store.open(url)  # the schema, by the App's own migrations
        await store.close()
        fill(database, args.repos, args.per_repo)
        off = await rounds(url, private, args.rounds)
        db = sqlite3.connect(database)
        with db:
            db.execute("UPDATE repositories SET config = ?", (json.dumps(WEEKLY),))
        db.close()
        due = await rounds(url, private, args.rounds)
        # Steady state: every repository's last week already posted (its record exists).
        first = (
            WeekSchedule(DaySchedule("UTC", clock_time(0, 0))).latest_due(datetime.now(UTC)).first
        )
        db = sqlite3.connect(database)
        with db:
            db.executemany(
                "INSERT INTO digests (repo_id, period_kind, period_start, state, late, "
                "created_at) VALUES (?, 'week', ?, 'published', 0, ?)",
                [
                    (repo_id, first.isoformat(), "2026-07-01 00:00:00.000000")
                    for (repo_id,) in db.execute("SELECT id FROM repositories")
                ],
            )
        db.close()
        on = await rounds(url, private, args.rounds)
    print(f"{args.repos:,} repositories, {args.repos * args.per_repo:,} analysed commits")
    for name, (first, median) in (
        ("weekly off", off),
        ("weekly on, every repository's week due (enqueued each round)", due),
        ("weekly on, every week posted", on),
    ):
        print(
            f"- {name}: first round {first * 1000:.0f} ms, "
            f"median of the next {args.rounds} {median * 1000:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repos", type=int, default=1000)
    parser.add_argument("--per-repo", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    if smoke.on():
        args.repos, args.per_repo, args.rounds = 5, 5, 1
    configure_logging(fmt="console", level="ERROR")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
