"""The Python files at a project's top its wheel holds, where its packaging files say."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from collections.abc import Mapping

from bot.analysis.facts.parses import Parses
from bot.analysis.facts.pyfile import PARSE_ERRORS

# Backends that put only the project's own module in a wheel, named by one setting or by
# the project (uv's `module-name`, flit's `[tool.flit.module] name`)
_ONE_MODULE = frozenset({"uv_build", "flit_core.buildapi"})
_SETUPTOOLS = frozenset({"setuptools.build_meta", "setuptools.build_meta:__legacy__"})


class _Unknown(Exception):
    """What the build ships is not stated in the files' literals (a variable, `**kwargs`)."""


def _strings(node: ast.expr) -> list[str]:
    """A list or tuple of string literals; _Unknown otherwise."""
    if not isinstance(node, ast.List | ast.Tuple):
        raise _Unknown
    out: list[str] = []
    for item in node.elts:
        if not isinstance(item, ast.Constant) or not isinstance(item.value, str):
            raise _Unknown
        out.append(item.value)
    return out


def _setup_py(text: str) -> tuple[set[str], bool]:
    """The top-level files a `setup.py`'s one `setup(…)` call ships (its `py_modules` and
    its `scripts`), and whether it names what ships at all (`py_modules` or `packages`)."""
    try:
        tree = ast.parse(text)
    except PARSE_ERRORS:
        raise _Unknown from None
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and (n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", None))
        == "setup"
    ]
    if len(calls) != 1 or calls[0].args:
        raise _Unknown
    files: set[str] = set()
    named = False
    for k in calls[0].keywords:
        if k.arg is None:
            raise _Unknown  # `**options`: any keyword
        if k.arg == "py_modules":
            files |= {f"{m}.py" for m in _strings(k.value) if "." not in m}
            named = True
        elif k.arg == "packages":
            named = True
        elif k.arg == "scripts":
            files |= {s for s in _strings(k.value) if "/" not in s}
    return files, named


def _lines(value: str) -> list[str]:
    return [v.strip() for v in re.split(r"[\n,]", value) if v.strip()]


def _setup_cfg(text: str) -> tuple[set[str], bool]:
    """What a `setup.cfg`'s `[options]` ship, read as `_setup_py` reads the call."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        raise _Unknown from None
    if not parser.has_section("options"):
        return set(), False
    options = parser["options"]
    files = {f"{m}.py" for m in _lines(options.get("py_modules", "")) if "." not in m}
    files |= {s for s in _lines(options.get("scripts", "")) if "/" not in s}
    return files, "py_modules" in options or "packages" in options


def _project_module(document: dict[str, object], settings: object) -> str | None:
    """The module a one-module backend ships: its setting's, else the project's name."""
    name = settings.get("module-name") if isinstance(settings, dict) else None
    if name is None:
        project = document.get("project")
        name = project.get("name") if isinstance(project, dict) else None
    if not isinstance(name, str):
        return None
    return re.sub(r"[-.]+", "_", name).lower() if "-" in name or "." in name else name


def shipped_root_files(texts: Mapping[str, str], parses: Parses) -> frozenset[str] | None:
    """The Python files at the top (`xmltodict.py`) a wheel built from these packaging files
    (`texts`: file name at the top → its text at the commit) holds; None where the files do
    not say (setuptools' discovery, a backend not read here, a value computed)."""
    document: dict[str, object] = {}
    if "pyproject.toml" in texts:
        try:
            document = parses.toml(texts["pyproject.toml"])
        except tomllib.TOMLDecodeError:
            return None
    system = document.get("build-system")
    backend = system.get("build-backend") if isinstance(system, dict) else None
    tool = document.get("tool")
    tool = tool if isinstance(tool, dict) else {}
    try:
        if backend in _ONE_MODULE:
            if backend == "uv_build":
                uv = tool.get("uv")
                settings = uv.get("build-backend") if isinstance(uv, dict) else None
                root = settings.get("module-root", "src") if isinstance(settings, dict) else "src"
            else:
                flit = tool.get("flit")
                settings = flit.get("module") if isinstance(flit, dict) else None
                root = ""
            module = _project_module(document, settings)
            if module is None:
                return None
            return frozenset({f"{module}.py"} if root == "" else ())
        if backend is not None and backend not in _SETUPTOOLS:
            return None
        files: set[str] = set()
        named = False
        own = tool.get("setuptools")
        if isinstance(own, dict):
            modules = own.get("py-modules")
            if isinstance(modules, list):
                files |= {f"{m}.py" for m in modules if isinstance(m, str) and "." not in m}
            named = "py-modules" in own or "packages" in own
        for name, read in (("setup.cfg", _setup_cfg), ("setup.py", _setup_py)):
            if name in texts:
                found, said = read(texts[name])
                files |= found
                named = named or said
    except _Unknown:
        return None
    return frozenset(files) if named else None
