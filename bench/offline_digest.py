"""How long the offline digest of a clone's day takes, imports aside (no network).

    python -m bench.offline_digest --git /work/main --day 2026-11-22 [--rounds 5]

Runs `python -m bot digest --git PATH --day DAY` in this process, round after round, and
prints the median and best wall time of a round, with the CPU time of the git processes it
started (rules analyser: unset LLM_BASE_URL first).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import resource
import statistics
import tempfile
import time
from pathlib import Path

from bench import smoke
from bot.__main__ import main as bot_main


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--git", required=True)
    parser.add_argument("--day", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    args.rounds = smoke.size(args.rounds, 1)
    walls: list[float] = []
    gits: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "digest.md")
        command = ["digest", "--git", args.git, "--day", args.day, "--out", out]
        for _ in range(args.rounds):
            before_cpu = _children_cpu()
            started = time.perf_counter()
            with contextlib.redirect_stderr(io.StringIO()) as err:
                status = bot_main(command)
            walls.append(time.perf_counter() - started)
            gits.append(_children_cpu() - before_cpu)
            if status != 0:
                raise SystemExit(f"digest failed: {err.getvalue().strip()}")
        summary = err.getvalue().strip().splitlines()[-1]
        size = len(Path(out).read_text(encoding="utf-8"))
    print(
        f"{summary}; {size} characters; round: median {statistics.median(walls):.2f} s, "
        f"best {min(walls):.2f} s; git CPU median {statistics.median(gits):.2f} s"
    )


if __name__ == "__main__":
    main()
