"""Domain types: the commit an analyser reads, and the analysis it returns."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)


class ChangeType(StrEnum):
    FEATURE = "feature"
    BUGFIX = "bugfix"
    REFACTOR = "refactor"
    PERFORMANCE = "performance"
    DOCS = "docs"
    TESTS = "tests"
    CI = "ci"
    BUILD = "build"
    CONFIG = "config"
    DEPRECATION = "deprecation"
    REVERT = "revert"
    SECURITY = "security"
    OTHER = "other"


class Importance(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"

    @property
    def rank(self) -> int:
        return {"high": 0, "medium": 1, "low": 2}[self.value]


class Audience(StrEnum):
    DEVELOPERS = "developers"
    MAINTAINERS = "maintainers"
    USERS = "users"


_SENTENCE_END = re.compile(r"[.!?。！？]”?(?=\s|$)|[。！？]")


# A Markdown code span (CommonMark: a run of backticks closed by a run as long)
_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def one_spaced(text: str) -> str:
    """`text` on one line, each run of white space one space, but inside a one-line code
    span, which shows its spaces as written (a literal's `'  1500'`)."""
    out: list[str] = []
    last = 0
    for m in _CODE_SPAN.finditer(text):
        out.append(re.sub(r"\s+", " ", text[last : m.start()]))
        span = m.group(0)
        out.append(span if "\n" not in span else " ".join(span.split()))
        last = m.end()
    out.append(re.sub(r"\s+", " ", text[last:]))
    return "".join(out).strip()


def fit_sentences(text: str, limit: int) -> str:
    """Text within `limit` characters, shortened only at a sentence end, never mid-sentence.

    Raises ValueError when even the first sentence is too long: the caller must not get a
    cut sentence.
    """
    text = one_spaced(text) if "\n" not in text else text.strip()
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, limit)]
    if not ends:
        raise ValueError(f"longer than {limit} characters with no sentence end within the limit")
    return text[: ends[-1]].rstrip()


def _fit_if_text(limit: int) -> Any:
    def fit(value: Any) -> Any:
        # No NUL: analyses are stored as JSONB on PostgreSQL, which refuses it (SQLite would not).
        return fit_sentences(value.replace("\x00", ""), limit) if isinstance(value, str) else value

    return fit


# Text fields of bounded length; longer text keeps only its whole sentences.
Text120 = Annotated[
    str, BeforeValidator(_fit_if_text(120)), StringConstraints(min_length=1, max_length=120)
]
Text300 = Annotated[
    str, BeforeValidator(_fit_if_text(300)), StringConstraints(min_length=1, max_length=300)
]
Text600 = Annotated[
    str, BeforeValidator(_fit_if_text(600)), StringConstraints(min_length=1, max_length=600)
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, str_strip_whitespace=True)


class Risk(_Model):
    description: Text300
    consequence: Text300 | None = None
    mitigation: Text300 | None = None


class Recommendation(_Model):
    audience: Audience
    text: Text300


class Insights(_Model):
    """Technical notes by theme; each optional."""

    architecture: Text600 | None = None
    performance: Text600 | None = None
    security: Text600 | None = None
    compatibility: Text600 | None = None

    def any(self) -> bool:
        return any((self.architecture, self.performance, self.security, self.compatibility))


class ImpactArea(_Model):
    """A module or path group the commit touches."""

    area: Text120
    files: int = Field(default=0, ge=0)


ONE_LINE_MAX = 200


class AnalysisBody(_Model):
    """What an analyser concludes about one commit (the LLM fills exactly this)."""

    change_types: list[ChangeType] = Field(
        min_length=1,
        max_length=4,
        description="One or more; the first is the primary type.",
    )
    importance: Importance
    breaking: bool = Field(default=False, description="True if users must change something.")
    summary: Text600 = Field(
        description="What changed and why; one line (at most 200 characters) for low importance."
    )
    impact: list[ImpactArea] = Field(default_factory=list, max_length=8)
    insights: Insights | None = None
    risks: list[Risk] = Field(default_factory=list, max_length=5)
    recommendations: list[Recommendation] = Field(default_factory=list, max_length=5)
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)

    @field_validator("change_types", mode="before")
    @classmethod
    def _dedupe_types(cls, value: Any) -> Any:
        if isinstance(value, list):
            seen: list[Any] = []
            for item in value:
                if item not in seen:
                    seen.append(item)
            return seen
        return value

    @model_validator(mode="after")
    def _low_is_one_line(self) -> AnalysisBody:
        if self.importance is Importance.LOW and (
            "\n" in self.summary or len(self.summary) > ONE_LINE_MAX
        ):
            first = self.summary.splitlines()[0].strip()
            object.__setattr__(self, "summary", fit_sentences(first, ONE_LINE_MAX))
        return self

    @property
    def primary_type(self) -> ChangeType:
        return self.change_types[0]


