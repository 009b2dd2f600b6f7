"""Facts from the change: what one commit's patch, message and PR text hold. Pure, no network.

    facts = read_facts(commit)           # a frozen `Facts` (see `records.py`)
    facts.added, facts.env_removed, …    # typed records, each naming its path
    facts.names()                        # every identifier named, for a prompt or a guard
    dataclasses.asdict(facts)            # plain data (JSON-ready) for the LLM's prompt

The one reader of a commit's diff: the rules (`signals.py`, `rules.py`) consume these facts
and never parse a patch themselves. Every fact is read from the text as written (a
definition line, a `getenv("X", "0")` call, a requirement line, a sentence of the
description), never inferred; a file's kind comes from `bot/analysis/paths.py`. A change
with no patches (titles only) has only its file list and the facts its text states.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import functools
import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from bot.analysis.facts.alike import alike_code
from bot.analysis.facts.arity import arities_changed
from bot.analysis.facts.attributes import attributes_gone
from bot.analysis.facts.build import (
    build_only_requirements,
    extra_only_requirements,
    package_name,
    read_requirements,
    same_spec,
    setup_requirements,
    shipped_requirements,
    supported_pythons,
)
from bot.analysis.facts.callers import public_callers
from bot.analysis.facts.calls import keywords_changed, signature
from bot.analysis.facts.caught import caught_at_each_call
from bot.analysis.facts.class_renamed import classes_renamed
from bot.analysis.facts.clike import read_clike
from bot.analysis.facts.commands import command_names
from bot.analysis.facts.conditions import conditions_changed
from bot.analysis.facts.constants import compare_constants, default_value
from bot.analysis.facts.dangling import dangling, imports_removed, removed_names, short_calls
from bot.analysis.facts.dev_dependencies import dev_requirement_changes
from bot.analysis.facts.docstrings import documented, redocumented
from bot.analysis.facts.documents import read_document, read_document_whole, read_settings
from bot.analysis.facts.dunders import declared_modules, metadata_gone
from bot.analysis.facts.early import early_value
from bot.analysis.facts.expected import expected_cases
from bot.analysis.facts.expected_errors import errors_expected
from bot.analysis.facts.exposure import internal_modules, is_document
from bot.analysis.facts.fallbacks import fallbacks
from bot.analysis.facts.fields import fields_added
from bot.analysis.facts.follows import (
    follows_names,
    follows_of,
    follows_value,
    only_follows,
    renamed_following,
)
from bot.analysis.facts.forwarded import forwarded_options
from bot.analysis.facts.giving import returns_changed
from bot.analysis.facts.guarded import lookups_tested
from bot.analysis.facts.handed_out import EVERY, handed_out
from bot.analysis.facts.handlers import handed_raises
from bot.analysis.facts.ignored import ignored_settings
from bot.analysis.facts.importers import imported_from
from bot.analysis.facts.inherit import abstract_added, overrides
from bot.analysis.facts.kept import keep_facts
from bot.analysis.facts.kwargs_read import keywords_read, returns_only
from bot.analysis.facts.layout import same_settings
from bot.analysis.facts.listed import unbound
from bot.analysis.facts.markers import marked_requirements
from bot.analysis.facts.meaning import gets_respelled
from bot.analysis.facts.members import members_gone
from bot.analysis.facts.modules import breadth
from bot.analysis.facts.names_kept import public_names_kept
from bot.analysis.facts.narrowed import guards_narrowed
from bot.analysis.facts.packages import PackageInit, package_init
from bot.analysis.facts.packaging import (
    COMMAND_GROUPS,
    RUNTIME,
    declares_requirements,
    packaging_changes,
    requirement_files,
    requires_nothing,
    shipped_type_markers,
)
from bot.analysis.facts.param_renamed import renamed_throughout
from bot.analysis.facts.parses import Parses
from bot.analysis.facts.pickles import pickles_changed
from bot.analysis.facts.pyfile import (
    OS_ERROR_NAMES,
    UNPRINTABLE,
    caught_through,
    detail,
    dotted,
    logged,
    logged_by,
    logged_loosely,
    loose_message,
    raised_through,
)
from bot.analysis.facts.python import _package, read_python, reads_key
from bot.analysis.facts.pythons import classifiers_changed, licence_expressed, python_kept
from bot.analysis.facts.raised_names import lookups, proven_raises
from bot.analysis.facts.reached import reached_classes
from bot.analysis.facts.recomputed import recomputed
from bot.analysis.facts.records import (
    Alias,
    ArityChange,
    Caught,
    Compared,
    Condition,
    Constant,
    ConstantRenamed,
    Dangling,
    DefaultChange,
    Deprecation,
    Documented,
    Edited,
    EntryPoint,
    Expected,
    Extra,
    ExtraRequirement,
    Facts,
    FileFact,
    Followed,
    Gives,
    GuardNarrowed,
    HandedRaise,
    IgnoredSetting,
    ImportMove,
    Logged,
    MarkedRequirement,
    MemberGone,
    Message,
    Name,
    NameKind,
    NewCall,
    NumberKind,
    ParamDefault,
    Passed,
    PickleChange,
    Raised,
    Reached,
    Recomputed,
    Reexport,
    Registration,
    Registry,
    Renamed,
    Requirement,
    ReturnChange,
    Returned,
    ReturnsEarly,
    Retyped,
    Rewritten,
    RewrittenTests,
    RowsAdded,
    Section,
    SetEarly,
    Setting,
    Shift,
    Signature,
    SignatureChange,
    StatedNumber,
    Turn,
)
from bot.analysis.facts.reexports import dropped_reexport, removed_origin
from bot.analysis.facts.renamed import canonical, class_attributes_renamed, node_count
from bot.analysis.facts.renamed_documented import renamed_documented
from bot.analysis.facts.reraised import reraised
from bot.analysis.facts.returns import literals_changed
from bot.analysis.facts.rewritten_tests import rewritten_tests
from bot.analysis.facts.rows import rows_added
from bot.analysis.facts.same_tree import same_code, same_tree
from bot.analysis.facts.scan import FileReading, Side, hunks
from bot.analysis.facts.sentinels import sentinel_renamed
from bot.analysis.facts.set_early import set_early
from bot.analysis.facts.shifted import shifted
from bot.analysis.facts.shims import same_on_python3
from bot.analysis.facts.statements import statements_changed, statements_rewritten
from bot.analysis.facts.surface import spelled
from bot.analysis.facts.text import fixed_issues, prose_lines, stated_numbers
from bot.analysis.facts.thrown import raises_of
from bot.analysis.facts.unraised import raises_no_longer
from bot.analysis.facts.visibility import mark_private
from bot.analysis.facts.whole import read_whole
from bot.analysis.facts.workflows import release_runners
from bot.analysis.packaging_files import PACKAGING_FILES
from bot.analysis.paths import (
    Language,
    PathKind,
    compiled_for_tools,
    language_of,
    module_paths,
    path_kind,
    private_module,
    ships,
    tooling_path,
)
from bot.analysis.sources import generated
from bot.models import CommitInput, FileChange

__all__ = [
    "CAP",
    "COMMAND_GROUPS",
    "METADATA_FILES",
    "ArityChange",
    "Compared",
    "Constant",
    "ConstantRenamed",
    "DefaultChange",
    "Deprecation",
    "Documented",
    "EntryPoint",
    "ErrorExpected",
    "Extra",
    "Facts",
    "FileFact",
    "ImportMove",
    "MarkedRequirement",
    "MemberGone",
    "Name",
    "NameKind",
    "NewCall",
    "NumberKind",
    "PickleChange",
    "Raised",
    "Reached",
    "Reexport",
    "Registration",
    "Registry",
    "Renamed",
    "Requirement",
    "ReturnChange",
    "Section",
    "Setting",
    "Shift",
    "SignatureChange",
    "StatedNumber",
    "Turn",
    "read_facts",
]

# At most this many records of one group: a generated file can define thousands of names.
CAP = 40
# a bound for the lists a sentence counts in full
_MANY = 5000
# Variables a dependency reads (Hugging Face, CUDA, NCCL, PyTorch, the OS…): a project that
# drops its own read of one has not stopped the dependency reading it.
_DEPENDENCY_ENV = (
    *("HF_", "HUGGING_FACE_", "TRANSFORMERS_", "TOKENIZERS_", "CUDA_", "NCCL_", "NVIDIA_"),
    *("TORCH_", "PYTORCH_", "TRITON_", "OMP_", "MKL_", "ROCM_", "HIP_", "XLA_", "PYTHON"),
    *("LD_", "PATH", "HOME", "TMPDIR", "USER", "LANG", "LC_"),
)
# A patch whose first hunk starts at the file's first line: its head is the file's.
_FROM_TOP = re.compile(r"^@@ -\d+(?:,\d+)? \+[01](?:,\d+)? @@[^\n]*\n")
_SETTINGS_FILES = (".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".env")
# A removed line of a Python module that declares its public names; a renamed module's text
# at the parent that declares them.
_ALL = re.compile(r"(?m)^-__all__\s*[:=+]")
_ALL_BEFORE = re.compile(r"(?m)^__all__\s*[:=+]")
# a title the author marks breaking (`refactor!:`, `[BREAKING]`): what the code keeps is read
_MARKED = re.compile(r"^\s*\w+(?:\([^)]*\))?!:|\bbreaking\b", re.IGNORECASE)
# A default that is an "argument not given" marker (`_marker`, `sentinel`, `MISSING`): one such
# marker swapped for another keeps what a call without the argument does (multidict fe4dee0).
_SENTINEL = re.compile(
    r"(?:\w+\.)?_*(?:marker|sentinel|missing|notset|not_set|unset|nothing|not_given|undefined)_*",
    re.IGNORECASE,
)
# `typing.`, `t.`, `c.`: a module a name in an annotation is reached through
_QUALIFIER = re.compile(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])")
T = TypeVar("T")
# A compared string or a message quoted as written when this short; a longer one is not said.
_SAID_LITERAL = 120
# A callee's test quoted when this short; a longer one is not said.
_SAID_TEST = 90
# A function whose body gains more new checks or messages than this was rewritten: not said.
_BODY_CHANGES = 2


# The files a package's metadata (its requirements, `requires-python`) is written in
METADATA_FILES = (*PACKAGING_FILES, "setup.py")


def read_facts(commit: CommitInput, parses: Parses | None = None) -> Facts:
    """Every fact one commit holds: its files, what their patches define and read, and the
    numbers and issues its message and PR text state. `parses`: the commit's settings files
    parsed (`parses.py`), where its caller reads them too."""
    facts = _read_facts(commit, Parses() if parses is None else parses)
    keep_facts(commit, facts)
    return facts


def _read_facts(commit: CommitInput, parses: Parses) -> Facts:
    files = tuple(
        FileFact(
            path=f.filename,
            kind=path_kind(f.filename),
            status=f.status,
            additions=f.additions,
            deletions=f.deletions,
            previous=f.previous_filename,
            generated=generated(f.filename, _head(f)),
            declared_all=f.filename.endswith(".py")
            and bool(
                _ALL.search(f.patch or "")
                or (f.status == "renamed" and _ALL_BEFORE.search(f.before or ""))
            ),
        )
        for f in commit.files
    )
    readings: list[FileReading] = []
    code: list[str] = []
    # files read whole at both revisions: their facts are the difference of two symbol tables
    whole: set[str] = set()
    for f, fact in zip(commit.files, files, strict=True):
        if (not f.patch and f.sides is None) or fact.generated:
            continue
        language = language_of(f.filename)
        settings = fact.kind is PathKind.CONFIG or f.filename.endswith(_SETTINGS_FILES)
        document = f.filename.endswith((".md", ".markdown"))
        if language is None and fact.kind is not PathKind.BUILD and not settings and not document:
            continue
        reading = FileReading(f.filename, patch=f.patch or "")
        user_facing = ships(f.filename, fact.kind)
        tests = fact.kind is PathKind.TESTS
        sides = f.sides
        if document and sides is not None:
            read_document_whole(*sides, reading)
            readings.append(reading)
            continue
        if (
            sides is not None
            and language is not None
            and read_whole(
                f.filename,
                *sides,
                reading,
                language=language,
                package=_package(f.filename) if f.filename.endswith("/__init__.py") else None,
                tests=tests,
                user_facing=user_facing,
            )
        ):
            reading.texts = sides
            readings.append(reading)
            whole.add(f.filename)
            if fact.kind is PathKind.BUILD:
                # a `setup.py` read whole is code and metadata both: its `python_requires`
                # and `install_requires` are requirements as a `setup.cfg`'s are
                for side in (reading.minus, reading.plus):
                    side.requirements.update(setup_requirements(side.setup_call))
            continue
        if not f.patch:
            continue
        file_hunks = hunks(f.patch)
        if language is Language.PYTHON:
            if user_facing:
                code.append(f.patch)
            read_python(f.filename, file_hunks, reading, user_facing=user_facing, tests=tests)
        elif language is Language.C:
            read_clike(f.filename, file_hunks, reading, user_facing=user_facing, tests=tests)
        if fact.kind is PathKind.BUILD:
            read_requirements(file_hunks, reading, f.sides, parses)
            reading.tools = compiled_for_tools(f.after if f.status != "removed" else f.before)
            if f.filename.rsplit("/", 1)[-1] == "pyproject.toml" and f.sides is not None:
                _shipped_only(reading, f.sides, parses)
        elif settings and language is None:
            read_settings(file_hunks, reading, f.sides[1] if f.sides else None)
        elif document:
            read_document(file_hunks, reading)
        readings.append(reading)
    pr = commit.pull_request
    texts = (commit.message, pr.body if pr else "")
    facts = mark_private(
        _combine(
            files,
            readings,
            numbers=stated_numbers(prose_lines(*texts)),
            fixes=fixed_issues(*texts),
            whole=whole,
            # Files left to their patch while others were read whole (past the bounds, or not
            # parsed): a hunk without the parent's text cannot tell new from moved, so what it
            # defines or drops is not said.
            partial={
                f.filename
                for f in commit.files
                if whole and f.filename not in whole and f.status not in ("added", "removed")
            },
        ),
        readings,
    )
    calls = {
        r.path: (r.minus.setup_call, r.plus.setup_call)
        for r in readings
        if r.path.rsplit("/", 1)[-1] == "setup.py" and r.path in whole
    }
    facts = _with_packaging(commit, facts, parses, calls)
    facts = _with_requirement_files(commit, facts)
    if ignored := _settings_ignored(commit, readings, whole):
        facts = dataclasses.replace(facts, settings_ignored=_cap(ignored))
    if facts.removed or facts.constants_removed:
        facts = dataclasses.replace(facts, imported_from=imported_from(readings))
    if arities := arities_changed(readings, whole):
        facts = dataclasses.replace(facts, arities_changed=_cap(arities))
    if literals := literals_changed(readings, whole):
        facts = dataclasses.replace(facts, returns_changed=_cap(literals))
    reached, retyped = raises_of(readings, whole)
    if reached or retyped:
        facts = dataclasses.replace(
            facts, raises_reached=_cap(reached), raises_retyped=_cap(retyped)
        )
    declared = declared_modules(commit, parses)
    if dunders := metadata_gone(readings, whole, declared):
        facts = dataclasses.replace(facts, metadata_gone=_cap(dunders))
    if _MARKED.search(commit.title) and public_names_kept(commit, declared):
        facts = dataclasses.replace(facts, names_kept=True)
    expected = [
        e
        for f in commit.files
        if f.status == "modified"
        and f.patch
        and f.filename.endswith(".py")
        and path_kind(f.filename) is PathKind.TESTS
        for e in errors_expected(f.filename, f.patch)
    ]
    # the error's words are the change's only where its code adds them: a test that now
    # expects a message the code already gave says nothing new of callers (deepdiff's merge
    # #483 rewrote a test's expected string to an error its `commands.py` had long raised)
    added = [
        line
        for f in commit.files
        if f.patch and path_kind(f.filename) is not PathKind.TESTS
        for line in f.patch.split("\n")
        if line.startswith("+") and not line.startswith("+++")
    ]
    expected = [e for e in expected if any(e.new.strip()[:40] in line for line in added)]
    if expected:
        facts = dataclasses.replace(facts, errors_expected=_cap(expected))
    if any(n.path.endswith(".py") and "." not in n.name for n in facts.removed):
        facts = _with_commands(commit, facts)
    if any(private_module(c.path) for c in facts.signatures_changed) or any(
        private_module(n.path) for n in facts.removed if n.kind is NameKind.METHOD
    ):
        facts = dataclasses.replace(facts, handed_out=_handed_out(commit, readings))
    if any(f.path.endswith(".py") and f.status in ("removed", "renamed") for f in facts.files):
        facts = dataclasses.replace(facts, packages=_packages(commit))
    if internal := _internal_modules(commit):
        facts = dataclasses.replace(facts, internal_modules=internal)
    if any(r.gone for r in facts.raises_added):
        raised = proven_raises(facts.raises_added, readings, commit.modules)
        facts = dataclasses.replace(facts, raises_added=tuple(raised))
    facts = _with_reached(facts, readings)
    # a method renamed in its own class is gone by its old name too
    renamed_members = {
        r.old: r.new.name.rpartition(".")[2]
        for r in facts.renamed
        if r.old.kind is NameKind.METHOD
        and r.old.path == r.new.path
        and r.old.name.rpartition(".")[0] == r.new.name.rpartition(".")[0]
    }
    if renamed_members or any(n.kind is NameKind.METHOD for n in facts.removed):
        after, _ = lookups(readings, commit.modules)
        gone = members_gone([*facts.removed, *renamed_members], readings, after, renamed_members)
        facts = dataclasses.replace(facts, members_gone=gone)
    if attributes := attributes_gone(readings, whole):
        facts = dataclasses.replace(facts, members_gone=(*facts.members_gone, *attributes))
    if any(r.package == "python" and r.old is None for r in facts.requirements):
        facts = dataclasses.replace(facts, python_unset=_python_unset(commit, parses))
    shadowed = {
        (r.path, name)
        for r in readings
        if r.path.endswith(".py")
        for text in r.texts
        if text
        for name in fallbacks(text)
    }
    if shadowed:
        facts = dataclasses.replace(facts, fallbacks=tuple(sorted(shadowed)))
    kept = python_kept(commit, METADATA_FILES, parses)
    if kept is not None:
        facts = dataclasses.replace(facts, python_kept=kept)
    markers = shipped_type_markers(commit.files, "\n".join(texts), calls)
    if markers:
        facts = dataclasses.replace(facts, types_shipped=markers)
    marked = [
        m
        for f in commit.files
        if f.filename.rsplit("/", 1)[-1] == "pyproject.toml"
        and f.status == "modified"
        and f.sides is not None
        for m in marked_requirements(f.filename, *f.sides, parses)
    ]
    if marked:
        facts = dataclasses.replace(facts, requirements_marked=_cap(marked))
    pickled = [
        change
        for f in commit.files
        if f.filename.endswith(".py")
        and f.status == "modified"
        and f.sides is not None
        and ships(f.filename, path_kind(f.filename))
        and path_kind(f.filename) is not PathKind.TESTS
        for change in pickles_changed(f.filename, *f.sides)
    ]
    if pickled:
        facts = dataclasses.replace(facts, pickles_changed=_cap(pickled))
    runners = [change for f in commit.files for change in release_runners(f, parses)]
    if runners:
        facts = dataclasses.replace(facts, release_runners=_cap(runners))
    same = [
        f.filename
        for f in commit.files
        if path_kind(f.filename) in (PathKind.CONFIG, PathKind.BUILD) and same_settings(f, parses)
    ]
    if same:
        facts = dataclasses.replace(facts, settings_same=_cap(same))
    added, removed = classifiers_changed(commit)
    if added or removed:
        facts = dataclasses.replace(
            facts, classifiers_added=_cap(added), classifiers_removed=_cap(removed)
        )
    if any(c.startswith("License ::") for c in removed):
        facts = dataclasses.replace(facts, licence_expressed=licence_expressed(commit))
    facts = _settings_in_tree(commit, _without_stubs(commit, facts, readings))
    if not facts.config_keys_removed:
        return facts
    # A key one call stops asking for is still read where the change reads it another way
    # (`cfg["key"]`, `cfg.key`): only a key nothing reads any more is dropped.
    dropped = tuple(
        s for s in facts.config_keys_removed if not any(reads_key(s.name, p) for p in code)
    )
    return dataclasses.replace(facts, config_keys_removed=dropped)


# A Python requirement named in a metadata file, in any form (`python_requires=VARIABLE`)
_PYTHON_NAMED = re.compile(r"\b(?:python_requires|requires-python)\b")


def _handed_out(commit: CommitInput, readings: list[FileReading]) -> tuple[tuple[str, str], ...]:
    """What the public packages' `__init__.py` files hand out, at the parent: an unchanged
    one read for the commit (`CommitInput.modules`), or a changed one's parent text. A star
    import of a module read whole that lists `__all__` hands out only what it lists."""
    inits = [(p, t) for p, t in commit.modules if p.endswith("/__init__.py")]
    inits += [
        (f.filename, f.sides[0])
        for f in commit.files
        if f.filename.endswith("/__init__.py") and f.sides is not None and f.sides[0]
    ]
    pairs = {pair for path, text in inits for pair in handed_out(path, text)}
    listing = {r.path: r.minus.exports for r in readings if r.texts[0] and r.minus.listed}
    for path, name in [p for p in pairs if p[1] == EVERY and p[0] in listing]:
        pairs.discard((path, name))
        pairs.update((path, n) for n in listing[path])
    return tuple(sorted(pairs))


def _internal_modules(commit: CommitInput) -> tuple[str, ...]:
    """The changed Python modules public by their name that their package does not hand out
    (`exposure.internal_modules`), from the `__init__.py` files at the parent (read for the
    commit, or changed) and the documents read (read for the commit, or changed)."""
    inits = {p: t for p, t in commit.modules if p.endswith("/__init__.py")}
    documents = [t for p, t in commit.modules if is_document(p)]
    for f in commit.files:
        before, after = f.sides if f.sides is not None else (None, None)
        if f.filename.endswith("/__init__.py") and before is not None and f.status != "added":
            inits[f.filename] = before
        if is_document(f.filename):
            documents += [t for t in (before, after) if t]
    changed = [f.filename for f in commit.files if f.filename.endswith((".py", ".pyi"))]
    return internal_modules(changed, inits, documents)


def _packages(commit: CommitInput) -> tuple[PackageInit, ...]:
    """The packages' `__init__.py` the commit changes or reads (`CommitInput.modules`: the
    same text at both revisions), each read at the parent and at the commit."""
    out = [package_init(p, t, t) for p, t in commit.modules if p.endswith("/__init__.py")]
    for f in commit.files:
        if not f.filename.endswith("/__init__.py"):
            continue
        before, after = f.sides if f.sides is not None else (f.before, f.after)
        gone, new = f.status == "removed", f.status == "added"
        out.append(package_init(f.filename, None if new else before, None if gone else after))
    return tuple(out)


def _same_parameters(readings: list[FileReading], path: str, old: Name, new: Name) -> bool:
    """Whether a file's `old` at the parent and `new` at the commit take the same parameters
    (a class by its signature as read, none for either: the same), and, functions, do nearly
    the same (`alike.alike_code`): one generator gone and a new method returning a count in
    its place are two (sqlparse a51df6d)."""
    for r in readings:
        if r.path == path:
            return r.minus.signatures.get(old.name) == r.plus.signatures.get(
                new.name
            ) and alike_code(r.minus.functions.get(old.name), r.plus.functions.get(new.name))
    return False


def _renamed_in_place(
    before: ast.AST | None, after: ast.AST | None, lost: tuple[str, ...], gained: tuple[str, ...]
) -> tuple[str, ...]:
    """The lost parameters a gained one takes the place of among the positional-or-keyword
    parameters of a function's two definitions (its `def` nodes)."""
    if not isinstance(before, ast.FunctionDef | ast.AsyncFunctionDef) or not isinstance(
        after, ast.FunctionDef | ast.AsyncFunctionDef
    ):
        return ()
    was = [a.arg for a in (*before.args.posonlyargs, *before.args.args)]
    now = [a.arg for a in (*after.args.posonlyargs, *after.args.args)]
    lost_names = {parameter_name(p) for p in lost}
    gained_names = {parameter_name(p) for p in gained}
    return tuple(
        old
        for i, old in enumerate(was)
        if old in lost_names and i < len(now) and now[i] in gained_names
    )


