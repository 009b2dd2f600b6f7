"""Public modules, class members and keyword parameters a change takes from callers, read
from its facts."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from bot.analysis.facts import (
    FileFact,
    MemberGone,
    Reached,
    Shift,
    SignatureChange,
    parameter_name,
)
from bot.analysis.facts.handed_out import EVERY
from bot.analysis.facts.importers import dotted
from bot.analysis.paths import private_module
from bot.analysis.signals import Signals
from bot.analysis.unreleased import never_released

# The folders a package's import path does not include (`src/pkg/mod.py` is `pkg.mod`).
_SOURCE_ROOTS = ("src", "lib", "python")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class LostParameters:
    """A public function of a public module that no longer takes these parameters by name."""

    function: str  # as a caller names it: `Config` for `Config.__init__`
    path: str
    names: tuple[str, ...]
    defined: str  # as defined: `Config.__init__`


def module_name(path: str) -> str:
    """The module a Python file is imported as: `pkg.sub.mod` for `src/pkg/sub/mod.py`."""
    return dotted(path)


def removed_modules(sig: Signals) -> tuple[str, ...]:
    """The public modules (dotted) whose file the change deletes or renames, with nothing in
    its place: `import pkg.mod` fails. A module counts only where it is seen to be a
    package's (under `src/`, or beside an `__init__.py` the change edits or that was read
    for it) and its interface: it declared its public names (`__all__`), or its package's
    `__init__.py` does (cachetools 97cb644 deleted `cachetools/abc.py`; a4f3125 renamed
    `lrucache.py` to `lru.py`), or stops importing it, or the change renames it to a private
    name (`pkg/mod.py` to `pkg/_mod.py`: its author says it was public until now). A module
    without any is the package's insides, as most of an application's are. Not where the
    package's `__init__.py` at the commit may answer the old path itself (`sys.modules`, a
    module `__getattr__`), nor one no release had (`bot/analysis/unreleased.py`). A package's
    `__init__.py` deleted is left out (what stays in the folder may still import)."""
    files = sig.facts.files
    present = {module_name(f.path) for f in files if f.status != "removed"}
    inits = {f.path.rpartition("/")[0] for f in files if f.path.endswith("/__init__.py")}
    packages = {p.path.rpartition("/")[0]: p for p in sig.facts.packages}
    listed = {folder for folder, p in packages.items() if p.listed}
    shims = {folder for folder, p in packages.items() if p.shim}
    exported = {f"{module_name(n.path)}.{n.name}" for n in sig.removed_exports}
    return tuple(renamed_packages(sig)) + tuple(
        name
        for f in files
        if (old := _gone_path(f)) is not None
        and _package_module(old, inits | set(packages))
        and (name := module_name(old)) not in present
        and (
            f.declared_all
            or name in exported
            or private_module(f.path)
            or old.rpartition("/")[0] in listed
        )
        and old.rpartition("/")[0] not in shims
        and f.path in sig.source_files
        # a plugin module its entry point follows to the new name (typeguard 047c6ca:
        # `pytest11` now names `typeguard._pytest_plugin`): a loader imports it, not a user
        and module_name(f.path) not in sig.facts.entry_modules
        and not never_released(sig, name)
    )


def renamed_packages(sig: Signals) -> dict[str, str]:
    """Public packages the change renames whole: the old folder's `__init__.py` deleted or
    renamed away, into a folder whose `__init__.py` is new, where it went or where a module
    of the old folder did (tomli 9e4e1d1 "Rename to Tomli": `ltoml/` to `tomli/`), the old
    name imported by no file at the commit: `import ltoml` fails. The old dotted name to the
    new; not one no release had (`bot/analysis/unreleased.py`)."""
    files = sig.facts.files
    present = {module_name(f.path) for f in files if f.status != "removed"}

    def folder(path: str) -> str:
        return path.rpartition("/")[0]

    gone = {
        folder(f.previous if f.status == "renamed" and f.previous else f.path)
        for f in files
        if f.status in ("removed", "renamed")
        and ((f.previous or "") if f.status == "renamed" else f.path).endswith("__init__.py")
    }
    fresh = {
        folder(f.path)
        for f in files
        if f.path.endswith("__init__.py") and f.status in ("added", "renamed")
    }
    moves = {
        (folder(f.previous), folder(f.path))
        for f in files
        if f.status == "renamed" and f.previous and f.path in sig.source_files
    }
    out: dict[str, str] = {}
    for old, new in moves:
        if old not in gone or new not in fresh or old == new:
            continue
        was, now = module_name(f"{old}/__init__.py"), module_name(f"{new}/__init__.py")
        if (
            was not in present
            and all(_IDENTIFIER.fullmatch(p) and not p.startswith("_") for p in was.split("."))
            and not private_module(f"{new}/__init__.py")
            and not never_released(sig, was)
        ):
            out[was] = now if out.get(was, now) == now else ""
    return {was: now for was, now in out.items() if now}


def renamed_modules(sig: Signals) -> dict[str, str]:
    """Of `removed_modules`, those the change renames to another public module: the old
    dotted name to the new (`cachetools.lrucache` to `cachetools.lru`), a package renamed
    whole among them."""
    gone = set(removed_modules(sig))
    return renamed_packages(sig) | {
        old: module_name(f.path)
        for f in sig.facts.files
        if f.status == "renamed"
        and f.previous
        and (old := module_name(f.previous)) in gone
        and f.path.endswith(".py")
        and not private_module(f.path)
    }


def _gone_path(f: FileFact) -> str | None:
    """The path a module was imported by that the change takes away: a deleted file's, or a
    renamed file's former path (a rename that keeps the module's name, into `src/`, takes
    nothing: `present` holds it)."""
    if f.status == "removed":
        return f.path
    if f.status == "renamed" and f.previous:
        return f.previous
    return None


def package_module(sig: Signals, path: str) -> bool:
    """Whether the Python file is seen to be a package's public module, as `removed_modules`
    reads one: under `src/` (`lib/`, `python/`), or beside an `__init__.py` the change edits
    or that was read for it. An application's folder of scripts is not."""
    inits = {f.path.rpartition("/")[0] for f in sig.facts.files if f.path.endswith("/__init__.py")}
    return _package_module(path, inits | {p.path.rpartition("/")[0] for p in sig.facts.packages})


