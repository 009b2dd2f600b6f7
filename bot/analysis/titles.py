"""The one commit-title grammar: tags, conventional type, PR number, revert, reland, follow-up.

A title reads `[Tag]… type(scope)!: <verb> Subject (#123)`, every part optional:
- `(#123)`: the pull request GitHub's squash and merge buttons append (the last one counts);
- `[Tag]`: leading bracket tags; `type(scope)!:` a conventional-commit prefix of a known type;
- the verb, after the tags and the prefix: `Revert`/`Reverts`/`Reverted` (git's and GitHub's
  revert, also the tag `[Revert]` and the type `revert:`), or `Reland`/`Re-land`/`Reapply`/
  `Re-apply`/`Reapplied` (also as a tag). What it names follows, quotes removed.
A revert of a revert lands its change again, so it reads as a reland; a revert of a reland
takes the change out again. The revert and follow-up references a message's body makes
(`This reverts commit <sha>.`, `follow-up to #812`) are read here too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.analysis.messages import squash_description

_TAG = re.compile(r"^\s*\[([^\[\]]{1,60})\]\s*")
# `type(scope)!: text`, e.g. `fix(api)!: drop v1`
_CONVENTIONAL = re.compile(
    r"^\s*(?P<type>[a-zA-Z]{2,12})(?:\((?P<scope>[^()]{1,60})\))?(?P<bang>!)?:\s+(?P<rest>.+)$"
)
# A gitmoji before a conventional prefix ("✨ feat(api): …", "🐛 fix(unix): …"): the
# author's type is the prefix's, the emoji its picture
_GITMOJI = re.compile(
    r"^[\u2190-\u2BFF\U0001F000-\U0001FAFF\uFE0F\u200D]+\s*"
    r"(?=[a-zA-Z]{2,12}(?:\([^()]{1,60}\))?!?:\s)"
)
_PR_SUFFIX = re.compile(r"\s*\(#(?P<pr>\d{1,9})\)\s*$")
_NUMBERED = re.compile(r"^\s*\[?\d+\s*/\s*(?:\d+|n)\]?\s*", re.IGNORECASE)
_LEADING_TAGS = re.compile(r"^\s*(?:\[[^\[\]]{0,60}\]\s*)+")
_REVERT_VERB = re.compile(r"^revert(?:s|ed)?\b\s*:?\s*", re.IGNORECASE)
_RELAND_VERB = re.compile(r"^re-?(?:land(?:s|ed)?|appl(?:y|ies|ied))\b\s*:?\s*", re.IGNORECASE)
_REVERT_TAGS = frozenset({"revert"})
_RELAND_TAGS = frozenset({"reland", "re-land", "reapply", "re-apply"})
_QUOTES = {'"': '"', "'": "'", "“": "”", "「": "」", "`": "`"}
# A revert of a revert of a revert…: deeper than this is not a title anyone wrote.
_MAX_NESTING = 8

CONVENTIONAL_TYPES = frozenset(
    {"feat", "fix", "docs", "doc", "style", "refactor", "perf", "test", "tests", "build", "ci"}
    | {"chore", "revert", "deps", "security", "config", "release", "bugfix", "feature", "hotfix"}
)

_SHA = r"[0-9a-f]{7,40}"
_REVERTS_SHA = re.compile(rf"\breverts?\s+(?:commit\s+)?`?(?P<sha>{_SHA})\b", re.IGNORECASE)
_REVERTS_PR = re.compile(
    r"\b(?:reverts?|revert\s+of|original)\s+(?:pr|pull\s+request)\s*:?\s*#(?P<pr>\d{1,9})\b",
    re.IGNORECASE,
)
# The line `git revert` writes; "This partially reverts commit …" is not it.
_GIT_REVERT_LINE = re.compile(rf"^This reverts commit (?P<sha>{_SHA})\b", re.M | re.IGNORECASE)
_REF = rf"(?:(?:pr|pull\s+request)\s*)?#(?P<pr>\d{{1,9}})\b|(?:commit\s+)?`?(?P<sha>{_SHA})\b"
_FOLLOW_UP = re.compile(
    r"(?:"
    r"\b(?:bug\s*fix|hot\s*fix|fix(?:es|ed)?|fixup)\s+(?:for|on|of|to)\s+"
    r"|\b(?:introduced|caused|broken|regressed)\s+(?:in|by)\s+"
    r"|\bfollow[\s-]?up\s*(?:to|for|of|on)?\s*:?\s*"
    r"|\bregression\s+(?:from|in|of|since)\s+"
    rf")(?:{_REF})",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Ref:
    """A commit named by its pull request (`#812`) or by its sha (lower case, as written)."""

    pr: int | None = None
    sha: str | None = None


@dataclass(frozen=True)
class ParsedTitle:
    """The parts of a title the rules, the synthesis and the alerts read."""

    # the subject: tags, series marker, conventional prefix and `(#N)` removed (a revert's
    # or a reland's verb stays)
    text: str
    tags: tuple[str, ...] = ()
    conventional: str | None = None
    scope: str | None = None
    bang: bool = False
    pr: int | None = None
    # a change taken out, and a change landed again (a revert of a revert is a reland)
    revert: bool = False
    reland: bool = False
    # the title of the commit this one reverts, as quoted (`(#N)` kept): for
    # `Revert "Revert "X""` it is the revert `Revert "X"`
    undoes: str | None = None
    # the change a revert takes out and a reland lands again, behind any nesting: `X`
    reverted: str | None = None
    relanded: str | None = None
    # the commits the title says it follows up on (`fix for #812`)
    follows_up: tuple[Ref, ...] = ()
    words: frozenset[str] = field(default_factory=frozenset)


def normalise_tag(tag: str) -> list[str]:
    """`CI/Build` -> ["ci", "build"]; `Model Runner V2` -> ["model runner v2"]."""
    return [part.strip().lower() for part in re.split(r"[/,|+&]", tag) if part.strip()]


def pr_number(title: str) -> int | None:
    """The PR number GitHub's squash and merge buttons append: `Title (#1234)`."""
    match = _PR_SUFFIX.search(title)
    return int(match.group("pr")) if match else None


