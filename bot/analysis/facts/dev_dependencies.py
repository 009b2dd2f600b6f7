"""The requirements a `pyproject.toml` names for its developers' tools alone, compared."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from bot.analysis.facts.build import package_name
from bot.analysis.facts.parses import Parses
from bot.analysis.facts.records import DevRequirement

_NAME = re.compile(r"[A-Za-z0-9][\w.-]*")


def dev_requirements(text: str, parses: Parses) -> set[str] | None:
    """The PEP 503 names a `pyproject.toml` asks for in its developers' tables alone: Poetry's
    `[tool.poetry.dev-dependencies]` and groups (`[tool.poetry.group.docs.dependencies]`),
    PEP 735's `[dependency-groups]`, PDM's `[tool.pdm.dev-dependencies]` and uv's
    `dev-dependencies`; None when it does not parse."""
    try:
        document = parses.toml(text)
    except tomllib.TOMLDecodeError:
        return None
    tool = _table(document, "tool")
    poetry = _table(tool, "poetry")
    names: list[str] = list(_table(poetry, "dev-dependencies"))
    for group in _table(poetry, "group").values():
        names += list(_table(group, "dependencies"))
    items: list[Any] = []
    for listed in _table(document, "dependency-groups").values():
        items += listed if isinstance(listed, list) else []
    for listed in _table(tool.get("pdm"), "dev-dependencies").values():
        items += listed if isinstance(listed, list) else []
    uv = _table(tool, "uv").get("dev-dependencies")
    items += uv if isinstance(uv, list) else []
    names += [m.group(0) for i in items if isinstance(i, str) and (m := _NAME.match(i.strip()))]
    return {package_name(n) for n in names} - {"python"}


def _extras_list(text: str, parses: Parses) -> set[str]:
    """The PEP 503 names PEP 621's `[project.optional-dependencies]` lists (the parsed text
    is cached: `dev_requirements` read it already)."""
    try:
        extras = _table(parses.toml(text).get("project"), "optional-dependencies")
    except tomllib.TOMLDecodeError:
        return set()
    items = [i for listed in extras.values() if isinstance(listed, list) for i in listed]
    return {
        package_name(m.group(0))
        for i in items
        if isinstance(i, str) and (m := _NAME.match(i.strip()))
    }


def _table(document: Any, key: str) -> dict[str, Any]:
    value = document.get(key) if isinstance(document, dict) else None
    return value if isinstance(value, dict) else {}


def dev_requirement_changes(
    sides: dict[str, tuple[str | None, str | None]], parses: Parses
) -> tuple[list[DevRequirement], list[DevRequirement]]:
    """The developers' requirements each `pyproject.toml` at both revisions gains and loses
    (`sides`: path -> its text at the parent and at the commit); one that moves between a
    developers' table and the package's own (an extra made a group) is neither."""
    added: list[DevRequirement] = []
    removed: list[DevRequirement] = []
    for path, (before, after) in sides.items():
        if path.rsplit("/", 1)[-1] != "pyproject.toml" or before is None or after is None:
            continue
        was, now = dev_requirements(before, parses), dev_requirements(after, parses)
        if was is None or now is None:
            continue
        # (an extra's requirement now a group's, or back: the same developers ask for it)
        added += [DevRequirement(n, path) for n in sorted(now - was - _extras_list(before, parses))]
        removed += [
            DevRequirement(n, path) for n in sorted(was - now - _extras_list(after, parses))
        ]
    return added, removed
