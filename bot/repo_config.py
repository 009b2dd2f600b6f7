"""The per-repository file `.github/commit-digest.yml` as a pydantic model, with clear errors."""

from __future__ import annotations

import dataclasses
import difflib
import fnmatch
import re
import reprlib
import string
import time as clock
from collections.abc import Mapping, Sequence
from datetime import date, time
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pydantic
import regex
import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
    model_validator,
)

from bot.config_yaml import YamlBomb, load_bounded
from bot.models import Importance
from bot.periods.days import DaySchedule
from bot.periods.weeks import WEEKDAYS, WeekSchedule
from bot.runtime.logs import get_logger

log = get_logger(__name__)

CONFIG_PATH = ".github/commit-digest.yml"
MAX_CONFIG_BYTES = 64 * 1024
# GitHub refuses issue and discussion titles over 256 characters ("title is too long").
TITLE_LIMIT = 256
TITLE_FIELDS = ("repo", "owner", "name", "date", "weekday")
_WEEKDAYS = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "zh-CN": ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"),
}
# `exclude.messages` run with the `regex` package under a time limit per commit message; a
# pattern is first tried on inputs that make backtracking engines blow up, within a budget.
MATCH_SECONDS = 0.05
_PROBE_SECONDS = 1.0
_PROBE_LENGTH = 4096


class ConfigError(ValueError):
    """The file is not a valid config; the message names the key and what is wrong."""


@dataclasses.dataclass(frozen=True)
class Place:
    """Where a kind of post goes: a Discussion (in `category`; None: the default one), or
    comments on the issue `issue` (None: the App's tracking issue), which also takes the
    Discussion's posts where GitHub will not."""

    discussion: bool
    category: str | None
    issue: int | None


def _template_parts(template: str) -> list[tuple[str, str | None]]:
    """Literal text and field names; ValueError for anything but a bare known `{field}`."""
    parts: list[tuple[str, str | None]] = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        if field is not None and (field not in TITLE_FIELDS or spec or conversion):
            shown = "{" + field + (f"!{conversion}" if conversion else "")
            shown += (f":{spec}" if spec else "") + "}"
            raise ValueError(f"{_shown(shown)} is not a field")
        parts.append((literal, field))
    return parts


def render_title(template: str, *, repo: str, day: date, language: str) -> str:
    """A title from a template of named fields only (no format spec ever reaches
    `str.format`), within GitHub's title limit."""
    owner, _, name = repo.partition("/")
    values = {
        "repo": repo,
        "owner": owner,
        "name": name,
        "date": day.isoformat(),
        "weekday": _WEEKDAYS.get(language, _WEEKDAYS["en"])[day.weekday()],
    }
    title = "".join(
        lit + (values[field] if field else "") for lit, field in _template_parts(template)
    )
    title = " ".join(title.split())
    return title if len(title) <= TITLE_LIMIT else title[: TITLE_LIMIT - 1] + "…"


def parse_cutoff(value: str) -> time:
    """`HH:MM` (24-hour clock) to a time."""
    match = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", value.strip())
    if not match:
        raise ValueError(f"must be HH:MM on a 24-hour clock, not {_shown(value)}")
    return time(int(match.group(1)), int(match.group(2)))


_ZONE_NAME = re.compile(r"[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+){0,2}")


class _Strict(BaseModel):
    # Unknown keys are errors: a misspelt `timzone:` must not be silently ignored.
    model_config = ConfigDict(extra="forbid", frozen=True)