def _python_unset(commit: CommitInput, parses: Parses) -> bool:
    """Whether no metadata file the change touches named a Python requirement at the parent
    (each one's parent text known: a file the change adds had none), nor one it leaves alone
    that was read for it (`CommitInput.modules`: a `setup.cfg` beside the `setup.py`)."""
    for path, text in commit.modules:
        if path.rsplit("/", 1)[-1] in METADATA_FILES and _PYTHON_NAMED.search(text):
            return False
    for f in commit.files:
        if f.filename.rsplit("/", 1)[-1] not in METADATA_FILES or f.status == "added":
            continue
        before = f.sides[0] if f.sides is not None else None
        if before is None or _PYTHON_NAMED.search(before):
            return False
        if f.filename.endswith("pyproject.toml") and supported_pythons(before, parses):
            return False  # Poetry's `python = "^3.8"`
    return True


def _with_reached(facts: Facts, readings: list[FileReading]) -> Facts:
    """The facts with the private classes whose public members the change removes, renames
    or re-signs, where a public function hands them to callers (`facts.reached`)."""
    members = {
        (n.path, owner)
        for n in (
            *facts.removed,
            *(r.old for r in facts.renamed),
            *(Name(s.name, NameKind.METHOD, s.path) for s in facts.signatures_changed),
        )
        if n.name.count(".") == 1
        and (owner := n.name.split(".", 1)[0]).startswith("_")
        and not owner.startswith("__")
        and not n.short.startswith("_")
    }
    if not members:
        return facts
    reached = reached_classes(readings, members)
    return dataclasses.replace(facts, reached=reached) if reached else facts


def _without_stubs(commit: CommitInput, facts: Facts, readings: Iterable[FileReading]) -> Facts:
    """A type stub deleted declares nothing away: the module it described still defines its
    names, now with their types inline (yarl e70f9d4 deleted `__init__.pyi`); and a parameter
    the stub declared is none a caller gains (multidict fe4dee0: `extend(__arg=...)`)."""
    stubs = {
        f.filename for f in commit.files if f.status == "removed" and f.filename.endswith(".pyi")
    }
    if not stubs:
        return facts
    declared: dict[str, set[str]] = {}
    for r in readings:
        if r.path in stubs:
            for name, params in r.minus.signatures.items():
                declared.setdefault(name, set()).update(_param_name(p) for p in params)
    signatures = []
    for s in facts.signatures_changed:
        gained = tuple(p for p in s.gained if _param_name(p) not in declared.get(s.name, ()))
        if gained or s.lost or s.shifted:
            signatures.append(dataclasses.replace(s, gained=gained))
    return dataclasses.replace(
        facts,
        removed=tuple(n for n in facts.removed if n.path not in stubs),
        moved=tuple(m for m in facts.moved if m.old.path not in stubs),
        exports_removed=tuple(n for n in facts.exports_removed if n.path not in stubs),
        signatures_changed=tuple(signatures),
    )


def _same_number(was: str, now: str) -> bool:
    """Whether two literals are the same number written two ways: `2` and `2.0` (stamina
    4bab59d's `wait_exp_base`), `1_000` and `1000`."""
    try:
        a, b = ast.literal_eval(was), ast.literal_eval(now)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    numbers = (int, float)
    return (
        isinstance(a, numbers)
        and isinstance(b, numbers)
        and not isinstance(a, bool)
        and not isinstance(b, bool)
        and a == b
    )


def _param_name(param: str) -> str:
    """`arg` of `arg=None`, `*args`, and of a stub's positional-only `__arg=...`."""
    name = parameter_name(param)
    return name[2:] if name.startswith("__") and not name.endswith("__") else name


def _settings_in_tree(commit: CommitInput, facts: Facts) -> Facts:
    """Variables and keys against the whole tree: one the parent's tree already quotes was
    read before, somewhere (not new); one the commit's tree still quotes is still read,
    another way (`orig_env.get("CFLAGS")`) or by a file the change did not touch (not gone).
    Offline the clone's trees answer both; online only the fetched files the second."""
    before, after = commit.quoted_before, commit.quoted_after
    if before is not None:
        facts = dataclasses.replace(
            facts,
            env_added=tuple(s for s in facts.env_added if s.name not in before),
            config_keys_added=tuple(s for s in facts.config_keys_added if s.name not in before),
            settings_new=True,
        )
    if not (facts.env_removed or facts.config_keys_removed):
        return facts
    fetched = [f.sides[1] for f in commit.files if f.sides is not None and f.sides[1]]

    def gone(s: Setting) -> bool:
        quotes = (f'"{s.name}"', f"'{s.name}'")
        held = after is not None and s.name in after
        return not held and not any(q in t for t in fetched for q in quotes)

    return dataclasses.replace(
        facts,
        env_removed=tuple(filter(gone, facts.env_removed)),
        config_keys_removed=tuple(filter(gone, facts.config_keys_removed)),
    )


