"""Hostile `.github/commit-digest.yml` files, each within the 64 KB the App reads: shared by
the config tests and `bench/config_bombs.py`."""

from __future__ import annotations


def alias_bomb(levels: int, *, under: str) -> str:
    """The 447-byte kind: each level a list of nine aliases of the one before, 9**levels
    values once expanded, nested inline under the key `under`."""
    parts = ["&a0 [low, low, low, low, low, low, low, low, low]"]
    for level in range(1, levels):
        parts.append(f"&a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    inner = "[" + ", ".join(parts) + "]"
    return under + inner + "\n"


# (name, file, the key the error names, words it says)
BOMBS = [
    ("anchors under llm.for", alias_bomb(9, under="llm:\n  for: "), "`llm.for", "values"),
    (
        "anchors under exclude.paths",
        alias_bomb(8, under="exclude:\n  paths: "),
        "`exclude.paths",
        "values",
    ),
    ("anchors under branches", alias_bomb(9, under="branches: "), "`branches", "values"),
    (
        "anchored text repeated",
        "a: &s '" + "x" * 4000 + "'\nexclude:\n  authors: [" + ", ".join(["*s"] * 60) + "]\n",
        "`exclude.authors.",
        "characters",
    ),
    (
        "deep nesting",
        "llm:\n  for: " + "[" * 20_000 + "]" * 20_000 + "\n",
        "`llm.for`",
        "nested too deeply",
    ),
    (
        "deep block nesting",
        "exclude:\n  paths:\n" + "    " + "- " * 3000 + "x\n",
        "`exclude.paths.0",
        "nested too deeply",
    ),
    ("a 4,301-digit cutoff", "cutoff: " + "9" * 4301 + "\n", "`cutoff`", "4,301 digits"),
    (
        "a huge hex number",
        "alerts:\n  max_per_day: 0x" + "f" * 5000 + "\n",
        "`alerts.max_per_day`",
        "digits",
    ),
    (
        "a huge text",
        "publish:\n  title: '" + "x" * 60_000 + "'\n",
        "`publish.title`",
        "60,000 characters",
    ),
    ("many keys", "exclude:\n" + "".join(f"  k{i}: 1\n" for i in range(5000)), "`exclude`", "keys"),
    ("many keys at the top", "".join(f"k{i}: 1\n" for i in range(5000)), "`(file)`", "keys"),
    ("an alias of itself", "branches: &a [main, *a]\n", "`branches.1`", "itself"),
]
