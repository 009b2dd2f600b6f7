"""Agreement of the rules analyser with the labelled development set (titles only).

    python -m bench.eval_rules [--labels ../shared/eval/labels-dev.jsonl] [--show-disagreements]

The labels come from the batch job this App replaces (one LLM run that saw each diff); they
are noisy. Only titles are labelled, so the rules run without file lists here.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from bot.analysis.rules import analyze
from bot.models import ChangeType, CommitInput

ROOT = Path(__file__).resolve().parents[1]

# The eval README's mapping of the old job's free-text types.
_RAW_TYPES = [
    ("功能增强", ChangeType.FEATURE),
    ("代码重构", ChangeType.REFACTOR),
    ("重构", ChangeType.REFACTOR),
    ("代码清理", ChangeType.REFACTOR),
    ("架构变更", ChangeType.REFACTOR),
    ("bug 修复", ChangeType.BUGFIX),
    ("bugfix", ChangeType.BUGFIX),
    ("性能优化", ChangeType.PERFORMANCE),
    ("文档更新", ChangeType.DOCS),
    ("测试修改", ChangeType.TESTS),
    ("配置调整", ChangeType.CONFIG),
    ("依赖升级", ChangeType.BUILD),
    ("功能移除", ChangeType.DEPRECATION),
    ("已弃用", ChangeType.DEPRECATION),
    ("回退", ChangeType.REVERT),
    ("功能回滚", ChangeType.REVERT),
    ("其他", ChangeType.OTHER),
]


def raw_types(raw: str | None) -> list[ChangeType]:
    if not raw:
        return []
    found: list[ChangeType] = []
    for part in re.split(r"[/／]", re.sub(r"[（(].*?[)）]", "", raw)):
        text = part.strip().lower()
        for key, kind in _RAW_TYPES:
            if text.startswith(key):
                found.append(kind)
                break
    return list(dict.fromkeys(found))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--labels", default=str(ROOT.parent / "shared/eval/labels-dev.jsonl"))
    parser.add_argument("--show-disagreements", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(line) for line in Path(args.labels).read_text().splitlines() if line]

    confusion: Counter[tuple[str, str]] = Counter()
    primary_hits = overlap_hits = typed = 0
    disagreements = []
    for row in rows:
        commit = CommitInput(sha=row["sha"], message=row["title"], files_known=False)
        result = analyze(commit)
        confusion[(row["importance"], result.importance.value)] += 1
        expected = raw_types(row.get("change_type_raw"))
        if expected:
            typed += 1
            primary_hits += result.change_types[0] is expected[0]
            overlap_hits += bool(set(result.change_types) & set(expected))
        if row["importance"] != result.importance.value:
            disagreements.append((row["importance"], result.importance.value, row["title"]))

    total = len(rows)
    agree = sum(n for (a, b), n in confusion.items() if a == b)
    print(f"commits: {total}")
    print(f"importance agreement: {agree}/{total} = {agree / total:.0%}")
    levels = ["high", "medium", "low"]
    print("\n| label \\ rules | " + " | ".join(levels) + " |")
    print("|---|" + "---:|" * len(levels))
    for label in levels:
        print(f"| {label} | " + " | ".join(str(confusion[(label, got)]) for got in levels) + " |")
    print(f"\nprimary change type agreement: {primary_hits}/{typed} = {primary_hits / typed:.0%}")
    print(
        f"change types overlap (any in common): {overlap_hits}/{typed} = {overlap_hits / typed:.0%}"
    )
    if args.show_disagreements:
        print()
        for label, got, title in disagreements:
            print(f"{label:>6} -> {got:<6} {title}")


if __name__ == "__main__":
    main()
