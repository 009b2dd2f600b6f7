"""The App's replies to `/digest` commands, in English and Simplified Chinese. Pure.

Everything quoted from a comment, a commit or a config goes through `bot.digest.safety`, so a
reply pings nobody and references no issue; every reply opens with its hidden marker and stays
within GitHub's 65,536 characters.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.digest.command_syntax import Problem
from bot.digest.markers import command_marker
from bot.digest.markup import link
from bot.digest.render import BODY_LIMIT
from bot.digest.safety import code, inline
from bot.digest.strings import catalogue
from bot.models import Importance
from bot.repo_config import BASE, FILE, ConfigOrigin, RepoConfig, default_config

# Commits an ambiguous `explain` lists: enough to pick from; the rest are counted.
MAX_LISTED = 10
# The reply's text beyond its marker, kept under GitHub's limit with room for the marker.
_ROOM = BODY_LIMIT - 200
# A link to an issue or pull request, a comment in one included (`…/issues/1#issuecomment-2`):
# GitHub adds a cross-reference to that timeline for each reply holding one (FACTS.md
# §9), so a reply shows the address as code instead. A Discussion gets no such event.
_REFERENCING_LINK = re.compile(
    r"\[((?:\\.|[^\]\\])*)\]"
    r"\(((?i:https?://(?:www\.)?github\.com/[^/\s()]+/[^/\s()]+/(?:issues|pull)/\d+)[^\s()]*)\)"
)


@dataclass(frozen=True)
class _Texts:
    help_head: str
    help_lines: tuple[tuple[str, str], ...]  # (usage, what it does)
    help_who: str
    problems: dict[str, str]  # {quoted}
    denied: str
    limited: str  # {when} {repo} {person}
    rated: str  # {sha} {old} {new}
    rated_same: str  # {sha} {new}
    rated_posted: str  # {day}
    rated_not_posted: str  # {day}
    rated_late: str  # {day}
    rated_not_analysed: str
    rated_excluded: str
    rated_later: str  # {who} {new}
    not_analysed: str
    config_head: str
    config_sha: str  # {sha}
    config_no_file: str
    config_unrecorded: str
    config_error: str  # {error}
    config_error_no_file: str  # {error}
    config_rejected_sha: str  # {sha}
    source_file: str
    source_default: str
    config_base: str  # {base}
    config_extends: str  # {base}
    config_ignored: str  # {keys}
    config_items_left: str  # {n}
    config_fields_left: str  # {n}
    unknown_sha: str  # {what}
    unknown_on_github: str  # {what}
    unknown_pr: str  # {what}
    pr_not_merged: str  # {what}
    not_on_branch: str  # {what} {branches}
    not_on_checked: str  # {what} {branches}
    not_on_none: str  # {what}
    unchecked_patterns: str  # {patterns}
    unchecked_more: str  # {count}
    unchecked_and: str
    unchecked: str  # {parts}, after the sentence before (a space first in English)
    ambiguous: str  # {what} {count}
    ambiguous_pr: str  # {what} {count}
    ambiguous_more: str  # {count}
    excluded: str  # {what}
    waiting: str  # {what} {day}
    failed: str  # {what} {day}
    not_stored: str
    in_digest_posted: str  # {day}
    not_in_digest: str  # {day}
    late_for_digest: str  # {day} {link}
    in_alert: str
    preview_head: str  # {day}
    preview_more: str  # {parts}
    preview_empty: str  # {day}
    preview_cut: str
    preview_posted: str  # {day} {link}
    preview_future: str  # {day} {today} {zone}
    preview_before: str  # {day} {since}
    view: str


EN = _Texts(
    help_head="**`/digest` commands**: put one on the first line of a comment.",
    help_lines=(
        ("/digest help", "these commands"),
        (
            "/digest explain <sha-prefix | #PR>",
            "a commit's whole analysis, and which digest and alert hold it",
        ),
        (
            "/digest preview [YYYY-MM-DD]",
            "the day's digest so far (default: the digest being gathered now)",
        ),
        ("/digest config", "the config in force, field by field, and where each value came from"),
        (
            "/digest rate <sha-prefix> high|medium|low [reason]",
            "correct a commit's importance: digests, alerts and roll-ups show yours",
        ),
    ),
    help_who="People with write, maintain or admin permission on the repository may use them.",
    problems={
        "too_long": "That command is too long.",
        "unknown": "{quoted} is not a `/digest` command.",
        "arguments": "{quoted} was given the wrong arguments.",
        "sha": "{quoted} is neither a commit sha prefix (7 to 40 hex digits) nor a pull "
        "request (`#123`).",
        "rate_sha": "{quoted} is not a commit sha prefix (7 to 40 hex digits).",
        "importance": "{quoted} is not an importance: give high, medium or low.",
        "day": "{quoted} is not a day between 2005-01-01 and 2199-12-31 (YYYY-MM-DD).",
    },
    denied="Only people with write, maintain or admin permission on this repository can use "
    "`/digest` commands.",
    limited="Too many `/digest` commands in the last hour (at most {repo} a repository and "
    "{person} a person). Try again after {when}.",
    rated="Rated {sha}: {old} → {new}, rated by a maintainer.",
    rated_same="{sha} is rated {new} already: nothing to change.",
    rated_posted="The digest of {day} was posted: it will be edited to match.",
    rated_not_posted="The digest of {day} is not posted yet: it will show this rating.",
    rated_late=(
        "The digest of {day} was posted before this commit came: the addendum that adds it "
        "will show this rating."
    ),
    rated_not_analysed="The commit is not analysed yet: its analysis will show this rating.",
    rated_excluded="`.github/commit-digest.yml` leaves this commit out of digests (`exclude`): "
    "the rating is stored (`eval --corrections` exports it) but shows in no digest.",
    rated_later="A later rating by {who} ({new}) now stands.",
    not_analysed="not analysed",
    config_head="**The config in force**",
    config_sha="From `.github/commit-digest.yml` at blob {sha}.",
    config_unrecorded="From an earlier version of `.github/commit-digest.yml`, whose blob "
    "was not recorded.",
    config_no_file="No valid `.github/commit-digest.yml` has been read: "
    "every value is the default.",
    config_error="The file's last version was rejected, so the last good config stays in force: "
    "{error}",
    config_error_no_file="The file was rejected, so the defaults are in force: {error}",
    config_rejected_sha="The rejected version is blob {sha}.",
    source_file="file",
    source_default="default",
    config_base="From the organisation's defaults: `.github/commit-digest.yml` in {base} "
    "(this repository has no file of its own).",
    config_extends="It starts from `.github/commit-digest.yml` in {base} (`_extends`); "
    "the values marked {base} come from there.",
    config_ignored="Unknown keys, ignored (the file's other keys apply): {keys}",
    config_items_left="— {n} more item(s) not shown: too long for one comment.",
    config_fields_left="…and {n} more field(s) not shown: too long for one comment.",
    unknown_sha="No commit starting with {what} is stored for this repository.",
    unknown_on_github="No commit starting with {what} is in this repository on GitHub, or more "
    "than one is: check the sha, or give more of it.",
    unknown_pr="{what} is not a pull request of this repository.",
    pr_not_merged="Pull request {what} is not merged: only what lands on the tracked branch is "
    "analysed.",
    not_on_branch="{what} is not on the tracked branch ({branches}): the App digests only what "
    "lands there.",
    not_on_checked="{what} is not on the tracked branches checked ({branches}).",
    not_on_none="{what} was checked against no branch: `branches` names none.",
    unchecked_patterns="Branches matched by a pattern ({patterns})",
    unchecked_more="{count} more tracked branch(es)",
    unchecked_and=" and ",
    unchecked=" {parts} were not checked: it may still be digested from one of them.",
    ambiguous="{what} matches {count} stored commits: give more of the sha.",
    ambiguous_pr="{what} matches {count} stored commits: ask again with one of their shas.",
    ambiguous_more="…and {count} more.",
    excluded="{what} is left out of the digests by `.github/commit-digest.yml` (its `exclude` "
    "rules): no digest, alert or roll-up shows it, so it has no analysis to explain.",
    waiting="{what} is waiting to be analysed: ask again in a few minutes. The digest of {day} "
    "will show it.",
    failed="The analysis of {what} failed: the digest of {day} shows it analysed by the rules "
    "from its message instead.",
    not_stored="It is in no digest: the App had not stored it (it landed before the App was "
    "installed, or in a push the App did not receive). Analysed now, on request.",
    in_digest_posted="It is in the {link} of {day}.",
    not_in_digest="It belongs to the digest of {day}, not posted yet.",
    late_for_digest="It came after the {link} of {day} was posted: an addendum adds it.",
    in_alert="It has an {link}.",
    preview_head="**Preview** of the digest of {day} so far: not posted, and not the day's post.",
    preview_more="…and {parts} more part(s) of the day: too long for one comment.",
    preview_empty="No commit has landed on the digest day {day} so far.",
    preview_cut="…and more of this part: too long for one comment.",
    preview_posted="The digest of {day} is posted already: {link}. A preview is of a day not "
    "posted yet.",
    preview_future=(
        "{day} is after the digest being gathered now (the digest of {today}, in {zone}): "
        "there is nothing to preview yet."
    ),
    preview_before="Nothing is stored for {day}: the App has followed this repository since "
    "{since}.",
    view="view",
)

ZH = _Texts(
    help_head="**`/digest` 命令**：写在评论的第一行。",
    help_lines=(
        ("/digest help", "列出这些命令"),
        ("/digest explain <sha-prefix | #PR>", "某个提交的完整分析，以及收录它的日报和提醒"),
        ("/digest preview [YYYY-MM-DD]", "当天到目前为止的日报（默认：当前正在汇集的日报）"),
        ("/digest config", "当前生效的配置，逐项列出及每个值的来源"),
        (
            "/digest rate <sha-prefix> high|medium|low [reason]",
            "更正提交的重要程度：日报、提醒和周报都按你的评定显示",
        ),
    ),
    help_who="仓库的 write、maintain 或 admin 权限成员可以使用。",
    problems={
        "too_long": "命令过长。",
        "unknown": "{quoted} 不是 `/digest` 命令。",
        "arguments": "{quoted} 的参数不正确。",
        "sha": "{quoted} 既不是提交 sha 前缀（7 到 40 位十六进制），也不是拉取请求（`#123`）。",
        "rate_sha": "{quoted} 不是提交 sha 前缀（7 到 40 位十六进制）。",
        "importance": "{quoted} 不是重要程度：请给出 high、medium 或 low。",
        "day": "{quoted} 不是 2005-01-01 到 2199-12-31 之间的日期（YYYY-MM-DD）。",
    },
    denied="只有对本仓库有 write、maintain 或 admin 权限的成员可以使用 `/digest` 命令。",
    limited="过去一小时内的 `/digest` 命令过多（每个仓库最多 {repo} 条，每人最多 {person} 条）。"
    "请在 {when} 之后再试。",
    rated="已评定 {sha}：{old} → {new}，由维护者评定。",
    rated_same="{sha} 已经评定为{new}：无需更改。",
    rated_posted="{day} 的日报已发布：将被编辑以反映此评定。",
    rated_not_posted="{day} 的日报尚未发布：发布时将显示此评定。",
    rated_late="{day} 的日报在此提交到来之前已发布：补充它的追加内容将显示此评定。",
    rated_not_analysed="该提交尚未分析：分析完成后将显示此评定。",
    rated_excluded="`.github/commit-digest.yml` 将该提交排除在日报之外（`exclude`）："
    "此评定已保存（`eval --corrections` 会导出），但不会显示在任何日报中。",
    rated_later="之后 {who} 的评定（{new}）现为准。",
    not_analysed="未分析",
    config_head="**当前生效的配置**",
    config_sha="来自 `.github/commit-digest.yml`，blob {sha}。",
    config_unrecorded="来自 `.github/commit-digest.yml` 的较早版本，其 blob 未被记录。",
    config_no_file="尚未读取到有效的 `.github/commit-digest.yml`：所有值均为默认值。",
    config_error="该文件的最新版本被拒绝，仍沿用上一个有效配置：{error}",
    config_error_no_file="该文件被拒绝，因此使用默认值：{error}",
    config_rejected_sha="被拒绝的版本是 blob {sha}。",
    source_file="文件",
    source_default="默认",
    config_base="来自组织的默认配置：{base} 中的 `.github/commit-digest.yml`"
    "（本仓库没有自己的文件）。",
    config_extends="它以 {base} 中的 `.github/commit-digest.yml` 为基础（`_extends`）；"
    "标为 {base} 的值来自那里。",
    config_ignored="未知的键，已忽略（文件中的其他键照常生效）：{keys}",
    config_items_left="—— 另有 {n} 项未显示：超出一条评论的长度。",
    config_fields_left="……另有 {n} 个字段未显示：超出一条评论的长度。",
    unknown_sha="本仓库没有以 {what} 开头的已存储提交。",
    unknown_on_github="GitHub 上本仓库没有以 {what} 开头的提交，或者不止一个："
    "请检查 sha，或给出更长的 sha。",
    unknown_pr="{what} 不是本仓库的拉取请求。",
    pr_not_merged="拉取请求 {what} 尚未合并：只有进入跟踪分支的提交才会被分析。",
    not_on_branch="{what} 不在跟踪的分支（{branches}）上：日报只收录进入这些分支的提交。",
    not_on_checked="{what} 不在已检查的跟踪分支（{branches}）上。",
    not_on_none="没有可供检查 {what} 的分支：`branches` 未列出分支名。",
    unchecked_patterns="匹配模式（{patterns}）的分支",
    unchecked_more="另外 {count} 个跟踪的分支",
    unchecked_and="和",
    unchecked="{parts}未被检查：它仍可能通过其中的分支进入日报。",
    ambiguous="{what} 匹配 {count} 个已存储提交：请给出更长的 sha。",
    ambiguous_pr="{what} 匹配 {count} 个已存储提交：请用其中一个 sha 再问一次。",
    ambiguous_more="……还有 {count} 个。",
    excluded="{what} 被 `.github/commit-digest.yml` 的 `exclude` 规则排除在日报之外："
    "日报、提醒和周报都不显示它，因此没有可解释的分析。",
    waiting="{what} 正在等待分析：请过几分钟再问。{day} 的日报将收录它。",
    failed="{what} 的分析失败：{day} 的日报改为显示规则根据其提交说明所做的分析。",
    not_stored="它不在任何日报中：本应用没有存储它（它在安装本应用之前落地，或来自本应用未收到的推送）。"
    "此分析是应请求现做的。",
    in_digest_posted="收录于 {day} 的{link}。",
    not_in_digest="属于 {day} 的日报，尚未发布。",
    late_for_digest="它在 {day} 的{link}发布之后才到来：将以追加内容补入。",
    in_alert="已发送{link}。",
    preview_head="{day} 日报到目前为止的**预览**：未发布，也不算当天的日报。",
    preview_more="……当天还有 {parts} 个部分：超出一条评论的长度。",
    preview_empty="{day} 这一天到目前为止没有提交。",
    preview_cut="……本部分还有更多内容：超出一条评论的长度。",
    preview_posted="{day} 的日报已经发布：{link}。预览只用于尚未发布的日子。",
    preview_future=(
        "{day} 晚于当前正在汇集的日报（{zone} 时区 {today} 的日报）：还没有可预览的内容。"
    ),
    preview_before="没有 {day} 的记录：本应用从 {since} 起才关注这个仓库。",
    view="查看",
)

_DIGEST_WORD = {"en": "digest", "zh-CN": "日报"}
_ALERT_WORD = {"en": "alert", "zh-CN": "提醒"}


def _texts(language: str) -> _Texts:
    return ZH if language == "zh-CN" else EN


def finish(repo: str, comment_id: int, text: str) -> str:
    """The reply's body: its marker, then the text, cut (visibly) to GitHub's limit; a link
    to an issue or pull request shows its address as code, which references nothing."""
    text = _REFERENCING_LINK.sub(lambda m: f"{m[1]} ({code(m[2])})", text)
    if len(text) > _ROOM:
        text = text[: _ROOM - 1].rsplit("\n", 1)[0] + "\n\n…"
    return f"{command_marker(repo, comment_id)}\n{text}"


def help_text(language: str, problem: Problem | None = None) -> str:
    t = _texts(language)
    lines = []
    if problem is not None:
        quoted = code(problem.quoted) if problem.quoted else ""
        lines += [t.problems[problem.key].format(quoted=quoted), ""]
    lines += [t.help_head, ""]
    lines += [f"- {code(usage)}: {what}" for usage, what in t.help_lines]
    lines += ["", t.help_who]
    return "\n".join(lines)


def denied_text(language: str) -> str:
    return _texts(language).denied


def limited_text(
    language: str,
    retry_at: datetime,
    *,
    per_repository: int,
    per_person: int,
    timezone: str = "UTC",
) -> str:
    """When to try again: the first whole minute at or after `retry_at` (a command made at the
    minute shown is taken), in the repository's time zone."""
    past = retry_at - retry_at.replace(second=0, microsecond=0)
    at = retry_at + (timedelta(minutes=1) - past if past else timedelta())
    when = f"{at.astimezone(ZoneInfo(timezone)):%Y-%m-%d %H:%M} {timezone}"
    return _texts(language).limited.format(when=when, repo=per_repository, person=per_person)


