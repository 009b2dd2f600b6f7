"""Changes proven to reach nothing a user installs: tooling, build plumbing, typing, docs."""

from __future__ import annotations

import re

from bot.analysis.facts.annotated import quiet_classes
from bot.analysis.facts.layout import QuietClass, same_code, same_settings
from bot.analysis.facts.parses import Parses
from bot.analysis.facts.scan import hunks
from bot.analysis.facts.surface import same_stub
from bot.analysis.facts.workflows import release_runners
from bot.analysis.packaging_files import ROOT_METADATA
from bot.analysis.paths import PathKind, dev_tooling, path_kind
from bot.analysis.root_modules import shipped_root_files
from bot.analysis.setup_metadata import descriptive_only
from bot.analysis.signals import Signals
from bot.models import CommitInput, FileChange

# A CI line about the wheels or sdists a release builds: what is shipped, not dev tooling.
_SHIPPED_BUILD = re.compile(
    r"wheel|cibuildwheel|CIBW_|manylinux|musllinux|maturin|sdist|free-?thread", re.IGNORECASE
)
# An in-tree PEP 517 build backend (aio-libs' `packaging/pep517_backend/`): code that runs
# only while a wheel is built, never imported by the package.
_BUILD_BACKEND = re.compile(r"(^|/)[^/]*(?:pep[-_]?517|build)[-_]backend[^/]*/[^/]+\.py$")
# News fragments about the project's own workings: the changelog says no user meets them.
# (a `doc` fragment announces pages, which no install holds: aiohttp 421eb60's threat model)
_INTERNAL_FRAGMENTS = frozenset({"contrib", "misc", "internal", "trivial", "doc", "docs"})
_QUIET_KINDS = frozenset({PathKind.DOCS, PathKind.TESTS, PathKind.LEGAL})
# Where a settings file lies (`pyproject.toml`, `setup.cfg` are build files)
_SETTINGS_KINDS = frozenset({PathKind.CONFIG, PathKind.BUILD})
# A file manager's notes about a folder (macOS Finder's, Windows Explorer's): no code reads
# one, wherever it lies (aiohappyeyeballs 1697869 committed `src/.DS_Store`).
_DESKTOP_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
# The project's list of who wrote it, at the top (aiohttp's `CONTRIBUTORS.txt`): no code reads it.
_CREDITS = re.compile(r"^(?:CONTRIBUTORS|AUTHORS|CREDITS|THANKS)(?:\.(?:txt|md|rst))?$")


# A command that installs packages (`pip install -U pytest coveralls wheel`): the `wheel`
# package among its arguments is a tool for a build, a release's only where the file publishes
_INSTALL = re.compile(r"\b(?:pip3?|uv\s+pip)\s+install\b")
_WHEEL_TOOL = re.compile(r"(?<![\w.\[-])wheel(?![\w.-])")
# A step that uploads what was built to an index: the file makes a release
_PUBLISH = re.compile(
    r"twine\s+upload|pypi-publish|\b(?:poetry|flit|uv|hatch|pdm)\s+publish\b", re.IGNORECASE
)


def _publishes(f: FileChange) -> bool:
    """Whether either revision of a CI file uploads to an index (unknown texts: assumed so)."""
    sides = f.sides
    if sides is None:
        return True
    return any(_PUBLISH.search(text) for text in sides)


def shipped_build_line(f: FileChange, parses: Parses) -> bool:
    """A CI file's patch adds or removes a line about the wheels or sdists a release builds,
    or moves a release's per-platform build to another runner (`workflows.release_runners`).
    The `wheel` package a `pip install` line names is a release's only in a file that
    publishes (tinydb ec57f83 dropped it from a test job's tools)."""
    changed = [line[1:] for line in (f.patch or "").split("\n") if line.startswith(("+", "-"))]
    if not _publishes(f):
        changed = [_WHEEL_TOOL.sub("", line) if _INSTALL.search(line) else line for line in changed]
    if same_settings(f, parses):
        # re-indented, re-quoted, reordered: the workflow every runner reads is the same
        return False
    return any(_SHIPPED_BUILD.search(line) for line in changed) or bool(release_runners(f, parses))


# A changed line no annotation, stub or docstring edit writes (prose that opens so, in a
# docstring, only costs the proof: the change stays unproven)
_STATEMENT = re.compile(
    r"^[-+]\s*(?:return|raise|elif|else|for|while|with|try|except|finally|yield|await|del"
    r"|assert|lambda|break|continue|pass|global|nonlocal|if)\b"
)


