"""The estimated cost of LLM tokens at the configured prices (digests, /metrics, `bot eval`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.settings import Settings

MILLION = 1_000_000


@dataclass(frozen=True)
class Prices:
    """Currency units per million tokens; cached input is what a prefix cache served."""

    input: float = 0.0
    cached_input: float = 0.0
    output: float = 0.0

    @classmethod
    def from_settings(cls, settings: Settings) -> Prices:
        return cls(
            input=settings.llm_price_input_per_mtok,
            cached_input=settings.llm_price_cached_input_per_mtok,
            output=settings.llm_price_output_per_mtok,
        )

    @property
    def known(self) -> bool:
        """Whether any price is set (without one, digests show tokens and no cost)."""
        return any((self.input, self.cached_input, self.output))

    def cost(self, input_tokens: int, cached_input_tokens: int, output_tokens: int) -> float:
        """`input_tokens` includes the cached ones, as providers report `prompt_tokens`."""
        cached = min(max(0, cached_input_tokens), max(0, input_tokens))
        return (
            (max(0, input_tokens) - cached) * self.input
            + cached * self.cached_input
            + max(0, output_tokens) * self.output
        ) / MILLION
