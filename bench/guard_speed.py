"""How long the fact guard takes per LLM answer, on every real replay commit (no network).

    python -m bench.guard_speed [--rounds 10]

The answer checked for each commit is the rules' analysis of it (a summary, insights, risks
and recommendations full of paths, code spans and counts: the size and kind of text an LLM
answer has) with one invented risk added, so every answer also takes the drop path. The
figure is each commit's best round, including reading the commit (lowercasing its patches),
with the slowest commit named.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench import smoke
from bot.analysis import rules
from bot.analysis.guard import guard
from bot.models import AnalysisBody, CommitInput, Risk
from tests.support import replay_day

INVENTED = Risk(
    description="On Hopper GPUs, `--enforce-eager` is needed: 35% slower without it.",
    mitigation="Call `Scheduler.reanalyze()` first.",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    args.rounds = smoke.size(args.rounds, 1)
    commits = [
        CommitInput.from_github(raw, repo=day["repo"])
        for day in smoke.days()
        for raw in replay_day(day["repo"], day["date"])["commits"]
    ]
    answers = {}
    for c in commits:
        analysis = rules.analyze(c)
        answers[c.sha] = AnalysisBody.model_validate(
            analysis.model_dump() | {"risks": [*analysis.risks[:4], INVENTED]}
        )
    per_commit: dict[str, list[float]] = {c.sha: [] for c in commits}
    dropped = 0
    for _ in range(args.rounds):
        for commit in commits:
            answer = answers[commit.sha]
            started = time.perf_counter()
            checked = guard(
                answer, commit, stand_in=lambda c=commit: rules.analyze_shielded(c, "en")
            )
            per_commit[commit.sha].append(time.perf_counter() - started)
            dropped += len(checked.dropped)
    best = sorted(min(times) * 1000 for times in per_commit.values())
    slowest = max(per_commit, key=lambda sha: min(per_commit[sha]))
    size = next(c for c in commits if c.sha == slowest)
    patch_kb = sum(len(f.patch or "") for f in size.files) / 1024
    print(
        f"{len(commits)} answers, mean {statistics.fmean(best):.3f} ms, "
        f"p50 {best[len(best) // 2]:.3f} ms, p99 {best[int(len(best) * 0.99)]:.3f} ms, "
        f"max {best[-1]:.3f} ms ({size.title[:50]!r}, {len(size.files)} files, "
        f"{patch_kb:.0f} KB of patches); claims dropped per answer "
        f"{dropped / (args.rounds * len(commits)):.2f}"
    )


if __name__ == "__main__":
    main()
