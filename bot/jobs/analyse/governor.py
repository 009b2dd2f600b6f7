"""The LLM cost governor: picks the analyser of each commit (rules, reuse or LLM) within the
day's caps, and records why (see `bot.analysis.budget` for the order of the checks)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from datetime import datetime

from bot.analysis import AnalysisResult, Analyzer, rules
from bot.analysis.budget import Limits, Route, over_limits
from bot.analysis.patch_id import patch_id
from bot.analysis.tiering import rules_sure
from bot.models import Analysis, CommitInput
from bot.repo_config import RepoConfig
from bot.runtime.clock import Clock
from bot.runtime.logs import get_logger
from bot.runtime.metrics import Metrics
from bot.settings import Settings
from bot.store.usage import UsageLedger

log = get_logger(__name__)


class Governor:
    def __init__(
        self,
        ledger: UsageLedger,
        analyzer: Analyzer,
        *,
        settings: Settings,
        metrics: Metrics,
        clock: Clock,
    ) -> None:
        self._ledger = ledger
        self._llm = None if analyzer.name == "rules" else analyzer
        self._settings = settings
        self._metrics = metrics
        self._clock = clock
        # Commits sent to the LLM by this process whose analyses are not stored yet, per
        # repository: counted against the day's cap. One decision at a time, so concurrent
        # commits cannot all take the last place.
        self._reserved: dict[int, set[str]] = {}
        self._deciding = asyncio.Lock()

    async def analyze(
        self,
        commit: CommitInput,
        *,
        repo_id: int,
        installation_id: int | None,
        config: RepoConfig,
        excluded: str | None,
        day: tuple[datetime, datetime],
    ) -> AnalysisResult:
        """The commit's analysis, with its route and patch-id set; `day` is the [start, end)
        of the digest day the commit lands in (the day's caps count within it)."""
        pid = patch_id(commit.files) if commit.files_known else None
        route, result = await self._choose(
            commit,
            pid,
            repo_id=repo_id,
            installation_id=installation_id,
            config=config,
            excluded=excluded,
            day=day,
        )
        self._metrics.analysis_routes.labels(route=route.split(":", 1)[0]).inc()
        return replace(result, route=route, patch_id=pid)

    def _rules(self, commit: CommitInput, language: str) -> AnalysisResult:
        started = time.perf_counter()
        analysis = rules.analyze(commit, language=language)
        self._metrics.analysis_seconds.labels(analyzer="rules").observe(
            time.perf_counter() - started
        )
        return AnalysisResult(analysis)

    async def _choose(
        self,
        commit: CommitInput,
        pid: str | None,
        *,
        repo_id: int,
        installation_id: int | None,
        config: RepoConfig,
        excluded: str | None,
        day: tuple[datetime, datetime],
    ) -> tuple[str, AnalysisResult]:
        language = config.language
        if excluded:
            # Left out of the digest; the cheap rules keep a record anyway.
            return Route.EXCLUDED, self._rules(commit, language)
        if self._llm is None:
            return Route.RULES, self._rules(commit, language)
        sure = rules_sure(commit)
        if sure:
            return f"{Route.SURE}:{sure}", self._rules(commit, language)
        verdict = self._rules(commit, language)
        importance = verdict.analysis.importance.value
        if importance not in config.llm.for_:
            return f"{Route.VERDICT}:{importance}", verdict
        if pid is not None:
            earlier = await self._ledger.reusable(repo_id, pid, commit.sha)
            if earlier is not None:
                log.info("analysis_reused", same_diff_as=earlier.sha)
                return Route.REUSED, AnalysisResult(Analysis.model_validate(earlier.data))
        async with self._deciding:
            reserved = self._reserved.setdefault(repo_id, set())
            counts, settled = await self._ledger.day_counts(
                repo_id,
                day,
                installation_id,
                self._clock.now(),
                reserved=frozenset(reserved),
            )
            reserved -= settled
            limits = Limits(
                max_commits_per_day=config.llm.max_commits_per_day,
                repo_daily_tokens=config.llm.daily_tokens,
                installation_daily_tokens=self._settings.llm_daily_token_budget,
            )
            stop = over_limits(counts, limits)
            if stop is not None:
                log.info("llm_day_limit_reached", route=stop.value)
                return stop, verdict
            # Counted against the day's cap until its analysis is stored (or found missing
            # once it is: a lost lease means another worker took the commit over).
            reserved.add(commit.sha)
        # The rules' verdict above is the LLM's stand-in too: the rules run once a commit.
        return Route.LLM, await self._llm.analyze(
            commit, language=language, verdict=verdict.analysis
        )
