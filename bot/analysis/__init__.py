"""Commit analysers: the embedded rules (default) and an OpenAI-compatible LLM."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.analysis import rules
from bot.models import Analysis, CommitInput


@dataclass(frozen=True)
class AnalysisResult:
    """An analysis and what it cost; `fallback_reason` says why the rules stood in for the LLM."""

    analysis: Analysis
    input_tokens: int = 0
    output_tokens: int = 0
    fallback_reason: str | None = None
    # Input tokens the provider served from its prefix cache (part of `input_tokens`).
    cached_input_tokens: int = 0
    # Why this analyser was chosen (see `bot.analysis.tiering`), and the diff's patch-id.
    route: str | None = None
    patch_id: str | None = None
    # Claims of the LLM's answer the fact guard dropped as unsupported (`bot.analysis.guard`).
    dropped_claims: int = 0


class Analyzer(Protocol):
    @property
    def name(self) -> str:
        """`rules` or `llm:<model>`."""

    async def analyze(
        self, commit: CommitInput, *, language: str, verdict: Analysis | None = None
    ) -> AnalysisResult:
        """Analyse one commit; never raises for anything the commit contains. `verdict`: the
        rules' analysis of this commit where the caller already has it (not made again)."""


class RulesAnalyzer:
    """The deterministic analyser; pure and fast, so it runs inline."""

    name = "rules"

    async def analyze(
        self, commit: CommitInput, *, language: str, verdict: Analysis | None = None
    ) -> AnalysisResult:
        return AnalysisResult(verdict or rules.analyze(commit, language=language))