def rated_text(
    language: str,
    sha: str,
    old: str | None,
    new: str,
    *,
    day: date,
    posted: bool,
    analysed: bool,
    excluded: bool = False,
    late: bool = False,
    later: tuple[str, str] | None = None,
) -> str:
    """A rate's confirmation: the importance before and now, and what becomes of the day's
    digest; `later`: (who, importance) of a later rate of the commit that now stands."""
    t = _texts(language)
    names = catalogue(language).digest.importance_names
    new_name = f"**{names[Importance(new)]}**"
    changed = old != new
    paragraphs: list[str] = []
    if changed:
        old_name = f"**{names[Importance(old)]}**" if old else t.not_analysed
        paragraphs.append(t.rated.format(sha=code(sha[:12]), old=old_name, new=new_name))
    elif later is None:  # overruled since, a confirmation is no longer "already" true
        paragraphs.append(t.rated_same.format(sha=code(sha[:12]), new=new_name))
    if excluded:
        paragraphs.append(t.rated_excluded)
    elif changed and later is None:  # what becomes of the digest is a later rating's to say
        if not analysed:
            paragraphs.append(t.rated_not_analysed)
        elif posted:
            paragraphs.append(t.rated_posted.format(day=day.isoformat()))
        elif late:
            paragraphs.append(t.rated_late.format(day=day.isoformat()))
        else:
            paragraphs.append(t.rated_not_posted.format(day=day.isoformat()))
    if later is not None:
        who, importance = later
        later_name = f"**{names[Importance(importance)]}**"
        paragraphs.append(t.rated_later.format(who=code(who), new=later_name))
    return "\n\n".join(paragraphs)


