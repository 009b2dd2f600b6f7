"""The LLM, grounded and checked: recorded answers that invent, through the fake
OpenAI-compatible server and the real `LLMAnalyzer`, on real replay commits; the drops counted
on /metrics, in the digest's footer and by `bot eval`; the facts in the prompt after a prefix
that stays byte-identical."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from prometheus_client import generate_latest

from bot.analysis.facts import read_facts
from bot.analysis.facts.records import Facts, Name, NameKind
from bot.analysis.prompt import build_prompt
from bot.cli.evaluation import evaluate, word_lines
from bot.models import AnalysisBody, CommitInput
from bot.runtime.metrics import Metrics
from bot.store.schema import analyses
from tests.fakes.github import FakeGitHub
from tests.fakes.llm import VALID_BODY, VALID_BODY_ZH, FakeLLM
from tests.scenarios import (
    ASCEND,
    COMPRESSOR,
    GLM_DOCS,
    MXFP,
    PREFIX,
    SCHEDULER,
    TRACING,
    land,
    llm_settings,
    rows,
)
from tests.support import (
    ROOT,
    FakeClock,
    publish_round,
    replay_day,
)

Make = Callable[..., Any]


def answer(**changes: Any) -> dict[str, Any]:
    return {**VALID_BODY, **changes}


def text_of(body: AnalysisBody) -> str:
    return json.dumps(body.model_dump(mode="json"), ensure_ascii=False)


async def test_a_method_that_does_not_exist_is_dropped(make_analyzer: Make, fake: FakeLLM) -> None:
    fake.recorded[MXFP.sha] = answer(
        summary="Fixes the allgatherEP W4A8_MXFP4 quantization path on Ascend 950. "
        "It adds `AscendW4A8MXFPDynamicFusedMoEMethod.cast_routing_weights()` to skip the cast.",
        insights={"architecture": "`topk_weights` keeps its dtype for `torch.float8_e4m3fn`."},
    )
    result = await make_analyzer().analyze(MXFP, language="en")
    assert result.fallback_reason is None and result.analysis.analyzer == "llm:fake-model"
    assert "cast_routing_weights" not in text_of(result.analysis)
    assert result.analysis.summary == (
        "Fixes the allgatherEP W4A8_MXFP4 quantization path on Ascend 950."
    )
    assert result.analysis.insights is not None
    assert (
        result.analysis.insights.architecture == fake.recorded[MXFP.sha]["insights"]["architecture"]
    )
    assert result.dropped_claims == 1


async def test_a_wrong_gpu_generation_is_dropped(make_analyzer: Make, fake: FakeLLM) -> None:
    fake.recorded[SCHEDULER.sha] = answer(
        summary="Replaces the static round-robin GPU assignment with a memory-aware scheduler.",
        insights={
            "performance": "Validated on two NVIDIA RTX PRO 6000 Blackwell GPUs. "
            "Hopper GPUs such as the H100 gain the most.",
            "compatibility": "在 Hopper 架构上需要 `mem_get_info()`。",
        },
    )
    result = await make_analyzer().analyze(SCHEDULER, language="en")
    insights = result.analysis.insights
    assert insights is not None
    assert insights.performance == "Validated on two NVIDIA RTX PRO 6000 Blackwell GPUs."
    assert insights.compatibility is None
    assert "Hopper" not in text_of(result.analysis) and "H100" not in text_of(result.analysis)
    assert result.dropped_claims == 2


ENFORCE_EAGER = {
    "recommendations": [
        {"audience": "users", "text": "Start the server with `--enforce-eager` until it ships."},
        {"audience": "maintainers", "text": "Keep the guides in step with the code."},
    ]
}


async def test_a_flag_no_file_mentions_is_dropped(make_analyzer: Make, fake: FakeLLM) -> None:
    fake.recorded[MXFP.sha] = answer(**ENFORCE_EAGER)
    # A docs change called a docs change: the type stands, and the advice is all that is checked.
    fake.recorded[GLM_DOCS.sha] = answer(change_types=["docs"], **ENFORCE_EAGER)
    analyzer = make_analyzer()
    invented = await analyzer.analyze(MXFP, language="en")
    assert [r.text for r in invented.analysis.recommendations] == [
        "Keep the guides in step with the code."
    ]
    assert invented.dropped_claims == 1
    # Where the change does pass the flag, the same advice stands.
    shown = await analyzer.analyze(GLM_DOCS, language="en")
    assert len(shown.analysis.recommendations) == 2 and shown.dropped_claims == 0


async def test_a_number_the_author_never_wrote_is_dropped(
    make_analyzer: Make, fake: FakeLLM
) -> None:
    fake.recorded[PREFIX.sha] = answer(
        summary="Aligns the SlidingWindowManager block size with the scheduler's. The "
        "prefix-cache hit rate rises from 33% to 86%, a 2.6x gain.",
        risks=[{"description": "Cuts time to first token by 40% on long prompts."}],
    )
    result = await make_analyzer().analyze(PREFIX, language="en")
    assert result.analysis.summary == (
        "Aligns the SlidingWindowManager block size with the scheduler's."
    )
    assert result.analysis.risks == []
    assert result.dropped_claims == 2


TRUE_ANSWERS = [
    (
        MXFP,
        "en",
        answer(
            summary="Fixes the allgatherEP W4A8_MXFP4 quantization path on Ascend 950: "
            "`topk_weights` is no longer cast to `torch.float8_e4m3fn`, and "
            "`mxfp_use_bf16` is set for float8 inputs.",
            impact=[{"area": "vllm_ascend/quantization/methods/w4a8_mxfp4.py", "files": 1}],
            insights={
                "architecture": "`AscendW4A8MXFPDynamicFusedMoEMethod` passes routing weights "
                "to `moe_comm_method.fused_experts()` in their own dtype (+3 −2 lines).",
                "compatibility": "Applies to W4A8 MoE models on Ascend 950 (A5); tested "
                "with vLLM v0.23.0.",
            },
            risks=[
                {
                    "description": "`x.dtype in [torch.bfloat16, torch.float8_e4m3fn]` now "
                    "selects the bf16-compatible MXFP mode.",
                    "mitigation": "Check FLOAT8_E8M0FNU_DTYPE scales on other MXFP methods.",
                }
            ],
        ),
    ),
    (
        MXFP,
        "zh-CN",
        answer(
            summary="修复 Ascend 950 上 allgatherEP 的 W4A8_MXFP4 量化路径："
            "`topk_weights` 不再被转换为 `torch.float8_e4m3fn`。",
            impact=[{"area": "vllm_ascend/quantization", "files": 1}],
            recommendations=[
                {
                    "audience": "maintainers",
                    "text": "为 `AscendW4A8MXFPDynamicFusedMoEMethod` 补充 float8 输入的测试"
                    "（见 `w4a8_mxfp4.py`）。",
                }
            ],
        ),
    ),
    (
        SCHEDULER,
        "en",
        answer(
            summary="Fixes #2975: model-free PTQ now picks the GPU with the most free memory "
            "(`torch.get_device_module(dev).mem_get_info()`) instead of "
            "`devices[i % len(devices)]`.",
            impact=[{"area": "src/llmcompressor/entrypoints/model_free", "files": 2}],
            insights={
                "architecture": "`concurrent.futures.wait(FIRST_COMPLETED)` replaces a "
                "`threading.Event` callback; `_build_jobs()` no longer takes `devices`.",
                "performance": "Validated on two NVIDIA RTX PRO 6000 Blackwell GPUs.",
            },
            recommendations=[
                {
                    "audience": "users",
                    "text": "`max_workers` is now an upper bound: set it from the GPUs' memory.",
                }
            ],
        ),
    ),
]


@pytest.mark.parametrize(("commit", "language", "body"), TRUE_ANSWERS)
async def test_an_answer_the_commit_supports_is_kept_whole(
    make_analyzer: Make, fake: FakeLLM, commit: CommitInput, language: str, body: dict[str, Any]
) -> None:
    fake.recorded[commit.sha] = body
    result = await make_analyzer().analyze(commit, language=language)
    assert result.dropped_claims == 0 and result.fallback_reason is None
    kept = result.analysis.model_dump(mode="json", exclude={"analyzer"})
    assert kept == AnalysisBody.model_validate(body).model_dump(mode="json")


async def test_drops_are_counted_on_metrics_by_kind(make_analyzer: Make, fake: FakeLLM) -> None:
    fake.recorded[SCHEDULER.sha] = answer(summary="Speeds up PTQ on Hopper GPUs by 35%.")
    fake.recorded[MXFP.sha] = answer(**ENFORCE_EAGER)
    metrics = Metrics()
    analyzer = make_analyzer(metrics=metrics)
    await analyzer.analyze(SCHEDULER, language="en")
    await analyzer.analyze(MXFP, language="en")
    text = generate_latest(metrics.registry).decode()
    # One claim, one drop, by the first token without support (the hardware name).
    assert 'commit_digest_llm_claims_dropped_total{kind="hardware"} 1.0' in text
    assert 'commit_digest_llm_claims_dropped_total{kind="code"} 1.0' in text
    assert 'kind="number"' not in text


async def test_each_drop_is_logged_with_sha_and_token_never_the_answer(
    aiohttp_server: Any, fake: FakeLLM
) -> None:
    invented = "It adds `cast_routing_weights()` to skip the cast."
    fake.recorded[MXFP.sha] = answer(summary=f"Fixes the W4A8_MXFP4 path. {invented}")
    server = await aiohttp_server(fake.app())
    env = {
        **os.environ,
        "LLM_BASE_URL": str(server.make_url("/v1")),
        "LLM_API_KEY": "test-key",
        "LLM_MODEL": "fake-model",
        "LOG_LEVEL": "INFO",
        "LOG_FORMAT": "json",
    }
    pipe = asyncio.subprocess.PIPE
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "classify",
        cwd=ROOT,
        env=env,
        stdin=pipe,
        stdout=pipe,
        stderr=pipe,
    )
    raw = next(c for c in replay_day(ASCEND, "2026-07-10")["commits"] if c["sha"] == MXFP.sha)
    out, err = await proc.communicate(json.dumps(raw).encode() + b"\n")
    assert proc.returncode == 0
    (classified,) = [json.loads(line) for line in out.decode().splitlines()]
    assert classified["dropped_claims"] == 1 and "cast_routing_weights" not in out.decode()
    events = [json.loads(line) for line in err.decode().splitlines() if line.startswith("{")]
    (drop,) = [e for e in events if e["event"] == "llm_claim_dropped"]
    assert drop["level"] == "info" and drop["sha"] == MXFP.sha
    assert (drop["token"], drop["kind"], drop["field"]) == (
        "cast_routing_weights()",
        "code",
        "summary",
    )
    assert invented not in err.decode() and "W4A8_MXFP4 path" not in err.decode()


async def test_eval_reports_the_unsupported_claims_of_an_llm_run(
    make_analyzer: Make, fake: FakeLLM
) -> None:
    fake.recorded[MXFP.sha] = answer(**ENFORCE_EAGER)
    fake.recorded[SCHEDULER.sha] = answer(summary="Speeds up PTQ on Hopper GPUs by 35%.")
    lines = [
        json.dumps({"sha": c.sha, "importance": "medium", "commit": {**raw_of(c)}})
        for c in (MXFP, SCHEDULER, PREFIX)
    ]
    report = await evaluate(make_analyzer(), lines)
    assert (report.dropped_claims, report.answers) == (2, 3)
    assert "unsupported claims dropped: 2 in 3 answers" in report.lines()
    # What the guard let by is the words' "unsupported claims" measure: 0 of those it
    # checked, once the invented claims were dropped; the rules' words have no such figure.
    table = word_lines(report.entries)
    row = next(line for line in table if line.startswith("| all |") or "| 3 |" in line)
    assert row.rstrip(" |").rsplit("| ", 1)[-1].startswith("0/")
    rules_rows = word_lines(
        [
            replace(e, analysis=e.analysis.model_copy(update={"analyzer": "rules"}))
            for e in report.entries
        ]
    )
    assert "n/a (no fact guard)" in "\n".join(rules_rows)


def raw_of(commit: CommitInput) -> dict[str, Any]:
    return {
        "sha": commit.sha,
        "message": commit.message,
        "files": [f.model_dump() for f in commit.files],
    }


# --- the digest day: stored, shown in the footer, the same after a restart -----------------

DAY = "2026-08-18"
END = datetime(2026, 8, 19, tzinfo=UTC)


@pytest.mark.parametrize(
    ("language", "line", "hopper", "tracing"),
    [
        (
            "en",
            "; unsupported claims dropped from the LLM's answers: {n}.",
            "Speeds up PTQ on Hopper GPUs.",
            "Speeds up subgraph tracing. It is 5x faster.",
        ),
        (
            "zh-CN",
            "；LLM 回答中因无依据而删除的说法：{n} 条。",
            "在 Hopper GPU 上加速 PTQ。",
            "加快子图追踪。速度提升 5x。",
        ),
    ],
)
async def test_the_days_dropped_claims_are_stored_and_shown_in_the_footer(
    app_client: Callable[..., Any],
    github: FakeGitHub,
    aiohttp_server: Any,
    clock: FakeClock,
    language: str,
    line: str,
    hopper: str,
    tracing: str,
) -> None:
    llm = FakeLLM()
    # Answers in the language asked (one in another is asked again, then left to the rules).
    base = VALID_BODY_ZH if language == "zh-CN" else VALID_BODY
    for sha, summary in ((SCHEDULER.sha, hopper), (TRACING.sha, tracing)):
        llm.recorded[sha] = {**base, "summary": summary, "change_types": ["performance"]}
    settings = await llm_settings(aiohttp_server, llm)
    client, repo = await land(
        app_client, github, clock, COMPRESSOR, DAY, config=f"language: {language}\n", **settings
    )
    stored = {r.sha: r for r in await rows(client, analyses)}
    assert (stored[SCHEDULER.sha].dropped_claims, stored[TRACING.sha].dropped_claims) == (1, 1)
    # The day's other answers (the fake's default, a medium bugfix) may have verdicts the
    # rules overrule: those count as drops too.
    total = sum(r.dropped_claims for r in stored.values())
    assert total >= 2
    metrics = await (await client.get("/metrics")).text()
    assert 'commit_digest_llm_claims_dropped_total{kind="hardware"} 1.0' in metrics
    assert 'commit_digest_llm_claims_dropped_total{kind="number"} 1.0' in metrics
    await client.close()

    # Another process (a restart, a replica) publishes the day: its counters start at zero,
    # the footer's figure comes from the stored analyses.
    clock.current = END + timedelta(seconds=1)
    publisher = await app_client(**settings)
    await publish_round(publisher)
    assert "claims_dropped_total{" not in await (await publisher.get("/metrics")).text()
    (discussion,) = repo.discussions
    footer = discussion["body"].rsplit("---", 1)[-1]
    (choice,) = [x for x in footer.splitlines() if line.format(n=total) in x]
    assert choice.startswith(
        "- Analyser choice: LLM" if language == "en" else "- 分析方式的选择：LLM"
    )


# --- the facts in the prompt, after a prefix that stays byte-identical ---------------------


async def test_the_facts_come_after_the_stable_prefix_which_stays_byte_identical(
    make_analyzer: Make, fake: FakeLLM
) -> None:
    bare = CommitInput(sha="c" * 40, message="Tidy the wording", files=[])
    analyzer = make_analyzer()
    for commit, language in ((bare, "en"), (MXFP, "en"), (SCHEDULER, "zh-CN")):
        await analyzer.analyze(commit, language=language)
    (plain, first, second) = (r["messages"] for r in fake.requests)
    # One system message for every call, whatever facts the commit holds.
    assert plain[0] == first[0] == second[0]
    assert (
        "Write only what the diff, the message, the pull request and the facts"
        in (first[0]["content"])
    )
    for messages, commit in ((first, MXFP), (second, SCHEDULER)):
        user = messages[1]["content"]
        boundary = next(x for x in user.splitlines() if x.startswith("=====COMMIT-DATA-"))
        data = user.split(boundary)[-2]
        # The facts are data of the commit, first in it, before the message.
        facts = data.index("Facts read from the change:\n")
        assert facts < data.index("Message:\n")
        read = read_facts(commit)
        named = sorted(read.names())
        assert named, "the replay commit names something"
        section = data[facts : data.index("Message:\n")]
        assert all(name in section for name in named[:5])
        # The files (listed in the prompt anyway) come last, where a budget cut falls first.
        headers = [line for line in section.splitlines()[1:] if line and line[0] != "{"]
        assert headers[-1] in ("files:", "[facts shortened]")
    # A commit with nothing to read has no facts section.
    assert "Facts read from the change" not in plain[1]["content"]


def test_the_facts_count_against_the_prompt_budget() -> None:
    many = Facts(added=tuple(Name(f"name_{i}", NameKind.FUNCTION, "a.py") for i in range(2_000)))
    prompt = build_prompt(SCHEDULER, language="en", max_input_tokens=4_000, facts=many)
    assert "[facts shortened]" in prompt.user
    assert prompt.tokens <= 4_000
