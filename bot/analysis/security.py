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


# A cost that grows faster than the input, in the author's words: an input crafted to hit it
# stalls whoever parses it, a denial of service ("avoid quadratic marker scans", "O(n^2)",
# "catastrophic backtracking"); not a quadratic equation, nor an exponential backoff.
_BLOWUP = re.compile(
    r"\bquadratic(?!\s+(?:interpolation|equations?|forms?|splines?|programming|curves?"
    r"|bezier|roots?|formulas?|loss|kernels?|weights?|probing|terms?|fits?))\b"
    r"|\bexponential(?:ly)?\s+(?:time|blow-?ups?|complexity|runtime|backtracking|growth"
    r"|slow\w*)\b|\bcatastrophic(?:ally)?\s+backtrack\w*|\bpathological\s+inputs?\b"
    r"|\bO\(\s*n\s*(?:\^|\*\*)\s*[2-9]\s*\)|\bO\(n²\)|\bO\(\s*2\s*(?:\^|\*\*)\s*n\s*\)",
    re.IGNORECASE,
)
# Code that reads what it is given (a parser, a scanner, a pattern): whoever sends the input
# decides its cost.
READS_INPUT = re.compile(
    r"pars\w*|lex\w*|tokeni[sz]\w*|scan\w*|regexp?\b|regex\w*|decod\w*|deserializ\w*"
    r"|unmarshal\w*",
    re.IGNORECASE,
)
# Words of an added comment or docstring that tell what the code did before the change
_TOLD_BEFORE = re.compile(
    r"\b(?:used to|previously|formerly|was|were|became|the old)\b", re.IGNORECASE
)


def names_blowup(*texts: str) -> bool:
    """Whether any of the author's `texts` names an input whose cost grows faster than its
    size (quadratic, exponential time, catastrophic backtracking), in prose."""
    return any(_BLOWUP.search(NOT_PROSE.sub(" ", text)) for text in texts)


def told_in_code(patch: str) -> list[str]:
    """The blocks of lines a patch adds (a comment, a docstring) that tell what the code did
    before it ("This used to be implemented as …"): the author's words on the fix, written
    beside it."""
    blocks: list[str] = []
    lines: list[str] = []
    for line in [*patch.split("\n"), ""]:
        if line.startswith("+") and not line.startswith("+++"):
            # (a docstring's quotes delimit no quotation)
            lines.append(
                re.sub(r"[rbuRBU]?(?:\"\"\"|''')", " ", line[1:]).strip().lstrip("#").strip()
            )
            continue
        if lines and _TOLD_BEFORE.search(NOT_PROSE.sub(" ", " ".join(lines))):
            blocks.append(" ".join(lines))
        lines = []
    return blocks
