"""The fact guard, pure: which claims real replay commits support, what is dropped and what
stands in, and no crash on any answer (Hypothesis)."""

from __future__ import annotations

import re
from typing import Any

import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.analysis import rules
from bot.analysis.ground import Ground
from bot.analysis.guard import Kind, audit, guard, sentences, unsupported
from bot.models import AnalysisBody, CommitInput, FileChange
from tests.fakes.llm import VALID_BODY
from tests.scenarios import GLM_DOCS, GRANITE, MXFP, PREFIX, SCHEDULER, TRACING

# An SM100 kernel change as the old job's report had one (FlashMLA, vllm#32810): not in the
# replay days, so written here in the shape of its diff.
SM100 = CommitInput(
    sha="5" * 40,
    message="[Kernel] Add FlashMLA sparse decode for sm100 (#32810)\n\nBuilds the kernels for "
    "SM100 with CUDA 12.9 and exposes `flash_mla_sparse_fwd`.",
    files=[
        FileChange(
            filename="csrc/attention/mla/sm100/sparse_decode.cu",
            status="added",
            additions=2,
            patch="@@ -0,0 +1,2 @@\n+// sm100a only\n+void flash_mla_sparse_fwd();",
        ),
        FileChange(
            filename="CMakeLists.txt",
            additions=1,
            patch='@@ -10,0 +11 @@\n+set(SPARSE_MLA_ARCHS "10.0a")',
        ),
    ],
)


SUPPORTED = [
    (MXFP, "Fixes the allgatherEP W4A8_MXFP4 quantization path on Ascend 950."),
    (MXFP, "`topk_weights` is no longer cast to `torch.float8_e4m3fn`."),
    (MXFP, "Sets `mxfp_use_bf16` for `x.dtype` in `moe_comm_method.fused_experts()`."),
    (MXFP, "Only `vllm_ascend/quantization/methods/w4a8_mxfp4.py` changes (+3 −2)."),
    (MXFP, "The fix is in `w4a8_mxfp4.py`, under vllm_ascend/quantization/methods/."),
    (MXFP, "`AscendW4A8MXFPDynamicFusedMoEMethod` keeps routing weights in their dtype."),
    (MXFP, "修复 `AscendW4A8MXFPDynamicFusedMoEMethod` 中 `topk_weights` 的 float8 转换。"),
    (MXFP, "Ascend 950（A5）上的 W4A8 MoE 推理恢复正常，已在 vLLM v0.23.0 上验证。"),
    (MXFP, "The FLOAT8_E8M0FNU_DTYPE scale dtype is unchanged."),
    (SCHEDULER, "Validated on two NVIDIA RTX PRO 6000 Blackwell GPUs."),
    (SCHEDULER, "Replaces `devices[i % len(devices)]` with `mem_get_info()` per device."),
    (SCHEDULER, "Fixes #2975: `_build_jobs()` no longer takes `devices`."),
    (SCHEDULER, "`concurrent.futures.wait(FIRST_COMPLETED)` replaces `threading.Event`."),
    (SCHEDULER, "See src/llmcompressor/entrypoints/model_free/scheduler.py and `_pick_device`."),
    (SCHEDULER, "Tests in tests/llmcompressor/entrypoints/model_free/test_dynamic_*.py."),
    (SCHEDULER, "`torch.get_device_module(dev).mem_get_info` reports the free memory."),
    (GRANITE, "FP8 needs compute capability above 8.9, that is Ada Lovelace or Hopper."),
    (TRACING, "Subgraph tracing is 3.14× faster."),
    (TRACING, "Subgraph tracing is about 3.1x faster, a 214% gain."),
    (PREFIX, "The prefix-cache hit rate rises from 33% to 86%."),
    (GLM_DOCS, "The guide starts the server with `--enforce-eager`."),
    (SM100, "Adds sparse decode kernels for Blackwell (SM100, `sm_100a`)."),
    (SM100, "Built for compute capability 10.0 and CUDA 12.9."),
]


