"""Smoke mode: every benchmark at tiny sizes, in seconds, so a broken command shows in CI.

`BENCH_SMOKE=1 python -m bench.X …` runs X's whole path (the same code, the same output)
on one small replay day and a handful of deliveries, rounds or repositories, whatever the
command line asks for. Its figures mean nothing; `tests/test_bench_smoke.py` runs every
command of `bench/RESULTS.md` this way.
"""

from __future__ import annotations

import os
from typing import Any, TypeVar

from tests.support import replay_index

VARIABLE = "BENCH_SMOKE"

T = TypeVar("T")


def on() -> bool:
    """Whether this run is a smoke run."""
    return os.environ.get(VARIABLE, "") not in ("", "0")


def size(full: T, tiny: T) -> T:
    """`tiny` in a smoke run, else `full` (what the command line or the default asked)."""
    return tiny if on() else full


def days() -> list[dict[str, Any]]:
    """The replay days to run: all of them, or in a smoke run the one with fewest commits."""
    index = replay_index()
    return [min(index, key=lambda d: d["commits"])] if on() else index
