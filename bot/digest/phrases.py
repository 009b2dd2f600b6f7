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
