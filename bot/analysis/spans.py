"""A Markdown code span that holds any text verbatim, backticks included."""

from __future__ import annotations

import re


def code(value: str) -> str:
    """A code span holding `value` verbatim (on one line), whatever backticks it contains:
    CommonMark closes a span at the first run of backticks as long as its opening one."""
    value = " ".join(value.split())
    if not value:
        return ""
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"
