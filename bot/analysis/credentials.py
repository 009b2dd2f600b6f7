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
from typing import Any

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
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
# A case-blind pattern scans slowly: Slack's runs only where its tokens' prefixes are.
_NEEDS = {"Slack Token": ("xox", "hooks.slack.com")}
# A secret shorter than this is a placeholder (`"x"`, `"changeme"` is 8): not worth a marker.
_MIN_SECRET = 8
# The keyword detector's secret names, and tokens and credentials (for the entropy plugins).
# (`token` as a word: not `tokenizer`, `max_tokens`).
_SECRET_NAME = re.compile("|".join((*DENYLIST, r"(?<![a-z])token(?![a-z])", "credential")))
# A substring of each name above.
_NAME_PARTS = ("key", "pass", "pwd", "secret", "contrase", "token", "credential")
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
    # The plugin classes are abstract to the type checker; each one listed is concrete.
    classes: dict[str, Any] = dict(get_mapping_from_secret_type_to_class())
    return tuple(plugin() for kind, plugin in sorted(classes.items()) if kind not in _SKIPPED)


def _secrets(text: str) -> Iterator[tuple[str, str]]:
    """(kind, value) of each credential in `text`: the pattern detectors over the whole text
    at once (a regular expression a line costs 50 ms on a large diff), the secret-name ones
    on the lines that name a secret."""
    low = text.lower()
    for plugin in _plugins():
        needs = _NEEDS.get(plugin.secret_type)
        if needs and not any(n in low for n in needs):
            continue
        if isinstance(plugin, RegexBasedDetector):
            for regex in plugin.denylist:
                for m in regex.finditer(text):
                    yield plugin.secret_type, _value(m)
    for line in _named_lines(text, low):
        for plugin in _plugins():
            if isinstance(plugin, HighEntropyStringsPlugin):
                for v in plugin.analyze_string(line):
                    if plugin.calculate_shannon_entropy(v) >= plugin.entropy_limit:
                        yield plugin.secret_type, v
            elif not isinstance(plugin, RegexBasedDetector):
                for v in plugin.analyze_string(line):
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
        key=lambda s: ("Entropy" in s[0], s[0] == "Secret Keyword", -len(s[1]), s),
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


# A file's texts: its patch, and its whole texts at both revisions where fetched.
_FILE_TEXTS = ("patch", "before", "after")


@dataclass(frozen=True)
class Redacted:
    """A commit with its credentials replaced by markers, and what was found where."""

    commit: CommitInput
    found: tuple[Found, ...]


def redact_commit(commit: CommitInput) -> Redacted:
    """`commit` with every credential in its message, pull request and files (patches and
    whole texts) redacted; noted are those in its message or pull request, and those a file
    gains: at the commit and not at its parent (one it already held is no news of this one)."""
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
        texts = {k: getattr(f, k) for k in _FILE_TEXTS}
        redacted = {k: redact(v) if v else v for k, v in texts.items()}
        if redacted != texts:
            found.extend(Found(kind, f.filename) for kind in _gained(f))
        files.append(f if redacted == texts else f.model_copy(update=redacted))
    redacted_commit = commit.model_copy(
        update={"message": message, "pull_request": pr, "files": files}
    )
    if redacted_commit == commit:
        return Redacted(commit, ())
    return Redacted(redacted_commit, tuple(dict.fromkeys(found)))


def _held(text: str) -> set[tuple[str, str]]:
    """(kind, value) of the credentials in `text` that `redact` would replace."""
    pairs = {(k, v.strip()) for k, v in _secrets(text) if isinstance(v, str)}
    return {(k, v) for k, v in pairs if len(v) >= _MIN_SECRET}


def _gained(f: FileChange) -> list[str]:
    """The kinds of credential `f` holds at the commit and not at its parent: from its whole
    texts where both sides were read (a new file has no parent side), else from the patch's
    added lines against its removed ones (a context line is neither)."""
    if f.after is not None and (f.before is not None or f.status == "added"):
        new = _held(f.after) - _held(f.before or "")
    else:
        lines = (f.patch or "").split("\n")
        added = "\n".join(line[1:] for line in lines if line.startswith("+"))
        removed = "\n".join(line[1:] for line in lines if line.startswith("-"))
        new = _held(added) - _held(removed)
    return sorted({kind for kind, _ in new})
