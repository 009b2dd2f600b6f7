"""Model families a title may name: a change for one family is of limited reach.

The table is curated, not complete: the open-weight families that serving, quantization and
kernel libraries most often name in a title. A name counts with its version (`Qwen3`,
`DeepSeek-V3.2`, `Kimi K3`); names that are also English words (Step, Phi, GLM, Yi) count only
with a version. The tags of one model (`[Qwen3Next]`) are read by `signals.py`.
"""

from __future__ import annotations

import re

# Distinctive names: they count alone or with a version.
_NAMES = (
    "llama",
    "qwen",
    "deepseek",
    "gemma",
    "paligemma",
    "mistral",
    "mixtral",
    "pixtral",
    "kimi",
    "chatglm",
    "granite",
    "minimax",
    "internvl",
    "internlm",
    "llava",
    "whisper",
    "nemotron",
    "hunyuan",
    "baichuan",
    "falcon",
    "exaone",
    "olmo",
    "jamba",
    "dbrx",
    "gpt-oss",
    "ernie",
    "starcoder",
    "siglip",
    "idefics",
    "molmo",
)
# Names that are words too: only with a version written close (`Step3.5`, `Phi-4`, `GLM-4.5`).
_VERSIONED = ("step", "phi", "glm", "yi")
_VERSION = r"[\s-]?v?\d[\w.]*"
_FAMILY = re.compile(
    r"(?<![A-Za-z0-9_])("
    + "|".join(re.escape(n) for n in sorted(_NAMES, key=len, reverse=True))
    + rf")(?:{_VERSION})?"
    # a project named after a family is not the family (`llama.cpp`, `llama_index`)
    + r"(?![A-Za-z_]|\.cpp|-cpp)"
    + "|(?<![A-Za-z0-9_])(?:"
    + "|".join(_VERSIONED)
    # no space: "step 2 of the plan" is no model
    + r")-?v?\d[\w.]*(?![A-Za-z_])",
    re.IGNORECASE,
)


def model_family(text: str) -> str | None:
    """The first model family `text` names, as written (`Qwen3`, `DeepSeek V4`), or None."""
    m = _FAMILY.search(text)
    return m.group(0) if m else None
