"""Accelerator generations and the chips and architectures that belong to each, for the fact
guard: a claim naming a generation must match the hardware the commit itself names.

The table is curated, not complete: NVIDIA (Pascal to Blackwell), AMD Instinct (CDNA) and
Radeon (RDNA), Huawei Ascend, Intel Gaudi. A generation's name (Hopper) is supported by any
of its members the commit names (`sm90`, `H100`); a member (`H100`, `sm100`) only by itself.
So a change to `sm100` kernels described as "Hopper" is not supported: SM100 is Blackwell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.analysis.ground import Ground

# generation: (its own names, the names of its chips and architectures). Lowercase; a space
# matches any run of spaces or hyphens. SM architectures are written `smNN` and also match
# `sm_NN`, `smNNa`, `compute_NN` and "compute capability N.N".
GENERATIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "pascal": (("pascal",), ("p100", "p40", "gtx 1080", "sm60", "sm61")),
    "volta": (("volta",), ("v100", "titan v", "sm70", "sm72")),
    "turing": (("turing",), ("t4", "rtx 2080", "quadro rtx", "sm75")),
    "ampere": (
        ("ampere",),
        ("a100", "a800", "a10", "a10g", "a30", "a40", "a6000", "rtx 3090", "sm80", "sm86", "sm87"),
    ),
    "ada": (
        ("ada lovelace", "ada"),
        ("l4", "l20", "l40", "l40s", "rtx 4090", "rtx 6000 ada", "sm89"),
    ),
    "hopper": (("hopper",), ("h100", "h200", "h800", "h20", "gh200", "sm90")),
    "blackwell": (
        ("blackwell",),
        (
            "b100",
            "b200",
            "b300",
            "gb200",
            "gb300",
            "rtx 5090",
            "rtx pro 6000",
            "sm100",
            "sm101",
            "sm103",
            "sm110",
            "sm120",
            "sm121",
        ),
    ),
    "rubin": (("rubin",), ("vr200", "r100")),
    "cdna2": (("cdna2", "cdna 2"), ("mi200", "mi210", "mi250", "mi250x", "gfx90a")),
    "cdna3": (
        ("cdna3", "cdna 3"),
        ("mi300", "mi300x", "mi300a", "mi308x", "mi325x", "gfx942"),
    ),
    "cdna4": (("cdna4", "cdna 4"), ("mi350", "mi350x", "mi355x", "gfx950")),
    "rdna3": (("rdna3", "rdna 3"), ("rx 7900", "gfx1100", "gfx1101")),
    "rdna4": (("rdna4", "rdna 4"), ("rx 9070", "gfx1200", "gfx1201")),
    # Huawei's Atlas A2 and A3 series are built on the Ascend 910B and 910C; the 950 is the A5.
    "ascend-a2": (("atlas a2", "a2"), ("910b", "910b1", "910b2", "910b3", "910b4")),
    "ascend-a3": (("atlas a3", "a3"), ("910c",)),
    "ascend-a5": (("atlas a5", "a5"), ("ascend 950", "950pr", "950dt")),
    "ascend-310p": (("310p",), ("atlas 300i duo", "300i duo")),
    "gaudi": (("gaudi",), ("gaudi2", "gaudi3")),
}

# An SM architecture in a claim: `sm90`, `SM_100a`, `compute_90`, "compute capability 9.0".
_SM = re.compile(
    r"(?<![a-z0-9_])(?:sm_?|compute_)(\d{2,3})[a-z]?(?![a-z0-9])"
    r"|compute capability\s*(?:of\s*|>=?\s*|≥\s*)?(\d{1,2})\.(\d)",
    re.IGNORECASE,
)
# What follows "compute capability" in the commit: "9.0", "of 9.0", ">= 8.9".
_CAPABILITY = re.compile(r"\s*(?:of\s*|>=?\s*|≥\s*)?(\d{1,2}\.\d)(?!\d)")
# Every name but the SM architectures: name -> (generation, whether it names the generation).
_NAMES = {
    name: (generation, name in own)
    for generation, (own, members) in GENERATIONS.items()
    for name in (*own, *members)
    if not name.startswith("sm")
}
_SM_GENERATION = {
    name: generation
    for generation, (_, members) in GENERATIONS.items()
    for name in members
    if name.startswith("sm")
}


def _pattern(name: str) -> str:
    return r"[\s-]+".join(re.escape(part) for part in name.split())


_ANY = re.compile(
    r"(?<![A-Za-z0-9_])(?:"
    + "|".join(_pattern(n) for n in sorted(_NAMES, key=len, reverse=True))
    + r")(?![A-Za-z0-9_])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Mention:
    """A hardware name in a claim: where it is, and what it names."""

    start: int
    end: int
    text: str
    generation: str
    # The chip or architecture (`h100`, `sm100`); None where the claim names the generation.
    member: str | None


def mentions(text: str) -> list[Mention]:
    """The hardware a piece of text names, in order (an SM the table lacks is left out)."""
    found: list[Mention] = []
    for m in _ANY.finditer(text):
        name = " ".join(re.split(r"[\s-]+", m.group(0).lower()))
        generation, whole = _NAMES[name]
        found.append(Mention(m.start(), m.end(), m.group(0), generation, None if whole else name))
    for m in _SM.finditer(text):
        key = f"sm{m.group(1)}" if m.group(1) else f"sm{m.group(2)}{m.group(3)}"
        if key in _SM_GENERATION:
            found.append(Mention(m.start(), m.end(), m.group(0), _SM_GENERATION[key], key))
    found.sort(key=lambda x: (x.start, -x.end))
    kept: list[Mention] = []
    for mention in found:
        if not kept or mention.start >= kept[-1].end:
            kept.append(mention)
    return kept


def supported(mention: Mention, ground: Ground) -> bool:
    """Whether the commit names this hardware: the same chip or architecture, or for a
    generation, any of its names."""
    if mention.member is not None:
        return _named(mention.member, ground)
    own, members = GENERATIONS[mention.generation]
    return any(_named(n, ground) for n in (*own, *members))


def _named(name: str, ground: Ground) -> bool:
    if name.startswith("sm"):
        number = name[2:]
        capability = f"{number[:-1]}.{number[-1]}"
        return (
            any(ground.leads(f"{p}{number}") for p in ("sm", "sm_", "compute_"))
            # CUDA architecture lists (`TORCH_CUDA_ARCH_LIST="9.0a 10.0a"`)
            or ground.occurs(f"{capability}a")
            or any(_capability(rest) == capability for rest in ground.after("compute capability"))
        )
    parts = name.split()
    return any(ground.occurs(joiner.join(parts)) for joiner in (" ", "-", ""))


def _capability(text: str) -> str | None:
    m = _CAPABILITY.match(text)
    return m.group(1) if m else None