def _with_commands(commit: CommitInput, facts: Facts) -> Facts:
    """The facts without the functions that only changed name behind a command-line command
    that stays: a click or typer command (`@cli.command(name="list")`) is run by its command
    name, which the commit keeps under another function (`list` → `list_values`): the
    command is neither removed nor added, and the renamed function is its module's insides."""
    held: set[tuple[str, str]] = set()
    for f in commit.files:
        if f.sides is None or not f.filename.endswith(".py") or not all(f.sides):
            continue
        if not any(n.path == f.filename for n in facts.removed):
            continue
        before, after = (command_names(text or "") for text in f.sides)
        holder = {command: function for function, command in after.items()}
        for function, command in before.items():
            now = holder.get(command)
            if now is not None and now != function and function not in after:
                held |= {(f.filename, function), (f.filename, now)}
    if not held:
        return facts
    return dataclasses.replace(
        facts,
        removed=tuple(n for n in facts.removed if (n.path, n.name) not in held),
        added=tuple(n for n in facts.added if (n.path, n.name) not in held),
        renamed=tuple(
            r
            for r in facts.renamed
            if (r.old.path, r.old.name) not in held or (r.new.path, r.new.name) not in held
        ),
    )


def _with_packaging(
    commit: CommitInput,
    facts: Facts,
    parses: Parses,
    calls: dict[str, tuple[ast.Call | None, ast.Call | None]],
) -> Facts:
    """The facts with what the packaging files read whole declare anew or no more; a
    requirement of an extra the change adds is said with the extra, not as the package's
    (httpcore 12834e3 moved `anyio` into its new extra `asyncio`: not required any more)."""
    sides = {
        f.filename: (
            None if f.status == "added" else f.before,
            None if f.status == "removed" else f.after,
        )
        for f in commit.files
        if f.filename.rsplit("/", 1)[-1] in PACKAGING_FILES and f.sides is not None
    }
    # a `setup.py` read whole: its `setup(…)` call's extras are metadata too
    setup = {
        f.filename: (
            None if f.status == "added" else f.before,
            None if f.status == "removed" else f.after,
        )
        for f in commit.files
        if f.filename in calls
    }
    if not sides and not setup:
        return facts
    found = packaging_changes(sides | setup, [f.filename for f in commit.files], parses, calls)
    dev_added, dev_removed = dev_requirement_changes(sides, parses)
    optional = {
        (e.path, r.replace(" ", "").lower()) for e in found.extras_added for r in e.requirements
    }
    # what only an extra lists is the extra's: no install of the package itself asks for it,
    # and an extra's requirement is said with the extra where the extra is new
    extra_only = {
        path: extra_only_requirements(path, after, parses)
        for path, (_, after) in sides.items()
        if after is not None
    }
    # what only `[build-system] requires` lists is what building the package needs
    building = {
        path: build_only_requirements(after, parses)
        for path, (_, after) in sides.items()
        if after is not None and path.rsplit("/", 1)[-1] == "pyproject.toml"
    }
    return dataclasses.replace(
        facts,
        requirements=tuple(
            dataclasses.replace(r, build=package_name(r.package) in building.get(r.path, ()))
            for r in facts.requirements
            if (r.path, f"{r.package}{r.spec}") not in optional
            and package_name(r.package.split("[", 1)[0]) not in extra_only.get(r.path, ())
        ),
        extras_added=_cap(found.extras_added),
        extras_removed=_cap([_read_requirements(e, commit) for e in found.extras_removed]),
        extras_grouped=_cap(found.extras_grouped),
        extras_changed=_cap(found.extras_changed),
        dev_requirements_added=_cap(dev_added),
        dev_requirements_removed=_cap(dev_removed),
        entry_points_added=_cap(found.entry_points_added),
        entry_points_removed=_cap(found.entry_points_removed),
        entry_modules=_cap(found.entry_modules),
        backend_changed=_cap(found.backends),
        build_needs_changed=_cap(found.build_needs),
        distribution_renamed=_cap(found.names),
    )


def _read_requirements(extra: Extra, commit: CommitInput) -> Extra:
    """An extra the package declares no more, with what it required where its `setup.py`
    read that from a requirements file the change edits or deletes (deepdiff 724938d:
    `"optimize": optimize_reqs`, read from `requirements-optimize.txt`, which held `orjson`):
    its parent's lines. As it was where its requirements are known or not so read."""
    if extra.requirements:
        return extra
    prefix = extra.path.rpartition("/")[0]
    prefix = f"{prefix}/" if prefix else ""
    before = {f.filename: f.before for f in commit.files if f.status != "added"}
    files = requirement_files(before.get(f"{prefix}setup.py"), None)
    read = [n.removeprefix("./") for n, role in files.items() if role == extra.name]
    texts = [before.get(f"{prefix}{n}") for n in read]
    if not read or any(t is None for t in texts):
        return extra
    lines = [
        line.split(" #", 1)[0].strip()
        for text in texts
        for line in (text or "").splitlines()
        if line.strip() and not line.lstrip().startswith(("#", "-"))
    ]
    return dataclasses.replace(extra, requirements=tuple(lines)) if lines else extra


# A requirements file (`requirements-cli.txt`, `requirements/base.in`)
_REQUIREMENTS_TXT = re.compile(r"(?:^|/)[^/]*requirements[^/]*(?:/[^/]*)?\.(?:txt|in)$")


def _with_requirement_files(commit: CommitInput, facts: Facts) -> Facts:
    """The facts with each requirements file's pins said as whose they are, where the
    package's `setup.py` (`pyproject.toml`) at the commit reads requirements files: one fed
    to an extra is the extra's (deepdiff's `requirements-cli.txt`, its `cli` extra), one it
    does not read reaches no install of the package (the dev tools'), one it installs stays
    the package's."""
    if not any(_REQUIREMENTS_TXT.search(r.path) for r in facts.requirements):
        return facts
    texts = dict(commit.modules)
    for f in commit.files:
        if f.filename.rsplit("/", 1)[-1] in ("setup.py", "pyproject.toml"):
            texts[f.filename] = (f.after if f.status != "removed" else None) or ""
    kept: list[Requirement] = []
    extras = list(facts.extras_changed)
    for r in facts.requirements:
        role = _requirement_file_role(r.path, texts) if _REQUIREMENTS_TXT.search(r.path) else None
        if role is None or role == RUNTIME:
            kept.append(r)
        elif role is _UNREAD:
            kept.append(dataclasses.replace(r, tools=True))
        else:
            old = f"{r.package}{r.old}" if r.old else None
            extras.append(ExtraRequirement(role, old, f"{r.package}{r.spec}", r.path))
    return dataclasses.replace(
        facts, requirements=tuple(kept), extras_changed=_cap(list(dict.fromkeys(extras)))
    )


# a requirements file no metadata file of the package reads
_UNREAD = "\0unread"


def _requirement_file_role(path: str, texts: dict[str, str]) -> str | None:
    """Whom a requirements file feeds (`packaging.requirement_files`), by the metadata of
    the nearest folder above it that has some: `_UNREAD` where that metadata reads other
    requirements files and not this one, or writes its requirements out itself
    (`packaging.declares_requirements`); None where no metadata read says."""
    parts = path.split("/")
    for depth in range(len(parts) - 1, -1, -1):
        folder = "/".join(parts[:depth])
        prefix = f"{folder}/" if folder else ""
        setup_py = texts.get(f"{prefix}setup.py")
        pyproject = texts.get(f"{prefix}pyproject.toml")
        if setup_py is None and pyproject is None:
            continue
        read = {
            n.removeprefix("./"): role for n, role in requirement_files(setup_py, pyproject).items()
        }
        if not read:
            # requirements written out in the metadata: the file feeds no install of the
            # package (glom bc653da's `requirements.txt`, pip-compiled for tox)
            # (or none at all, and no file read for them: the file is the developers' own,
            # jmespath's `requirements.txt` of `pytest` and `pytest-cov`)
            declared = declares_requirements(setup_py, pyproject)
            return _UNREAD if declared or requires_nothing(setup_py, pyproject) else None
        return read.get(path[len(prefix) :], _UNREAD)
    return None


def _head(f: FileChange) -> str:
    """The first lines of a changed file at the commit (at the parent when removed): from its
    text read whole, else from its patch when the first hunk starts at the top."""
    if f.sides is not None:
        return f.sides[1] or f.sides[0]
    match = _FROM_TOP.match(f.patch or "")
    if match is None:
        return ""
    lines = (f.patch or "")[match.end() :].split("\n", 12)[:12]
    # the side that remains: a removed file's old lines, else the new ones
    drop = "+" if f.status == "removed" else "-"
    return "\n".join(line[1:] for line in lines if line[:1] != drop)


def _top(name: Name) -> tuple[str, str]:
    """A name's file and its top-level name (a method's class)."""
    return name.path, name.name.split(".", 1)[0]


def _requirements(
    readings: list[FileReading],
) -> tuple[list[Requirement], tuple[tuple[str, str], ...]]:
    """The requirements each changed file sets, against what it (or, moved, another file)
    pinned at the parent; and the files whose package metadata moved whole to another
    (`setup.cfg` → `pyproject.toml`: each requirement one drops, the other writes)."""

    def pins(side: dict[str, str], other: dict[str, str]) -> dict[str, str]:
        # by their PEP 503 names (Poetry's `importlib_metadata` is `importlib-metadata`)
        gone = {package_name(k) for k in other}
        return {package_name(k): v for k, v in side.items() if package_name(k) not in gone}

    # what a file the package ships from drops (a dev tools' file's pins were no user's)
    dropped = {
        r.path: pins(r.minus.requirements, r.plus.requirements)
        for r in readings
        if not (r.tools or tooling_path(r.path))
    }
    requirements = []
    moved: list[tuple[str, str]] = []
    for r in readings:
        # the parent's by their PEP 503 names; each said as the commit writes it
        pinned = {package_name(k): v for k, v in r.minus.requirements.items()}
        new = pins(r.plus.requirements, r.minus.requirements)
        elsewhere = {
            package: spec
            for path, gone in dropped.items()
            if path != r.path
            for package, spec in gone.items()
        }
        for path, gone in dropped.items():
            # (between the files that hold a package's metadata: a pin moved out of a
            # `requirements.txt` moves no metadata)
            if (
                path != r.path
                and new
                and gone.keys() == new.keys()
                and path.rsplit("/", 1)[-1] in METADATA_FILES
                and r.path.rsplit("/", 1)[-1] in METADATA_FILES
            ):
                moved.append((path, r.path))
        marked_before = {package_name(k): v for k, v in r.minus.marked.items()}
        for package, spec in r.plus.requirements.items():
            # a requirement the commit moves from another file is the one it was there
            pinned_before = pinned.get(package_name(package)) or elsewhere.get(
                package_name(package)
            )
            lines = marked_before.get(package_name(package))
            if lines and (paired := _same_marker(lines, r.plus.marked.get(package))) is not None:
                if paired is _NO_NEWS:
                    continue
                pinned_before = paired or None
            if not same_spec(pinned_before, spec):
                requirements.append(
                    Requirement(package, spec, r.path, pinned_before, tools=r.tools)
                )
    return requirements, tuple(moved)


# `_same_marker`'s answer for a name whose marker lines collapse into the pin it had already
_NO_NEWS = "\0same"


def _same_marker(before: list[tuple[str, str]], after: list[tuple[str, str]] | None) -> str | None:
    """What a name's requirement at the commit is compared with where a marker is written on
    either side (PEP 508: one name may be written once per environment): None where no marker
    is (the one pin each side is compared as is); the parent's spec for the same marker; ""
    where no line of the parent is for that marker (no pair: nothing to say it was); `_NO_NEWS`
    where the lines for some environments are dropped and the pin kept is one the parent
    already wrote for the others (jmespath 2db39af: `pytest==6.2.5 ; python_version >= '3.6'`
    and `pytest<5.0 ; python_version < '3.6'` → `pytest==6.2.5`: no `pytest` "was `<5.0`")."""
    after = after or []
    if not any(marker for marker, _ in [*before, *after]):
        return None
    marker, spec = after[-1] if after else ("", "")
    same = [old for m, old in before if m == marker]
    if len(same) == 1:
        return same[0]
    if not same and spec and any(same_spec(old, spec) for _, old in before):
        return _NO_NEWS
    return ""


def _shipped_only(reading: FileReading, sides: tuple[str, str], parses: Parses) -> None:
    """A `pyproject.toml`'s requirements on each side, those a developer's tools pin (a
    dependency group) set aside, and at the commit those the parent's tables already
    required (a group written under an extra's same pin), where the side's text parses."""
    before, after = (shipped_requirements(text, parses) if text else None for text in sides)
    python = reading.plus.requirements.get("python")
    if python is not None and re.sub(r"\s+", "", python) in supported_pythons(sides[0], parses):
        # the parent said it already, in another table (aiohappyeyeballs 850640e: Poetry's
        # `python = ">=3.9"` beside the new `requires-python = ">=3.9"`)
        del reading.plus.requirements["python"]
    for sign, shipped in (("-", before), ("+", after)):
        if shipped is None:
            continue
        pins = reading.side(sign).requirements
        for name, spec in [(n, v) for n, v in pins.items() if n != "python"]:
            # a pin is the package's where one of its tables writes it so (a group may pin
            # `coverage==7.3.2` beside an extra's `coverage>=6.2`)
            package = package_name(name.split("[", 1)[0])
            had = sign == "+" and before is not None and spec in before.get(package, ())
            if spec not in shipped.get(package, ()) or had:
                del pins[name]


def _edited(
    changed: list[Name], readings: list[FileReading], whole: frozenset[str] | set[str]
) -> list[Edited]:
    """Of the edited definitions, the Python functions of files read whole at both revisions,
    with how many of their own statements changed (`statements_changed`)."""
    at = {r.path: r for r in readings if r.path in whole and r.path.endswith(".py")}
    out: list[Edited] = []
    for n in dict.fromkeys(changed):
        if n.path in at and (count := statements_changed(at[n.path], n.name)) is not None:
            out.append(Edited(n.name, n.path, count))
    return out


def _same_code(reading: FileReading, name: str) -> bool:
    """Whether both sides read whole give `name` the same code, docstring and comments
    aside (as their `Side.code` digests would say, compared node by node: for the
    definitions whose lines differ, most of them edited and differing early); once a
    reading (`FileReading.same_code`)."""
    known = reading.same_code.get(name)
    if known is None:
        known = reading.same_code[name] = _code_compared(reading, name)
    return known


