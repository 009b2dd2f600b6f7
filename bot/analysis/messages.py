"""The first meaningful paragraph of a commit message or PR body, without template boilerplate."""

from __future__ import annotations

import re

from bot.models import fit_sentences

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~)")
# Lines that carry no description: trailers, template questions, version stamps, checklists.
_NOISE = re.compile(
    r"""^\s*(
        (signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|cc|change-id)\s*:
      | [-*]\s*\[[ xX]\]                                  # checklist items
      | [-*]?\s*vllm\s+(version|main)\s*:                  # vLLM's PR template stamps
      | (fixes|fix|closes|close|resolves|related|refs?)\s*:?\s*(\#|https?://)\S*\s*$
      | (related\s+rfc\s+issue|issue)\s*:.*$
      | -{3,}\s*$ | \*{3,}\s*$ | _{3,}\s*$                # rules
      | (n/?a|none|no|yes|nope|tbd|todo)\.?\s*$
      | 🤖\s*generated\s+with.*$
    )""",
    re.IGNORECASE | re.VERBOSE,
)
# A line that is only a link: skipped, without ending the paragraph around it.
_BARE_LINK = re.compile(r"^\s*(?:[-*•+]\s+)?<?https?://\S+>?\s*$")
_HEADING = re.compile(r"^\s*(#{1,6}\s+.*|\*\*[^*]+\*\*:?\s*|[A-Z][\w /?'&-]{0,60}:\s*|.*##\s*)$")
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d{1,2}[.)])\s+")
_TEMPLATE_QUESTION = re.compile(
    r"(what this pr does|why we need it|user-facing change|how was this (patch )?tested"
    r"|^purpose$|^summary$|^motivation$|^description$|^background$|^test plan$|^changes?$"
    r"|essential elements|checklist|^test result)",
    re.IGNORECASE,
)


# Sections whose content is not a description of the change.
_SKIPPED_SECTION = re.compile(
    r"(how was this (patch )?tested|test plan|test results?|testing|user-facing change"
    r"|checklist|essential elements|benchmark results?|accuracy|screenshots?)",
    re.IGNORECASE,
)


def paragraphs(text: str) -> list[str]:
    """Paragraphs of prose: comments, code blocks, headings and boilerplate lines removed."""
    text = _HTML_COMMENT.sub("", text.replace("\r\n", "\n"))
    out: list[str] = []
    current: list[str] = []
    in_code = False
    skipping = False

    def flush() -> None:
        if current:
            out.append(" ".join(current).replace("\x00", ";"))
            current.clear()

    for line in text.split("\n"):
        if _FENCE.match(line):
            in_code = not in_code
            flush()
            continue
        stripped = line.strip()
        if in_code or not stripped:
            flush()
            continue
        if _BARE_LINK.match(stripped):
            continue
        if _NOISE.match(stripped):
            flush()
            continue
        if _HEADING.match(stripped) or _TEMPLATE_QUESTION.search(stripped.strip("#*: ")):
            flush()
            skipping = bool(_SKIPPED_SECTION.search(stripped))
            continue
        if skipping:
            continue
        if _BULLET.match(stripped):
            # List items read as one sentence each, separated by semicolons.
            stripped = _BULLET.sub("", stripped)
            if current:
                current[-1] += "\x00"
        current.append(stripped)
    flush()
    return [" ".join(p.split()) for p in out if len(p.split()) >= 3]


def first_paragraph(*texts: str, limit: int = 400) -> str | None:
    """The first paragraph of the first text that has one, shortened at a sentence end."""
    for text in texts:
        for paragraph in paragraphs(text):
            try:
                return fit_sentences(paragraph, limit)
            except ValueError:
                continue
    return None
