"""Alert posts: one for a commit analysed as breaking or high, and the "more alerts" fold. Pure.

An alert says what broke or changed, whom it affects and what to do, and links the commit and
its pull request. Everything that comes from the commit or the analysis goes through
`bot.digest.safety`, so nobody is pinged and no other issue is referenced; the one reference
an alert makes on purpose is its link to the commit's own pull request. Titles stay within
GitHub's 256 characters and bodies within its 65,536 (FACTS.md §3).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from zoneinfo import ZoneInfo

from bot.analysis.titles import pr_number
from bot.digest.markers import alert_marker, fold_marker
from bot.digest.markup import link
from bot.digest.render import BODY_LIMIT
from bot.digest.safety import code, inline, plain_title
from bot.digest.strings import catalogue, marked_original
from bot.digest.strings.shape import plural
from bot.models import Analysis, DigestCommit

# GitHub refuses an issue title over 256 characters ("title is too long (maximum is 256
# characters)"); discussions are kept to the same.
TITLE_LIMIT = 256
_COMMIT_URL = re.compile(r"^(?P<repo>https?://.+)/commit/[0-9a-fA-F]{7,64}$")


@dataclass(frozen=True)
class AlertPost:
    key: str  # the post's key in the ledger: `alert-<sha>` or `alerts-more`
    title: str  # the discussion's title (an issue comment shows it as the first line)
    body: str


def fit_title(template: str, *, limit: int = TITLE_LIMIT, **fields: str) -> str:
    """`template` filled in, its `{title}` shortened at a word (with …) to fit `limit`."""
    title = " ".join(fields.pop("title", "").split())
    text = template.format(title=title, **fields)
    if len(text) <= limit:
        return text
    room = limit - len(template.format(title="", **fields)) - 1
    cut = title[: max(room, 0)]
    if " " in cut[1:]:
        cut = cut.rsplit(" ", 1)[0]
    return template.format(title=cut.rstrip() + "…", **fields)[:limit]


def pull_request_url(commit: DigestCommit) -> tuple[int, str] | None:
    """The pull request a commit landed through (its `(#N)` suffix), and that PR's page."""
    number = pr_number(commit.title)
    match = _COMMIT_URL.match(commit.url)
    if number is None or not match:
        return None
    return number, f"{match.group('repo')}/pull/{number}"


def _time(commit: DigestCommit, timezone: str) -> str:
    return commit.landed_at.astimezone(ZoneInfo(timezone)).strftime("%Y-%m-%d %H:%M %Z")


def _meta(commit: DigestCommit, *, repo: str, language: str, timezone: str) -> str:
    p = catalogue(language).alert
    pieces = [code(repo), link(code(commit.sha[:7]), commit.url), code(commit.author)]
    pr = pull_request_url(commit)
    if pr is not None:
        pieces.append(p.pull_request.format(link=link(code(f"#{pr[0]}"), pr[1])))
    pieces.append(p.landed.format(time=_time(commit, timezone)))
    return " · ".join(pieces)


def render_alert(
    commit: DigestCommit, *, repo: str, day: date, language: str, timezone: str = "UTC"
) -> AlertPost:
    """The alert for one analysed commit: what changed, whom it affects, what to do."""
    a = commit.analysis
    if a is None:
        raise ValueError("an alert needs the commit's analysis")
    p, s = catalogue(language).alert, catalogue(language).digest
    title = fit_title(
        p.title_breaking if a.breaking else p.title_high, repo=repo, title=plain_title(commit.title)
    )
    lead = p.lead_breaking if a.breaking else p.lead_high
    lines = [
        alert_marker(repo, commit.sha),
        f"## {lead}{s.colon}{inline(commit.title)}",
        "",
        _meta(commit, repo=repo, language=language, timezone=timezone),
        "",
        f"### {p.what_changed}",
        "",
        marked_original(inline(a.summary), language),
        "",
        f"- **{s.type_label}**{s.colon}{' / '.join(s.change_types[t] for t in a.change_types)}",
    ]
    if commit.rated:
        lines.append(
            f"- **{s.importance_label}**{s.colon}{s.importance_names[a.importance]} · *{s.rated}*"
        )
    if a.breaking:
        lines.append(f"- {p.breaking_note}")
    lines += ["", f"### {p.whom}", "", *_whom(a, language)]
    lines += ["", f"### {p.what_to_do}", "", *_actions(a, language)]
    lines += ["", "---", f"<sub>{p.footer.format(day=day.isoformat())}</sub>"]
    body = "\n".join(lines)
    if len(body) > BODY_LIMIT:  # every analysis field is bounded; this cannot happen
        raise ValueError("alert body over GitHub's limit")
    return AlertPost(f"alert-{commit.sha}", title, body)


