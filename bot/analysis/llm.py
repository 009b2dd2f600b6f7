"""The LLM analyser: any OpenAI-compatible chat completions endpoint, structured output.

It asks for the analysis JSON schema with `response_format: json_schema`; a server that
rejects that (llama.cpp's server, for one) is asked for `json_object` with the schema, then
plain `json_object`, and the answer is validated by pydantic either way. On a timeout, an
error, invalid JSON or a cut answer it retries once, then falls back to the rules analysis
and records why. The model's answer is data: validated, never executed or trusted for format,
and its claims must be supported by the commit (`guard.py`): those that are not are dropped.
"""

from __future__ import annotations

import asyncio
import json
import time
from enum import IntEnum
from typing import TYPE_CHECKING, Any, cast

import pydantic

from bot.analysis import AnalysisResult, rules
from bot.analysis.cost import Prices
from bot.analysis.facts import read_facts
from bot.analysis.facts.parses import Parses
from bot.analysis.fitting import fit_answer
from bot.analysis.guard import Guarded, guard
from bot.analysis.language import written_in
from bot.analysis.prompt import Prompt, analysis_schema, build_prompt
from bot.analysis.shield import noted, redact_body, shield
from bot.analysis.usage import cached_input_tokens
from bot.models import Analysis, AnalysisBody, CommitInput
from bot.runtime.logs import get_logger
from bot.runtime.metrics import Metrics

if TYPE_CHECKING:
    import openai

log = get_logger(__name__)

# An analysis is a few KB of JSON; an answer far beyond that is not one, and is not read on.
MAX_ANSWER_BYTES = 1024 * 1024


class _Message(pydantic.BaseModel):
    content: str | None = None


class _Choice(pydantic.BaseModel):
    message: _Message
    finish_reason: str | None = None


# More than any context window holds; a call and its retry together stay within the 32-bit
# token columns of PostgreSQL.
_MAX_TOKENS = 100_000_000


class _Usage(pydantic.BaseModel):
    # Kept: providers report cached input tokens in fields of their own (see usage.py).
    model_config = pydantic.ConfigDict(extra="allow")

    prompt_tokens: pydantic.NonNegativeInt = pydantic.Field(strict=True, le=_MAX_TOKENS)
    completion_tokens: pydantic.NonNegativeInt = pydantic.Field(strict=True, le=_MAX_TOKENS)


class _Completion(pydantic.BaseModel):
    """The fields of a chat completion the analyser reads, in the shapes the API defines."""

    choices: list[_Choice] = pydantic.Field(min_length=1)
    usage: _Usage | None = None


def _where(exc: pydantic.ValidationError) -> str:
    if exc.errors()[0]["type"] == "json_invalid":
        return "not JSON"
    return ", ".join(".".join(str(p) for p in e["loc"]) or "(body)" for e in exc.errors()[:3])


class OutputMode(IntEnum):
    """How the server is asked for JSON, most to least strict."""

    JSON_SCHEMA = 0
    JSON_OBJECT_WITH_SCHEMA = 1
    JSON_OBJECT = 2


class AnswerRejected(Exception):
    """The answer cannot be used; `reason` is recorded as the fallback reason."""

    def __init__(
        self, reason: str, tokens_in: int = 0, tokens_out: int = 0, cached: int = 0
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.tokens_in = tokens_in
        self.tokens_out = tokens_out
        self.cached = cached


def _response_format(mode: OutputMode) -> dict[str, Any]:
    schema = analysis_schema()
    if mode is OutputMode.JSON_SCHEMA:
        return {
            "type": "json_schema",
            "json_schema": {"name": "commit_analysis", "schema": schema, "strict": False},
        }
    if mode is OutputMode.JSON_OBJECT_WITH_SCHEMA:
        # llama.cpp's server and some others constrain decoding with this `schema` key.
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}


def _unsupported_format(exc: openai.APIStatusError) -> bool:
    """An answer that complains about `response_format`: try a laxer mode, not a retry.

    OpenAI-style servers say 400, FastAPI validation says 422, and llama-cpp-python's
    server wraps its validation error in a 500 whose message names the field.
    """
    if exc.status_code not in (400, 422, 500):
        return False
    text = f"{exc} {json.dumps(exc.body, default=str)}".lower()
    return any(k in text for k in ("response_format", "json_schema", "schema", "json_object"))


