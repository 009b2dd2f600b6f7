"""A name a module stops exporting that it only imported: a re-export dropped, not a removal."""

from __future__ import annotations

from bot.analysis.facts.records import Reexport
from bot.analysis.facts.scan import FileReading, Side

# Folders a Python package's import name does not include (`src/pkg/mod.py` is `pkg.mod`).
_SOURCE_ROOTS = frozenset({"src", "lib", "python"})


def dropped_reexport(
    name: str, reading: FileReading, readings: list[FileReading], whole: set[str] | frozenset[str]
) -> Reexport | None:
    """`name`, which `reading`'s Python module exported at the parent and no longer does, as
    a re-export dropped: the parent only imported it (`from origin import name`) from a
    public module, and that origin still provides it, being unchanged or still defining,
    importing or exporting it at the commit. None when the module defined it itself, is a
    package's `__init__`, or its origin is private or lost it too (then it is gone for callers)."""
    module = reading.minus.imports.get(name)
    # Python only, where any module can be imported from: a Rust `pub use` of a private
    # `mod` (or a JavaScript package's internal file) is the only way in
    if not module or not reading.path.endswith((".py", ".pyi")):
        return None
    if reading.path.rsplit("/", 1)[-1] in ("__init__.py", "__init__.pyi"):
        # a package's `__init__` is where its callers import from (`from pkg import X`):
        # a name dropped there breaks them, wherever it is still defined
        return None
    absolute = _absolute(module, reading.path)
    if any(part.startswith("_") for part in absolute.split(".")):
        # a private module's name was public only through this one
        return None
    # `from m import save as store`: the origin has `save`
    original = reading.minus.aliases.get(name)
    defined = original or name
    origin = _changed(absolute, readings)
    if origin is None:
        # the origin is not among the changed files: it still provides what it did
        return Reexport(name, reading.path, absolute, original)
    if _provides(origin.plus, defined):
        return Reexport(name, reading.path, origin.path, original)
    if origin.path in whole or defined in origin.minus.defs or defined in origin.minus.assigned:
        # read whole and no longer there, or its definition is among the removed lines
        return None
    return Reexport(name, reading.path, origin.path, original)


def removed_origin(name: str, reading: FileReading, readings: list[FileReading]) -> str | None:
    """The path of the changed file that defined `name` at the parent, where `reading`'s
    module only imported it (by that name) and re-exported it: a name gone for callers is
    removed there, one fact with one path, not also from each module that re-exported it."""
    module = reading.minus.imports.get(name)
    if not module or name in reading.minus.aliases or name in reading.minus.defs:
        return None
    origin = _changed(_absolute(module, reading.path), readings)
    if origin is None or (name not in origin.minus.defs and name not in origin.minus.assigned):
        return None
    return origin.path


def _provides(side: Side, name: str) -> bool:
    return (
        name in side.defs
        or name in side.assigned
        or name in side.imports
        or name in side.exports
        or side.lazy
    )


def _changed(module: str, readings: list[FileReading]) -> FileReading | None:
    """The changed Python file that is `module`, if any."""
    return next((r for r in readings if _module_of(r.path) == module), None)


def _module_of(path: str) -> str | None:
    """`pkg.mod` for `src/pkg/mod.py` or `pkg/mod/__init__.py`; None for no Python file."""
    if not path.endswith((".py", ".pyi")):
        return None
    parts = path.rsplit(".", 1)[0].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    while len(parts) > 1 and parts[0] in _SOURCE_ROOTS:
        parts = parts[1:]
    return ".".join(parts)


def _absolute(module: str, path: str) -> str:
    """A relative import's module as an absolute one, from the importing file's path:
    `.store` in `pkg/jobs/run.py` is `pkg.jobs.store`; an absolute one as written."""
    level = len(module) - len(module.lstrip("."))
    if not level:
        return module
    package = (_module_of(path) or "").split(".")
    if not path.endswith(("/__init__.py", "/__init__.pyi")):
        package = package[:-1]
    base = package[: len(package) - (level - 1)] if level > 1 else package
    rest = module[level:]
    return ".".join([*base, rest] if rest else base)
