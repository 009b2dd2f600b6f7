"""Which changed files are worth reading whole at both revisions, and within what bounds."""

from __future__ import annotations

import builtins
import re

from cachetools import LRUCache

from bot.analysis.facts.exposure import internal_modules
from bot.analysis.facts.importers import dotted
from bot.analysis.facts.scan import hunks
from bot.analysis.packaging_files import PACKAGING_FILES, ROOT_METADATA
from bot.analysis.paths import (
    PathKind,
    language_of,
    module_paths,
    path_kind,
    private_module,
    tooling_path,
)
from bot.models import FileChange

# Files read whole a commit: the parses stay within the rules' 50 ms a commit, and online the
# blobs ride on one GraphQL query, whose cost and response size grow with each alias.
MAX_SOURCE_FILES = 12
# Bytes of one side of one file: GitHub's GraphQL `Blob.text` is cut beyond about 512 KB
# (`isTruncated`), and a file that large is generated or vendored more often than written.
MAX_SOURCE_BYTES = 512 * 1024
# Bytes of all sides of a commit's files together, so one commit's memory stays bounded.
MAX_COMMIT_SOURCE_BYTES = 4 * 1024 * 1024

# Texts kept (None: missing, binary, not UTF-8 or over the bounds) across commits and rounds.
_CACHED_BLOBS = 2048
BlobCache = LRUCache[str, str | None]

# Documents whose headings are read (`facts/documents.py`).
DOCUMENTS = (".md", ".markdown")
# How many packaging files (`packaging_files.py`) a commit: a monorepo's release touches one
# per package.
_PACKAGING_FILES = 2
# Workflows whose steps' action pins change (`uses: owner/name@ref`): a step the file keeps
# at the old ref tells one step's update from the file's (`facts/documents.py`).
_WORKFLOW = re.compile(r"(?:^|/)(?:\.github/.*\.ya?ml|action\.ya?ml)$")
_USES_CHANGED = re.compile(r"^[-+][ \t]*(?:-[ \t]+)?uses:", re.MULTILINE)
# ... or a CI file whose changed line installs the `wheel` package (a release's tool only where
# the file publishes: `unshipped.shipped_build_line`)
_WHEEL_INSTALLED = re.compile(r"^[-+](?![-+]).*\bpip3?\s+install\b.*\bwheel\b", re.MULTILINE)
# ... or whose runners change (`facts/workflows.py`: a release's binaries built elsewhere)
_RUNNER_CHANGED = re.compile(
    r"^[-+](?![-+]).*\b(?:runs-on|ubuntu|windows|macos)\b", re.MULTILINE | re.IGNORECASE
)
# A requirements file, maybe a resolver's lock (its header says what it was compiled from:
# `paths.compiled_for_tools`)
_REQUIREMENTS = re.compile(r"(?:^|/)requirements(?:[^/]*|/[^/]*)\.txt$")
# Settings files whose patch removes the lines it adds, spacing, quoting and comments aside:
# a table moved, keys reordered. Read whole, both sides parse to the same content or not
# (`layout.same_settings`).
_SETTINGS = re.compile(r"\.(?:toml|ya?ml|json|ini|cfg)$")
_INLINE_COMMENT = re.compile(r"\s+[#;][^\"']*$")
# Generated or vendored code: its definitions are nobody's change (protobuf, minified, lock).
_GENERATED = re.compile(r"(?:_pb2(?:_grpc)?\.pyi?|\.pb\.(?:cc|h)|\.min\.js|\.generated\.\w+)$")
_VENDORED = re.compile(r"(?:^|/)(?:vendor|third_party|_vendor)/")
# A generator's mark on a comment line among a file's first: what a tool writes says what
# the tool was asked, not what anyone wrote. Prose about generating (a docstring) is no mark.
_GENERATED_MARK = re.compile(
    r"^\s*(?:#|//|/\*|\*|--|<!--).*?(?:"
    r"\b(?:file|code|this)\s+(?:is|was)\s+(?:automatically\s+|auto-?)?generated"
    r"|\bauto-?generated\b|\bgenerated\s+by\b|\bdo\s+not\s+edit\b|@generated\b)",
    re.IGNORECASE | re.MULTILINE,
)
_HEAD_LINES = 5


