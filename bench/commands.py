"""Webhook to reply: how long a `/digest` command waits for its answer, the rules analysing.

`python -m bench.commands` runs `python -m bot serve` (SQLite, the rules analyser) against the
fake GitHub of the tests (its OpenAPI check off) on the real clock, with vllm-ascend's busiest
replay day (2026-07-15) served. Two phases, each command a real `issue_comment` delivery of a
new comment, timed from just before its POST until the fake GitHub holds the reply:

1. **while analysing**: the day's pushes are delivered first (their commits queue for
   analysis), then one command every `--gap` seconds on that repository (help, config,
   explain of one of the day's commits, preview of the day), 30 of them, 3 maintainers;
2. **burst**: 30 commands at once on three other repositories (10 maintainers).

Prints p50, p95 and the worst of each phase, and how many analyses were still waiting when
the first command of phase 1 was answered (commands run ahead of them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from typing import Any

import aiohttp
import sqlalchemy as sa
from aiohttp.test_utils import TestServer

from bench.harness import keys
from bench.smoke import size
from bot.runtime.clock import SystemClock
from bot.store.schema import jobs
from tests.fakes.github import FakeGitHub
from tests.processes import APP_ID, first_row, free_port, run_bot, serve_env, stop, wait_healthy
from tests.support import replay_pushes

REPO = "vllm-project/vllm-ascend"
DAY = "2026-07-15"
OTHERS = ("bench/alpha", "bench/beta", "bench/gamma")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def answered(github: FakeGitHub, repo: str, payload: dict[str, Any], limit: float) -> float:
    """Seconds until the reply to `payload`'s comment is on GitHub (polled every 5 ms)."""
    started = time.perf_counter()
    while not github.replies_to(repo, payload["comment"]["id"]):
        if time.perf_counter() - started > limit:
            raise AssertionError(f"no reply within {limit} s")
        await asyncio.sleep(0.005)
    return time.perf_counter() - started


async def timed(github: FakeGitHub, repo: str, payload: dict[str, Any]) -> float:
    started = time.perf_counter()
    attempt = await github.hooks.send("issue_comment", payload)
    assert attempt.status_code == 202, attempt.status_code
    return time.perf_counter() - started + await answered(github, repo, payload, 60)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    private, public = keys()
    github = FakeGitHub(SystemClock(), app_id=APP_ID, public_key=public, check_spec=False)
    fake = github.serve_replay_day(REPO, DAY)
    maintainers = [f"maintainer{i}" for i in range(10)]
    for repo in (
        fake,
        *(
            github.add_repo(n, repo_id=900 + i, installation_id=fake.installation_id)
            for i, n in enumerate(OTHERS)
        ),
    ):
        repo.roles.update(dict.fromkeys(maintainers, "maintain"))
    server = TestServer(github.app())
    await server.start_server()
    pushes = replay_pushes(REPO, DAY)
    shas = [c["id"] for p in pushes for c in p["payload"]["commits"]]
    port = free_port()
    github.hooks.url = f"http://127.0.0.1:{port}/webhook"
    results: dict[str, Any] = {}
    count = size(30, 3)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        env = serve_env(
            database_url=url,
            private_key_pem=private,
            github_url=str(server.make_url("")).rstrip("/"),
            PORT=str(port),
            SCHEDULER_ENABLED="false",
            RECOVERY_ENABLED="false",
        )
        proc = await run_bot("serve", env=env)
        try:
            async with aiohttp.ClientSession() as session:
                await wait_healthy(session, port, proc)
            issue = github.open_issue(REPO)
            for push in pushes:
                assert (await github.hooks.send_push(push)).status_code == 202
            kinds = ("help", "config", "explain {sha}", f"preview {DAY}")
            waiting = sa.select(sa.func.count()).where(
                jobs.c.kind == "analyse_commit", jobs.c.state.in_(["pending", "running"])
            )
            phase1: list[float] = []
            left_at_first: int | None = None
            for i in range(count):
                body = "/digest " + kinds[i % 4].format(sha=shas[i % len(shas)][:9])
                payload = github.comment_on_issue(REPO, issue, body, by=maintainers[i % 3])
                phase1.append(await timed(github, REPO, payload))
                if left_at_first is None:
                    left_at_first = (await first_row(url, waiting))[0]
                await asyncio.sleep(args.gap)
            burst = []
            for i in range(count):
                repo = OTHERS[i % 3]
                body = "/digest help" if i % 2 else "/digest config"
                burst.append(
                    (
                        repo,
                        github.comment_on_issue(
                            repo, github.open_issue(repo), body, by=maintainers[i % 10]
                        ),
                    )
                )
            phase2 = await asyncio.gather(*(timed(github, r, p) for r, p in burst))
        finally:
            await stop(proc)
            await server.close()
    for name, values in (("while analysing", phase1), (f"burst of {count}", list(phase2))):
        results[name] = {
            "commands": len(values),
            "p50_s": round(statistics.median(values), 3),
            "p95_s": round(percentile(values, 0.95), 3),
            "max_s": round(max(values), 3),
        }
    results["analyses waiting at the first reply"] = left_at_first
    results["commits of the day"] = len(shas)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between commands")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main_async(args)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
