"""Fixed strings of the headline, the alerts and the weekly roll-up, in English and Chinese."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HeadlinePhrases:
    breaking: str
    reverted: str
    relanded: str
    reverted_by: str  # {revert}: who took it out
    earlier: str  # after a sha that landed before the day
    after_revert: str  # {revert}
    fixed_by: str  # {fixes}
    # Marks beside a commit in the table and in its section.
    mark_reverted_by: str  # {sha}
    mark_reverts: str  # {sha}
    mark_reverts_earlier: str  # {sha}
    mark_relands: str  # {sha}
    mark_relanded_by: str  # {sha}
    mark_follows_up: str  # {sha}
    mark_fixed_by: str  # {sha}
    mark_alert: str  # {link}
    alert_label: str
    related_label: str


HEADLINE_EN = HeadlinePhrases(
    breaking="⚠️ **Breaking:** ",
    reverted="↩️ **Reverted:** ",
    relanded="🔁 **Relanded:** ",
    reverted_by="taken out by {revert}",
    earlier=" (landed earlier)",
    after_revert="after its revert {revert}",
    fixed_by="🩹 fixed by {fixes}",
    mark_reverted_by="↩️ reverted by {sha}",
    mark_reverts="↩️ reverts {sha}",
    mark_reverts_earlier="↩️ reverts {sha} (earlier)",
    mark_relands="🔁 relands what {sha} reverted",
    mark_relanded_by="🔁 relanded by {sha}",
    mark_follows_up="🩹 follow-up fix to {sha}",
    mark_fixed_by="🩹 fixed by {sha}",
    mark_alert="🚨 {link}",
    alert_label="alert",
    related_label="🔗 Related",
)

HEADLINE_ZH = HeadlinePhrases(
    breaking="⚠️ **破坏性变更**：",
    reverted="↩️ **已回退**：",
    relanded="🔁 **重新合入**：",
    reverted_by="由 {revert} 回退",
    earlier="（此前合入）",
    after_revert="此前被 {revert} 回退",
    fixed_by="🩹 后续修复：{fixes}",
    mark_reverted_by="↩️ 已被 {sha} 回退",
    mark_reverts="↩️ 回退了 {sha}",
    mark_reverts_earlier="↩️ 回退了此前的 {sha}",
    mark_relands="🔁 重新合入被 {sha} 回退的变更",
    mark_relanded_by="🔁 已由 {sha} 重新合入",
    mark_follows_up="🩹 修复 {sha} 引入的问题",
    mark_fixed_by="🩹 后续由 {sha} 修复",
    mark_alert="🚨 {link}",
    alert_label="预警",
    related_label="🔗 关联提交",
)


def headline_phrases(language: str) -> HeadlinePhrases:
    return HEADLINE_ZH if language == "zh-CN" else HEADLINE_EN


@dataclass(frozen=True)
class AlertPhrases:
    title_breaking: str  # {repo} {title}
    title_high: str  # {repo} {title}
    lead_breaking: str
    lead_high: str
    landed: str  # {time}
    pull_request: str  # {link}
    what_changed: str
    breaking_note: str
    whom: str
    areas: str  # {areas}
    audiences: str  # {audiences}
    what_to_do: str
    default_action: str
    footer: str  # {day}
    fold_footer: str  # {day}
    fold_title: str  # {repo} {day}
    fold_intro: str  # {count} {max} {day}
    fold_more: str  # {count}


ALERT_EN = AlertPhrases(
    title_breaking="⚠️ Breaking change in {repo}: {title}",
    title_high="🔴 High-importance change in {repo}: {title}",
    lead_breaking="⚠️ Breaking change",
    lead_high="🔴 High-importance change",
    landed="landed {time}",
    pull_request="pull request {link}",
    what_changed="What changed",
    breaking_note="This is a **breaking change**: something that worked before may need a change on your side.",
    whom="Whom it affects",
    areas="Areas: {areas}",
    audiences="Readers who should look: {audiences}",
    what_to_do="What to do",
    default_action="Read the commit and its pull request before you update; no specific action was identified.",
    footer="Posted by Commit Digest as soon as the commit was analysed; it is also in the daily digest of {day}.",
    fold_footer="Posted by Commit Digest and updated as more commits are analysed; they are all in the daily digest of {day}.",
    fold_title="More alerts — {repo} — {day}",
    fold_intro="On {day} more commits were analysed as breaking or of high importance than `alerts.max_per_day` ({max}) allows alerts for. To keep notifications few, the rest are listed here, newest first ({count}).",
    fold_more="… and {count} more, in the daily digest.",
)

ALERT_ZH = AlertPhrases(
    title_breaking="⚠️ {repo} 破坏性变更：{title}",
    title_high="🔴 {repo} 高重要度变更：{title}",
    lead_breaking="⚠️ 破坏性变更",
    lead_high="🔴 高重要度变更",
    landed="合入于 {time}",
    pull_request="PR {link}",
    what_changed="变更内容",
    breaking_note="这是一个**破坏性变更**：此前可用的用法可能需要你做相应修改。",
    whom="影响对象",
    areas="影响范围：{areas}",
    audiences="需要关注的读者：{audiences}",
    what_to_do="建议操作",
    default_action="更新前请阅读该提交及其 PR；分析未给出具体操作建议。",
    footer="由 Commit Digest 在提交分析完成后立即发布；该提交也会出现在 {day} 的每日报告中。",
    fold_footer="由 Commit Digest 发布，并随更多提交分析完成而更新；这些提交都会出现在 {day} 的每日报告中。",
    fold_title="更多预警（{repo}，{day}）",
    fold_intro="{day} 被分析为破坏性变更或高重要度的提交超过了 `alerts.max_per_day`（{max}）允许的预警数。为减少通知，其余的集中列在这里，最新的在前（{count} 个）。",
    fold_more="……以及另外 {count} 个，见每日报告。",
)


def alert_phrases(language: str) -> AlertPhrases:
    return ALERT_ZH if language == "zh-CN" else ALERT_EN


@dataclass(frozen=True)
class WeeklyPhrases:
    title: str  # {repo} {first} {last}
    summary: str  # {commits} {high} {breaking} {contributors}
    narrative: str
    narrative_by: str  # {analyzer}
    counts: str
    counts_columns: tuple[str, str, str, str]
    commits_row: str
    breaking_row: str
    not_analysed_row: str
    no_previous: str
    notable: str  # {count}
    notable_none: str
    notable_more: str  # {count}
    themes: str
    themes_columns: tuple[str, str]  # area, total
    other_areas: str
    heat_legend: str
    contributors: str  # {count}
    contributors_more: str  # {count}
    days: str
    day_commits: tuple[str, str]  # one, many ({count})
    day_quiet: str
    day_not_posted: str
    weekdays: tuple[str, ...]
    late: str  # {when}
    window: str  # {start} {end} {zone}
    empty_week: str  # {first} {last}
    generated_by: str


WEEKLY_EN = WeeklyPhrases(
    title="Weekly roll-up — {repo} — {first} to {last}",
    summary="**{commits} commits** this week · 🔴 {high} high · ⚠️ {breaking} breaking · {contributors}",
    narrative="The week in brief",
    narrative_by="Written by {analyzer} from the stored analyses.",
    counts="This week against the last",
    counts_columns=("", "This week", "Last week", "Change"),
    commits_row="Commits",
    breaking_row="⚠️ breaking",
    not_analysed_row="⚪ not analysed",
    no_previous="—",
    notable="🔴 High-importance and breaking changes ({count})",
    notable_none="None this week.",
    notable_more="… and {count} more, in the daily digests.",
    themes="Themes",
    themes_columns=("Area", "Week"),
    other_areas="other areas",
    heat_legend="Each cell: commits / changed lines. 🟥 busiest, 🟧 busy, 🟨 some, · none.",
    contributors="Contributors ({count})",
    contributors_more="and {count} more",
    days="Daily digests",
    day_commits=("1 commit", "{count} commits"),
    day_quiet="quiet day, no digest",
    day_not_posted="digest not posted",
    weekdays=("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
    late="Published late: the App could not publish at the weekly cutoff ({when}).",
    window="The week is {start} to {end} ({zone}); commits left out by `.github/commit-digest.yml` are not counted.",
    empty_week="No commits landed from {first} to {last}.",
    generated_by="Generated by Commit Digest from the stored analyses; no commit was analysed again.",
)

WEEKLY_ZH = WeeklyPhrases(
    title="每周汇总报告（{first} 至 {last}）",
    summary="本周共 {commits} 个提交 | 🔴高 {high} | ⚠️破坏性 {breaking} | {contributors}",
    narrative="本周综述",
    narrative_by="由 {analyzer} 根据已保存的分析撰写。",
    counts="与上周对比",
    counts_columns=("", "本周", "上周", "变化"),
    commits_row="提交数",
    breaking_row="⚠️ 破坏性",
    not_analysed_row="⚪ 未分析",
    no_previous="—",
    notable="🔴 高重要度与破坏性变更（{count}）",
    notable_none="本周没有。",
    notable_more="……以及另外 {count} 个，见每日报告。",
    themes="主题",
    themes_columns=("模块", "本周"),
    other_areas="其他模块",
    heat_legend="每格：提交数 / 变更行数。🟥 最多，🟧 较多，🟨 少量，· 无。",
    contributors="贡献者（{count}）",
    contributors_more="以及另外 {count} 位",
    days="每日报告",
    day_commits=("1 个提交", "{count} 个提交"),
    day_quiet="无提交，未发布",
    day_not_posted="报告未发布",
    weekdays=("周一", "周二", "周三", "周四", "周五", "周六", "周日"),
    late="延迟发布：每周截止时间（{when}）时未能发布。",
    window="本周范围：{start} 至 {end}（{zone}）；按 `.github/commit-digest.yml` 排除的提交不计入。",
    empty_week="{first} 至 {last} 没有新的提交。",
    generated_by="由 Commit Digest 根据已保存的分析生成，未重新分析任何提交。",
)


def weekly_phrases(language: str) -> WeeklyPhrases:
    return WEEKLY_ZH if language == "zh-CN" else WEEKLY_EN
