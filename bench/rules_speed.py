"""How long the rules analyser takes per commit, on every real replay commit (no network).

    python -m bench.rules_speed [--rounds 20]

Each commit is analysed as the worker analyses it (files with patches, the PR description
in the squash message) in English and in zh-CN; the figure is the per-commit time over all
rounds, with the slowest commit, so a regression in one rule shows.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench import smoke
from bot.analysis.rules import analyze
from bot.models import CommitInput
from tests.support import replay_day


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    args.rounds = smoke.size(args.rounds, 1)
    commits = [
        CommitInput.from_github(raw, repo=day["repo"])
        for day in smoke.days()
        for raw in replay_day(day["repo"], day["date"])["commits"]
    ]
    titles = [CommitInput(sha=c.sha, message=c.title, files_known=False) for c in commits]
    for name, batch in (("full commits", commits), ("titles only", titles)):
        for commit in batch:  # warm up: compiled patterns, imports
            analyze(commit)
        per_commit: dict[str, list[float]] = {c.sha: [] for c in batch}
        for round_ in range(args.rounds):
            language = "zh-CN" if round_ % 2 else "en"
            for commit in batch:
                started = time.perf_counter()
                analyze(commit, language=language)
                per_commit[commit.sha].append(time.perf_counter() - started)
        # Each commit's best round: the machine is shared, and noise only ever adds time.
        best = sorted(min(times) * 1000 for times in per_commit.values())
        slowest = max(per_commit, key=lambda sha: min(per_commit[sha]))
        size = next(c for c in batch if c.sha == slowest)
        print(
            f"{name}: {len(batch)} commits, mean {statistics.fmean(best):.3f} ms, "
            f"p50 {best[len(best) // 2]:.3f} ms, p99 {best[int(len(best) * 0.99)]:.3f} ms, "
            f"max {best[-1]:.3f} ms ({size.title[:60]!r}, {len(size.files)} files, "
            f"{size.additions + size.deletions} lines)"
        )


if __name__ == "__main__":
    main()
