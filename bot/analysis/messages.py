"""The first meaningful paragraph of a commit message or PR body, without template boilerplate."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from bot.analysis.roles import issue_roles
from bot.models import FileChange, fit_sentences

# An unclosed comment hides the rest of the text on GitHub, so it ends at the end.
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
# Markup that is not prose: images, line breaks, collapsible sections.
_HTML_TAG = re.compile(
    r"</?(?:img|br|p|div|span|details|summary|sub|sup|a|b|i|hr|table|tr|td|th)\b[^>]*>",
    re.IGNORECASE,
)
_FENCE = re.compile(r"^\s*(```|~~~)")


def fences(line: str) -> bool:
    """Whether a line of Markdown opens or closes a code block."""
    return ("`" in line or "~" in line) and bool(_FENCE.match(line))


def without_comments(text: str) -> str:
    """Markdown text without its HTML comments (a PR template's hidden instructions)."""
    return _HTML_COMMENT.sub("", text) if "<!--" in text else text


# Lines that carry no description: trailers, template questions, version stamps, checklists.
_NOISE = re.compile(
    r"""^\s*(
        (signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|cc|change-id)\s*:
      | [-*]\s*\[\s\]                                      # unchecked checklist items
      | [-*]?\s*vllm\s+(version|main)\s*:                  # vLLM's PR template stamps
      | (fixes|fix|closes|close|resolves|related|refs?)\s*:?\s*(\#|https?://)\S*\s*$
      | (related\s+rfc\s+issue|issue)\s*:.*$
      | -{3,}\s*$ | \*{3,}\s*$ | _{3,}\s*$                # rules
      | (n/?a|none|no|yes|nope|tbd|todo)\.?\s*$
      | 🤖\s*generated\s+with.*$
      | ((special|many|big|huge)\s+)?(thanks|thank\s+you|kudos|credits?)\b\s*(to|for|@|!).*$
                                                          # acknowledgements: no change said
      | (/?cc\b:?)?(\s*@[\w/-]+,?)+\s*$                      # "cc @someone @org/team"
      | \(.*\)\.?\s*$                                     # "(or used your preferred method)"
      | please\s+(describe|provide|fill|explain|add|list|include|make\s+sure)\b.*$
      | <[^>]{1,60}>\s*$ | \[(your|insert|describe)[^\]]*\]\s*$   # placeholders
    )""",
    re.IGNORECASE | re.VERBOSE,
)
# A line that is only a link: skipped, without ending the paragraph around it.
_BARE_LINK = re.compile(r"^\s*(?:[-*•+]\s+)?<?https?://\S+>?\s*$")
# A heading: Markdown, a bold line, or one to five Title-Case words and a colon ("Purpose:",
# "TEST PLAN:"); "The goals are:" is prose that introduces a list.
_HEADING = re.compile(
    r"^\s*(#{1,6}\s+.*|\*\*[^*]+\*\*:?\s*|[A-Z][\w/?'&()-]*(?:\s+[A-Z(][\w/?'&()-]*){0,4}:\s*"
    r"|.*##\s*)$"
)
_TICKED = re.compile(r"^\[[xX]\]\s*")
# A list item's bullet or number at a line's start (a message's, a news fragment's)
BULLET = re.compile(r"^\s*(?:[-*•+]|\d{1,2}[.)])\s+")
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


_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>])")
# `**bold**` and `~~struck~~` lose their markers one by one (a pair may straddle a code
# span); `__bold words__` and `*emphasis*` only as pairs, so `__init__` and `a * b` stay.
_STRONG = re.compile(r"\*\*|~~")
_EMPHASIS = re.compile(
    r"(?<!\w)__(?=\S)([^_\n]*\s[^_\n]*?)(?<=\S)__(?!\w)"
    r"|(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?!\w)"
)
_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\s]*\)")
# A link whose text is (or holds) a code span, `[`login_cap.c`](https://…)`: taken out before
# code spans are set aside, or its brackets and address would be left around the span.
_CODE_LINK = re.compile(
    r"!?\[((?:[^\]\n`]|`[^`\n]*`)*`[^`\n]*`(?:[^\]\n`]|`[^`\n]*`)*)\]\([^)\s]*\)"
)
_MARKUP = re.compile(r"[\\*_\[~]")
_CODE = re.compile(r"(`+)(.+?)\1")


