"""Packaging metadata read whole at both revisions: extras, commands, entry points, backend
(of the files `bot/analysis/packaging_files.py` lists)."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from dataclasses import dataclass, field

from bot.analysis.facts.parses import Parses
from bot.analysis.facts.records import (
    BuildNeeds,
    DefaultChange,
    EntryPoint,
    Extra,
    ExtraRequirement,
)
from bot.analysis.packaging_files import PACKAGING_FILES
from bot.analysis.paths import PathKind, path_kind
from bot.models import FileChange

# The entry point groups installers turn into commands on the PATH.
COMMAND_GROUPS = ("console_scripts", "gui_scripts")


@dataclass
class Metadata:
    """What one side of one project's packaging files declare; None: not declared there
    statically (`dynamic`), or not readable."""

    extras: dict[str, tuple[str, ...]] | None = field(default_factory=dict)
    # (group, name) -> target
    entry_points: dict[tuple[str, str], str] | None = field(default_factory=dict)
    backend: str | None = None
    # the names `[build-system] requires` lists, in its order (None: no such list)
    build_requires: tuple[str, ...] | None = None
    name: str | None = None
    # PEP 735's dependency groups (`[dependency-groups]`), by their PEP 685 keys
    groups: frozenset[str] = frozenset()
    # extras declared by name whose requirements are not read (`extras_require={"cli":
    # cli_reqs}`): there, and what they require unknown
    opaque: frozenset[str] = frozenset()


def _build_names(system: object) -> tuple[str, ...] | None:
    """The requirement names (PEP 508's leading name) a `[build-system]` table's `requires`
    lists, each once; None where it lists none or something unreadable."""
    listed = system.get("requires") if isinstance(system, dict) else None
    if not isinstance(listed, list) or not all(isinstance(r, str) for r in listed):
        return None
    names = [_REQUIREMENT_NAME.match(r.strip()) for r in listed]
    if not names or not all(names):
        return None
    return tuple(dict.fromkeys(m.group(0) for m in names if m))


def _extra_key(name: str) -> str:
    """An extra's name as PEP 685 compares them: `Socks_Proxy` is `socks-proxy`."""
    return re.sub(r"[-_.]+", "-", name).lower()


# Extras only a project's own developers install (`pip install -e .[dev]`): their tests,
# linters, docs and tools, never what a user's install asks for
_DEVELOPERS = re.compile(
    r"(?:dev|devel|develop|development|tests?|testing|lint|linting|linters?|docs?|documentation"
    r"|typing|types|mypy|style|coverage|cov|qa|ci|tox|bench|benchmarks?|pre-?commit|format"
    r"|formatting|checks?|tools|tooling)(?:-(?:deps|requirements|extras?))?"
)


def developers_extra(name: str) -> bool:
    """Whether an extra is named as the project's developers' own (`dev`, `testing`,
    `lint`, `docs`): what its removal takes away is no user's install."""
    return bool(_DEVELOPERS.fullmatch(_extra_key(name)))


def read_metadata(path: str, text: str, parses: Parses) -> Metadata | None:
    """The metadata a `pyproject.toml` (PEP 621, `[build-system]`) or a `setup.cfg`
    (setuptools' `[metadata]`, `[options.*]`) declares; None when it does not parse."""
    if path.endswith(".toml"):
        return _pyproject(text, parses)
    return _setup_cfg(text, parses)


def _pyproject(text: str, parses: Parses) -> Metadata | None:
    try:
        document = parses.toml(text)
    except tomllib.TOMLDecodeError:
        return None
    project = document.get("project")
    system = document.get("build-system")
    backend = system.get("build-backend") if isinstance(system, dict) else None
    out = Metadata(backend=backend if isinstance(backend, str) else None)
    out.build_requires = _build_names(system)
    groups = document.get("dependency-groups")
    out.groups = (
        frozenset(_extra_key(g) for g in groups) if isinstance(groups, dict) else frozenset()
    )
    if not isinstance(project, dict):
        # no PEP 621 table: what the project declares lives elsewhere (setup.cfg, Poetry)
        out.extras = out.entry_points = None
        tool = document.get("tool")
        poetry = tool.get("poetry") if isinstance(tool, dict) else None
        name = poetry.get("name") if isinstance(poetry, dict) else None
        out.name = name if isinstance(name, str) else None
        return out
    dynamic = project.get("dynamic", [])
    dynamic = set(dynamic) if isinstance(dynamic, list) else set()
    name = project.get("name")
    out.name = name if isinstance(name, str) else None
    extras = project.get("optional-dependencies", {})
    if "optional-dependencies" in dynamic or not isinstance(extras, dict):
        out.extras = None
    else:
        out.extras = {
            extra: tuple(r.strip() for r in reqs if isinstance(r, str))
            for extra, reqs in extras.items()
            if isinstance(reqs, list)
        }
    if {"scripts", "gui-scripts", "entry-points"} & dynamic:
        out.entry_points = None
        return out
    points: dict[tuple[str, str], str] = {}
    groups = {
        "console_scripts": project.get("scripts", {}),
        "gui_scripts": project.get("gui-scripts", {}),
    }
    others = project.get("entry-points", {})
    if isinstance(others, dict):
        groups.update({g: v for g, v in others.items() if g not in COMMAND_GROUPS})
    for group, table in groups.items():
        if isinstance(table, dict):
            points.update({(group, n): t for n, t in table.items() if isinstance(t, str)})
    out.entry_points = points
    return out


def _setup_cfg(text: str, parses: Parses) -> Metadata | None:
    # setuptools keeps option names as written: an entry point's name is case-sensitive
    # (`Parses.ini` reads them so)
    try:
        parser = parses.ini(text)
    except configparser.Error:
        return None
    if not parser.has_section("metadata") and not parser.has_section("options"):
        # a tool's settings alone (`[flake8]`, `[bdist_wheel]`): no metadata here
        return Metadata(extras=None, entry_points=None)
    # setuptools' declarative metadata: a section left out declares none
    out = Metadata(name=parser.get("metadata", "name", fallback=None))
    if parser.has_section("options.extras_require"):
        out.extras = {
            extra: _listed(value) for extra, value in parser.items("options.extras_require")
        }
    if parser.has_section("options.entry_points"):
        points: dict[tuple[str, str], str] = {}
        for group, value in parser.items("options.entry_points"):
            for line in value.splitlines():
                name, sep, target = line.partition("=")
                if sep and name.strip():
                    points[(group, name.strip())] = target.strip()
        out.entry_points = points
    return out


def _listed(value: str) -> tuple[str, ...]:
    """setuptools' `list-semi`: a dangling list, one item a line, else `;`-separated."""
    items = value.splitlines() if "\n" in value.strip("\n") or value.startswith("\n") else None
    return tuple(i.strip() for i in (items or value.split(";")) if i.strip())


@dataclass
class PackagingChanges:
    """What a commit's packaging files gain and lose, project by project."""

    extras_added: list[Extra] = field(default_factory=list)
    extras_removed: list[Extra] = field(default_factory=list)
    # extras made dependency groups of their names (`[dependency-groups] dev`)
    extras_grouped: list[Extra] = field(default_factory=list)
    extras_changed: list[ExtraRequirement] = field(default_factory=list)
    entry_points_added: list[EntryPoint] = field(default_factory=list)
    entry_points_removed: list[EntryPoint] = field(default_factory=list)
    backends: list[DefaultChange] = field(default_factory=list)
    build_needs: list[BuildNeeds] = field(default_factory=list)
    # the distribution's name (`[project] name`, `[metadata] name`) changed
    names: list[DefaultChange] = field(default_factory=list)
    # the modules the entry points name at the commit (`typeguard._pytest_plugin` of
    # `pytest11`): what a plugin loader imports, not a user
    entry_modules: list[str] = field(default_factory=list)


def packaging_changes(
    sides: dict[str, tuple[str | None, str | None]],
    changed: list[str],
    parses: Parses,
    calls: dict[str, tuple[ast.Call | None, ast.Call | None]] | None = None,
) -> PackagingChanges:
    """The difference of the metadata each project folder's changed packaging files declare
    (`sides`: path -> its text at the parent and at the commit, None where absent). A folder
    whose files are all new or all gone (a project, not a change of one), or whose file does
    not parse says nothing. A changed `setup.py` is code: its extras are read from the
    `setup(…)` call its whole reading found (`calls`, by path: parent's, commit's) where they
    are literals, its entry points never; one not read so says only the build backend."""
    out = PackagingChanges()
    calls = calls or {}
    folders: dict[str, list[str]] = {}
    for path in sides:
        folders.setdefault(path.rpartition("/")[0], []).append(path)
    for folder, paths in folders.items():
        before = [(p, sides[p][0]) for p in paths if sides[p][0] is not None]
        after = [(p, sides[p][1]) for p in paths if sides[p][1] is not None]
        if not before or not after:
            continue
        old = _merged(before, parses, {p: c[0] for p, c in calls.items()})
        new = _merged(after, parses, {p: c[1] for p, c in calls.items()})
        if old is None or new is None:
            continue
        setup_py = f"{folder}/setup.py" if folder else "setup.py"
        if setup_py in changed:
            # `[build-system]` is pyproject.toml's alone: setup.py cannot say otherwise
            old.entry_points = None
            if setup_py not in sides:
                old.extras = None
        where = min(p for p, _ in after)
        _compare(old, new, where, out)
        out.entry_modules += [t.split(":", 1)[0].strip() for t in (new.entry_points or {}).values()]
    return out


def setup_extras(call: ast.Call | None) -> dict[str, tuple[str, ...]] | None:
    """The extras a `setup(…)` call's `extras_require` writes as literals (setuptools: a
    mapping of an extra to a list of requirements, or to a string of one a line); {} where
    it passes none; None where not known without running it (no call found, `**kwargs`, a
    name or an expression)."""
    if call is None or any(k.arg is None for k in call.keywords):
        return None
    value = next((k.value for k in call.keywords if k.arg == "extras_require"), None)
    if value is None:
        return {}
    if not isinstance(value, ast.Dict):
        return None
    out: dict[str, tuple[str, ...]] = {}
    for key, listed in zip(value.keys, value.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        if isinstance(listed, ast.Constant) and isinstance(listed.value, str):
            items = listed.value.splitlines()
        elif isinstance(listed, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in listed.elts
        ):
            items = [str(e.value) for e in listed.elts if isinstance(e, ast.Constant)]
        else:
            return None
        out[key.value] = tuple(str(i).strip() for i in items if str(i).strip())
    return out


def setup_extra_names(call: ast.Call | None) -> frozenset[str] | None:
    """The extras a `setup(…)` call's `extras_require` declares as a dict written out with
    string keys, whatever its values (`{"cli": cli_reqs, "optimize": optimize_reqs}`, each
    list read from a file at build time): the names are what `pip install pkg[extra]` asks
    for. None where not known without running it (`**kwargs`, a name, a key not a string)."""
    if call is None or any(k.arg is None for k in call.keywords):
        return None
    value = next((k.value for k in call.keywords if k.arg == "extras_require"), None)
    if value is None:
        return frozenset()
    if not isinstance(value, ast.Dict) or not all(
        isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys
    ):
        return None
    return frozenset(str(k.value) for k in value.keys if isinstance(k, ast.Constant))


def _setup_name(call: ast.Call | None) -> str | None:
    """The distribution's name a `setup(name="…")` call writes as a literal."""
    value = next((k.value for k in call.keywords if k.arg == "name"), None) if call else None
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None


def _merged(
    texts: list[tuple[str, str | None]],
    parses: Parses,
    calls: dict[str, ast.Call | None],
) -> Metadata | None:
    """One side's metadata over a folder's files: pyproject.toml's first where two say,
    then setup.py's (its keywords override setup.cfg's, as setuptools reads them)."""
    out = Metadata(extras=None, entry_points=None)
    unknown = False
    read: list[tuple[str, Metadata | None]] = []
    for path, text in texts:
        if path.rsplit("/", 1)[-1] == "setup.py":
            call = calls.get(path)
            extras = setup_extras(call)
            opaque = frozenset[str]()
            if extras is None and (names := setup_extra_names(call)) is not None:
                extras, opaque = dict.fromkeys(names, ()), names
            unknown = unknown or extras is None
            read.append((path, Metadata(extras, None, name=_setup_name(call), opaque=opaque)))
        else:
            read.append((path, read_metadata(path, text or "", parses)))
    for _, meta in sorted(read, key=lambda pm: (_RANK.get(pm[0].rsplit("/", 1)[-1], 2), pm[0])):
        if meta is None:
            return None
        if meta.extras is not None:
            out.extras = {**meta.extras, **(out.extras or {})}
        if meta.entry_points is not None:
            out.entry_points = {**meta.entry_points, **(out.entry_points or {})}
        out.backend = out.backend or meta.backend
        out.build_requires = out.build_requires or meta.build_requires
        out.name = out.name or meta.name
        out.groups |= meta.groups
        out.opaque |= meta.opaque
    if unknown:
        out.extras = None
    return out


# Which file's metadata wins where two declare it (the lower)
_RANK = {"pyproject.toml": 0, "setup.py": 1}


def _compare(old: Metadata, new: Metadata, path: str, out: PackagingChanges) -> None:
    if old.extras is not None and new.extras is not None:
        was = {_extra_key(e) for e in old.extras}
        now = {_extra_key(e) for e in new.extras}
        out.extras_added += [
            Extra(e, reqs, path, new.name)
            for e, reqs in new.extras.items()
            if _extra_key(e) not in was
        ]
        # an extra made a dependency group of its name (`tests`, `dev`) moved to where the
        # developers it served now ask for it: no install of the package loses it (stamina
        # 0c4e625, structlog d887c003 "Use dependency groups")
        out.extras_removed += [
            Extra(e, reqs, path, old.name or new.name)
            for e, reqs in old.extras.items()
            if _extra_key(e) not in now and _extra_key(e) not in new.groups
        ]
        out.extras_grouped += [
            Extra(e, reqs, path, old.name)
            for e, reqs in old.extras.items()
            if _extra_key(e) not in now and _extra_key(e) in new.groups
        ]
        # (what an extra read by name alone requires is unknown: no change of it is said)
        kept = {_extra_key(e): reqs for e, reqs in old.extras.items() if e not in old.opaque}
        for extra, reqs in new.extras.items():
            if _extra_key(extra) in kept and extra not in new.opaque:
                out.extras_changed += _requirements_changed(
                    extra, kept[_extra_key(extra)], reqs, path
                )
    if old.entry_points is not None and new.entry_points is not None:
        out.entry_points_added += [
            EntryPoint(name, group, target, path)
            for (group, name), target in new.entry_points.items()
            if (group, name) not in old.entry_points
        ]
        out.entry_points_removed += [
            EntryPoint(name, group, target, path)
            for (group, name), target in old.entry_points.items()
            if (group, name) not in new.entry_points
        ]
    if old.backend and new.backend and old.backend != new.backend:
        out.backends.append(DefaultChange("build-backend", old.backend, new.backend, path))
        before, after = old.build_requires, new.build_requires
        if before and after and {_extra_key(n) for n in before} != {_extra_key(n) for n in after}:
            out.build_needs.append(BuildNeeds(before, after, path))
    if old.name and new.name and _extra_key(old.name) != _extra_key(new.name):
        # (PEP 503 compares names as PEP 685 does extras: `Foo_Bar` is `foo-bar`)
        out.names.append(DefaultChange("name", old.name, new.name, path))


# A requirement's leading name (PEP 508), and the spaces it may be written with
_REQUIREMENT_NAME = re.compile(r"[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9])?")


def _requirements_changed(
    extra: str, old: tuple[str, ...], new: tuple[str, ...], path: str
) -> list[ExtraRequirement]:
    """What an extra declared at both revisions requires anew, no more, or otherwise, by
    package (PEP 503's names); a package it names twice on a side (by marker) says nothing."""

    def by_name(reqs: tuple[str, ...]) -> tuple[dict[str, str], set[str]]:
        named: dict[str, str] = {}
        twice: set[str] = set()
        for r in reqs:
            match = _REQUIREMENT_NAME.match(r)
            if match is None:
                continue
            name = _extra_key(match.group(0))
            if name in named:
                twice.add(name)
            named[name] = r
        return named, twice

    (was, twice_was), (now, twice_now) = by_name(old), by_name(new)
    out = []
    for name in dict.fromkeys([*was, *now]):
        if name in twice_was | twice_now:
            continue
        before, after = was.get(name), now.get(name)
        if before is not None and after is not None and _squeezed(before) == _squeezed(after):
            continue
        out.append(ExtraRequirement(extra, before, after, path))
    return out


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


# PEP 561's marker: the package's inline annotations are for type checkers to read
TYPE_MARKER = "py.typed"


def shipped_type_markers(
    files: list[FileChange],
    words: str = "",
    setup_calls: dict[str, tuple[ast.Call | None, ast.Call | None]] | None = None,
) -> tuple[str, ...]:
    """The `py.typed` markers the change proves the package newly ships: a packaging file
    the change edits declares the marker package data of its package at the commit
    (`[options.package_data]`, setuptools' `package-data` table, `setup(package_data=…)`,
    under the package's dotted name or `*`) and did not at the parent (async-lru 09f3009),
    where the marker is in the tree at the commit (a file the change adds or edits, or one
    the author's `words` name: aiodns ca7b018 "Added a missing py.typed file for wheel");
    or a marker the change adds that a packaging file it edits declared already. A marker
    alone proves nothing: whether a build packs it is the backend's and its manifest's say
    (async-lru f2d0df0 added one its `setup.py` did not pack), nor one declared under a key
    that is no package (trio-websocket 49b93c1: `{"trio-websocket": ["py.typed"]}`).
    A `setup.py` is read by the `setup(…)` call its whole reading found (`setup_calls`, by
    path: parent's, commit's), never parsed again."""
    # (a marker among the tests, the docs or the examples, a typed fixture package, is no
    # package's the project ships, whatever `*` packs)
    markers = [
        f.filename
        for f in files
        if f.filename.rsplit("/", 1)[-1] == TYPE_MARKER
        and f.status != "removed"
        and path_kind(f.filename) not in (PathKind.TESTS, PathKind.DOCS)
    ]
    named = TYPE_MARKER in words
    if not markers and not named:
        return ()
    before: set[str] = set()
    after: set[str] = set()
    calls = setup_calls or {}
    for f in files:
        name = f.filename.rsplit("/", 1)[-1]
        if name == "setup.py" and f.filename in calls:
            before |= _setup_keys(calls[f.filename][0])
            after |= _setup_keys(calls[f.filename][1])
        elif name in PACKAGING_FILES and f.sides is not None:
            before |= _marker_keys(name, f.sides[0])
            after |= _marker_keys(name, f.sides[1])
    added = {f.filename for f in files if f.filename in markers and f.status == "added"}
    shipped = [
        m
        for m in markers
        if any(_packs(key, m) for key in after)
        and (m in added or not any(_packs(key, m) for key in before))
    ]
    if shipped:
        return tuple(shipped)
    # a marker the tree holds by the author's words, newly declared for a package by name;
    # not where the parent's build took every file git tracks (setuptools-scm's file finder:
    # typeguard 98ee364 "Ensure that py.typed gets included even when building w/o a git
    # checkout" shipped it already from a checkout)
    new = {key for key in after - before if key in _ALL_PACKAGES or _PACKAGE.fullmatch(key)}
    tracked = any(
        f.filename.rsplit("/", 1)[-1] == "pyproject.toml"
        and f.sides is not None
        and _SCM.search(f.sides[0] or "")
        for f in files
    )
    return (TYPE_MARKER,) if named and not markers and new and not tracked else ()


# setuptools-scm, named in a `pyproject.toml` (its `[build-system]` or its own table)
_SCM = re.compile(r"setuptools[_-]scm", re.IGNORECASE)
# A package's dotted name (a `package_data` key), and the keys that stand for every package
_PACKAGE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_ALL_PACKAGES = frozenset({"", "*"})
# Folders a package's import path does not include (`src/pkg/py.typed` is `pkg`'s)
_SOURCE_ROOTS = ("src/", "lib/")


def _packs(key: str, marker: str) -> bool:
    """Whether package data declared under `key` holds the marker at `marker`'s path."""
    if key in _ALL_PACKAGES:
        return True
    folder = marker.rpartition("/")[0]
    for root in _SOURCE_ROOTS:
        folder = folder.removeprefix(root)
    return key == folder.replace("/", ".")


def _marker_keys(name: str, text: str | None) -> set[str]:
    """The package-data keys under which a `setup.cfg` or `pyproject.toml` text declares
    `py.typed`, read by its format's parser."""
    if not text or TYPE_MARKER not in text:
        return set()
    data: dict[str, list[str]] = {}
    if name == "setup.cfg":
        parser = configparser.ConfigParser(interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        try:
            parser.read_string(text)
        except (configparser.Error, ValueError):
            return set()
        if parser.has_section("options.package_data"):
            data = {k: [v] for k, v in parser["options.package_data"].items()}
    elif name == "pyproject.toml":
        try:
            table = tomllib.loads(text).get("tool", {}).get("setuptools", {})
        except tomllib.TOMLDecodeError:
            return set()
        listed = table.get("package-data") if isinstance(table, dict) else None
        for key, values in listed.items() if isinstance(listed, dict) else ():
            if isinstance(values, list):
                data[key] = [v for v in values if isinstance(v, str)]
    return _keys(data)


def _setup_keys(call: ast.Call | None) -> set[str]:
    """The package-data keys under which a `setup(package_data={…})` call declares
    `py.typed`."""
    data: dict[str, list[str]] = {}
    for keyword in call.keywords if call is not None else ():
        if keyword.arg != "package_data" or not isinstance(keyword.value, ast.Dict):
            continue
        for key, value in zip(keyword.value.keys, keyword.value.values, strict=True):
            if (
                isinstance(key, ast.Constant)
                and isinstance(key.value, str)
                and isinstance(value, (ast.List, ast.Tuple, ast.Set))
            ):
                data.setdefault(key.value, []).extend(
                    e.value
                    for e in value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                )
    return _keys(data)


def _keys(data: dict[str, list[str]]) -> set[str]:
    return {
        key.strip()
        for key, values in data.items()
        for value in values
        for token in re.split(r"[\s,]+", value)
        if token.rsplit("/", 1)[-1] == TYPE_MARKER
    }


# A requirements file's name as a packaging file writes it (`"requirements-cli.txt"`)
_REQUIREMENTS_FILE = re.compile(r"[\w./-]*requirements[\w./-]*\.(?:txt|in)")
# what the package itself requires, in the map `requirement_files` gives
RUNTIME = ""


def requirement_files(setup_py: str | None, pyproject: str | None) -> dict[str, str]:
    """The requirements files a package's metadata reads, each to whom it feeds: `RUNTIME`
    (`install_requires=get_reqs("requirements.txt")`, setuptools' `dynamic` dependencies)
    or an extra's name (`extras_require={"cli": cli_reqs}` where `cli_reqs` was read from
    `requirements-cli.txt`). Names as written, relative to the metadata's folder."""
    out: dict[str, str] = {}
    if setup_py and "requirements" in setup_py:
        try:
            tree = ast.parse(setup_py)
        except (SyntaxError, ValueError):
            tree = None
        if tree is not None:
            out.update(_setup_requirement_files(tree))
    if pyproject and "file" in pyproject:
        try:
            table = tomllib.loads(pyproject)
        except (tomllib.TOMLDecodeError, ValueError):
            table = {}
        dynamic = table.get("tool", {}).get("setuptools", {}).get("dynamic", {})
        for name in _dynamic_files(dynamic.get("dependencies")):
            out.setdefault(name, RUNTIME)
        extras = dynamic.get("optional-dependencies", {})
        for extra, spec in extras.items() if isinstance(extras, dict) else ():
            for name in _dynamic_files(spec):
                out.setdefault(name, str(extra))
    return out


def declares_requirements(setup_py: str | None, pyproject: str | None) -> bool:
    """Whether the package's metadata writes out what it requires, reading no file for it:
    `setup(install_requires=[…])` of string literals (glom's `setup.py`, beside a
    `requirements.txt` pip-compile writes for its tox runs), or a `[project]` table's
    `dependencies` list it does not make `dynamic`."""
    if pyproject and "dependencies" in pyproject:
        try:
            project = tomllib.loads(pyproject).get("project")
        except (tomllib.TOMLDecodeError, ValueError):
            project = None
        if (
            isinstance(project, dict)
            and isinstance(project.get("dependencies"), list)
            and "dependencies" not in (project.get("dynamic") or ())
        ):
            return True
    if not setup_py or "install_requires" not in setup_py:
        return False
    try:
        tree = ast.parse(setup_py)
    except (SyntaxError, ValueError, RecursionError):
        return False
    return any(
        isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup"
        and any(
            k.arg == "install_requires"
            and isinstance(k.value, ast.List | ast.Tuple)
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in k.value.elts)
            for k in node.keywords
        )
        for node in ast.walk(tree)
    )


def requires_nothing(setup_py: str | None, pyproject: str | None) -> bool:
    """Whether the package's metadata is a `setup.py` whose `setup(…)` call requires nothing
    and reads no file for it: no `install_requires`, no `**kwargs` that might pass one, no
    word of a requirements file, and no `pyproject.toml` that could declare them (jmespath's
    `setup.py`, beside the `requirements.txt` of its test tools: `pytest`, `pytest-cov`)."""
    if pyproject is not None or not setup_py or "requirements" in setup_py:
        return False
    try:
        tree = ast.parse(setup_py)
    except (SyntaxError, ValueError, RecursionError):
        return False
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup"
    ]
    return len(calls) == 1 and all(
        k.arg is not None and k.arg != "install_requires" for k in calls[0].keywords
    )


def _dynamic_files(spec: object) -> list[str]:
    """The files of setuptools' `{file = ["requirements.txt"]}`."""
    files = spec.get("file") if isinstance(spec, dict) else None
    files = [files] if isinstance(files, str) else files
    return [f for f in files if isinstance(f, str)] if isinstance(files, list) else []


def _setup_requirement_files(tree: ast.Module) -> dict[str, str]:
    """`requirement_files` of a `setup.py`: the files its names are read from, followed
    into `setup(install_requires=…, extras_require={…})`."""

    def files(node: ast.AST) -> list[str]:
        found = []
        for n in ast.walk(node):
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                if _REQUIREMENTS_FILE.fullmatch(n.value):
                    found.append(n.value)
            elif isinstance(n, ast.Name) and n.id in bound:
                found += bound[n.id]
        return found

    bound: dict[str, list[str]] = {}
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and (read := files(node.value)):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = read
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setup"):
            continue
        for keyword in node.keywords:
            value = keyword.value
            if isinstance(value, ast.Name) and keyword.arg == "extras_require":
                value = next(
                    (
                        a.value
                        for a in ast.walk(tree)
                        if isinstance(a, ast.Assign)
                        and any(getattr(t, "id", None) == value.id for t in a.targets)
                    ),
                    value,
                )
            if keyword.arg == "install_requires":
                for name in files(value):
                    out.setdefault(name, RUNTIME)
            elif keyword.arg == "extras_require" and isinstance(value, ast.Dict):
                for key, listed in zip(value.keys, value.values, strict=True):
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        for name in files(listed):
                            out.setdefault(name, key.value)
    return out
