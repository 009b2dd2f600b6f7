"""A period's commits as the Digest to render (excluded ones counted, the rest listed), and a
day's digest gathered whole from the store: its pushes, the days before it and its LLM usage."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date, timedelta

from bot.analysis.cost import Prices
from bot.analysis.credentials import redact
from bot.digest.strings import catalogue
from bot.digest.synthesis import named
from bot.models import Analysis, DayNames, Digest, DigestCommit, DigestUsage
from bot.repo_config import RepoConfig
from bot.settings import Settings
from bot.store import Store
from bot.store.commits import CommitState
from bot.store.digests import DayCommit
from bot.store.repos import RepoRow
from bot.store.usage import DayUsage, UsageLedger

# A revert or a fix in the day finds the commit it names among this many days before it.
RECENT = timedelta(days=2)


def _digest_title(config: RepoConfig, repo: str, day: date) -> str:
    default = catalogue(config.language).digest.default_title
    return config.publish.title_for(repo, day, language=config.language, default=default)


def shown_commits(
    config: RepoConfig, commits: Sequence[DayCommit]
) -> tuple[list[DigestCommit], Counter[str]]:
    """The commits a post lists (in the given order), and the excluded ones counted by reason."""
    excluded: Counter[str] = Counter()
    shown: list[DigestCommit] = []
    for c in commits:
        paths = [str(f.get("filename")) for f in (c.details or {}).get("files") or []]
        reason = config.exclude.reason(
            author=c.author_name, login=c.author_login, message=c.message, paths=paths
        )
        if reason:
            excluded[reason] += 1
            continue
        analysis = Analysis.model_validate(c.analysis) if c.analysis else None
        # A rating equal to the analysis's importance confirms it (a label for
        # `eval --corrections`): nothing to show.
        rated = analysis is not None and c.rated is not None and c.rated != analysis.importance
        if analysis is not None:
            analysis = analysis.as_rated(c.rated)
        if analysis is None:
            why = c.last_error or (
                "analysis failed" if c.state == CommitState.FAILED else "not analysed yet"
            )
        else:
            why = None
        shown.append(
            DigestCommit(
                sha=c.sha,
                # A title or message is posted as written: a credential in it is not.
                title=redact(c.title),
                url=c.url,
                author=c.author_login or c.author_name,
                landed_at=c.landed_at,
                analysis=analysis,
                not_analysed=why,
                fallback_reason=c.fallback_reason,
                message=redact(c.message),
                rated=rated,
                names=DayNames.from_stored((c.details or {}).get("names")),
            )
        )
    return shown, excluded


def build_digest(
    repo: RepoRow,
    day: date,
    config: RepoConfig,
    commits: list[DayCommit],
    *,
    late: bool = False,
    forced: int = 0,
    truncated: int = 0,
    recent: Sequence[DayCommit] = (),
    alerts: Mapping[str, str] | None = None,
    usage: DigestUsage | None = None,
) -> tuple[Digest, list[str]]:
    """The digest of these commits (excluded ones counted, not listed), and all their shas.

    `recent`: commits of the days before (a revert or a fix names one of them); `alerts`:
    the alert posts already sent for the day's commits, sha -> URL; `usage`: the footer's.
    """
    shown, excluded = shown_commits(config, commits)
    digest = Digest(
        repo=repo.full_name,
        day=day,
        language=config.language,
        timezone=config.timezone,
        cutoff=config.schedule.cutoff,
        title=_digest_title(config, repo.full_name, day),
        commits=tuple(shown),
        excluded=dict(excluded),
        config_error=_config_error(repo, config),
        config_ignored=repo.config_origin.ignored if repo.config_origin else (),
        late=late,
        forced_pushes=forced,
        truncated=truncated,
        recent=tuple(shown_commits(config, recent)[0]),
        alerts=dict(alerts or {}),
        usage=usage,
    )
    return digest, [c.sha for c in commits]


async def gather_day(
    store: Store,
    settings: Settings,
    repo: RepoRow,
    config: RepoConfig,
    commits: list[DayCommit],
    *,
    day: date,
    late: bool,
    alerts: Mapping[str, str],
    part: str | None = None,
) -> tuple[Digest, list[str]]:
    """A day's main digest of `commits` with what it shows beside them from the store: the
    window's pushes, the commits its reverts and fixes name, and the day's LLM usage (`part`:
    the posted part whose usage it shows); and all their shas."""
    start, end = config.schedule.window(day)
    # The days before, where the day's reverts, relands and fixes find what they name: the
    # last RECENT days, and any older stored commit named by number or sha.
    prs, shas = named(shown_commits(config, commits)[0])
    forced, truncated = await store.digests.pushes_between(repo.id, start, end)
    recent = await store.digests.window_commits(repo.id, start - RECENT, start)
    older = await store.digests.named_commits(repo.id, prs, shas, before=start - RECENT)
    used = await UsageLedger(store.engine).day_usage(repo.id, (start, end), part=part)
    return build_digest(
        repo,
        day,
        config,
        commits,
        late=late,
        forced=forced,
        truncated=truncated,
        recent=older + recent,
        alerts=alerts,
        usage=_usage(used, Prices.from_settings(settings)),
    )


def _config_error(repo: RepoRow, config: RepoConfig) -> str | None:
    """The file's error not yet told, and any exclude pattern that ran out of time just now."""
    known = repo.config_error if repo.config_error and not repo.config_error_reported else None
    slow = config.exclude.problem()
    return "; ".join(e for e in (known, slow) if e) or None


def _usage(used: DayUsage, prices: Prices) -> DigestUsage:
    """A day's LLM usage as the footer shows it: routes, tokens and the estimated cost."""
    return DigestUsage(
        routes=used.routes,
        input_tokens=used.input_tokens,
        cached_input_tokens=used.cached_input_tokens,
        output_tokens=used.output_tokens,
        dropped_claims=used.dropped_claims,
        cost=prices.cost(used.input_tokens, used.cached_input_tokens, used.output_tokens)
        if prices.known
        else None,
    )
