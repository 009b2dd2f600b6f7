"""Sphinx's issue roles (`sphinx-issues`) as a reader of the rendered changelog sees them."""

from __future__ import annotations

import re

# `:issue:`123``, `:pr:`45``, `:user:`name``, `:gh:`7``; several numbers in one role
# (`:issue:`12, 13``), another repository's (`:issue:`owner/repo#12``), a title before the
# target (`:user:`Steven Loria <sloria>``); `:ghsa:` and `:cve:` name an advisory.
_ROLE = re.compile(r":(ghsa|cve|issue|pr|user|gh):`([^`]*)`", re.IGNORECASE)
_TARGET = re.compile(r"<([^<>]+)>\s*$")


def issue_roles(text: str) -> str:
    """`text` with each issue role as its rendered link reads: `:issue:`123`` and
    `:pr:`45`` as `#123` and `#45`, `:user:`name`` as `@name`, `:ghsa:`…`` as `GHSA-…`,
    `:cve:`…`` as `CVE-…` (never dropped: "Fix the leak (:issue:`12`)" is not "Fix the
    leak ()")."""
    return _ROLE.sub(_rendered, text)


def _rendered(match: re.Match[str]) -> str:
    role, body = match.group(1).lower(), match.group(2).strip()
    target = _TARGET.search(body)
    if target:
        body = target.group(1).strip()
    if role in ("ghsa", "cve"):
        return f"{role.upper()}-{body}"
    parts = [p.strip() for p in body.split(",") if p.strip()]
    if role == "user":
        return ", ".join(f"@{p.lstrip('@')}" for p in parts)
    return ", ".join(p if "#" in p else f"#{p.lstrip('#')}" for p in parts)