@dataclass(frozen=True)
class ConfigField:
    key: str  # dotted: `publish.to`
    value: object
    from_file: bool
    # The repository whose file (the org's defaults, or `_extends`) set the value.
    from_base: str | None = None


def config_fields(
    config: RepoConfig, default_language: str, origin: ConfigOrigin | None = None
) -> list[ConfigField]:
    """The config field by field (nested keys dotted), each marked with the file that set
    it, as recorded in `origin`; a config put in force before origins were recorded marks
    as the file's each value that differs from the default."""
    values = _flat(config.model_dump(mode="json", by_alias=True))
    if origin is None:
        default = _flat(default_config(default_language).model_dump(mode="json", by_alias=True))
        return [ConfigField(k, v, from_file=v != default.get(k)) for k, v in values.items()]
    fields = []
    for key, value in values.items():
        layer = origin.source_of(key)
        base = origin.base if layer == BASE else None
        fields.append(ConfigField(key, value, from_file=layer == FILE, from_base=base))
    return fields


def _flat(values: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, dict) and value:
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def config_text(
    language: str,
    fields: Sequence[ConfigField],
    *,
    sha: str | None,
    error: str | None,
    rejected_sha: str | None = None,
    room: int = _ROOM,
    origin: ConfigOrigin | None = None,
) -> str:
    """The config field by field, within `room` characters: the blob sha the values came
    from (or that it was not recorded) and the last error (with the rejected file's blob)
    are always said; a list too long to show ends after a whole item and counts the items
    left out, so every field after it still fits (the fields left out past that, counted)."""
    t = _texts(language)
    rejected = t.config_error
    base = code(origin.base) if origin and origin.base else None
    if sha:
        source = t.config_sha.format(sha=code(sha))
        if base:
            source += " " + t.config_extends.format(base=base)
    elif base:
        source = t.config_base.format(base=base)
    elif any(f.from_file for f in fields):  # in force before its blob was kept (0015)
        source = t.config_unrecorded
    else:
        source, rejected = t.config_no_file, t.config_error_no_file  # no good config ever
    head = [t.config_head, "", source, ""]
    if origin and origin.ignored:
        # Each key is short (the file's own spelling, bounded by the file's size).
        keys = ", ".join(origin.ignored[:20])
        head += [t.config_ignored.format(keys=inline(keys[:1000])), ""]
    tail = ["", rejected.format(error=code(error))] if error else []
    if error and rejected_sha:
        tail.append(t.config_rejected_sha.format(sha=code(rejected_sha)))
    # Room for the fields, with a line left for the count of fields not shown.
    budget = room - sum(len(line) + 1 for line in head + tail) - 200
    # What each field takes at least (a list none of whose items are shown), kept for the
    # fields after a long list when all of them can fit.
    least = [len(_field_line(t, f, shown=0)) + 1 for f in fields]
    if sum(least) > budget:
        least = [0] * len(fields)
    lines: list[str] = []
    for i, f in enumerate(fields):
        spare = budget - sum(least[i + 1 :])
        line = _field_line(t, f)
        if len(line) + 1 > spare and isinstance(f.value, list):
            line = _field_line(t, f, shown=_items_fitting(t, f, spare))
        if len(line) + 1 > spare:
            lines.append(t.config_fields_left.format(n=len(fields) - i))
            break
        lines.append(line)
        budget -= len(line) + 1
    return "\n".join(head + lines + tail)


