"""Credentials in a commit's text, found by `detect-secrets`' plugins and replaced by a marker
(`[redacted: AWS Access Key]`) before a diff leaves for a model and before any text is posted.

The detectors are the package's own (cloud keys, tokens, private keys, secret-sounding
assignments); only their use is ours: the high-entropy plugins count only on a line that
also names a secret (`password`, `token`, `api_key`, …), as alone they flag every hash and
base64 blob, and a private key's whole block is redacted, not only its `BEGIN` line, where a
base64 body follows that line (a header alone, quoted in a message or docs, is no key). The
plugins' `analyze_string` is called, never `analyze_line`: that one may verify a key online.
A credential is noted as found only where the change adds it, never where it was already;
one only in a test file, or a documented example key, is noted as a fixture.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from re import _parser as sre_parse  # type: ignore[attr-defined]  # (no stub: the pattern parser)
from typing import Any

from cachetools import LRUCache
from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.filters.heuristic import (
    is_not_alphanumeric_string,
    is_sequential_string,
    is_templated_secret,
)
from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector
from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin
from detect_secrets.plugins.keyword import DENYLIST
from detect_secrets.plugins.private_key import PrivateKeyDetector

from bot.models import CommitInput, FileChange, PullRequestInfo

MARKER = "[redacted: {kind}]"
# Plugins left out: an IP address is public data; the IBM, Cloudant and SoftLayer detectors
# are secret-name assignments the keyword detector finds too; Artifactory's, Mailchimp's and
# Telegram's patterns (`AP` and 8 characters, 32 hex digits and `-us1`, 8 digits and `:`) match
# ordinary identifiers and cost a few milliseconds per 10 KB each: together with the others
# they made the rules ten times slower on a large diff.
_SKIPPED = frozenset(
    {
        "Public IP (ipv4)",
        "IBM COS HMAC Credentials",
        "IBM Cloud IAM Key",
        "Cloudant Credentials",
        "SoftLayer Credentials",
        "Artifactory Credentials",
        "Mailchimp Access Key",
        "Telegram Bot Token",
    }
)
# What a detector's every match holds (lowercased, as `_secrets` looks in the text lowered),
# one `str.find` each in place of one a pattern: a case-blind pattern scans slowly, so
# Slack's runs only where its tokens' prefixes are; each private key's header names
# `PRIVATE KEY` but PuTTY's.
_NEEDS = {
    "Slack Token": ("xox", "hooks.slack.com"),
    "Private Key": ("private key", "putty-user-key-file-2"),
}
# A run every match of a pattern holds where its literal (`_literal`) is as common as a `.`:
# Discord's, its tail (a scan for `[MNO]` and 23 characters tried at each capital `M`, `N`
# or `O` took a tenth of all the detectors' time).
_GATES = {
    r"[MNO][a-zA-Z\d_-]{23,25}\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}": re.compile(
        r"\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}"
    ),
}
# A secret shorter than this is a placeholder (`"x"`, `"changeme"` is 8): not worth a marker.
_MIN_SECRET = 8
# The keyword detector's secret names, and tokens and credentials (for the entropy plugins).
# (`token` as a word: not `tokenizer`, `max_tokens`).
_SECRET_NAME = re.compile("|".join((*DENYLIST, r"(?<![a-z])token(?![a-z])", "credential")))
# A substring of each name above.
_NAME_PARTS = ("key", "pass", "pwd", "secret", "contrase", "token", "credential")
# A private key's block, from its first line to its last (or to the end of the text, a
# hunk cut in the middle of it, or to the next key's first line).
_KEY_START = r"BEGIN[ A-Z0-9]*PRIVATE KEY|PuTTY-User-Key-File"
_KEY_END = r"END[ A-Z0-9]*PRIVATE KEY|Private-MAC:"
_KEY = re.compile(
    rf"[^\n]*(?:{_KEY_START})[^\n]*"
    rf"(?:\n(?![^\n]*(?:{_KEY_END}|{_KEY_START}))[^\n]*)*"
    rf"(?:\n[^\n]*(?:{_KEY_END})[^\n]*)?"
)
# A key's first line up to where its body may start (a PuTTY file's first line is all header).
_KEY_HEADER = re.compile(r"BEGIN[ A-Z0-9]*PRIVATE KEY[ A-Z]*-*|PuTTY-User-Key-File[^\n]*")
# A line of the block: a real line break, or a `\n` escape inside a string.
_KEY_LINE = re.compile(r"\n|\\n|\r")
# What wraps a body's line in a diff or in code: the diff's sign, quotes, a string's glue.
_KEY_WRAP = " \t+-\"'`,;()\\"
# A header field before the body (`Proc-Type: 4,ENCRYPTED`, PuTTY's `Encryption: none`).
_KEY_FIELD = re.compile(r"[A-Za-z-]+:\s")
# A body's line: base64, far longer than a placeholder (`MIIEow…`, `AAAA`) in docs or tests.
_KEY_BODY = re.compile(r"[A-Za-z0-9+/]{32}")
# A test file proper, whose credentials are fixtures (`tests/`, `test_x.py`, `x_test.go`,
# `conftest.py`, `x.spec.ts`, `fixtures/`): not `bench/`, whose scripts may call a real service.
_TEST_FILE = re.compile(
    r"(^|/)(tests?|testing|testdata|fixtures|__tests__|__fixtures__)/"
    r"|(^|/)(test_[^/]*|[^/]*_test)\.\w+$|(^|/)conftest\.py$|\.(test|spec)\.[cm]?[jt]sx?$"
)
# The examples vendors document, no one's key: AWS's end in EXAMPLE (`AKIAIOSFODNN7EXAMPLE`,
# `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`), which a random key of theirs holds by no chance.
_DOCUMENTED_EXAMPLE = re.compile(r"EXAMPLE(?:KEY)?$")


@dataclass(frozen=True)
class Found:
    """One credential: its kind (the plugin's name for it) and where it was (a path, or
    `message`, `pull request`); never its value. A fixture: a value only in a test file, or
    a documented example key (nothing to rotate)."""

    kind: str
    where: str
    fixture: bool = False


# What a documentation example or a template puts where a secret goes: the key's own name
# (`password="password"`), a stand-in word, a run of one character.
_PLACEHOLDER = re.compile(
    r"(?:my|your|the|some|example|sample|dummy|fake|test|placeholder)?[-_ ]?"
    r"(?:password|passwd|pass|secret|token|key|api[-_]?key|changeme|changeit|example|dummy"
    r"|placeholder|redacted|hunter2|foo|bar|baz)s?"
    r"|(.)\1{2,}",
    re.IGNORECASE,
)


def placeholder(value: str) -> bool:
    """A value no one's secret: a stand-in word, a template (`${TOKEN}`, `<token>`), a run of
    one character or a sequence (detect-secrets' own heuristics for the last three)."""
    bare = value.strip().strip("\"'`")
    return bool(
        _PLACEHOLDER.fullmatch(bare)
        or is_templated_secret(bare)
        or is_sequential_string(bare)
        or is_not_alphanumeric_string(bare)
    )


@cache
def _plugins() -> tuple[BasePlugin, ...]:
    # The plugin classes are abstract to the type checker; each one listed is concrete.
    classes: dict[str, Any] = dict(get_mapping_from_secret_type_to_class())
    return tuple(plugin() for kind, plugin in sorted(classes.items()) if kind not in _SKIPPED)


def _literal(regex: re.Pattern[str]) -> str:
    """The longest run of plain characters every match of `regex` holds, in its own case
    (`k_live_` of `(?:r|s)k_live_[0-9a-zA-Z]{24}`): the pattern's top-level literals in a
    row; "" where it has none or ignores case. A text without it holds no match, and a
    `str.find` for it is many times quicker than the pattern's scan."""
    parsed = sre_parse.parse(regex.pattern, regex.flags)
    if parsed.state.flags & re.IGNORECASE:
        return ""
    best, run = "", ""
    for op, arg in parsed:
        run = run + chr(arg) if op is sre_parse.LITERAL else ""
        best = max(best, run, key=len)
    return best


def _lead(regex: re.Pattern[str]) -> str:
    """The characters every match of a case-blind `regex` starts with, lowercased (`xox` of
    `xox(?:a|b|p|o|s|r)-…`); "" where it heeds case or starts otherwise."""
    parsed = sre_parse.parse(regex.pattern, regex.flags)
    if not parsed.state.flags & re.IGNORECASE:
        return ""
    lead = ""
    for op, arg in parsed:
        if op is not sre_parse.LITERAL or not chr(arg).isascii():
            break
        lead += chr(arg).lower()
    return lead


Detector = tuple[str, str, re.Pattern[str]]


@cache
def _detectors() -> tuple[tuple[str, tuple[Detector, ...]], ...]:
    """Each pattern detector's kind and its patterns, each with the run of characters any
    match of it holds (`_literal`) and, where it ignores case, the ones it starts with
    (`_lead`)."""
    return tuple(
        (plugin.secret_type, tuple((_literal(r), _lead(r), r) for r in plugin.denylist))
        for plugin in _plugins()
        if isinstance(plugin, RegexBasedDetector)
    )


# The characters other than ASCII ones that a case-blind pattern matches to an ASCII letter
# and `str.lower` does not lower to it (İ lowers to two characters)
_FOLDED_TO_ASCII = ("\u0130", "\u0131", "\u017f")


def _matches(regex: re.Pattern[str], lead: str, text: str, low: str) -> Iterator[re.Match[str]]:
    """`regex.finditer(text)`; for a case-blind pattern, tried only where `low` (`text`
    lowercased) has its `lead`: scanning a whole text case-blind took longer than all the
    other patterns together."""
    if not lead or len(low) != len(text) or any(c in text for c in _FOLDED_TO_ASCII):
        yield from regex.finditer(text)
        return
    end = 0
    at = low.find(lead)
    while at >= 0:
        # (matches do not overlap: the next one starts where the last ended, or after)
        if at >= end and (match := regex.match(text, at)) is not None:
            yield match
            end = match.end()
        at = low.find(lead, at + 1)


def _secrets(text: str) -> Iterator[tuple[str, str]]:
    """(kind, value) of each credential in `text`: the pattern detectors over the whole text
    at once (a regular expression a line costs 50 ms on a large diff), each only where the
    text holds the characters all its matches do, the secret-name ones on the lines that
    name a secret."""
    low = text.lower()
    for kind, patterns in _detectors():
        needs = _NEEDS.get(kind)
        if needs and not any(n in low for n in needs):
            continue
        for literal, lead, regex in patterns:
            if literal not in text:
                continue
            gate = _GATES.get(regex.pattern)
            if gate is not None and gate.search(text) is None:
                continue
            for m in _matches(regex, lead, text, low):
                # a stand-in (`http://user:password@host`) is no one's secret, and
                # replacing it would cut every name that holds the word
                # (the group that is the secret judged too where the whole match is
                # the value: `postgres:secret@localhost`, apscheduler 4d28dc7)
                if not placeholder(value := _value(m)) and not any(
                    placeholder(g) for g in m.groups() if g
                ):
                    yield kind, value
    for line in _named_lines(text, low):
        for plugin in _plugins():
            if isinstance(plugin, HighEntropyStringsPlugin):
                for v in plugin.analyze_string(line):
                    if plugin.calculate_shannon_entropy(v) >= plugin.entropy_limit:
                        yield plugin.secret_type, v
            elif not isinstance(plugin, RegexBasedDetector):
                # a keyword's value (`password = "…"`) is often a documentation stand-in
                for v in plugin.analyze_string(line):
                    if not placeholder(v):
                        yield plugin.secret_type, v


def _named_lines(text: str, low: str) -> Iterator[str]:
    """The lines of `text` that name a secret, found in `low` (`text` lowercased). Each
    secret name holds one of `_NAME_PARTS`: a `str.find` for those, then the pattern on the
    lines they are in (the pattern over the whole text takes seconds over a few megabytes)."""
    starts = set()
    for part in _NAME_PARTS:
        at = low.find(part)
        while at >= 0:
            starts.add(low.rfind("\n", 0, at) + 1)
            at = low.find(part, at + 1)
    for start in sorted(starts):
        end = low.find("\n", start)
        end = end if end >= 0 else len(low)
        if _SECRET_NAME.search(low, start, end):
            yield text[start:end]


def _value(match: re.Match[str]) -> str:
    """A detector's match: its longest group where that is the secret (`aws…"(KEY)"`), the
    whole match where the group is only a prefix (`(ghp|gho)_…`)."""
    groups = [g for g in match.groups() if g]
    longest = max(groups, key=len, default="")
    return longest if len(longest) >= _MIN_SECRET else match.group(0)


def _key_body(block: str) -> str | None:
    """A key block's body, its first line after the header and the header fields, where it
    is base64; None without one: a header quoted in a message, docs or code."""
    header = _KEY_HEADER.search(block)
    rest = block[header.end() :] if header else block
    for raw in _KEY_LINE.split(rest):
        line = raw.strip(_KEY_WRAP)
        if line and not _KEY_FIELD.match(line):
            return line if _KEY_BODY.match(line) else None
    return None


def _key_block(match: re.Match[str]) -> str:
    """A private key's block, each line a marker (a diff line keeps its `+`/`-`); a header
    with no body stays as written."""
    if _key_body(match.group(0)) is None:
        return match.group(0)
    lines = match.group(0).split("\n")
    marker = MARKER.format(kind=PrivateKeyDetector.secret_type)
    return "\n".join((line[:1] if line[:1] in "+- " else "") + marker for line in lines)


# A day's commits edit the same files in turn: a commit's text of a file is its next commit's
# parent text, redacted once within `redactions_kept` (texts of this many characters kept:
# a day of this project's own, 1,770 texts of 15 MB, redacted 149 of them again with 64
# texts kept).
_KEPT_CHARACTERS = 32_000_000
_KEPT: ContextVar[LRUCache[str, tuple[str, list[tuple[str, str]]]] | None] = ContextVar(
    "kept_redactions", default=None
)


@contextmanager
def redactions_kept() -> Iterator[None]:
    """Within the block, a text is scanned for credentials once (outside it, every time): a
    context variable, so each period's analysis, and each round of a benchmark, starts
    empty."""
    token = _KEPT.set(LRUCache(maxsize=_KEPT_CHARACTERS, getsizeof=_kept_size))
    try:
        yield
    finally:
        _KEPT.reset(token)


def _kept_size(found: tuple[str, list[tuple[str, str]]]) -> int:
    return max(len(found[0]), 1)


def _redacted(text: str) -> tuple[str, list[tuple[str, str]]]:
    """`text` with each credential replaced by its marker, and the (kind, value) of each one
    replaced (a private key's value: its body's first line)."""
    if not text:
        return text, []
    kept = _KEPT.get()
    if kept is None:
        return _redact(text)
    found = kept.get(text)
    if found is None:
        found = _redact(text)
        if _kept_size(found) <= _KEPT_CHARACTERS:
            kept[text] = found
    return found[0], list(found[1])


def _redact(text: str) -> tuple[str, list[tuple[str, str]]]:
    seen = {(k, v.strip()) for k, v in _secrets(text) if isinstance(v, str)}
    # A service's detector says more than a secret name, which says more than entropy.
    ordered = sorted(
        ((k, v) for k, v in seen if len(v) >= _MIN_SECRET),
        key=lambda s: ("Entropy" in s[0], s[0] == "Secret Keyword", -len(s[1]), s),
    )
    replaced: list[tuple[str, str]] = []
    for kind, value in ordered:
        if kind == PrivateKeyDetector.secret_type:
            bodies = [b for m in _KEY.finditer(text) if (b := _key_body(m.group(0)))]
            if bodies:
                text = _KEY.sub(_key_block, text)
            replaced += [(kind, b) for b in bodies]
        elif value in text:
            text = text.replace(value, MARKER.format(kind=kind))
            replaced.append((kind, value))
    return text, replaced


def redact(text: str, where: str = "", found: list[Found] | None = None) -> str:
    """`text` with each credential replaced by its marker; each kind found is appended to
    `found` (kind and `where`; a fixture where each value of the kind is one)."""
    text, replaced = _redacted(text)
    if found is not None:
        found += [
            Found(kind, where, fixture=all(fixture(where, v) for k, v in replaced if k == kind))
            for kind in dict.fromkeys(k for k, _ in replaced)
        ]
    return text


def _side(patch: str, sign: str) -> str:
    """A patch's added (`+`) or removed (`-`) lines, without their sign."""
    return "\n".join(line[1:] for line in patch.split("\n") if line[:1] == sign)


def fixture(path: str, value: str) -> bool:
    """Whether a credential found in the file at `path` is made up: the file is a test's, or
    the value is a documented example key."""
    return bool(_TEST_FILE.search(path) or _DOCUMENTED_EXAMPLE.search(value))


# A file's texts: its patch, and its whole texts at both revisions where fetched.
_FILE_TEXTS = ("patch", "before", "after")


@dataclass(frozen=True)
class Redacted:
    """A commit with its credentials replaced by markers, and what was found where."""

    commit: CommitInput
    found: tuple[Found, ...]


def redact_commit(commit: CommitInput) -> Redacted:
    """`commit` with every credential in its message, pull request and files (patches and
    whole texts) redacted. Noted as found: those in the message and pull request, and those
    a file's added lines (or, with no patch, its text at the commit) bring that neither a
    removed line nor a file's text at the parent held: one the change only shows around its
    lines, deletes or moves is not added."""
    found: list[Found] = []
    message = redact(commit.message, "message", found)
    pr = commit.pull_request
    if pr is not None:
        pr = PullRequestInfo(
            number=pr.number,
            title=redact(pr.title, "pull request", found),
            body=redact(pr.body, "pull request", found),
            labels=pr.labels,
        )
    files: list[FileChange] = []
    old: set[tuple[str, str]] = set()
    new: list[tuple[str, str, str]] = []
    for f in commit.files:
        texts = {k: getattr(f, k) for k in _FILE_TEXTS}
        seen = {k: _redacted(v) if v else (v, []) for k, v in texts.items()}
        redacted = {k: text for k, (text, _) in seen.items()}
        files.append(f if redacted == texts else f.model_copy(update=redacted))
        if redacted == texts:
            continue
        # Only a file with a credential somewhere is read again, side by side.
        patch = f.patch or ""
        old.update(seen["before"][1])
        old.update(_redacted(_side(patch, "-"))[1])
        now = _redacted(_side(patch, "+"))[1] if patch else seen["after"][1]
        new += [(f.filename, kind, value) for kind, value in now]
    found += [
        Found(kind, path, fixture=fixture(path, value))
        for path, kind, value in new
        if (kind, value) not in old
    ]
    if message == commit.message and pr == commit.pull_request and files == commit.files:
        return Redacted(commit, tuple(dict.fromkeys(found)))
    return Redacted(
        commit.model_copy(update={"message": message, "pull_request": pr, "files": files}),
        tuple(dict.fromkeys(found)),
    )