def parse_title(title: str) -> ParsedTitle:
    return _parse(title, 0)


def _parse(title: str, depth: int) -> ParsedTitle:
    pr = pr_number(title)
    text = _PR_SUFFIX.sub("", title.strip())
    tags: list[str] = []
    while True:
        match = _TAG.match(text)
        if not match:
            break
        tags += normalise_tag(match.group(1))
        text = text[match.end() :]
    text = _NUMBERED.sub("", text).lstrip(":;,-–— ")
    conventional = scope = None
    bang = False
    match = _CONVENTIONAL.match(_GITMOJI.sub("", text, count=1))
    if match and match.group("type").lower() in CONVENTIONAL_TYPES:
        conventional = match.group("type").lower()
        scope = match.group("scope")
        bang = bool(match.group("bang"))
        text = match.group("rest")
    rest = text.strip()
    revert = conventional == "revert" or not _REVERT_TAGS.isdisjoint(tags)
    reland = not _RELAND_TAGS.isdisjoint(tags)
    if verb := _REVERT_VERB.match(rest):
        revert, rest = True, rest[verb.end() :]
    elif verb := _RELAND_VERB.match(rest):
        reland, rest = True, rest[verb.end() :]
    named = (_unquote(rest) or None) if revert or reland else None
    undoes = reverted = relanded = None
    if revert:
        undoes = reverted = named
        inner = _parse(named, depth + 1) if named and depth < _MAX_NESTING else None
        if inner is not None and inner.revert:
            # Taking a revert out lands its change again.
            revert, reland, reverted, relanded = False, True, None, inner.reverted
        elif inner is not None and inner.reland:
            reverted = inner.relanded
    elif reland:
        relanded = named
    return ParsedTitle(
        text=text.strip() or title.strip(),
        tags=tuple(tags),
        conventional=conventional,
        scope=scope,
        bang=bang,
        pr=pr,
        revert=revert,
        reland=reland,
        undoes=undoes,
        reverted=reverted,
        relanded=relanded,
        follows_up=follow_up_refs(title),
        words=frozenset(re.findall(r"[a-z0-9_.+-]+", text.lower())),
    )


