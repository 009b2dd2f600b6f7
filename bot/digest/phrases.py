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
    fold_title: str  # {repo} {day}
    fold_intro: str  # {count} {max} {day}
    fold_more: str  # {count}
    reverted_note: str  # {sha}


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
    fold_title="More alerts — {repo} — {day}",
    fold_intro="More than {max} commits of {day} were analysed as breaking or of high importance. To keep notifications few, the ones past the first {max} are listed here, newest first ({count}).",
    fold_more="… and {count} more, in the daily digest.",
    reverted_note="reverted since by {sha}",
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
    fold_title="更多预警（{repo}，{day}）",
    fold_intro="{day} 有超过 {max} 个提交被分析为破坏性变更或高重要度。为减少通知，前 {max} 个之后的提交集中列在这里，最新的在前（{count} 个）。",
    fold_more="……以及另外 {count} 个，见每日报告。",
    reverted_note="此后已被 {sha} 回退",
)


def alert_phrases(language: str) -> AlertPhrases:
    return ALERT_ZH if language == "zh-CN" else ALERT_EN
