"""Markdown pieces every post shares: links the App builds, and code spans in table cells."""

from __future__ import annotations

from bot.analysis.spans import code


def url(value: str) -> str | None:
    """A link target, or None for anything but http(s) (no `javascript:`, no relative links)."""
    if not value.startswith(("https://", "http://")):
        return None
    return value.replace(" ", "%20").replace("(", "%28").replace(")", "%29")


def link(label: str, target: str | None) -> str:
    """`[label](target)`, or the label alone when there is no usable target."""
    safe = url(target) if target else None
    return f"[{label}]({safe})" if safe else label


def code_cell(value: str) -> str:
    """A code span inside a table cell: GFM splits cells on `|` even inside code."""
    return code(value).replace("|", "\\|")
