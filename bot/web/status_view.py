"""The status page's words: the store's read turned into what a person reads, in their language."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.digest.strings import catalogue
from bot.digest.strings.shape import PagePhrases
from bot.repo_config import RepoConfig, default_config
from bot.store.repos import config_of
from bot.store.status import RepoStatus, StatusRead

LANGUAGES = ("en", "zh-CN")


def language_of(accept_language: str | None, default: str = "en") -> str:
    """The first language of `Accept-Language` (by q-value) the page speaks; else `default`."""
    wanted: list[tuple[float, int, str]] = []
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            wanted.append((-quality, position, tag.strip().lower()))
    for _, _, tag in sorted(wanted):
        if tag.startswith("zh"):
            return "zh-CN"
        if tag.startswith("en"):
            return "en"
    return default if default in LANGUAGES else "en"


@dataclass(frozen=True)
class Link:
    text: str
    url: str


@dataclass(frozen=True)
class Setting:
    name: str
    value: str
    origin: str


@dataclass
class RepoView:
    id: int
    full_name: str
    next_digest: str
    next_weekly: str
    waiting: str
    posts: list[Link]
    trouble: list[str]
    settings: list[Setting]
    config_error: str | None


@dataclass(frozen=True)
class RowView:
    """A repository that is well: one line of the page's table."""

    id: int
    full_name: str
    last_digest: Link | None
    next_digest: str
    waiting: str


@dataclass
class InstallationView:
    id: int
    account: str
    suspended: bool
    usage: str
    # In trouble, in full, first; then the others, a line each.
    cards: list[RepoView] = field(default_factory=list)
    rows: list[RowView] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.cards) + len(self.rows)


@dataclass
class PageView:
    language: str
    words: PagePhrases
    login: str
    installations: list[InstallationView]


def _local(instant: datetime, config: RepoConfig) -> str:
    zone = config.schedule.zone
    return f"{instant.astimezone(zone):%Y-%m-%d %H:%M} ({config.timezone})"