def _whom(a: Analysis, language: str) -> list[str]:
    p, s = catalogue(language).alert, catalogue(language).digest
    out = []
    if a.impact:
        areas = s.separator.join(
            f"{code(i.area)} ({plural(s.files, i.files)})" if i.files else code(i.area)
            for i in a.impact
        )
        out.append(f"- {p.areas.format(areas=areas)}")
    audiences = list(dict.fromkeys(r.audience for r in a.recommendations))
    if audiences:
        names = s.separator.join(s.audiences[x] for x in audiences)
        out.append(f"- {p.audiences.format(audiences=names)}")
    for risk in a.risks:
        line = f"- {inline(risk.description)}"
        if risk.consequence:
            line += f" — {inline(risk.consequence)}"
        out.append(line)
    if a.insights is not None and a.insights.compatibility:
        out.append(
            f"- *{s.insight_names['compatibility']}*{s.colon}{inline(a.insights.compatibility)}"
        )
    return out or [f"- {p.areas.format(areas='—')}"]


def _actions(a: Analysis, language: str) -> list[str]:
    p, s = catalogue(language).alert, catalogue(language).digest
    out = [f"- *{s.audiences[r.audience]}*{s.colon}{inline(r.text)}" for r in a.recommendations]
    out += [f"- {inline(r.mitigation)}" for r in a.risks if r.mitigation]
    return out or [f"- {p.default_action}"]


def render_alert_fold(
    commits: Sequence[DigestCommit],
    *,
    repo: str,
    day: date,
    language: str,
    max_per_day: int,
    timezone: str = "UTC",
    with_title: bool = False,
    key: str = "alerts-more",
) -> AlertPost:
    """The one post that holds a day's alerts beyond `max_per_day`, newest first.

    It is created with the first alert past the limit and edited as more arrive, so it is
    rendered whole each time from the commits it holds; with none left (each reverted or
    rated down since), it says so. `with_title` puts the title in the body, for an issue
    comment (which has no title of its own). `key`: the post's key in the ledger (a day's
    later "more alerts" post, made where alerts go once the first cannot be reached).
    """
    p, s = catalogue(language).alert, catalogue(language).digest
    newest = sorted(commits, key=lambda c: (c.landed_at, c.sha), reverse=True)
    title = p.fold_title.format(repo=repo, day=day.isoformat())[:TITLE_LIMIT]
    head = [fold_marker(repo, day, key)]
    if with_title:
        head += [f"## {inline(title)}", ""]
    if newest:
        head += [p.fold_intro.format(count=len(newest), max=max_per_day, day=day.isoformat()), ""]
    else:
        head += [p.fold_empty]
    footer = ["", "---", f"<sub>{p.fold_footer.format(day=day.isoformat())}</sub>"]
    entries = []
    for commit in newest:
        a = commit.analysis
        if a is None:
            continue
        lead = p.lead_breaking if a.breaking else p.lead_high
        entries.append(
            f"- **{lead}**{s.colon}{link(inline(commit.title), commit.url)}\n"
            f"  {_meta(commit, repo=repo, language=language, timezone=timezone)}\n"
            f"  {marked_original(inline(a.summary), language)}"
        )
    # Past GitHub's limit (hundreds of alerts in a day), the oldest are left to the digest.
    reserve = len(p.fold_more.format(count=len(entries))) + 2
    size = sum(len(x) + 1 for x in head + footer) + reserve
    kept = []
    for entry in entries:
        if size + len(entry) + 1 > BODY_LIMIT:
            break
        kept.append(entry)
        size += len(entry) + 1
    lines = head + kept
    if len(kept) < len(entries):
        lines += ["", p.fold_more.format(count=len(entries) - len(kept))]
    return AlertPost(key, title, "\n".join(lines + footer))
