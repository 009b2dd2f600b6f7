"""The week as a Mermaid `xychart-beta`: commits a day, stacked by importance, and the week
before as a line. Pure.

Mermaid's xychart has no stacked bars: bars of one category are drawn over each other in the
order given, so the totals go first and the high-importance counts last, each shorter bar
painted over the taller one, which reads as a stack. GitHub renders Mermaid in Discussions
and comments, not in its mails: the heat table stays beside the chart. Only counts and the
catalogue's own words go in, so no commit text can reach the chart's source.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date

from bot.analysis.rollup import Counts, Rollup
from bot.digest.strings.shape import WeeklyPhrases
from bot.models import Importance

# Drawn in this order: low (and not analysed) on top, then medium, then high at the bottom;
# the fourth colour is the week before's line.
PALETTE = "#2da44e, #d4a72c, #cf222e, #57606a"


def _quoted(text: str) -> str:
    # Mermaid strings cannot escape a double quote; the catalogue's words never hold one.
    return '"' + text.replace('"', "'") + '"'


def _numbers(values: Sequence[float]) -> str:
    return "[" + ", ".join(f"{v:g}" for v in values) + "]"


def _week_before(rollup: Rollup, days: int) -> list[float] | None:
    """The week before as a line: its commits a day, set against the same day of this week
    (a quiet weekend lines up with a quiet weekend); its daily average where only its total
    is known; None without a week before."""
    if rollup.previous_days is not None and len(rollup.previous_days) == days:
        return [float(n) for n in rollup.previous_days]
    if rollup.previous is not None:
        return [round(rollup.previous.commits / days, 1)] * days
    return None


def week_chart(rollup: Rollup, words: WeeklyPhrases, labels: Sequence[str]) -> str:
    """The Mermaid block of the week's commits a day (`labels`: one per day of the week)."""
    days: list[date] = list(rollup.week.days)
    counts = [rollup.by_day.get(d, Counts()) for d in days]
    high = [c.importance.get(Importance.HIGH, 0) for c in counts]
    medium = [h + c.importance.get(Importance.MEDIUM, 0) for h, c in zip(high, counts, strict=True)]
    total = [c.commits for c in counts]
    before = _week_before(rollup, len(days))
    top = max([*total, 1, *(before or [])])
    lines = [
        "```mermaid",
        "---",
        "config:",
        "  themeVariables:",
        "    xyChart:",
        f'      plotColorPalette: "{PALETTE}"',
        "---",
        "xychart-beta",
        f"  title {_quoted(words.chart_title)}",
        f"  x-axis [{', '.join(_quoted(label) for label in labels)}]",
        f"  y-axis {_quoted(words.chart_y)} 0 --> {math.ceil(top)}",
        f"  bar {_numbers(total)}",
        f"  bar {_numbers(medium)}",
        f"  bar {_numbers(high)}",
    ]
    if before is not None:
        lines.append(f"  line {_numbers(before)}")
    lines.append("```")
    return "\n".join(lines)
