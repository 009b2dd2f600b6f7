"""The rules' time per commit with both sides of each changed code file parsed, against the
patch alone, on a clone's own history (no network).

    python -m bench.facts_speed [--git PATH] [--commits 150] [--rounds 3]

Each of the last COMMITS first-parent commits of the clone (merges aside) is read as
`digest --git` reads it (files, patches, and the whole texts within the bounds of
`bot/analysis/sources.py`); the figure is each commit's best round of the rules' analysis,
parses included, with and without the texts.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from bench import smoke
from bot.analysis.rules import analyze
from bot.cli.clone import files_of
from bot.cli.clone_sources import blob_cache, with_sources
from bot.cli.git import git
from bot.models import CommitInput


def _best(commits: list[CommitInput], rounds: int) -> list[float]:
    for commit in commits:  # warm up: compiled patterns, imports, the parser
        analyze(commit)
    times: dict[str, list[float]] = {c.sha: [] for c in commits}
    for _ in range(rounds):
        for commit in commits:
            started = time.perf_counter()
            analyze(commit)
            times[commit.sha].append(time.perf_counter() - started)
    return sorted(min(t) * 1000 for t in times.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--git", default=".", help="a clone (default: this one)")
    parser.add_argument("--commits", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    args.commits, args.rounds = smoke.size(args.commits, 3), smoke.size(args.rounds, 1)
    path = Path(args.git)
    log = git(path, "log", "--first-parent", "--no-merges", f"-{args.commits}", "--format=%H%x00%s")
    blobs = blob_cache()
    whole: list[CommitInput] = []
    for line in log.splitlines():
        sha, _, title = line.partition("\0")
        files = files_of(path, sha, with_patches=True)
        whole.append(
            CommitInput(sha=sha, message=title, files=with_sources(path, sha, files, blobs))
        )
    patches = [
        c.model_copy(
            update={
                "files": [f.model_copy(update={"before": None, "after": None}) for f in c.files]
            }
        )
        for c in whole
    ]
    read = sum(f.sides is not None for c in whole for f in c.files)
    print(f"{len(whole)} commits, {read} files read whole at both sides")
    for name, batch in (("both sides parsed", whole), ("patches only", patches)):
        best = _best(batch, args.rounds)
        print(
            f"{name}: mean {statistics.fmean(best):.2f} ms, p50 {best[len(best) // 2]:.2f} ms, "
            f"p90 {best[int(len(best) * 0.9)]:.2f} ms, max {best[-1]:.2f} ms"
        )


if __name__ == "__main__":
    main()
