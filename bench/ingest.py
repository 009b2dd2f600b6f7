"""Ingest benchmark: signed real push deliveries over loopback to the App and two references.

    python -m bench.ingest                       # SQLite (the default engine)
    python -m bench.ingest --database-url postgresql://postgres@127.0.0.1:5432/bench

For each target — a bare aiohttp handler (read the body, 202: the ceiling), a handler that
also verifies the signature with gidgethub and parses the JSON (the floor any App pays), and
`python -m bot serve` storing durably — it runs a closed loop of N deliveries at a fixed
concurrency (throughput and latency), then an open loop at a fixed rate (latency under a
steady load). Each delivery is a real replay push whose commit ids are made unique, so the
App stores new commits every time. Numbers go to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import hashlib
import hmac
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bench import smoke
from bench.harness import keys
from tests.processes import free_port, serve_env, wait_healthy
from tests.support import replay_index, replay_pushes

ROOT = Path(__file__).resolve().parents[1]
SECRET = "bench-secret"


@dataclass
class Delivery:
    body: bytes
    headers: dict[str, str]


def load_pushes() -> list[dict[str, Any]]:
    """Every push of every replay day, in the index's order."""
    return [p for day in replay_index() for p in replay_pushes(day["repo"], day["date"])]


def make_deliveries(pushes: list[dict[str, Any]], n: int) -> list[Delivery]:
    out = []
    for i in range(n):
        payload = copy.deepcopy(pushes[i % len(pushes)]["payload"])
        for commit in payload["commits"]:
            commit["id"] = secrets.token_hex(20)
        if payload["commits"]:
            payload["head_commit"] = payload["commits"][-1]
            payload["after"] = payload["commits"][-1]["id"]
        body = json.dumps(payload).encode()
        signature = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
        out.append(
            Delivery(
                body,
                {
                    "X-GitHub-Event": "push",
                    "X-GitHub-Delivery": str(uuid.uuid4()),
                    "X-Hub-Signature-256": signature,
                    "Content-Type": "application/json",
                    "User-Agent": "GitHub-Hookshot/bench",
                },
            )
        )
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def closed_loop(url: str, deliveries: list[Delivery], concurrency: int) -> dict[str, float]:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    queue = list(reversed(deliveries))
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            while queue:
                d = queue.pop()
                start = time.perf_counter()
                async with session.post(url, data=d.body, headers=d.headers) as r:
                    await r.read()
                    statuses[r.status] = statuses.get(r.status, 0) + 1
                latencies.append(time.perf_counter() - start)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
    bad = {s: c for s, c in statuses.items() if s != 202}
    if bad:
        raise RuntimeError(f"unexpected statuses {bad}")
    return {
        "rps": len(deliveries) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * pct(latencies, 0.99),
    }


async def open_loop(url: str, deliveries: list[Delivery], rate: float) -> dict[str, float]:
    """Send at a fixed rate; latency counts from the scheduled send (no coordinated omission)."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    connector = aiohttp.TCPConnector(limit=1000)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one(d: Delivery, scheduled: float) -> None:
            async with session.post(url, data=d.body, headers=d.headers) as r:
                await r.read()
                statuses[r.status] = statuses.get(r.status, 0) + 1
            latencies.append(time.perf_counter() - scheduled)

        t0 = time.perf_counter() + 0.05
        tasks = []
        for i, d in enumerate(deliveries):
            scheduled = t0 + i / rate
            delay = scheduled - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(d, scheduled)))
        await asyncio.gather(*tasks)
    bad = {s: c for s, c in statuses.items() if s != 202}
    if bad:
        raise RuntimeError(f"unexpected statuses {bad}")
    return {
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * pct(latencies, 0.99),
        "max_ms": 1000 * max(latencies),
    }


def start_target(
    kind: str, port: int, workdir: Path, database_url: str | None
) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if kind == "app":
        # No GitHub behind it: the benchmark measures ingest, not the worker.
        env = serve_env(
            database_url=database_url or f"sqlite:///{workdir / 'bench.db'}",
            private_key_pem=keys()[0],
            secret=SECRET,
            WORKER_ENABLED="false",
            SCHEDULER_ENABLED="false",
            PORT=str(port),
            LOG_LEVEL="WARNING",
        )
        cmd = [sys.executable, "-m", "bot", "serve"]
    else:
        cmd = [
            sys.executable,
            "-m",
            "bench.reference_server",
            "--mode",
            kind,
            "--port",
            str(port),
            "--secret",
            SECRET,
        ]
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def bench_target(
    kind: str, args: argparse.Namespace, pushes: list[dict[str, Any]], workdir: Path
) -> dict[str, float]:
    port = free_port()
    proc = start_target(kind, port, workdir, args.database_url)
    try:
        async with aiohttp.ClientSession() as session:
            await wait_healthy(session, port, proc)
        url = f"http://127.0.0.1:{port}/webhook"
        warm_up = make_deliveries(pushes, smoke.size(200, 5))
        await closed_loop(url, warm_up, args.concurrency)
        closed = await closed_loop(url, make_deliveries(pushes, args.n), args.concurrency)
        steady = await open_loop(
            url, make_deliveries(pushes, int(args.rate * args.seconds)), args.rate
        )
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return {**closed, **{f"steady_{k}": v for k, v in steady.items()}}


async def main_async(args: argparse.Namespace) -> None:
    pushes = load_pushes()
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("bare", "verify", "app"):
            results[kind] = await bench_target(kind, args, pushes, Path(tmp))
    engine = "postgresql" if args.database_url else "sqlite"
    print(
        f"# ingest: N={args.n} concurrency={args.concurrency}; "
        f"steady {args.rate:g}/s for {args.seconds:g}s; app on {engine}"
    )
    rate = f"{args.rate:g}/s"
    print(f"| target | deliveries/s | p50 ms | p99 ms | p50 ms @{rate} | p99 ms @{rate} |")
    print("|---|---:|---:|---:|---:|---:|")
    names = {
        "bare": "bare aiohttp (ceiling)",
        "verify": "verify + parse (floor)",
        "app": f"App ({engine}, durable)",
    }
    for kind, r in results.items():
        print(
            f"| {names[kind]} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} "
            f"| {r['steady_p50_ms']:.1f} | {r['steady_p99_ms']:.1f} |"
        )
    app, verify, bare = results["app"], results["verify"], results["bare"]
    print(f"\nApp / verify+parse throughput: {app['rps'] / verify['rps']:.2f}")
    print(f"App / bare throughput: {app['rps'] / bare['rps']:.2f}")
    print(f"verify+parse / bare throughput: {verify['rps'] / bare['rps']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=3000, help="deliveries in the closed loop")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument(
        "--rate", type=float, default=200.0, help="deliveries per second in the open loop"
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    if smoke.on():
        args.n, args.concurrency, args.rate, args.seconds = 20, 4, 50.0, 0.2
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
