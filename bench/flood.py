"""Peak memory of `python -m bot serve` under floods of unsigned webhook requests.

Loopback only, a bounded number of requests, stops by itself. Four floods, each concurrent:
25 MB bodies with no signature, 25 MB bodies with a well-formed but wrong signature, 25 KB
gzip bodies that inflate to 25 MB each, and bodies that trickle in and stop. After each, the
server's peak RSS (VmHWM) and current RSS; a signed delivery must still be accepted.

    python -m bench.flood [--app-root DIR]

`--app-root` runs the `bot` package found in DIR instead (e.g. an older commit, exported with
`git archive`), to compare before and after in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

from bench import smoke
from bench.harness import ROOT, keys
from tests.processes import free_port, post_push, serve_env, wait_healthy
from tests.support import replay_pushes

MB = 1024 * 1024


def rss_mb(pid: int) -> tuple[float, float]:
    """(peak, current) resident memory of a process, in MiB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmHWM", "VmRSS"):
            values[key] = int(rest.split()[0]) / 1024
    return values["VmHWM"], values["VmRSS"]


def bomb(inflated: int) -> bytes:
    """A gzip body of about 25 KB that inflates to `inflated` bytes of zeros."""
    return gzip.compress(b"\0" * inflated, compresslevel=9)


async def send(
    session: aiohttp.ClientSession, port: int, body: bytes, headers: dict[str, str]
) -> str:
    try:
        async with session.post(
            f"http://127.0.0.1:{port}/webhook", data=body, headers=headers
        ) as response:
            await response.read()
            return str(response.status)
    except aiohttp.ClientError as exc:
        # The server answered from the headers and closed before the body was all sent.
        return type(exc).__name__


async def trickle(port: int, seconds: float) -> str:
    """A sender that announces 25 MB, sends a few bytes, then waits; the server must drop it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "X-GitHub-Event: push\r\nX-GitHub-Delivery: slow\r\n"
        f"X-Hub-Signature-256: sha256={'0' * 64}\r\nContent-Length: {25 * MB}\r\n\r\n"
    )
    writer.write(head.encode() + b"{")
    await writer.drain()
    try:
        line = await asyncio.wait_for(reader.readline(), timeout=seconds)
        return line.decode().split()[1] if line else "closed"
    except TimeoutError:
        return "held"
    finally:
        writer.close()


async def flood(app_root: Path, concurrency: int, trickles: int) -> list[dict[str, object]]:
    private, _ = keys()
    results: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = serve_env(
            database_url=f"sqlite:///{tmp}/flood.db",
            private_key_pem=private,
            PORT=str(port),
            WORKER_ENABLED="false",
            SCHEDULER_ENABLED="false",
        )
        proc = subprocess.Popen(  # noqa: ASYNC220 - started once, waited on at the end
            [sys.executable, "-m", "bot", "serve"], cwd=app_root, env=env
        )
        try:
            big = b" " * (25 * MB - 2)
            big = b"{" + big + b"}"
            gz = bomb(25 * MB)
            floods = {
                f"{concurrency} x 25 MB, no signature": (big, {}),
                f"{concurrency} x 25 MB, wrong sha256 signature": (
                    big,
                    {"X-Hub-Signature-256": "sha256=" + "0" * 64},
                ),
                f"{concurrency} x {len(gz) // 1024} KB gzip inflating to 25 MB": (
                    gz,
                    {"Content-Encoding": "gzip", "X-Hub-Signature-256": "sha256=" + "0" * 64},
                ),
            }
            timeout = aiohttp.ClientTimeout(total=120)
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
                await wait_healthy(session, port, proc)
                base_peak, base_now = rss_mb(proc.pid)
                results.append({"flood": "idle after start", "peak": base_peak, "after": base_now})
                for name, (body, extra) in floods.items():
                    headers = {
                        "Content-Type": "application/json",
                        "X-GitHub-Event": "push",
                        "X-GitHub-Delivery": "flood",
                        **extra,
                    }
                    started = time.perf_counter()
                    answers = await asyncio.gather(
                        *(send(session, port, body, headers) for _ in range(concurrency))
                    )
                    seconds = time.perf_counter() - started
                    peak, now = rss_mb(proc.pid)
                    results.append(
                        {
                            "flood": name,
                            "answers": dict(Counter(answers)),
                            "seconds": round(seconds, 1),
                            "peak": peak,
                            "after": now,
                        }
                    )
                started = time.perf_counter()
                # Smoke: the senders give up after a second (the App drops them after 10 s).
                held = smoke.size(30.0, 1.0)
                answers = await asyncio.gather(*(trickle(port, held) for _ in range(trickles)))
                peak, now = rss_mb(proc.pid)
                results.append(
                    {
                        "flood": f"{trickles} bodies that trickle and stop",
                        "answers": dict(Counter(answers)),
                        "seconds": round(time.perf_counter() - started, 1),
                        "peak": peak,
                        "after": now,
                    }
                )
                push = replay_pushes("vllm-project/llm-compressor", "2026-06-22")[0]
                status = await post_push(session, port, push)
                results.append({"flood": "a signed delivery afterwards", "answers": {status: 1}})
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app-root", type=Path, default=ROOT)
    parser.add_argument("--concurrency", type=int, default=40)
    parser.add_argument("--trickles", type=int, default=500)
    args = parser.parse_args()
    if smoke.on():
        args.concurrency, args.trickles = 2, 2
    results = asyncio.run(flood(args.app_root, args.concurrency, args.trickles))
    print("| flood | answers | seconds | peak RSS MiB | RSS after MiB |")
    print("|---|---|---:|---:|---:|")
    for r in results:
        answers = ", ".join(f"{k}: {v}" for k, v in r.get("answers", {}).items())  # type: ignore[attr-defined]
        peak = f"{r['peak']:.0f}" if "peak" in r else ""
        after = f"{r['after']:.0f}" if "after" in r else ""
        print(f"| {r['flood']} | {answers} | {r.get('seconds', '')} | {peak} | {after} |")
    print(json.dumps(results), file=sys.stderr)


if __name__ == "__main__":
    main()