class Analysis(AnalysisBody):
    """An analysis as stored: the body plus which analyser made it."""

    analyzer: Annotated[str, StringConstraints(min_length=1, max_length=120)] = Field(
        description="`rules` or `llm:<model>`"
    )

    def as_rated(self, rated: str | None) -> Analysis:
        """The analysis as posts show it: with a maintainer's rated importance, if any (the
        stored analysis stays as the analyser made it)."""
        if rated is None:
            return self
        return self.model_copy(update={"importance": Importance(rated)})


# --- what the analysers read ---------------------------------------------------------------


class FileChange(_Model):
    filename: str
    status: str = "modified"
    additions: int = 0
    deletions: int = 0
    patch: str | None = None
    previous_filename: str | None = None
    # The whole text at the parent and at the commit, where fetched (None: not fetched, over
    # the bounds, binary or generated); an added file has no `before`, a removed one no `after`.
    before: str | None = None
    after: str | None = None

    @property
    def sides(self) -> tuple[str, str] | None:
        """Both texts, '' for the side where the file does not exist; None unless both known."""
        before = "" if self.status == "added" else self.before
        after = "" if self.status == "removed" else self.after
        return None if before is None or after is None else (before, after)

    @property
    def changes(self) -> int:
        return self.additions + self.deletions


class PullRequestInfo(_Model):
    number: int
    title: str = ""
    body: str = ""
    labels: list[str] = Field(default_factory=list)


class LastRelease(_Model):
    """The highest version tag a commit's parent reaches, and of the names the commit's
    removed lines hold, those no text file of any version tag's tree holds as a word: never
    released (`bot/cli/clone_release.py`)."""

    # '' where the parent reaches none though the clone has version tags: no release came
    # before the commit (its removed names are then those no version tag holds)
    tag: str
    absent: frozenset[str] = frozenset()
    # Every line of a shipped file the commit removes or changes came after every version
    # tag (`git blame` of the parent, the tags' histories left out): what it edits was never
    # released. False where it edits no such line, or git could not tell.
    edits_unreleased: bool = False


class CarriedCommit(_Model):
    """A commit a release ships whose own analysis is breaking or high."""

    sha: str
    title: str
    breaking: bool = False


class Carried(_Model):
    """What a release commit ships since its previous release (`since`: the tag of the
    version it bumps from, ancestor or not, else the last version tag its parent reaches
    where not older), read from a clone (`bot/cli/clone_carried.py`): how many commits
    (`git log --oneline TAG..RELEASE`: merges and the release itself counted), and those
    others whose own analysis is breaking or high, the breaking ones first. `analysed` is
    False where there were too many to analyse: the count alone is told."""

    since: str
    count: int
    notable: tuple[CarriedCommit, ...] = ()
    analysed: bool = True


