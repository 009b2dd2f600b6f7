"""Whether the author's words name the hole a change closes: an advisory's or a weakness's id,
or a denial of service a verb of fixing governs."""

from __future__ import annotations

import re

from bot.analysis.signals import NOT_PROSE

# GHSA-…, CVE-…, CWE-… in any case: an advisory's or a weakness's own id
_ID = re.compile(r"\b(?i:ghsa(?:-[23456789cfghjmpqrvwx]{4}){3}|cve-\d{4}-\d{4,}|cwe-\d+)\b")
# "ReDoS", "DoS" as written (MS-DOS's "DOS", a `dos` in a name are no attack); a denial of
# service spelled out: a kind of hole, named by a change only where a verb of fixing governs it
_KIND = re.compile(r"\b(?i:denial[- ]of[- ]service)\b|(?<![\w/.-])(?:ReDo[Ss]|ReDOS|DoS)(?![\w-])")
# Kinds of holes listed side by side ("GHSA/CVE/CWE, ReDoS, DoS", "ReDoS or DoS"): what a rule,
# a tool or a page covers, not a hole the change closes
_KINDS = r"(?:(?i:ghsa|cve|cwe|xss|csrf|ssrf)|ReDo[Ss]|ReDOS|DoS|(?i:denial[- ]of[- ]service))"
_LISTED = re.compile(rf"(?<![\w-]){_KINDS}(?:\s*(?:/|,|\bor\b|\band\b)\s*{_KINDS}(?![\w-]))+")
# A verb that says the change closes a hole ("Fix quadratic DoS", "to prevent DoS attacks",
# "(fixes #827)"); the same word as a noun ("a fix whose …", "a CI security fix is typed …",
# "the ReDoS fix for …") says what something else is
FIXING = re.compile(
    r"\b(?:fix(?:es|ed|ing)?|prevent(?:s|ed|ing)?|patch(?:es|ed|ing)?|mitigat(?:e|es|ed|ing)"
    r"|avoid(?:s|ed|ing)?|address(?:es|ed|ing)?|resolv(?:e|es|ed|ing)|clos(?:e|es|ed|ing)"
    r"|guard(?:s|ed|ing)? against|protect(?:s|ed|ing)? against)\b",
    re.IGNORECASE,
)
# What makes the word after it a noun: an article or a determiner before it (up to two words of
# its noun phrase between; "this" or "that" right before it is its subject: "This fixes …"), or
# a verb of being after it
_NOUN_BEFORE = re.compile(
    r"\b(?:(?:a|an|the|these|those|each|every|any|its|their|our|whose)(?:\s+[\w/.-]+){0,2}"
    r"|(?:this|that)(?:\s+[\w/.-]+){1,2})\s*$",
    re.IGNORECASE,
)
_NOUN_AFTER = re.compile(r"^\s*(?:is|are|was|were|whose|which|that)\b", re.IGNORECASE)
# Where a sentence ends: a full stop, `;`, `!` or `?` before a space, a line break
_SENTENCES = re.compile(r"(?<=[.;!?])\s+|\n+")


# Where a bump starts quoting its dependency's notes (Dependabot, Renovate): not the author's
_QUOTED = re.compile(
    r"^\s*(?:<details>|<summary>|(?:#+\s*)?(?:release notes|changelog|commits)\s*$)", re.I | re.M
)


def names_hole(*texts: str) -> bool:
    """Whether any of the author's `texts` (a title, a description, the changelog entry the
    commit adds) names a security hole the change closes: a published advisory's or a
    weakness's id, or a denial of service that a verb of fixing in its sentence governs ("Fix
    quadratic DoS", "to prevent denial of service"), in prose (a code span, a quotation or an
    enumeration of examples is not: "keep the case (NaN, CVE-2024-1234, TPOT)"; nor are kinds
    of holes listed side by side, what a rule or a tool covers: "GHSA/CVE/CWE, ReDoS, DoS"); a
    dependency's notes a bump quotes are not the author's."""
    for text in texts:
        quoted = _QUOTED.search(text)
        prose = NOT_PROSE.sub(" ", text[: quoted.start()] if quoted else text)
        prose = _LISTED.sub(" ", prose)
        if _ID.search(prose):
            return True
        if any(_KIND.search(s) and says_fixing(s) for s in _SENTENCES.split(prose)):
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


def says_fixing(text: str, verbs: re.Pattern[str] = FIXING) -> bool:
    """Whether one of `verbs` in `text` is said as a verb: the change fixing, preventing,
    patching, not a noun ("a fix whose author's words …", "a CI security fix is typed …")."""
    return any(
        not _NOUN_BEFORE.search(text[: m.start()]) and not _NOUN_AFTER.match(text[m.end() :])
        for m in verbs.finditer(text)
    )