def _code_compared(reading: FileReading, name: str) -> bool:
    plus, minus = reading.plus.code.get(name), reading.minus.code.get(name)
    if plus is None or minus is None:
        return False
    was_code, now_code = _code_node(minus), _code_node(plus)
    if was_code is None or now_code is None:
        return plus() == minus()
    if same_code(was_code, now_code):
        return True
    # a local renamed throughout is the same code; a rename never changes how many nodes a
    # function has, so the renaming (walks of the whole tree) is asked only where it may
    was, now = reading.minus.functions.get(name), reading.plus.functions.get(name)
    if was is None or now is None or node_count(was) != node_count(now):
        return False
    # a method's class's private attributes renamed throughout it (`self._iterable` →
    # `self._iterator`) are the same attributes
    owner = name.rsplit(".", 1)[0] if "." in name else ""
    was_class, now_class = reading.minus.classes.get(owner), reading.plus.classes.get(owner)
    gone: dict[str, str] = {}
    fresh: dict[str, str] = {}
    if was_class is not None and now_class is not None:
        if owner not in reading.attributes_renamed:
            reading.attributes_renamed[owner] = class_attributes_renamed(was_class, now_class)
        gone, fresh = reading.attributes_renamed[owner]
    if isinstance(was_code, ast.ClassDef) or isinstance(now_code, ast.ClassDef):
        return same_code(was_code, now_code)
    try:
        with canonical(was_code, gone), canonical(now_code, fresh):
            return same_code(was_code, now_code)
    except RecursionError:
        # nested past Python's limit: the digests, which read such a tree's locals as written
        return plus(renamed=True, attrs=tuple(fresh.items())) == minus(
            renamed=True, attrs=tuple(gone.items())
        )


def _code_node(
    code: Callable[..., str],
) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | None:
    """The definition a `Side.code` entry digests (a cached `partial(_code, node)`); None
    for an entry of another kind."""
    wrapped = getattr(code, "__wrapped__", None)
    node = wrapped.args[0] if isinstance(wrapped, functools.partial) and wrapped.args else None
    return node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) else None


def _private_leaf(name: str) -> bool:
    """A function named `_f` (a method `C._f`), never a dunder."""
    leaf = name.rsplit(".", 1)[-1]
    return leaf.startswith("_") and not leaf.endswith("__")