class CommitInput(BaseModel):
    """A commit as the analysers see it: message, files with patches, its pull request."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    sha: str
    message: str
    repo: str = ""
    author: str = ""
    files: list[FileChange] = Field(default_factory=list)
    # False when the file list is unknown (only the message was given).
    files_known: bool = True
    pull_request: PullRequestInfo | None = None
    # Of the names the added lines quote, those the parent's whole tree already quotes (from
    # a clone: `git grep`); None when the tree was not searched (online: fetched files only).
    quoted_before: frozenset[str] | None = None
    # Of the names the removed lines quote, those the commit's whole tree still quotes.
    quoted_after: frozenset[str] | None = None
    # Python modules the commit does not change, read whole (the same text at the parent and
    # at the commit) where a changed file raises an exception imported from there in place of
    # another, a public package's `__init__.py`, or metadata files beside one that newly
    # names a Python requirement (`bot.analysis.sources.modules_named`): (path, text); ()
    # when none was read. Read from a clone offline, online on the pull requests' query.
    modules: tuple[tuple[str, str], ...] = ()
    # The last release before the commit, read from a clone's tags; None: not told (no
    # version tag, git failed, or online: the App reads no tags).
    release: LastRelease | None = None
    # The final version a clone's version tag pointing at the commit names (`v23.1.0` →
    # `23.1.0`): the commit is that release; '' where none does, or online (no tags read).
    tagged: str = ""
    # For a release commit, what it ships since the last release (offline: a clone's tags
    # and history); None: not a release, no tag before it, or online.
    carried: Carried | None = None
    # How many parents: two or more is a merge whatever its message says (a merge button's
    # message can be the pull request's title alone).
    parents: int = 1

    @property
    def title(self) -> str:
        return self.message.split("\n", 1)[0].strip()

    @property
    def body(self) -> str:
        return self.message.split("\n", 1)[1].strip() if "\n" in self.message else ""

    @property
    def additions(self) -> int:
        return sum(f.additions for f in self.files)

    @property
    def deletions(self) -> int:
        return sum(f.deletions for f in self.files)

    @classmethod
    def from_github(
        cls,
        commit: dict[str, Any],
        *,
        repo: str = "",
        pull_request: PullRequestInfo | None = None,
    ) -> CommitInput:
        """From GitHub's "get a commit" response (or the simple `{sha, message, files}` shape),
        with the `modules` read beside it, (path, text) pairs, where the App read them."""
        inner = commit.get("commit")
        message = inner.get("message") if isinstance(inner, dict) else commit.get("message")
        author = ""
        if isinstance(inner, dict) and isinstance(inner.get("author"), dict):
            author = str(inner["author"].get("name") or "")
        elif isinstance(commit.get("author"), str):
            author = commit["author"]
        files = commit.get("files")
        parents = commit.get("parents")
        # not GitHub's: the unchanged modules the App read beside the commit (prefetch.py)
        modules = commit.get("modules")
        read = [(str(p), str(t)) for p, t in modules] if isinstance(modules, list) else []
        return cls(
            sha=str(commit.get("sha") or ""),
            message=str(message or ""),
            repo=repo,
            author=author,
            files=[FileChange.model_validate(f) for f in files] if isinstance(files, list) else [],
            files_known=isinstance(files, list),
            pull_request=pull_request,
            modules=tuple(read),
            parents=len(parents) if isinstance(parents, list) and parents else 1,
        )


# --- what the digest renderer reads -------------------------------------------------------


@dataclass(frozen=True)
class DayNames:
    """The public names a commit adds and those its breaking facts are about, each as
    `path::name`: a day's digest reads them together (`bot/digest/sameday.py`)."""

    added: tuple[str, ...] = ()
    breaks: tuple[str, ...] = ()
    # the break is also in the author's words, or in something that is not a name (an
    # environment variable, an option, a requirement): never the day's to take back
    other: bool = False
    # Fingerprints (`bot/analysis/daynames.py`) of the lines the commit adds and removes: a
    # day's digest sees a later commit take them all out. None: not known (a file
    # without its patch, more lines than are kept, a row stored before).
    added_lines: tuple[str, ...] | None = None
    removed_lines: tuple[str, ...] | None = None

    def stored(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "added": list(self.added),
            "breaks": list(self.breaks),
            "other": self.other,
        }
        if self.added_lines is not None and self.removed_lines is not None:
            out["added_lines"] = list(self.added_lines)
            out["removed_lines"] = list(self.removed_lines)
        return out

    @classmethod
    def from_stored(cls, value: object) -> DayNames | None:
        """As `stored()` wrote it; None for a row stored before it was (or not a mapping)."""
        if not isinstance(value, dict):
            return None
        added, breaks = value.get("added"), value.get("breaks")
        return cls(
            added=tuple(str(n) for n in added) if isinstance(added, list) else (),
            breaks=tuple(str(n) for n in breaks) if isinstance(breaks, list) else (),
            other=bool(value.get("other", True)),
            added_lines=_strings(value.get("added_lines")),
            removed_lines=_strings(value.get("removed_lines")),
        )


