"""Memory and growth.

    python -m bench.growth

1. Peak RSS of `python -m bot serve` (worker and scheduler on) over a SQLite database holding
   1,000 repositories and 100,000 analysed commits, while it takes 1,000 deliveries, analyses
   them, runs scheduler rounds over every repository and publishes a day.
2. How ingest, analysis and digest times grow from 10 to 1,000 commits a day.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import random
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient, TestServer

from bench import smoke
from bench.harness import ROOT, harness, keys
from bot.analysis.rules import analyze
from bot.app import EXECUTOR, SCHEDULER, create_app
from bot.models import CommitInput
from bot.runtime.clock import SystemClock
from bot.runtime.logs import configure_logging
from bot.settings import Settings
from bot.store import Store
from tests.fakes.github import FakeGitHub
from tests.processes import APP_ID, free_port, post_push, serve_env, wait_healthy
from tests.support import TEST_SECRET, FakeClock, publish_round, replay_day, replay_pushes

REPO = "vllm-project/vllm-ascend"
DAY = "2026-07-10"


def synthetic_pushes(n: int, seed: int = 1) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """`n` pushes of one day built from real ones (new shas), and the commits GitHub serves."""
    rng = random.Random(seed)
    real = replay_pushes(REPO, DAY)
    commits = {c["sha"]: c for c in replay_day(REPO, DAY)["commits"]}
    start = datetime(2026, 7, 10, tzinfo=UTC)
    pushes, served = [], []
    for i in range(n):
        template = rng.choice(real)
        push = copy.deepcopy(template)
        sha = secrets.token_hex(20)
        commit = copy.deepcopy(commits[template["payload"]["after"]])
        commit["sha"] = sha
        commit["html_url"] = commit["html_url"].rsplit("/", 1)[0] + "/" + sha
        push["payload"]["commits"][0]["id"] = push["payload"]["after"] = sha
        push["payload"]["commits"][0]["url"] = commit["html_url"]
        push["payload"]["repository"]["pushed_at"] = int(
            (start + timedelta(seconds=i * 86_000 // n)).timestamp()
        )
        push["headers"] = {**push["headers"], "X-GitHub-Delivery": str(secrets.token_hex(16))}
        pushes.append(push)
        served.append(commit)
    return pushes, served


def serve_commits(github: FakeGitHub, served: list[dict[str, Any]]) -> None:
    repo = github.repos[REPO]
    for commit in served:
        repo.commits[commit["sha"]] = commit
        repo.history.append(commit["sha"])


# --- 1. memory --------------------------------------------------------------------------------

REPO_COLUMNS = (
    "id installation_id full_name config_error_reported timezone cutoff "
    "active_since created_at updated_at"
)
COMMIT_COLUMNS = (
    "repo_id sha installation_id delivery_id position landed_at branch forced title message "
    "author_name author_login author_email url pr_number state published_part created_at"
)
ANALYSIS_COLUMNS = (
    "repo_id sha analyzer importance change_types breaking data input_tokens output_tokens "
    "created_at"
)


def insert(table: str, columns: str) -> str:
    names = columns.split()
    return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"


def fill(database: Path, repos: int, per_repo: int) -> None:
    """Repositories and analysed, published commits, written straight into SQLite."""
    template = replay_day(REPO, DAY)["commits"]
    analyses = [
        analyze(CommitInput.from_github(c, repo=REPO)).model_dump(mode="json") for c in template
    ]
    now = "2026-07-01 00:00:00.000000"
    db = sqlite3.connect(database)
    db.execute("BEGIN")
    db.executemany(
        insert("repositories", REPO_COLUMNS),
        [
            (10_000 + r, 1, f"org{r % 50}/repo{r}", 0, "UTC", "00:00", now, now, now)
            for r in range(repos)
        ],
    )
    for r in range(repos):
        rows, arows = [], []
        for i in range(per_repo):
            sha = secrets.token_hex(20)
            landed = (datetime(2026, 3, 1) + timedelta(days=i // 5)).isoformat(" ") + ".000000"
            a = analyses[i % len(analyses)]
            url = f"https://github.com/o/r/commit/{sha}"
            rows.append(
                (
                    10_000 + r,
                    sha,
                    1,
                    "d",
                    i,
                    landed,
                    "main",
                    0,
                    f"Commit {i}",
                    f"Commit {i}\n\nbody",
                    "Ada",
                    None,
                    None,
                    url,
                    None,
                    "analyzed",
                    "main",
                    now,
                )
            )
            arows.append(
                (
                    10_000 + r,
                    sha,
                    "rules",
                    a["importance"],
                    json.dumps(a["change_types"]),
                    0,
                    json.dumps(a),
                    0,
                    0,
                    now,
                )
            )
        db.executemany(insert("commits", COMMIT_COLUMNS), rows)
        db.executemany(insert("analyses", ANALYSIS_COLUMNS), arows)
    db.commit()
    db.close()


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def memory(repos: int, per_repo: int, deliveries: int) -> dict[str, float]:
    private, public = keys()
    github = FakeGitHub(SystemClock(), app_id=APP_ID, public_key=public, check_spec=False)
    github.serve_replay_day(REPO, DAY)
    pushes, served = synthetic_pushes(deliveries)
    serve_commits(github, served)
    server = TestServer(github.app())
    await server.start_server()
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "big.db"
        url = f"sqlite:///{database}"
        await (await Store.open(url)).close()  # the schema
        started = time.perf_counter()
        fill(database, repos, per_repo)
        filled = time.perf_counter() - started
        size_mb = database.stat().st_size / 1e6
        port = free_port()
        env = serve_env(
            database_url=url,
            private_key_pem=private,
            github_url=str(server.make_url("")).rstrip("/"),
            PORT=str(port),
            SCHEDULER_MAX_SLEEP_SECONDS="1",
        )
        proc = subprocess.Popen([sys.executable, "-m", "bot", "serve"], cwd=ROOT, env=env)  # noqa: ASYNC220
        try:
            async with aiohttp.ClientSession() as session:
                await wait_healthy(session, port, proc)
                idle = peak_rss_mb(proc.pid)
                for push in pushes:
                    status = await post_push(session, port, push)
                    assert status == 202, status
                # Worker and scheduler (1 s rounds over every repository) run until the new
                # day is analysed and its digest posted.
                for _ in range(1200):
                    if github.repos[REPO].discussions:
                        break
                    await asyncio.sleep(0.25)
                # A few more scheduler rounds over all repositories.
                await asyncio.sleep(smoke.size(3, 0))
            peak = peak_rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            await server.close()

        # A scheduler round over every repository, timed in-process on the same database.
        (round_s,) = await scheduler_rounds(url, private, 1)
    return {
        "repos": repos,
        "deliveries": deliveries,
        "analyses": repos * per_repo,
        "fill_s": filled,
        "db_mb": size_mb,
        "idle_mb": idle,
        "peak_mb": peak,
        "posted": float(bool(github.repos[REPO].discussions)),
        "round_s": round_s,
    }


async def scheduler_rounds(url: str, private: str, count: int) -> list[float]:
    """How long each of `count` scheduler rounds takes, in one fresh App on `url` (seconds)."""
    settings = Settings(
        database_url=url,
        github_app_id=APP_ID,
        github_private_key=private,
        github_webhook_secret=TEST_SECRET,
        github_api_url="http://127.0.0.1:9",
        log_level="ERROR",
    )
    client = TestClient(TestServer(create_app(settings, clock=SystemClock(), background=False)))
    await client.start_server()
    try:
        took = []
        for _ in range(count):
            started = time.perf_counter()
            await client.app[SCHEDULER].run_once()
            took.append(time.perf_counter() - started)
        return took
    finally:
        await client.close()


# --- 2. growth --------------------------------------------------------------------------------


async def growth(n: int) -> dict[str, float]:
    end = datetime(2026, 7, 11, tzinfo=UTC)
    clock = FakeClock(end - timedelta(hours=1))
    pushes, served = synthetic_pushes(n, seed=n)
    async with harness(clock) as h:
        h.github.serve_replay_day(REPO, DAY)
        serve_commits(h.github, served)
        semaphore = asyncio.Semaphore(32)

        async def send(push: dict[str, Any]) -> None:
            async with semaphore:
                assert await h.deliver(push) == 202

        started = time.perf_counter()
        await asyncio.gather(*(send(p) for p in pushes))
        ingest = time.perf_counter() - started
        started = time.perf_counter()
        await h.client.app[EXECUTOR].drain(rounds=10_000)
        analysis = time.perf_counter() - started
        clock.current = end + timedelta(seconds=1)
        before = clock.now()
        started = time.perf_counter()
        await publish_round(h.client)
        digest = time.perf_counter() - started
        paced = (clock.now() - before).total_seconds()
        discussion = h.github.repos[REPO].discussions[0]
        posts = 1 + len(discussion["comments"])
    return {
        "n": n,
        "ingest_s": ingest,
        "analysis_s": analysis,
        "digest_s": digest,
        "paced_s": digest + paced,
        "posts": posts,
    }


async def main_async(args: argparse.Namespace) -> None:
    configure_logging(fmt="console", level="ERROR")
    m = await memory(args.repos, args.per_repo, args.deliveries)
    print(
        f"# memory: {m['repos']:,} repositories, {m['analyses']:,} stored analyses "
        f"(SQLite, {m['db_mb']:.0f} MB)"
    )
    print(
        f"- peak RSS of `serve`: {m['peak_mb']:.0f} MB (idle after start: {m['idle_mb']:.0f} MB), "
        f"through {m['deliveries']:,} deliveries, their analysis, scheduler rounds over every "
        f"repository and a posted digest ({'yes' if m['posted'] else 'NO'})"
    )
    print(f"- one scheduler round over {m['repos']:,} repositories: {m['round_s'] * 1000:.0f} ms")
    print()
    print("# growth: one repository, N commits in a day (rules analyser, fake GitHub in-process)")
    print(
        "| commits a day | ingest | per delivery | analysis | per commit "
        "| digest (cutoff → posted, compute) | with 1 s between posts | posts |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in smoke.size((10, 100, 1000), (10,)):
        g = await growth(n)
        print(
            f"| {n} | {g['ingest_s']:.2f} s | {g['ingest_s'] / n * 1000:.1f} ms "
            f"| {g['analysis_s']:.2f} s | {g['analysis_s'] / n * 1000:.1f} ms "
            f"| {g['digest_s']:.2f} s | {g['paced_s']:.1f} s | {g['posts']} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repos", type=int, default=1000)
    parser.add_argument("--per-repo", type=int, default=100)
    parser.add_argument("--deliveries", type=int, default=1000)
    args = parser.parse_args()
    if smoke.on():
        args.repos, args.per_repo, args.deliveries = 5, 5, 20
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
