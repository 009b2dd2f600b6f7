"""The measures of what each entry says (issue 21): title echo, boilerplate, facts from the
change, nothing to say, source files called configuration, English in zh-CN, unsupported claims.

Pure, and written from the measures' definitions, not from the analysers' code: a checker
that shared the rules' reading of a commit would share their blind spots. It reads only the
commit (title, message, PR text, patches) and the analysis as stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bot.models import Analysis, CommitInput, Importance

# A body at least this long says something the title did not (issue 21: title echo).
ECHO_BODY = 120
# A sentence skeleton shared by this many commits is a template (issue 21: boilerplate).
BOILERPLATE_COMMITS = 3

# The LLM's fact guard: (claims unsupported by the change, claims checked) for one entry.
ClaimGuard = Callable[[CommitInput, Analysis], tuple[int, int]]


@dataclass(frozen=True)
class Entry:
    """One analysed commit, and the set it is reported in (a replay day, a clone)."""

    commit: CommitInput
    analysis: Analysis
    language: str = "en"
    group: str = ""


@dataclass(frozen=True)
class Ratio:
    hits: int
    total: int

    @property
    def share(self) -> float | None:
        return self.hits / self.total if self.total else None

    def __str__(self) -> str:
        return f"{self.hits}/{self.total} = {self.hits / self.total:.0%}" if self.total else "n/a"


@dataclass(frozen=True)
class WordMeasures:
    """The seven measures over a set of entries; None where the set cannot show one."""

    entries: int
    # entries whose summary is the title although the commit has a body of ECHO_BODY chars
    title_echo: Ratio
    # sentences whose skeleton recurs for BOILERPLATE_COMMITS commits with only paths/counts
    boilerplate: Ratio
    # medium/high entries naming an identifier found in the patch and not in the title
    # (None: no medium/high entry has a patch, e.g. titles only)
    facts: Ratio | None
    # medium/high entries with no insight, risk or recommendation
    nothing_to_say: Ratio
    # sentences that call a source file a configuration file
    config_misnamed: int
    # zh-CN sentences the analyser wrote that are English (None: no zh-CN entry)
    english_in_zh: Ratio | None
    # claims the fact guard found unsupported (None: no guard, e.g. the rules)
    unsupported: Ratio | None
    # a few of the offending texts per measure, to read
    examples: dict[str, tuple[str, ...]] = field(default_factory=dict)


_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[。！？；])")
# Paths: a slash between names, or a name with a file extension.
_EXTENSIONS = (
    r"(?:py|pyi|pyx|c|cc|cpp|cxx|h|hh|hpp|cu|cuh|rs|go|java|js|ts|sh|json|ya?ml|toml|ini|cfg"
    r"|md|rst|txt|csv|lock|in|po|png|jpg|svg|html)"
)
_PATH = re.compile(rf"^[\w.@~+-]*(?:/[\w.@~+-]+)+/?$|^[\w.@~+-]+\.{_EXTENSIONS}$")
_BARE_PATH = re.compile(
    rf"(?<![\w`])(?:[\w.-]+/)+[\w.-]+|(?<![\w`/])[\w.-]+\.{_EXTENSIONS}(?![\w])"
)
_NUMBER = re.compile(r"[+−-]?\d[\d,.]*\s?(?:%|×|x\b|ms\b|k\b)?")
_CURLY_QUOTE = re.compile(r"“[^”]*”|「[^」]*」")
_QUOTED = re.compile(r"“[^”]*”|\"[^\"\n]*\"|「[^」]*」|‘[^’]*’")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_LOWER_WORD = re.compile(r"(?<![\w./-])[a-z][a-z'-]+(?![\w/.-]*\w)")
_URL = re.compile(r"https?://\S+")
# Identifiers: inside code spans any name; outside, only names shaped like code.
_NAME = re.compile(r"--?[A-Za-z][\w-]*|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*")
_CODE_SHAPED = re.compile(
    r"(?<![\w`])(--[a-z][\w-]+|[A-Za-z]\w*_\w+|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*)(?![\w`])"
)
_COMMON = frozenset(
    {"self", "cls", "none", "true", "false", "null", "return", "import", "from", "def", "class"}
    | {"int", "str", "float", "bool", "list", "dict", "tuple", "void", "const", "auto", "the"}
    | {"and", "for", "not", "this", "that", "with", "new", "old", "args", "kwargs"}
)
_SOURCE_EXT = re.compile(
    r"\.(?:py|pyi|pyx|c|cc|cpp|cxx|h|hh|hpp|cu|cuh|rs|go|java|kt|js|ts|tsx|rb|sh|swift|m|mm)\b",
)
# "configuration files: `a.py`", "`a.py` is a configuration file", "配置文件：`a.py`"
_CONFIG_LIST = re.compile(
    r"(?:\bconfig(?:uration)? files?|配置文件)\s*[:：]\s*((?:`[^`]+`[^`.;。；]*)+)", re.IGNORECASE
)
_CALLED_CONFIG = re.compile(
    r"`([^`]+)`\s*(?:\([^)]*\)\s*)?(?:is|as|,)?\s*(?:an?|the)?\s*config(?:uration)? file"
    r"|`([^`]+)`\s*(?:是|为)?配置文件",
    re.IGNORECASE,
)
_TRAILER = re.compile(r"^[\w-]+:\s.*$", re.MULTILINE)
_TITLE_TAGS = re.compile(r"^\s*(?:\[[^\]]*\]\s*)+")
_CONVENTIONAL = re.compile(r"^\s*\w{2,12}(?:\([^)]*\))?!?:\s+")
_PR_SUFFIX = re.compile(r"\s*\(#\d+\)\s*$")


def sentences(text: str) -> list[str]:
    """The sentences of one field; a code span or a quotation never splits one."""
    spans: list[str] = []

    def hide(m: re.Match[str]) -> str:
        spans.append(m.group(0))
        return f"\x00{len(spans) - 1}\x00"

    hidden = _CURLY_QUOTE.sub(hide, _CODE_SPAN.sub(hide, text))
    out = []
    for part in _SENTENCE_END.split(hidden):
        shown = part
        while "\x00" in shown:
            shown = re.sub(r"\x00(\d+)\x00", lambda m: spans[int(m.group(1))], shown)
        shown = shown.strip()
        if shown:
            out.append(shown)
    return out


def _texts(a: Analysis) -> list[str]:
    """Every text field of an analysis, summary first."""
    out = [a.summary]
    if a.insights is not None:
        out += [v for v in a.insights.model_dump().values() if v]
    for risk in a.risks:
        out += [t for t in (risk.description, risk.consequence, risk.mitigation) if t]
    out += [r.text for r in a.recommendations]
    return out


def _said(a: Analysis) -> bool:
    """Whether the entry has any insight, risk or recommendation."""
    return bool((a.insights is not None and a.insights.any()) or a.risks or a.recommendations)


def _body(commit: CommitInput) -> str:
    """The commit's own words beyond its title: message body or PR text, trailers left out."""
    pr = commit.pull_request.body if commit.pull_request else ""
    texts = [_TRAILER.sub("", t).strip() for t in (commit.body, pr)]
    return max(texts, key=len)