def _combine(
    files: tuple[FileFact, ...],
    readings: list[FileReading],
    *,
    numbers: tuple[StatedNumber, ...],
    fixes: tuple[int, ...],
    whole: frozenset[str] | set[str] = frozenset(),
    partial: frozenset[str] | set[str] = frozenset(),
) -> Facts:
    added: list[Name] = []
    removed: list[Name] = []
    kept: list[Name] = []
    changed: list[Name] = []
    exports_added: list[Name] = []
    exports_removed: list[Name] = []
    reexports: list[Reexport] = []
    tests_added: list[Name] = []
    deprecations: list[Deprecation] = []
    # Names the added lines define or a package exports, anywhere in the change: a name
    # removed in one place and provided in another is not gone.
    # (an `__all__` entry naming nothing the module binds is no export: importing it failed)
    listed = {
        (r.path, sign): side.exports - (unbound(side, text) if r.path in whole else set())
        for r in readings
        for sign, side, text in (("+", r.plus, r.texts[1]), ("-", r.minus, r.texts[0]))
    }
    provided = {n for r in readings for n in (*r.plus.defs, *listed[r.path, "+"])}
    # Top-level names a file read whole still defines or imports at the commit: a name taken
    # out of one module that the change still provides elsewhere is not gone for callers.
    still = {n for r in readings if r.path in whole for n in (*r.plus.defs, *r.plus.imports)} - {""}
    # Bodies of every definition and test at the parent: one found again is moved, not new.
    old_bodies = {b for r in readings for b in r.minus.bodies.values()}
    # Tests the change takes out of a file: one of the same name in another file moved there
    # (a new file is read from its patch, without the bodies to compare).
    tests_gone = {
        n for r in readings for n in r.minus.tests if n not in r.plus.tests and n not in r.plus.defs
    }
    # ...into another file's class too (typeguard d113e64: `TestCheckReturnType.test_x` out of
    # `test_inline.py`, `TestTypedDict.test_x` into `test_checkers.py`)
    gone_leaves = {n.rsplit(".", 1)[-1] for n in tests_gone}
    for r in readings:
        plus, minus = r.plus.defs, r.minus.defs
        # a name the parent assigned (`content_md5 = header_property(...)`) that is now a
        # definition (a property) was there before: changed, not added
        added += [
            Name(n, k, r.path)
            for n, (k, _) in plus.items()
            if n not in minus
            and n not in r.minus.assigned
            # declared for type checkers at the parent (trio 19196a8: `open_memory_channel`,
            # a class under `if TYPE_CHECKING:`, is now that class at run time too)
            and n not in r.minus.declared
            # a closure lifted to the module (`Map.bind_to_environ`'s `_get_wsgi_string`)
            and not ("." not in n and n in r.minus.closures)
        ]
        removed += [
            Name(n, k, r.path)
            for n, (k, _) in minus.items()
            if n not in plus and n not in r.plus.declared
        ]
        # A definition replaced by an import of the same name (or a module `__getattr__`)
        # can still be imported from its module: moved, if the change defines it elsewhere,
        # else not gone.
        kept += [
            Name(n, k, r.path)
            for n, (k, _) in minus.items()
            if n not in plus
            and (
                n in r.plus.imports
                or n in r.plus.assigned
                or (r.plus.lazy and "." not in n and n not in r.plus.refused)
            )
        ]
        # in the file's order (a set's would change from run to run, and so would the text)
        # a definition whose code is the same, its docstring and comments reworded, is not
        # edited: "the fix is in `f`" would be false (click 955ca49)
        edited = dict.fromkeys(
            n
            for n, (_, line) in plus.items()
            if n in minus and minus[n][1] != line and not _same_code(r, n)
        )
        changed += [
            Name(n, k, r.path)
            for n, k in r.changed.items()
            if n in edited or (n not in plus and n not in minus)
        ]
        changed += [Name(n, plus[n][0], r.path) for n in edited if n not in r.changed]
        changed += [
            Name(n, k, r.path)
            for n, (k, _) in plus.items()
            if n not in minus and n in r.minus.assigned and n not in r.changed
        ]
        plus_exports, minus_exports = listed[r.path, "+"], listed[r.path, "-"]
        exports_added += [_export(n, r.path) for n in sorted(plus_exports - minus_exports)]
        # Gone only when nothing provides it any more: not its module (an import, a
        # definition or an assignment of the name, an `__all__` that still lists it, a module
        # `__getattr__` that may hand it out lazily), nor anything else the change adds. A
        # constant dropped from `__all__` alone can still be imported.
        lost = minus_exports - r.plus.exports - r.plus.imports.keys() - r.plus.assigned - provided
        for export in sorted(lost) if not r.plus.lazy else ():
            # a name it only imported is still where it came from: a re-export dropped
            reexport = dropped_reexport(export, r, readings, whole)
            if reexport is not None:
                reexports.append(reexport)
                continue
            # gone from where it was defined too: removed there, not from each re-exporter
            origin = None if r.path in partial else removed_origin(export, r, readings)
            if (
                origin is not None
                and not private_module(origin)
                and not r.path.endswith(("/__init__.py", "/__init__.pyi"))
            ):
                # PEP 8: a name a module imported is its implementation detail, its
                # `__all__` notwithstanding (only a package's `__init__` hands out its
                # submodules' names); the module that defined it says whether it was public
                continue
            export_gone = _export(export, origin or r.path)
            if export_gone not in exports_removed:
                exports_removed.append(export_gone)
        # A public name the module's `__getattr__` handed out by name (a deprecated alias),
        # where the module has no `__getattr__` any more and nothing else provides it.
        served = r.minus.served - r.plus.exports - r.plus.imports.keys() - r.plus.assigned
        for name in sorted(served - provided) if not r.plus.lazy else ():
            export_gone = _export(name, r.path)
            if not name.startswith("_") and export_gone not in exports_removed:
                exports_removed.append(export_gone)
        # a test taken out of its class into a module function (or back) keeps its name's last
        # part in the same file (propcache 8a68f5a: `CachedPropertyMixin.test_…` → `test_…`)
        # (the old name gone: a new class's `test_repr` beside an old class's is new)
        leaves = {n.rsplit(".", 1)[-1] for n in r.minus.tests if n not in r.plus.tests}
        leaves |= gone_leaves
        tests_added += [
            Name(n, NameKind.FUNCTION, r.path)
            for n in r.plus.tests
            if n not in r.minus.defs
            and n not in r.minus.tests
            and n.rsplit(".", 1)[-1] not in leaves
            and r.plus.bodies.get(n, "") not in old_bodies
            and n not in tests_gone
        ]
        deprecations += [Deprecation(text, r.path, repl) for text, repl in r.deprecations]

    # A method pulled up into a base class the change defines it on is still its class's.
    inherited = _inherited(removed, readings)
    removed = [n for n in removed if n not in inherited]

    # The same name out of one module and into another moved; one name out of a module and
    # one into it, of the same kind, was renamed.
    moved: list[Renamed] = []
    gone = {n.name: n for n in removed}
    for n in list(added):
        old = gone.pop(n.name, None)
        if old is not None and old.path != n.path:
            moved.append(Renamed(old, n))
    # A class taken out of another to a module of its own keeps its own name.
    by_short: dict[str, list[Name]] = {}
    for n in gone.values():
        by_short.setdefault(n.short, []).append(n)
    taken = {m.new for m in moved}
    for n in added:
        olds = by_short.get(n.short, [])
        if (
            n not in taken
            and len(olds) == 1
            and olds[0].path != n.path
            and olds[0].kind is n.kind
            and "." not in n.name + olds[0].name.replace(f".{n.short}", "", 1)
        ):
            moved.append(Renamed(olds.pop(), n))
    renamed = _same_body(
        [n for n in added if n not in {m.new for m in moved}],
        [n for n in removed if n not in {m.old for m in moved}],
        readings,
        moved,
    )
    moved_new = {m.new for m in moved}
    moved_old = {m.old for m in moved}
    added = [n for n in added if n not in moved_new]
    removed = [
        n
        for n in removed
        if n not in moved_old and n not in kept and not ("." not in n.name and n.name in still)
    ]
    # The old name still served (a module `__getattr__` handing out `safecall` for
    # `_safecall` with a deprecation warning, or an alias kept): no rename callers meet.
    aliased = [r for r in renamed if r.old in kept]
    renamed = [r for r in renamed if r not in aliased]
    renamed_names = {r.old for r in renamed} | {r.new for r in renamed}
    renamed_names |= {r.new for r in aliased}
    added = [n for n in added if n not in renamed_names]
    removed = [n for n in removed if n not in renamed_names]
    # a class renamed with its methods (the same code but for its own name and attributes
    # renamed throughout): its members go with it
    classes, carried = classes_renamed(added, removed, readings)
    # a function whose docstring says the same but for the words its name changed
    by_docstring = renamed_documented(
        [n for n in added if n not in carried], [n for n in removed if n not in carried], readings
    )
    renamed += [*classes, *by_docstring]
    renamed_names = {r.old for r in (*classes, *by_docstring)} | carried
    renamed_names |= {r.new for r in (*classes, *by_docstring)}
    added = [n for n in added if n not in renamed_names]
    removed = [n for n in removed if n not in renamed_names]
    for path in dict.fromkeys(n.path for n in removed):
        out = [n for n in removed if n.path == path]
        into = [n for n in added if n.path == path]
        # from a file read whole, only where both take the same parameters: two that differ
        # are one removed and one added (pytest-timeout c1c6691's hook
        # `pytest_runtest_logfinish(nodeid, location)` gone, `pytest_runtest_makereport(item,
        # call)` new: no rename)
        if (
            len(out) == 1
            and len(into) == 1
            and out[0].kind is into[0].kind
            and (path not in whole or _same_parameters(readings, path, out[0], into[0]))
        ):
            renamed.append(Renamed(out[0], into[0]))
    # one whose code differs only by the new names of those renamed (a helper calling a
    # helper, both renamed) was renamed with them
    paired = {r.old for r in renamed} | {r.new for r in renamed}
    renamed += renamed_following(
        [n for n in added if n not in paired],
        [n for n in removed if n not in paired],
        readings,
        [*renamed, *moved],
    )
    renamed_names = {r.old for r in renamed} | {r.new for r in renamed}
    added = [n for n in added if n not in renamed_names and not _is_test_name(n, files)]
    removed = [n for n in removed if n not in renamed_names]
    # A class its module still serves by the old name (click's `LazyFile`, handed out for
    # `_LazyFile`) keeps its members for callers, and its private twin is that class.
    still_served = {(n.path, n.name) for n in kept if "." not in n.name}
    twins = {(path, f"_{name}") for path, name in still_served}
    removed = [n for n in removed if _top(n) not in still_served]
    renamed = [r for r in renamed if _top(r.old) not in still_served and _top(r.new) not in twins]
    added = [n for n in added if _top(n) not in twins]
    added, removed = _carried(added, removed, readings, moved)
    added = [n for n in added if n.path not in partial]
    removed = [n for n in removed if n.path not in partial]
    renamed = [r for r in renamed if r.old.path not in partial]
    # A definition whose code differs only by the new name of one renamed (`_foo()` now
    # `_bar()`, here or through an import) follows the rename: not edited, the rename said
    # once (cachetools aae7bf5's `cachedmethod`)
    follows = follows_of([*renamed, *moved], readings)
    followed: list[Followed] = []
    if follows:
        at = {r.path: r for r in readings}
        edits = []
        for n in changed:
            pairs = (
                only_follows(at[n.path], n.name, n.name, follows[n.path])
                if n.path in follows
                else []
            )
            followed += [Followed(n.name, n.path, pair) for pair in pairs]
            if not pairs:
                edits.append(n)
        changed = edits
    exports_added = [n for n in exports_added if n.path not in partial]
    exports_removed = [n for n in exports_removed if n.path not in partial]
    reexports = [n for n in reexports if n.path not in partial]

    flags = _settings([(r.path, r.plus.flags, r.minus.flags, r.context.flags) for r in readings])
    env = _settings([(r.path, r.plus.env, r.minus.env, r.context.env) for r in readings])
    keys = _settings([(r.path, r.plus.keys, r.minus.keys, r.context.keys) for r in readings])
    defaults = flags[2] + env[2] + keys[2]
    standing: list[DefaultChange] = []
    named: list[tuple[str, str]] = []
    for r in readings:
        for field, value in r.plus.fields.items():
            was, now = _default_of(r.minus.fields.get(field)), _default_of(value)
            if was is not None and now is not None and was != now and _public(field):
                defaults.append(DefaultChange(field, was, now, r.path))
        # a public function's or method's parameter default, read from both whole files
        for param, now in r.plus.params.items():
            was = r.minus.params.get(param)
            if was is not None and now.isidentifier() and not was.isidentifier():
                named.append((r.path, now))
            if (
                was is not None
                and was != now
                and _public(param.split("(", 1)[0])
                and not (_SENTINEL.fullmatch(was) and _SENTINEL.fullmatch(now))
                and not _same_number(was, now)
                and not follows_value(was, now, follows.get(r.path))
                and not sentinel_renamed(was, now, readings)
                # a name of the same value is no change (tinydb 50d0cd8: `name=DEFAULT_TABLE`
                # to `name='_default'`, the class binding `DEFAULT_TABLE = '_default'`)
                and default_value(r.minus, param, was) != default_value(r.plus, param, now)
            ):
                # a new default that stands for the old value where nothing else is set
                stands = was in _stands_for(r.plus, param, now)
                (standing if stands else defaults).append(DefaultChange(param, was, now, r.path))
    registered, unregistered = [], []
    for r in readings:
        for name, (registry, via) in r.plus.registrations.items():
            if name not in r.minus.registrations:
                registered.append(Registration(name, registry, r.path, via))
        for name, (registry, via) in r.minus.registrations.items():
            if name not in r.plus.registrations:
                unregistered.append(Registration(name, registry, r.path, via))
    values = [
        DefaultChange(key, was, now, r.path)
        for r in readings
        for key, now in r.plus.values.items()
        if now is not None and (was := r.minus.values.get(key)) is not None and was != now
    ]
    signatures: list[SignatureChange] = []
    raised: list[Raised] = []
    caught: list[Caught] = []
    optional: list[ParamDefault] = []
    returned: list[Returned] = []
    gives: list[Gives] = []
    retyped: list[Retyped] = []
    checks: list[Compared] = []
    handed: list[HandedRaise] = []
    messages: list[Message] = []
    conditions: list[Condition] = []
    in_place: list[Rewritten] = []
    early: list[ReturnsEarly] = []
    narrowed: list[GuardNarrowed] = []
    computed: list[Recomputed] = []
    early_set: list[SetEarly] = []
    keywords: list[Passed] = []
    logs: list[Logged] = []
    tests_paths = {f.path for f in files if f.kind is PathKind.TESTS}
    for r in readings:
        # what the calls and raises are compared on: the functions the change edits, and
        # the tests it adds
        # (a function whose code is the same, a local renamed throughout, is not edited: its
        # conditions and statements did not change, cachetools d20f70b's `expire`)
        edited_here = [
            n
            for n, (k, d) in r.plus.defs.items()
            if n in r.minus.defs
            and r.minus.defs[n][1] != d
            and (k is NameKind.CLASS or not _same_code(r, n))
            and not (r.path in follows and only_follows(r, n, n, follows[r.path]))
        ]
        detail(r.plus, [*edited_here, *(t.name for t in tests_added if t.path == r.path)])
        detail(r.minus, edited_here)
    by_path = {r.path: r for r in readings}
    for r in readings:
        # a function defined twice at either revision (`if sys.version_info …: def f(type)`
        # `else: def f(_)`) is compared as neither: which one runs depends on the interpreter
        # (cattrs dce7347)
        twice = r.plus.redefined | r.minus.redefined
        # a stub's module beside it, read too: its `def`s are what callers meet
        module = by_path.get(r.path[:-1]) if r.path.endswith(".pyi") else None
        # in a stub a function's `@overload`s together are its signature: an implementation
        # below them is read by no one (a module's is what a call meets at run time)
        signed, signed_before = r.plus.signatures, r.minus.signatures
        if r.path.endswith(".pyi"):
            signed = signed | r.plus.overloads
            signed_before = signed_before | r.minus.overloads
        for name, params in signed.items():
            before = signed_before.get(name)
            if before is None or name in twice:
                continue
            gained, dropped = _unnamed_kept(_by_name(params, before), _by_name(before, params))
            # a stub catching up with (or falling behind) the module the commit also changes,
            # whose function it describes at both revisions, changes no call: the module's
            # own reading says what its signature became (more-itertools d49571b: the stub's
            # `nth_prime` gained `approximate`, which the module's took already)
            stub_only = (
                module is not None
                and name in module.minus.signatures
                and name in module.plus.signatures
            )
            if stub_only:
                gained = dropped = ()
            # a parameter no caller names is no name gained or lost (trio b914c84: `__buflen`
            # became `buflen` before `/`)
            gained = tuple(
                p for p in gained if parameter_name(p) not in r.plus.positional.get(name, ())
            )
            dropped = tuple(
                p for p in dropped if parameter_name(p) not in r.minus.positional.get(name, ())
            )
            # where `@overload`s are all a side has (a stub), which one a call meets is a type
            # checker's choice: no one `def` places its positional parameters
            shifts = (
                ()
                if stub_only or name in r.plus.overloaded or name in r.minus.overloaded
                else shifted(r.minus.functions.get(name), r.plus.functions.get(name))
            )
            if (gained or dropped) and _private_leaf(name) and _same_code(r, name):
                # a private function's parameters renamed throughout it (`_f(iterable)` →
                # `_f(iterator)`): the same code, taking the same arguments by place
                gained = dropped = ()
            if gained or dropped or shifts:
                takes_any = any(p.lstrip().startswith("**") for p in params)
                renamed_here = _renamed_in_place(
                    r.minus.functions.get(name), r.plus.functions.get(name), dropped, gained
                )
                throughout = len(renamed_here) == len(dropped) == len(gained) == 1 and (
                    renamed_throughout(
                        r.minus.functions.get(name),
                        r.plus.functions.get(name),
                        parameter_name(dropped[0]),
                        parameter_name(gained[0]),
                    )
                )
                starred = [parameter_name(q) for q in gained if q.lstrip().startswith("**")]
                read_for = (
                    keywords_read(r.plus.functions.get(name), starred[0], r.plus.functions.get)
                    if starred
                    else ()
                )
                signatures.append(
                    SignatureChange(
                        name,
                        r.path,
                        gained,
                        dropped,
                        takes_any,
                        renamed_here,
                        shifts,
                        throughout,
                        read_for,
                    )
                )
            new = r.plus.raises.get(name, frozenset()) - r.minus.raises.get(name, frozenset())
            new -= r.minus.narrowed.get(name, frozenset())
            # one raised at the parent by a function it called is none a caller newly meets
            # (trio f03663a: `fail_after` raised `TooSlowError` through `fail_at`)
            # (asked only where there is one to take away: the callees are walked)
            if new:
                new -= raised_through(r.minus, name)
            # `except TypeError: raise TypeError("…")` in a handler new to it gives the
            # exception a caller met already its message (python-tabulate f660f66)
            again = _reraised_anew(r, name, new)
            if new - again:
                raised.append(_raised(r, name, new - again))
            elif again:
                raised.append(dataclasses.replace(_raised(r, name, again), reraised=True))
            was_caught, now_caught = r.minus.catches.get(name), r.plus.catches.get(name)
            if (
                was_caught is not None
                and now_caught is not None
                and was_caught != now_caught
                # a tuple of exceptions held by a name (`except PAUSE_RESUME_READING_ERRORS:`,
                # aiohttp 93a2b1c) says nothing of which it catches
                and not any(map(_held, (*was_caught, *now_caught)))
            ):
                # `except ValueError` → `except Exception` still catches ValueError
                catches = _not_covered(now_caught - was_caught, was_caught)
                # a handler that raises its class again catches nothing a caller misses
                held = {h for k in again for h in reraised(r.plus.functions.get(name))[k]}
                catches = tuple(c for c in catches if c not in held)
                # a `try` moved into a helper it now calls still catches (svcs
                # `_takes_container`, anyio 68f5891's `getaddrinfo`)
                catching = now_caught | caught_through(r.plus, name)
                uncaught = _not_covered(was_caught - catching, catching)
                # a lookup now tested before it is made (`if k in d:`) fails no more: what
                # its handler caught reaches no caller (toolz 2ac03ce's `join`)
                unfailing = lookups_tested(
                    r.minus.functions.get(name), r.plus.functions.get(name), uncaught
                )
                uncaught = tuple(u for u in uncaught if u not in unfailing)
                if catches or uncaught:
                    caught.append(Caught(name, r.path, catches, uncaught))
            was_given, now_given = r.minus.returns.get(name), r.plus.returns.get(name)
            # a parent that returned a value not written as a literal (`return INTERRUPTED`)
            # may have given the "new" one already
            if (
                was_given is not None
                and now_given is not None
                and UNPRINTABLE not in was_given
                and (fresh := now_given - was_given - {UNPRINTABLE})
            ):
                returned.append(Returned(name, r.path, tuple(sorted(fresh))))
            # (of a function whose text changed: walking every one costs)
            text_changed = name in r.plus.defs and r.minus.defs.get(name) != r.plus.defs[name]
            given = (
                returns_changed(r.minus.functions.get(name), r.plus.functions.get(name))
                if text_changed and name not in twice
                else None
            )
            if given is not None:
                gives.append(Gives(name, r.path, *given))
                # "now returns `b` instead of `a`" says the new literal and more
                returned = [f for f in returned if (f.name, f.path) != (name, r.path)]
            if r.path.endswith((".py", ".pyi")):
                if not stub_only:
                    optional += _defaults_given(name, r.path, before, params)
                if r.path not in tests_paths and not _short(name).startswith("test"):
                    compared = _compares_added(r, name)
                    checks += compared
                    # a function one node at both revisions, or two alike, hands out no new
                    # closure and reaches no raise it did not (`handed_raises`,
                    # `raises_no_longer`): compared once for both (most of a file's are)
                    was_def, now_def = r.minus.functions.get(name), r.plus.functions.get(name)
                    was_text = r.minus.written.get(name)
                    alike = (was_text is not None and was_text == r.plus.written.get(name)) or (
                        isinstance(was_def, ast.FunctionDef | ast.AsyncFunctionDef)
                        and isinstance(now_def, ast.FunctionDef | ast.AsyncFunctionDef)
                        and same_tree(was_def, now_def)
                    )
                    if not alike:
                        handed += handed_raises(name, r.path, was_def, now_def)
                    messages += _messages_changed(r, name)
                    # a test rewritten to compare a new string is "now checks for" it already
                    strings = [v for c in compared for v in c.values]
                    tested = [
                        c
                        for c in conditions_changed(
                            r, name, new, follows[r.path].names if r.path in follows else None
                        )
                        if c.turn is not Turn.CHANGED or not any(v in c.test for v in strings)
                    ]
                    narrowed += guards_narrowed(r, name)
                    conditions += tested
                    # a raise gone is said with its condition, unless "now raises `F` instead
                    # of `E`" says it
                    insteads = {
                        e for f in raised if (f.name, f.path) == (name, r.path) for e in f.gone
                    }
                    if not alike:
                        conditions += [
                            c for c in raises_no_longer(r, name) if c.was not in insteads
                        ]
                    # a new exception its only raise, a new guard at the top of the body,
                    # raises is said with its condition ("now raises `E` when `t`"), not as
                    # "may now raise `E`" too (never in place of "raises `E` instead of `F`")
                    guarded = {c.was for c in tested if c.turn is Turn.RAISES} & new
                    mine = [f for f in raised if (f.name, f.path) == (name, r.path)]
                    if guarded and any(len(f.exceptions) == len(f.gone) == 1 for f in mine):
                        conditions = [
                            c for c in conditions if not (c in tested and c.was in guarded)
                        ]
                    elif guarded and any(f.message is not None for f in mine):
                        # the author's message is said where "may now raise" is, the
                        # condition among the others
                        conditions = [
                            dataclasses.replace(c, new=False) if c in tested else c
                            for c in conditions
                        ]
                    elif guarded:
                        raised = _unguarded(raised, name, r.path, guarded)
                    # a statement rewritten in place, where no condition of it is said
                    # (of the functions the change edits: read in detail at both revisions)
                    detailed = name in r.plus.conditions and name in r.minus.conditions
                    if detailed and not tested and not compared:
                        in_place += statements_rewritten(r, name)
                    # what a new guard at the top of the body returns (its condition kept:
                    # a public function's is said with the value, another's without)
                    now_node = r.plus.functions.get(name)
                    for c in tested:
                        gave = (
                            early_value(now_node, c.test, r.minus.functions.get(name))
                            if c.turn is Turn.RETURNS
                            else None
                        )
                        if gave is not None:
                            early.append(ReturnsEarly(name, r.path, gave, c.test))
                    # (of the functions the change edits: a local renamed throughout, or a
                    # definition's new name followed, is no edit, `edited_here`)
                    if detailed and text_changed and name not in twice:
                        was_node = r.minus.functions.get(name)
                        computed += [
                            Recomputed(
                                name,
                                r.path,
                                *found,
                                returned=returns_only(was_node, found[0])
                                and returns_only(now_node, found[0]),
                            )
                            for found in recomputed(was_node, now_node)
                        ]
                        early_set += [
                            SetEarly(name, r.path, *found)
                            for found in set_early(name, was_node, now_node, r.minus.functions)
                        ]
                    keywords += keywords_changed(r, name)
                    logs += _logs_added(r, name)
            was_typed, now_typed = (
                r.minus.annotations.get(name, {}),
                r.plus.annotations.get(name, {}),
            )
            retyped += [
                Retyped(name, param, r.path, was_typed[param], new)
                for param, new in now_typed.items()
                if param in was_typed
                and was_typed[param] != new
                and _type_of(was_typed[param]) != _type_of(new)
                # `Iterable[_T]` → `Iterable[_T_co]`: one type variable for another is no
                # other type a caller may pass (a class made covariant)
                and not _same_but_type_variables(
                    was_typed[param], new, r.minus.typevars, r.plus.typevars
                )
                # `-> QueryImpl` → `-> QueryInstance`, the class renamed: the rename is said
                and not follows_names(was_typed[param], new, follows.get(r.path))
            ]
    # and where the changed files' other definitions are newly called (never a builtin's
    # or a library's name: only what the changed files define)
    calls = _calls_only_at(readings, new=True)
    dropped_calls = _calls_only_at(readings, new=False)
    # a statement rewritten in place is said only of a function nothing else is said of
    told = {c.caller for c in (*calls, *dropped_calls)}
    told |= {f.name for f in signatures} | {f.name for f in raised} | {f.name for f in caught}
    told |= {f.name for f in returned} | {f.name for f in checks} | {f.name for f in messages}
    told |= {f.name for f in gives}
    told |= {f.name for f in keywords}
    in_place = [f for f in in_place if f.name not in told]
    # a Python 2 shim's call written as the method it stood for is the same statement
    in_place = same_on_python3(in_place, readings)
    said = [n.name for n in added] + [c.caller for c in (*calls, *dropped_calls)]
    said += [f.name for f in signatures] + [f.name for f in raised] + [f.name for f in caught]
    said += [f.name for f in optional] + [f.name for f in returned] + [f.name for f in retyped]
    said += [f.name for f in gives]
    said += [f.name for f in early] + [f.name for f in computed]
    said += [f.name for f in checks] + [f.name for f in messages]
    said += [f.name for f in conditions] + [f.name for f in keywords]
    said += [f.name for f in in_place]
    said += [n.removesuffix(".__init__") for n in said if n.endswith(".__init__")]
    shared = [name for name in sorted(set(said)) if _defined_apart(name, readings)]
    # Where the change's own new (or moved) definitions are used: a new helper is said with
    # the functions that now call it.
    defined = (
        {n.short for n in added} | {m.new.short for m in moved} | {r.new.short for r in renamed}
    )
    calls.sort(key=lambda c: c.callee not in defined)
    imports = [
        ImportMove(name, was, module, r.path)
        for r in readings
        for name, module in r.plus.imports.items()
        if module and (was := r.minus.imports.get(name)) and was != module
    ]
    aliases = [
        Alias(name, of, r.path)
        for r in readings
        if r.path.endswith(".py")
        for name, of in r.plus.bound.items()
        # (a name the parent defined or imported is no new one: `find_last_key = find_key`
        # in place of its own `def` is the same name made an alias)
        if of
        and not name.startswith("_")
        and name not in r.minus.assigned
        and name not in r.minus.defs
        and name not in r.minus.imports
    ]
    sections = [
        Section(title, r.path, r.plus.section_texts.get(title, ""))
        for r in readings
        for title in dict.fromkeys(r.plus.sections)
        if title not in r.minus.sections
    ]
    requirements, metadata_moved = _requirements(readings)
    constants = compare_constants(
        readings,
        {
            f.path
            for f in files
            if f.path in whole and f.path not in partial and f.status not in ("added", "removed")
        },
    )
    # how a caller calls each new Python definition, read from its file at the commit
    # (a stub's `def` is what a type checker reads, not what a call runs)
    sides = {r.path: r.plus for r in readings if r.path.endswith(".py")}
    signatures_added = [
        Signature(n.name, n.path, text)
        for n in added
        if n.path in sides and (text := signature(sides[n.path], n.name, n.kind)) is not None
    ]
    parents = {r.path: r.minus for r in readings if r.path.endswith(".py")}
    described = [
        docstring
        for n in added
        if n.path in sides
        and (docstring := documented(sides[n.path], n.name, n.path, parents.get(n.path)))
        is not None
    ]
    # what the docstrings of definitions the file had at the parent now say anew
    rewritten = [
        docstring
        for r in readings
        if r.path in whole and r.path in sides
        for name in (*r.plus.functions, *r.plus.classes)
        # a class that was a type alias (structlog acc17ed's `Styles`) is one name still
        if (name in r.minus.defs or name in r.minus.assigned)
        and (docstring := redocumented(r.plus, name, r.path, r.minus)) is not None
    ]
    return Facts(
        files=files,
        added=_cap(added),
        removed=_cap(removed),
        renamed=_cap(renamed),
        moved=_cap(moved),
        changed=_cap(list(dict.fromkeys(changed))),
        edited=_cap(_edited(changed, readings, whole)),
        followed=_cap(list(dict.fromkeys(followed))),
        exports_added=_cap(exports_added),
        exports_removed=_cap(exports_removed),
        reexports_dropped=_cap(reexports),
        flags_added=_with_help(flags[0], readings),
        flags_removed=flags[1],
        # A dependency's variable read by the project's script or code is not the project's
        # new setting.
        env_added=tuple(s for s in env[0] if not s.name.startswith(_DEPENDENCY_ENV)),
        env_removed=tuple(s for s in env[1] if not s.name.startswith(_DEPENDENCY_ENV)),
        config_keys_added=keys[0],
        config_keys_removed=keys[1],
        defaults_changed=_cap(defaults),
        defaults_kept=_cap(standing),
        defaults_named=tuple(dict.fromkeys(named)),
        values_changed=_cap(values),
        # "and N more" counts them: a hand-written module's run of constants (a family of
        # regexes) passes `CAP`; a generated file's thousands are never read
        constants_added=tuple(constants.added[: CAP * 10]),
        aliases_added=tuple(aliases[:CAP]),
        constants_removed=_cap(constants.removed),
        constants_renamed=_cap(constants.renamed),
        constants_changed=_cap(constants.changed),
        tables_changed=_cap(constants.tables),
        tables_added=_cap(constants.tables_added),
        signatures_changed=_cap(signatures),
        raises_added=_cap(raised),
        catches_changed=_cap(caught),
        optional_changed=_cap(optional),
        returns_added=_cap(returned),
        returns_now=_cap(gives),
        retyped=_cap(retyped),
        made_covariant=tuple(_made_covariant(readings)),
        fields_added=_cap([f for r in readings if r.path.endswith(".py") for f in fields_added(r)]),
        compares_added=_cap(checks),
        handed_raises=_cap(handed),
        messages_changed=_cap(messages),
        conditions_changed=_cap(conditions),
        returns_early=_cap(early),
        guards_narrowed=_cap(narrowed),
        recomputed=_cap(computed),
        set_early=_cap(early_set),
        rewritten=_cap(in_place),
        keywords_changed=_cap(keywords),
        logs_added=_cap([*logs, *_logs_of_new(readings, tests_paths)]),
        signatures_added=_cap(signatures_added),
        documented=_cap(described),
        redocumented=_cap(rewritten),
        abstract_added=_cap(abstract_added(added, sides, parents)),
        overrides=_cap(overrides(added, sides)),
        dangling=_cap(_dangling(readings, whole)),
        short_calls=_cap(
            [
                c
                for r in readings
                if r.path in whole and r.path.endswith(".py") and _may_call_short(r)
                for c in short_calls(r.path, r.texts[0], r.texts[1])
            ]
        ),
        test_rewrites=_cap(_test_rewrites(files, readings, whole)),
        expected=_cap(_expected(files, readings, whole)),
        rows_added=_cap(_rows_added(files, readings, whole)),
        forwarded=_cap(
            [
                f
                for r in readings
                if r.path in whole and r.path.endswith(".py")
                for f in forwarded_options(r.path, r.texts[0], r.texts[1])
            ]
        ),
        listed=tuple(
            (r.path, frozenset(r.plus.exports))
            for r in readings
            if r.path in whole and r.path.endswith(".py") and r.plus.listed
        ),
        # not cut: a lookup, said of no name by itself
        names_shared=tuple(shared),
        calls_added=_cap(calls),
        calls_removed=_cap(dropped_calls),
        tested=_cap(_tested(tests_added, readings, files, {*changed, *added})),
        # not cut at `CAP`: a sentence counts the files that import one name anew
        # ("and 3 more" of 7 files said 5 for quart 171c4a7)
        imports_moved=tuple(imports[:_MANY]),
        deprecations=_cap(list(dict.fromkeys(deprecations))),
        registered=_cap(_once(registered)),
        unregistered=_cap(_once(unregistered)),
        requirements=_cap(requirements),
        metadata_moved=metadata_moved,
        tests_added=_cap(tests_added),
        sections_added=_cap(sections),
        numbers=numbers,
        fixes=fixes,
    )


