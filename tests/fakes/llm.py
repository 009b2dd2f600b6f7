"""A fake OpenAI-compatible server: `POST /v1/chat/completions` with usage and finish reasons.

It checks requests as a real server would (auth, model, messages, response_format), answers
in the real shapes (OpenAI's error objects; llama-cpp-python's 500 for the `json_schema` it
lacks), counts tokens, and follows a script of behaviours set by each test.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

# A valid answer that names nothing the fact guard checks, so any commit supports it whole
# (answers that invent are the guard tests' own).
VALID_BODY: dict[str, Any] = {
    "change_types": ["bugfix"],
    "importance": "medium",
    "breaking": False,
    "summary": "Fixes the quantization path for 8-bit inputs. Routing weights keep their dtype.",
    "impact": [{"area": "Quantized ops", "files": 2}],
    "insights": {"compatibility": "No configuration changes are needed."},
    "risks": [
        {
            "description": "Other MLP paths may rely on the old cast.",
            "consequence": "Accuracy could drop on those paths.",
            "mitigation": "Run the MLP accuracy suite.",
        }
    ],
    "recommendations": [{"audience": "maintainers", "text": "Add a regression test."}],
    "confidence": 0.8,
}


# The same answer in Chinese: what a real model writes when the prompt asks for zh-CN (the
# default answer follows the language asked; a recorded or scripted one is sent as it is).
VALID_BODY_ZH: dict[str, Any] = {
    **VALID_BODY,
    "summary": "修复 8 位输入的量化路径。路由权重保持原有的数据类型。",
    "impact": [{"area": "量化算子", "files": 2}],
    "insights": {"compatibility": "无需修改任何配置。"},
    "risks": [
        {
            "description": "其他 MLP 路径可能依赖旧的类型转换。",
            "consequence": "这些路径的精度可能下降。",
            "mitigation": "运行 MLP 精度测试。",
        }
    ],
    "recommendations": [{"audience": "maintainers", "text": "补充一个回归测试。"}],
}


@dataclass
class Behaviour:
    """What the next call gets. kind: valid | invalid_json | cut | hang | error | raw |
    reshape (`reshape` edits the completion envelope: what a broken proxy or server sends) |
    html (a proxy's login or error page, with status 200) | huge (an endless answer) |
    trickle (an answer that never ends, one byte every 50 ms: no single read times out)."""

    kind: str = "valid"
    body: dict[str, Any] | None = None
    content: str | None = None
    status: int = 500
    reshape: Callable[[dict[str, Any]], Any] | None = None


@dataclass
class FakeLLM:
    model: str = "fake-model"
    api_key: str = "test-key"
    supports_json_schema: bool = True
    script: deque[Behaviour] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    # Seconds every answer takes (benchmarks model a real model's time per call).
    latency: float = 0.0
    # A provider's prefix cache: None (none reported), "openai" (`prompt_tokens_details.
    # cached_tokens`: prefixes of at least 1,024 tokens, in steps of 128) or "deepseek"
    # (`prompt_cache_hit_tokens` / `prompt_cache_miss_tokens`, in 64-token units).
    cache: str | None = None
    # Recorded answers, by commit sha: a prompt naming the commit ("Commit: <sha>") gets its
    # own answer instead of VALID_BODY (scripted behaviours still come first).
    recorded: dict[str, dict[str, Any]] = field(default_factory=dict)
    _prompts: list[str] = field(default_factory=list)
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)
    endless_bytes_sent: int = 0

    async def wait_for_requests(self, count: int) -> None:
        """Return once `count` requests have arrived (no polling)."""
        while len(self.requests) < count:
            self._arrived.clear()
            await self._arrived.wait()

    def then(self, *behaviours: Behaviour | str) -> FakeLLM:
        for b in behaviours:
            self.script.append(Behaviour(b) if isinstance(b, str) else b)
        return self

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._completions)
        return app

    @staticmethod
    def _error(status: int, message: str, kind: str = "invalid_request_error") -> web.Response:
        return web.json_response(
            {"error": {"message": message, "type": kind, "param": None, "code": None}},
            status=status,
        )

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Authorization") != f"Bearer {self.api_key}":
            return self._error(401, "Incorrect API key provided.", "authentication_error")
        try:
            payload = await request.json()
        except json.JSONDecodeError:
            return self._error(400, "We could not parse the JSON body of your request.")
        self.requests.append(payload)
        self._arrived.set()
        if payload.get("model") != self.model:
            return self._error(404, f"The model `{payload.get('model')}` does not exist.")
        messages = payload.get("messages")
        if not isinstance(messages, list) or not messages:
            return self._error(400, "'messages' must be a non-empty array.")
        for m in messages:
            if m.get("role") not in {"system", "user", "assistant", "developer"}:
                return self._error(400, f"Invalid role: {m.get('role')!r}.")
            if not isinstance(m.get("content"), str):
                return self._error(400, "'content' must be a string.")
        fmt = payload.get("response_format") or {"type": "text"}
        if fmt.get("type") == "json_schema":
            if not self.supports_json_schema:
                # What llama-cpp-python's server answers (v0.3): its pydantic validation
                # error, wrapped in a 500.
                return web.json_response(
                    {
                        "error": {
                            "message": "1 validation error:\n  {'type': 'literal_error', 'loc': "
                            "('body', 'response_format', 'type'), 'msg': \"Input should be "
                            "'text' or 'json_object'\", 'input': 'json_schema'}\n\n"
                            "  POST /v1/chat/completions",
                            "type": "internal_server_error",
                            "param": None,
                            "code": None,
                        }
                    },
                    status=500,
                )
            schema = fmt.get("json_schema") or {}
            if not isinstance(schema.get("schema"), dict) or not schema.get("name"):
                return self._error(400, "response_format.json_schema needs `name` and `schema`.")
        elif fmt.get("type") not in {"json_object", "text"}:
            return self._error(400, f"Invalid response_format type {fmt.get('type')!r}.")

        behaviour = self.script.popleft() if self.script else Behaviour("valid")
        if self.latency:
            await asyncio.sleep(self.latency)
        prompt_tokens = sum(len(m["content"]) for m in messages) // 4
        max_tokens = int(payload.get("max_tokens") or 4096)
        if behaviour.kind == "hang":
            await self.release.wait()
        if behaviour.kind == "error":
            return self._error(behaviour.status, "The server had an error.", "server_error")
        if behaviour.kind == "html":
            return web.Response(
                text="<!DOCTYPE html><html><body><h1>Sign in</h1></body></html>",
                content_type="text/html",
            )
        if behaviour.kind == "huge":
            return await self._endless(request)
        if behaviour.kind == "trickle":
            return await self._trickle(request)
        finish = "stop"
        if behaviour.kind == "invalid_json":
            content = '{"change_types": ["bugfix"], "importance": "medium", "summary": '
        elif behaviour.kind == "cut":
            full = json.dumps(behaviour.body or VALID_BODY)
            content, finish = full[: len(full) // 2], "length"
        elif behaviour.kind == "raw":
            content = behaviour.content or ""
        else:
            user = messages[-1]["content"]
            asked_zh = user.startswith("Write in Simplified Chinese")
            body = (
                behaviour.body
                or self._recorded(user)
                or (VALID_BODY_ZH if asked_zh else VALID_BODY)
            )
            content = json.dumps(body, ensure_ascii=False)
        completion_tokens = min(max_tokens, max(1, len(content) // 4))
        usage: dict[str, Any] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        cached = self._cached_tokens("".join(m["content"] for m in messages))
        if self.cache == "openai":
            usage["prompt_tokens_details"] = {"cached_tokens": cached}
        elif self.cache == "deepseek":
            usage["prompt_cache_hit_tokens"] = cached
            usage["prompt_cache_miss_tokens"] = prompt_tokens - cached
        completion = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": finish,
                }
            ],
            "usage": usage,
        }
        if behaviour.kind == "reshape" and behaviour.reshape is not None:
            return web.json_response(behaviour.reshape(completion))
        return web.json_response(completion)

    def _recorded(self, user: str) -> dict[str, Any] | None:
        return next((b for sha, b in self.recorded.items() if f"Commit: {sha}\n" in user), None)

    def _cached_tokens(self, prompt: str) -> int:
        """The longest prefix this prompt shares with an earlier one, as the cache counts it."""
        shared = max((_common_prefix(prompt, p) for p in self._prompts), default=0)
        self._prompts.append(prompt)
        tokens = shared // 4
        if self.cache == "openai":
            return 0 if tokens < 1024 else tokens // 128 * 128
        return tokens // 64 * 64

    async def _endless(self, request: web.Request) -> web.StreamResponse:
        """A JSON answer that never ends (a misbehaving server streaming into a plain call)."""
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        await response.prepare(request)
        await response.write(b'{"choices": [{"message": {"content": "')
        self.endless_bytes_sent = 0
        try:
            while self.endless_bytes_sent < 64 * 1024 * 1024:
                await response.write(b"x" * 65536)
                self.endless_bytes_sent += 65536
        except ConnectionError:
            pass  # the client stopped reading: what a capped reader does
        return response

    async def _trickle(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        await response.prepare(request)
        await response.write(b'{"choices": [{"message": {"content": "')
        try:
            for _ in range(10_000):  # over eight minutes: far past any deadline a test sets
                await asyncio.sleep(0.05)
                await response.write(b"x")
        except ConnectionError:
            pass  # the client gave up
        return response


def _common_prefix(a: str, b: str) -> int:
    """Characters two prompts share from their start."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i