def worth_reading(files: list[FileChange]) -> list[FileChange]:
    """The changed files to read whole, at most `MAX_SOURCE_FILES`, in the order their
    texts are fetched within the bounds: packaging metadata (small, and what installs
    see), code a parser reads, not generated or vendored, then Markdown documents (a
    heading the file already had is not a new section), then the other `pyproject.toml`
    files (which table a changed line lies in tells dev tools' settings from what is
    shipped: `paths.dev_tooling`), then requirements files (a resolver's header says
    whose environment it locks), then workflows whose action pins or runners change, then
    settings files whose patch only moves their lines; the rest keep their patch."""
    kept = [
        f for f in files if not _GENERATED.search(f.filename) and not _VENDORED.search(f.filename)
    ]
    code = [f for f in kept if language_of(f.filename) is not None]
    documents = [f for f in kept if f.filename.endswith(DOCUMENTS)]
    packaging = [f for f in kept if f.filename.rsplit("/", 1)[-1] in PACKAGING_FILES]
    first = packaging[:_PACKAGING_FILES]
    if any(_REQUIREMENTS.search(f.filename) for f in kept):
        # whether its `setup(install_requires=…)` reads a changed requirements file tells the
        # package's pins from the developers' (glom bc653da: 28 modules before its setup.py)
        first += [f for f in code if f.filename.rsplit("/", 1)[-1] == "setup.py"][:_PACKAGING_FILES]
    projects = [
        f for f in kept if f.filename.rsplit("/", 1)[-1] == "pyproject.toml" and f not in first
    ]
    workflows = [
        f
        for f in kept
        if (
            _WORKFLOW.search(f.filename)
            and (_USES_CHANGED.search(f.patch or "") or _RUNNER_CHANGED.search(f.patch or ""))
        )
        or (path_kind(f.filename) is PathKind.CI and _WHEEL_INSTALLED.search(f.patch or ""))
    ]
    # (one the dev tools' by its name alone is read from its patch)
    locks = [
        f
        for f in kept
        if _REQUIREMENTS.search(f.filename) and not tooling_path(f.filename) and f not in first
    ]
    reordered = [
        f
        for f in kept
        if _SETTINGS.search(f.filename)
        and f not in first
        and f not in projects
        and f not in workflows
        and _same_lines(f.patch or "")
    ]
    code = [f for f in code if f not in first]
    return [*first, *code, *documents, *projects, *locks, *workflows, *reordered][:MAX_SOURCE_FILES]


def _same_lines(patch: str) -> bool:
    """Whether a patch removes the very lines it adds, in any order (spacing, quotes and
    comments aside): a settings file's tables moved or keys reordered."""
    sides: dict[str, list[str]] = {"-": [], "+": []}
    for line in patch.split("\n"):
        mark = line[:1]
        if mark not in sides or line.startswith(("+++", "---")):
            continue
        body = _INLINE_COMMENT.sub("", line[1:]).strip()
        if body and not body.startswith(("#", ";", "//")):
            sides[mark].append("".join(body.replace("'", '"').split()))
    return bool(sides["+"]) and sorted(sides["-"]) == sorted(sides["+"])


def generated(path: str, head: str = "") -> bool:
    """Whether a file is a generator's output: by its name, or by a mark in the first lines
    of `head` (its text, or the start of an added file's patch)."""
    if _GENERATED.search(path):
        return True
    if _REQUIREMENTS.search(path) and not tooling_path(path):
        # a resolver's lock (pip-compile's header) is the pins it was asked for: read as
        # requirements, the dev tools' or what the application runs (`paths.compiled_for_tools`)
        # (one the dev tools' by its name stays as it was: generated, where its mark shows)
        return False
    return bool(_GENERATED_MARK.search("\n".join(head.split("\n", _HEAD_LINES)[:_HEAD_LINES])))


def blob_cache() -> BlobCache:
    """Blob texts by a key that names one content forever: a blob id, or a full commit sha
    with a path."""
    return LRUCache(maxsize=_CACHED_BLOBS)