# A module-level assignment of a public name (`PRESERVE_WHITESPACE = False`), or a line that
# names one, among the lines a patch removes: a setting its module may stop reading
_REMOVED_WORDS = re.compile(r"^-(?!--)(.*)$", re.MULTILINE)
# Documents whose words say a setting is there for users to set
_DOCUMENT = re.compile(r"(?:^|/)(?:README[^/]*|docs?/[^/]+\.(?:md|rst|txt))$", re.IGNORECASE)


def _settings_ignored(
    commit: CommitInput, readings: list[FileReading], whole: set[str]
) -> list[IgnoredSetting]:
    """Public settings of the changed public modules read whole that their functions read at
    the parent and no shipped file read whole (changed, or read beside) reads at the commit
    (`ignored.ignored_settings`), where the patch removes a line naming one (the cheap test
    first: most commits leave every setting read)."""
    shipped = {
        r.path: r.texts[1]
        for r in readings
        if r.path in whole and r.path.endswith(".py") and ships(r.path)
    }
    docs = [
        text
        for f in commit.files
        if _DOCUMENT.search(f.filename)
        and (text := f.before if f.before is not None else "\n".join(_minus_lines(f.patch)))
    ]
    docs += [text for path, text in commit.modules if _DOCUMENT.search(path)]
    found: list[IgnoredSetting] = []
    for r in readings:
        if r.path not in shipped or private_module(r.path) or not r.texts[0] or not r.texts[1]:
            continue
        names = {
            n for n in (*r.minus.assigned, *r.minus.constants) if "." not in n and n[:1] != "_"
        }
        removed = "\n".join(_minus_lines(r.patch))
        # (a function reads it on an indented line: one no indented line names at the
        # commit may be unread; parsing scopes is asked only then)
        if not any(
            re.search(rf"\b{re.escape(n)}\b", removed)
            and re.search(rf"^[ \t]+.*\b{re.escape(n)}\b", r.texts[0], re.MULTILINE)
            and not re.search(rf"^[ \t]+.*\b{re.escape(n)}\b", r.texts[1], re.MULTILINE)
            for n in names
        ):
            continue
        others = [
            *(t for p, t in shipped.items() if p != r.path),
            *(t for p, t in commit.modules if p.endswith(".py") and ships(p)),
        ]
        found += ignored_settings(r.path, *r.texts, others, docs)
    return found


def _minus_lines(patch: str | None) -> list[str]:
    return _REMOVED_WORDS.findall(patch or "")


def _dangling(readings: list[FileReading], whole: frozenset[str] | set[str]) -> list[Dangling]:
    """Names the commit removes from a Python module read whole that the module still reads,
    then those another changed module read whole still imports from it."""
    # (asked only where a name the module bound at the parent may be gone and is still
    # written: a whole-tree reading of every changed module had made a day's digest several
    # times slower)
    read_after = "\n".join(
        r.texts[1] or "" for r in readings if r.path in whole and r.path.endswith(".py")
    )
    python = [
        r
        for r in readings
        if r.path in whole and r.path.endswith(".py") and _may_lose_names(r, read_after)
    ]
    removed = {r.path: gone for r in python if (gone := removed_names(r.path, *r.texts))}
    found = [
        d for r in python if r.path in removed for d in dangling(r.path, *r.texts, removed[r.path])
    ]
    if removed:
        found += [d for r in python for d in imports_removed(r.path, r.texts[1], removed)]
    return found


def _may_lose_names(r: FileReading, read_after: str) -> bool:
    """Whether a module read whole may bind fewer names at the commit that code at the
    commit still reads (`read_after`: the changed Python files' texts at the commit): a
    definition of its side tables gone, a name its import lines or some line's assignment
    bound at the parent and not at the commit, that word still written after it."""
    lost = {n.rsplit(".", 1)[-1] for n in set(r.minus.defs) - set(r.plus.defs)}
    (before, was), (after, now) = (_binding_lines(t or "") for t in r.texts)
    lost |= set(_WORD.findall(" ".join(before - after)))
    lost |= was - now
    # one scan of the texts for all the names (a regex backtracks into the alternation: a
    # match wherever one name alone matches)
    words = "|".join(re.escape(n) for n in sorted(lost))
    return bool(lost) and re.search(rf"\b(?:{words})\b", read_after) is not None


# a name some line of the text assigns (`PY3 = …`, `a, b = …`, `x: int = …`), at any depth
_ASSIGNED = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]*(?:,[^=\n]*)?(?::[^=\n]*)?=(?!=)", re.M)
_WORD = re.compile(r"[A-Za-z_]\w*")


