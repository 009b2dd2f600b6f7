"""The footer lines that say which analyser did what and what the day's LLM use cost."""

from __future__ import annotations

from bot.models import DigestUsage

_EN = {
    "choice": "Analyser choice: {parts}.",
    "choice_dropped": "Analyser choice: {parts}; unsupported claims dropped from the LLM's "
    "answers: {n}.",
    "llm": "LLM {n}",
    "sure": "rules, sure from the paths and title {n} ({kinds})",
    "verdict": "rules, verdict outside `llm.for` {n}",
    "reused": "reused from an identical diff {n}",
    "cap": "rules, `llm.max_commits_per_day` reached {n}",
    "budget": "rules, token budget spent {n}",
    "rules": "rules {n}",
    "excluded": "excluded {n}",
    "budget_note": "The day's LLM token budget was spent: the remaining {n} commits got the "
    "rules analysis.",
    "cap_note": "The day's LLM share (`llm.max_commits_per_day`) was reached: the remaining {n} "
    "commits got the rules analysis.",
    "tokens": "LLM tokens: {input} input ({cached} cached), {output} output",
    "cost": "; estimated cost {cost}",
    "sep": " · ",
    "end": ".",
}
_ZH = {
    "choice": "分析方式的选择：{parts}。",
    "choice_dropped": "分析方式的选择：{parts}；LLM 回答中因无依据而删除的说法：{n} 条。",
    "llm": "LLM {n}",
    "sure": "规则（依路径与标题确定）{n}（{kinds}）",
    "verdict": "规则（重要性不在 `llm.for` 中）{n}",
    "reused": "复用相同 diff 的分析 {n}",
    "cap": "规则（已达 `llm.max_commits_per_day`）{n}",
    "budget": "规则（token 预算已用完）{n}",
    "rules": "规则 {n}",
    "excluded": "已排除 {n}",
    "budget_note": "当天的 LLM token 预算已用完：其余 {n} 个提交使用规则分析。",
    "cap_note": "当天的 LLM 份额（`llm.max_commits_per_day`）已用完：其余 {n} 个提交使用规则分析。",
    "tokens": "LLM token：输入 {input}（缓存命中 {cached}），输出 {output}",
    "cost": "；估算费用 {cost}",
    "sep": " · ",
    "end": "。",
}
_ORDER = ("llm", "reused", "sure", "verdict", "cap", "budget", "rules", "excluded")
# Routes worth a line: without an LLM, "analysed by rules" already says it all.
_TELLING = frozenset({"llm", "reused", "sure", "verdict", "cap", "budget"})


def _cost(value: float) -> str:
    return f"{value:.4f}" if value < 100 else f"{value:,.2f}"


def usage_lines(usage: DigestUsage | None, language: str) -> list[str]:
    """Footer lines (without the list marker); none when the day had no LLM in play."""
    if usage is None:
        return []
    s = _ZH if language == "zh-CN" else _EN
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
            s[key].format(
                n=counts[key],
                kinds=", ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
            )
            for key in _ORDER
            if counts.get(key)
        ]
        key = "choice_dropped" if usage.dropped_claims else "choice"
        lines.append(s[key].format(parts=s["sep"].join(parts), n=usage.dropped_claims))
    if counts.get("budget"):
        lines.append(s["budget_note"].format(n=counts["budget"]))
    if counts.get("cap"):
        lines.append(s["cap_note"].format(n=counts["cap"]))
    if usage.input_tokens or usage.output_tokens:
        text = s["tokens"].format(
            input=f"{usage.input_tokens:,}",
            cached=f"{usage.cached_input_tokens:,}",
            output=f"{usage.output_tokens:,}",
        )
        if usage.cost is not None:
            text += s["cost"].format(cost=_cost(usage.cost))
        lines.append(text + s["end"])
    return lines