# A title that says the code was reformatted or linted (aiodns 924b981 "Reformat code and
# normalize end-of-line characters", a `style:` prefix): statements rewritten are parsed.
_RESTYLED = re.compile(
    r"\b(?:re-?format\w*|format(?:s|ted|ting|ter)?|ruff|black|isort|flake8|pylint|pyupgrade"
    r"|autopep8|yapf|lint\w*|code style|style|code syntax|pre-commit|end[- ]of[- ]lines?"
    r"|line[- ]endings?|whitespace|spacing|indentation|moderni[sz]\w*)\b",
    re.IGNORECASE,
)


def _typing_only(
    f: FileChange, *, restyled: bool = False, quiet: QuietClass | None = None
) -> str | None:
    """ "typing" for a type stub that says the same to a type checker, the `py.typed` marker,
    or a module whose code is the same once what only a type checker reads is set aside
    (`layout.same_code`; `quiet`: the classes with bases that read no annotations);
    "layout" for one whose statements a linter rewrote into the same
    code (`elif` after a `return`), parsed only where the title says so (`restyled`)."""
    name = f.filename.rsplit("/", 1)[-1]
    if name == "py.typed":
        return "typing"
    if name.endswith(".pyi"):
        sides = f.sides
        same = f.status == "modified" and sides is not None and same_stub(*sides)
        return "typing" if same else None
    sides = f.sides
    checked = sides is not None and "TYPE_CHECKING" in sides[1]
    if not checked and any(_STATEMENT.match(line) for line in (f.patch or "").split("\n")):
        # a statement changed (not in a block only a type checker enters): no parse can
        # prove it the same code, unless the title says a formatter or a linter wrote it
        return "layout" if restyled and same_code(f) else None
    return "typing" if same_code(f, typing=True, quiet=quiet) else None


def _blank_only(f: FileChange) -> bool:
    """A file (not Python, where an indent is code) whose two revisions differ only in
    trailing spaces and blank lines at its end (aiodns 924b981: a `MANIFEST.in`'s last blank
    line): a blank line between two lines may end a block, and counts. Read from the whole
    texts where known, else from the patch (a hunk that ends in a changed line ends the file)."""
    if f.status != "modified" or f.filename.endswith((".py", ".pyi")):
        return False
    sides = f.sides
    if sides is not None:
        before, after = ([line.rstrip() for line in text.rstrip().split("\n")] for text in sides)
        return before == after
    if not f.patch:
        return False
    for hunk in hunks(f.patch):
        lines = [(sign, text.rstrip()) for sign, text in hunk.lines]
        ends = len(lines)
        while ends and lines[ends - 1][0] != " " and not lines[ends - 1][1]:
            ends -= 1
        body = lines[:ends]
        if [t for sign, t in body if sign == "-"] != [t for sign, t in body if sign == "+"]:
            return False
    return True


# A module's version string, and nothing else, changed (trio-websocket aeb5f60 "fix version
# (accidental dev suffix)": `__version__ = '0.10.2-dev'` → `'0.10.2'`): a release's plumbing,
# no code a user runs; so is the time it was stamped (`__version_time__ = "23 Nov 2025 11:05 UTC"`).
_VERSION_LINE = re.compile(
    r"""^[-+](?:(?:__version__|VERSION)\s*(?::\s*str\s*)?=\s*(['"])[\w.+!-]*\1"""
    r"""|__version_(?:time|date)__\s*(?::\s*str\s*)?=\s*(['"])[\w .:,/+-]*\2)\s*$"""
)


def version_only(f: FileChange) -> bool:
    """A module whose version string (or the time it was stamped) is all that changed."""
    changed = [
        line
        for line in (f.patch or "").split("\n")
        if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))
    ]
    return (
        f.status == "modified"
        and f.filename.endswith(".py")
        and bool(changed)
        and all(_VERSION_LINE.match(line) for line in changed)
    )


def _script(f: FileChange, roots: frozenset[str] | None) -> bool:
    """A Python file at the top (at both its paths) that the wheel, as the packaging files
    declare it (`roots`: the top files it holds), does not hold: a maintainer's script
    (bidict's `cachegrind.py` beside `bidict/`, xmltodict's `ez_setup.py` beside
    `py_modules=['xmltodict']`)."""
    return roots is not None and all(
        "/" not in path and path.endswith(".py") and path not in ROOT_METADATA and path not in roots
        for path in (f.filename, f.previous_filename or f.filename)
    )