@functools.lru_cache(maxsize=64)
def _binding_lines(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """A text's import lines and the names its lines assign, kept by text: a commit's text
    is its next commit's parent text."""
    return _import_lines(text), frozenset(_ASSIGNED.findall(text))


def _import_lines(text: str | None) -> frozenset[str]:
    return frozenset(line.strip() for line in (text or "").splitlines() if "import " in line)


def _may_call_short(r: FileReading) -> bool:
    """Whether a module read whole may make a call short of an argument it did not make
    before: a function the module calls changed its parameters, or a function makes more
    calls of a name the module defines (plainly or through `self.`) than it did."""
    called = {c.rsplit(".", 1)[-1] for calls in r.plus.passes.values() for c in calls}
    was, now = r.minus.signatures, r.plus.signatures
    if any(n in was and was[n] != now[n] and n.rsplit(".", 1)[-1] in called for n in now):
        return True
    defined = {n.rsplit(".", 1)[-1] for n in r.plus.defs}
    for function, calls in r.plus.passes.items():
        old = r.minus.passes.get(function, {})
        for callee, shapes in calls.items():
            if len(old.get(callee, ())) < len(shapes) and callee.rsplit(".", 1)[-1] in defined:
                return True
    return False


def _test_rewrites(
    files: tuple[FileFact, ...], readings: list[FileReading], whole: frozenset[str] | set[str]
) -> list[RewrittenTests]:
    """The rewrite each changed Python test file read whole shows in place, the file with
    the most lines rewritten alike first."""
    tests = {f.path for f in files if f.kind is PathKind.TESTS and f.status == "modified"}
    found = [
        rewrite
        for r in readings
        if r.path in whole and r.path in tests and r.path.endswith(".py")
        for rewrite in rewritten_tests(r.path, r.texts[0], r.texts[1])
    ]
    return sorted(found, key=lambda t: -t.more)


def _expected(
    files: tuple[FileFact, ...], readings: list[FileReading], whole: frozenset[str] | set[str]
) -> list[Expected]:
    """The cases each Python test file read whole asserts anew (`expected_cases`)."""
    tests = {
        f.path for f in files if f.kind is PathKind.TESTS and f.status in {"modified", "added"}
    }
    return [
        case
        for r in readings
        if r.path in whole and r.path in tests and r.path.endswith(".py")
        for case in expected_cases(r.path, r.texts[0], r.texts[1])
    ]


def _rows_added(
    files: tuple[FileFact, ...], readings: list[FileReading], whole: frozenset[str] | set[str]
) -> list[RowsAdded]:
    """The rows each modified Python source file read whole adds to its tables of tuples."""
    sources = {
        f.path
        for f in files
        if f.kind in (PathKind.SOURCE, PathKind.PUBLIC_API) and f.status == "modified"
    }
    return [
        rows
        for r in readings
        if r.path in whole and r.path in sources and r.path.endswith(".py")
        for rows in rows_added(r.path, r.texts[0], r.texts[1])
    ]


def _with_help(flags: tuple[Setting, ...], readings: list[FileReading]) -> tuple[Setting, ...]:
    """Each new flag with its own help text where the file that declares it gives one."""
    helps = {r.path: r.plus.flag_help for r in readings}
    return tuple(
        dataclasses.replace(f, help=words) if (words := helps.get(f.path, {}).get(f.name)) else f
        for f in flags
    )


def _settings(
    sides: list[tuple[str, dict[str, str | None], dict[str, str | None], dict[str, str | None]]],
) -> tuple[tuple[Setting, ...], tuple[Setting, ...], list[DefaultChange]]:
    """Settings gained, lost, and whose default changed, compared by name over the whole
    change: one moved between modules, declared again (a flag given `help=`) or still read
    on a context line is neither gained nor lost."""
    plus_all = {name for _, plus, _, _ in sides for name in plus}
    minus_all = {name for _, _, minus, _ in sides for name in minus}
    kept = {name for _, _, _, context in sides for name in context}
    gained: dict[str, Setting] = {}
    lost: dict[str, Setting] = {}
    defaults: list[DefaultChange] = []
    for path, plus, minus, _ in sides:
        for name, default in plus.items():
            if name not in minus_all and name not in kept:
                gained.setdefault(name, Setting(name, path, default))
            elif name in minus and default and minus[name] and default != minus[name]:
                defaults.append(DefaultChange(name, minus[name] or "", default, path))
        for name, default in minus.items():
            if name not in plus_all and name not in kept:
                lost.setdefault(name, Setting(name, path, default))
    return _cap(list(gained.values())), _cap(list(lost.values())), defaults


_FIELD_CALL = re.compile(r"^(?:\w+\.)?(?:Field|field|Option|Argument)\(")
_FIELD_DEFAULT = re.compile(
    r"\bdefault(_factory)?\s*=\s*([^,)]+)|^\w+(?:\.\w+)?\(\s*([^,=)\s][^,=)]*)[,)]"
)


def _default_of(value: str | None) -> str | None:
    """The default a field line gives: its value, or what `Field(default=…)` holds (a
    `Field(…)` whose validation alone changed keeps its default); `default_factory=F` gives
    each instance `F()`."""
    if value is None or not _FIELD_CALL.match(value):
        return value
    match = _FIELD_DEFAULT.search(value)
    if match is None:
        return None
    if match.group(1) is None:
        return (match.group(2) or match.group(3)).strip()
    factory = match.group(2).strip()
    # a lambda's body is what it returns; one cut at a comma is not said
    if factory.startswith("lambda"):
        body = factory.partition(":")[2].strip()
        return body if body and _balanced(body) else None
    return f"{factory}()" if _balanced(factory) else None


def _balanced(text: str) -> bool:
    return all(text.count(o) == text.count(c) for o, c in ("()", "[]", "{}"))


def _inherited(removed: list[Name], readings: list[FileReading]) -> set[Name]:
    """The methods of `removed` whose class, still defined, has them through a base class (or
    a base's base, by their last names) on which a changed file defines them."""
    gone = [n for n in removed if n.kind is NameKind.METHOD]
    if not gone:
        return set()
    bases: dict[str, tuple[str, ...]] = {}
    methods: set[tuple[str, str]] = set()
    for r in readings:
        bases.update((c.rsplit(".", 1)[-1], b) for c, b in r.plus.bases.items())
        for qualified, (kind, _) in r.plus.defs.items():
            if kind is NameKind.METHOD:
                cls, _, short = qualified.rpartition(".")
                methods.add((cls.rsplit(".", 1)[-1], short))
    plus = {r.path: r.plus for r in readings}
    found: set[Name] = set()
    for n in gone:
        owner, _, method = n.name.rpartition(".")
        side = plus.get(n.path)
        todo = list(side.bases.get(owner, ())) if side is not None else []
        seen: set[str] = set()
        while todo:
            base = todo.pop()
            if (base, method) in methods:
                found.add(n)
                break
            if base not in seen:
                seen.add(base)
                todo.extend(bases.get(base, ()))
    return found


def _not_covered(names: Iterable[str], by: Iterable[str]) -> tuple[str, ...]:
    """The exception classes of `names` that no class of `by` catches already: a builtin's
    subclass (or alias: `IOError`, `socket.error` are `OSError`) by Python's own classes,
    any class by `BaseException`, any but `KeyboardInterrupt`-like builtins by `Exception`."""

    def builtin(name: str) -> type | None:
        if name in OS_ERROR_NAMES:
            return OSError
        found = getattr(builtins, name.rsplit(".", 1)[-1], None)
        return found if isinstance(found, type) and issubclass(found, BaseException) else None

    catching = [builtin(b) for b in by]
    # `zstd.ZstdError` and `zstandard.ZstdError`: one class, its module imported anew
    last = {b.rsplit(".", 1)[-1] for b in by}
    out = []
    for name in sorted(names):
        if name.rsplit(".", 1)[-1] in last:
            continue
        own = builtin(name)
        if BaseException in catching or (
            Exception in catching and (own is None or issubclass(own, Exception))
        ):
            continue
        if own is not None and any(c is not None and issubclass(own, c) for c in catching):
            continue
        out.append(name)
    return tuple(out)


def _public(qualified: str) -> bool:
    return not any(part.startswith("_") for part in qualified.split("."))


def _same_body(
    added: list[Name], removed: list[Name], readings: list[FileReading], moved: list[Renamed]
) -> list[Renamed]:
    """Definitions out under one name and in under another with the same body, from files
    read whole: renamed (same file, appended to `moved`'s sibling list returned) or moved
    (another file, appended to `moved`)."""
    plus = {(r.path, n): b for r in readings for n, b in r.plus.bodies.items()}
    minus = {(r.path, n): b for r in readings for n, b in r.minus.bodies.items()}
    by_body: dict[str, list[Name]] = {}
    for n in added:
        if body := plus.get((n.path, n.name)):
            by_body.setdefault(body, []).append(n)
    renamed: list[Renamed] = []
    for n in removed:
        into = by_body.get(minus.get((n.path, n.name), ""), [])
        if len(into) == 1 and (
            into[0].kind is n.kind or NameKind.CLASS not in (n.kind, into[0].kind)
        ):
            pair = Renamed(n, into.pop())
            (renamed if pair.new.path == n.path else moved).append(pair)
    return renamed


def _carried(
    added: list[Name], removed: list[Name], readings: list[FileReading], moved: list[Renamed]
) -> tuple[list[Name], list[Name]]:
    """Names the change carries from one place to another, whatever their bodies became: a
    method that became a function (or back) keeps its own name, so it moved (another file)
    or changed shape (the same file); a function copied into a new module from one the
    change edits was there before. Neither is new, nor gone. Pairs across files are
    appended to `moved`."""
    gone: dict[str, list[Name]] = {}
    for n in removed:
        gone.setdefault(n.short, []).append(n)
    # every name a changed file defined at the parent (whole files: all of them)
    before_short = {_short(n) for r in readings for n in r.minus.defs}
    carried: set[Name] = set()
    kept: list[Name] = []
    for n in added:
        olds = [o for o in gone.get(n.short, []) if o not in carried]
        top = "." not in n.name and "::" not in n.name
        if olds and (top or any("." not in o.name and "::" not in o.name for o in olds)):
            carried.update(olds)
            if olds[0].path != n.path:
                moved.append(Renamed(olds[0], n))
            continue
        if top and n.short in before_short:
            # a copy of a definition a changed file had at the parent: not new code
            continue
        kept.append(n)
    return kept, [n for n in removed if n not in carried]


def _tested(
    tests: list[Name], readings: list[FileReading], files: tuple[FileFact, ...], code: set[Name]
) -> list[NewCall]:
    """The definitions outside the tests that the change edits or adds and that its new
    tests call."""
    tests_paths = {f.path for f in files if f.kind is PathKind.TESTS}
    shorts = {n.short for n in code if n.path not in tests_paths and not n.short.startswith("__")}
    calls = {(r.path, name): c for r in readings for name, c in r.plus.calls.items()}
    return [
        NewCall(test.name, callee, test.path)
        for test in tests
        for callee in sorted(calls.get((test.path, test.name), frozenset()) & shorts)
    ]


def _made_covariant(readings: list[FileReading]) -> list[Name]:
    """The classes both sides define whose bases differ only by type variables, each now
    covariant where it was not (`class C(Generic[_T])` → `class C(Generic[_T_co])`)."""
    out: list[Name] = []
    for r in readings:
        if not r.plus.covariant:
            continue
        for name, now in r.plus.classes.items():
            was = r.minus.classes.get(name)
            if was is None or len(was.bases) != len(now.bases):
                continue
            pairs = [
                (ast.unparse(a), ast.unparse(b)) for a, b in zip(was.bases, now.bases, strict=True)
            ]
            changed = [(a, b) for a, b in pairs if a != b]
            if changed and all(
                _same_but_type_variables(a, b, r.minus.typevars, r.plus.typevars)
                for a, b in changed
            ):
                old = {
                    n.id
                    for a, _ in changed
                    for n in ast.walk(ast.parse(a, mode="eval"))
                    if isinstance(n, ast.Name)
                }
                new = {
                    n.id
                    for _, b in changed
                    for n in ast.walk(ast.parse(b, mode="eval"))
                    if isinstance(n, ast.Name)
                }
                gained = (new - old) & r.plus.typevars
                if gained and gained <= r.plus.covariant and not (old & r.minus.covariant):
                    out.append(Name(name, NameKind.CLASS, r.path))
    return out


def _same_but_type_variables(was: str, now: str, was_vars: set[str], now_vars: set[str]) -> bool:
    """Whether two annotations are the same type but for which of its module's type
    variables each names where (`Iterable[_T]`, `Iterable[_T_co]`)."""
    if not was_vars or not now_vars:
        return False
    try:
        trees = [ast.parse(_type_of(text), mode="eval") for text in (was, now)]
    except (SyntaxError, ValueError):
        return False
    names = [[n.id for n in ast.walk(tree) if isinstance(n, ast.Name)] for tree in trees]
    for tree, variables in zip(trees, (was_vars, now_vars), strict=True):
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in variables:
                node.id = "~"
    return names[0] != names[1] and ast.dump(trees[0]) == ast.dump(trees[1])


def _type_of(annotation: str) -> str:
    """An annotation as the type it names: a forward reference's quotes and the modules
    names are reached through (`typing.Any`, `t.Any`, `'Any'`: `Any`) left out."""
    # `Optional[_Arg[_T]]` → `_Arg[_T] | None` is no type a caller meets anew (frozenlist
    # 0726dc8)
    return _QUALIFIER.sub("", spelled(annotation).replace("'", "").replace('"', ""))


def _said_literal(text: str) -> bool:
    """A string a sentence can quote as written: one line, short, no quote, backquote or
    backslash (its source spelling would differ), and some word in it."""
    return (
        0 < len(text) <= _SAID_LITERAL
        and text.isprintable()
        and not any(c in text for c in '`\\"“”')
        and bool(re.search(r"\w", text))
    )


def _quotable(text: str) -> bool:
    """A message a sentence can quote, cut at a word where long (`_said_literal`, however
    long)."""
    return _said_literal(text[:_SAID_LITERAL]) and _said_literal(text[-_SAID_LITERAL:])


def _compares_added(r: FileReading, name: str) -> list[Compared]:
    """The strings an edited function's own conditions now compare with that the function
    held nowhere at the parent (not even inside another string: a value moved from a
    message into a check is not new); none when more than `_BODY_CHANGES` (a rewrite)."""
    now, was = r.plus.compared.get(name), r.minus.compared.get(name)
    held = r.minus.strings.get(name)
    if now is None or was is None or held is None:
        return []
    new = sorted(v for v in now if _said_literal(v) and v.strip() and not any(v in s for s in held))
    if not new or len(new) > _BODY_CHANGES:
        return []
    also = all(now[v] & was.keys() for v in new)
    return [Compared(name, r.path, tuple(new), also)]


def _unguarded(raised: list[Raised], name: str, path: str, guarded: set[str]) -> list[Raised]:
    """The raises facts without the exceptions of `name` that its new guards say; a fact
    left with none is dropped."""
    out = []
    for fact in raised:
        if (fact.name, fact.path) != (name, path):
            out.append(fact)
        elif left := tuple(e for e in fact.exceptions if e not in guarded):
            out.append(dataclasses.replace(fact, exceptions=left))
    return out


def _reraised_anew(r: FileReading, name: str, new: frozenset[str]) -> frozenset[str]:
    """Those of `new` that `name` raises only inside handlers of their class that its code at
    the parent did not have: what a caller met there already."""
    if not new:
        # (none to ask of: most functions of a file read whole raise nothing new, and the
        # walk of a body for its handlers is the cost)
        return frozenset()
    had = r.minus.catches.get(name) or frozenset()
    again = reraised(r.plus.functions.get(name))
    return frozenset(e for e in new if e in again and not again[e] & had)


def _raised(r: FileReading, name: str, new: frozenset[str]) -> Raised:
    """The exceptions an edited function's own code now raises, those it no longer raises,
    and the message of the one new exception where a single raise gives it, written out."""
    gone = r.minus.raises.get(name, frozenset()) - r.plus.raises.get(name, frozenset())
    gone -= r.plus.narrowed.get(name, frozenset())
    # still raised through a function it now calls (`move_on_after`'s `ValueError`)
    gone -= raised_through(r.plus, name)
    message = None
    if len(new) == 1:
        (kind,) = new
        sites = [
            s for s in r.plus.raising.get(name, ()) if s.exc is not None and dotted(s.exc) == kind
        ]
        texts = {text for k, text in r.plus.messages.get(name, frozenset()) if k == kind}
        again = kind in reraised(r.plus.functions.get(name))
        if again and len(texts) == 1:
            # one message at every site (`raise TypeError(err_msg)` twice), said on one line
            texts = {" ".join(t.split()) for t in texts}
            same = {
                ast.unparse(s.exc.args[0]) if isinstance(s.exc, ast.Call) and s.exc.args else ""
                for s in sites
            }
            sites = sites[:1] if len(same) == 1 and "" not in same else sites
        if len(sites) == 1 and len(texts) == 1:
            (text,) = texts
            # a name in backquotes (“Cannot set both `pad_event` and `pad_event_to`.”) is
            # quoted as written: the pairs stay code spans inside the quotation; a re-raise's
            # message, all it changes, is quoted cut at a word where long
            plain = text.replace("`", "")
            said = _quotable(plain) if again else _said_literal(plain)
            if said and not text.count("`") % 2 and re.search("[A-Za-z]{3}", text):
                message = text
    return Raised(name, r.path, tuple(sorted(new)), tuple(sorted(gone)), message)


def _logs_added(r: FileReading, name: str) -> list[Logged]:
    """The warnings and errors an edited function's own code now logs (`pyfile.logged`),
    with a message it did not log at the parent; none when more than `_BODY_CHANGES`."""
    now = logged(r.plus.passes.get(name, {}))
    if not now:
        return []
    # (a message the parent logged already, put another way, `"… %s", x` as an f-string, is
    # none new)
    was = logged_loosely(r.minus.passes.get(name, {}))
    new = sorted((level, text) for level, text in now if (level, loose_message(text)) not in was)
    if len(new) > _BODY_CHANGES:
        return []
    return [Logged(name, r.path, level, text) for level, text in new if _quotable(text)]


def _logs_of_new(readings: list[FileReading], tests_paths: set[str]) -> list[Logged]:
    """The warnings and errors the functions a change adds to a shipped Python file log
    (aiodns c856d44: `DNSResolver._make_channel` falls back, logging why); two at most a
    function, none of a file that adds more than `_BODY_CHANGES` such messages."""
    out: list[Logged] = []
    # a function moved or renamed here from another changed file logged there already: a
    # name (its last part) or a body the parent's changed files had is no new function
    known = {n.rsplit(".", 1)[-1] for r in readings for n in r.minus.defs}
    bodies = {b for r in readings for b in r.minus.bodies.values()}
    for r in readings:
        shipped = path_kind(r.path) in (PathKind.SOURCE, PathKind.PUBLIC_API)
        if not r.path.endswith(".py") or r.path in tests_paths or not shipped:
            continue
        found = [
            Logged(name, r.path, level, text, new=True)
            for name, node in r.plus.functions.items()
            if name.rsplit(".", 1)[-1] not in known
            and r.plus.bodies.get(name) not in bodies
            and name not in r.plus.redefined
            for level, text in sorted(logged_by(node))
            if _quotable(text)
        ]
        if len(found) <= _BODY_CHANGES:
            out += found
    return out


def _messages_changed(r: FileReading, name: str) -> list[Message]:
    """The messages an edited function's own raises now give an exception it already raised
    there with another message; none when more than `_BODY_CHANGES`."""
    now, was = r.plus.messages.get(name), r.minus.messages.get(name)
    if now is None or was is None:
        return []
    raised_before = {kind for kind, _ in was}
    # a message whose words are the same, its spaces alone changed, is the same to a reader
    # (a sentence folds them: “was” would quote it as it is now), and so is one whose
    # quotes around a value may be what `{x!r}` now writes (of a value of unknown type)
    folded = {(kind, _folded_message(text)) for kind, text in was}
    new = sorted(
        (kind, text)
        for kind, text in now - was
        if kind in raised_before
        and (kind, _folded_message(text)) not in folded
        and _said_literal(text)
        and re.search(r"[A-Za-z]{3}", text)
    )
    if len(new) > _BODY_CHANGES:
        return []
    gone = was - now
    out = []
    for kind, text in new:
        old = [t for k, t in gone if k == kind]
        # as many raises of it at both revisions, one message for another: reworded
        sites = [
            sum(1 for s in side.raising.get(name, ()) if s.exc and dotted(s.exc) == kind)
            for side in (r.minus, r.plus)
        ]
        reworded = len(old) == 1 and sum(1 for k, _ in now - was if k == kind) == 1
        reworded = reworded and sites[0] == sites[1] > 0
        said = old[0] if reworded and _said_literal(old[0]) and _worded(old[0]) else None
        callers = () if _public(name) else public_callers(r.plus.functions, r.plus.classes, name)
        out.append(Message(name, r.path, kind, text, reworded, said, callers))
    return out


def _folded_message(text: str) -> str:
    """A message's words, spaces folded and quotes around a placeholder dropped."""
    return " ".join(re.sub(r"(['\"])\{…\}\1", "{…}", text).split())


def _worded(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]{3}", text))


def _defaults_given(
    name: str, path: str, before: tuple[str, ...], after: tuple[str, ...]
) -> list[ParamDefault]:
    """The parameters of one Python function (as `_parameters` writes them: `x`, `y=1`)
    kept by name that gained a default or lost theirs."""
    was = {p.split("=", 1)[0]: p.partition("=")[2] or None for p in before if "*" not in p}
    out = []
    for parameter in after:
        param, _, default = parameter.partition("=")
        if param not in was or "*" in param:
            continue
        old, new = was[param], default or None
        if (old is None) != (new is None):
            out.append(ParamDefault(name, param, path, new, old))
    return out


def _by_name(these: tuple[str, ...], those: tuple[str, ...]) -> tuple[str, ...]:
    """The parameters of `these` whose name none of `those` has (`x=1` is named `x`)."""
    known = {parameter_name(p) for p in those}
    return tuple(p for p in these if parameter_name(p) not in known)


def _unnamed_kept(
    gained: tuple[str, ...], dropped: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`gained` and `dropped` without a `*args` or `**kwargs` that only changed its name
    (`**kargs` to `**kwargs`): no caller names one, the calls it takes are the same."""
    for stars in ("**", "*"):
        new = [p for p in gained if _stars(p) == stars]
        old = [p for p in dropped if _stars(p) == stars]
        if len(new) == len(old) == 1:
            gained = tuple(p for p in gained if p != new[0])
            dropped = tuple(p for p in dropped if p != old[0])
    return gained, dropped


def _stars(parameter: str) -> str:
    written = parameter.strip()
    return written[: len(written) - len(written.lstrip("*"))]


def parameter_name(parameter: str) -> str:
    """A parameter's name as a signature shows it: `x` of `x=1`, `args` of `*args`, `n` of
    `n: i32`."""
    return parameter.split("=", 1)[0].split(":", 1)[0].strip().lstrip("*")


def _short(name: str) -> str:
    """The last part of a qualified name: `run` of `Runner.run` or `Runner::run`."""
    return name.rsplit(".", 1)[-1].rsplit("::", 1)[-1]


def _export(name: str, path: str) -> Name:
    """An exported name: a class by its capital, else a function (the line does not say)."""
    return Name(name, NameKind.CLASS if name[:1].isupper() else NameKind.FUNCTION, path)


def _is_test_name(name: Name, files: tuple[FileFact, ...]) -> bool:
    """A test function is reported among the tests added, not among the names."""
    return name.short.startswith("test") and any(
        f.path == name.path and f.kind is PathKind.TESTS for f in files
    )


def _once(registrations: list[Registration]) -> list[Registration]:
    return list({(r.name, r.registry): r for r in registrations}.values())


def _defined_apart(name: str, readings: list[FileReading]) -> bool:
    """Whether more than one changed file defines the name (`Lock.acquire` of the base class
    and of each backend), at either revision: the name alone does not say which. A module
    and its stub (`x.py`, `x.pyi`) are one place."""
    places = {
        r.path.removesuffix("i") if r.path.endswith(".pyi") else r.path
        for r in readings
        if name in r.plus.defs or name in r.minus.defs
    }
    return len(places) > 1


def _held(caught: str) -> bool:
    """An `except` clause's name that is a constant's, not a class's (`ERRORS`)."""
    last = caught.rsplit(".", 1)[-1]
    return last.isupper() and len(last) > 1


def _cap(items: list[T]) -> tuple[T, ...]:
    return tuple(items[:CAP])


def _calls_only_at(readings: list[FileReading], *, new: bool) -> list[NewCall]:
    """Calls a definition edited on both sides makes at one side only (`new`: the commit's;
    else the parent's, and none the commit's side of its file hands over to be called), to
    a name that side's files define (never a builtin's or a library's, never itself)."""
    pairs = [(r, r.plus, r.minus) if new else (r, r.minus, r.plus) for r in readings]
    defined = {
        _short(n) for _, side, _ in pairs for n in side.defs if not _short(n).startswith("__")
    }
    kinds: dict[str, set[bool]] = {}
    for _, side, _ in pairs:
        for n, (kind, _) in side.defs.items():
            kinds.setdefault(_short(n), set()).add(kind is NameKind.METHOD)
    # the short names the files define only as methods
    methods_only = {name for name, methods in kinds.items() if methods == {True}}
    made_calls = [
        NewCall(caller, callee, r.path)
        for r, side, other in pairs
        for caller, made in side.calls.items()
        if caller in other.calls and caller not in side.redefined | other.redefined
        for callee in sorted((made - other.calls[caller]) & defined - {_short(caller)})
        # a call dropped where the file now hands the callee over to be called later (a
        # context manager's `stop` pushed onto its exit stack, apscheduler 5a98a21) still runs
        if new or not any(callee in h for h in other.handed.values())
        # a helper the caller defines or imports itself (tinydb 43cf1ff: `def test(value): …`
        # in `Query.any`; tomlkit 62a6708: `from .items import item` in a method) is none of
        # the file's definitions of that name
        if not _local_callee(side, caller, callee)
        # a bare `item(…)` names no method: only `self.item(…)` does (tomlkit 62a6708's
        # `item` was `tomlkit.items.item`, not `Container.item`)
        and not (callee in methods_only and _bare_calls(side, caller, callee))
        # `t = d.get(k, D)` that was `try: t = d[k]` / `except KeyError: t = D`: the same
        # lookup respelled, no method of the file's `get` newly called (pluggy's
        # `TagTracer._processmessage` and `TagTracer.get`)
        and not (new and _gets_only(other, side, caller, callee))
    ]
    if not new:
        return made_calls
    return [_with_guard(call, readings) for call in made_calls]


def _gets_only(was: Side, now: Side, caller: str, callee: str) -> bool:
    """Whether each call of `callee` the caller makes at `now` is a `.get` that respells a
    lookup with a default it made at `was` (`gets_respelled`)."""
    if callee != "get":
        return False
    node = now.functions.get(caller)
    if node is None:
        return False
    calls = [
        n
        for n in breadth([node])
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute | ast.Name)
        and (n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id) == callee
    ]
    respelled = {id(new.value) for _, new in gets_respelled(was.functions.get(caller), node)}
    return bool(calls) and all(id(c) in respelled for c in calls)


def _bare_calls(side: Side, caller: str, callee: str) -> bool:
    """Whether the caller calls `callee` only by its bare name (`item(x)`), never through an
    attribute (`self.item(x)`, `c.item(x)`): a module's or a local name, never a method."""
    node = side.functions.get(caller)
    if node is None:
        return False
    bare = False
    for n in breadth([node]):
        if isinstance(n, ast.Call):
            func = n.func
            if isinstance(func, ast.Attribute) and func.attr == callee:
                return False
            bare = bare or (isinstance(func, ast.Name) and func.id == callee)
    return bare


def _local_callee(side: Side, caller: str, callee: str) -> bool:
    """Whether every call of `callee` the caller makes is of a bare name it binds itself (a
    parameter, a nested `def`, an assignment, an import inside it): its own, not the
    module's or a method."""
    node = side.functions.get(caller)
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    bound = False
    for n in breadth([node]):
        if n is node:
            continue
        if (
            (
                isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and n.name == callee
            )
            or (isinstance(n, ast.Name) and n.id == callee and isinstance(n.ctx, ast.Store))
            or (isinstance(n, ast.arg) and n.arg == callee)
            or (
                isinstance(n, ast.alias)
                and (n.asname or n.name.split(".", 1)[0]) == callee
                and n.name != "*"
            )
        ):
            bound = True
        elif isinstance(n, ast.Attribute) and n.attr == callee:
            return False
    return bound


# A test of a value's type only (`not isinstance(value, str)`): a validator's first line
_TYPE_TEST = re.compile(r"^(?:not\s+)?isinstance\(")


def _with_guard(call: NewCall, readings: list[FileReading]) -> NewCall:
    """A new call with what its callee raises for its caller: where the commit's files define
    the callee once (a function, not a class), and its own code has one `if t:` that ends in
    `raise E…` (`validate_params_for_platform`'s `if _is_wasm() and params.parallelism != 1:`),
    `E` and `t` as `ast.unparse` writes them (argon2-cffi 52db639); none where the caller may
    catch `E` around each of its calls (`caught.caught_at_each_call`)."""
    found = [
        (r.plus, name, r.path)
        for r in readings
        for name in r.plus.functions
        if _short(name) == call.callee and name not in r.plus.redefined
    ]
    if len(found) != 1:
        return call
    side, name, where = found[0]
    if not isinstance(side.functions[name], ast.FunctionDef | ast.AsyncFunctionDef):
        return call
    if not _calls_that(call, name, where, readings):
        return call
    if name not in side.guards:
        detail(side, [name])
    raising = [
        (jump.removeprefix("raise "), test)
        for test, (jump, _) in sorted(
            side.guards.get(name, {}).items(), key=lambda item: item[1][1].lineno
        )
        if jump.startswith("raise ") and jump != "raise "
    ]
    if not raising or len({e for e, _ in raising}) != 1:
        return call
    # (several `if`s that raise the one exception, a validator's: the first that tests more
    # than a type is said, the others counted; xmltodict 3d4d2d3's `_validate_comment`
    # raises `ValueError` when `'--' in value`, and in 2 other cases)
    said = [(e, t) for e, t in raising if len(t) <= _SAID_TEST and "`" not in t and "\n" not in t]
    said.sort(key=lambda pair: bool(_TYPE_TEST.match(pair[1])))
    if not said:
        return call
    exception, test = said[0]
    # what the caller catches around each call of it, no caller of its meets
    caller = next(r.plus for r in readings if r.path == call.path)
    after, _ = lookups(readings, ())
    if caught_at_each_call(call, caller, (exception, where), after):
        return call
    # (every other `raise` of it counts: one in an `except` too)
    sites = [
        r for r in side.raising.get(name, ()) if r.exc is not None and dotted(r.exc) == exception
    ]
    return dataclasses.replace(call, raises=exception, when=test, more=max(0, len(sites) - 1))


def _calls_that(call: NewCall, name: str, where: str, readings: list[FileReading]) -> bool:
    """Whether the caller's name for the callee is the definition `name` at `where`: one its
    own file defines, or imports from that module under that name (a name imported from
    another package, `from jsonschema import validate`, is none of the commit's)."""
    caller = next((r.plus for r in readings if r.path == call.path), None)
    if caller is None:
        return False
    if call.callee in caller.imports:
        module = caller.imports[call.callee]
        original = caller.aliases.get(call.callee, call.callee)
        return original == _short(name) and where in module_paths(call.path, module)
    return where == call.path


def _stands_for(side: Side, param: str, now: str) -> frozenset[str]:
    """The literals of what a parameter's default `now` is replaced with where nothing else
    is given: by its own function, or by the function it passes it on to with the same
    default (cattrs 0c226c29: `make_dict_structure_fn` to `…_from_attrs`)."""
    if param in side.fallbacks:
        return side.fallbacks[param]
    callee = side.forwards.get(param)
    if callee is not None and side.params.get(callee) == now:
        return side.fallbacks.get(callee, frozenset())
    return frozenset()
