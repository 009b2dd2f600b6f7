"""Commit text as an analyser may read it: what a reader cannot see removed, credentials
redacted; and the note an analysis gives of a credential found (its kind and file, never its
value).

Hidden text is an HTML comment (GitHub renders none; a pull request template's hints, or an
instruction planted for a model) and the characters that show nothing: zero-width ones,
bidirectional controls, Unicode tag characters. A `<details>` block stays: a reader can open
it. The message and pull request lose both; a file (its patch, its whole texts) loses only the
invisible characters (an HTML comment in a file is its content, and the diff shows it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.analysis.credentials import Found, redact, redact_commit
from bot.analysis.messages import without_comments
from bot.models import AnalysisBody, CommitInput, FileChange, Importance, Risk

_INVISIBLE = re.compile(
    "[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)
# The note of a credential found: its kinds and where, never its value.
_NOTE = {
    "en": (
        "Adds what looks like a credential ({kinds}) in {where}; its value is not shown here.",
        "Anyone who can read the repository can use it.",
        "Revoke it, rotate it and load it from a secret store.",
    ),
    "zh-CN": (
        "在 {where} 中加入了疑似凭据（{kinds}）；此处不显示其值。",
        "能读取该仓库的人都能使用它。",
        "请吊销并轮换该凭据，改为从密钥存储中读取。",
    ),
}
# The consequence said of fixtures alone (values only in test files, documented example
# keys): where they are, and that a test's value is usually made up, which the value itself
# cannot prove (a real key committed in a test is still a leak).
_FIXTURE = {
    "en": "Only in test files or a documented example key: usually a test's made-up value;"
    " if it is a real one, rotate it.",
    "zh-CN": "仅出现在测试文件中或为文档中的示例密钥：通常是测试用的假值；如果是真实凭据，请轮换。",
}
_MAX_PLACES = 3
_RISK_MAX = 300
B = TypeVar("B", bound=AnalysisBody)


def visible(text: str) -> str:
    """`text` without what GitHub shows no reader: HTML comments, invisible characters."""
    return _INVISIBLE.sub("", without_comments(text))


def _visible_file(f: FileChange) -> FileChange:
    texts = {"patch": f.patch, "before": f.before, "after": f.after}
    hidden = {k: v for k, v in texts.items() if v and _INVISIBLE.search(v) is not None}
    if not hidden:
        return f
    return f.model_copy(update={k: _INVISIBLE.sub("", v) for k, v in hidden.items()})


def visible_commit(commit: CommitInput) -> CommitInput:
    """`commit` as a reader sees it on GitHub (see the module's docstring)."""
    pr = commit.pull_request
    update: dict[str, Any] = {
        "message": visible(commit.message),
        "files": [_visible_file(f) for f in commit.files],
    }
    if pr is not None:
        update["pull_request"] = pr.model_copy(
            update={"title": visible(pr.title), "body": visible(pr.body)}
        )
    return commit.model_copy(update=update)


@dataclass(frozen=True)
class Shielded:
    """A commit fit for an analyser and a model, and the credentials that were redacted."""

    commit: CommitInput
    found: tuple[Found, ...] = ()


def shield(commit: CommitInput) -> Shielded:
    """`commit` with its hidden text removed and its credentials redacted."""
    redacted = redact_commit(visible_commit(commit))
    return Shielded(redacted.commit, redacted.found)


def redact_body(body: B) -> B:
    """An analysis with every credential in its text redacted (a model may write one)."""
    data = body.model_dump()
    cleaned = _redact_value(data)
    return body if cleaned == data else type(body).model_validate(cleaned)


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_redact_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _redact_value(v) for k, v in value.items()}
    return value


def noted(body: B, found: tuple[Found, ...], language: str) -> B:
    """`body` with a risk saying which credentials the commit holds and where (at least
    medium: a low entry shows only its summary). Fixtures alone are said as fixtures, with
    nothing to do, and raise no entry; beside a real one they are not named."""
    real = tuple(f for f in found if not f.fixture)
    if not found:
        return body
    description, consequence, mitigation = _NOTE.get(language, _NOTE["en"])
    if real:
        found = real
    else:
        consequence, mitigation = _FIXTURE.get(language, _FIXTURE["en"]), ""
    kinds = ", ".join(dict.fromkeys(f.kind for f in found))
    places = [
        f"`{p}`" if "/" in p or "." in p else p for p in dict.fromkeys(f.where for f in found)
    ]
    # As many places as the risk's 300 characters hold (a path may be long), at least one.
    for shown in range(min(len(places), _MAX_PLACES), 0, -1):
        where = ", ".join(places[:shown]) + (" …" if len(places) > shown else "")
        text = description.format(kinds=kinds, where=where)
        if len(text) <= _RISK_MAX:
            break
    else:
        text = description.format(kinds=kinds, where="…")
    if len(text) > _RISK_MAX:
        text = description.format(kinds="…", where="…")
    risk = Risk(description=text, consequence=consequence, mitigation=mitigation or None)
    raised = real and body.importance is Importance.LOW
    importance = Importance.MEDIUM if raised else body.importance
    data = body.model_dump()
    data.update(importance=importance, risks=[risk.model_dump(), *data["risks"]][:5])
    return type(body).model_validate(data)