def _unquote(text: str) -> str:
    """`"Title"` -> `Title`; `"Title" (#12)` (a revert of a squash merge) -> `Title (#12)`."""
    text = text.strip()
    suffix = ""
    if text and text[0] in _QUOTES and (match := _PR_SUFFIX.search(text)):
        text, suffix = text[: match.start()].rstrip(), f" {match.group(0).strip()}"
    if len(text) >= 2 and text[0] in _QUOTES and text.endswith(_QUOTES[text[0]]):
        return text[1:-1].strip() + suffix
    return text + suffix


# The titles git and GitHub write for a merge commit: `Merge pull request #12 from o/branch`,
# `Merge branch 'x' into main`, `Merge remote-tracking branch 'origin/x'`, `Merge tag 'v1'`.
# `Merge main into topic` is how people title the merge of a trunk into a branch by hand. What
# follows the name, out of ` into x`, is the author's own note on what the branch brings:
# `Merge branch 'x' (issue 12: …)`.
_MERGE = re.compile(
    r"^Merge (?:pull request #(?P<pr>\d{1,9}) from (?P<from>\S+)"
    r"|(?:(?:remote-tracking )?branch(?:es)? '(?P<branch>[^']+)'|tag '(?P<tag>[^']+)'"
    r"|commit '(?P<commit>[0-9a-f]{7,40})'"
    r"|(?P<trunk>(?:origin/|upstream/)?(?:main|master|trunk|develop))(?= into ))"
    r"(?: into (?:'[^']+'|\S+))?(?P<note>.*))$"
)


def merged_message(message: str) -> str | None:
    """What a merge commit lands, as a message to read: the pull request's title and text that
    GitHub's merge button writes below its `Merge pull request #N` line, or the branch's name
    and the commit titles git lists (`merge.log`); None when the message is not a merge's."""
    title, _, body = message.strip().partition("\n")
    m = _MERGE.match(title.strip())
    if m is None:
        return None
    body = body.strip()
    if m.group("pr"):
        # GitHub's merge button: the pull request's title on the first line of the body.
        head, _, rest = body.partition("\n")
        subject = head.strip() or m.group("from").split("/", 1)[-1]
        return f"{subject} (#{m.group('pr')})\n{rest}".strip()
    name = m.group("branch") or m.group("tag") or m.group("commit") or m.group("trunk") or ""
    subject = re.sub(r"[-_/]+", " ", name.rsplit("/", 1)[-1]).strip() or name
    # the author's note after the name: `(issue 12: …)`, `: …`, `, …` read as the branch's text
    note = re.sub(r"^\s*[:,;–—-]?\s*", "", m.group("note") or "").strip()
    if note.startswith("(") and note.endswith(")"):
        note = note[1:-1].strip()
    note = note[:1].upper() + note[1:]
    # git's `merge.log` heads the merged commits' titles with `* branch:`; the titles stay.
    titles = re.sub(r"(?m)^\* [^\n]*:\s*$\n?", "", body)
    titles = "\n".join(f"- {t.strip()}" if t.startswith("  ") else t for t in titles.split("\n"))
    return "\n\n".join(part for part in (subject, note, titles.strip()) if part)


def merged_branch(message: str) -> str | None:
    """The branch (or tag) a merge commit's title names, not a pull request's merge: None
    for any other message."""
    m = _MERGE.match(message.strip().partition("\n")[0].strip())
    if m is None or m.group("pr"):
        return None
    return m.group("branch") or m.group("tag") or m.group("commit") or m.group("trunk")