@pytest.mark.parametrize(("commit", "claim"), SUPPORTED)
def test_claims_the_commit_supports_are_kept(commit: CommitInput, claim: str) -> None:
    assert unsupported(claim, Ground(commit)) is None


UNSUPPORTED = [
    # a method the diff does not have
    (MXFP, "Adds `AscendW4A8MXFPDynamicFusedMoEMethod.cast_routing_weights()`.", Kind.CODE),
    (MXFP, "The new helper skip_float8_cast avoids the cast.", Kind.IDENTIFIER),
    # the old job's AttributeError that does not happen
    (MXFP, "Fixes an AttributeError raised by the MoE method.", Kind.IDENTIFIER),
    # a flag no file mentions, in a code span or in prose
    (MXFP, "Run with `--enforce-eager` if graph mode fails.", Kind.CODE),
    (MXFP, "Users should pass --enforce-eager for now.", Kind.FLAG),
    (MXFP, "Set VLLM_ASCEND_ENABLE_MXFP to turn it off.", Kind.IDENTIFIER),
    (MXFP, "Cuts MoE latency by 35%.", Kind.NUMBER),
    (MXFP, "Speeds up the fused experts kernel 1.8x.", Kind.NUMBER),
    (MXFP, "See vllm_ascend/ops/fused_moe.py for the kernel.", Kind.PATH),
    (MXFP, "Requires Hopper GPUs.", Kind.HARDWARE),
    # a wrong GPU generation
    (SCHEDULER, "Validated on NVIDIA Hopper GPUs.", Kind.HARDWARE),
    (SCHEDULER, "Validated on H100.", Kind.HARDWARE),
    (GRANITE, "FP8 needs Blackwell.", Kind.HARDWARE),
    (SM100, "Adds sparse decode kernels for Hopper.", Kind.HARDWARE),
    (SM100, "Adds SM90 kernels.", Kind.HARDWARE),
    (SM100, "在 Hopper（sm90a）上启用 FlashMLA。", Kind.HARDWARE),
    # numbers the author never wrote (a figure derived from theirs is not theirs)
    (TRACING, "Subgraph tracing is 5x faster.", Kind.NUMBER),
    (PREFIX, "The hit rate rises 2.6x.", Kind.NUMBER),
    (PREFIX, "The hit rate improves by 53 points.", Kind.NUMBER),
]


@pytest.mark.parametrize(("commit", "claim", "kind"), UNSUPPORTED)
def test_claims_the_commit_does_not_support_are_found(
    commit: CommitInput, claim: str, kind: Kind
) -> None:
    found = unsupported(claim, Ground(commit))
    assert found is not None and found[0] is kind


def test_plain_words_are_never_checked() -> None:
    for claim in (
        "Fixes a crash in the scheduler when the queue is empty.",
        "Maintainers should run the accuracy suite before the next release.",
        "修复了调度器在队列为空时崩溃的问题，建议在下次发布前运行精度测试。",
        "The API now returns IDs for GPUs and NPUs, e.g. in the CLI.",
    ):
        assert unsupported(claim, Ground(MXFP)) is None


def body(**changes: Any) -> AnalysisBody:
    return AnalysisBody.model_validate({**VALID_BODY, **changes})


def rules_of(commit: CommitInput) -> Any:
    return lambda: rules.analyze(commit)


def test_only_the_unsupported_sentence_of_a_field_is_dropped() -> None:
    answer = body(
        summary="Fixes the W4A8_MXFP4 path on Ascend 950. It adds `cast_routing_weights()`. "
        "`topk_weights` keeps its dtype.",
        insights={
            "performance": "Speeds up MoE by 35%.",
            "compatibility": "No configuration changes are needed.",
        },
    )
    checked = guard(answer, MXFP, stand_in=rules_of(MXFP))
    assert checked.body.summary == (
        "Fixes the W4A8_MXFP4 path on Ascend 950. `topk_weights` keeps its dtype."
    )
    assert checked.body.insights is not None
    assert checked.body.insights.performance is None
    assert checked.body.insights.compatibility == "No configuration changes are needed."
    assert [(d.field, d.kind, d.token) for d in checked.dropped] == [
        ("summary", Kind.CODE, "cast_routing_weights()"),
        ("insights.performance", Kind.NUMBER, "35%"),
    ]
    assert not checked.summary_from_rules


