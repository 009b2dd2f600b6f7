"""A change of layout alone (spacing, wrapping, comments) runs the same code: low, and no
regression test asked (flash-attention 766ed201, "[CuTe] Fix lint failure"), built as clones."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.models import Analysis, Importance
from tests.clones import second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

MODULE = (
    "class Backward:\n"
    "    def apply_score_mod(self, n_block, m_block):\n"
    '        """Apply the score modification."""\n'
    "        # With 2CTA, partition_C must see the full cluster tile so each CTA \n"
    "        tile = self.tile_n * self.cta_group_size\n"
    "        offset = make_offset(\n"
    "            (n_block * tile, m_block * self.tile_m), tile\n"
    "        )\n"
    "        return offset\n"
)
REFORMATTED = MODULE.replace("each CTA \n", "each CTA\n").replace(
    "make_offset(\n            (n_block * tile, m_block * self.tile_m), tile\n        )",
    "make_offset((n_block * tile, m_block * self.tile_m), tile)",
)
KERNEL = (
    "__global__ void scale(float* x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;  // one thread an element\n"
    "  if (i < n) { x[i] = x[i] * 2.0f; }\n"
    "}\n"
)


def _analysis(tmp_path: Path, path: str, before: str, after: str, title: str) -> Analysis:
    _, commit = second_commit(tmp_path, {path: before}, {path: after}, title)
    return analyze(commit)


def _asks_for_a_test(analysis: Analysis) -> bool:
    return any("regression test" in r.text for r in analysis.recommendations)


def test_a_python_reformat_is_low_and_asks_for_no_test(tmp_path: Path) -> None:
    analysis = _analysis(
        tmp_path, "pkg/cute/flash_bwd.py", MODULE, REFORMATTED, "[CuTe] Fix lint failure"
    )
    assert analysis.importance is Importance.LOW
    assert not _asks_for_a_test(analysis)


def test_a_python_indent_or_a_value_is_code(tmp_path: Path) -> None:
    # the same tokens, one line taken out of its block: Python's indent is code
    dedented = MODULE.replace("        return offset\n", "    return offset\n")
    analysis = _analysis(
        tmp_path, "pkg/cute/flash_bwd.py", MODULE, dedented, "[CuTe] Fix lint failure"
    )
    assert analysis.importance is Importance.MEDIUM
    assert _asks_for_a_test(analysis)


def test_a_cuda_rewrap_is_low_and_a_changed_constant_is_not(tmp_path: Path) -> None:
    rewrapped = KERNEL.replace(
        "  if (i < n) { x[i] = x[i] * 2.0f; }\n", "  if (i < n) {\n    x[i] = x[i] * 2.0f;\n  }\n"
    ).replace("// one thread an element", "// one thread per element")
    low = _analysis(tmp_path / "a", "csrc/scale.cu", KERNEL, rewrapped, "Fix formatting")
    assert low.importance is Importance.LOW
    assert not _asks_for_a_test(low)
    changed = rewrapped.replace("2.0f", "3.0f")
    medium = _analysis(tmp_path / "b", "csrc/scale.cu", KERNEL, changed, "Fix formatting")
    assert medium.importance is Importance.MEDIUM
