"""How long each hostile config file takes to be refused (no network, no App).

    python -m bench.config_bombs [--rounds 5]

Each bomb of `tests/bombs.py` (nested anchors under a list field, deep nesting, huge
numbers, huge texts, many keys) is parsed by `parse_config`, as the App's `refresh_config`
does in its thread and the offline digest does; the figure is each bomb's slowest round, and
the one error line it gives.
"""

from __future__ import annotations

import argparse
import time

from bench import smoke
from bot.repo_config import ConfigError, parse_config
from tests.bombs import BOMBS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rounds = smoke.size(args.rounds, 1)
    bombs = smoke.size(BOMBS, BOMBS[:2])
    print(f"| bomb | bytes | slowest of {rounds} | error |")
    print("|---|---:|---:|---|")
    for name, text, _, _ in bombs:
        worst = 0.0
        message = ""
        for _ in range(rounds):
            started = time.perf_counter()
            try:
                parse_config(text)
            except ConfigError as exc:
                message = str(exc)
            worst = max(worst, time.perf_counter() - started)
        shown = message.removeprefix(".github/commit-digest.yml: ")
        print(f"| {name} | {len(text.encode()):,} | {worst * 1000:.1f} ms | {shown} |")


if __name__ == "__main__":
    main()