def test_a_risk_recommendation_or_area_goes_whole_and_empty_fields_are_omitted() -> None:
    answer = body(
        insights={"architecture": "Adds `RoutingWeightCaster`."},
        risks=[
            {"description": "Other MLP paths may rely on the old cast."},
            {"description": "The cast is skipped.", "mitigation": "Pass `--enforce-eager`."},
        ],
        recommendations=[
            {"audience": "users", "text": "Set VLLM_ASCEND_MXFP_BF16=1 on Ascend 950."},
            {"audience": "maintainers", "text": "Add a regression test for `topk_weights`."},
        ],
        impact=[
            {"area": "vllm_ascend/quantization", "files": 1},
            {"area": "vllm_ascend/ops/fused_moe", "files": 1},
        ],
    )
    checked = guard(answer, MXFP, stand_in=rules_of(MXFP))
    assert checked.body.insights is None
    assert [r.description for r in checked.body.risks] == [
        "Other MLP paths may rely on the old cast."
    ]
    assert [r.text for r in checked.body.recommendations] == [
        "Add a regression test for `topk_weights`."
    ]
    assert [a.area for a in checked.body.impact] == ["vllm_ascend/quantization"]
    assert [d.field for d in checked.dropped] == [
        "insights.architecture",
        "risks",
        "recommendations",
        "impact",
    ]


def test_an_answer_the_commit_supports_comes_back_unchanged() -> None:
    answer = body(
        summary="Fixes the allgatherEP W4A8_MXFP4 path: `topk_weights` stays in its dtype.",
        impact=[{"area": "vllm_ascend/quantization/methods", "files": 1}],
    )
    checked = guard(answer, MXFP, stand_in=rules_of(MXFP))
    assert checked.body is answer and checked.dropped == ()


def test_a_wholly_unsupported_summary_gives_way_to_the_rules_summary() -> None:
    answer = body(summary="Adds `RoutingWeightCaster`. Speeds up decode by 35%.")
    checked = guard(answer, MXFP, stand_in=rules_of(MXFP))
    assert checked.summary_from_rules
    assert checked.body.summary == rules.analyze(MXFP).summary
    assert len(checked.dropped) == 2
    # The rest of the answer stays the model's.
    assert checked.body.risks == answer.risks


def test_a_low_answer_whose_stand_in_summary_is_too_long_gets_the_title() -> None:
    long = "A" + " word" * 60 + "."  # one sentence over 200 characters
    answer = body(importance="low", summary="Adds `RoutingWeightCaster`.")

    def stand_in() -> AnalysisBody:
        return rules.analyze(MXFP).model_copy(update={"summary": long})

    checked = guard(answer, MXFP, stand_in=stand_in)
    assert checked.body.summary == MXFP.title and checked.summary_from_rules


@pytest.mark.parametrize(
    "text",
    [
        "One. Two! Three? 四。五！",
        "A line\nanother line\n\n- a bullet. With `a. b` inside.",
        "Uses `x.y. z` e.g. here, i.e. there. Then more.",
        "",
    ],
)
def test_a_field_splits_into_claims_that_join_back(text: str) -> None:
    assert "".join(sentences(text)) == text


def test_code_spans_are_never_split() -> None:
    assert sentences("Calls `a. B` now. Done.") == ["Calls `a. B` now. ", "Done."]


# --- Hypothesis: hostile answers and commits ----------------------------------------------

_HOSTILE = st.text(
    alphabet=st.sampled_from([*"`*_/.-%×x#@()[]<>:=~0123456789 \n\tSMsmHhB", "中", "。"])
    # any character but lone surrogates (JSON from GitHub or the model cannot carry them)
    | st.characters(blacklist_categories=("Cs",)),
    max_size=200,
)
_TEXT = _HOSTILE.map(lambda t: f"x {t}")