def _title_words(text: str) -> list[str]:
    text = _PR_SUFFIX.sub("", text.strip())
    text = _CONVENTIONAL.sub("", _TITLE_TAGS.sub("", text))
    return re.findall(r"\w+", text.lower().replace("`", ""))


def title_echo(commit: CommitInput, a: Analysis) -> bool:
    """The summary says nothing the title does not (every word of it is a word of the title)."""
    summary = set(_title_words(a.summary))
    title = set(_title_words(commit.title)) | set(re.findall(r"\w+", commit.title.lower()))
    return not summary or summary <= title


def _skeleton(sentence: str) -> tuple[str, bool]:
    """The sentence with its particulars blanked, and whether every particular is a path or
    a count (a template filled with where and how much, saying nothing of what)."""
    only_paths = True

    def code(m: re.Match[str]) -> str:
        nonlocal only_paths
        inner = m.group(1).strip()
        if not (_PATH.match(inner) or re.fullmatch(r"[\d,.+−-]+", inner)):
            only_paths = False
        return "<c>"

    def quoted(m: re.Match[str]) -> str:
        nonlocal only_paths
        only_paths = False
        return "<q>"

    text = _CODE_SPAN.sub(code, sentence)
    text = _QUOTED.sub(quoted, text)
    text = _BARE_PATH.sub("<p>", text)
    text = _NUMBER.sub("<n>", text)
    if _CODE_SHAPED.search(text):
        only_paths = False
    return " ".join(text.lower().split()), only_paths


def _identifiers(text: str) -> set[str]:
    """Names a text gives: any name in a code span that is not a path, code-shaped words
    outside them."""
    found: set[str] = set()
    for m in _CODE_SPAN.finditer(text):
        inner = m.group(1).strip()
        if _PATH.match(inner):
            continue
        for name in _NAME.findall(inner):
            found.add(name)
            if "." in name and not name.startswith("-"):
                found.update(part for part in name.split(".") if part)
    outside = _CODE_SPAN.sub(" ", text)
    found.update(m.group(1) for m in _CODE_SHAPED.finditer(_URL.sub(" ", outside)))
    return {n for n in found if len(n.lstrip("-")) >= 3 and n.lower() not in _COMMON}


def _patch_text(commit: CommitInput) -> str:
    return "\n".join(f.patch for f in commit.files if f.patch)


def facts_named(commit: CommitInput, a: Analysis, patch: str | None = None) -> list[str]:
    """Identifiers the entry names that the patch holds and the title does not."""
    patch = _patch_text(commit) if patch is None else patch
    title = commit.title.lower()
    named = set()
    for text in _texts(a):
        named |= _identifiers(text)
    hits = []
    for name in sorted(named):
        if name.lower() in title:
            continue
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", patch):
            hits.append(name)
    return hits


