"""Whether the author's words name the hole a change closes: an advisory's or a weakness's id,
or a denial of service."""

from __future__ import annotations

import re

from bot.analysis.signals import NOT_PROSE

# GHSA-…, CVE-…, CWE-… in any case; "ReDoS", "DoS" as written (MS-DOS's "DOS", a `dos` in a
# name are no attack); a denial of service spelled out
_HOLE = re.compile(
    r"\b(?i:ghsa(?:-[23456789cfghjmpqrvwx]{4}){3}|cve-\d{4}-\d{4,}|cwe-\d+"
    r"|denial[- ]of[- ]service)\b"
    r"|(?<![\w/.-])(?:ReDo[Ss]|ReDOS|DoS)(?![\w-])"
)
# Where a bump starts quoting its dependency's notes (Dependabot, Renovate): not the author's
_QUOTED = re.compile(
    r"^\s*(?:<details>|<summary>|(?:#+\s*)?(?:release notes|changelog|commits)\s*$)", re.I | re.M
)


def names_hole(*texts: str) -> bool:
    """Whether any of the author's `texts` (a title, a description, the changelog entry the
    commit adds) names a security hole: a published advisory, a weakness, a denial of
    service, in prose (a code span, a quotation or an enumeration of examples is not: "keep
    the case (NaN, CVE-2024-1234, TPOT)"); a dependency's notes a bump quotes are not the
    author's."""
    for text in texts:
        quoted = _QUOTED.search(text)
        if _HOLE.search(NOT_PROSE.sub(" ", text[: quoted.start()] if quoted else text)):
            return True
    return False
