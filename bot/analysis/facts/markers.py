"""Runtime dependencies a `pyproject.toml`'s `[project]` table declares, with their markers."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import InvalidRequirement, Requirement

from bot.analysis.facts.build import package_name
from bot.analysis.facts.parses import Parses
from bot.analysis.facts.records import MarkedRequirement


def _dependencies(text: str, parses: Parses) -> list[Requirement] | None:
    """The requirements `[project] dependencies` lists, parsed (PEP 508); None where the
    file does not parse, has no `[project]` table, declares its dependencies `dynamic` (a
    `setup.py` or another file then says them), or lists one PEP 508 rejects."""
    try:
        document = parses.toml(text)
    except tomllib.TOMLDecodeError:
        return None
    project = document.get("project")
    if not isinstance(project, dict):
        return None
    dynamic = project.get("dynamic", [])
    if isinstance(dynamic, list) and "dependencies" in dynamic:
        return None
    listed = project.get("dependencies", [])
    if not isinstance(listed, list) or not all(isinstance(i, str) for i in listed):
        return None
    try:
        return [Requirement(item) for item in listed]
    except InvalidRequirement:
        return None


def _by_name(requirements: list[Requirement]) -> dict[str, Requirement | None]:
    """Each requirement by its PEP 503 name; None for a name listed twice (one per marker:
    which install gets which is no single marker's say)."""
    out: dict[str, Requirement | None] = {}
    for r in requirements:
        name = package_name(r.name)
        out[name] = None if name in out else r
    return out


def _written(r: Requirement) -> str:
    """The requirement without its marker, as PEP 508 writes it (`typing_extensions>=4.0`)."""
    extras = f"[{','.join(sorted(r.extras))}]" if r.extras else ""
    return f"{r.name}{extras}{r.specifier}" + (f" @ {r.url}" if r.url else "")


def marked_requirements(
    path: str, before: str, after: str, parses: Parses
) -> list[MarkedRequirement]:
    """The runtime dependencies of a `pyproject.toml` there at both revisions that the
    change gives a marker: new ones only some installs get (or any new one where the parent
    listed none: the package's first), and kept ones whose marker differs. Nothing where
    either side's `[project]` dependencies are not read statically (`_dependencies`)."""
    old, new = _dependencies(before, parses), _dependencies(after, parses)
    if old is None or new is None:
        return []
    was, now = _by_name(old), _by_name(new)
    out = []
    for name, r in now.items():
        if r is None:
            continue
        marker = str(r.marker) if r.marker else ""
        if name not in was:
            if marker or not old:
                out.append(MarkedRequirement(_written(r), r.name, marker, path, first=not old))
            continue
        prior = was[name]
        if prior is None:
            continue
        old_marker = str(prior.marker) if prior.marker else ""
        if old_marker != marker:
            out.append(MarkedRequirement(_written(r), r.name, marker, path, old_marker=old_marker))
    return out


# A marker on the Python version alone: `python_version < "3.11"`
_PYTHON_MARKER = re.compile(
    r"^python(?:_full)?_version\s*(?P<op>[<>=!~]=?|===?)\s*[\"'](?P<version>[\w.*]+)[\"']$"
)


def python_bound(marker: str) -> str | None:
    """A marker on the Python version alone as a bound (`< 3.11`); None for any other."""
    found = _PYTHON_MARKER.match(marker.strip())
    return f"{found.group('op')} {found.group('version')}" if found else None
