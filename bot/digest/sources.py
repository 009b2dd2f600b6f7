"""The footer line of an offline digest that says where each setting came from. Pure."""

from __future__ import annotations

from bot.analysis.spans import code
from bot.digest.safety import inline
from bot.digest.strings import catalogue
from bot.models import SettingsSources

_FILE = ".github/commit-digest.yml"


def sources_lines(settings: SettingsSources, language: str) -> list[str]:
    """The footer's lines: the file's rejection (if it was), then each setting's origin."""
    p = catalogue(language).sources
    where = {"file": code(_FILE), "ref": code(settings.ref)}
    lines = [p.so_far.format(time=settings.so_far)] if settings.so_far else []
    if settings.rejected:
        # The line names the file already; the error may open with it too.
        error = settings.rejected.removeprefix(f"{_FILE}: ")
        lines.append(p.rejected.format(**where, error=inline(error)))
    if settings.ignored:
        keys = inline(", ".join(settings.ignored)[:1000])
        lines.append(p.ignored.format(**where, keys=keys))
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