def _strings(value: object) -> tuple[str, ...] | None:
    return tuple(str(v) for v in value) if isinstance(value, list) else None


@dataclass(frozen=True)
class DigestCommit:
    """One commit of a digest: what landed, and its analysis (None: not analysed, and why)."""

    sha: str
    title: str
    url: str
    author: str
    landed_at: datetime
    analysis: Analysis | None = None
    not_analysed: str | None = None
    fallback_reason: str | None = None
    # The full message (title and body): reverts name the commit they revert in it.
    message: str = ""
    # The analysis's importance is a maintainer's rating (`/digest rate`), not the analyser's.
    rated: bool = False
    # What it adds and what its break is about (None: not known, as for rows stored before).
    names: DayNames | None = None
    # The names its break is about that an earlier commit of the same day added: name -> sha
    # (set by the day's digest, `bot/digest/sameday.py`).
    new_today: Mapping[str, str] = field(default_factory=dict)
    # A merge's: the authors of the commits it brings (offline, from the clone), counted among
    # the day's contributors and never shown. Online each of those commits is a row of its own.
    brought_by: tuple[str, ...] = ()
    # A later commit of the same day took out every line it added: that commit's sha (set by
    # the day's digest, `bot/digest/undone.py`).
    undone_by: str | None = None
    # It takes out the day's earlier commits whose lines it removes, and with them the day
    # changes nothing: the areas it touched (set by the day's digest).
    no_net: tuple[str, ...] | None = None


@dataclass(frozen=True)
class DigestUsage:
    """How a day's commits were analysed (by route, see `bot.analysis.budget`) and what the
    LLM used; `cost` is None when no price is configured."""

    routes: Mapping[str, int]
    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    cost: float | None = None
    # Claims of the day's LLM answers the fact guard dropped as unsupported.
    dropped_claims: int = 0


@dataclass(frozen=True)
class SettingsSources:
    """Where a local clone's digest took each setting from (the offline digest only)."""

    # The ref `.github/commit-digest.yml` was read at.
    ref: str
    # Setting ("timezone", "cutoff", "language", "exclude", "title") -> "file", "flag" or
    # "default", in the order to show them.
    sources: Mapping[str, str]
    # Why the file was rejected (the defaults then stand in for it).
    rejected: str | None = None
    # Whether the ref has the file at all.
    found: bool = True
    # The local time the clone was read at ("2026-11-24 09:15 UTC"), when the period it covers
    # had not ended then: later commits will belong to it too.
    so_far: str | None = None
    # The file's unknown keys, left out while its other keys apply.
    ignored: tuple[str, ...] = ()


@dataclass(frozen=True)
class Digest:
    """A repository's day, ready to render."""

    repo: str
    day: date
    language: str
    timezone: str
    cutoff: time
    title: str
    commits: tuple[DigestCommit, ...]
    excluded: Mapping[str, int] = field(default_factory=dict)
    config_error: str | None = None
    # The config file's unknown keys, left out ("`languagee` (did you mean `language`?)").
    config_ignored: tuple[str, ...] = ()
    late: bool = False
    forced_pushes: int = 0
    truncated: int = 0
    # Why the digest went to an issue comment instead of a discussion, if it did.
    fallback_note: str | None = None
    # The day's first part stayed in a discussion GitHub hides: each later part says why too.
    note_every_part: bool = False
    # Commits of the days before, where reverts and follow-up fixes find what they name.
    recent: tuple[DigestCommit, ...] = ()
    # The shas the day's messages name that no commit of the repository has (a branch
    # rebased before it landed: xmltodict c0b74ed's "reverts 85ee823"): never linked.
    unresolved: frozenset[str] = frozenset()
    # The alerts already posted for the day's commits: sha -> the alert's URL.
    alerts: Mapping[str, str] = field(default_factory=dict)
    usage: DigestUsage | None = None
    settings_from: SettingsSources | None = None
