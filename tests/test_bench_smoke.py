"""Every command `bench/RESULTS.md` gives runs, in smoke mode (tiny sizes, no figures checked).

A benchmark that no run touches breaks unseen; these run each command as written there, from
the repository root, with `BENCH_SMOKE=1`. The PostgreSQL command gets a database of its own
beside `TEST_DATABASE_URL`'s (skipped without one).
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PG_GIVEN_URL, throwaway_postgres
from tests.support import ROOT

RESULTS = ROOT / "bench" / "RESULTS.md"
# A command of RESULTS.md that reads this repository's history runs on the checkout under
# test when the clone it names is not on this machine.
OWN_CLONE = "/work/main"
# seconds: a command takes a few in smoke mode, a minute or two beside the other tests (the
# offline digest of one of this repository's busiest days, the history reads cut to a few commits)
TIMEOUT = 600
# Four small commits of this repository's history (code, a catalogue, RESULTS), read by
# `bot eval --git` commands in smoke mode (see last_commits)
SMOKE_RANGE = "2d55554..3737cfd"
HEAVY = {
    "bench.ingest",
    "bench.growth",
    "bench.flood",
    "bench.replay",
    "bench.batch_vs_landing",
    "bench.commands",
}


def commands() -> list[str]:
    """Each `python -m …` line of RESULTS.md's code blocks, once, its comment left off."""
    found: list[str] = []
    fenced = False
    for line in RESULTS.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif fenced and line.startswith("python -m "):
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command not in found:
                found.append(command)
    return found


def test_results_give_a_command_for_every_benchmark() -> None:
    listed = {shlex.split(c)[2] for c in commands()}
    modules = {
        f"bench.{p.stem}"
        for p in (ROOT / "bench").glob("*.py")
        if "def main(" in p.read_text() and p.stem != "reference_server"
    }
    assert modules <= listed, f"no command in RESULTS.md for {sorted(modules - listed)}"
    assert "bot" in listed  # the eval commands of section 2


def argv(command: str) -> list[str]:
    def here(word: str) -> str:
        if word == OWN_CLONE and not Path(OWN_CLONE).is_dir():
            return str(ROOT)
        return word

    return last_commits([sys.executable, *(here(w) for w in shlex.split(command)[1:])])


def last_commits(args: list[str]) -> list[str]:
    """`bot eval --git` over this repository's history reads, in smoke mode, `SMOKE_RANGE`
    whatever range and dates it names: the same code on four commits of its history, where the
    whole history grows with every commit (900 commits took over 1,200 s beside the other
    tests) and even `HEAD~5..HEAD` holds every commit of the branches merged since."""
    if args[1:4] != ["-m", "bot", "eval"] or "--git" not in args:
        return args
    if args[args.index("--git") + 1] not in (OWN_CLONE, str(ROOT), "."):
        return args
    kept: list[str] = []
    words = iter(args)
    for word in words:
        if word in ("--range", "--since", "--until"):
            next(words, None)
        else:
            kept.append(word)
    return [*kept, "--range", SMOKE_RANGE]


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BENCH_SMOKE": "1"}
    env.pop("TEST_DATABASE_URL", None)
    return subprocess.run(
        args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def test_a_history_read_is_cut_to_a_few_commits() -> None:
    assert argv("python -m bot eval --git /work/main")[-2:] == ["--range", SMOKE_RANGE]
    cut = argv("python -m bot eval --claims --git . --range A..B --since X --until Y")
    assert cut[-4:] == ["--git", ".", "--range", SMOKE_RANGE]
    assert "--range" not in argv("python -m bot eval --replay tests/reference/replay")
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "rev-list", "--count", SMOKE_RANGE],
        capture_output=True,
        text=True,
        check=True,
    )
    assert listed.stdout.strip() == "4"


def heavy(command: str) -> bool:
    """Whether the command, even at smoke sizes, starts `serve` processes or takes whole
    replay days through the App or the analyser: seconds of CPU each, left to the full run."""
    words = shlex.split(command)
    return words[2] in HEAVY or "--replay" in words or "--git" in words


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(
            c,
            marks=[pytest.mark.slow] * heavy(c) + [pytest.mark.database] * ("postgresql://" in c),
        )
        for c in commands()
    ],
)
def test_command_runs(command: str) -> None:
    args = argv(command)
    if any(a.startswith("postgresql://") for a in args):
        if not PG_GIVEN_URL:
            pytest.skip("needs TEST_DATABASE_URL (a PostgreSQL server)")

        async def on_postgres() -> subprocess.CompletedProcess[str]:
            async with throwaway_postgres(f"bench_{secrets.token_hex(4)}") as url:
                given = [url if a.startswith("postgresql://") else a for a in args]
                return await asyncio.to_thread(run, given)

        done = asyncio.run(on_postgres())
    else:
        done = run(args)
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    assert done.stdout.strip(), f"{command} printed nothing"