def _package_module(path: str, inits: set[str]) -> bool:
    folder, _, file = path.rpartition("/")
    parts = path.removesuffix(".py").split("/")
    return (
        path.endswith(".py")
        and file not in ("__init__.py", "__main__.py", "conftest.py")
        and not private_module(path)
        and all(_IDENTIFIER.fullmatch(p) for p in parts[1:])
        and ((parts[0] in _SOURCE_ROOTS and len(parts) > 2) or folder in inits)
    )


def lost_parameters(sig: Signals) -> tuple[LostParameters, ...]:
    """Parameters a public function of a public module (or one its package hands out from a
    private module) no longer takes, where a caller passing one by name now gets a
    `TypeError`: not `*args` or `**kwargs` themselves, nor
    where the function still takes any keyword (`**kwargs`), nor one no release ever had
    (typeguard 658a3d6: `typechecked`'s `check_arguments`, added after 3.0.0b2)."""
    out = []
    for change in sig.facts.signatures_changed:
        function = _caller_name(change)
        names = tuple(
            name
            for p in change.lost
            if not p.lstrip().startswith("*")
            and not (name := parameter_name(p)).startswith("_")
            and name not in change.in_place
            and not never_released(sig, f"{change.name}({name})")
        )
        if function is None or not names or change.takes_any:
            continue
        if change.path in sig.source_files and _reached(sig, change.path, change.name):
            out.append(LostParameters(function, change.path, names, change.name))
    return tuple(out)


@dataclass(frozen=True)
class ShiftedParameter:
    """A public function of a public module whose positional parameter `shift.old` another
    parameter now stands in front of: a call passing it by position passes it as the other."""

    function: str  # as a caller names it
    path: str
    shift: Shift
    defined: str  # as defined: `Cache.__init__`


def shifted_parameters(sig: Signals) -> tuple[ShiftedParameter, ...]:
    """The positional parameters callers of a public function (read as `lost_parameters`
    reads one) pass to another parameter now: one inserted before it or moved ahead of it,
    where a release had the parameter (one no release had was passed by no one's call)."""
    out = []
    for change in sig.facts.signatures_changed:
        function = _caller_name(change)
        if function is None or change.path not in sig.source_files:
            continue
        if not _reached(sig, change.path, change.name):
            continue
        out += [
            ShiftedParameter(function, change.path, shift, change.name)
            for shift in change.shifted
            if not shift.old.startswith("_")
            and not never_released(sig, f"{change.name}({shift.old})")
        ]
    return tuple(out)


def inside(sig: Signals, path: str) -> bool:
    """A module its users do not import: private by its name (`httpx/_compat.py`), or public
    by it but handed out by no `__init__.py` or document read (`facts/exposure.py`:
    soupsieve's `css_parser.py`, which its package imports only as `cp`, left out of
    `__all__`)."""
    return private_module(path) or path in sig.facts.internal_modules


def _reached(sig: Signals, path: str, name: str) -> bool:
    """A public module's function or class (listed in its `__all__`, where the module
    lists one: a name left out of it is the module's own helper), or a private module's
    that a public package's `__init__.py` hands out (`from ._decorators import
    typechecked`; a method by its class)."""
    top = name.split(".", 1)[0]
    handed = set(sig.facts.handed_out)
    listed = dict(sig.facts.listed).get(path)
    # `from .m import *` takes what `m.__all__` lists, where it lists anything
    in_all = listed is None or top in listed
    if (path, top) in handed:
        return True
    return in_all and ((path, EVERY) in handed or not inside(sig, path))