def revisions(sha: str, f: FileChange, parent: str | None = None) -> dict[str, str]:
    """The `REV:path` expressions of a file's two sides (`before`, `after`) where they exist;
    the parent as `sha^`, the first parent, as GitHub's "get a commit" compares, or by its
    own sha where it is known: then a file the parent changed is one key, asked once."""
    out = {}
    if f.status != "added":
        out["before"] = f"{parent or sha + '^'}:{f.previous_filename or f.filename}"
    if f.status != "removed":
        out["after"] = f"{sha}:{f.filename}"
    return out


# Modules a commit does not change, read whole (once: the same text at both revisions)
# because a changed file's patch swaps one raised exception for another imported from there:
# two names of one class (`InvalidHash = InvalidHashError`) are no new exception for callers.
MAX_MODULES = 2
_RAISED = re.compile(r"^([-+])[ \t]*raise[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
_FROM_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.MULTILINE
)


def modules_named(
    files: list[FileChange], *, patches_only: bool = False, title: str = ""
) -> list[str]:
    """The paths (each module's `.py` and `/__init__.py`) of at most `MAX_MODULES` modules
    of the tree, not changed by the commit, that a changed Python file read whole imports an
    exception from that its patch raises on one side and not the other; the public
    package's `__init__.py` where a private module's public function changes
    (`_package_init`); the modules a class's bases are imported from where the class's own
    annotations change (`_bases_imported`); and the metadata files beside one that newly
    names a Python requirement (`_metadata_beside`); the package's `__init__.py` a public
    module is deleted or renamed out of (`_packages_left`); the root's metadata files where
    the `title` says which Pythons are supported (`_metadata_of_title`), or where a Python
    file at the top changes (`_metadata_of_root_scripts`).

    `patches_only`: the changed files' texts are not read yet (online, where these modules
    ride on the one query that reads them), so a file worth reading is searched for its
    imports in the lines its patch shows: an import outside the hunks is not seen, and the
    module it names is not read (its exception swap then goes unsaid); nor are a class's
    bases' modules (they need the texts), so online an annotation in a derived class stays
    code."""
    changed = {p for f in files for p in (f.filename, f.previous_filename) if p}
    wanted: list[str] = []
    for f, texts in _import_texts(files, patches_only):
        raised: dict[str, set[str]] = {"-": set(), "+": set()}
        for sign, name in _RAISED.findall(f.patch or ""):
            raised[sign].add(name)
        swapped = {n for n in raised["-"] ^ raised["+"] if not hasattr(builtins, n)}
        if not raised["-"] or not raised["+"] or not swapped:
            continue
        for text in texts:
            for module, bound in _from_imports(text):
                if not bound & swapped:
                    continue
                paths = module_paths(f.filename, module)
                if paths and not changed & set(paths) and paths[0] not in wanted:
                    wanted += paths
    wanted = wanted[: 2 * MAX_MODULES]
    init = _package_init(files, changed)
    wanted = [*wanted, init] if init is not None and init not in wanted else wanted
    wanted += [p for p in _bases_imported(files, changed) if p not in wanted]
    wanted += [p for p in _packages_left(files, changed) if p not in wanted]
    wanted += [p for p in packages_of_losses(files, changed) if p not in wanted]
    wanted += [p for p in _metadata_beside(files, changed) if p not in wanted]
    wanted += [p for p in _metadata_of_requirements(files, changed) if p not in wanted]
    wanted += [p for p in _metadata_of_root_scripts(files, changed) if p not in wanted]
    wanted += [p for p in _metadata_of_title(title, changed) if p not in wanted]
    wanted += [p for p in _readme_of_settings(files, changed) if p not in wanted]
    return [*wanted, *(p for p in _type_markers(files, changed) if p not in wanted)]


# A top-level assignment of a public name a patch removes (`-PRESERVE_WHITESPACE = False`), or
# a line naming a constant (`-        if not PRESERVE_WHITESPACE:`)
_SETTING_REMOVED = re.compile(
    r"^-(?!--)(?:[A-Za-z]\w*\s*(?::[^=\n]*)?=(?!=)|.*\b[A-Z][A-Z0-9]*_[A-Z0-9_]*\b)", re.MULTILINE
)
# The root's readme, where users are told which settings to set
_READMES = ("README.md", "README.rst")


