"""Credentials in a commit's text, found by `detect-secrets`' plugins and replaced by a marker
(`[redacted: AWS Access Key]`) before a diff leaves for a model and before any text is posted.

The detectors are the package's own (cloud keys, tokens, private keys, secret-sounding
assignments); only their use is ours: the high-entropy plugins count only on a line that
also names a secret (`password`, `token`, `api_key`, …), as alone they flag every hash and
base64 blob, and a private key's whole block is redacted, not only its `BEGIN` line. The
plugins' `analyze_string` is called, never `analyze_line`: that one may verify a key online.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.base import BasePlugin, RegexBasedDetector
from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin
from detect_secrets.plugins.keyword import DENYLIST
from detect_secrets.plugins.private_key import PrivateKeyDetector

from bot.models import CommitInput, FileChange, PullRequestInfo

MARKER = "[redacted: {kind}]"
# Plugins left out: an IP address is public data; the IBM, Cloudant and SoftLayer detectors
# are secret-name assignments the keyword detector finds too, at a tenth of a millisecond a
# kilobyte each (a 300 KB diff would wait 200 ms for them).
_SKIPPED = frozenset(
    {
        "Public IP (ipv4)",
        "IBM COS HMAC Credentials",
        "IBM Cloud IAM Key",
        "Cloudant Credentials",
        "SoftLayer Credentials",
    }
)
# A secret shorter than this is a placeholder (`"x"`, `"changeme"` is 8): not worth a marker.
_MIN_SECRET = 8
# The keyword detector's secret names, and tokens and credentials (for the entropy plugins).
# (`token` as a word: not `tokenizer`, `max_tokens`).
_SECRET_NAME = re.compile("|".join((*DENYLIST, r"(?<![a-z])token(?![a-z])", "credential")))
# A private key's block, from its first line to its last (or to the end of the text, a
# hunk cut in the middle of it).
_KEY = re.compile(
    r"[^\n]*(?:BEGIN[ A-Z0-9]*PRIVATE KEY|PuTTY-User-Key-File)[^\n]*"
    r"(?:\n(?![^\n]*(?:END[ A-Z0-9]*PRIVATE KEY|Private-MAC:))[^\n]*)*"
    r"(?:\n[^\n]*(?:END[ A-Z0-9]*PRIVATE KEY|Private-MAC:)[^\n]*)?"
)


@dataclass(frozen=True)
class Found:
    """One credential: its kind (the plugin's name for it) and where it was (a path, or
    `message`, `pull request`); never its value."""

    kind: str
    where: str


@cache
def _plugins() -> tuple[BasePlugin, ...]:
    return tuple(
        plugin()  # type: ignore[misc]
        for kind, plugin in sorted(get_mapping_from_secret_type_to_class().items())
        if kind not in _SKIPPED
    )


def _secrets(text: str) -> Iterator[tuple[str, str]]:
    """(kind, value) of each credential in `text`: the pattern detectors over the whole text
    at once (a regular expression a line costs 50 ms on a large diff), the secret-name ones
    on the lines that name a secret."""
    for plugin in _plugins():
        if isinstance(plugin, RegexBasedDetector):
            for regex in plugin.denylist:
                for m in regex.finditer(text):
                    yield plugin.secret_type, _value(m)
    for line in _named_lines(text):
        for plugin in _plugins():
            if isinstance(plugin, HighEntropyStringsPlugin):
                for v in plugin.analyze_string(line):
                    if plugin.calculate_shannon_entropy(v) >= plugin.entropy_limit:
                        yield plugin.secret_type, v
            elif not isinstance(plugin, RegexBasedDetector):
                for v in plugin.analyze_string(line):
                    yield plugin.secret_type, v


def _named_lines(text: str) -> Iterator[str]:
    """The lines of `text` that name a secret (ASCII-lowercased once: the keyword detector's
    own case-blind pattern takes seconds over a few megabytes)."""
    low = text.lower()
    starts = set()
    for m in _SECRET_NAME.finditer(low):
        starts.add(low.rfind("\n", 0, m.start()) + 1)
    for start in sorted(starts):
        end = text.find("\n", start)
        yield text[start : end if end >= 0 else len(text)]


def _value(match: re.Match[str]) -> str:
    """A detector's match: its longest group where that is the secret (`aws…"(KEY)"`), the
    whole match where the group is only a prefix (`(ghp|gho)_…`)."""
    groups = [g for g in match.groups() if g]
    longest = max(groups, key=len, default="")
    return longest if len(longest) >= _MIN_SECRET else match.group(0)


def _key_block(match: re.Match[str]) -> str:
    """A private key's block, each line a marker (a diff line keeps its `+`/`-`)."""
    lines = match.group(0).split("\n")
    marker = MARKER.format(kind=PrivateKeyDetector.secret_type)
    return "\n".join((line[:1] if line[:1] in "+- " else "") + marker for line in lines)


def redact(text: str, where: str = "", found: list[Found] | None = None) -> str:
    """`text` with each credential replaced by its marker; each one found is appended to
    `found` (kind and `where`)."""
    if not text:
        return text
    seen = {(k, v.strip()) for k, v in _secrets(text) if isinstance(v, str)}
    # A service's detector says more than a secret name, which says more than entropy.
    ordered = sorted(
        ((k, v) for k, v in seen if len(v) >= _MIN_SECRET),
        key=lambda s: ("Entropy" in s[0], s[0] == "Secret Keyword", -len(s[1])),
    )
    for kind, value in ordered:
        if kind == PrivateKeyDetector.secret_type:
            text, n = _KEY.subn(_key_block, text)
        elif value in text:
            text, n = text.replace(value, MARKER.format(kind=kind)), 1
        else:
            n = 0
        if n and found is not None:
            found.append(Found(kind, where))
    return text


@dataclass(frozen=True)
class Redacted:
    """A commit with its credentials replaced by markers, and what was found where."""

    commit: CommitInput
    found: tuple[Found, ...]


def redact_commit(commit: CommitInput) -> Redacted:
    """`commit` with every credential in its message, pull request and patches redacted."""
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
    for f in commit.files:
        patch = redact(f.patch, f.filename, found) if f.patch else f.patch
        files.append(f if patch == f.patch else f.model_copy(update={"patch": patch}))
    if not found:
        return Redacted(commit, ())
    return Redacted(
        commit.model_copy(update={"message": message, "pull_request": pr, "files": files}),
        tuple(dict.fromkeys(found)),
    )