def _unshipped(
    f: FileChange,
    sig: Signals,
    quiet: QuietClass | None = None,
    roots: frozenset[str] | None = None,
) -> str | None:
    """What the file is when no user meets its change ("tooling", "build", "typing",
    "docs", "scripts"), else None. `roots`: the Python files at the top the wheel holds,
    where the packaging files say."""
    kind = path_kind(f.filename)
    if f.filename.rsplit("/", 1)[-1] in _DESKTOP_FILES or _CREDITS.match(f.filename):
        return "docs"
    if kind is PathKind.CI:
        return None if shipped_build_line(f, sig.parses) else "tooling"
    if path_kind(f.filename) in _SETTINGS_KINDS and same_settings(f, sig.parses):
        # a table moved, keys reordered, comments or quoting: every reader of it (a build,
        # an installer, a tool) reads the same content at both revisions
        return "settings layout"
    if dev_tooling(f):
        return "tooling"
    if kind in _QUIET_KINDS or f.filename in sig.layout_only:
        return "docs"
    if version_only(f):
        return "the version string"
    if _script(f, roots):
        return "scripts"
    if _BUILD_BACKEND.search(f.filename) and (
        f.previous_filename is None or _BUILD_BACKEND.search(f.previous_filename)
    ):
        return "build"
    if _blank_only(f):
        return "layout"
    sides = f.sides
    if (
        f.filename.rsplit("/", 1)[-1] == "setup.py"
        and f.status == "modified"
        and sides is not None
        and descriptive_only(*sides)
    ):
        return "the project's links and authors"
    # last, as it parses both revisions again
    restyled = bool(_RESTYLED.search(sig.title.text)) or sig.title.conventional == "style"
    return _typing_only(f, restyled=restyled, quiet=quiet)


def _root_metadata(commit: CommitInput) -> dict[str, str] | None:
    """The packaging files at the top, at the commit: those it changes (not those it
    removes) and those read beside it (`CommitInput.modules`); None where a changed one's
    text is not known, or none is."""
    texts = {p: t for p, t in commit.modules if p in ROOT_METADATA}
    for f in commit.files:
        if f.filename in ROOT_METADATA:
            texts.pop(f.filename, None)
            if f.status == "removed":
                continue
            if f.after is None:
                return None
            texts[f.filename] = f.after
    return texts or None


def _parsed(f: FileChange, fragments: set[str]) -> bool:
    """Whether `_unshipped` may parse the file (a Python module or stub, not otherwise
    tooling, docs or build)."""
    return f.filename not in fragments and f.filename.endswith((".py", ".pyi"))


def unshipped_only(commit: CommitInput, sig: Signals) -> str | None:
    """What the change is, when every file it changes is proven to reach nothing a user
    installs: CI (no line about the wheels a release builds), dev tooling and its settings
    (`paths.dev_tooling`, a `setup.cfg`'s linters' sections among them), docs, tests, an
    in-tree build backend, type stubs saying the same, annotations alone, code a formatter or
    a linter rewrote into the same, blank lines, or a settings file that parses the same at
    both revisions (`layout.same_settings`); and every news
    fragment it adds is of a contributors' kind (a `packaging` or `bugfix` one is written
    for users). None otherwise."""
    if not commit.files_known or not commit.files:
        return None
    fragments = {f.path for f in sig.fragments}
    if any(f.type not in _INTERNAL_FRAGMENTS for f in sig.fragments):
        return None
    found: set[str] = set()
    quiet = quiet_classes(commit.files, commit.modules)
    metadata = _root_metadata(commit)
    roots = shipped_root_files(metadata, sig.parses) if metadata is not None else None
    # the files proven without a parse first: one that is plainly shipped spares the rest's
    for parse in (False, True):
        for f in commit.files:
            if _parsed(f, fragments) is not parse:
                continue
            what = "docs" if f.filename in fragments else _unshipped(f, sig, quiet, roots)
            if what is None:
                return None
            found.add(what)
    said = [
        w
        for w in (
            "build",
            "scripts",
            "typing",
            "layout",
            "tooling",
            "settings layout",
            "the version string",
            "the project's links and authors",
        )
        if w in found
    ]
    return ", ".join(said) if said else None
