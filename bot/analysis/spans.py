"""A Markdown code span that holds any text verbatim, backticks included."""

from __future__ import annotations

import re


def code(value: str, *, spaces: bool = False) -> str:
    """A code span holding `value` verbatim (on one line), whatever backticks it contains:
    CommonMark closes a span at the first run of backticks as long as its opening one.
    `spaces` keeps the runs of spaces of a one-line value (a literal's `'  1500'`), which
    a code span shows as written."""
    value = value if spaces and "\n" not in value else " ".join(value.split())
    if not value:
        return ""
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"
