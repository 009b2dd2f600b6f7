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
TIMEOUT = 480  # seconds: a command takes a few in smoke mode, more on a busy machine
# A command that reads this repository's whole history grows with it (900 commits: 140 s of
# one core alone at 32902d9; the facts read since then cost it about 2.2 times that, and
# beside the other tests' workers on a busy 2-core machine it passed 1,200 s)
HISTORY_TIMEOUT = 1800
SMOKE_COMMITS = 12  # of this repository's history, for `bot eval --git` (see last_commits)
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

    args = [sys.executable, *(here(w) for w in shlex.split(command)[1:])]
    return [*args, *last_commits(args)]


def last_commits(args: list[str]) -> list[str]:
    """For `bot eval --git` over this repository's whole history, a range of its last
    `SMOKE_COMMITS` commits: the same code on a few commits, where the whole history grows
    with every commit (900 commits took over 1,200 s beside the other tests)."""
    if args[1:4] != ["-m", "bot", "eval"] or "--git" not in args:
        return []
    clone = args[args.index("--git") + 1]
    if clone not in (OWN_CLONE, str(ROOT), ".") or {"--range", "--since", "--until"} & set(args):
        return []
    count = subprocess.run(
        ["git", "-C", str(ROOT / clone), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    back = min(SMOKE_COMMITS, int(count or 1) - 1)
    return ["--range", f"HEAD~{back}..HEAD"] if back > 0 else []


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BENCH_SMOKE": "1"}
    env.pop("TEST_DATABASE_URL", None)
    history = "--git" in args and args[args.index("--git") + 1] in (OWN_CLONE, str(ROOT))
    return subprocess.run(
        args,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=HISTORY_TIMEOUT if history else TIMEOUT,
        check=False,
    )


def test_a_whole_history_read_is_cut_to_its_last_commits() -> None:
    assert argv("python -m bot eval --git /work/main")[-2:] == ["--range", "HEAD~12..HEAD"]
    assert "--range" not in argv("python -m bot eval --replay tests/reference/replay")
    # a range given is kept as written
    assert argv("python -m bot eval --claims --git . --range HEAD~5..HEAD")[-1] == "HEAD~5..HEAD"


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