def _field_line(t: _Texts, f: ConfigField, *, shown: int | None = None) -> str:
    """`- key: value (source)`; a list with only its first `shown` items ends in `…`, and
    says how many were left out."""
    source = (
        code(f.from_base) if f.from_base else t.source_file if f.from_file else t.source_default
    )
    if shown is None or not isinstance(f.value, list) or shown >= len(f.value):
        return f"- {code(f.key)}: {code(json.dumps(f.value, ensure_ascii=False))} ({source})"
    items = json.dumps(f.value[:shown], ensure_ascii=False)[1:-1]
    value = f"[{items}, …]" if items else "[…]"
    left = t.config_items_left.format(n=len(f.value) - shown)
    return f"- {code(f.key)}: {code(value)} ({source}) {left}"


def _items_fitting(t: _Texts, f: ConfigField, room: int) -> int:
    """How many of a list field's items its line can show within `room` (at least none)."""
    assert isinstance(f.value, list)
    shown = 0
    while shown < len(f.value) and len(_field_line(t, f, shown=shown + 1)) + 1 <= room:
        shown += 1
    return shown


def unknown_text(language: str, *, sha: str | None, pr: int | None, on_github: bool = False) -> str:
    """Nothing found: among the stored commits, or (`on_github`) on GitHub as well."""
    t = _texts(language)
    if pr is not None:
        return t.unknown_pr.format(what=code(f"#{pr}"))
    return (t.unknown_on_github if on_github else t.unknown_sha).format(what=code(sha or ""))