def unmarkdown(text: str) -> str:
    """Text as a reader sees it rendered: no escapes, emphasis or link syntax; code kept."""
    # Escaped backticks (`\``) that pair up were meant as code (a tool escaped them).
    if "\\`" in text and text.count("\\`") % 2 == 0:
        text = text.replace("\\`", "`")
    text = _CODE_LINK.sub(lambda m: m.group(1), text)
    # reStructuredText's link, `` `the docs <https://…>`_ ``: its words (else a code span)
    text = _RST_LINK.sub(lambda m: m.group(1), text)
    out: list[str] = []
    last = 0
    for match in _CODE.finditer(text):
        out.append(_unmark(text[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(_unmark(text[last:]))
    return "".join(out)


def _unmark(text: str) -> str:
    # Escapes first: an author (or a tool) that wrote `\*\*paged KV\*\*` meant emphasis, and
    # markers taken out around an escape would leave its backslash behind (`\paged KV\`).
    text = _ESCAPE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _STRONG.sub("", text)
    return _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)


_ENDS_DANGLING = re.compile(
    r"\b(?:to|of|in|at|on|by|for|from|with|see|like|following|below|here|in)\s*:?$", re.I
)


def _link_name(line: str) -> str:
    """`pull/11875` for a pull request URL, the last path segment otherwise."""
    url = line.strip("-*•+<> ").split("#", 1)[0].split("?", 1)[0].rstrip("/.,;:)")
    parts = url.split("/")
    if len(parts) >= 2 and parts[-1].isdigit():
        return "/".join(parts[-2:])
    return parts[-1] or url


_ITEM = "\x02"  # marks where a list item starts (not whitespace, so it survives `split()`)
_ITEM_AFTER_WORD = re.compile(rf"(?<=[^.;:!?\s]) {_ITEM}")


def paragraphs(text: str, *, limit: int = 4000, items: bool = False) -> list[str]:
    """Paragraphs of prose: comments, code blocks, headings and boilerplate lines removed.

    List items read as one sentence each, separated by semicolons; with `items`, each item
    starts a line of its own instead (a paragraph's lines are its lead-in and its items).
    Reading stops after about `limit` characters of prose: what a change does is said first.
    """
    text = without_comments(text)
    if "<" in text:
        text = _HTML_TAG.sub(" ", text)
    out: list[str] = []
    current: list[str] = []
    in_code = False
    skipping = False
    kept = 0

    def flush() -> None:
        if current:
            out.append(" ".join(current).replace("\x00", ";").replace(_ITEM + " ", _ITEM))
            current.clear()

    for line in text.replace("\r\n", "\n").split("\n"):
        if kept > limit:
            break
        if fences(line):
            in_code = not in_code
            flush()
            continue
        stripped = line.strip()
        if in_code or not stripped:
            flush()
            continue
        if "://" in stripped and _BARE_LINK.match(stripped):
            # A link that completes a sentence ("a follow-up to <link>") is named by its last
            # path segments; one on a line of its own is skipped.
            if current and not skipping and _ENDS_DANGLING.search(current[-1]):
                current[-1] += f" `{_link_name(stripped)}`"
            continue
        if skipping and not (
            stripped[0] in "#*"
            or stripped.endswith(":")
            or stripped.isupper()
            or len(stripped) < 40
        ):
            continue
        if _NOISE.match(stripped):
            flush()
            continue
        if (
            _HEADING.match(stripped)
            or (len(stripped) < 90 and _TEMPLATE_QUESTION.search(stripped.strip("#*: ")))
        ) and not _wraps(current, stripped):
            flush()
            skipping = bool(_SKIPPED_SECTION.search(stripped))
            continue
        if skipping:
            continue
        bullet = bool(BULLET.match(stripped))
        if bullet:
            # A ticked checklist item is what the author did: an item like any other.
            stripped = _TICKED.sub("", BULLET.sub("", stripped))
        kept += len(stripped)
        if _MARKUP.search(stripped):
            stripped = unmarkdown(stripped)
        current.append(_ITEM + stripped if bullet else stripped)
    flush()
    prose = [" ".join(p.split()) for p in out if len(p.split()) >= 3]
    # A paragraph that ends in a colon introduces the next one (usually a list): join them.
    merged: list[str] = []
    for p in prose:
        if merged and merged[-1].endswith(":"):
            merged[-1] = f"{merged[-1]} {p}"
        else:
            merged.append(p)
    if items:
        # A paragraph that opens with an item has an empty first line (no lead-in).
        return [p.replace(f" {_ITEM}", "\n").replace(_ITEM, "\n") for p in merged]
    return [_ITEM_AFTER_WORD.sub("; ", p).replace(_ITEM, "") for p in merged]


# A list item that is a step of the work, not what the change does: a test written, a
# refactor, formatting, a review answered (anyio #790's "Test that uncancel() isn't called
# too early" and "Refactor to avoid duplicate computation" beside its two fixes).
_HOUSEKEEPING = re.compile(
    r"^(?:tests?|testing|add(?:ed|s)?\s+(?:a\s+|the\s+|more\s+|missing\s+)?(?:tests?|news|changelog)"
    r"|refactor\w*|lint\w*|reformat\w*|fmt|typos?|fix(?:ed|es)?\s+(?:a\s+)?"
    r"(?:tests?|typos?|lint\w*|mypy|ci|docs?|formatting)|update[sd]?\s+(?:the\s+)?"
    r"(?:tests?|changelog|news|docs?)|address(?:ed)?\s+(?:review|comments?|feedback)"
    r"|apply\s+suggestions?|wip|merge|pre-commit|ruff|mypy)\b",
    re.IGNORECASE,
)


def housekeeping(text: str) -> bool:
    """Whether a title or a list item says a step of the work (a test, a refactor, …)."""
    return bool(_HOUSEKEEPING.match(text.strip()))


def without_steps(paragraph: str) -> str:
    """A paragraph read with `items=True` without its items that are steps of the work,
    where others say what the change does."""
    lead, *items = paragraph.split("\n")
    kept = [line for line in items if line and not _HOUSEKEEPING.match(line)]
    return "\n".join([lead, *kept]) if kept else paragraph


def flattened(paragraph: str) -> str:
    """A paragraph read with `items=True` as one line: its items joined by semicolons."""
    out = ""
    for line in paragraph.split("\n"):
        if not line:
            continue
        if out:
            out += " " if out.endswith((".", ";", ":", "!", "?")) else "; "
        out += line
    return out


def _wraps(current: list[str], line: str) -> bool:
    """Whether a line that reads like a heading ("Step3p7):") is the rest of a hard-wrapped
    sentence: the line before is prose that has not ended."""
    if not current or line[0] in "#*":
        return False
    last = current[-1].rstrip()
    if last.startswith(_ITEM):
        return False
    ended = last.endswith((".", ":", "!", "?", "。")) and not _OPEN_ENDING.search(last)
    return not ended or last.count("(") > last.count(")")


# "for models (e.g." has not ended, although it ends in a full stop.
_OPEN_ENDING = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|incl)\.$", re.IGNORECASE)


# GitHub's "Squash and merge" writes the branch's commit titles into the body, one `* title`
# paragraph each (with `---------` before the co-authors): work in progress ("fmt", "add
# test"), not what the author says the change does.
_SQUASHED_TITLE = re.compile(r"^\* (?P<title>[^\n]+)$")
_SQUASH_RULE = re.compile(r"(?m)^-{9,}\s*$")


def without_squash_log(body: str, title: str) -> str:
    """`body` without the squashed commits' `* title` lines GitHub's squash merge lists: two
    or more such one-line paragraphs, one of them the title again or the log's `---------`
    rule below them. Other paragraphs (a squashed commit's own text) stay."""
    blocks = re.split(r"\n\s*\n", body.replace("\r\n", "\n").strip())
    titles = [m.group("title").strip() for b in blocks if (m := _SQUASHED_TITLE.match(b.strip()))]
    head = re.sub(r"\s*\(#\d+\)\s*$", "", title).strip().casefold()
    if len(titles) < 2 or not (
        any(t.casefold() == head for t in titles) or _SQUASH_RULE.search(body)
    ):
        return body
    return "\n\n".join(b for b in blocks if not _SQUASHED_TITLE.match(b.strip()))


# A squashed branch's step: "* fix tests", "* Address comments", a paragraph of one line.
_STEP = re.compile(r"^\* [^\n]{1,80}$")
_STEP_START = re.compile(r"(?:\A|\n\n)(?=\* \S)")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", re.sub(r"\(#\d+\)", "", text.lower()))


def squash_description(body: str, title: str, *, logged: bool = False) -> str:
    """What the author wrote about the change in a message GitHub's squash merge built: the
    text of its first step and of the step named like the title (a later step's text is a
    try on the way, "This reverts commit …"), without the steps' headings. Others whole.
    `logged`: the message is known to be a squash's log (`without_squash_log` found it), so a
    one-line step of any length is a step (trio b541b8b's "* move errors on all platforms
    into a separate category. add comments and stuff. …")."""
    before, *steps = _STEP_START.split(body.replace("\r\n", "\n"))
    kept = [before]
    for i, step in enumerate(steps):
        heading, _, text = step.strip().partition("\n")
        if not (_SQUASHED_TITLE.match(heading) if logged else _STEP.match(heading)):
            kept.append(step)
        elif i == 0 or _words(heading[2:]) == _words(title):
            kept.append(text)
    return "\n\n".join(kept)


def description_paragraphs(*texts: str, items: bool = False) -> list[str]:
    """The prose of the first text that has any: what the author says the change does."""
    for text in texts:
        found = paragraphs(text, items=items)
        if found:
            return found
    return []


# A last sentence that stops mid-thought: at a colon, or at a word that needs a continuation
# (what followed was a link, a list or a code block that is not prose).
_DANGLING = re.compile(
    r"(?:(?<=[.!?;])|^)[^.!?;]*(?::|\b(?:to|of|in|at|on|by|for|from|with|and|or|the|a|an|as"
    r"|see|e\.g\.|i\.e\.|like|following|below|this|these|is|are))\s*$",
    re.IGNORECASE,
)


# A sentence that leans on what came before it: "Same for *columns*.", "Keep it at first
# position …", "They are …", "This means …", "Use X instead."; not "It's confusing to …" (no
# referent) nor "This adds …" (the change itself: its verbs are left out of the list).
_LEANS = re.compile(
    r"^(?:same\s+(?:for|as|with|goes|here)|the\s+same\b|likewise|similarly|ditto|also"
    r"|as\s+well|in\s+turn|they|them|he|she|their|its)\b"
    r"|^(?:this|that|these|those)\s+(?:(?:now|also|still|then)\s+)?(?:is|are|was|were|means?"
    r"|way|has|have|had|can|could|will|would|should|may|might|causes?|caused|leads?|results?"
    r"|requires?|needs?|happens?|works?|affects?)\b"
    # "It is confusing to …", "It's now possible …": no referent
    r"|^it\s+(?:(?:now|also|still|then|no\s+longer|only)\s+)*(?!(?:is|was|'s|’s)\s+(?:now\s+)?"
    r"(?!an?\b|the\b)\w+\s+(?:to|that)\b|(?:is|was|'s|’s)\s+(?:now\s+)?(?:possible|necessary"
    r"|recommended|important|confusing|better|easier|harder|impossible|safe|unsafe)\b)"
    r"(?:is|are|was|were|'s|’s|has|had|can|could|will|would|should|may|might|uses|used|does"
    r"|did|calls|returns|takes|accepts|supports|works|needs|requires)\b"
    # "Keep it at first position …"; not "Make it possible to …"
    r"|^[a-z]+\s+(?:it|them)\b(?!\s+(?:possible|impossible|easier|harder|clear|clearer"
    r"|explicit|obvious)\b)",
    re.IGNORECASE,
)
# "Use `x` instead." leans on what it replaces; a sentence long enough to name both ("…
# ignoring `extra_groups`, as it mistakenly passed the value of `group` instead", anyio
# eb562e6) does not
_INSTEAD = re.compile(r"\binstead\W*$", re.IGNORECASE)
_SELF_CONTAINED_WORDS = 12


def leans(text: str) -> bool:
    """Whether a sentence leans on one before it for its sense: a bare pronoun that points
    outside it ("Keep it at first position …", "They …"), "Same for …", "Also …", "… instead."."""
    text = text.strip().strip("*_`\"'“”")
    # (only the first sentence leans on what is before the text: "Remove `x`. Use `y`
    # instead." leans on its own first sentence, environs 962e154)
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z`])", text, maxsplit=1)[0]
    if _INSTEAD.search(first) and len(first.split()) < _SELF_CONTAINED_WORDS:
        return True
    return bool(_LEANS.search(text))


def dangles(text: str, *, alone: bool = False) -> bool:
    """Whether text stops mid-thought: at a colon, or at a word that needs what follows;
    `alone`: or, read without what came before it, leans on that (see `leans`)."""
    text = text.strip()
    if alone and leans(text):
        return True
    return bool(text) and text[-1] not in ".!?)`\"'”’" and bool(_DANGLING.search(text))


def _complete(text: str) -> str | None:
    """Text that does not stop mid-thought: a dangling last sentence is dropped."""
    text = text.strip()
    if not text or text[-1] in ".!?)`\"'”’":
        return text or None
    cut = _DANGLING.sub("", text).strip()
    return cut or None


def first_paragraph(*texts: str, limit: int = 400) -> str | None:
    """The first paragraph of the first text that has one, shortened at a sentence end."""
    for text in texts:
        found = fitting_paragraph(paragraphs(text), limit)
        if found:
            return found
    return None


def fitting_paragraph(found: list[str] | tuple[str, ...], limit: int) -> str | None:
    """The first of these paragraphs that has a whole sentence within `limit`, completed."""
    for paragraph in found:
        try:
            fitted = _complete(fit_sentences(paragraph, limit))
        except ValueError:
            continue
        if fitted:
            return fitted
    return None


# An item of a squashed branch's message: `* subject` after a blank line (or first).
_SQUASHED_ITEM = re.compile(r"(?:\A|\n\n)\* \S")


# A later step that turns the branch another way ("* fix: throw type error instead of casting
# to str"): what the first step said is no longer what the change does
_CHANGES_COURSE = re.compile(r"\b(?:instead\s+of|rather\s+than)\b", re.IGNORECASE)


def first_commit(body: str) -> str:
    """A squashed branch's message (GitHub's: `* subject`, its body, a blank line, the next
    `* subject`…) cut to its first commit's part: that commit is the change, the later ones
    its fixes and review steps ("add dk gemm", "respond to PR comments"); '' where a later
    step's subject turns the change another way ("… instead of …": tomlkit df4afc6's first
    step "accept ints as keys (interpret them as strings)", its second "throw type error
    instead of casting to str"). Others whole."""
    starts = [m.start() for m in _SQUASHED_ITEM.finditer(body)]
    if len(starts) < 2:
        return body
    later = [body[start:].strip().split("\n", 1)[0] for start in starts[1:]]
    if any(_CHANGES_COURSE.search(subject) for subject in later):
        return ""
    return body[: starts[1]]


# A changelog a commit adds its entry to: the author's own words about the change.
# (anyio's `docs/versionhistory.rst`: the same list by another name; not a release-notes
# page, which gains a release's whole list at once)
_CHANGELOG = re.compile(
    r"(?:^|/)(?:CHANGES|CHANGELOG|HISTORY|NEWS|version[-_]?history)(?:\.\w+)?$", re.IGNORECASE
)
# (pytest-mock 5aa9e9c's "UNRELEASED" heading: the words are a heading's in any case)
_RELEASE_LINE = re.compile(
    r"^(?:#|=|-{3,}|~{3,}|\*\*|(?i:unreleased|released\b|version\b)|v?\d+\.\d+)"
)


_ANGLE_LINK = re.compile(r"\s*<https?://[^>\s]*?(?:/((?:GHSA|CVE)-[\w-]+))?/?>", re.IGNORECASE)


# (intersphinx's roles name their inventory: `:external+python:exc:`, `:external:py:class:`)
# (never a placeholder in a code span: "`{version}`")
_MYST_ROLE = re.compile(r"(?<![`\w])\{([\w+:-]+)\}(?=`[^`\s])")
_CODE_ROLE = re.compile(r":(?:[\w+-]+:){0,2}[\w-]+:`(~?)([^`<]+?)(?:\s*<[^>]*>)?`")


# What a Keep a Changelog section (or towncrier type) says its items do, for an item written
# as the thing itself ("Fixed: An error that could cause duplicate warnings to be issued").
_LEADS = {
    "bugfix": "Fixes",
    "fixed": "Fixes",
    "feature": "Adds",
    "added": "Adds",
    "removal": "Removes",
    "removed": "Removes",
    "deprecation": "Deprecates",
    "deprecated": "Deprecates",
}
# What makes a clause a sentence: a verb of its own (a state the change leaves included)
_FINITE = re.compile(
    r"\b(?:is|are|was|were|has|have|had|can|cannot|will|won't|does|did|should|must|may|might"
    r"|would|could|gets?|got|now|no\s+longer)\b",
    re.IGNORECASE,
)
# Where a noun phrase's own words end: "An error | that could …", "Warning | when …"
_CLAUSE = re.compile(
    r"\b(?:that|which|who|when|whenever|where|if|while|because|unless|after|before)\b", re.I
)
# What opens a name of a thing: an article, code, a noun ("Support for", "Deprecation
# warning", "Compatibility with", "Unsuppressed import errors")
_THING = re.compile(
    r"^(?:`|\"|(?:a|an|the|support|warnings?|errors?|crash(?:es)?|leaks?|bugs?|typos?|missing"
    r"|incorrect|wrong|broken|duplicate|un\w+ed|\w+(?:tion|sion|ity|ance|ence|ment|ness))\b"
    # "Python 3.8 support." (svcs 267fa1e, under "### Removed")
    r"|(?:[\w.]+\s+){1,3}support\b"
    # "*salt* parameter to `PasswordHasher.hash()` …" (argon2-cffi 17e2808, under "### Added")
    r"|(?P<star>\*{1,2})[^*\s]+(?P=star)\s+(?:parameter|argument|option|keyword|flag|attribute"
    r"|method|function|class|setting|field|property)s?\b)",
    re.IGNORECASE,
)
# a name with its verb ("`URL.join()` keeps …"), or names joined with theirs ("`A` and `B`
# record …": a plural's verb has no -s)
_CODE_SUBJECT = re.compile(
    r"^`[^`]+`\s+\w+(?:s|ed)\b"
    r"|^`[^`]+`(?:\s*,\s*`[^`]+`)*,?\s+(?:and|or)\s+`[^`]+`\s+"
    r"(?!(?:of|in|on|for|with|to|from|as|at|by|and|or)\b)[a-z]+\b"
)


def led(kind: str, text: str) -> str:
    """The text led by what its type says where its first sentence names a thing ("An error
    that could cause …", "Support for Python 3.14", "`RuntimeError: …` when …"); as is where
    it says what it does itself ("Fixed …", "Loosen …", "`URL.join()` now …")."""
    lead = _LEADS.get(kind.lower())
    if lead is None:
        return text
    first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    plain = re.sub(r"`[^`]*`|\"[^\"]*\"", "``", first)
    head = _CLAUSE.split(plain, maxsplit=1)[0]
    if (
        not _THING.match(first)
        or _CODE_SUBJECT.match(first)
        or _FINITE.search(head)
        or re.search(r"\b(?:now|no\s+longer)\b", plain, re.IGNORECASE)
    ):
        return text
    if not first.startswith("`") and not re.match(r"[A-Z]\w*\s+\d", first):
        # (a name with its version, "Python 3.8 support", keeps its capital)
        text = text[0].lower() + text[1:]
    return f"{lead} {text}"


_RST_LINK_REFERENCE = re.compile(r"\s*\(\s*`(#?\d+)\s*<[^>]*>`__?(?:\s*[,;][^()]*)?\)")
# a reference the sentence speaks of ("a regression caused by (`#807 <…>`_) that …")
_SPOKEN_OF = re.compile(r"\b(?:by|in|of|from|since|after|before|see)\s*$", re.IGNORECASE)


def _reference(match: re.Match[str]) -> str:
    """A parenthesised link to an issue: gone, or its number where the sentence names it."""
    if _SPOKEN_OF.search(match.string[: match.start()]):
        number = match.group(1)
        return f" #{number.lstrip('#')}"
    return ""


_RST_NAMED_LINK = re.compile(r"`(?!#?\d+\s*<)([^`<>]+?)\s*<[^>`]*>`__?")
_HUNK_START = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)")
# "## 13.0.0 (unreleased)", "## Unreleased": the heading of the release being prepared
_UNRELEASED_HEADING = re.compile(
    r"^#{1,6}\s+(?:\[?v?\d+(?:\.\d+)+\S*\]?\s+)?[(\[]?unreleased[)\]]?\s*$", re.IGNORECASE
)
_SECTION = re.compile(r"^#{2,6}\s+(\w+)\s*$")
# A group's label of a release's items, on a line of its own: "Features:", "Bug fixes:"
_LABEL = re.compile(r"^[A-Z][a-z]+(?: [a-z]+){0,2}:$")


def _section_above(text: str | None, line: int) -> str:
    """The last section heading (`### Removed`) of a whole file above its line `line`."""
    for above in reversed((text or "").split("\n")[: max(0, line - 1)]):
        heading = _SECTION.match(above)
        if heading:
            return heading.group(1)
        if above.startswith("## "):
            return ""  # a release's heading: no section of its own above
    return ""


def is_changelog(path: str) -> bool:
    """Whether the file is a changelog (`CHANGES.md`, `docs/reference/changelog.rst`, …)."""
    return bool(_CHANGELOG.search(path))


# The Conventional Commits footer that declares a break, and its words.
BREAKING_FOOTER = re.compile(r"^BREAKING[ -]CHANGE:\s*(.*)$", re.MULTILINE)
# A changelog item its author marks breaking ("**BREAKING** Switched the MongoDB data store
# …", apscheduler aa7da53; "Breaking: …"): the mark leads the item.
# "**Potentially breaking**: The converters raise …" (cattrs e536258) is the author's mark too,
# as is "**BACKWARD INCOMPATIBLE** Removed …" (typeguard, anyio).
_MARKED_BREAKING = re.compile(
    r"^[\W_]*(?:(?:[Pp]otentially|[Pp]ossibly)\s+)?"
    r"(?:BREAKING\b|BACKWARDS?[ -]INCOMPATIBLE\b"
    r"|(?:[Bb]reaking(?: [Cc]hanges?)?|[Bb]ackwards?[ -][Ii]ncompatible)[*_]*\s*[:!])[\W_]*"
)


# A line of a commit message's body that its author marks breaking: "- (BREAKING) Forward
# flags …", "* breaking: drops …", "BREAKING: …"; its bullet, checkbox or emphasis before.
_UNCHECKED = re.compile(r"^\s*(?:[-*+]\s+)?\[\s\]")
# what says there is none ("Breaking changes: none", "BREAKING: N/A")
_NO_BREAK = re.compile(r"^(?:none|no|n/?a|nothing|-+|—)\b\W*$", re.IGNORECASE)


def message_marked_breaking(message: str) -> list[str]:
    """The words, after the mark, of each line of the message's body (its title aside) that
    its author marks breaking (`_MARKED_BREAKING` leading the line, after its bullet), with
    the indented lines that continue it; not an unchecked box of a template ("- [ ] Breaking
    change: …"), nor one that says there is none ("Breaking changes: none"), nor a quoted one
    (`> - BREAKING: …`, `<li>`)."""
    lines = message.split("\n")[1:]
    out: list[str] = []
    for i, line in enumerate(lines):
        if (
            _UNCHECKED.match(line)
            or BREAKING_FOOTER.match(line.strip())
            or line.lstrip().startswith((">", "<"))
        ):
            # (the Conventional Commits footer is read as such; a quotation, a dependency's
            # release notes in a bump's body, is someone else's words)
            continue
        body = BULLET.sub("", line, count=1)
        mark = _MARKED_BREAKING.match(body)
        if mark is None:
            continue
        words = [body[mark.end() :].strip()]
        for more in lines[i + 1 :]:
            # a wrapped line goes on, indented; a new item, a blank line or a flush one ends it
            if not more.strip() or not more[:1].isspace() or BULLET.match(more):
                break
            words.append(more.strip())
        said = " ".join(w for w in words if w)
        if said and not _NO_BREAK.match(said):
            out.append(said)
    return out


# The author's mark leading a commit's title, after any other bracket tags: "[BREAKING] Exclude
# subprocess data sources …" (distro 2a89f76), "(breaking) …", "BREAKING: drop …", "BREAKING
# CHANGE: …". Bracketed or followed by a colon in any case; bare only in capitals (a title
# that opens "Breaking up the parser" marks nothing).
_TITLE_MARK = re.compile(
    r"^\s*(?:\[[^\[\]]{0,60}\]\s*)*?"
    r"(?P<mark>(?i:[\[(]\s*breaking(?:[ -]changes?)?\s*[\])])"
    r"|BREAKING(?:[ -]CHANGES?)?\b(?:\s*[:!])?"
    r"|(?i:breaking(?:[ -]changes?)?)\s*[:!])"
)


def title_marked_breaking(title: str) -> str | None:
    """The mark, as written, with which the author opens the title to call the change
    breaking (`_TITLE_MARK`); None where the title has none."""
    mark = _TITLE_MARK.match(title)
    return mark.group("mark").strip() if mark else None


def marked_breaking(files: Iterable[FileChange]) -> list[str]:
    """The words, after the mark, of each item the commit adds to its changelog that its
    author marks breaking."""
    items = [item.removeprefix("- ") for item in changelog_entry(files).split("\n- ")]
    return [item[mark.end() :].strip() for item in items if (mark := _MARKED_BREAKING.match(item))]


# A heading of a changelog's part (a Markdown `#` line, a bold line, a line over an underline)
# that files its items as breaking: "### Breaking changes", "**Backwards incompatible**"
_BREAK_HEADING = re.compile(r"breaking|incompatib", re.IGNORECASE)
_BOLD_LINE = re.compile(r"^\*\*[^*]+\*\*:?\s*$")
_FILE_HEADER_LINE = re.compile(r"^(?:---|\+\+\+) (?:a/|b/|/dev/null)")
_VERSION_LABEL = re.compile(r"^v?\d+(?:\.\d+)+\S*:\s*")
_WORDS_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")


def _heading_at(lines: list[str], i: int) -> str | None:
    """The words of the heading line `i` of a changelog is, or None."""
    text = lines[i].rstrip()
    under = lines[i + 1].strip() if i + 1 < len(lines) else ""
    if text.startswith("#"):
        return text.lstrip("#").strip()
    if _BOLD_LINE.match(text.strip()):
        return text.strip().strip("*: ")
    if text.strip() and not text[0].isspace() and _UNDERLINE.match(under):
        return None if _UNDERLINE.match(text.strip()) else text.strip()
    return None


def entry_break_words(
    files: Iterable[FileChange], *, new_only: bool = True
) -> tuple[str, str] | None:
    """(path, words) where a commit's changelog gains words of its author's that a change
    breaks code: an item or paragraph it adds under a heading of breaking changes the hunk
    shows, or a sentence it adds that says so (`SAYS_BREAK`: wrapt 7deecea's "… which may
    break code which relied on the previous behaviour"). `new_only`: a sentence the commit
    also removes (moved, reworded around) is no word of this commit's."""
    for f in files:
        if not f.patch or f.status != "modified" or not is_changelog(f.filename):
            continue
        patch = [t for t in f.patch.split("\n") if not _FILE_HEADER_LINE.match(t)]
        gone = " ".join(" ".join(t[1:].split()) for t in patch if t.startswith("-") if new_only)
        # the file's lines as the commit has them, each with whether it adds it; a hunk's
        # start (None) ends the paragraph, and the heading before it
        shown = [
            (t[1:], t[:1] == "+") if t[:1] in ("+", " ") else None
            for t in patch
            if t[:1] in ("+", " ", "@")
        ]
        lines = [one[0] if one else "" for one in shown]
        heading = ""
        paragraph: list[str] = []
        for i, one in enumerate([*shown, None]):
            text, added = one or ("", False)
            words = _heading_at(lines, i) if one is not None else None
            if words is not None or not text.strip() or _TOP_ITEM.match(text.strip()):
                said = _break_said(" ".join(paragraph), heading, gone)
                if said:
                    return f.filename, said
                paragraph = []
            if one is None:
                heading = ""
            elif words is not None:
                heading = words
            elif text.strip() and added and not _UNDERLINE.match(text.strip()):
                paragraph.append(text.strip())
    return None


def _break_said(paragraph: str, heading: str, gone: str) -> str | None:
    """The words of an added paragraph that say a break: the whole item under a breaking
    heading, else its sentence that says so; none that the commit also removes."""
    text = " ".join(rst_as_read(paragraph.removeprefix("- ").removeprefix("* ")).split())
    # (an item led by its version, python-tabulate's "- 0.9.0: Drop support for …")
    text = _VERSION_LABEL.sub("", text)
    if not text:
        return None
    if _BREAK_HEADING.search(heading):
        return None if text in gone else text
    for said in _WORDS_END.split(text):
        if SAYS_BREAK.search(said) and " ".join(said.split()) not in gone:
            return said
    return None


def _added_lines(lines: list[str]) -> list[str]:
    """A patch's added lines, without their sign."""
    return [t[1:] for t in lines if t.startswith("+") and not t.startswith("+++")]


def changelog_entry(files: Iterable[FileChange]) -> str:
    """The entry a commit adds to its changelog (`CHANGES.md`, `CHANGELOG.rst`, …): the
    items it adds, when one to three (a release's whole list is no one change's words);
    "" when there is none."""
    items: list[list[str]] = []
    # the Keep a Changelog section each item is under ("### Removed": "- Python 3.8
    # support." removes it), read from the hunk or, above it, from the whole file
    sections: list[str] = []
    for f in files:
        if not f.patch or not _CHANGELOG.search(f.filename):
            continue
        lines = f.patch.split("\n")
        section = ""
        # whether the line above is an unchanged item's (its first line or a later one)
        in_old_item = False
        fenced = False
        # an entry moved (taken out and put back whole elsewhere, anyio f1b7301) is neither
        # this commit's words nor a rewrite
        gone = {t[1:].strip() for t in lines if t.startswith("-") and not t.startswith("---")}
        added_lines = _added_lines(lines)
        back = {t.strip() for t in added_lines}
        # an item only wrapped anew (doc2dash 94f9279: its link moved to a line of its own)
        # keeps its words: the added lines hold them all, in order
        added = " ".join(" ".join(t.split()) for t in added_lines)
        rewrapped = {
            t for t in gone if t and " ".join(t.split()) in added and re.match(r"^[-*] ", t)
        }
        for line in lines:
            if line.startswith("-") and not line.startswith("---") and line[1:].strip():
                if line[1:].strip() in back or line[1:].strip() in rewrapped:
                    continue
                if _UNRELEASED_HEADING.match(line[1:].strip()):
                    # the heading of what is not released yet, renamed ("## 12.1.0
                    # (unreleased)" → "## 13.0.0 (unreleased)", environs 73c372d): no item
                    continue
                # an entry rewritten (structlog f2992ea's markup, 59e5a77's grammar) is an
                # old change's words, not this commit's
                return ""
            start = _HUNK_START.match(line)
            if start:
                section = _section_above(f.after, int(start.group(1)))
            heading = _SECTION.match(line[1:]) if line[:1] in (" ", "+") else None
            if heading:
                section = heading.group(1)
            if line.startswith(" "):
                unchanged = line[1:]
                in_old_item = bool(re.match(r"^\s*[-*] ", unchanged)) or (
                    in_old_item and unchanged[:1] in (" ", "\t") and bool(unchanged.strip())
                )
            if not line.startswith("+") or line.startswith("+++") or line[1:].strip() in gone:
                continue
            text = line[1:].rstrip()
            if text.lstrip().startswith("```") or fenced:
                # an item's example in a fenced block (environs b5d5e94's `from environs
                # import env`) is code, neither an item's words nor a release's prose
                fenced = fenced != text.lstrip().startswith("```")
                continue
            if (
                in_old_item
                and not items
                and text[:1] in (" ", "\t")
                and text.strip()
                and not re.match(r"^\s*[-*] ", text)
            ):
                # a line added to an item of an earlier change (svcs 8e2e518's "It works with
                # sync factories too" under `Container.aget()`): that item's words, not an item
                # of this commit, and no release's prose either
                continue
            if re.match(r"^\s*[-*] ", text):
                if any(r[2:].strip().startswith(text.strip()[2:].strip()) for r in rewrapped):
                    # the rewrapped item's first line: not this commit's item
                    in_old_item = True
                    continue
                items.append([text.strip()[2:].strip()])
                sections.append(section)
                if leans(items[-1][0]):
                    # "Same for *columns*." says nothing without the item it leans on: this
                    # commit's item before it, or nothing (structlog 1e51f5f's "Same for
                    # colors" leaned on #749's `exception_formatter`, a day older)
                    leaning = items.pop()
                    sections.pop()
                    if items and items[-1]:
                        items[-1].append(leaning[0])
            elif text.startswith((" ", "\t")) and items and text.strip():
                if not _REFERENCES.match(text):
                    items[-1].append(text.strip())
            elif _LABEL.match(text):
                section = ""  # a group's label ("Features:", "Other changes:"), no prose
            elif text.strip() and not _RELEASE_LINE.match(text.strip()):
                return ""  # prose of a release, not one item
    kept = [(item, section) for item, section in zip(items, sections, strict=True) if item]
    if not 1 <= len(kept) <= 3:
        return ""
    text = "\n".join("- " + led(section, " ".join(item)) for item, section in kept)
    # a link in angle brackets is no prose: an advisory's id is what it says; Sphinx's
    # `:ghsa:` role is the advisory, its `:issue:`/`:pr:` roles the numbers (`roles.py`)
    # reStructuredText's links: a parenthesised reference ("(`#1209 <…>`_; PR by @x)") says
    # no words of the item's, a named one ("`truststore <…>`_") its name (anyio ede2029)
    text = _RST_LINK_REFERENCE.sub(_reference, text)
    text = _RST_NAMED_LINK.sub(r"\1", text)
    text = _ANGLE_LINK.sub(lambda m: f" ({m.group(1)})" if m.group(1) else "", text)
    # reStructuredText: "(`#968`_)" points at the issue's link, "``x``" is code; one that
    # opens the item ("`#547`_: Added …", pytest-mock's) goes with its colon
    text = _RST_LEADING_REFERENCE.sub("- ", text)
    return rst_as_read(_RST_REFERENCE.sub("", text))


_RST_REFERENCE = re.compile(r"\s*\(?`[^`<>\s]+`_\)?(?=[\s.,;]|$)")
_RST_LEADING_REFERENCE = re.compile(r"(?m)^- (?:`[^`<>\s]+`_,?\s*)+:\s*")
# An item's line that only links its pull requests: `[#757](https://…/pull/757)`
_REFERENCES = re.compile(r"^\s*\(?(?:\[?#\d+\]?(?:\([^)\s]*\))?[,.;]?\s*)+\)?[.,]?\s*$")


def rst_as_read(text: str) -> str:
    """reStructuredText's inline code as a reader sees it: a role its name in a code span
    (`roles_as_code`), "``None``" `None`."""
    return roles_as_code(text).replace("``", "`")


def roles_as_code(text: str) -> str:
    """Sphinx roles read as what they name: an advisory role (`:ghsa:`) its id, `:issue:`,
    `:pr:` and `:user:` as their links read (`#123`, `@name`: `roles.issue_roles`), any
    other role its name in a code span."""
    # MyST writes a role in braces: {meth}`BaseConverter.register_structure_hook` (cattrs)
    text = _MYST_ROLE.sub(r":\1:", text)
    text = issue_roles(text)
    # `:meth:`HelpFormatter.write_usage`` is that name in a code span, `~` keeping its last
    # part (`:class:`~click.formatting.TextWrapper``)
    return _CODE_ROLE.sub(
        lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`", text
    )


# A release's heading: a version (`## [25.4.0](…) - 2025-10-06`, `v1.24.0`, `pluggy 1.6.0
# (2025-05-15)`, `## Version 1.0.9 (April 24th, 2025)`).
_VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)*(?:[-.]?(?:a|b|rc|post|dev)\d*)?(?![\w.])")
_UNDERLINE = re.compile(r"^([=\-~^*+#])\1{2,}\s*$")
_TOP_ITEM = re.compile(r"^[-*] (?=\S)")
# Headings and words that mark what users must act on: the author's own sorting.
_NOTABLE_HEADING = re.compile(
    r"breaking|incompatib|removal|removed|deprecat|security", re.IGNORECASE
)
_NOTABLE_ITEM = re.compile(
    r"\b(?:GHSA-[\w-]+|CVE-\d+-\d+|security|vulnerab\w*|breaking|backwards?[- ]incompatible)\b"
    r"|^(?:Removed?|Drop(?:ped|s)?|Deprecated?|Deprecates)\b",
    re.IGNORECASE,
)
# `#556 <https://…>`_: (towncrier's reStructuredText issue link before an item)
_RST_ISSUE_LEAD = re.compile(r"^`[^`<]*(?:<[^>]*>)?`_:?\s*")
_RST_LINK = re.compile(r"`([^`<]+?)\s*<[^>]*>`__?")
_MD_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")
# (`-- by`, towncrier's; `- by`, a hand-written changelog's)
_BY_USER = re.compile(r"\s*(?:--|—|–|-)\s*by\s+:user:`[^`]*`(?:\s*(?:,|and)\s*:user:`[^`]*`)*\.?")
# (an issue's or a pull request's bare URL is one too: GitHub shows it as its `#N`, backoff
# 2.2.1's "Fix type hint for wait generators https://github.com/litl/backoff/issues/177")
_TRAILING_REFS = re.compile(
    r"(?:\s*[\[(]?(?:#\d+"
    r"|(?i:https?://(?:www\.)?github\.com/[\w.-]+/[\w.-]+/(?:issues|pull)/\d+/?))"
    r"[\])]?(?:\([^)]*\))?[,.]?)+\s*$"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!e\.g\.)(?<!i\.e\.)\s+(?=[A-Z`*])")
# `:rfc:` and `:pep:` read as Sphinx writes them: "RFC 3986", "PEP 749"
_NUMBERED_ROLE = re.compile(r":(rfc|pep):`(\d+[^`]*)`", re.IGNORECASE)
# A line under a changelog item that tells users their code broke and how to live with it
# (glom 23.1.0's star paths on by default: "If you had a spec broken by this, you can
# quick-fix it without downgrading by setting `glom.core.PATH_STAR = False`")
_BROKE = re.compile(
    r"\bbroken by (?:this|these|the change)\b|\bwithout downgrading\b"
    r"|\brestore the (?:old|previous|former) behaviou?r\b",
    re.IGNORECASE,
)
# Release notes said with at least this many items (fewer are read as one change's entry).
RELEASE_ITEMS = 4


# What a release's section heading (release-please's, Keep a Changelog's, towncrier's) or,
# under none, an item's first words say the items are, most consequential first: breaking,
# security, removals, fixes, features, other changes, then docs and chores.
_RANKS = (
    (re.compile(r"breaking|incompatib", re.I), re.compile(r"^breaking\b|\bbreaking change", re.I)),
    (
        re.compile(r"^security", re.I),
        re.compile(r"\b(?:GHSA-[\w-]+|CVE-\d+-\d+|security|vulnerab\w*)\b", re.I),
    ),
    (
        re.compile(r"remov|deprecat", re.I),
        re.compile(r"^(?:removed?|drop(?:ped|s)?|deprecated?|deprecates)\b", re.I),
    ),
    (re.compile(r"\bfix|bug", re.I), re.compile(r"^(?:fix(?:e[sd])?|bug\s*fix)\b", re.I)),
    (
        re.compile(r"feature|^added|^new", re.I),
        re.compile(r"^(?:add(?:ed|s)?|support(?:s|ed)?|new|implement(?:ed|s)?)\b", re.I),
    ),
)
_REMOVAL_RANK = 2
_CHORE_HEADING = re.compile(
    r"doc|chore|misc|ci\b|continuous|build|test|internal|packaging|infra|style|refactor", re.I
)
_CHORE_ITEM = re.compile(
    r"^(?:docs?|chore|ci|build|tests?|style|refactor)\b[:(]|\b(?:readme|badge|typos?|docs?"
    r"|documentation|changelog|CI|travis|tests? in)\b",
)
# The commit a release-please item names, in parentheses once its link is read as text
_SHA_REF = re.compile(r"\s*\((?:[0-9a-f]{7,40}(?:,\s*)?)+\)")
_CLOSES = re.compile(r",?\s*closes(?:\s*#?\d+,?)*\s*$", re.I)
# release-please's scope before an item's words: "**unparse:** add …"
_SCOPE = re.compile(r"^\*\*[\w./-]+:\*\*\s+")
# Headings of other changes, whatever the items' words: "Reverts", "Performance", "Changed"
_OTHER_HEADING = re.compile(r"revert|perf|improve|change|enhance|update", re.I)


# A heading of what a release takes away ("### Removed", "Removals"): not of deprecations
_REMOVED_HEADING = re.compile(r"^\W*remov", re.IGNORECASE)
# An author's words that a change breaks code: "backwards incompatible", "breaking change",
# "may break code which relied on the previous behaviour" (wrapt 7deecea), "Drop(ped) support
# for Python 2.7" (python-tabulate bf58e37)
SAYS_BREAK = re.compile(
    r"\bbackwards?[- ]incompatib\w*|\bbreaking[ -]changes?\b"
    r"|\b(?:may|might|could|can|will)\s+(?:also\s+)?break\s+(?:\w+\s+){0,2}code\b"
    r"|\bdrop(?:ped|s|ping)?\s+(?:the\s+)?support\s+(?:for\s+)?python\s*[23]\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ReleaseNote:
    """One item a release's changelog section adds: its first sentence as a reader sees it,
    the heading it is listed under, and whether it is one users must act on."""

    text: str
    heading: str
    notable: bool
    # a line of the list under it tells users how to live with what it broke (`_BROKE`)
    broke: bool = False

    @property
    def rank(self) -> int:
        """0 breaking, 1 security, 2 removal or deprecation, 3 fix, 4 feature, 5 another
        change, 6 docs or a chore: by its heading where that says, else by its words (a
        removal only by its heading); breaking where the list under it says it broke code."""
        if self.broke:
            return 0
        for rank, (heading, _) in enumerate(_RANKS):
            if heading.search(self.heading):
                return rank
        if self.heading and _CHORE_HEADING.search(self.heading):
            return len(_RANKS) + 1
        if _RANKS[0][1].search(self.text):
            return 0
        if self.heading and _OTHER_HEADING.search(self.heading):
            return len(_RANKS)
        if _CHORE_ITEM.search(self.text):
            return len(_RANKS) + 1
        for rank, (_, words) in enumerate(_RANKS):
            # ("Remove defusedexpat import." under no heading is a clean-up as often as
            # a removal users meet: its words alone put it with the other changes)
            if words.search(self.text) and rank != _REMOVAL_RANK:
                return rank
        return len(_RANKS)

    @property
    def breaking(self) -> bool:
        """Filed as breaking, under a heading of removals ("Removed"), or said so in its words
        ("Drop support for Python 2.7, 3.5, 3.6.", python-tabulate bf58e37's 0.9.0)."""
        return (
            self.rank == 0
            or bool(_REMOVED_HEADING.search(self.heading))
            or bool(SAYS_BREAK.search(self.text))
        )


@dataclass(frozen=True)
class ReleaseNotes:
    path: str
    items: tuple[ReleaseNote, ...]


def release_notes(files: Iterable[FileChange], least: int = RELEASE_ITEMS) -> ReleaseNotes | None:
    """The items of the release section a commit adds to its changelog (the first block of
    added lines that holds a version heading), at least `least` of them, or with one the
    author files under a breaking, removal, deprecation or security heading."""
    for f in files:
        if not f.patch or not _CHANGELOG.search(f.filename):
            continue
        items = _section_items(f.patch.split("\n"))
        if (items and len(items) >= least) or any(item.notable for item in items):
            return ReleaseNotes(f.filename, tuple(items))
    return None


def adds_release(files: Iterable[FileChange]) -> bool:
    """Whether a changelog's patch adds a version's heading: a release's notes, not the
    entry of one change (semantic-release's "2.7.0" commits)."""
    for f in files:
        if not f.patch or not _CHANGELOG.search(f.filename):
            continue
        added = [t.rstrip() for t in _added_lines(f.patch.split("\n"))]
        for text, under in zip(added, [*added[1:], ""][: len(added)], strict=True):
            if text.startswith("#"):
                title = text.lstrip("#").strip()
            elif text.strip() and not text[0].isspace() and _UNDERLINE.match(under):
                title = text.strip()
            else:
                continue
            if _VERSION.search(title):
                return True
    return False


def _section_items(lines: list[str]) -> list[ReleaseNote]:
    """The items of the first block of added lines (removed ones between aside) that opens
    a release section."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line.startswith("+") and not line.startswith("+++"):
            blocks[-1].append(line[1:].rstrip())
        elif blocks[-1] and not line.startswith("-"):
            blocks.append([])
    for block in blocks:
        found = _block_items(block)
        if found:
            return found
    return []


def _block_items(added: list[str]) -> list[ReleaseNote]:
    release = False
    heading = ""
    items: list[tuple[list[str], str]] = []
    # the lines of the list under each item, by its index
    under_item: dict[int, list[str]] = {}
    open_item = False
    for i, text in enumerate(added):
        under = added[i + 1] if i + 1 < len(added) else ""
        title = text.lstrip("#").strip() if text.startswith("#") else None
        if title is None and text.strip() and _UNDERLINE.match(under) and not text[0].isspace():
            title = text.strip()
        if title is not None:
            if _VERSION.search(title) and not items:
                release = True
            else:
                heading = title.strip("*")
            open_item = False
            continue
        if not release or _UNDERLINE.match(text):
            continue
        if _LABEL.match(text.strip()) and not text[:1].isspace():
            # a group's label on a line of its own ("Bug fixes:"): the items' heading
            heading, open_item = text.strip().rstrip(":"), False
            continue
        if _TOP_ITEM.match(text):
            items.append(([text[2:].strip()], heading))
            open_item = True
        elif not text.strip():
            open_item = False  # the item's first paragraph ended
        elif open_item and text[:1].isspace() and _TOP_ITEM.match(text.strip()):
            open_item = False  # a list under the item ("  * Thanks, @x!"): its words end
            under_item.setdefault(len(items) - 1, []).append(text.strip())
        elif open_item and text[:1].isspace():
            items[-1][0].append(text.strip())
        elif items and text[:1].isspace() and text.strip():
            under_item.setdefault(len(items) - 1, []).append(text.strip())
    return [
        _note(" ".join(words), heading, broke=bool(_BROKE.search(" ".join(under_item.get(i, [])))))
        for i, (words, heading) in enumerate(items)
    ]


def _note(text: str, heading: str, *, broke: bool = False) -> ReleaseNote:
    text = _SCOPE.sub("", _RST_ISSUE_LEAD.sub("", text))
    text = _BY_USER.sub("", text)
    text = _RST_LINK.sub(lambda m: m.group(1), text)
    text = _MD_LINK.sub(lambda m: m.group(1) if not m.group(1).startswith("#") else "", text)
    text = _ANGLE_LINK.sub(lambda m: f" ({m.group(1)})" if m.group(1) else "", text)
    # MyST writes a role in braces: {meth}`BaseConverter.register_structure_hook` (cattrs)
    text = _MYST_ROLE.sub(r":\1:", text)
    text = issue_roles(text)
    text = _NUMBERED_ROLE.sub(lambda m: f"{m.group(1).upper()} {m.group(2)}", text)
    text = _CODE_ROLE.sub(
        lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`", text
    )
    text = unmarkdown(text.replace("``", "`"))
    text = _CLOSES.sub("", _SHA_REF.sub("", text))
    text = _TRAILING_REFS.sub("", " ".join(text.split())).strip().rstrip(" ,;")
    # a closing quotation mark would end the quotation the note is said in
    first = _SENTENCE_END.split(text, 1)[0].replace("”", '"').replace("“", '"')
    notable = bool(_NOTABLE_HEADING.search(heading) or _NOTABLE_ITEM.search(first))
    return ReleaseNote(first, heading, notable or broke, broke)
