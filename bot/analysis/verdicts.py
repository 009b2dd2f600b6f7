"""The model's verdicts checked: its importance, `breaking` and change types stand only with a
fact (the rules' reading of the change) or the author's own words behind them; otherwise the
rules' verdict stands. A verdict may always say less than the rules (lower, not breaking).

The author's words are the commit message and the pull request's title and body as a reader
sees them (hidden text removed before: `shield.py`); a security type is never the model's own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.models import AnalysisBody, ChangeType, CommitInput, Importance

# What the author must say for a change type the rules did not find.
_TYPE_WORDS: dict[ChangeType, re.Pattern[str]] = {
    t: re.compile("|".join(words), re.IGNORECASE)
    for t, words in {
        ChangeType.FEATURE: (
            r"\b(?:add|support|introduc|new\b|enable|implement|feat)",
            "新增|支持",
        ),
        ChangeType.BUGFIX: (r"\b(?:fix|bug|crash|error|wrong|incorrect|hang|fail)", "修复|错误"),
        ChangeType.REFACTOR: (r"\b(?:refactor|clean|move|rename|simplif|tidy)", "重构|清理"),
        ChangeType.PERFORMANCE: (r"\b(?:perf|speed|fast|latency|throughput|optimi)", "性能|加速"),
        ChangeType.DOCS: (r"\b(?:doc|readme|typo)", "文档"),
        ChangeType.TESTS: (r"\btest", "测试"),
        ChangeType.CI: (r"\b(?:ci|workflow|pipeline|lint)\b",),
        ChangeType.BUILD: (r"\b(?:build|dependenc|bump|upgrade|requirement|cmake)", "依赖|构建"),
        ChangeType.CONFIG: (r"\b(?:config|default|option|setting)", "配置|默认"),
        ChangeType.DEPRECATION: (r"\b(?:deprecat|remov|drop|delet)", "弃用|移除|删除"),
        ChangeType.REVERT: (r"^\s*revert\b", "回退|撤销"),
        ChangeType.OTHER: ("",),
    }.items()
}
# The author's words for a change users must act on.
_BREAKING = re.compile(
    r"\bbreaking\b|backwards?[- ]incompatible|\bno longer\b|\bremoved?\b|\brenamed?\b"
    r"|\bmigrat|不兼容|破坏性|移除|不再",
    re.IGNORECASE,
)
# The author's words for a change that matters most: a wrong result, a crash, a hang.
_SEVERE = re.compile(
    r"\bbreaking\b|\bcrash|\bhang|deadlock|segfault|corrupt|data loss|wrong (?:result|output)"
    r"|incorrect (?:result|output)|silent|regression|out of memory|\bOOM\b|\bleak|critical"
    r"|崩溃|死锁|卡死|错误结果|精度|严重",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Checked:
    """The answer with its verdicts checked, and each verdict overruled (`importance:high`,
    `breaking`, `type:security`)."""

    body: AnalysisBody
    overruled: tuple[str, ...] = ()


def _words(commit: CommitInput) -> str:
    pr = commit.pull_request
    return "\n".join([commit.message, *((pr.title, pr.body) if pr is not None else ())])


def check_verdicts(body: AnalysisBody, commit: CommitInput, rules: AnalysisBody) -> Checked:
    """`body` with each verdict nothing supports replaced by the rules' (see the module)."""
    words = _words(commit)
    overruled: list[str] = []
    types = [
        t
        for t in body.change_types
        if t in rules.change_types
        or (t is not ChangeType.SECURITY and _TYPE_WORDS[t].search(words) is not None)
    ]
    overruled += [f"type:{t.value}" for t in body.change_types if t not in types]
    if not types:
        types = list(rules.change_types)
    breaking = body.breaking and (rules.breaking or _BREAKING.search(words) is not None)
    if body.breaking and not breaking:
        overruled.append("breaking")
    importance = body.importance
    if importance.rank < rules.importance.rank and not _raise_stands(body, breaking, words):
        overruled.append(f"importance:{importance.value}")
        importance = rules.importance
    if not overruled:
        return Checked(body)
    data = body.model_dump()
    data.update(change_types=types, breaking=breaking, importance=importance)
    return Checked(AnalysisBody.model_validate(data), tuple(overruled))


def _raise_stands(body: AnalysisBody, breaking: bool, words: str) -> bool:
    """Whether the model may rate above the rules: high with the author's words of a break or
    of a serious fault behind it; medium with a proven claim beyond the summary."""
    if body.importance is Importance.HIGH:
        return breaking or _SEVERE.search(words) is not None
    return bool(body.risks or (body.insights is not None and body.insights.any()))