def not_merged_text(language: str, pr: int) -> str:
    return _texts(language).pr_not_merged.format(what=code(f"#{pr}"))


def not_on_branch_text(
    language: str,
    sha: str,
    branches: Sequence[str],
    *,
    patterns: Sequence[str] = (),
    more: int = 0,
) -> str:
    """A commit on none of the tracked `branches` checked; `patterns` (globs) and `more`
    literal names were not checked, so the commit may still be digested: said, not denied."""
    t = _texts(language)
    what, shown = code(sha[:12]), ", ".join(code(b) for b in branches)
    parts = [t.unchecked_patterns.format(patterns=", ".join(code(p) for p in patterns))]
    parts = (parts if patterns else []) + ([t.unchecked_more.format(count=more)] if more else [])
    if not parts:
        return t.not_on_branch.format(what=what, branches=shown or "—")
    head = t.not_on_checked.format(what=what, branches=shown) if branches else None
    head = head or t.not_on_none.format(what=what)
    return f"{head}{t.unchecked.format(parts=t.unchecked_and.join(parts))}"


def ambiguous_text(
    language: str, what: str, count: int, commits: Sequence[tuple[str, str]] = ()
) -> str:
    """The prefix (or `#PR`) matches several stored commits: the first `MAX_LISTED` of
    `commits` (sha, title), titles made safe, so the asker can pick one."""
    t = _texts(language)
    head = t.ambiguous_pr if what.startswith("#") else t.ambiguous
    lines = [head.format(what=code(what), count=count)]
    if commits:
        lines.append("")
        lines += [f"- {code(sha[:12])} {inline(title)}" for sha, title in commits[:MAX_LISTED]]
        if count > MAX_LISTED:
            lines.append(t.ambiguous_more.format(count=count - MAX_LISTED))
    return "\n".join(lines)


