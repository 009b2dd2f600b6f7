"""The analyser the settings ask for: the LLM when `LLM_BASE_URL` is set, else the rules; and
the weekly narrative's LLM, when there is one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from bot.analysis import Analyzer, RulesAnalyzer
from bot.analysis.cost import Prices
from bot.analysis.llm import LLMAnalyzer
from bot.analysis.narrative import Narrator
from bot.runtime.metrics import Metrics
from bot.settings import Settings

if TYPE_CHECKING:
    import openai


@asynccontextmanager
async def open_analyzer(
    settings: Settings, *, metrics: Metrics | None = None
) -> AsyncIterator[Analyzer]:
    """Yield the configured analyser; closes the LLM client's connections afterwards."""
    client = _llm_client(settings)
    if client is None:
        yield RulesAnalyzer()
        return
    try:
        yield LLMAnalyzer(
            client,
            model=settings.llm_model,
            max_input_tokens=settings.llm_max_input_tokens,
            max_output_tokens=settings.llm_max_output_tokens,
            concurrency=settings.llm_concurrency,
            timeout_seconds=settings.llm_timeout_seconds,
            metrics=metrics,
            prices=Prices.from_settings(settings),
        )
    finally:
        await client.close()


@asynccontextmanager
async def open_narrator(
    settings: Settings, *, metrics: Metrics | None = None
) -> AsyncIterator[Narrator]:
    """Yield the weekly narrative's LLM (none without `LLM_BASE_URL`); closes its client."""
    client = _llm_client(settings)
    try:
        yield Narrator(
            client,
            settings.llm_model,
            settings.llm_timeout_seconds,
            metrics=metrics,
            prices=Prices.from_settings(settings),
        )
    finally:
        if client is not None:
            await client.close()


def _llm_client(settings: Settings) -> openai.AsyncOpenAI | None:
    if settings.llm_base_url is None:
        return None
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-needed"
    # (loaded where a model is asked: a run of the rules alone never imports the SDK, a
    # quarter of an offline digest's start)
    import openai  # noqa: PLC0415

    # Retries are the caller's own (the analyser: one, then the rules; the narrative: none).
    return openai.AsyncOpenAI(base_url=settings.llm_base_url, api_key=key, max_retries=0)
