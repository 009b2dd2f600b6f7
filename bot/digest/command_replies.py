"""The App's replies to `/digest` commands, their strings from the catalogue. Pure.

GitHub refuses a comment over 65,536 characters, and a reply's link to an issue or pull request
adds a cross-reference to that issue's timeline (FACTS.md §9).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.analysis.spans import code
from bot.digest.command_syntax import Problem
from bot.digest.markers import command_marker
from bot.digest.markup import link
from bot.digest.render import BODY_LIMIT
from bot.digest.safety import inline
from bot.digest.strings import catalogue
from bot.digest.strings.shape import CommandPhrases
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


def _texts(language: str) -> CommandPhrases:
    return catalogue(language).command


def finish(repo: str, comment_id: int, text: str) -> str:
    """The reply's body: its marker, then the text, cut (visibly) to GitHub's limit; a link
    to an issue or pull request shows its address as code, which references nothing. What is
    quoted from a comment, a commit or a config goes through `bot.digest.safety` before it
    gets here, so a reply pings nobody."""
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
    elif any(f.from_file for f in fields):  # a config read from a file whose blob is unrecorded
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


def _field_line(t: CommandPhrases, f: ConfigField, *, shown: int | None = None) -> str:
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


def _items_fitting(t: CommandPhrases, f: ConfigField, room: int) -> int:
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
        where = said.format(day=day.isoformat(), link=link(t.digest_word, digest_url))
    else:
        where = t.not_in_digest.format(day=day.isoformat())
    lines = [section, "", "---", "", where]
    if alert_url:
        lines.append(t.in_alert.format(link=link(t.alert_word, alert_url)))
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
    t = _texts(language)
    return t.preview_posted.format(day=day.isoformat(), link=link(t.digest_word, url))


def preview_future_text(language: str, day: date, today: date, zone: str) -> str:
    return _texts(language).preview_future.format(
        day=day.isoformat(), today=today.isoformat(), zone=zone
    )


def preview_before_text(language: str, day: date, since: date) -> str:
    """A preview asked of a day before the App followed the repository (nothing stored)."""
    return _texts(language).preview_before.format(day=day.isoformat(), since=since.isoformat())