def _readme_of_settings(files: list[FileChange], changed: set[str]) -> list[str]:
    """The root's readmes where a shipped public module's patch removes a top-level assignment
    of a public name, or a line naming a constant (`A_B`), and no readme changes: whether users
    were told to set it says whether its loss breaks them (`facts.ignored`)."""
    if any(p.rsplit("/", 1)[-1].upper().startswith("README") for p in changed):
        return []
    for f in files:
        kind = path_kind(f.filename)
        if (
            f.filename.endswith(".py")
            and kind in (PathKind.SOURCE, PathKind.PUBLIC_API)
            and not private_module(f.filename)
            and _SETTING_REMOVED.search(f.patch or "")
        ):
            return list(_READMES)
    return []


# A line of a Python module an edit of annotations writes: a return's `-> T`, a parameter's
# or a name's `x: T`, an import, a `typing.` name (a type alias), a `TYPE_CHECKING` block
_TYPED_LINE = re.compile(r"->|\w\s*:\s*[^\s=]|\bimport\b|\btyping\b|\bTYPE_CHECKING\b")
# Folders a package's import path does not include (`src/pkg/py.typed` is `pkg`'s)
_SOURCE_ROOTS = frozenset({"src", "lib"})


def _type_markers(files: list[FileChange], changed: set[str]) -> list[str]:
    """The `py.typed` marker of the top package of each changed Python module whose added
    lines may all be annotations (`_TYPED_LINE`): whether the package ships it says whether
    users' type checkers read them (PEP 561)."""
    out: list[str] = []
    for f in files:
        parts = f.filename.split("/")
        if not f.filename.endswith(".py") or not f.patch or len(parts) < 2:
            continue
        top = parts[:2] if parts[0] in _SOURCE_ROOTS and len(parts) > 2 else parts[:1]
        marker = "/".join([*top, "py.typed"])
        if marker in out or marker in changed:
            continue
        # (the lines it adds: those it replaces may be anything, `self.schema = schema`)
        lines = [
            line[1:]
            for line in f.patch.split("\n")
            if line[:1] == "+" and not line.startswith("+++") and line[1:].strip()
        ]
        if lines and all(
            _TYPED_LINE.search(line) or line.lstrip().startswith("#") for line in lines
        ):
            out.append(marker)
    return out[:1]


def _import_texts(
    files: list[FileChange], patches_only: bool
) -> list[tuple[FileChange, tuple[str, ...]]]:
    """The changed Python files whose imports are searched, each with the texts to search:
    both sides read whole, or (`patches_only`) each hunk's lines at either side, for the
    files `worth_reading` (those whose texts are to be read)."""
    reading = worth_reading(files) if patches_only else files
    out = []
    for f in reading:
        if not f.filename.endswith(".py") or not f.patch:
            continue
        texts = _hunk_sides(f.patch) if patches_only else f.sides
        if texts is not None:
            out.append((f, texts))
    return out


def _hunk_sides(patch: str) -> tuple[str, ...]:
    """Each hunk's lines at the parent (context and removed) and at the commit (context and
    added): what the patch shows of the two texts, hunk by hunk, so that no statement is
    read across the lines a hunk leaves out."""
    return tuple(
        "\n".join(text for side, text in hunk.lines if side != drop)
        for hunk in hunks(patch)
        for drop in ("+", "-")
    )


def _from_imports(text: str) -> list[tuple[str, set[str]]]:
    """Each `from M import a, b as c` of a Python text: `M` and the names it binds."""
    return [
        (
            module,
            {
                part.split("#", 1)[0].split(" as ")[-1].strip()
                for part in names.strip("()").replace("\n", ",").split(",")
            },
        )
        for module, names in _FROM_IMPORT.findall(text)
    ]


# A line a patch adds or removes that annotates a name in a block (`    sleep: Callable[…]`;
# not a parameter of a signature written a line each, which ends in a comma)
_ANNOTATED = re.compile(
    r"^[-+][ \t]+[A-Za-z_]\w*[ \t]*:(?!=)[ \t]*[^\s#][^\n]*[^,(\[\s][ \t]*$", re.MULTILINE
)
_CLASS_BASES = re.compile(r"^class[ \t]+\w+[ \t]*\(([^)]*)\)", re.MULTILINE)


