"""The analyser the settings ask for: the LLM when `LLM_BASE_URL` is set, else the rules."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import openai

from bot.analysis import Analyzer, RulesAnalyzer
from bot.analysis.cost import Prices
from bot.analysis.llm import LLMAnalyzer
from bot.metrics import Metrics
from bot.settings import Settings


@asynccontextmanager
async def open_analyzer(
    settings: Settings, *, metrics: Metrics | None = None
) -> AsyncIterator[Analyzer]:
    """Yield the configured analyser; closes the LLM client's connections afterwards."""
    if settings.llm_base_url is None:
        yield RulesAnalyzer()
        return
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-needed"
    # Retries are the analyser's own (one, then the rules), not the SDK's.
    client = openai.AsyncOpenAI(base_url=settings.llm_base_url, api_key=key, max_retries=0)
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
