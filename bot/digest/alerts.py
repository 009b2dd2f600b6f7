"""Alerts: which analysed commits get a post, which fold into "more alerts", and their Markdown.

GitHub refuses an issue title over 256 characters and a body over 65,536 (FACTS.md §3).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date
from zoneinfo import ZoneInfo

from bot.analysis.spans import code
from bot.analysis.titles import (
    git_reverted_shas,
    names_a_revert,
    normalise_title,
    parse_title,
    pr_number,
)
from bot.digest.markers import alert_marker, fold_marker
from bot.digest.markup import link
from bot.digest.render import BODY_LIMIT, impact_areas
from bot.digest.safety import inline, plain_title
from bot.digest.strings import catalogue, marked_original
from bot.digest.synthesis import LinkKind, synthesize
from bot.models import Analysis, DigestCommit, Importance
from bot.repo_config import Alerts

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
    """The alert for one analysed commit: what changed, whom it affects, what to do. What comes
    from the commit or the analysis goes through `bot.digest.safety`, so nobody is pinged and
    no issue is referenced but the commit's own pull request."""
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
        out.append(f"- {p.areas.format(areas=impact_areas(a, s))}")
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


def wants_alert(analysis: Analysis | None, config: Alerts) -> bool:
    """Whether an analysis is one the config alerts on (`on: [breaking, high]`)."""
    if analysis is None:
        return False
    return ("breaking" in config.on and analysis.breaking) or (
        "high" in config.on and analysis.importance is Importance.HIGH
    )


def undoes(revert: DigestCommit, target: DigestCommit) -> bool:
    """Whether `revert` plainly takes all of `target` out, as git and GitHub word a revert:
    a `Revert "Title"` title naming it, or git's `This reverts commit <sha>.` line. A partial
    revert, or one that only mentions the commit or its pull request, withholds no alert."""
    inner = parse_title(revert.title).undoes
    if inner is not None:
        number = pr_number(inner)
        if number is not None and number == pr_number(target.title):
            return True
        if normalise_title(inner) == normalise_title(target.title):
            return True
    return any(target.sha.lower().startswith(sha) for sha in git_reverted_shas(revert.message))


def reads_as_revert(commit: DigestCommit) -> bool:
    """`names_a_revert` of a digest commit."""
    return names_a_revert(commit.title, commit.message)


@dataclass(frozen=True)
class AlertPlan:
    post: tuple[DigestCommit, ...] = ()  # each gets its own alert now, oldest first
    fold: tuple[DigestCommit, ...] = ()  # the whole content of the day's "more alerts" post
    # Never alerted because a revert landed before the alert went out: sha -> revert's sha.
    reverted: dict[str, str] = field(default_factory=dict)
    # Reverts of those: the pair cancels out, so neither alerts. Revert's sha -> reverted sha.
    cancelled: dict[str, str] = field(default_factory=dict)


def plan_alerts(
    day: Sequence[DigestCommit],
    *,
    config: Alerts,
    posted: Collection[str],
    others: Sequence[DigestCommit] = (),
) -> AlertPlan:
    """The alerts of one day.

    `day`: the day's commits as the digest shows them (excluded ones left out), analysed or
    not. `posted`: shas whose own alert is already recorded in the post ledger (they count
    toward `max_per_day` and are never posted again). `others`: commits landed since the
    day (a revert may land tomorrow), or before it. Commits are taken in landing order; the
    first `max_per_day` get their own post, the rest fold into one post. The answer depends
    only on these, so running it again after a crash gives the same posts.
    """
    posted = set(posted)
    links = synthesize([*day, *others])
    by_sha = {c.sha: c for c in [*others, *day]}
    wanted = sorted(
        (c for c in day if wants_alert(c.analysis, config)), key=lambda c: (c.landed_at, c.sha)
    )
    reverted: dict[str, str] = {}
    pending: list[DigestCommit] = []
    for commit in wanted:
        if commit.sha in posted:
            continue
        revert = next(
            (
                link.source
                for link in links.incoming(commit.sha)
                if link.kind is LinkKind.REVERTS and undoes(by_sha[link.source], commit)
            ),
            None,
        )
        if revert is not None:
            reverted[commit.sha] = revert
            continue
        pending.append(commit)
    cancelled = {
        commit.sha: link.target
        for commit in pending
        for link in links.outgoing(commit.sha)
        if link.kind is LinkKind.REVERTS and link.target in reverted
    }
    pending = [c for c in pending if c.sha not in cancelled]
    slots = max(config.max_per_day - len(posted), 0)
    return AlertPlan(tuple(pending[:slots]), tuple(pending[slots:]), reverted, cancelled)