def _age(span: timedelta, words: PagePhrases) -> str:
    minutes = max(0, int(span.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return words.age_days.format(days=days, hours=hours)
    if hours:
        return words.age_hours.format(hours=hours, minutes=minutes)
    return words.age_minutes.format(minutes=minutes)


@dataclass(frozen=True)
class _Scheduled:
    """What a config says the page shows; repositories sharing a config share it."""

    config: RepoConfig
    next_digest: str
    next_weekly: str
    settings: list[Setting]


def _scheduled(
    stored: dict[str, Any] | None,
    now: datetime,
    default_language: str,
    words: PagePhrases,
    defaults: dict[str, dict[str, Any]],
) -> _Scheduled:
    config = config_of(stored, default_language)
    schedule = config.schedule
    next_weekly = (
        _local(config.week_schedule.week_of(now).due, config)
        if config.weekly.enabled
        else words.weekly_off
    )
    return _Scheduled(
        config,
        _local(schedule.end_of(schedule.day_of(now)), config),
        next_weekly,
        _settings(config, defaults, words),
    )


def _settings(
    config: RepoConfig, defaults: dict[str, dict[str, Any]], words: PagePhrases
) -> list[Setting]:
    """The top-level settings the file set (the others are the defaults)."""
    mine = config.model_dump(mode="json", by_alias=True)
    if config.language not in defaults:
        defaults[config.language] = default_config(config.language).model_dump(
            mode="json", by_alias=True
        )
    theirs = defaults[config.language]
    return [
        Setting(
            name,
            json.dumps(value, ensure_ascii=False, separators=(", ", ": ")),
            words.config_origins["file"],
        )
        for name, value in mine.items()
        if theirs.get(name) != value
    ]


def _posts(repo: RepoStatus, words: PagePhrases) -> list[Link]:
    return [
        Link(words.post_kinds[kind].format(date=day), post.url)
        for post in repo.posts
        # GitHub's own links only: never a `javascript:` one.
        if post.url.startswith("https://")
        for kind, _, day in [post.period.partition(":")]
    ]


def _waiting(repo: RepoStatus, now: datetime, words: PagePhrases) -> str:
    if repo.waiting and repo.oldest_waiting is not None:
        return words.waiting_some.format(
            count=repo.waiting, age=_age(now - repo.oldest_waiting, words)
        )
    return words.waiting_none


def _row(repo: RepoStatus, now: datetime, words: PagePhrases, scheduled: _Scheduled) -> RowView:
    digest = next(
        (p for p in repo.posts if p.period.startswith("day:") and p.url.startswith("https://")),
        None,
    )
    return RowView(
        id=repo.id,
        full_name=repo.full_name,
        last_digest=Link(digest.period.partition(":")[2], digest.url) if digest else None,
        next_digest=scheduled.next_digest,
        waiting=_waiting(repo, now, words),
    )


def _repo(repo: RepoStatus, now: datetime, words: PagePhrases, scheduled: _Scheduled) -> RepoView:
    config = scheduled.config
    waiting = _waiting(repo, now, words)
    trouble: list[str] = []
    if repo.suspended:
        trouble.append(words.suspended)
    for job in repo.jobs:
        kind = words.job_kinds.get(job.kind.value, job.kind.value)
        reason = job.reason or "—"
        if job.failed or job.retry_at is None:
            trouble.append(words.job_failed.format(kind=kind, attempts=job.attempts, reason=reason))
        else:
            trouble.append(
                words.job_retry.format(
                    kind=kind,
                    attempts=job.attempts,
                    reason=reason,
                    when=_local(job.retry_at, config),
                )
            )
    for digest in repo.digests:
        trouble.append(
            words.digest_failed.format(date=digest.start.isoformat(), reason=digest.reason or "—")
        )
    return RepoView(
        id=repo.id,
        full_name=repo.full_name,
        next_digest=scheduled.next_digest,
        next_weekly=scheduled.next_weekly,
        waiting=waiting,
        posts=_posts(repo, words),
        trouble=trouble,
        settings=scheduled.settings,
        config_error=(
            words.config_error.format(error=repo.config_error) if repo.config_error else None
        ),
    )


def page_view(
    read: StatusRead,
    *,
    login: str,
    accounts: dict[int, str],
    now: datetime,
    language: str,
    default_language: str,
    daily_budget: int | None,
    in_full: bool = False,
) -> PageView:
    """The page of `read`'s repositories, grouped by installation as GitHub names them: in
    each, those in trouble in full, then the others a line each (all in full with `in_full`,
    a repository's own page)."""
    words = catalogue(language).page
    installations: dict[int, InstallationView] = {}
    defaults: dict[str, dict[str, Any]] = {}
    schedules: dict[str, _Scheduled] = {}
    for repo in read.repos:
        key = repo.installation_id or 0
        if key not in installations:
            used = read.tokens_today.get(key, 0)
            usage = (
                words.llm_usage_unlimited.format(used=f"{used:,}")
                if daily_budget is None
                else words.llm_usage.format(used=f"{used:,}", budget=f"{daily_budget:,}")
            )
            installations[key] = InstallationView(
                id=key,
                account=accounts.get(key) or repo.account or "—",
                suspended=repo.suspended,
                usage=usage,
            )
        # Most repositories have no config file: no need to write one out to tell them apart.
        shared = "" if repo.config is None else json.dumps(repo.config, sort_keys=True)
        if shared not in schedules:
            schedules[shared] = _scheduled(repo.config, now, default_language, words, defaults)
        if in_full or repo.in_trouble:
            installations[key].cards.append(_repo(repo, now, words, schedules[shared]))
        else:
            installations[key].rows.append(_row(repo, now, words, schedules[shared]))
    return PageView(language, words, login, list(installations.values()))