def pending_text(language: str, sha: str, state: str, *, day: date) -> str:
    """Why a stored commit has no analysis to show, and what happens next: `state` is
    `excluded` (by the config), `failed`, or anything else (waiting)."""
    t = _texts(language)
    what = code(sha[:12])
    if state == "excluded":
        return t.excluded.format(what=what)
    text = t.failed if state == "failed" else t.waiting
    return text.format(what=what, day=day.isoformat())


def explain_text(
    language: str,
    section: str,
    *,
    day: date,
    digest_url: str | None,
    alert_url: str | None,
    late: bool = False,
) -> str:
    """A commit's section as its digest shows it, then where it was posted (`late`: the
    digest at `digest_url` was posted before the commit came; an addendum adds it)."""
    t = _texts(language)
    if digest_url:
        said = t.late_for_digest if late else t.in_digest_posted
        where = said.format(day=day.isoformat(), link=link(_DIGEST_WORD[language], digest_url))
    else:
        where = t.not_in_digest.format(day=day.isoformat())
    lines = [section, "", "---", "", where]
    if alert_url:
        lines.append(t.in_alert.format(link=link(_ALERT_WORD[language], alert_url)))
    return "\n".join(lines)


def explained_now_text(language: str, section: str) -> str:
    """A commit the App never stored, analysed on request: its section, and why no digest
    holds it."""
    return "\n".join([section, "", "---", "", _texts(language).not_stored])