def merged_branch_words(message: str) -> tuple[str, ...]:
    """The words of the branch a merge commit lands, its owner left out: `bug`, `273`,
    `readonly`, `attribute` of `Merge pull request #274 from o/bug/273-readonly-attribute`;
    none for any other message."""
    m = _MERGE.match(message.strip().partition("\n")[0].strip())
    if m is None:
        return ()
    name = m.group("branch") or m.group("commit") or m.group("trunk") or ""
    if m.group("pr"):
        # `owner/branch`: the owner names who pushed it, not what it brings
        name = m.group("from").split("/", 1)[-1] if "/" in m.group("from") else ""
    return tuple(w for w in re.split(r"[-_/.\s]+", name.lower()) if w)


def normalise_title(title: str) -> str:
    """A title to compare: no `(#N)` suffixes, leading tags or quotes; case and spaces folded."""
    text = title.strip()
    while True:
        stripped = _PR_SUFFIX.sub("", text)
        if stripped == text:
            break
        text = stripped
    text = _unquote(_LEADING_TAGS.sub("", text).strip())
    text = _PR_SUFFIX.sub("", text)
    return " ".join(text.casefold().split()).rstrip(".")


def follow_up_refs(text: str) -> tuple[Ref, ...]:
    """The commits a title or message says it fixes or follows up on: `hotfix: bugfix on
    #812`, `Fix … introduced in #810`, `follow-up to abc1234`, in the order written."""
    return tuple(
        Ref(pr=int(m.group("pr"))) if m.group("pr") else Ref(sha=m.group("sha").lower())
        for m in _FOLLOW_UP.finditer(text)
    )


def _own_text(message: str) -> str:
    """A message without its squashed branch's later steps (`squash_description`): a revert
    there undid a try within the branch, not a commit of the branch it lands on."""
    title, _, body = message.partition("\n")
    return f"{title}\n{squash_description(body, title)}"


def reverted_refs(text: str) -> tuple[Ref, ...]:
    """The commits a message says it reverts: `This reverts commit <sha>.`, `Reverts abc1234`,
    `Revert of PR #12`, `Original pull request: #12`; shas first, in the order written (a
    squashed step's revert aside)."""
    if "revert" not in text.casefold():
        return ()
    text = _own_text(text)
    shas = (Ref(sha=m.group("sha").lower()) for m in _REVERTS_SHA.finditer(text))
    prs = (Ref(pr=int(m.group("pr"))) for m in _REVERTS_PR.finditer(text))
    return (*shas, *prs)


def git_reverted_shas(message: str) -> tuple[str, ...]:
    """The shas named by the line `git revert` writes, which takes the whole commit out (a
    squashed step's line aside)."""
    if "revert" not in message.casefold():
        return ()
    return tuple(m.group("sha").lower() for m in _GIT_REVERT_LINE.finditer(_own_text(message)))


def names_a_revert(title: str, message: str) -> bool:
    """Whether a commit reads as a revert (of anything): a `Revert "…"` title or git's line."""
    return parse_title(title).undoes is not None or bool(git_reverted_shas(message))


# A title whose subject is the project's records: the changelog, the authors, the news
_RECORDS = r"(?:the\s+)?(?:change\s*log|changes|news|history|authors|contributors|credits)"
_RECORDS_ONLY = re.compile(
    rf"^\s*(?:(?:update[sd]?|add(?:s|ed)?|edit(?:s|ed)?|fix(?:es|ed)?)\s+)?{_RECORDS}"
    rf"(?:\s*(?:,|and|&)\s*{_RECORDS})*\s*\.?\s*$",
    re.IGNORECASE,
)


def keeps_records(title: str) -> bool:
    """Whether a title says the commit only updates the project's records ("Update Changelog
    and authors."): the changelog lines it adds tell other commits' changes, not its own."""
    return bool(_RECORDS_ONLY.match(title))