@st.composite
def answers(draw: st.DrawFn) -> AnalysisBody | None:
    data = {
        **VALID_BODY,
        "importance": draw(st.sampled_from(["high", "medium", "low"])),
        "summary": draw(_TEXT),
        "insights": {"performance": draw(_TEXT), "architecture": draw(_TEXT)},
        "risks": [
            {"description": draw(_TEXT), "mitigation": draw(_TEXT)}
            for _ in range(draw(st.integers(0, 2)))
        ],
        "recommendations": [
            {"audience": "users", "text": draw(_TEXT)} for _ in range(draw(st.integers(0, 2)))
        ],
        "impact": [{"area": draw(_HOSTILE.map(lambda t: f"a{t[:100]}")), "files": 1}],
    }
    try:
        return AnalysisBody.model_validate(data)
    except pydantic.ValidationError:
        return None  # not an answer the analyser would accept: the guard never sees it


@st.composite
def commits(draw: st.DrawFn) -> CommitInput:
    return CommitInput(
        sha="9" * 40,
        message=draw(_HOSTILE),
        files=[
            FileChange(filename=draw(_TEXT), patch=draw(_HOSTILE), additions=3)
            for _ in range(draw(st.integers(0, 2)))
        ],
    )


def _folded(item: BaseModel) -> dict[str, object]:
    """An answer's item with each text's runs of whitespace read as one space."""
    return {
        key: " ".join(value.split()) if isinstance(value, str) else value
        for key, value in item.model_dump().items()
    }


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=answers(), commit=st.one_of(commits(), st.just(MXFP)))
def test_no_answer_and_no_commit_crashes_the_guard(
    answer: AnalysisBody | None, commit: CommitInput
) -> None:
    if answer is None:
        return
    checked = guard(answer, commit, stand_in=rules_of(commit))
    out = checked.body
    assert isinstance(out, AnalysisBody) and out.summary
    # Nothing is added: what is kept is the answer's, in its order (its whitespace folded:
    # a fitted text's "\r" is a space)
    for kept, offered in (
        (out.risks, answer.risks),
        (out.recommendations, answer.recommendations),
        (out.impact, answer.impact),
    ):
        said = [_folded(item) for item in kept]
        assert [f for f in map(_folded, offered) if f in said] == said
    if not checked.dropped:
        assert out is answer


_NAME = r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]{2,}(?:\.[A-Za-z_][A-Za-z0-9_]{2,})*"
_NAMES = sorted(set(re.findall(_NAME, MXFP.message)) | set(re.findall(_NAME, MXFP.files[0].patch)))


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(st.sampled_from(_NAMES), min_size=1, max_size=4),
    path=st.sampled_from([MXFP.files[0].filename, "w4a8_mxfp4.py", "vllm_ascend/quantization"]),
)
def test_a_claim_made_of_the_commits_own_names_is_kept(names: list[str], path: str) -> None:
    spans = ", ".join(f"`{n}`" for n in names)
    plain = " and ".join(names)
    for claim in (
        f"Changes {spans} in {path}.",
        f"Changes {plain} in `{path}`.",
        f"修改了 {spans}（{path}）。",
        f"Calls `{names[0]}()` from {path}.",
    ):
        assert unsupported(claim, Ground(MXFP)) is None, claim


def test_audit_counts_the_claims_an_analysis_holds_and_those_unsupported() -> None:
    answer = body(
        summary="Fixes the W4A8_MXFP4 path. It adds `cast_routing_weights()`.",
        insights={"compatibility": "No configuration changes are needed."},
        risks=[{"description": "Pass `--enforce-eager`.", "mitigation": "Run the suite."}],
        recommendations=[],
        impact=[{"area": "vllm_ascend/quantization", "files": 1}],
    )
    assert audit(MXFP, answer) == (2, 5)
    assert audit(MXFP, guard(answer, MXFP, stand_in=rules_of(MXFP)).body) == (0, 3)