def _bases_imported(files: list[FileChange], changed: set[str]) -> list[str]:
    """The paths of at most `MAX_MODULES` modules, not changed by the commit, that a
    changed Python file imports a top-level class's base from, where its patch adds or
    removes an annotation in a block: whether the class's annotations are read at run time
    is the bases' to say (`annotated.quiet_classes`)."""
    wanted: list[str] = []
    for f in files:
        if not f.filename.endswith(".py") or not f.patch or f.sides is None:
            continue
        if not _ANNOTATED.search(f.patch):
            continue
        for text in f.sides:
            bases = {
                m.group()
                for written in _CLASS_BASES.findall(text)
                for m in re.finditer(r"(?<![.\w=])[A-Za-z_]\w*(?![\w.=])", written)
            }
            for module, bound in _from_imports(text):
                paths = module_paths(f.filename, module) if bound & bases else []
                if paths and not changed & set(paths) and paths[0] not in wanted:
                    wanted += paths
    return wanted[: 2 * MAX_MODULES]


def _packages_left(files: list[FileChange], changed: set[str]) -> list[str]:
    """The `__init__.py` the commit leaves alone of the packages at most `MAX_MODULES`
    public modules it deletes or renames lie in: whether the package declares an interface
    (`__all__`), and whether it answers the old module's import itself, is read there."""
    out: list[str] = []
    for f in files:
        old = f.filename if f.status == "removed" else f.previous_filename
        if f.status not in ("removed", "renamed") or not old or not old.endswith(".py"):
            continue
        folder, _, name = old.rpartition("/")
        init = f"{folder}/__init__.py"
        public = folder and name != "__init__.py" and not private_module(old)
        if public and init not in changed and init not in out:
            out.append(init)
    return out[:MAX_MODULES]


# A line a patch removes that binds a name a caller may use: a `def`, a `class`, an
# attribute set on `self`, a module's or a class's name assigned
_BINDING_GONE = re.compile(
    r"^-[ \t]*(?:(?:async[ \t]+)?def[ \t]+[A-Za-z]|class[ \t]+[A-Za-z]"
    r"|self\.[A-Za-z]\w*[ \t]*(?::[^=\n]*)?=(?!=)|[A-Za-z]\w*[ \t]*(?::[^=\n]*)?=(?!=))",
    re.MULTILINE,
)


def documents_asked(files: list[FileChange], modules: tuple[tuple[str, str], ...]) -> list[str]:
    """The dotted names of the changed modules that their package's `__init__.py` (read
    beside the change, `modules`, or changed) does not hand out: whether a documentation
    page names them is asked of the tree (`facts/exposure.py`)."""
    inits = {p: t for p, t in modules if p.endswith("/__init__.py")}
    for f in files:
        if f.filename.endswith("/__init__.py") and f.status != "added" and f.before is not None:
            inits[f.filename] = f.before
    paths = [f.filename for f in files if f.filename.endswith((".py", ".pyi"))]
    return [dotted(p) for p in internal_modules(paths, inits, ())]


def packages_of_losses(files: list[FileChange], changed: set[str]) -> list[str]:
    """The `__init__.py` the commit leaves alone of the packages of at most `MAX_MODULES`
    modules public by their name whose patch removes a binding (`_BINDING_GONE`): whether
    the package hands the module out tells a loss its users meet from one internal to it
    (`facts/exposure.py`)."""
    out: list[str] = []
    for f in files:
        folder, _, name = f.filename.rpartition("/")
        if not folder or not name.endswith(".py") or name.startswith("__"):
            continue
        if private_module(f.filename) or not _BINDING_GONE.search(f.patch or ""):
            continue
        init = f"{folder}/__init__.py"
        if init not in changed and init not in out:
            out.append(init)
    return out[:MAX_MODULES]


# A Python requirement a patch adds to a metadata file (`python_requires=`, `requires-python`)
_PYTHON_SET = re.compile(r"^\+.*\b(?:python_requires|requires-python)\b", re.MULTILINE)
_METADATA = (*PACKAGING_FILES, "setup.py")


