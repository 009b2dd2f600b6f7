"""What one LLM answer cost: input, cached input and output tokens as the provider reports them."""

from __future__ import annotations

from typing import Any


def cached_input_tokens(usage: Any) -> int:
    """Input tokens the provider served from its prefix cache, 0 when it does not say.

    OpenAI (and vLLM, llama.cpp's server) report `usage.prompt_tokens_details.cached_tokens`;
    DeepSeek reports `usage.prompt_cache_hit_tokens` (with `prompt_cache_miss_tokens`).
    """
    if usage is None:
        return 0
    details = _field(usage, "prompt_tokens_details")
    cached = _field(details, "cached_tokens") if details is not None else None
    if not isinstance(cached, int) or isinstance(cached, bool):
        cached = _field(usage, "prompt_cache_hit_tokens")
    if not isinstance(cached, int) or isinstance(cached, bool) or cached < 0:
        return 0
    prompt = _field(usage, "prompt_tokens")
    # Never more than the whole prompt, whatever a server claims.
    return min(cached, prompt) if isinstance(prompt, int) and prompt >= 0 else cached


def _field(obj: Any, name: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(name)
    value = getattr(obj, name, None)
    if value is None:
        # The SDK keeps fields it does not model (DeepSeek's) in `model_extra`.
        extra = getattr(obj, "model_extra", None)
        if isinstance(extra, dict):
            value = extra.get(name)
    return value