class LLMAnalyzer:
    def __init__(
        self,
        client: openai.AsyncOpenAI,
        *,
        model: str,
        max_input_tokens: int,
        max_output_tokens: int,
        concurrency: int,
        timeout_seconds: float,
        metrics: Metrics | None = None,
        prices: Prices | None = None,
    ) -> None:
        self._client = client
        self._prices = prices or Prices()
        self._model = model
        self._max_input = max_input_tokens
        self._max_output = max_output_tokens
        self._timeout = timeout_seconds
        self._slots = asyncio.Semaphore(concurrency)
        self._mode = OutputMode.JSON_SCHEMA
        self._metrics = metrics

    @property
    def name(self) -> str:
        return f"llm:{self._model}"

    @property
    def output_mode(self) -> OutputMode:
        """How this server is asked for JSON (lowered once if it rejects `json_schema`)."""
        return self._mode

    async def analyze(
        self, commit: CommitInput, *, language: str, verdict: Analysis | None = None
    ) -> AnalysisResult:
        # The model, the guard's ground and the rules' stand-in read the same text: what a
        # reader sees, with its credentials redacted.
        shielded = shield(commit)
        commit = shielded.commit
        # The change is read once: the prompt's facts are the rules' facts (and its settings
        # files parsed once for both).
        parses = Parses()
        facts = read_facts(commit, parses)
        prompt = build_prompt(
            commit, language=language, max_input_tokens=self._max_input, facts=facts
        )

        def stand_in() -> AnalysisBody:
            # The caller's verdict (the governor ran the rules to route the commit) is used
            # as it is: the rules run at most once a commit. Unless it carries the note of
            # credentials found, which the answer gets anyway (`noted` below), not twice.
            if verdict is not None and not shielded.found:
                return verdict
            return rules.analyze_shielded(commit, language, facts=facts, parses=parses)

        used_in, used_out, used_cached = 0, 0, 0
        reason = "unknown"
        async with self._slots:
            for attempt in (1, 2):
                started = time.perf_counter()
                try:
                    body, tokens_in, tokens_out, cached = await self._ask(prompt, language)
                except AnswerRejected as exc:
                    reason = exc.reason
                    used_in, used_out = used_in + exc.tokens_in, used_out + exc.tokens_out
                    used_cached += exc.cached
                    self._count_tokens(exc.tokens_in, exc.tokens_out, exc.cached)
                    log.warning(
                        "llm_answer_rejected", sha=commit.sha, attempt=attempt, reason=reason
                    )
                    continue
                finally:
                    self._observe(time.perf_counter() - started)
                used_in, used_out = used_in + tokens_in, used_out + tokens_out
                used_cached += cached
                self._count_tokens(tokens_in, tokens_out, cached)
                checked = guard(body, commit, stand_in=stand_in)
                self._report(commit.sha, checked)
                kept = noted(redact_body(checked.body), shielded.found, language)
                analysis = Analysis(**kept.model_dump(), analyzer=self.name)
                return AnalysisResult(
                    analysis,
                    input_tokens=used_in,
                    output_tokens=used_out,
                    cached_input_tokens=used_cached,
                    dropped_claims=len(checked.dropped),
                )
        if self._metrics is not None:
            self._metrics.analysis_fallbacks.labels(reason=reason.split(":", 1)[0]).inc()
        fallback = verdict or noted(
            rules.analyze_shielded(commit, language, facts=facts), shielded.found, language
        )
        return AnalysisResult(
            fallback,
            input_tokens=used_in,
            output_tokens=used_out,
            cached_input_tokens=used_cached,
            fallback_reason=f"{self.name} failed twice ({reason}); rules analysis used",
        )

    async def _ask(self, prompt: Prompt, language: str) -> tuple[AnalysisBody, int, int, int]:
        """One call (plus format negotiation); raises AnswerRejected with a reason: an answer
        in another language than `language` too (the caller asks once more)."""
        import openai  # noqa: PLC0415 (loaded where a model is asked: `factory._llm_client`)

        while True:
            try:
                async with asyncio.timeout(self._timeout):
                    raw = await self._post(prompt)
                break
            except (openai.APITimeoutError, TimeoutError):
                raise AnswerRejected(f"timeout: no answer within {self._timeout:g}s") from None
            except openai.APIStatusError as exc:
                if _unsupported_format(exc) and self._mode < OutputMode.JSON_OBJECT:
                    self._mode = OutputMode(self._mode + 1)
                    log.info("llm_output_mode_lowered", mode=self._mode.name)
                    continue
                raise AnswerRejected(f"error: HTTP {exc.status_code}") from None
            except openai.APIConnectionError as exc:
                raise AnswerRejected(f"error: cannot connect ({type(exc).__name__})") from None
            except openai.OpenAIError as exc:
                raise AnswerRejected(f"error: {type(exc).__name__}") from None

        # The answer is read as plain JSON and checked shape by shape: a proxy's HTML page,
        # `choices` as a string or a negative `usage` must end in the rules, not a traceback.
        try:
            completion = _Completion.model_validate_json(raw)
        except pydantic.ValidationError as exc:
            raise AnswerRejected(f"malformed answer: {_where(exc)}") from None
        usage = completion.usage
        tokens_in = usage.prompt_tokens if usage else prompt.tokens
        tokens_out = usage.completion_tokens if usage else 0
        cached = cached_input_tokens(usage)
        choice = completion.choices[0]
        if choice.finish_reason == "length":
            raise AnswerRejected(
                "cut: the answer hit the output token limit", tokens_in, tokens_out, cached
            )
        content = choice.message.content or ""
        try:
            data = json.loads(_strip_fences(content))
        except ValueError:
            raise AnswerRejected("invalid JSON", tokens_in, tokens_out, cached) from None
        try:
            # Fitted first: one list item too many is dropped, not the whole answer.
            body = AnalysisBody.model_validate(fit_answer(data))
        except pydantic.ValidationError as exc:
            raise AnswerRejected(f"schema: {_where(exc)}", tokens_in, tokens_out, cached) from None
        if not written_in(body, language):
            raise AnswerRejected(f"language: not {language}", tokens_in, tokens_out, cached)
        return body, tokens_in, tokens_out, cached

    async def _post(self, prompt: Prompt) -> bytes:
        return await post_capped(
            self._client,
            prompt.system,
            prompt.user,
            model=self._model,
            response_format=_response_format(self._mode),
            max_tokens=self._max_output,
            temperature=0.0,
            request_timeout=self._timeout,
        )

    def _report(self, sha: str, checked: Guarded) -> None:
        """Each dropped claim: logged with the token that had no support (never the answer),
        and counted on `/metrics`."""
        for drop in checked.dropped:
            log.info(
                "llm_claim_dropped", sha=sha, field=drop.field, kind=drop.kind, token=drop.token
            )
            if self._metrics is not None:
                self._metrics.llm_claims_dropped.labels(kind=drop.kind).inc()
        if checked.summary_from_rules:
            log.info("llm_summary_unsupported", sha=sha)

    def _observe(self, seconds: float) -> None:
        if self._metrics is not None:
            self._metrics.analysis_seconds.labels(analyzer="llm").observe(seconds)

    def _count_tokens(self, tokens_in: int, tokens_out: int, cached: int = 0) -> None:
        count_tokens(self._metrics, self._prices, tokens_in, tokens_out, cached)