def config_misnamed(sentence: str) -> bool:
    """The sentence calls a file with a source-code extension a configuration file: lists it
    after "configuration files:", or says it is one."""
    for m in _CONFIG_LIST.finditer(sentence):
        if any(_SOURCE_EXT.search(span) for span in _CODE_SPAN.findall(m.group(1))):
            return True
    return any(
        _SOURCE_EXT.search(m.group(1) or m.group(2) or "")
        for m in _CALLED_CONFIG.finditer(sentence)
    )


def english_in_chinese(sentence: str) -> bool:
    """A sentence of a zh-CN entry that is not Chinese: English words outside code spans,
    quotations, paths and URLs. Names (capitalised words, acronyms, `Qwen3`) may stay Latin;
    a lower-case word is English prose."""
    text = _URL.sub(" ", _QUOTED.sub(" ", _CODE_SPAN.sub(" ", sentence)))
    text = _BARE_PATH.sub(" ", text)
    if not _CJK.search(sentence):
        return bool(_WORD.search(text))
    return bool(_LOWER_WORD.search(text))


def authors_summary(a: Analysis) -> bool:
    """The summary is the author's own words, which a zh-CN digest marks as the original
    (`原文`): it holds no Chinese character."""
    return not _CJK.search(a.summary)


def measure_words(entries: Iterable[Entry], *, guard: ClaimGuard | None = None) -> WordMeasures:
    """The seven measures over these entries."""
    items = list(entries)
    return measure_groups(items, guard=guard)[""]


def measure_groups(
    entries: list[Entry], *, guard: ClaimGuard | None = None
) -> dict[str, WordMeasures]:
    """The measures per group of entries, and over all of them under the key "".

    A skeleton is a template when it recurs across the commits of the whole run, so a
    day's share counts sentences that its own day may use only once.
    """
    per_entry: list[list[tuple[str, str, bool]]] = []
    commits_of: dict[str, set[str]] = {}
    for e in entries:
        rows = []
        for text in _texts(e.analysis):
            for s in sentences(text):
                skeleton, only_paths = _skeleton(s)
                rows.append((s, skeleton, only_paths))
                commits_of.setdefault(skeleton, set()).add(e.commit.sha)
        per_entry.append(rows)
    templates = {k for k, shas in commits_of.items() if len(shas) >= BOILERPLATE_COMMITS}

    groups: dict[str, list[int]] = {"": list(range(len(entries)))}
    for i, e in enumerate(entries):
        if e.group:
            groups.setdefault(e.group, []).append(i)
    out = {}
    for name, indexes in groups.items():
        out[name] = _measure(
            [entries[i] for i in indexes], [per_entry[i] for i in indexes], templates, guard
        )
    return out


def _measure(
    entries: list[Entry],
    rows: list[list[tuple[str, str, bool]]],
    templates: set[str],
    guard: ClaimGuard | None,
) -> WordMeasures:
    examples: dict[str, list[str]] = {}

    def note(key: str, text: str) -> None:
        shown = examples.setdefault(key, [])
        if len(shown) < 5 and text not in shown:
            shown.append(text)

    echo = echo_total = 0
    sentence_total = boiler = misnamed = 0
    facts = facts_total = quiet = weighty = 0
    english = zh_total = 0
    zh_seen = False
    unsupported = checked = 0
    for e, sentence_rows in zip(entries, rows, strict=True):
        a, c = e.analysis, e.commit
        if len(_body(c)) >= ECHO_BODY:
            echo_total += 1
            if title_echo(c, a):
                echo += 1
                note("title echo", f"{c.sha[:7]} {a.summary}")
        for s, skeleton, only_paths in sentence_rows:
            sentence_total += 1
            if skeleton in templates and only_paths:
                boiler += 1
                note("boilerplate", s)
            if config_misnamed(s):
                misnamed += 1
                note("configuration", s)
        if a.importance is not Importance.LOW:
            weighty += 1
            if not _said(a):
                quiet += 1
                note("nothing to say", f"{c.sha[:7]} {c.title}")
            patch = _patch_text(c)
            if patch:
                facts_total += 1
                if facts_named(c, a, patch):
                    facts += 1
                else:
                    note("no facts", f"{c.sha[:7]} {c.title}")
        if e.language == "zh-CN":
            zh_seen = True
            texts = _texts(a)
            for text in texts[1:] if authors_summary(a) else texts:
                for s in sentences(text):
                    zh_total += 1
                    if english_in_chinese(s):
                        english += 1
                        note("English in zh-CN", s)
        if guard is not None:
            bad, seen = guard(c, a)
            unsupported += bad
            checked += seen
    return WordMeasures(
        entries=len(entries),
        title_echo=Ratio(echo, echo_total),
        boilerplate=Ratio(boiler, sentence_total),
        facts=Ratio(facts, facts_total) if facts_total else None,
        nothing_to_say=Ratio(quiet, weighty),
        config_misnamed=misnamed,
        english_in_zh=Ratio(english, zh_total) if zh_seen else None,
        unsupported=Ratio(unsupported, checked) if guard is not None else None,
        examples={k: tuple(v) for k, v in examples.items()},
    )
