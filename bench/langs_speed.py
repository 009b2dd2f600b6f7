"""The parse cost of one side of a Rust, Go, JavaScript or TypeScript file: tree-sitter's
parse and the walk into a symbol table, on every such file of clones (no network).

    python -m bench.langs_speed --git PATH [--git PATH …] [--rounds 3]

Every file of each clone's HEAD in one of these languages, within the bounds of
`bot/analysis/sources.py`, is read into a `Side` as `whole.py` reads one revision; the
figure is each file's best round, by language, with the time per 1,000 lines and the share of
it that is tree-sitter's parse alone.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from bot.analysis.facts.scan import Side
from bot.analysis.facts.sitter import parse
from bot.analysis.facts.trees import grammar_of, side_reader
from bot.analysis.paths import Language, language_of
from bot.analysis.sources import MAX_SOURCE_BYTES
from bot.cli.clone import git

_LANGUAGES = (Language.RUST, Language.GO, Language.JAVASCRIPT, Language.TYPESCRIPT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--git", action="append", required=True, help="a clone, bare or not")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    files: dict[Language, list[tuple[str, str]]] = {language: [] for language in _LANGUAGES}
    for clone in map(Path, args.git):
        for path in git(clone, "ls-tree", "-r", "--name-only", "HEAD").splitlines():
            language = language_of(path)
            if language not in files or path.endswith(".min.js"):
                continue
            text = git(clone, "show", f"HEAD:{path}")
            if len(text.encode()) <= MAX_SOURCE_BYTES:
                files[language].append((path, text))
    for language, texts in files.items():
        if not texts:
            print(f"{language.value}: no files")
            continue
        best: list[tuple[float, int, str]] = []
        parsed = 0.0
        for path, text in texts:
            read = side_reader(language, path, tests="test" in path)
            read(text, Side())  # warm up: the parser, the queries
            times = []
            for _ in range(args.rounds):
                started = time.perf_counter()
                read(text, Side())
                times.append(time.perf_counter() - started)
            best.append((min(times) * 1000, text.count("\n") + 1, path))
            grammar, parses = grammar_of(language, path), []
            for _ in range(args.rounds):
                started = time.perf_counter()
                parse(text, grammar)
                parses.append(time.perf_counter() - started)
            parsed += min(parses) * 1000
        best.sort()
        ms = [b[0] for b in best]
        lines = sum(b[1] for b in best)
        print(
            f"{language.value}: {len(best)} files, {lines} lines; per file p50 "
            f"{ms[len(ms) // 2]:.2f} ms, p90 {ms[int(len(ms) * 0.9)]:.2f} ms, max {ms[-1]:.2f} ms "
            f"({best[-1][2]}, {best[-1][1]} lines); {sum(ms) / lines * 1000:.2f} ms per 1,000 "
            f"lines (tree-sitter's parse alone {parsed / lines * 1000:.2f}); mean "
            f"{statistics.fmean(ms):.2f} ms"
        )


if __name__ == "__main__":
    main()
