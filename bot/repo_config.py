"""The per-repository file `.github/commit-digest.yml` as a pydantic model, with clear errors."""

from __future__ import annotations

import fnmatch
import re
import reprlib
from datetime import time
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pydantic
import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from bot.days import DaySchedule

CONFIG_PATH = ".github/commit-digest.yml"
MAX_CONFIG_BYTES = 64 * 1024


class ConfigError(ValueError):
    """The file is not a valid config; the message names the key and what is wrong."""


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
    issue: int | None = Field(default=None, ge=1)
    # None: the language's own title ("Daily digest — owner/repo — date", "每日更新报告（date）").
    title: str | None = Field(default=None, min_length=1, max_length=200)

    @field_validator("title")
    @classmethod
    def _known_fields(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            value.format(repo="o/r", owner="o", name="r", date="2026-01-01")
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(
                f"title may use {{repo}}, {{owner}}, {{name}} and {{date}} only ({exc})"
            ) from None
        return value


class Exclude(_Strict):
    authors: list[str] = Field(default_factory=list)
    paths: list[str] = Field(default_factory=list)
    messages: list[str] = Field(default_factory=list)

    @field_validator("messages")
    @classmethod
    def _regexes(cls, value: list[str]) -> list[str]:
        for i, pattern in enumerate(value):
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"item {i} is not a valid regular expression: {exc}") from None
        return value

    def reason(
        self, *, author: str, login: str | None, message: str, paths: list[str]
    ) -> str | None:
        """Why a commit is excluded, or None."""
        if any(a in (author, login) for a in self.authors):
            return "author"
        if self.messages and any(re.search(p, message) for p in self.messages):
            return "message"
        if (
            self.paths
            and paths
            and all(any(fnmatch.fnmatchcase(path, glob) for glob in self.paths) for path in paths)
        ):
            return "paths"
        return None


Importance = Literal["high", "medium", "low"]
_ALL_IMPORTANCES: tuple[Importance, ...] = ("high", "medium", "low")


class LLMShare(_Strict):
    """Which commits the LLM gets: the rules' verdict decides, then the day's caps."""

    # `for` is a Python keyword: the field is `for_` in code, `for` in the file.
    for_: list[Importance] = Field(
        default_factory=lambda: list(_ALL_IMPORTANCES), alias="for", min_length=1
    )
    max_commits_per_day: int | None = Field(default=None, ge=0)
    daily_tokens: int | None = Field(default=None, ge=0)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class RepoConfig(_Strict):
    timezone: str = "UTC"
    cutoff: str = "00:00"
    language: Literal["en", "zh-CN"] = "en"
    branches: list[str] | None = Field(default=None, min_length=1)
    publish: Publish = Field(default_factory=Publish)
    skip_empty_days: bool = True
    exclude: Exclude = Field(default_factory=Exclude)
    llm: LLMShare = Field(default_factory=LLMShare)

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        wrong = ValueError(f"{_shown(value)} is not an IANA time zone (like Asia/Shanghai)")
        # IANA names are short ASCII paths; anything else never reaches the file system.
        if len(value) > 64 or not _ZONE_NAME.fullmatch(value):
            raise wrong
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise wrong from None
        return value

    @field_validator("cutoff", mode="before")
    @classmethod
    def _cutoff(cls, value: Any) -> Any:
        if isinstance(value, int):
            # YAML reads an unquoted 09:00 as the sexagesimal integer 540.
            value = f"{value // 60:02d}:{value % 60:02d}"
        if isinstance(value, str):
            parse_cutoff(value)
        return value

    @property
    def schedule(self) -> DaySchedule:
        return DaySchedule(self.timezone, parse_cutoff(self.cutoff))

    def tracks(self, branch: str, default_branch: str | None) -> bool:
        if self.branches is None:
            return branch == default_branch
        return any(fnmatch.fnmatchcase(branch, pattern) for pattern in self.branches)


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
    if kind == "literal_error":
        return f"`{key}`: {err['msg'].lower()}"
    message = str(err["msg"]).removeprefix("Value error, ")
    if len(message) > 200:
        message = message[:199] + "…"
    return f"`{key}`: {message}"


def parse_config(text: str, *, default_language: str = "en") -> RepoConfig:
    """The config in `text`, or ConfigError naming what is wrong. Empty means all defaults."""
    if len(text.encode("utf-8")) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{CONFIG_PATH} is larger than {MAX_CONFIG_BYTES // 1024} KB")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{CONFIG_PATH}: YAML syntax error{where}: {problem}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{CONFIG_PATH}: expected a mapping of keys, got {type(data).__name__}")
    data.setdefault("language", default_language)
    try:
        return RepoConfig.model_validate(data)
    except pydantic.ValidationError as exc:
        problems = "; ".join(_describe(e) for e in exc.errors()[:5])
        raise ConfigError(f"{CONFIG_PATH}: {problems}") from None


def default_config(default_language: str = "en") -> RepoConfig:
    return parse_config("", default_language=default_language)