def _metadata_beside(files: list[FileChange], changed: set[str]) -> list[str]:
    """The metadata files the commit leaves alone in the folder of one whose patch adds a
    Python requirement: one of them may have required it already (a `setup.cfg`'s
    `python_requires` beside a `setup.py` that now says it too), so it is read."""
    out: list[str] = []
    for f in files:
        folder, _, name = f.filename.rpartition("/")
        if name not in _METADATA or not f.patch or not _PYTHON_SET.search(f.patch):
            continue
        for other in _METADATA:
            path = f"{folder}/{other}" if folder else other
            if path not in changed and path not in out:
                out.append(path)
    return out[: len(_METADATA)]


def _metadata_of_requirements(files: list[FileChange], changed: set[str]) -> list[str]:
    """The `setup.py` and `pyproject.toml` the commit leaves alone in the folder of a
    requirements file whose pins change (or the folder above: `requirements/cli.txt`):
    which file they read tells whether the pins are the package's, an extra's or the dev
    tools' (`facts._with_requirement_files`)."""
    out: list[str] = []
    for f in files:
        if not _REQUIREMENTS.search(f.filename) or tooling_path(f.filename) or not f.patch:
            continue
        folder = f.filename.rpartition("/")[0]
        if folder.rsplit("/", 1)[-1] == "requirements":
            folder = folder.rpartition("/")[0]
        for name in ("setup.py", "pyproject.toml"):
            path = f"{folder}/{name}" if folder else name
            if path not in changed and path not in out:
                out.append(path)
    return out[:2]


def _metadata_of_root_scripts(files: list[FileChange], changed: set[str]) -> list[str]:
    """The root's metadata files the commit leaves alone, where it changes a Python file at
    the top (not one of them): what they say the wheel holds tells a module the package
    ships from a script beside it (bidict's `cachegrind.py`, xmltodict's `ez_setup.py`)."""
    if not any(
        "/" not in f.filename and f.filename.endswith(".py") and f.filename not in ROOT_METADATA
        for f in files
    ):
        return []
    return [p for p in ROOT_METADATA if p not in changed]


# A title on which Pythons are supported: "Drop support for EOL Python <= 3.6", "Require
# Python 3.9+", "Remove py2 compatibility code"
_PYTHON_SUPPORT = re.compile(
    r"\b(?:drop\w*|remov\w+|end\w*|requir\w*|deprecat\w*|support\w*|eol|minimum)\b"
    r".{0,40}?\b(?:c?python|pypy|py[23]\d*)\b"
    r"|\b(?:c?python|pypy|py[23]\d*)\b.{0,40}?\b(?:drop\w*|remov\w+|requir\w*|support\w*|eol)\b",
    re.IGNORECASE,
)


def _metadata_of_title(title: str, changed: set[str]) -> list[str]:
    """The root's metadata files the commit leaves alone, where its title says which
    Pythons are supported: what they require at both revisions tells whether any install
    changes (a "Drop Python 3.6" whose parent already required `>=3.7` drops nobody)."""
    if not _PYTHON_SUPPORT.search(title):
        return []
    return [p for p in _METADATA if p not in changed]


# A public function or method's `def` line a patch removes (its signature changed or gone).
_DEF_GONE = re.compile(r"^-[ \t]*(?:async[ \t]+)?def[ \t]+([A-Za-z]\w*)[ \t]*\(", re.MULTILINE)


def _package_init(files: list[FileChange], changed: set[str]) -> str | None:
    """The `__init__.py` of the public package a changed private module (`pkg/_impl.py`,
    `pkg/_core/_tasks.py`) lies in, where the module's patch changes a public function's
    `def` and the commit leaves the `__init__.py` alone: what it imports from the module is
    the package's API (typeguard's `typechecked` lives in `_decorators.py`), so a parameter
    lost there breaks callers. The first such, one a commit."""
    for f in files:
        if not (f.filename.endswith(".py") and f.patch and private_module(f.filename)):
            continue
        if not _DEF_GONE.search(f.patch):
            continue
        folders = f.filename.split("/")[:-1]
        while folders and folders[-1].startswith("_"):
            folders.pop()
        if not folders:
            continue
        init = "/".join([*folders, "__init__.py"])
        if init not in changed:
            return init
    return None