async def post_capped(
    client: openai.AsyncOpenAI,
    system: str,
    user: str,
    *,
    model: str,
    response_format: dict[str, Any],
    max_tokens: int,
    temperature: float,
    request_timeout: float | None = None,
) -> bytes:
    """One chat completion's raw answer, read up to MAX_ANSWER_BYTES (AnswerRejected past
    them: a server that never stops must not fill the memory)."""
    # The SDK's own timeout (per request); None: the client's default.
    options: dict[str, Any] = {} if request_timeout is None else {"timeout": request_timeout}
    async with client.chat.completions.with_streaming_response.create(
        model=model,
        messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
        response_format=cast(Any, response_format),
        max_tokens=max_tokens,
        temperature=temperature,
        **options,
    ) as response:
        raw = bytearray()
        async for chunk in response.iter_bytes():
            raw += chunk
            if len(raw) > MAX_ANSWER_BYTES:
                raise AnswerRejected(f"too large: an answer over {MAX_ANSWER_BYTES} bytes")
        return bytes(raw)


def count_tokens(
    metrics: Metrics | None, prices: Prices, tokens_in: int, tokens_out: int, cached: int
) -> None:
    """An answer's tokens and their estimated cost, on `/metrics`."""
    if metrics is not None:
        metrics.llm_tokens.labels(direction="input").inc(tokens_in)
        metrics.llm_tokens.labels(direction="output").inc(tokens_out)
        metrics.llm_cached_tokens.inc(cached)
        metrics.llm_cost.inc(prices.cost(tokens_in, cached, tokens_out))


def _strip_fences(content: str) -> str:
    """Some servers wrap JSON mode answers in a Markdown code fence."""
    text = content.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    return text.strip()
