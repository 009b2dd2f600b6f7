"""Facts in build and dependency files: the requirements a change sets, old and new."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from typing import Any

from packaging.markers import InvalidMarker, Marker
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from bot.analysis.facts.parses import Parses, ini_lowered
from bot.analysis.facts.scan import FileReading, Hunk

# The Python versions a package supports: PEP 621's `requires-python = ">=3.9"`, setuptools'
# `python_requires=">=3.9"` (setup.py) or `python_requires = >=3.9` (setup.cfg).
# (the whole specifier: `">=3.10,<4"` requires `>=3.10,<4`, not `>=3.10`)
_PYTHON = re.compile(r"^(?:requires-python|python_requires)\s*[=:]\s*[\"']?([<>=!~][^\"'#]*)")
# A lock file is written by the resolver: every dependency's pin, and a copy of the package's
# own `requires-python` (uv.lock). Not the project's requirements: nothing is read from it.
_LOCK_FILE = re.compile(r"(?:\.lock|-lock\.json|-lock\.ya?ml|(?:^|/)go\.sum)$")
# A `setup.cfg` key and the value on its line; the `[options]` keys that list requirements
_CFG_KEY = re.compile(r"^([\w.-]+)\s*[=:](?!=)(.*)$")
_CFG_LISTS = frozenset({"install_requires", "setup_requires", "tests_require"})
_QUOTED = re.compile(r"[\"']([^\"']+)[\"']")
_CLAUSE = re.compile(r"([<>=!~^]*)([\d.]+)(.*)")
_ZEROS = re.compile(r"(\.0)+$")
_TABLE_HEADER = re.compile(r"^\[\s*([^\[\]]+?)\s*\]$")
_POETRY_TABLE = re.compile(r"^tool\.poetry(?:\.group\.[\w-]+)?\.(?:dev-)?dependencies$")
_POETRY = re.compile(r"^([A-Za-z0-9][\w.-]*)\s*=\s*(?:\{[^}]*?version\s*=\s*)?\"([<>=!~^][^\"]*)\"")
_OP = r"(?:==|>=|<=|~=|!=|<|>)\s*[\w.*+-]+"
# a requirement and its whole specifier (`flit_core>=3.11,<4`)
# A requirement's leading name (`pytest` of `pytest>=8`, of Poetry's `pytest^8`)
_NAME = re.compile(r"[A-Za-z0-9][\w.-]*")
_PIN = re.compile(rf"^([A-Za-z0-9][\w.-]*(?:\[[\w,]+\])?)\s*({_OP}(?:\s*,\s*{_OP})*)")


def _cfg_listed(table: str, text: str, continued: bool) -> list[str]:
    """The requirements a `setup.cfg` line lists after its key (`install_requires = a; b`,
    an extra's `redis = redis>=4.0`), by setuptools' `list-semi` rule: a value that goes on
    over more lines is one item a line (`a; python_version<"3.8"` is one requirement and its
    marker), one on its key's line alone is `;`-separated."""
    key = _CFG_KEY.match(text)
    if key is None or not (
        table == "options.extras_require" or (table == "options" and key.group(1) in _CFG_LISTS)
    ):
        return []
    value = key.group(2).strip()
    return [value] if continued else [item for item in value.split(";") if item.strip()]


def _continued(lines: tuple[tuple[str, str], ...], at: int, sign: str) -> bool:
    """Whether the next line of the same side (or context) continues line `at`'s INI value:
    it is indented and not blank."""
    follows = (text for side, text in lines[at + 1 :] if side in (sign, " "))
    text = next(follows, "")
    return text[:1] in (" ", "\t") and bool(text.strip())


def cfg_python_requires(text: str, parses: Parses) -> str | None:
    """The Python requirement a `setup.cfg` declares: its `[options] python_requires`, the
    only place setuptools reads it from (its declarative-config keys; a `[metadata]` one is
    ignored, as Pylons/venusian 47d374a "python_requires is an option not metadata" found:
    https://github.com/Pylons/venusian/commit/47d374a0cd957824b7c592b0adc23bd057e689be).
    None where none is there or the file does not parse."""
    try:
        options = ini_lowered(parses.ini(text)).get("options", {})
    except (configparser.Error, ValueError):
        return None
    value = options.get("python_requires") or options.get("python-requires") or ""
    return value.strip() or None


def _cfg_python(table: str, sign: str, sides: tuple[str, str] | None, parses: Parses) -> str | None:
    """The Python requirement setuptools reads from a `setup.cfg` on one side: from the whole
    text where known, else only from a line the hunk shows under `[options]`."""
    if sides is not None:
        return cfg_python_requires(sides[1] if sign == "+" else sides[0], parses)
    return "" if table == "options" else None


def read_requirements(
    file_hunks: list[Hunk],
    reading: FileReading,
    sides: tuple[str, str] | None = None,
    parses: Parses | None = None,
) -> None:
    """Requirement lines (`torch==2.5.1`, `"transformers>=4.57",`) and the Python versions
    supported (`requires-python = ">=3.9"`) on each side; none from a lock file. `sides`:
    the file's two whole texts, where known."""
    if _LOCK_FILE.search(reading.path):
        return
    for hunk in file_hunks:
        # the TOML table each side of the hunk is in, from a header the hunk shows
        table = {"+": "", "-": ""}
        lines = hunk.lines
        for at, (sign, text) in enumerate(lines):
            header = _TABLE_HEADER.match(text.strip())
            if header:
                for side in ("+", "-") if sign == " " else (sign,):
                    table[side] = header.group(1)
            if sign == " ":
                continue
            python = _PYTHON.match(text.strip())
            if python:
                spec = re.sub(r"\s+", "", python.group(1)).rstrip(",")
                if reading.path.rsplit("/", 1)[-1] == "setup.cfg":
                    # a key setuptools ignores is no requirement (lark 87e4ac7 wrote
                    # `python_requires` under `[metadata]`: pip installs on any Python)
                    read = _cfg_python(table[sign], sign, sides, parses or Parses())
                    if read is None:
                        continue
                    spec = re.sub(r"\s+", "", read) or spec
                reading.side(sign).requirements["python"] = spec
                continue
            # Poetry's table: `blinker = ">=1.6"`, `python = ">=3.9"` (a project that moves to
            # PEP 621 keeps what it required)
            # (only under Poetry's dependency tables: `[tool.ruff] required-version` and
            # `[tool.hatch.envs.docs] python` are no requirement of the package)
            poetry = _POETRY.match(text.strip()) if _POETRY_TABLE.match(table[sign]) else None
            if poetry:
                reading.side(sign).requirements[poetry.group(1).lower()] = poetry.group(2)
                continue
            # `dependencies = ["MarkupSafe>=2.0"]` on one line is the same requirement as
            # `"MarkupSafe>=2.0",` on a line of its own: each quoted item is one
            quoted = _QUOTED.findall(text) if "=" in text and "[" in text else []
            # (a `setup.cfg` list begun on its key's line: `redis = redis >= 4.0`)
            listed = _cfg_listed(table[sign], text, _continued(lines, at, sign))
            for item in quoted or listed or [text.strip().strip("\"',")]:
                match = _PIN.match(item.strip())
                if match:
                    spec = re.sub(r"\s+", "", match.group(2))
                    name = match.group(1).lower()
                    reading.side(sign).requirements[name] = spec
                    reading.side(sign).marked.setdefault(name, []).append(
                        (_marker(item.strip()[match.end() :]), spec)
                    )


def _marker(rest: str) -> str:
    """The PEP 508 environment marker after a requirement's specifier (`; python_version <
    '3.6'` → `python_version < "3.6"`, as packaging writes it), "" where none is written."""
    rest = rest.split(" #", 1)[0].strip().rstrip(",")
    if not rest.startswith(";"):
        return ""
    written = rest[1:].strip()
    # (a line read bare has lost its closing quote to the strip of a list item's)
    for quote in ("", "'", '"'):
        try:
            # packaging's own form: `python_version < "3.6"` whatever the quotes and blanks
            return str(Marker(written + quote))
        except InvalidMarker:
            continue
    return re.sub(r"\s+", " ", written)


def setup_requirements(call: ast.Call | None) -> dict[str, str]:
    """What a `setup.py`'s `setup(…)` call requires as its literals write it:
    `python_requires=">=3.9"` as `python`, each `install_requires` item by its name (a
    variable, `**kwargs` or an extra's list is not read: `tests_require`, `extras_require`
    are no install's)."""
    out: dict[str, str] = {}
    for keyword in call.keywords if call is not None else ():
        value = keyword.value
        if keyword.arg == "python_requires":
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                spec = value.value.strip()
                if spec[:1] in "<>=!~" and spec:
                    out["python"] = spec
        elif keyword.arg == "install_requires" and isinstance(value, (ast.List, ast.Tuple)):
            for item in value.elts:
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    match = _PIN.match(item.value.strip())
                    if match:
                        out[match.group(1).lower()] = re.sub(r"\s+", "", match.group(2))
    return out


def _listed(document: dict[str, Any], *, runtime: bool) -> list[str]:
    """The requirements a parsed `pyproject.toml` writes, as written: `[project]`'s
    dependencies and Poetry's main ones (`name` + its version); unless `runtime`, also the
    extras and `[build-system] requires`."""

    def table(*keys: str) -> Any:
        at: Any = document
        for key in keys:
            at = at.get(key) if isinstance(at, dict) else None
        return at

    items: list[Any] = [*(table("project", "dependencies") or [])]
    if not runtime:
        extras = table("project", "optional-dependencies")
        for listed in extras.values() if isinstance(extras, dict) else ():
            items += listed if isinstance(listed, list) else []
        items += table("build-system", "requires") or []
    poetry = table("tool", "poetry", "dependencies")
    for name, value in poetry.items() if isinstance(poetry, dict) else ():
        spec = value.get("version") if isinstance(value, dict) else value
        items.append(f"{name}{spec}" if isinstance(spec, str) else name)
    return [item.strip() for item in items if isinstance(item, str)]


def shipped_requirements(text: str, parses: Parses) -> dict[str, set[str]] | None:
    """The requirements (PEP 503 name → specifiers as written, spaces aside) a
    `pyproject.toml` asks of installs: `[project]`'s dependencies and extras, `[build-system]
    requires`, Poetry's main dependencies; None when it does not parse. Not PEP 735's
    `[dependency-groups]`, Poetry's groups or any other tool's table: those pin a
    developer's tools (`pyrefly>=1.2.0` for a type-check run), which no install sees."""
    try:
        document = parses.toml(text)
    except tomllib.TOMLDecodeError:
        return None
    out: dict[str, set[str]] = {}
    for item in _listed(document, runtime=False):
        match = _PIN.match(item)
        if match:
            name = package_name(match.group(1).split("[", 1)[0])
            out.setdefault(name, set()).add(re.sub(r"\s+", "", match.group(2)))
    return out


def _build_requires(document: dict[str, Any]) -> list[str]:
    """The strings a `pyproject.toml`'s `[build-system] requires` lists."""
    system = document.get("build-system")
    listed = system.get("requires") if isinstance(system, dict) else None
    return [r for r in listed if isinstance(r, str)] if isinstance(listed, list) else []


def build_only_requirements(text: str, parses: Parses) -> set[str]:
    """The PEP 503 names a `pyproject.toml`'s `[build-system] requires` lists and no install
    asks for (not a dependency, not an extra's): what building the sdist or wheel needs."""
    try:
        document = parses.toml(text)
    except tomllib.TOMLDecodeError:
        return set()
    build = {
        package_name(m.group(0))
        for item in _build_requires(document)
        if (m := _NAME.match(item.strip()))
    }
    installs = {
        package_name(m.group(0))
        for item in _listed({"project": document.get("project")}, runtime=False)
        if (m := _NAME.match(item))
    }
    return build - installs - {"python"}


def supported_pythons(text: str, parses: Parses) -> set[str]:
    """The Python versions a `pyproject.toml` says it supports, spaces aside: PEP 621's
    `requires-python` and Poetry's `python` dependency (none where it does not parse)."""
    try:
        document = parses.toml(text)
    except tomllib.TOMLDecodeError:
        return set()
    project, tool = document.get("project"), document.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    dependencies = poetry.get("dependencies") if isinstance(poetry, dict) else None
    written = [
        project.get("requires-python") if isinstance(project, dict) else None,
        dependencies.get("python") if isinstance(dependencies, dict) else None,
    ]
    return {re.sub(r"\s+", "", w) for w in written if isinstance(w, str)}


def runtime_requirements(text: str, parses: Parses) -> set[str]:
    """The PEP 503 names a `pyproject.toml` asks of every install: `[project]`'s dependencies
    and Poetry's main ones (not extras, not `[build-system]`: who builds from source)."""
    try:
        document = parses.toml(text)
    except tomllib.TOMLDecodeError:
        return set()
    names = {
        package_name(m.group(0)) for i in _listed(document, runtime=True) if (m := _NAME.match(i))
    }
    return names - {"python"}


def package_name(name: str) -> str:
    """A package's name as PEP 503 compares them: `importlib_metadata` is `importlib-metadata`,
    and `setuptools-scm[toml]` is `setuptools-scm` (its extras are not its name)."""
    return re.sub(r"[-_.]+", "-", name.split("[", 1)[0].strip()).lower()


def still_admits(old: str | None, new: str) -> bool:
    """Whether the specifier `new` still admits a version `old` named as its pin or floor
    (`==80.9` → `>=77`, `>=8.2,<9` → `>=8.2,<10`): nobody has to update for it. False
    where either does not parse as PEP 440."""
    if not old:
        return False
    try:
        admitted, before = SpecifierSet(new), SpecifierSet(old)
    except InvalidSpecifier:
        return False
    pins = [s.version for s in before if s.operator in ("==", "===", ">=", "~=")]
    return any(admitted.contains(v, prereleases=True) for v in pins if "*" not in v)


def same_spec(a: str | None, b: str) -> bool:
    """Whether two requirement specifiers say the same: `>=8.0.0` is `>=8.0` (PEP 440 pads a
    release with zeros), clauses in any order."""
    if a is None:
        return False

    def clauses(spec: str) -> set[str]:
        out = set()
        for clause in spec.replace(" ", "").split(","):
            m = _CLAUSE.fullmatch(clause)
            out.add(m.group(1) + _ZEROS.sub("", m.group(2)) + m.group(3) if m else clause)
        return out

    return clauses(a) == clauses(b)


def extra_only_requirements(path: str, text: str, parses: Parses) -> set[str]:
    """The PEP 503 names a `pyproject.toml`'s `[project.optional-dependencies]` or a
    `setup.cfg`'s `[options.extras_require]` lists and nothing the package itself needs does
    (its dependencies, `install_requires`, `[build-system] requires`, Poetry's main ones):
    an optional extra's requirement, which no plain install of the package asks for."""
    extras: list[str] = []
    needed: list[str] = []
    if path.endswith(".toml"):
        try:
            document = parses.toml(text)
        except tomllib.TOMLDecodeError:
            return set()
        project = document.get("project")
        listed = project.get("optional-dependencies") if isinstance(project, dict) else None
        for reqs in listed.values() if isinstance(listed, dict) else ():
            extras += [r for r in reqs if isinstance(r, str)] if isinstance(reqs, list) else []
        needed = _listed(document, runtime=True)
        needed += _build_requires(document)
    else:
        try:
            parser = parses.ini(text)
        except configparser.Error:
            return set()
        if parser.has_section("options.extras_require"):
            for _, value in parser.items("options.extras_require"):
                extras += re.split(r"[\n;]", value)
        for key in ("install_requires", "setup_requires"):
            if parser.has_option("options", key):
                needed += re.split(r"[\n;]", parser.get("options", key))

    def names(items: list[str]) -> set[str]:
        return {package_name(m.group(0)) for i in items if (m := _NAME.match(i.strip()))}

    return names(extras) - names(needed)
