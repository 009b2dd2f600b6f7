"""Every fixed string of the digest, in English and Simplified Chinese."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.models import Audience, ChangeType, Importance


@dataclass(frozen=True)
class Strings:
    default_title: str
    summary: str  # {commits} {high} {medium} {low} {contributors}
    contributors: tuple[str, str]  # one, many ({count})
    not_analysed_count: str  # {count}
    table_time: str  # {zone}
    table_author: str
    table_commit: str
    table_importance: str
    not_analysed: str
    table_more: str  # {count}
    contents: str
    continued: str  # {sections}
    part: str  # {part} {total} {title}
    section: dict[Importance, str]  # {count}
    view_commit: str
    type_label: str
    importance_label: str
    breaking: str
    summary_label: str
    # the summary is the author's own text, not in the digest's language
    summary_original_label: str
    original_prefix: str
    impact_label: str
    files: tuple[str, str]  # one, many ({count})
    insights_label: str
    insight_names: dict[str, str]
    risks_label: str
    risk_columns: tuple[str, str, str]
    recommendations_label: str
    audiences: dict[Audience, str]
    importance_names: dict[Importance, str]
    change_types: dict[ChangeType, str]
    about: str
    analysed_by: str  # {parts}
    fallbacks: str  # {count} {reasons}
    not_analysed_list: str  # {count}
    not_analysed_more: str  # {count}
    excluded: str  # {count} {reasons}
    excluded_reasons: dict[str, str]
    config_error: str  # {error}
    late: str  # {cutoff}
    forced: str  # {count}
    truncated: str  # {count}
    times_in: str  # {zone} {cutoff}
    folded_low: str
    folded_medium: str
    folded_table: str  # {count}
    fallback_target: str  # {reason}
    addendum_title: str  # {count} {day}
    empty_day: str  # {day}
    no_title: str  # a commit whose message is empty
    generated_by: str
    separator: str
    colon: str


EN = Strings(
    default_title="Daily digest — {repo} — {date}",
    summary="**{commits} commits** · 🔴 {high} high · 🟡 {medium} medium · 🟢 {low} low · {contributors}",
    contributors=("1 contributor", "{count} contributors"),
    not_analysed_count=" · ⚪ {count} not analysed",
    table_time="Time ({zone})",
    table_author="Author",
    table_commit="Commit",
    table_importance="Importance",
    not_analysed="⚪ not analysed",
    table_more="… and {count} earlier commits, listed in their sections",
    contents="Contents",
    continued="Continued below: {sections}.",
    part="Part {part} of {total} — {title}",
    section={
        Importance.HIGH: "🔴 High importance ({count})",
        Importance.MEDIUM: "🟡 Medium importance ({count})",
        Importance.LOW: "🟢 Low importance ({count})",
    },
    view_commit="commit",
    type_label="🎯 Type",
    importance_label="⚡ Importance",
    breaking="⚠️ **breaking change**",
    summary_label="📋 Summary",
    summary_original_label="📋 Summary",
    original_prefix="",
    impact_label="🧭 Impact",
    files=("1 file", "{count} files"),
    insights_label="🔍 Insights",
    insight_names={
        "architecture": "Architecture",
        "performance": "Performance",
        "security": "Security",
        "compatibility": "Compatibility",
    },
    risks_label="⚠️ Risks",
    risk_columns=("Risk", "Consequence", "Mitigation"),
    recommendations_label="💡 Recommendations",
    audiences={
        Audience.DEVELOPERS: "Developers",
        Audience.MAINTAINERS: "Maintainers",
        Audience.USERS: "Users",
    },
    importance_names={Importance.HIGH: "high", Importance.MEDIUM: "medium", Importance.LOW: "low"},
    change_types={
        ChangeType.FEATURE: "feature",
        ChangeType.BUGFIX: "bug fix",
        ChangeType.REFACTOR: "refactor",
        ChangeType.PERFORMANCE: "performance",
        ChangeType.DOCS: "docs",
        ChangeType.TESTS: "tests",
        ChangeType.CI: "CI",
        ChangeType.BUILD: "build/dependencies",
        ChangeType.CONFIG: "config",
        ChangeType.DEPRECATION: "deprecation/removal",
        ChangeType.REVERT: "revert",
        ChangeType.SECURITY: "security",
        ChangeType.OTHER: "other",
    },
    about="About this digest",
    analysed_by="Analysed by {parts}.",
    fallbacks="{count} fell back to the rules: {reasons}.",
    not_analysed_list="Not analysed ({count}):",
    not_analysed_more="… and {count} more, listed in the table.",
    excluded="Left out by `.github/commit-digest.yml` ({count}): {reasons}.",
    excluded_reasons={"author": "by author", "paths": "by paths", "message": "by message"},
    config_error="`.github/commit-digest.yml` has an error, so the last valid settings stay in force: {error}",
    late="Published late: the App could not publish at the cutoff ({cutoff}).",
    forced="Force pushes to the tracked branch: {count}.",
    truncated="{count} commits of very large pushes are not listed.",
    times_in="Times are in {zone}; the day ends at {cutoff}.",
    folded_low="To fit GitHub's size limit, low-importance commits are listed by title only.",
    folded_medium="To fit GitHub's size limit, medium-importance commits are listed by title and summary only.",
    folded_table="The table lists high- and medium-importance commits; {count} low-importance commits are in their section.",
    fallback_target="Posted as an issue comment: {reason}",
    addendum_title="Addendum: {count} more commits of {day}, which arrived after this digest was posted",
    empty_day="No commits landed on {day}.",
    no_title="(no commit message)",
    generated_by="Generated by Commit Digest.",
    separator=", ",
    colon=": ",
)

ZH = Strings(
    default_title="每日更新报告（{date}）",
    summary="本日共 {commits} 个提交 | 🔴高 {high} | 🟡中 {medium} | 🟢低 {low} | {contributors}",
    contributors=("1 位贡献者", "{count} 位贡献者"),
    not_analysed_count=" | ⚪未分析 {count}",
    table_time="提交时间（{zone}）",
    table_author="作者",
    table_commit="提交信息",
    table_importance="重要程度",
    not_analysed="⚪ 未分析",
    table_more="……以及更早的 {count} 个提交，见各自章节",
    contents="📋 目录",
    continued="后续内容见下方评论：{sections}。",
    part="第 {part}/{total} 部分 — {title}",
    section={
        Importance.HIGH: "🔴 高重要度变更 ({count})",
        Importance.MEDIUM: "🟡 中重要度变更 ({count})",
        Importance.LOW: "🟢 低重要度变更 ({count})",
    },
    view_commit="查看提交",
    type_label="🎯 变更类型",
    importance_label="⚡ 重要程度",
    breaking="⚠️ **破坏性变更**",
    summary_label="📋 变更摘要",
    summary_original_label="📋 变更摘要（原文）",
    original_prefix="（原文）",
    impact_label="🧭 影响范围",
    files=("1 个文件", "{count} 个文件"),
    insights_label="🔍 技术洞察",
    insight_names={
        "architecture": "架构影响",
        "performance": "性能影响",
        "security": "安全考虑",
        "compatibility": "兼容性",
    },
    risks_label="⚠️ 潜在风险",
    risk_columns=("风险", "可能的后果", "缓解措施"),
    recommendations_label="💡 关注建议",
    audiences={
        Audience.DEVELOPERS: "开发者",
        Audience.MAINTAINERS: "维护者",
        Audience.USERS: "用户",
    },
    importance_names={Importance.HIGH: "高", Importance.MEDIUM: "中", Importance.LOW: "低"},
    change_types={
        ChangeType.FEATURE: "功能增强",
        ChangeType.BUGFIX: "Bug 修复",
        ChangeType.REFACTOR: "代码重构",
        ChangeType.PERFORMANCE: "性能优化",
        ChangeType.DOCS: "文档更新",
        ChangeType.TESTS: "测试修改",
        ChangeType.CI: "CI",
        ChangeType.BUILD: "构建/依赖",
        ChangeType.CONFIG: "配置调整",
        ChangeType.DEPRECATION: "弃用/移除",
        ChangeType.REVERT: "回退",
        ChangeType.SECURITY: "安全",
        ChangeType.OTHER: "其他",
    },
    about="关于本报告",
    analysed_by="分析方式：{parts}。",
    fallbacks="其中 {count} 个改用规则分析：{reasons}。",
    not_analysed_list="未分析的提交（{count}）：",
    not_analysed_more="……另有 {count} 个，见表格。",
    excluded="按 `.github/commit-digest.yml` 排除的提交（{count}）：{reasons}。",
    excluded_reasons={"author": "按作者", "paths": "按路径", "message": "按提交信息"},
    config_error="`.github/commit-digest.yml` 有错误，仍沿用上一次有效的配置：{error}",
    late="延迟发布：截止时间（{cutoff}）时未能发布。",
    forced="被跟踪分支上的强制推送：{count} 次。",
    truncated="超大推送中有 {count} 个提交未列出。",
    times_in="时间为 {zone} 时间；每日截止于 {cutoff}。",
    folded_low="为符合 GitHub 的长度限制，低重要度提交只列出标题。",
    folded_medium="为符合 GitHub 的长度限制，中重要度提交只列出标题和摘要。",
    folded_table="表格只列出高、中重要度提交；{count} 个低重要度提交见其章节。",
    fallback_target="以 issue 评论发布：{reason}",
    addendum_title="补充：{day} 的另外 {count} 个提交，在本报告发布后才到达",
    empty_day="{day} 没有新的提交。",
    no_title="（无提交信息）",
    generated_by="由 Commit Digest 生成。",
    separator="、",
    colon="：",
)


def plural(forms: tuple[str, str], count: int) -> str:
    return forms[0] if count == 1 else forms[1].format(count=count)


def strings(language: str) -> Strings:
    return ZH if language == "zh-CN" else EN


_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def is_original(text: str, language: str) -> bool:
    """Whether `text` is the author's own words, untranslated, in a Chinese post: the reader
    is told so (`原文`) instead of taking it for the App's Chinese."""
    return language == "zh-CN" and not _CJK.search(text)


def marked_original(text: str, language: str) -> str:
    """The text, after the original-text mark where it is the author's untranslated words."""
    return f"{strings(language).original_prefix}{text}" if is_original(text, language) else text
