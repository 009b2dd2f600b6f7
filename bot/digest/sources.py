"""The footer line of an offline digest that says where each setting came from. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from bot.digest.safety import code, inline
from bot.models import SettingsSources


@dataclass(frozen=True)
class _Phrases:
    line: str  # {groups}
    names: dict[str, str]
    origins: dict[str, str]  # {file} {ref} in "file"
    joined: str
    between: str
    rejected: str  # {file} {ref} {error}
    missing: str  # {file} {ref}


_PHRASES = {
    "en": _Phrases(
        line="Settings: {groups}.",
        names={
            "timezone": "zone",
            "cutoff": "cutoff",
            "language": "language",
            "exclude": "exclude",
            "title": "title",
            "weekly": "weekly",
        },
        origins={
            "file": "{names} from {file} at {ref}",
            "flag": "{names} from the command line",
            "default": "{names} by default",
        },
        joined=", ",
        between="; ",
        rejected="{file} at {ref} was rejected, so the defaults stand in for it: {error}",
        missing="there is no {file} at {ref}",
    ),
    "zh-CN": _Phrases(
        line="设置：{groups}。",
        names={
            "timezone": "时区",
            "cutoff": "截止时间",
            "language": "语言",
            "exclude": "排除规则",
            "title": "标题",
            "weekly": "周报设置",
        },
        origins={
            "file": "{names}来自 {ref} 上的 {file}",
            "flag": "{names}来自命令行",
            "default": "{names}为默认值",
        },
        joined="、",
        between="；",
        rejected="{ref} 上的 {file} 无效，改用默认设置：{error}",
        missing="{ref} 上没有 {file}",
    ),
}
_FILE = ".github/commit-digest.yml"


def sources_lines(settings: SettingsSources, language: str) -> list[str]:
    """The footer's lines: the file's rejection (if it was), then each setting's origin."""
    p = _PHRASES.get(language, _PHRASES["en"])
    where = {"file": code(_FILE), "ref": code(settings.ref)}
    lines = []
    if settings.rejected:
        lines.append(p.rejected.format(**where, error=inline(settings.rejected)))
    groups = []
    for origin in ("file", "flag", "default"):
        names = [p.names.get(k, k) for k, v in settings.sources.items() if v == origin]
        if names:
            groups.append(p.origins[origin].format(names=p.joined.join(names), **where))
    if not settings.found:
        groups.append(p.missing.format(**where))
    if groups:
        lines.append(p.line.format(groups=p.between.join(groups)))
    return lines
