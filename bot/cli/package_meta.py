"""Packaging metadata by the formats' own rules, for the claims checker: PEP 621's `[project]`
and PEP 517's `[build-system]` in pyproject.toml, setuptools' `[options.*]` in setup.cfg, and
the developers' tables no install reads."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from dataclasses import dataclass
from typing import Any

# the groups whose entry points installers turn into commands (PEP 621: `scripts`,
# `gui-scripts`; setuptools: the entry point groups of those names)
COMMANDS = ("console_scripts", "gui_scripts")


@dataclass(frozen=True)
class Declared:
    """What one file declares statically; None where it leaves a field to others
    (`dynamic`). `source`: the file holds metadata at all (PEP 621's `[project]`,
    setuptools' `[metadata]` or `[options]`)."""

    # extra (PEP 685's normal form) -> its requirements, spaces removed
    extras: dict[str, list[str]] | None
    # group -> entry point name -> object reference, spaces removed
    entry_points: dict[str, dict[str, str]] | None
    backend: str | None
    source: bool = True


def normal_extra(name: str) -> str:
    """PEP 685: extras compare lowercased, runs of `-`, `_`, `.` as one `-`."""
    return re.sub(r"[-_.]+", "-", name).lower()


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def declared(path: str, text: str) -> Declared | None:
    """The metadata of a `pyproject.toml` or `setup.cfg`; None when it does not parse."""
    return _toml(text) if path.endswith(".toml") else _cfg(text)


def _toml(text: str) -> Declared | None:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    system = data.get("build-system")
    backend = system.get("build-backend") if isinstance(system, dict) else None
    backend = backend if isinstance(backend, str) else None
    project = data.get("project")
    if not isinstance(project, dict):
        return Declared(None, None, backend, source=False)
    dynamic = project.get("dynamic") or []
    extras: dict[str, list[str]] | None = None
    if "optional-dependencies" not in dynamic:
        extras = {
            normal_extra(k): [squeezed(r) for r in v if isinstance(r, str)]
            for k, v in (project.get("optional-dependencies") or {}).items()
            if isinstance(v, list)
        }
    points: dict[str, dict[str, str]] | None = None
    if not {"scripts", "gui-scripts", "entry-points"} & set(dynamic):
        points = {}
        tables = dict(project.get("entry-points") or {})
        tables["console_scripts"] = project.get("scripts") or {}
        tables["gui_scripts"] = project.get("gui-scripts") or {}
        for group, table in tables.items():
            if isinstance(table, dict):
                points[group] = {n: squeezed(t) for n, t in table.items() if isinstance(t, str)}
    return Declared(extras, points, backend)


def _cfg(text: str) -> Declared | None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    source = parser.has_section("metadata") or parser.has_section("options")
    extras: dict[str, list[str]] = {}
    if parser.has_section("options.extras_require"):
        for extra in parser.options("options.extras_require"):
            value = parser.get("options.extras_require", extra)
            # setuptools' "list-semi": a dangling list (one per line), else `;` between
            parts = value.strip().splitlines() if value.startswith("\n") else value.split(";")
            extras[normal_extra(extra)] = [squeezed(p) for p in parts if p.strip()]
    points: dict[str, dict[str, str]] = {}
    if parser.has_section("options.entry_points"):
        for group in parser.options("options.entry_points"):
            lines = parser.get("options.entry_points", group).splitlines()
            pairs = [line.split("=", 1) for line in lines if "=" in line]
            points[group] = {n.strip(): squeezed(t) for n, t in pairs if n.strip()}
    return Declared(extras, points, None, source=source)


def needed(path: str, text: str) -> list[str] | None:
    """The requirements a `pyproject.toml` or `setup.cfg` asks of every install or build, as
    written, spaces removed: PEP 621's `dependencies` and PEP 518's `[build-system] requires`,
    Poetry's main dependencies; setuptools' `install_requires` and `setup_requires`. None when
    the file does not parse or leaves its dependencies `dynamic`."""
    if path.endswith(".toml"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return None
        project = data.get("project")
        project = project if isinstance(project, dict) else {}
        if "dependencies" in (project.get("dynamic") or []):
            return None
        system = data.get("build-system")
        items = list(project.get("dependencies") or [])
        items += list((system.get("requires") if isinstance(system, dict) else None) or [])
        poetry = (data.get("tool") or {}).get("poetry") or {}
        main = poetry.get("dependencies") if isinstance(poetry, dict) else None
        items += list(main) if isinstance(main, dict) else []
        return [squeezed(i) for i in items if isinstance(i, str)]
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    out: list[str] = []
    for key in ("install_requires", "setup_requires"):
        if parser.has_option("options", key):
            value = parser.get("options", key)
            out += [squeezed(p) for p in re.split(r"[\n;]", value) if p.strip()]
    return out


def normal_name(name: str) -> str:
    """PEP 503: a distribution's name lowercased, runs of `-`, `_`, `.` as one `-`."""
    return re.sub(r"[-_.]+", "-", name).lower()


def dev_names(text: str) -> set[str] | None:
    """The distributions a `pyproject.toml` names in tables no install reads, by their PEP 503
    names: Poetry's `[tool.poetry.dev-dependencies]` and `[tool.poetry.group.<g>.dependencies]`
    keys, and the requirement strings of PEP 735's `[dependency-groups]`, PDM's
    `[tool.pdm.dev-dependencies]` and uv's `[tool.uv] dev-dependencies`. None when it does
    not parse."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None

    def table(value: object, key: str) -> dict[str, Any]:
        found = value.get(key) if isinstance(value, dict) else None
        return found if isinstance(found, dict) else {}

    tool = table(data, "tool")
    poetry = table(tool, "poetry")
    keys = [*table(poetry, "dev-dependencies")]
    for group in table(poetry, "group").values():
        keys += [*table(group, "dependencies")]
    lists = [
        *table(data, "dependency-groups").values(),
        *table(tool.get("pdm"), "dev-dependencies").values(),
    ]
    lists.append(table(tool, "uv").get("dev-dependencies"))
    strings = [
        s for listed in lists if isinstance(listed, list) for s in listed if isinstance(s, str)
    ]
    keys += [m.group(0) for s in strings if (m := re.match(r"[A-Za-z0-9][\w.-]*", s.strip()))]
    return {normal_name(k) for k in keys} - {"python"}


def published_name(path: str, text: str) -> str | None:
    """The distribution's name a `pyproject.toml` (PEP 621's `[project] name`, else Poetry's
    `[tool.poetry] name`) or a `setup.cfg` (`[metadata] name`) declares; None where none is
    or the file does not parse."""
    if path.endswith(".toml"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return None
        for table in (data.get("project"), (data.get("tool") or {}).get("poetry")):
            name = table.get("name") if isinstance(table, dict) else None
            if isinstance(name, str):
                return name
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return parser.get("metadata", "name", fallback=None)


def extras_and_groups(text: str) -> tuple[set[str], set[str]] | None:
    """A `pyproject.toml`'s extras (`[project.optional-dependencies]`) and PEP 735 dependency
    groups, by PEP 685's normal form; None where it does not parse."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    project = data.get("project")
    extras = project.get("optional-dependencies") if isinstance(project, dict) else None
    groups = data.get("dependency-groups")
    return (
        {normal_extra(e) for e in extras} if isinstance(extras, dict) else set(),
        {normal_extra(g) for g in groups} if isinstance(groups, dict) else set(),
    )


def top_modules(path: str, text: str) -> set[str]:
    """The single top-level modules a metadata file says the package installs (`distro` for
    `distro.py`): setuptools' `py_modules` (`setup.py`'s keyword, `setup.cfg`'s `[options]`,
    `pyproject.toml`'s `[tool.setuptools] py-modules`), and the module the distribution's own
    name makes (`name='distro'`, lower case, `-` and `.` as `_`). Empty where none is
    declared or the file does not parse."""
    names: list[str] = []
    modules: list[str] = []
    if path.endswith(".toml"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return set()
        listed = ((data.get("tool") or {}).get("setuptools") or {}).get("py-modules")
        modules += [m for m in listed if isinstance(m, str)] if isinstance(listed, list) else []
        name = published_name(path, text)
        names += [name] if name else []
    elif path.endswith(".cfg"):
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text)
        except configparser.Error:
            return set()
        modules += re.split(r"[\s,]+", parser.get("options", "py_modules", fallback=""))
        names.append(parser.get("metadata", "name", fallback=""))
    else:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            return set()
        for node in ast.walk(tree):
            func = node.func if isinstance(node, ast.Call) else None
            callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if not isinstance(node, ast.Call) or callee != "setup":
                continue
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg == "py_modules" and isinstance(value, ast.List | ast.Tuple):
                    modules += [
                        e.value
                        for e in value.elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    ]
                elif (
                    keyword.arg == "name"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    names.append(value.value)
    made = {re.sub(r"[-.]+", "_", n.strip().lower()) for n in names if n.strip()}
    return {m.strip() for m in modules if m.strip()} | made