def members_removed(sig: Signals) -> tuple[MemberGone, ...]:
    """The public methods and properties a change takes out of a public class's own body
    with nothing giving them back (`facts.members_gone`), where callers meet the class: a
    shipped module's, public by its name or handed out by its package's `__init__.py`, as
    `lost_parameters` reads a function's. (A private class's public members are
    `reached_losses`'.)"""
    return tuple(
        m
        for m in sig.facts.members_gone
        if m.path in sig.source_files
        and not m.cls.startswith("_")
        and _reached(sig, m.path, m.cls)
        # (one no release had breaks no user: `bot/analysis/unreleased.py`)
        and not never_released(sig, f"{m.cls}.{m.member}")
    )


def _caller_name(change: SignatureChange) -> str | None:
    """How a caller names the function (`Config` for `Config.__init__`); None for a private
    name or another dunder, which no caller passes arguments to by its name."""
    name = change.name.removesuffix(".__init__")
    if any(part.startswith("_") for part in name.split(".")):
        return None
    return name


@dataclass(frozen=True)
class ReachedLoss:
    """A public member of a private class a public function hands its callers
    (`facts.Reached`) that the change takes away: removed, renamed (`new`), or no longer
    taking `params` by name."""

    reached: Reached
    member: str
    new: str | None = None
    params: tuple[str, ...] = ()

    @property
    def shown(self) -> str:
        """The member as a caller writes it: `cache_open()`, a property bare."""
        return _called(self.reached, self.member)

    @property
    def shown_new(self) -> str:
        return _called(self.reached, self.new or "")


def _called(reached: Reached, member: str) -> str:
    return member if member in reached.attributes else f"{member}()"


def reached_losses(sig: Signals) -> tuple[ReachedLoss, ...]:
    """What callers of a public function lose from the private class it hands them, proven
    at the parent (`facts.reached`), in a shipped module public by its name: a public member
    removed or renamed, or a parameter a public method no longer takes by name. The same
    member of two classes one function hands out (a wrapper and its bound form) is one."""
    by_class = {
        (r.path, r.cls): r
        for r in sig.facts.reached
        if r.path in sig.source_files and not inside(sig, r.path)
    }
    if not by_class:
        return ()

    def owner(path: str, name: str) -> tuple[Reached, str] | None:
        cls, _, member = name.partition(".")
        found = by_class.get((path, cls))
        if found is None or "." in member or member.startswith("_"):
            return None
        return found, member

    out: list[ReachedLoss] = []
    for n in sig.facts.removed:
        # (a member its instances still have as an attribute, `self.size = size`, is kept)
        if (hit := owner(n.path, n.name)) is not None and hit[1] not in hit[0].kept:
            out.append(ReachedLoss(*hit))
    for pair in sig.facts.renamed:
        hit = owner(pair.old.path, pair.old.name)
        new = owner(pair.new.path, pair.new.name)
        if hit is not None and new is not None and new[0] == hit[0] and hit[1] not in hit[0].kept:
            out.append(ReachedLoss(*hit, new=new[1]))
    for change in sig.facts.signatures_changed:
        hit = owner(change.path, change.name)
        names = tuple(
            name
            for p in change.lost
            if not p.lstrip().startswith("*") and not (name := parameter_name(p)).startswith("_")
        )
        if hit is not None and names and not change.takes_any:
            out.append(ReachedLoss(*hit, params=names))
    gone = {(x.reached, x.member) for x in out if not x.params}
    lost = {(x.reached, x.member): set(x.params) for x in out if x.params}

    def everywhere(loss: ReachedLoss) -> bool:
        # each class the same function hands out that had the member loses it too (caeb9a0:
        # the bound form's `cache_close` still took `cancel`): else some callers keep it
        return all(
            (other, loss.member) in gone
            or (bool(loss.params) and set(loss.params) <= lost.get((other, loss.member), set()))
            for other in by_class.values()
            if other.via == loss.reached.via
            and other.path == loss.reached.path
            and loss.member in other.members
        )

    seen: set[tuple[str, bool, str, str | None, tuple[str, ...]]] = set()
    kept = []
    for loss in out:
        key = (loss.reached.via, loss.reached.decorator, loss.member, loss.new, loss.params)
        if key not in seen and everywhere(loss):
            seen.add(key)
            kept.append(loss)
    return tuple(kept)


def released_losses(sig: Signals) -> tuple[ReachedLoss, ...]:
    """`reached_losses` less what no release ever had (a member, a parameter): what callers
    of a release lose."""
    out = []
    for loss in reached_losses(sig):
        if never_released(sig, f"{loss.reached.via}.{loss.member}"):
            continue
        params = tuple(p for p in loss.params if not never_released(sig, p))
        if not loss.params or params:
            out.append(dataclasses.replace(loss, params=params))
    return tuple(out)