class Publish(_Strict):
    to: Literal["discussion", "issue-comment"] = "discussion"
    category: str | None = Field(default=None, min_length=1, max_length=100)
    issue: int | None = Field(default=None, ge=1, le=2**31 - 1)  # GitHub's numbers are 32-bit
    # None: the language's own title ("Daily digest — owner/repo — date", "每日更新报告（date）").
    title: str | None = Field(default=None, min_length=1, max_length=200)

    @field_validator("title")
    @classmethod
    def _known_fields(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            _template_parts(value)
        except ValueError as exc:
            fields = ", ".join("{" + f + "}" for f in TITLE_FIELDS)
            raise ValueError(f"title may use {fields} only, without formats ({exc})") from None
        return value

    def title_for(self, repo: str, day: date, *, language: str, default: str) -> str:
        return render_title(self.title or default, repo=repo, day=day, language=language)


# `regex` writes counted repeats out when it compiles (`a{1000000}` costs 270 MB): their lower
# bounds, multiplied together as if all were nested, stay within this.
_MAX_REPEATS = 10_000
_COUNTED = re.compile(r"\{(\d+)(?:,\d*)?\}")


def _repeats(pattern: str) -> int:
    product = 1
    for m in _COUNTED.finditer(pattern):
        product *= max(1, int(m.group(1)))
        if product > _MAX_REPEATS:
            break
    return product


def _probes(pattern: str) -> list[str]:
    """Inputs on which a pattern with nested or overlapping repeats backtracks for ages."""
    own = [c for c in dict.fromkeys(pattern) if c.isalnum()][:16]
    chars = dict.fromkeys([*own, "a", "0", " ", "-"])
    return [c * _PROBE_LENGTH + end for c in chars for end in ("!", "\n")]


def _probed(compiled: Any, pattern: str, deadline: float) -> bool:
    """Whether the pattern gets through every probe in time."""
    for probe in _probes(pattern):
        left = deadline - clock.monotonic()
        if left <= 0:
            return False
        try:
            compiled.search(probe, timeout=min(MATCH_SECONDS, left))
        except TimeoutError:
            return False
    return True


class Exclude(_Strict):
    authors: list[str] = Field(default_factory=list, max_length=100)
    paths: list[str] = Field(default_factory=list, max_length=100)
    messages: list[Annotated[str, Field(max_length=500)]] = Field(
        default_factory=list, max_length=20
    )
    # Patterns that ran out of time on a real message: ignored from then on.
    _timed_out: set[int] = PrivateAttr(default_factory=set)

    @field_validator("messages")
    @classmethod
    def _regexes(cls, value: list[str]) -> list[str]:
        deadline = clock.monotonic() + _PROBE_SECONDS
        for i, pattern in enumerate(value):
            if _repeats(pattern) > _MAX_REPEATS:
                raise ValueError(
                    f"item {i} ({_shown(pattern)}) repeats too much: its counted repeats "
                    f"({{n}}) multiply to over {_MAX_REPEATS:,}"
                )
            try:
                compiled = regex.compile(pattern)
            except regex.error as exc:
                raise ValueError(f"item {i} is not a valid regular expression: {exc}") from None
            if not _probed(compiled, pattern, deadline):
                raise ValueError(
                    f"item {i} ({_shown(pattern)}) takes too long to match "
                    "(nested repeats like (a+)+ backtrack without end)"
                )
        return value

    def _message_matches(self, message: str) -> bool:
        for i, pattern in enumerate(self.messages):
            if i in self._timed_out:
                continue
            try:
                if regex.search(pattern, message, timeout=MATCH_SECONDS):
                    return True
            except TimeoutError:
                self._timed_out.add(i)
                log.warning("exclude_pattern_timed_out", item=i, seconds=MATCH_SECONDS)
        return False

    def problem(self) -> str | None:
        """The patterns that ran out of time, said as a config error, or None."""
        if not self._timed_out:
            return None
        items = ", ".join(str(i) for i in sorted(self._timed_out))
        return (
            f"`exclude.messages`: item {items} took over {MATCH_SECONDS * 1000:g} ms on a commit "
            "message and is ignored"
        )

    def reason(
        self, *, author: str, login: str | None, message: str, paths: list[str]
    ) -> str | None:
        """Why a commit is excluded, or None."""
        if any(a in (author, login) for a in self.authors):
            return "author"
        if self.messages and self._message_matches(message):
            return "message"
        if (
            self.paths
            and paths
            and all(any(fnmatch.fnmatchcase(path, glob) for glob in self.paths) for path in paths)
        ):
            return "paths"
        return None


Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def _target(value: Any) -> Any:
    # `publish.to` spells the issue target `issue-comment`; accept that spelling here too.
    if isinstance(value, str):
        value = value.strip().lower()
        return "issue" if value == "issue-comment" else value
    return value


def _hh_mm(value: Any) -> Any:
    if isinstance(value, bool):
        # YAML 1.1 reads yes/no/on/off as booleans: never a time.
        raise ValueError(f'must be "HH:MM" in quotes, not {_shown(value)} (yes/no/on/off)')
    if isinstance(value, int | float):
        # `cutoff: 900` is a number (the file's loader reads an unquoted 09:00 as text, not
        # as YAML 1.1's base-60 integer): guessing a time from it would be a silent mistake.
        raise ValueError(f'must be "HH:MM" in quotes (like "09:00"), not the number {value!r}')
    if isinstance(value, str):
        parse_cutoff(value)
    return value


Target = Annotated[Literal["discussion", "issue"], BeforeValidator(_target)]
Cutoff = Annotated[str, BeforeValidator(_hh_mm)]


class Alerts(_Strict):
    """An alert post as soon as a commit is analysed as breaking (or high), not at the cutoff."""

    # Empty (the default): no alerts.
    on: list[Literal["breaking", "high"]] = Field(default_factory=list)
    to: Target = "discussion"
    category: str | None = Field(default=None, min_length=1, max_length=100)
    # Beyond this many alerts in a day, the rest fold into one "more alerts today" post.
    max_per_day: int = Field(default=5, ge=1, le=50)

    @model_validator(mode="before")
    @classmethod
    def _yaml_on(cls, data: Any) -> Any:
        # YAML 1.1 (PyYAML) reads the bare key `on` as the boolean True, as in GitHub Actions.
        if isinstance(data, dict) and True in data:
            data = {("on" if k is True else k): v for k, v in data.items()}
        return data

    @field_validator("on", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list):
            seen: list[Any] = []
            for raw in value:
                item = raw.strip().lower() if isinstance(raw, str) else raw
                if item not in seen:
                    seen.append(item)
            value = seen
        return value


class Weekly(_Strict):
    """A weekly roll-up of the stored analyses, posted at a weekday's cutoff."""

    enabled: bool = False
    weekday: Weekday = "monday"
    # None: the daily `cutoff`.
    cutoff: Cutoff | None = None
    to: Target = "discussion"
    category: str | None = Field(default=None, min_length=1, max_length=100)

    @field_validator("weekday", mode="before")
    @classmethod
    def _weekday(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value


class LLMShare(_Strict):
    """Which commits the LLM gets: the rules' verdict decides, then the day's caps."""

    # `for` is a Python keyword: the field is `for_` in code, `for` in the file.
    for_: list[Importance] = Field(
        default_factory=lambda: list(Importance), alias="for", min_length=1
    )
    max_commits_per_day: int | None = Field(default=None, ge=0)
    daily_tokens: int | None = Field(default=None, ge=0)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


FILE = "file"
BASE = "base"
# The key that names the file a repository's file starts from (probot-config's convention).
EXTENDS = "_extends"


@dataclasses.dataclass(frozen=True)
class ConfigOrigin:
    """Where a config's values came from: the layer (`file`, `base`) that set each dotted key
    (any other is the default), the unknown keys left out, and the base file's repository."""

    sources: Mapping[str, str] = dataclasses.field(default_factory=dict)
    ignored: tuple[str, ...] = ()
    base: str | None = None

    def source_of(self, key: str) -> str | None:
        """The layer that set `key` or a key above or below it; None: the default."""
        for set_key, layer in self.sources.items():
            if _under(key, set_key) or _under(set_key, key):
                return layer
        return None

    def as_json(self) -> dict[str, Any]:
        return {"sources": dict(self.sources), "ignored": list(self.ignored), "base": self.base}

    @classmethod
    def from_json(cls, value: Any) -> ConfigOrigin:
        """The stored origin; anything unreadable is no origin (the values still stand)."""
        if not isinstance(value, dict):
            return cls()
        sources = value.get("sources")
        ignored = value.get("ignored")
        base = value.get("base")
        return cls(
            sources={str(k): str(v) for k, v in sources.items()}
            if isinstance(sources, dict)
            else {},
            ignored=tuple(str(i) for i in ignored) if isinstance(ignored, list) else (),
            base=base if isinstance(base, str) else None,
        )


# A repository name as GitHub spells it, alone (`.github`) or with its owner (`acme/base`).
_BASE_NAME = re.compile(r"(?:([A-Za-z0-9-]{1,39})/)?([A-Za-z0-9._-]{1,100})")


def base_repo(full_name: str, mapping: dict[Any, Any] | None) -> str | None:
    """The repository whose config file this one starts from: the one its `_extends` names
    (of the same owner), or with no file at all the owner's `.github` repository (GitHub's
    convention for an organisation's defaults); None when there is none. ConfigError for an
    `_extends` that cannot be followed."""
    owner = full_name.partition("/")[0]
    if mapping is None:
        defaults = f"{owner}/.github"
        return None if defaults.lower() == full_name.lower() else defaults
    value = mapping.get(EXTENDS)
    if value is None:
        return None
    match = _BASE_NAME.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None or match.group(2) in (".", ".."):
        raise ConfigError(
            f"{CONFIG_PATH}: `{EXTENDS}`: must name a repository of {owner}, like .github or "
            f"{owner}/other-repo, not {_shown(value)}"
        )
    if match.group(1) and match.group(1).lower() != owner.lower():
        raise ConfigError(
            f"{CONFIG_PATH}: `{EXTENDS}`: {_shown(value)} is not a repository of {owner}; "
            "the App reads files of its own installation only"
        )
    base = f"{owner}/{match.group(2)}"
    if base.lower() == full_name.lower():
        raise ConfigError(f"{CONFIG_PATH}: `{EXTENDS}`: names this repository itself")
    return base


def _under(key: str, prefix: str) -> bool:
    return key == prefix or key.startswith(prefix + ".")


class RepoConfig(_Strict):
    timezone: str = "UTC"
    cutoff: Cutoff = "00:00"
    language: Literal["en", "zh-CN"] = "en"
    branches: list[str] | None = Field(default=None, min_length=1)
    publish: Publish = Field(default_factory=Publish)
    skip_empty_days: bool = True
    exclude: Exclude = Field(default_factory=Exclude)
    alerts: Alerts = Field(default_factory=Alerts)
    weekly: Weekly = Field(default_factory=Weekly)
    llm: LLMShare = Field(default_factory=LLMShare)

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        wrong = ValueError(f"{_shown(value)} is not an IANA time zone (like Asia/Shanghai)")
        # IANA names are short ASCII paths; anything else never reaches the file system.
        if len(value) > 64 or not _ZONE_NAME.fullmatch(value):
            raise wrong
        if value.lower() in ("localtime", "posixrules"):
            raise wrong  # files of the zone database: the server's own zone, not a named one
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise wrong from None
        return value

    @property
    def schedule(self) -> DaySchedule:
        return DaySchedule(self.timezone, parse_cutoff(self.cutoff))

    @property
    def week_schedule(self) -> WeekSchedule:
        """The weekly roll-up's weeks: the seven digest days ended at `weekly.weekday`'s cutoff."""
        cutoff = parse_cutoff(self.weekly.cutoff) if self.weekly.cutoff else None
        return WeekSchedule(self.schedule, WEEKDAYS.index(self.weekly.weekday), cutoff)

    def place(self, what: Literal["digest", "alerts", "weekly"]) -> Place:
        """Where posts of `what` go: the Discussion category each names (else the digest's),
        or the issue (`publish.issue`, else the App's tracking issue)."""
        if what == "digest":
            return Place(self.publish.to == "discussion", self.publish.category, self.publish.issue)
        section = self.alerts if what == "alerts" else self.weekly
        category = section.category or self.publish.category
        return Place(section.to == "discussion", category, self.publish.issue)


def tracks(branch: str, *, default_branch: str | None, patterns: Sequence[str] | None) -> bool:
    """Whether commits pushed to `branch` are digested: a branch matching one of the
    `branches` globs (case-sensitive, as git names are), else only the default branch. An
    empty list names no branch, so the default holds; the config refuses `branches: []`
    with an error naming the key, and a repository is never silenced by one."""
    if not patterns:
        return default_branch is not None and branch == default_branch
    return any(fnmatch.fnmatchcase(branch, pattern) for pattern in patterns)


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60


def _shown(value: Any) -> str:
    """A value quoted in an error message, shortened: the message goes in a digest footer."""
    return _REPR.repr(value)


def _describe(err: Any) -> str:
    key = ".".join(str(p) for p in err["loc"]) or "(file)"
    if len(key) > 80:
        key = key[:79] + "…"
    kind = err["type"]
    if kind == "extra_forbidden":
        return f"`{key}`: unknown key"
    if kind in ("literal_error", "enum"):
        # The accepted values as the file must spell them (`zh-CN`, not `zh-cn`).
        msg = str(err["msg"])
        return f"`{key}`: {msg[:1].lower()}{msg[1:]}, not {_shown(err.get('input'))}"
    message = str(err["msg"]).removeprefix("Value error, ")
    if len(message) > 200:
        message = message[:199] + "…"
    return f"`{key}`: {message}"


def _text(content: str | bytes) -> str:
    """UTF-8 text; bytes that are not (read with `surrogateescape` by the caller) are an error."""
    if isinstance(content, bytes):
        content = content.decode("utf-8", "surrogateescape")
    bad = next((i for i, ch in enumerate(content) if "\ud800" <= ch <= "\udfff"), None)
    if bad is not None:
        line = content.count("\n", 0, bad) + 1
        raise ConfigError(f"{CONFIG_PATH} is not UTF-8 text (an invalid byte on line {line})")
    return content


class _Loader(yaml.SafeLoader):
    """YAML's safe loader without YAML 1.1's base-60 integers: an unquoted `09:00` is the
    text "09:00" (as YAML 1.2 reads it), not 540, and `900` stays a number a time refuses."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:int"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:int",
    re.compile(r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+)$"),
    list("-+0123456789"),
)


def read_mapping(content: str | bytes) -> dict[Any, Any]:
    """The file's YAML as a mapping (empty: {}), or ConfigError naming what is wrong."""
    if len(content) > MAX_CONFIG_BYTES or len(_text(content).encode()) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{CONFIG_PATH} is larger than {MAX_CONFIG_BYTES // 1024} KB")
    text = _text(content)
    try:
        data = load_bounded(text, _Loader)  # a SafeLoader (see _Loader), bounded first
    except YamlBomb as exc:
        raise ConfigError(f"{CONFIG_PATH}: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{CONFIG_PATH}: nested too deeply") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{CONFIG_PATH}: YAML syntax error{where}: {problem}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{CONFIG_PATH}: expected a mapping of keys, got {type(data).__name__}")
    return data


def parse_config(content: str | bytes, *, default_language: str = "en") -> RepoConfig:
    """The config in `content`, or ConfigError naming what is wrong. Empty means all defaults;
    unknown keys are left out (`parse_with_origin` names them) and the rest applies."""
    return parse_with_origin(content, default_language=default_language)[0]


def parse_with_origin(
    content: str | bytes, *, default_language: str = "en"
) -> tuple[RepoConfig, ConfigOrigin]:
    """The config in `content` and where its values came from (its unknown keys named)."""
    return build_config([(FILE, read_mapping(content))], default_language=default_language)


def build_config(
    layers: Sequence[tuple[str, dict[Any, Any]]],
    *,
    default_language: str = "en",
    base: str | None = None,
) -> tuple[RepoConfig, ConfigOrigin]:
    """The config of files layered lowest first (an org's `.github` file, then the
    repository's), each mapping merged deeply over the one below; `sources` says which layer
    set each key, `ignored` the unknown keys left out. ConfigError names any other problem."""
    data: dict[Any, Any] = {}
    sources: dict[str, str] = {}
    for name, mapping in layers:
        layer = {k: v for k, v in mapping.items() if k != EXTENDS}
        data = merged(data, layer)
        sources.update(dict.fromkeys(_leaves(layer), name))
    data.setdefault("language", default_language)
    try:
        config, ignored = _validated(data)
    except RecursionError:
        raise ConfigError(f"{CONFIG_PATH}: nested too deeply") from None
    except pydantic.ValidationError as exc:
        problems = "; ".join(_describe(e) for e in exc.errors()[:5])
        raise ConfigError(f"{CONFIG_PATH}: {problems}") from None
    if key := _with_nul(config.model_dump(mode="json")):
        # YAML's "\0" escape: PostgreSQL stores no NUL in the saved config (SQLite would).
        raise ConfigError(f"{CONFIG_PATH}: `{key}`: contains a NUL character")
    dropped = {key for key, _ in ignored}
    origin = ConfigOrigin(
        sources={k: v for k, v in sources.items() if not any(_under(k, d) for d in dropped)},
        ignored=tuple(
            f"`{key}`" + (f" (did you mean `{near}`?)" if near else "")
            for key, near in sorted(ignored)
        ),
        base=base,
    )
    return config, origin


def merged(base: dict[Any, Any], over: dict[Any, Any]) -> dict[Any, Any]:
    """`over` on `base`: mappings merge key by key, anything else (lists too) replaces."""
    out = dict(base)
    for key, value in over.items():
        below = out.get(key)
        out[key] = (
            merged(below, value) if isinstance(below, dict) and isinstance(value, dict) else value
        )
    return out


def _leaves(mapping: dict[Any, Any], prefix: str = "") -> list[str]:
    """The dotted keys a mapping sets (a non-empty mapping is its keys; `on` as YAML reads it)."""
    out = []
    for key, value in mapping.items():
        name = prefix + ("on" if key is True else str(key))
        if isinstance(value, dict) and value:
            out += _leaves(value, name + ".")
        else:
            out.append(name)
    return out


def _validated(data: dict[Any, Any]) -> tuple[RepoConfig, list[tuple[str, str | None]]]:
    """The config with unknown keys left out, and each of them with its nearest known key."""
    ignored: list[tuple[str, str | None]] = []
    # Each round leaves out the unknown keys pydantic reported; the other errors stand.
    for _ in range(3):
        try:
            return RepoConfig.model_validate(data), ignored
        except pydantic.ValidationError as exc:
            unknown = [e["loc"] for e in exc.errors() if e["type"] == "extra_forbidden"]
            if not unknown:
                raise
            for loc in unknown:
                ignored.append((".".join(str(p) for p in loc), _nearest(loc)))
                data = _without(data, loc)
    return RepoConfig.model_validate(data), ignored


def _nearest(loc: tuple[int | str, ...]) -> str | None:
    """The known key at `loc`'s level closest in spelling to its last part (difflib)."""
    model: Any = RepoConfig
    for part in loc[:-1]:
        info = model.model_fields.get(part) if isinstance(part, str) else None
        if info is None or not isinstance(info.annotation, type):
            return None
        model = info.annotation
    known = [info.alias or name for name, info in model.model_fields.items()]
    found = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6)
    if not found:
        return None
    prefix = ".".join(str(p) for p in loc[:-1])
    return f"{prefix}.{found[0]}" if prefix else found[0]


def _without(data: dict[Any, Any], loc: tuple[int | str, ...]) -> dict[Any, Any]:
    """`data` without the key at `loc` (a copy of each mapping on the way)."""
    head, *rest = loc
    out = dict(data)
    if not rest:
        out.pop(head, None)
        out.pop(True if head == "on" else head, None)
    elif isinstance(out.get(head), dict):
        out[head] = _without(out[head], tuple(rest))
    return out


def _with_nul(value: Any, key: str = "") -> str | None:
    """The key of the first string holding a NUL, or None (the config is small once valid)."""
    if isinstance(value, str):
        return (key or "(file)") if "\x00" in value else None
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return None
    for k, v in items:
        if found := _with_nul(v, f"{key}.{k}" if key else str(k)):
            return found
    return None


def default_config(default_language: str = "en") -> RepoConfig:
    return parse_config("", default_language=default_language)
