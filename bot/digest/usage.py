"""The footer lines that say which analyser did what and what the day's LLM use cost."""

from __future__ import annotations

from bot.digest.strings import catalogue
from bot.models import DigestUsage

_ORDER = ("llm", "reused", "sure", "verdict", "cap", "budget", "rules", "excluded")
# Routes worth a line: without an LLM, "analysed by rules" already says it all.
_TELLING = frozenset({"llm", "reused", "sure", "verdict", "cap", "budget"})


def _cost(value: float) -> str:
    return f"{value:.4f}" if value < 100 else f"{value:,.2f}"


def usage_lines(usage: DigestUsage | None, language: str) -> list[str]:
    """Footer lines (without the list marker); none when the day had no LLM in play."""
    if usage is None:
        return []
    s = catalogue(language).usage
    counts: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for route, n in usage.routes.items():
        head, _, detail = route.partition(":")
        counts[head] = counts.get(head, 0) + n
        if head == "sure" and detail:
            kinds[detail] = kinds.get(detail, 0) + n
    lines: list[str] = []
    if _TELLING.intersection(counts):
        parts = [
            s.routes[key].format(
                n=counts[key],
                kinds=", ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
            )
            for key in _ORDER
            if counts.get(key)
        ]
        choice = s.choice_dropped if usage.dropped_claims else s.choice
        lines.append(choice.format(parts=s.sep.join(parts), n=usage.dropped_claims))
    if counts.get("budget"):
        lines.append(s.budget_note.format(n=counts["budget"]))
    if counts.get("cap"):
        lines.append(s.cap_note.format(n=counts["cap"]))
    if usage.input_tokens or usage.output_tokens:
        text = s.tokens.format(
            input=f"{usage.input_tokens:,}",
            cached=f"{usage.cached_input_tokens:,}",
            output=f"{usage.output_tokens:,}",
        )
        if usage.cost is not None:
            text += s.cost.format(cost=_cost(usage.cost))
        lines.append(text + s.end)
    return lines
