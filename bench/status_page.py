"""The status page for a person who reaches 1,000 repositories: read from the store and render.

`python -m bench.status_page` fills a SQLite database like `bench.growth` (1,000
repositories, 100 analysed commits each), adds what the page shows (a fortnight of digests,
alerts and roll-ups, two commits waiting per repository, a failed job for one in ten, a config
for one in five), then times the page's work for all of them: the store read (by index) and
the HTML, as a page view does it after sign-in (no GitHub call). Each analysis is dated when
its commit landed, but the last five of each repository (a busy day: 5,000) are dated today,
so the day's LLM usage has a day's rows to count. Prints the first view and the median of
the next ones, wall clock and the process's CPU time; the target is under 200 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench import smoke
from bench.growth import fill
from bot.runtime.logs import configure_logging
from bot.store import Store
from bot.store.status import StatusReader
from bot.web.status_page import templates
from bot.web.status_view import page_view

NOW = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)
STAMP = "2026-07-01 00:00:00.000000"


def add_page_rows(database: Path, per_repo: int) -> list[int]:
    """What the page shows, on top of `fill`'s repositories; their ids."""
    db = sqlite3.connect(database)
    with db:
        ids = [r for (r,) in db.execute("SELECT id FROM repositories ORDER BY id")]
        db.execute(
            "INSERT INTO installations (id, account_login, account_type, suspended, "
            "created_at, updated_at) VALUES (1, 'org', 'Organization', 0, ?, ?)",
            (STAMP, STAMP),
        )
        posts = []
        for repo_id in ids:
            for n in range(14):
                day = (NOW - timedelta(days=n)).date().isoformat()
                url = f"https://github.com/org/repo{repo_id}/discussions/{n}"
                posts.append((repo_id, f"day:{day}", "part-1", url))
                if n % 7 == 0:
                    posts.append((repo_id, f"week:{day}", "part-1", url + "0"))
                if n % 5 == 0:
                    posts.append((repo_id, f"alerts:{day}", "alert-1", url + "1"))
        db.executemany(
            "INSERT INTO posts (repo_id, period, key, kind, state, url, created_at, updated_at)"
            " VALUES (?, ?, ?, 'discussion', 'posted', ?, ?, ?)",
            [(*p, STAMP, STAMP) for p in posts],
        )
        db.executemany(
            "INSERT INTO commits (repo_id, sha, installation_id, delivery_id, position, "
            "landed_at, branch, forced, title, message, author_name, url, state, created_at) "
            "VALUES (?, ?, 1, 'd', 0, ?, 'main', 0, 'Waiting', 'Waiting', 'Ada', 'u', "
            "'pending', ?)",
            [
                (repo_id, secrets.token_hex(20), f"2026-07-01 0{k}:00:00.000000", STAMP)
                for repo_id in ids
                for k in (1, 2)
            ],
        )
        db.executemany(
            "INSERT INTO jobs (kind, key, payload, state, priority, attempts, not_before, "
            "last_error, rerun, created_at, updated_at) VALUES ('publish_period', ?, ?, "
            "'failed', 3, 5, ?, 'GitHub answered 502 five times', 0, ?, ?)",
            [
                (f"{repo_id}/day/2026-06-30", json.dumps({"repo_id": repo_id}), *[STAMP] * 3)
                for repo_id in ids[::10]
            ],
        )
        # `fill` dates every analysis at the bench's midnight; they were made as their commits
        # landed, and the last five of each repository today.
        db.execute(
            "UPDATE analyses SET created_at = (SELECT CASE WHEN c.position >= ? THEN ? "
            "ELSE c.landed_at END FROM commits c WHERE c.repo_id = analyses.repo_id "
            "AND c.sha = analyses.sha)",
            (max(0, per_repo - 5), f"{NOW:%Y-%m-%d} 08:00:00.000000"),
        )
        config = json.dumps({"timezone": "Asia/Shanghai", "cutoff": "09:00"})
        db.executemany(
            "UPDATE repositories SET config = ? WHERE id = ?",
            [(config, repo_id) for repo_id in ids[::5]],
        )
    db.close()
    return ids


async def views(url: str, ids: list[int], count: int) -> dict[str, list[float]]:
    """Seconds per page view, wall clock and the process's CPU time (the shared machine's
    other work stretches the first, not the second), the CPU time split into the store read,
    the words and the HTML; and the page's size in bytes."""
    store = await Store.open(url)
    reader = StatusReader(store.engine)
    template = templates().get_template("status.html")
    took: dict[str, list[float]] = {k: [] for k in ("wall", "cpu", "read", "words", "html")}
    took["bytes"] = []
    try:
        for _ in range(count):
            began, began_cpu = time.perf_counter(), time.process_time()
            read = await reader.read(ids, NOW)
            read_cpu = time.process_time()
            page = page_view(
                read,
                login="maintainer",
                accounts={1: "org"},
                now=NOW,
                language="en",
                default_language="en",
                daily_budget=1_000_000,
            )
            words_cpu = time.process_time()
            html = template.render(language="en", words=page.words, page=page)
            ended = time.process_time()
            took["wall"].append(time.perf_counter() - began)
            took["cpu"].append(ended - began_cpu)
            took["read"].append(read_cpu - began_cpu)
            took["words"].append(words_cpu - read_cpu)
            took["html"].append(ended - words_cpu)
            took["bytes"].append(len(html.encode()))
            assert page.installations[0].count == len(ids) and html
    finally:
        await store.close()
    return took


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "bench.db"
        url = f"sqlite:///{database}"
        store = await Store.open(url)  # the schema, by the App's own migrations
        await store.close()
        fill(database, args.repos, args.per_repo)
        ids = add_page_rows(database, args.per_repo)
        took = await views(url, ids, args.views + 1)

    def ms(key: str) -> str:
        return f"{statistics.median(took[key][1:]) * 1000:.1f} ms"

    print(f"{args.repos:,} repositories, {args.repos * args.per_repo:,} analysed commits")
    print(
        f"- status page: first view {took['wall'][0] * 1000:.0f} ms, "
        f"median of the next {args.views} {ms('wall')} "
        f"(CPU time {ms('cpu')}: read {ms('read')}, words {ms('words')}, HTML {ms('html')}); "
        f"{took['bytes'][0] / 1000:,.0f} KB of HTML"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repos", type=int, default=1000)
    parser.add_argument("--per-repo", type=int, default=100)
    parser.add_argument("--views", type=int, default=7)
    args = parser.parse_args()
    args.repos = smoke.size(args.repos, 5)
    args.per_repo = smoke.size(args.per_repo, 3)
    args.views = smoke.size(args.views, 1)
    configure_logging(fmt="console", level="WARNING")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