def preview_text(language: str, day: date, first_part: str | None, *, more_parts: int) -> str:
    """The day's first post as it would be now, marked as a preview; what did not fit, counted."""
    t = _texts(language)
    head = t.preview_head.format(day=day.isoformat())
    if first_part is None:
        return f"{head}\n\n{t.preview_empty.format(day=day.isoformat())}"
    first_part = first_part.strip("\n")
    tail = "\n\n" + t.preview_more.format(parts=more_parts) if more_parts else ""
    room = _ROOM - len(head) - len(tail) - 200
    if len(first_part) > room:
        # Cut before a heading, so no commit's section is split (or between blocks when no
        # heading is near: never inside a table row or a line).
        shown = first_part[:room]
        heading = shown.rfind("\n\n#")
        first_part = shown[:heading] if heading > 0 else shown.rsplit("\n\n", 1)[0]
        tail = "\n\n" + t.preview_cut + tail
    return f"{head}\n\n---\n\n{first_part}{tail}"


def preview_posted_text(language: str, day: date, url: str) -> str:
    """A preview asked of a day already posted: where its digest is."""
    return _texts(language).preview_posted.format(
        day=day.isoformat(), link=link(_DIGEST_WORD[language], url)
    )


def preview_future_text(language: str, day: date, today: date, zone: str) -> str:
    return _texts(language).preview_future.format(
        day=day.isoformat(), today=today.isoformat(), zone=zone
    )


def preview_before_text(language: str, day: date, since: date) -> str:
    """A preview asked of a day before the App followed the repository (nothing stored)."""
    return _texts(language).preview_before.format(day=day.isoformat(), since=since.isoformat())
