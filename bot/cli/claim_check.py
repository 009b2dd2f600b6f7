"""Each claim checked against a git clone at the commit and at its first parent.

The verdicts follow the words, read strictly (the rules are in docs/claims.md):
- "adds `X` [to `P`]": `X` is defined at the commit (in `P`, else in a changed file) and was
  defined at the parent in none of the commit's files (a definition that moves is not new; a
  test is matched by its bare name, so a test moved into a class is not new);
- "removes `X` [from `P`]": `X` was defined at the parent and is defined at the commit
  nowhere in `P`, or, with no place said, nowhere in the tree (`git grep`, then parsed);
- "renames `A` to `B`", "moves `X` from `P` to `Q`": both sides, each way;
- "changes `X`": defined at both revisions and its definition's text differs;
- "changes the default of `n` from `A` to `B`": the literal read at each revision (a
  parameter `f(p)` in `f`'s signature, a class attribute `C.a` in `C`'s body, where a changed
  file defines them; a dataclass `field(default_factory=F)` is `F()`), and a parameter's
  default written as a name its `def`'s class body or module binds once to the other
  side's literal is no change;
- "`f` gains / no longer takes the parameter `p[=v]`": every Python `def` of `f` (a class by
  its own `__init__`) at both revisions, `p` in its signature on one side only (with `v`);
- environment variables, configuration keys and flags: read (quoted, or `$NAME` for
  environment variables) on a line of code outside tests and documentation, anywhere in
  the tree, at each revision;
- "adds the command-line option `--x`: “h”": as a flag, and a call in a changed Python file
  at the commit names `"--x"` and passes `help=` the string h (spaces folded);
- "requires `pin`": the pin is written in a changed file at the commit and not before, nor in
  another of its folder's metadata files at the parent, and not only under an extra; its
  "(was `s`)": the parent's line of the package with the same PEP 508 marker has `s`;
- "adds / removes the extra, the command, the `g` entry point `n` (`r`)": a changed project's
  pyproject.toml (PEP 621) or setup.cfg (setuptools) declares it on one side only, with
  what the parentheses say; "changes the build backend from `a` to `b`": `[build-system]`;
- "the extra `e` now requires `p` (was `q`) / now also requires `p` / no longer requires
  `q`": the extra at both revisions of a changed project (its pyproject.toml, setup.cfg and
  setup.py's `extras_require` together: literals, names bound to them or to a requirements
  file setup.py reads), `p` only at the commit, `q` only before; "`pip install p[e]` no
  longer installs `r`": `e` required `r` at the parent and does not at the commit;
- "`f` now returns `b` where it returned `a`": the literals `f`'s returns give, read by the
  checker's own walk through one call (`literal_returns.py`);
- "`P` lists N new items: “a” (H)": `P`'s list items at the commit not at the parent are N,
  one holds the words quoted (as rendered), under the heading H (`release_items.py`);
- "`f` now (also) checks for `"s"`", "`f` now raises `E` with “m”", "`f` may now raise `E` [with
  “m”]", "`f` now raises `E` instead of `F`": read in `f`'s own Python code at both revisions
  (see `_checks`, `_raises_message`, `_raises`, `_raises_instead`);
- "`T` gains the key / no longer has the key / gains / drops `"v"`": the one changed Python
  file binding `T` once to a table written out at both revisions (`table_literals.py`), `v`
  among its keys or values on one side only;
- "adds `f(x, *, y=1) -> T`", "`f` now passes `k=v` to `g` (was `w`)": read with Python's own
  parser and `ast` (see `_adds_signature`, `_passes`).
- "In `C._m` (used by `C.g`), …": `C.g`, a public method of `C`, names `self._m` at the
  commit;
- "In `f`, `a` became `b`": the first lines of `f`'s statements (its closures' too), as
  written, `a` on fewer at the commit and `b` on more (see `_became`);
- "`f`, per its docstring: “s”": a docstring of `f` at the commit opens with s;
- "The new test `t` pins `f(a)` to `b`" ("The test `t` now also pins …"): `t` in a changed
  test file calls `f` with those literals, writes `b` and asserts an equality at the commit,
  and was defined at the parent in no version of that file (was, and did not pin it)
  (`pin_check.py`); "… expects `f(a)` to raise `E`": `t` calls it under a `raises(E)` or
  `assertRaises(E)`, or passes `f` and the literals to `raises(E, …)`;
- "updates the pre-commit hook `h` / the GitHub Action `a` from `x` to `y`": the pin YAML
  reads in the changed config or workflows, `x` at the parent and `y`, not `x`, at the commit.
- "Internal only: [changes only the private `_a`; ]no public name, signature or default
  changes in `p`": Python's parser on both revisions of each `p` (`surface_check.py`).
- "No behaviour change: `p` is the same code as before but for …": each `p` modified in place,
  its two syntax trees equal by the language's rules the sentence names (`same_check.py`);
  unverifiable where "and N more" leaves files unnamed or annotations are named and differ.
- "`a` (added after T, never released)": T a version tag the parent reaches, a word of `a`
  at the parent and in no version tag's tree (`release_check.py`); "`a` (before the first
  release, never released)": the parent reaches no version tag, a word of `a` at the parent
  and in no version tag lacking the commit.
- "It ships N commits since T[, … `abc1234` “Title”]": T a version tag the parent reaches, N the
  commits the release's history holds and T's does not (merges and the release counted, as
  `git log T..RELEASE` lists them), each commit named one of them with that title (its
  message's first line) (`ship_check.py`).
- "Fixes code added after T (never released)": T a version tag the parent reaches, each line
  it removes in a shipped file new against every version tag lacking the commit (`git diff`,
  `fix_release_check.py`), and no line of T's copy of the file holding the text each removed
  line's edit touches with its neighbours on either side (back or on to a run with a letter).
A claim whose files have no rules or do not parse, or that needs more than the bounds
allow, is unverifiable, never true.
"""

from __future__ import annotations

import ast
import builtins
import configparser
import posixpath
import re
import subprocess
import textwrap
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TypeVar

import yaml
from packaging.requirements import InvalidRequirement
from packaging.requirements import Requirement as PackagingRequirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

from bot.cli.claims import REACH_SEP, SETS_SEP, Claim, Kind, is_path
from bot.cli.class_check import bases_of, classes, gains_abstract, gains_field, own_method
from bot.cli.defect_check import Unknowable, calls_without, still_imports, still_reads
from bot.cli.exception_names import class_of
from bot.cli.extra_pins import judged as extra_judged
from bot.cli.extra_pins import project_extras, requirement_name, setup_py_extras, setup_py_name
from bot.cli.fix_release_check import judged_fix
from bot.cli.forward_check import forwards
from bot.cli.git import name_status, run_git
from bot.cli.handler_check import sets_raising
from bot.cli.literal_returns import NotPython, returned
from bot.cli.literal_returns import judged as judged_return
from bot.cli.package_meta import (
    COMMANDS,
    Declared,
    declared,
    dev_names,
    extras_and_groups,
    needed,
    normal_extra,
    normal_name,
    published_name,
    squeezed,
)
from bot.cli.pin_check import pinned, raised, test_functions
from bot.cli.raise_reach import (
    Unfollowed,
    default_of,
    find,
    hook_holders,
    module_raises,
    own_raises,
    reached,
    same_class,
    subclasses,
    top_names,
)
from bot.cli.raise_reach import parse as parse_python
from bot.cli.release_check import judged
from bot.cli.release_items import holds, new_items
from bot.cli.release_items import words as rendered_words
from bot.cli.rewrite_check import alike_anywhere, insertion, rewritten_alike
from bot.cli.same_check import judged_same
from bot.cli.setting_check import binds_at_top, run_time_reads
from bot.cli.ship_check import judged_commit, judged_count, judged_last
from bot.cli.surface_check import Bindings, edited, is_private, private_path, read_module
from bot.cli.symbols import (
    Body,
    Called,
    Definition,
    Unreadable,
    claimed_parameters,
    definitions,
    is_parameter,
    language,
    other_defaults,
    python_assigned,
    python_body,
    python_called,
    python_default_name,
    python_defaults,
    python_paragraphs,
    python_positional,
    python_scoped_defaults,
    python_signature,
    string_literals,
)
from bot.cli.table_literals import python_table

# Files `git grep` may name for one whole-tree search before the claim is left unverifiable:
# each is parsed, and a name common enough to be in more says little about one commit.
MAX_CANDIDATES = 300
# Bytes of one file parsed: bigger ones are generated or vendored, and slow to read.
MAX_FILE_BYTES = 2_000_000
_DOCS = re.compile(r"\.(?:md|rst|txt|adoc|html|ipynb)$|(?:^|/)(?:docs?|CHANGELOG|CHANGES)(?:/|$)")
_TESTS = re.compile(r"(?:^|/)(?:tests?|testing)/|(?:^|/)test_[^/]*$|_test\.\w+$|\.test\.\w+$")
_COMMENT = re.compile(r"^\s*(?:#|//|/?\*|--|;)")

# what a reading of one Python file gives (`Checker._python_read`)
_Read = TypeVar("_Read")


# The kinds whose names are definitions, and the reasons that say one was not found.
_DEFINED = frozenset(
    {
        Kind.ADDS,
        Kind.ADDS_VALUE,
        Kind.ADDS_SIGNATURE,
        Kind.ADDS_TEST,
        Kind.ADDS_KERNEL,
        Kind.REMOVES,
        Kind.RENAMES,
    }
    | {Kind.MOVES, Kind.CHANGES, Kind.DEFAULT, Kind.VALUE}
)
_NOT_FOUND = re.compile(r"(?:is|was) not defined at|is defined in no changed file")
_CODE_NAME = re.compile(r"[A-Za-z_~][\w~]*(?:(?:\.|::)#?[A-Za-z_~][\w~]*)*(?:\(\))?")
_PROSE = re.compile(r"\.(?:md|markdown|rst|adoc|html|ipynb)$", re.IGNORECASE)
_PYTHON_SUPPORT = re.compile(r"(?m)^\s*(?:requires-python|python_requires)\s*[=:]\s*(.+)$")


class Verdict(StrEnum):
    TRUE = "true"
    FALSE = "false"
    UNVERIFIABLE = "unverifiable"


@dataclass(frozen=True)
class Checked:
    claim: Claim
    sha: str
    verdict: Verdict
    why: str


class _Missing(Exception):
    """The commit is not in the clone."""


class Clone:
    """Blobs and searches of a clone (bare or not) at any revision, through one
    `git cat-file --batch` process; close it when done."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._batch = subprocess.Popen(
            ["git", "-C", str(path), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._blobs: dict[tuple[str, str], str | Unreadable | None] = {}
        self._greps: dict[tuple[str, str], list[tuple[str, str]]] = {}

    def close(self) -> None:
        if self._batch.stdin is not None:
            self._batch.stdin.close()
        self._batch.wait()

    def _git(self, *args: str) -> tuple[int, str]:
        done = run_git(self.path, *args)
        return done.returncode, done.stdout

    def parent(self, sha: str) -> str | None:
        """The first parent; None for a root commit. _Missing when `sha` is not here."""
        code, out = self._git("rev-list", "--parents", "-n", "1", f"{sha}^{{commit}}", "--")
        if code != 0 or not out.strip():
            raise _Missing(sha)
        words = out.split()
        return words[1] if len(words) > 1 else None

    def header(self, sha: str) -> tuple[int, str]:
        """How many parents the commit has, and its message's first line."""
        _, out = self._git("log", "-1", "--format=%P%n%s", sha, "--")
        parents, _, title = out.partition("\n")
        return len(parents.split()), title.rstrip("\n")

    def changed(self, sha: str, parent: str | None) -> list[tuple[str | None, str | None]]:
        """(path at the parent, path at the commit) of each changed file; None where absent."""
        base = parent or "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree
        _, out = self._git("diff-tree", "-r", "-M", "--name-status", "-z", base, sha)
        return [
            (before, path)
            if before is not None
            else (None if code == "A" else path, None if code == "D" else path)
            for code, before, path in name_status(out)
        ]

    def show(self, rev: str | None, path: str) -> str | None:
        """The file's text at the revision; None when it is not there; Unreadable when it
        is binary or over MAX_FILE_BYTES."""
        if rev is None:
            return None
        key = (rev, path)
        if key not in self._blobs:
            self._blobs[key] = self._read(f"{rev}:{path}")
        found = self._blobs[key]
        if isinstance(found, Unreadable):
            raise found
        return found

    def exists(self, rev: str | None, path: str) -> bool:
        """Whether the revision's tree has a file or folder at `path`."""
        return rev is not None and bool(self._git("ls-tree", rev, "--", path)[1].strip())

    def submodule(self, rev: str | None, path: str) -> str | None:
        """The commit a submodule (a gitlink, `vendor/llhttp`) points to at the revision;
        None when `path` is no submodule there."""
        if rev is None:
            return None
        out = self._git("ls-tree", rev, "--", path)[1].split()
        return out[2] if len(out) >= 3 and out[0] == "160000" and out[1] == "commit" else None

    def text(self, rev: str | None, path: str | None) -> str | None:
        """As `show`, but a binary or oversized file reads as absent."""
        try:
            return self.show(rev, path) if path else None
        except Unreadable:
            return None

    def _read(self, spec: str) -> str | Unreadable | None:
        assert self._batch.stdin is not None and self._batch.stdout is not None
        if "\n" in spec:
            return None
        self._batch.stdin.write(spec.encode() + b"\n")
        self._batch.stdin.flush()
        header = self._batch.stdout.readline().split()
        if len(header) != 3:
            return None
        size = int(header[2])
        data = self._batch.stdout.read(size + 1)[:size]
        if header[1] != b"blob":
            return None
        if b"\0" in data[:8000] or size > MAX_FILE_BYTES:
            return Unreadable(f"{spec.split(':', 1)[1]} is binary or too big to read")
        return data.decode("utf-8", errors="replace")

    def grep(self, rev: str | None, word: str) -> list[tuple[str, str]]:
        """(path, line) of each line of a text file holding `word` as a whole word."""
        if rev is None:
            return []
        key = (rev, word)
        if key not in self._greps:
            code, out = self._git("grep", "-I", "-w", "-F", "-e", word, rev, "--")
            hits = []
            for line in out.splitlines() if code == 0 else []:
                _, _, rest = line.partition(":")
                path, _, text = rest.partition(":")
                hits.append((path, text))
            self._greps[key] = hits
        return self._greps[key]


@dataclass(frozen=True)
class _Commit:
    sha: str
    parent: str | None
    changed: list[tuple[str | None, str | None]]

    def old(self, path: str) -> str:
        """The path at the parent of a file the commit has at `path` (renames followed)."""
        return next((o for o, n in self.changed if n == path and o), path)

    def new(self, path: str) -> str | None:
        """The path at the commit of a file the parent has at `path`; None if removed."""
        return next((n for o, n in self.changed if o == path), path)

    @property
    def before(self) -> list[str]:
        return [old for old, _ in self.changed if old]

    @property
    def after(self) -> list[str]:
        return [new for _, new in self.changed if new]


# a source file's extension, and the folders and names that hold tests and docs
_CODE_SUFFIX = re.compile(r"\.(?:py|pyx|js|mjs|ts|go|rs|c|cc|cpp|h|hpp|java|rb|php|cs)$")
_NOT_SHIPPED = re.compile(
    r"(?:^|/)(?:tests?|testing|docs?|examples?|benchmarks?)/"
    r"|(?:^|/)(?:test_|conftest\.)|_test\.\w+$"
)


def _shipped_code(path: str) -> bool:
    """Whether the path is a source file outside tests, docs, examples and benchmarks."""
    return bool(_CODE_SUFFIX.search(path)) and not _NOT_SHIPPED.search(path)


def _last(dotted: str) -> str:
    """`BadParameter` of `click.BadParameter`."""
    return dotted.rsplit(".", 1)[-1]


def _normal(name: str) -> str:
    if re.search(r"\s", name.strip()):
        return name.strip()  # a test's name is a phrase, taken whole
    name = name.strip().removesuffix("()").replace("::", ".")
    return re.sub(r"\(.*\)$", "", name)


def _matches(claimed: str, found: Definition, path: str, *, bare: bool) -> bool:
    if re.search(r"\s", claimed) or re.search(r"\s", found.name):
        return found.name == claimed  # a test's name (a phrase) matches only itself
    qualified = found.name == claimed or found.name.endswith("." + claimed)
    if found.module and "." in claimed:
        return qualified  # a file `index.rs` is not the member `HiArgs::index`
    if bare or (language(path) != ".py" and "." not in found.name):
        # outside Python a member defined in its class is unqualified: compare the last part
        return qualified or found.name.rsplit(".", 1)[-1] == claimed.rsplit(".", 1)[-1]
    return qualified


def _as_read(text: str) -> str:
    """reStructuredText as its reader sees it, code spans unmarked: a role's name gone
    (":class:`Registry`" is "Registry"), a `~` target (`~.a.B`, searched, too) its last
    part, a reference with an explicit title that title (":meth:`started()
    <.TaskStatus.started>`" is "started()"), "``x``" "x"."""
    text = re.sub(r":[\w+-]+:(?:[\w+-]+:)?(?=`)", "", text)
    text = re.sub(r"`([^`<]*?)\s*<[^`<>]+>`", r"`\1`", text)
    # (`~.a.B.m`: the leading dot asks Sphinx to search for the target; still shown as `m`)
    text = re.sub(r"`~\.?(?:\w+\.)*(\w+)`", r"\1", text)
    return text.replace("`", "")


def _is_test(name: str) -> bool:
    return name.rsplit(".", 1)[-1].startswith(("test_", "Test"))


def _plain(value: str) -> str:
    return re.sub(r"\s+", "", value).strip("`'\"")


class Checker:
    """Verdicts for claims about commits of one clone."""

    def __init__(self, clone: Clone) -> None:
        self.clone = clone
        self._commits: dict[str, _Commit | None] = {}
        self._defs: dict[tuple[str, str], list[Definition]] = {}

    def check(self, sha: str, claim: Claim) -> Checked:
        commit = self._commit(sha)
        if commit is None:
            return Checked(claim, sha, Verdict.UNVERIFIABLE, "the commit is not in the clone")
        try:
            verdict, why = self._judge(commit, claim)
        except Unreadable as exc:
            verdict, why = Verdict.UNVERIFIABLE, str(exc)
        return Checked(claim, sha, verdict, why)

    def _commit(self, sha: str) -> _Commit | None:
        if sha not in self._commits:
            try:
                parent = self.clone.parent(sha)
            except _Missing:
                self._commits[sha] = None
            else:
                self._commits[sha] = _Commit(sha, parent, self.clone.changed(sha, parent))
        return self._commits[sha]

    def _definitions(self, rev: str | None, path: str) -> list[Definition]:
        """What the file defines at the revision ([] when absent); Unreadable without rules."""
        if rev is None:
            return []
        key = (rev, path)
        if key not in self._defs:
            text = self.clone.show(rev, path)
            found = [] if text is None else definitions(path, text)
            if text is not None and language(path) is not None:
                # the file is itself a name: its module (`pkg/x.py` defines `x`)
                stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
                found = [Definition(stem, text, module=True), *found]
            self._defs[key] = found
        return self._defs[key]

    def _find(
        self, rev: str | None, paths: Iterable[str], name: str, *, bare: bool = False
    ) -> tuple[list[tuple[str, Definition]], list[str]]:
        """Definitions of `name` in the files at the revision, and the files without rules."""
        found, unread = [], []
        for path in dict.fromkeys(paths):
            try:
                defs = self._definitions(rev, path)
            except Unreadable:
                # a file without rules that does not even hold the word cannot define it
                text = self.clone.text(rev, path)
                last = re.escape(name.rsplit(".", 1)[-1])
                if text is None or re.search(rf"(?<!\w){last}(?!\w)", text):
                    unread.append(path)
                continue
            found += [(path, d) for d in defs if _matches(name, d, path, bare=bare)]
        exact = [(p, d) for p, d in found if d.name == name or d.name.endswith("." + name)]
        if exact and "." in name and not bare:
            # `KyError.isKyError` defined in its class: a free `isKyError` is another name
            found = exact
        return found, unread

    def _judge(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        judges: dict[Kind, Callable[[_Commit, Claim], tuple[Verdict, str]]] = {
            Kind.ADDS: self._adds,
            Kind.ADDS_VALUE: self._adds_value,
            Kind.ADDS_SIGNATURE: self._adds_signature,
            Kind.ADDS_TEST: self._adds,
            Kind.ADDS_KERNEL: self._adds,
            Kind.REMOVES: self._removes,
            Kind.IMPORT_FAILS: self._import_fails,
            Kind.RENAMES: self._renames,
            Kind.MOVES: self._moves,
            Kind.CHANGES: self._changes,
            Kind.INTERNAL: self._internal,
            Kind.SAME_CODE: self._same_code,
            Kind.PRIVATE_ONLY: self._private_only,
            Kind.DEFAULT: self._default,
            Kind.VALUE: self._default,
            Kind.ENV_NEW: self._reads,
            Kind.ENV_GONE: self._reads,
            Kind.KEY_NEW: self._reads,
            Kind.KEY_GONE: self._reads,
            Kind.FLAG_NEW: self._reads,
            Kind.FLAG_GONE: self._reads,
            Kind.TABLE_KEY_NEW: self._table,
            Kind.TABLE_KEY_GONE: self._table,
            Kind.TABLE_VALUE_NEW: self._table,
            Kind.TABLE_VALUE_GONE: self._table,
            Kind.REQUIRES: self._requires,
            Kind.DEPRECATION: self._message,
            Kind.SECTION: self._section,
            Kind.PARAM_GONE: self._parameter,
            Kind.PARAM_NEW: self._parameter,
            Kind.PARAM_BEFORE_NEW: self._before,
            Kind.PARAM_BEFORE: self._before,
            Kind.CHECKS: self._checks,
            Kind.RAISES_MESSAGE: self._raises_message,
            Kind.LOGS: self._logs,
            Kind.MAY_RAISE: self._raises,
            Kind.RERAISES: self._reraises,
            Kind.CATCHES: self._catches,
            Kind.CATCHES_GONE: self._catches,
            Kind.CALLS: self._calls,
            Kind.CALLS_GONE: self._calls,
            Kind.MAY_RETURN: self._returns,
            Kind.RETYPED: self._typed,
            Kind.RETURN_TYPE: self._typed,
            Kind.RETURNS_NOW: self._gives,
            Kind.RETURNS_INSTEAD: self._gives,
            Kind.RETURNS_EARLY: self._returns_early,
            Kind.RETURNS_WHERE: self._returns_where,
            Kind.COMPUTES: self._computes,
            Kind.OPTIONAL: self._optional,
            Kind.REQUIRED: self._optional,
            Kind.PARAM_RENAMED: self._param_renamed,
            Kind.EDITED: self._edited,
            Kind.TESTS_CALL: self._tests_call,
            Kind.PINS: self._pins,
            Kind.PINS_RAISE: self._pins,
            Kind.TESTS_NOW: self._condition,
            Kind.BECAME: self._became,
            Kind.USED_BY: self._used_by,
            Kind.GUARD: self._condition,
            Kind.NO_LONGER_TESTS: self._condition,
            Kind.RAISES_GONE_WHEN: self._raise_gone,
            Kind.PASSES: self._passes,
            Kind.PASSES_GONE: self._passes,
            Kind.HOOK_PIN: self._pin,
            Kind.ACTION_PIN: self._pin,
            Kind.EXTRA_NEW: self._packaging,
            Kind.EXTRA_GONE: self._packaging,
            Kind.COMMAND_NEW: self._packaging,
            Kind.COMMAND_GONE: self._packaging,
            Kind.ENTRY_POINT_NEW: self._packaging,
            Kind.ENTRY_POINT_GONE: self._packaging,
            Kind.BACKEND: self._backend,
            Kind.BUILD_NEEDS: self._build_needs,
            Kind.ADVISORY: self._advisory,
            Kind.EXTRA_GROUPED: self._grouped,
            Kind.PUBLISHED_AS: self._published,
            Kind.EXTRA_PIN: self._extra_pin,
            Kind.EXTRA_INSTALLS_GONE: self._extra_installs_gone,
            Kind.EXTRA_REQUIRES_NEW: self._extra_pin,
            Kind.EXTRA_REQUIRES_GONE: self._extra_pin,
            Kind.DEV_REQUIREMENT_NEW: self._dev_requirement,
            Kind.DEV_REQUIREMENT_GONE: self._dev_requirement,
            Kind.RELEASE_NOTE: self._release_note,
            Kind.DOCUMENTED: self._documented,
            Kind.REDOCUMENTED: self._redocumented,
            Kind.RAISES_INSTEAD: self._raises_instead,
            Kind.REWORDED: self._reworded,
            Kind.CALLEE_RAISES: self._callee_raises,
            Kind.NEVER_RELEASED: self._never_released,
            Kind.FIXES_UNRELEASED: self._fixes_unreleased,
            Kind.SHIPS_COUNT: self._ships_count,
            Kind.SHIPS_COMMIT: self._ships_commit,
            Kind.LAST_RELEASE: self._last_release,
            Kind.ABSTRACT_NEW: self._abstract,
            Kind.OVERRIDES: self._overrides,
            Kind.FIELD_NEW: self._field,
            Kind.RETURNS_WHEN: self._returns_when,
            Kind.RAISES_PAST: self._raises_past,
            Kind.STILL_READS: self._still_reads,
            Kind.SETTING_IGNORED: self._setting_ignored,
            Kind.IMPORTS_GONE: self._still_imports,
            Kind.CALL_SHORT: self._call_short,
            Kind.CALL_UNKNOWN: self._call_short,
            Kind.TESTS_REWRITE: self._tests_rewrite,
            Kind.FORWARDS: self._forwards,
            Kind.SETS_RAISING: self._sets_raising,
            Kind.RAISES_REACHED: self._raises_reached,
            Kind.RAISES_RETYPED: self._raises_retyped,
            Kind.NOT_SUBCLASS: self._not_subclass,
            Kind.METADATA_GONE: self._metadata_gone,
            Kind.NO_NAME_REMOVED: self._no_name_removed,
            Kind.PYTHON_KEPT: self._python_kept,
            Kind.HOLDER_RAISES: self._raiser,
            Kind.HOOK_RAISES: self._raiser,
            Kind.HOOK_QUIET: self._hook_quiet,
        }
        judge = judges.get(claim.kind)
        if judge is None:
            return Verdict.UNVERIFIABLE, f"“{claim.kind}” claims are not checked"
        if claim.kind in _DEFINED and not is_path(claim.name):
            if claim.name in {p.rsplit("/", 1)[-1] for p in c.before + c.after}:
                # `Makefile`, `Dockerfile`: a changed file named without its folder
                path = next(
                    p for p in c.after + c.before if p.endswith("/" + claim.name) or p == claim.name
                )
                return self._file(c, Claim(claim.kind, path, claim.sentence))
            if (
                not _CODE_NAME.fullmatch(claim.name.strip())
                and not (claim.kind in (Kind.DEFAULT, Kind.VALUE) and is_parameter(claim.name))
                and not self._test_name(c, claim)
            ):
                return Verdict.UNVERIFIABLE, f"`{claim.name}` is not a code name"
        verdict, why = judge(c, claim)
        if verdict is Verdict.FALSE and _NOT_FOUND.search(why) and claim.kind in _DEFINED:
            named = self._named_without_rules(c, _normal(claim.name))
            if named:
                return Verdict.UNVERIFIABLE, f"named in `{named}`, a file without code rules"
        return verdict, why

    def _never_released(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        held, why = judged(self.clone.path, c.parent, claim.name, claim.old or "", c.sha)
        if held is None:
            return Verdict.UNVERIFIABLE, why
        return (Verdict.TRUE if held else Verdict.FALSE), why

    def _fixes_unreleased(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        held, why = judged_fix(self.clone.path, c.sha, c.parent, claim.old or "")
        if held is None:
            return Verdict.UNVERIFIABLE, why
        return (Verdict.TRUE if held else Verdict.FALSE), why

    def _ships_count(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        held, why = judged_count(self.clone.path, c.sha, c.parent, claim.name, int(claim.new or 0))
        if held is None:
            return Verdict.UNVERIFIABLE, why
        return (Verdict.TRUE if held else Verdict.FALSE), why

    def _last_release(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        held, why = judged_last(self.clone.path, c.sha, c.parent, claim.name)
        if held is None:
            return Verdict.UNVERIFIABLE, why
        return (Verdict.TRUE if held else Verdict.FALSE), why

    def _ships_commit(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        held, why = judged_commit(
            self.clone.path,
            c.sha,
            c.parent,
            claim.old or "",
            named=claim.name,
            title=claim.new or "",
        )
        if held is None:
            return Verdict.UNVERIFIABLE, why
        return (Verdict.TRUE if held else Verdict.FALSE), why

    def _test_name(self, c: _Commit, claim: Claim) -> bool:
        """Whether a name that is no identifier is a JavaScript/TypeScript test's (the
        string of `test('…')`): a changed file is a script, and the words call it a test or
        a changed script defines it at either revision."""
        olds = [p for p in c.before if language(p) == ".js"]
        news = [p for p in c.after if language(p) == ".js"]
        if not olds + news:
            return False
        if claim.kind is Kind.ADDS_TEST:
            return True
        name = _normal(claim.name)
        return bool(self._find(c.parent, olds, name)[0] or self._find(c.sha, news, name)[0])

    def _named_without_rules(self, c: _Commit, name: str) -> str | None:
        """A changed file without code rules (a Makefile, YAML, TOML) that holds the name:
        it may define what the words mean (a tool, a target, a key)."""
        word = re.compile(rf"(?<![\w-]){re.escape(name.rsplit('.', 1)[-1])}(?![\w-])")
        for rev, paths in ((c.parent, c.before), (c.sha, c.after)):
            for path in paths:
                if language(path) is None and word.search(self.clone.text(rev, path) or ""):
                    return path
        return None

    # --- files ----------------------------------------------------------------------------

    def _file(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        path = claim.name.rstrip("/")
        if any(p.startswith(path + "/") for p in c.before + c.after):
            return self._folder(c, claim, path)
        before, after = self.clone.show(c.parent, path), self.clone.show(c.sha, path)
        if claim.kind in (Kind.ADDS, Kind.ADDS_TEST, Kind.ADDS_KERNEL):
            if after is None:
                return Verdict.FALSE, f"`{path}` is not a file at the commit"
            if before is not None:
                return Verdict.FALSE, f"`{path}` was already there at the parent"
        elif claim.kind is Kind.REMOVES:
            if after is not None:
                return Verdict.FALSE, f"`{path}` is still there at the commit"
            if before is None:
                return Verdict.FALSE, f"`{path}` was not there at the parent"
        elif claim.kind is Kind.CHANGES:
            if before is None and after is None:
                # a submodule moved to another commit is changed (aiohttp 1f005f1 "Updated
                # `llhttp` to v9": `vendor/llhttp`)
                old, new = self.clone.submodule(c.parent, path), self.clone.submodule(c.sha, path)
                if old and new:
                    return (
                        (Verdict.TRUE, "")
                        if old != new
                        else (
                            Verdict.FALSE,
                            f"`{path}` is the same submodule commit at both revisions",
                        )
                    )
            if before is None or after is None:
                return Verdict.FALSE, f"`{path}` is not a file at both revisions"
            if before == after:
                return Verdict.FALSE, f"`{path}` is the same at both revisions"
        else:
            return Verdict.UNVERIFIABLE, f"a path is not what “{claim.kind}” names"
        return Verdict.TRUE, ""

    def _folder(self, c: _Commit, claim: Claim, path: str) -> tuple[Verdict, str]:
        """A folder the commit changes files under: added when it had no file at the
        parent, removed when it has none at the commit, changed otherwise."""
        before = any(p.startswith(path + "/") for p in c.before) and self.clone.exists(
            c.parent, path
        )
        after = self.clone.exists(c.sha, path)
        if claim.kind in (Kind.ADDS, Kind.ADDS_TEST, Kind.ADDS_KERNEL) and before:
            return Verdict.FALSE, f"the folder `{path}` was already there at the parent"
        if claim.kind is Kind.REMOVES and after:
            return Verdict.FALSE, f"the folder `{path}` is still there at the commit"
        if claim.kind is Kind.CHANGES and not (before and after):
            return Verdict.FALSE, f"the folder `{path}` is not there at both revisions"
        return Verdict.TRUE, ""

    # --- definitions ----------------------------------------------------------------------

    def _adds(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        if is_path(claim.name):
            return self._file(c, claim)
        name = _normal(claim.name)
        bare = claim.kind is Kind.ADDS_TEST or _is_test(name)
        where = [claim.path] if claim.path else c.after
        after, unread = self._find(c.sha, where, name)
        if claim.kind is Kind.ADDS_KERNEL and after and not any(d.kernel for _, d in after):
            return Verdict.FALSE, f"`{name}` is defined in `{after[0][0]}` but is not a kernel"
        if not after:
            if unread:
                return Verdict.UNVERIFIABLE, f"not found, and no rules for `{unread[0]}`"
            if self._new_string(c, name):
                return Verdict.UNVERIFIABLE, f"`{name}` is a new string, not a definition"
            return Verdict.FALSE, f"`{name}` is not defined at the commit in {_places(where)}"
        here = [c.old(p) for p in where] if claim.path else c.before
        exact = {d.name for _, d in after}
        if name in exact:
            # a new module-level `registry` beside the class field `lifespan.registry` of the
            # parent: the claim names the module's (svcs 7d56b11)
            exact = {name}
        before, unread_before = self._find(c.parent, c.before, name, bare=bare)
        # "adds `get_tasks`" by its last part alone: some definition of that name is new
        # (the author's "Added the `get_tasks()` scheduler methods" beside a data store's
        # older `get_tasks`, apscheduler 1ecb343), and none of the parent's left (moved)
        was = {d.name for _, d in before}
        if "." not in name and was and was <= exact and exact - was:
            return Verdict.TRUE, ""
        for path, found in before:
            if path in here and found.name in exact:
                return Verdict.FALSE, f"already defined at the parent in `{path}`"
            # a definition of that name that left its file (or its class) moved here
            moved_to = c.new(path)
            still = self._find(c.sha, [moved_to], found.name)[0] if moved_to else []
            if not any(d.name == found.name for _, d in still):
                return Verdict.FALSE, f"moved: `{found.name}` was in `{path}` at the parent"
        if unread_before:
            return Verdict.UNVERIFIABLE, f"no rules for `{unread_before[0]}` at the parent"
        return Verdict.TRUE, ""

    def _adds_value(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "adds `X = v`": added as "adds `X`" is, and a Python module or class body at the
        commit assigns `X` the value `v` (as Python writes it back, spaces aside)."""
        verdict, why = self._adds(c, Claim(Kind.ADDS, claim.name, claim.sentence, claim.path))
        if verdict is not Verdict.TRUE:
            return verdict, why
        name = _normal(claim.name)
        values: set[str] = set()
        found, _ = self._find(c.sha, [claim.path] if claim.path else c.after, name)
        for path in dict.fromkeys(p for p, _ in found):
            text = self.clone.text(c.sha, path)
            if text is None:
                continue
            if language(path) != ".py":
                return Verdict.UNVERIFIABLE, f"no rules for values in `{path}`"
            values |= {_plain(v) for v in python_assigned(text).get(name, set())}
        if _plain(claim.new or "") in values:
            return Verdict.TRUE, ""
        return Verdict.FALSE, f"`{name}` is assigned {_values(values)} at the commit"

    def _adds_signature(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "adds `f(x, y=1, *, z=None) -> T`": added as "adds `f`" is, and every `def` that
        may bind `f` at the commit (a class: its own `__init__`) takes those parameters in
        that order, with those defaults (as Python parses them; annotations aside; a method
        called through its instance or class without its first), and returns `T` where the
        words say it; "…" cuts the list, what it shows is the start of every `def`'s."""
        verdict, why = self._adds(c, Claim(Kind.ADDS, claim.name, claim.sentence, claim.path))
        if verdict is not Verdict.TRUE:
            return verdict, why
        name = _normal(claim.name)
        try:
            said, cut = claimed_parameters(claim.new or "")
        except ValueError:
            return Verdict.FALSE, f"`{claim.new}` is no parameter list Python reads"
        returns = None
        if claim.old is not None:
            try:
                returns = ast.dump(ast.parse(claim.old, mode="eval").body)
            except (SyntaxError, ValueError):
                return Verdict.FALSE, f"`{claim.old}` is no annotation Python reads"
        calls: list[Called] = []
        for path in [claim.path] if claim.path else c.after:
            # a stub (`.pyi`) is what a type checker reads; a call runs the module's `def`
            text = self.clone.text(c.sha, path) if path.endswith(".py") else None
            if text is not None:
                calls += python_called(text, name) or []
        if not calls:
            return Verdict.UNVERIFIABLE, f"no `def` of `{name}` in a Python module at the commit"
        for called in calls:
            shown = called.parameters[: len(said)] if cut else called.parameters
            if shown != said or (cut and len(said) >= len(called.parameters)):
                return Verdict.FALSE, f"`{name}` is called otherwise at the commit"
            if claim.old is not None and called.returns != returns:
                return Verdict.FALSE, f"`{name}` returns another annotation at the commit"
        return Verdict.TRUE, ""

    def _new_string(self, c: _Commit, name: str) -> bool:
        """Whether a changed file quotes `name` at the commit and did not at the parent
        (a registry key, a backend's name: what a definition check cannot judge). A comment
        line's quotes are not read."""
        forms = (f'"{name}"', f"'{name}'")

        def code(rev: str | None, path: str | None) -> str:
            lines = (self.clone.text(rev, path) or "").splitlines()
            return "\n".join(ln for ln in lines if not _COMMENT.match(ln))

        for old, new in c.changed:
            after = code(c.sha, new)
            if any(f in after for f in forms):
                before = code(c.parent, old)
                return not any(f in before for f in forms)
        return False

    def _removes(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        if is_path(claim.name):
            return self._file(c, claim)
        name = _normal(claim.name)
        # "Removes the module `pkg.mod`": the name is a module's, dotted as it is imported
        if f"the module `{claim.name}`".lower() in claim.sentence.lower() and "." in name:
            return self._module_gone(c, name)
        before, unread = self._find(c.parent, [c.old(claim.path)] if claim.path else c.before, name)
        if not before:
            if unread:
                return Verdict.UNVERIFIABLE, f"not found, and no rules for `{unread[0]}`"
            return Verdict.FALSE, f"`{name}` was not defined at the parent"
        if claim.path:
            where = [claim.path]
        else:
            where = list(dict.fromkeys(p for p, _ in self.clone.grep(c.sha, name.split(".")[-1])))
            if len(where) > MAX_CANDIDATES:
                return Verdict.UNVERIFIABLE, f"`{name}` is in {len(where)} files at the commit"
        # still defined: under the same qualified name (a function that became a method
        # of the same last name is removed as a function)
        was = {d.name for _, d in before}
        after = [(p, d) for p, d in self._find(c.sha, where, name)[0] if d.name in was]
        if after:
            return Verdict.FALSE, f"`{name}` is still defined at the commit in `{after[0][0]}`"
        return Verdict.TRUE, ""

    def _import_fails(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "Code that imports `pkg.mod` fails[; it is now `pkg.new`]": the module gone (as
        `_module_gone` reads it), unless its package's `__init__.py` at the commit may answer
        the old path itself (`sys.modules`, a module `__getattr__`: not proven either way);
        and the new module a file at the commit."""
        verdict, why = self._module_gone(c, claim.name)
        if verdict is not Verdict.TRUE:
            return verdict, why
        package = claim.name.rpartition(".")[0].replace(".", "/")
        for root in ("", "src/", "lib/", "python/"):
            init = self.clone.show(c.sha, f"{root}{package}/__init__.py") or ""
            if "sys.modules" in init or re.search(r"^def __getattr__\(", init, re.MULTILINE):
                return Verdict.UNVERIFIABLE, f"`{root}{package}/__init__.py` may answer the import"
        if claim.new:
            stem = claim.new.replace(".", "/")
            files = [
                f"{root}{stem}{tail}"
                for root in ("", "src/", "lib/", "python/")
                for tail in (".py", "/__init__.py")
            ]
            if not any(self.clone.show(c.sha, f) is not None for f in files):
                return Verdict.FALSE, f"no file of the commit is the module `{claim.new}`"
        return Verdict.TRUE, ""

    def _module_gone(self, c: _Commit, name: str) -> tuple[Verdict, str]:
        """ "removes the module `pkg.mod`": Python finds `pkg.mod` as `pkg/mod.py` or
        `pkg/mod/__init__.py` (under the repository's root or `src/`, `lib/`); one was a
        file at the parent, and none is at the commit."""
        stem = name.replace(".", "/")
        files = [
            f"{root}{stem}{tail}"
            for root in ("", "src/", "lib/", "python/")
            for tail in (".py", "/__init__.py")
        ]
        if not any(self.clone.show(c.parent, f) is not None for f in files):
            return Verdict.FALSE, f"no file of the parent is the module `{name}`"
        still = next((f for f in files if self.clone.show(c.sha, f) is not None), None)
        if still is not None:
            return Verdict.FALSE, f"`{still}` is the module `{name}` at the commit"
        return Verdict.TRUE, ""

    def _renames(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        old, new = _normal(claim.name), _normal(claim.new or "")
        olds = [c.old(claim.path)] if claim.path else c.before
        news = [claim.path] if claim.path else c.after
        problems = []
        if not self._find(c.parent, olds, old)[0]:
            problems.append(f"`{old}` was not defined at the parent")
        if self._find(c.sha, news, old)[0]:
            problems.append(f"`{old}` is still defined at the commit")
        if not self._find(c.sha, news, new)[0]:
            problems.append(f"`{new}` is not defined at the commit")
        if self._find(c.parent, olds, new)[0]:
            problems.append(f"`{new}` was already defined at the parent")
        return (Verdict.FALSE, "; ".join(problems)) if problems else (Verdict.TRUE, "")

    def _moves(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        name, source, target = _normal(claim.name), claim.path or "", claim.new or ""
        if not self._find(c.parent, [source], name)[0]:
            return Verdict.FALSE, f"`{name}` was not in `{source}` at the parent"
        if self._find(c.sha, [source], name)[0]:
            return Verdict.FALSE, f"`{name}` is still in `{source}` at the commit"
        if not self._find(c.sha, [target], name)[0]:
            return Verdict.FALSE, f"`{name}` is not in `{target}` at the commit"
        return Verdict.TRUE, ""

    def _changes(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        if is_path(claim.name):
            return self._file(c, claim)
        name = _normal(claim.name)
        before, unread = self._find(c.parent, [c.old(claim.path)] if claim.path else c.before, name)
        after, unread_after = self._find(c.sha, [claim.path] if claim.path else c.after, name)
        if not before and not after:
            if unread or unread_after:
                return (
                    Verdict.UNVERIFIABLE,
                    f"not found, and no rules for `{(unread + unread_after)[0]}`",
                )
            return Verdict.FALSE, f"`{name}` is defined in no changed file"
        if not before:
            return Verdict.FALSE, f"`{name}` is new at the commit, not changed"
        if not after:
            return Verdict.FALSE, f"`{name}` is gone at the commit, not changed"
        old = {(d.name, d.text) for _, d in before}
        if any((d.name, d.text) not in old for _, d in after):
            return Verdict.TRUE, ""
        return Verdict.FALSE, f"`{name}`'s definition is the same at both revisions"

    # --- internal only (`surface_check.py`) -------------------------------------------------

    def _modules(
        self, c: _Commit, claim: Claim
    ) -> dict[str, tuple[tuple[Bindings, dict[str, str]], ...]] | tuple[Verdict, str]:
        """Each file the claim names, read at the parent and at the commit; else the verdict
        and its reason: false where one is no Python file, not changed or moved to a new
        import path, unverifiable where one does not parse or serves names lazily."""
        read: dict[str, tuple[tuple[Bindings, dict[str, str]], ...]] = {}
        for path in (claim.new or claim.name).split("\n"):
            if not path.endswith((".py", ".pyi")):
                return Verdict.FALSE, f"`{path}` is no Python file"
            if path not in c.after and path not in c.before:
                return Verdict.FALSE, f"`{path}` is not changed by the commit"
            old = c.old(path) if path in c.after else path
            sides = (
                read_module(old, self.clone.text(c.parent, old) if old in c.before else None),
                read_module(path, self.clone.text(c.sha, path) if path in c.after else None),
            )
            if sides[0] is None or sides[1] is None:
                return Verdict.UNVERIFIABLE, f"`{path}` does not parse or has a `__getattr__`"
            if old != path and not (private_path(old) and private_path(path)):
                return Verdict.FALSE, f"`{old}` moves to `{path}`: a new import path"
            read[path] = (sides[0], sides[1])
        return read

    def _internal(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        read = self._modules(c, claim)
        if isinstance(read, tuple):
            return read
        pooled: tuple[Bindings, Bindings] = (Counter(), Counter())
        for path, (before, after) in read.items():
            if private_path(path):
                pooled[0].update(before[0])
                pooled[1].update(after[0])
            elif before[0] != after[0]:
                return Verdict.FALSE, f"`{path}`: {_surface_diff(before[0], after[0])}"
        if pooled[0] != pooled[1]:
            # a name may have moved to a private module the sentence did not name
            verdict = Verdict.UNVERIFIABLE if claim.was else Verdict.FALSE
            return verdict, f"private modules: {_surface_diff(pooled[0], pooled[1])}"
        return Verdict.TRUE, ""

    def _same_code(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        unread = ""
        for path in (claim.new or claim.name).split("\n"):
            if not path.endswith(".py"):
                return Verdict.FALSE, f"`{path}` is no Python file"
            if path not in c.after or path not in c.before or c.old(path) != path:
                return Verdict.FALSE, f"`{path}` is not modified in place by the commit"
            before, after = self.clone.text(c.parent, path), self.clone.text(c.sha, path)
            if before is None or after is None:
                return Verdict.UNVERIFIABLE, f"`{path}` is not read at both revisions"
            same, why = judged_same(before, after, claim.old or "")
            if same is False:
                return Verdict.FALSE, f"`{path}`: {why}"
            if same is None:
                unread = f"`{path}`: {why}"
        if unread:
            return Verdict.UNVERIFIABLE, unread
        if claim.was:
            # the files not named: true where every other Python file the commit modifies
            # in place is the same code too (tests among them), else not known
            named = set((claim.new or claim.name).split("\n"))
            for path in c.after:
                if path in named or not path.endswith(".py") or path not in c.before:
                    continue
                before, after = self.clone.text(c.parent, path), self.clone.text(c.sha, path)
                if before is None or after is None:
                    return Verdict.UNVERIFIABLE, f"`{path}` is not read at both revisions"
                if judged_same(before, after, claim.old or "")[0] is not True:
                    return Verdict.UNVERIFIABLE, "a file not named differs (a test, maybe)"
        return Verdict.TRUE, ""

    def _private_only(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        if not is_private(claim.name):
            return Verdict.FALSE, f"`{claim.name}` is not private"
        read = self._modules(c, claim)
        if isinstance(read, tuple):
            return read
        found = False
        for path, (before, after) in read.items():
            changed = edited(before[1], after[1])
            public = sorted(n for n in changed if not is_private(n))
            if public:
                return Verdict.FALSE, f"the public `{public[0]}` in `{path}` changes too"
            found = found or claim.name in changed
        if not found:
            if claim.was:
                return Verdict.UNVERIFIABLE, f"`{claim.name}` is not edited in the files said"
            return Verdict.FALSE, f"`{claim.name}` is not edited in the files said"
        return Verdict.TRUE, ""

    # --- values ---------------------------------------------------------------------------

    def _default(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        name = _normal(claim.name)
        parameter = is_parameter(claim.name)

        def values(rev: str | None, paths: list[str]) -> tuple[set[str], bool]:
            # a parameter or a class attribute is read in its function or class alone, where
            # a changed file defines it; a name no file places so is read anywhere
            scoped: set[str] | None = None
            found: set[str] = set()
            unread = False
            for path in paths:
                text = self.clone.text(rev, path)
                if text is None:
                    continue
                try:
                    if language(path) != ".py":
                        found |= other_defaults(path, text, name)
                        continue
                    here = python_scoped_defaults(text, claim.name)
                    if here is not None:
                        scoped = (scoped or set()) | here
                    elif not parameter:
                        found |= python_defaults(text, name)
                except Unreadable:
                    unread = True
            return {_plain(v) for v in (found if scoped is None else scoped)}, unread

        before, unread = values(c.parent, [c.old(claim.path)] if claim.path else c.before)
        after, unread_after = values(c.sha, [claim.path] if claim.path else c.after)
        old, new = _plain(claim.old or ""), _plain(claim.new or "")
        if old in before and new in after:
            if parameter:
                # a name for the other side's literal is no change (`name=DEFAULT` with
                # `DEFAULT = '_default'` beside it, then `name='_default'`)
                olds = [c.old(claim.path)] if claim.path else c.before
                same = self._named_default(
                    c.parent,
                    [p for p in olds if p],
                    parameter=claim.name,
                    written=claim.old,
                    other=new,
                ) or self._named_default(
                    c.sha,
                    [claim.path] if claim.path else c.after,
                    parameter=claim.name,
                    written=claim.new,
                    other=old,
                )
                if same:
                    return Verdict.FALSE, same
            return Verdict.TRUE, ""
        if not before and not after and (unread or unread_after):
            return Verdict.UNVERIFIABLE, f"`{name}` not found in the files that parse"
        return Verdict.FALSE, (
            f"`{name}` is {_values(before)} at the parent and {_values(after)} at the commit"
        )

    def _named_default(
        self,
        rev: str | None,
        paths: list[str],
        *,
        parameter: str,
        written: str | None,
        other: str,
    ) -> str:
        """Why the default `written` (a name) is no change: the literal the scope of the
        parameter's `def` binds it to at `rev` is `other`, the other side's default."""
        name = (written or "").strip().strip("`")
        if not name.isidentifier():
            return ""
        for one in paths:
            text = self.clone.text(rev, one)
            if text is None or language(one) != ".py":
                continue
            try:
                value = python_default_name(text, parameter, name)
            except Unreadable:
                continue
            if value is not None and _plain(value) == other:
                return f"`{name}` is `{value}` where `{parameter}` is defined"
        return ""

    def _parameter(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` no longer takes / gains the parameter `p[=v]`": `f`'s signature at both
        revisions (Python's own: every def of that qualified name), `p` in it on one side
        only, with the default written where the words give one."""
        function = _normal(claim.name)
        written, eq, value = (claim.old or "").partition("=")
        param = written.split(":", 1)[0].strip().lstrip("*")
        default = _plain(value) if eq else None

        def signature(rev: str | None, paths: list[str]) -> tuple[dict[str, set[str]] | None, bool]:
            found, unread = self._python_read(
                rev, paths, function, python_signature, partial(python_signature, stub=True)
            )
            merged: dict[str, set[str]] | None = None
            for one in found:
                merged = merged or {}
                for name, defaults in one.items():
                    merged.setdefault(name, set()).update(_plain(d) for d in defaults)
            return merged, unread

        before, unread = signature(c.parent, [c.old(claim.path)] if claim.path else c.before)
        after, unread_after = signature(c.sha, [claim.path] if claim.path else c.after)
        if before is None or after is None:
            if unread or unread_after:
                return Verdict.UNVERIFIABLE, f"`{function}` not found in the files that parse"
            side = "parent" if before is None else "commit"
            return Verdict.FALSE, f"`{function}` is not defined at the {side} in a changed file"
        gone = claim.kind is Kind.PARAM_GONE
        # the side that takes the parameter, and the side that must not
        takes, lacks = (before, after) if gone else (after, before)
        side, other = ("parent", "commit") if gone else ("commit", "parent")
        if param not in takes:
            return Verdict.FALSE, f"`{function}` does not take `{param}` at the {side}"
        if default is not None and default not in takes[param]:
            return Verdict.FALSE, (
                f"`{param}` of `{function}` is {_values(takes[param])} at the {side}"
            )
        if param in lacks:
            return Verdict.FALSE, f"`{function}` takes `{param}` at the {other} too"
        return Verdict.TRUE, ""

    def _before(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` gains the parameter `p` before `q`" / "`f` now takes `p` before `q`" (calls
        that pass `q` by position now pass it as `p`): Python binds positional arguments to
        the parameters before `/` and the plain ones, in order (`self` first for a method);
        `f` has one such definition at each revision, `q` among them at both, and at the
        commit `p` stands where `q` stood at the parent. "gains": the parent's `f` had no
        `p`; "now takes": `p` came after `q` at the parent."""
        function, took, old = _normal(claim.name), claim.new or "", claim.old or ""

        def places(rev: str | None, paths: list[str]) -> tuple[list[tuple[str, ...]], bool]:
            found, unread = self._python_read(rev, paths, function, python_positional)
            return [p for one in found for p in one], unread

        before, unread = places(c.parent, [c.old(claim.path)] if claim.path else c.before)
        after, unread_after = places(c.sha, [claim.path] if claim.path else c.after)
        if len(before) != 1 or len(after) != 1:
            if unread or unread_after or (before and after):
                return Verdict.UNVERIFIABLE, f"`{function}` not one definition at each revision"
            side = "parent" if not before else "commit"
            return Verdict.FALSE, f"`{function}` is not defined at the {side} in a changed file"
        was, now = before[0], after[0]
        if old not in was or old not in now:
            return Verdict.FALSE, f"`{old}` is not a positional parameter of `{function}` at both"
        place = was.index(old)
        if place >= len(now) or now[place] != took:
            return Verdict.FALSE, f"`{took}` does not stand where `{old}` stood in `{function}`"
        if claim.kind is Kind.PARAM_BEFORE_NEW:
            if took in was:
                return Verdict.FALSE, f"`{function}` took `{took}` at the parent already"
        elif took not in was or was.index(took) < was.index(old):
            return Verdict.FALSE, f"`{took}` did not follow `{old}` in `{function}` at the parent"
        return Verdict.TRUE, ""

    def _python_read(
        self,
        rev: str | None,
        paths: list[str],
        function: str,
        read: Callable[[str, str], _Read | None],
        stub: Callable[[str, str], _Read | None] | None = None,
    ) -> tuple[list[_Read], bool]:
        """What `read` (`stub` in a `.pyi`, where given) finds of `function` in each of the
        Python files at `rev` (a file it cannot find it in gives None), and whether a file
        left it unread: one that does not parse, or in another language and naming it (a
        definition outside Python is not read here)."""
        found: list[_Read] = []
        unread = False
        for path in paths:
            text = self.clone.text(rev, path)
            if text is None:
                continue
            if language(path) != ".py":
                unread = unread or function.rsplit(".", 1)[-1] in text
                continue
            try:
                one = (
                    (stub or read)(text, function)
                    if path.endswith(".pyi")
                    else read(text, function)
                )
            except Unreadable:
                unread = True
                continue
            if one is not None:
                found.append(one)
        return found, unread

    def _both_bodies(self, c: _Commit, claim: Claim) -> _Bodies | tuple[Verdict, str]:
        """The function's body at both revisions, or the verdict when one is missing."""
        function = _normal(claim.name)
        before, after, unread = self._bodies(c, claim)
        if before is None or after is None:
            if unread:
                return Verdict.UNVERIFIABLE, f"`{function}` not found in the files that parse"
            side = "parent" if before is None else "commit"
            return Verdict.FALSE, f"`{function}` is not defined at the {side} in a changed file"
        return _Bodies(before, after)

    def _raises(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` may now raise `E`": `f`'s own code raises `E` at the commit (`raise E` or
        `raise E(…)`, named as written or by its last part) and did not at the parent; "…
        with “m”": one of those raises gives the message m (as `_raises_message` reads it)."""
        function, exception = _normal(claim.name), claim.old or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        verdict = _one_side(
            exception,
            bodies.after.raises,
            bodies.before.raises,
            f"`{function}` raises no `{exception}` at the commit",
            f"`{function}` raised `{exception}` at the parent already",
        )
        if verdict[0] is Verdict.TRUE and _reraised_only(bodies, exception):
            return Verdict.FALSE, (
                f"`{function}` raises `{exception}` only in a new `except {exception}`: "
                "the parent let it through"
            )
        said = claim.new
        if (
            verdict[0] is Verdict.TRUE
            and said is not None
            and _folded_message(said) not in _messages_of(bodies.after, exception)
        ):
            return Verdict.FALSE, f"`{function}` raises no `{exception}` with that message"
        return verdict

    def _reraises(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now raises `E` with the message “m” where it let `E` through": every own
        raise of `E` at the commit sits in an `except` naming `E` that the parent did not
        have, and one of them gives m (its start, where cut with "…")."""
        function, exception = _normal(claim.name), claim.old or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        if not _reraised_only(bodies, exception):
            return Verdict.FALSE, (
                f"`{function}` raises `{exception}` other than in a new `except {exception}`"
            )
        said = claim.new
        if said is not None and not any(
            _quoted_as(_folded_message(said), m) for m in _messages_of(bodies.after, exception)
        ):
            return Verdict.FALSE, f"`{function}` raises no `{exception}` with that message"
        return Verdict.TRUE, ""

    def _raises_instead(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now raises `E` instead of `F`": `f`'s own code raises `E` at the commit and
        not at the parent, and raised `F` at the parent and no longer does."""
        function, new, old = _normal(claim.name), claim.new or "", claim.old or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        after, before = bodies.after.raises, bodies.before.raises
        verdict = _one_side(
            new,
            after,
            before,
            f"`{function}` raises no `{new}` at the commit",
            f"`{function}` raised `{new}` at the parent already",
        )
        if verdict[0] is not Verdict.TRUE:
            return verdict
        verdict = _one_side(
            old,
            before,
            after,
            f"`{function}` raised no `{old}` at the parent",
            f"`{function}` still raises `{old}` at the commit",
        )
        if verdict[0] is not Verdict.TRUE:
            return verdict
        # one class under two names (`InvalidHash = InvalidHashError`) is no other exception
        for path in [claim.path] if claim.path else c.after:
            if language(path) != ".py" or not self._defines(c.sha, path, function):
                continue
            at_commit = partial(self.clone.text, c.sha)
            now = class_of(at_commit, path, new)
            was = class_of(partial(self.clone.text, c.parent), c.old(path), old)
            # the old name where the parent defined it, read at the commit (a class renamed
            # that keeps its old name bound to it: `InvalidHash = InvalidHashError`)
            kept = class_of(at_commit, c.new(was[0]) or was[0], was[1]) if was else None
            if now is not None and now in (was, kept):
                where = "a builtin" if now[0] == "builtins" else f"`{now[1]}` of `{now[0]}`"
                return Verdict.FALSE, f"`{new}` and `{old}` are one class ({where})"
        return Verdict.TRUE, ""

    def _defines(self, rev: str | None, path: str, function: str) -> bool:
        text = self.clone.text(rev, path)
        try:
            return text is not None and python_body(text, function, exact=False) is not None
        except Unreadable:
            return False

    def _catches(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now catches `E`": an `except` of `f`'s own code names `E` at the commit, none
        did at the parent. "`f` no longer catches `E`": one did at the parent, none does at
        the commit, and nothing it still catches takes `E` in (a bare `except:`, a builtin
        base class of a builtin `E`, `Exception` for anything but the few that derive from
        `BaseException` alone)."""
        function, exception = _normal(claim.name), claim.old or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        gone = claim.kind is Kind.CATCHES_GONE
        now, was = bodies.after.caught, bodies.before.caught
        if gone:
            if not _named_in(exception, was):
                return Verdict.FALSE, f"`{function}` did not catch `{exception}` at the parent"
            covering = next((k for k in now if _covers(k, exception)), None)
            if covering is not None:
                held = f"`except {covering}`" if covering else "a bare `except:`"
                return Verdict.FALSE, f"{held} still catches `{exception}` in `{function}`"
            return Verdict.TRUE, ""
        return _one_side(
            exception,
            now,
            was,
            f"`{function}` catches no `{exception}` at the commit",
            f"`{function}` caught `{exception}` at the parent already",
        )

    def _calls(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now calls `g`": a call of `g` (as written, or by its last part) in `f`'s body
        at the commit and none at the parent; "no longer calls" the reverse. Its decorators
        and defaults are not its body: they run where it is defined."""
        function, callee = _normal(claim.name), claim.old or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        now, was = bodies.after.calls, bodies.before.calls
        if claim.kind is Kind.CALLS_GONE:
            now, was = was, now
        side, other = (
            ("parent", "commit") if claim.kind is Kind.CALLS_GONE else ("commit", "parent")
        )
        return _one_side(
            callee,
            now,
            was,
            f"`{function}`'s body calls no `{callee}` at the {side}",
            f"`{function}`'s body calls `{callee}` at the {other} too",
        )

    def _returns(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` may now return `v`": a `return v` of `f`'s own code at the commit, none at
        the parent; unverifiable where the parent returned something not written as a
        literal (it may have been `v`)."""
        function, value = _normal(claim.name), claim.old or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        if value not in bodies.after.returns:
            return Verdict.FALSE, f"`{function}` returns no `{value}` at the commit"
        if value in bodies.before.returns:
            return Verdict.FALSE, f"`{function}` returned `{value}` at the parent already"
        if "?" in bodies.before.returns:
            return Verdict.UNVERIFIABLE, f"`{function}` returned a computed value at the parent"
        return Verdict.TRUE, ""

    def _gives(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now returns `v` [or `w`]": at the commit, `f`'s own code is no generator,
        every `return` of it gives one of the values said (as `ast.unparse` writes it, spaces
        folded), each is given, and each definition ends in a `return` or a `raise`
        (unverifiable where one may run off its end); at the parent, no generator, and no
        `return` gave a value (`return None` gives none). "`f` now returns `b` instead of
        `a`": every `return` of its own code gives `b` at the commit and gave `a` at the
        parent, one at least on each side."""
        function = _normal(claim.name)
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        now, was = bodies.after, bodies.before
        if now.generator or was.generator:
            return Verdict.FALSE, f"`{function}` is a generator at one revision"
        given = {_folded(g) for g in now.gives}
        if claim.kind is Kind.RETURNS_INSTEAD:
            new, old = _folded(claim.new or ""), _folded(claim.old or "")
            if given != {new}:
                return (
                    Verdict.FALSE,
                    f"`{function}`'s returns do not all give `{new}` at the commit",
                )
            if {_folded(g) for g in was.gives} != {old}:
                return (
                    Verdict.FALSE,
                    f"`{function}`'s returns did not all give `{old}` at the parent",
                )
            return Verdict.TRUE, ""
        said = {_folded(v) for v in (claim.new, claim.was) if v}
        if given != said:
            return Verdict.FALSE, f"`{function}`'s returns give {sorted(given)} at the commit"
        if any(was.gives):
            return Verdict.FALSE, f"`{function}` returned a value at the parent already"
        if now.falls_through:
            return Verdict.UNVERIFIABLE, f"`{function}` may run off its end at the commit"
        return Verdict.TRUE, ""

    def _returns_where(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now returns `b` where it returned `a`": `f` found as `_bodies` finds it, its
        returns read by `literal_returns` (one call followed) at both revisions."""
        function = _normal(claim.name)
        olds = [c.old(claim.path)] if claim.path else c.before
        news = [claim.path] if claim.path else c.after
        try:
            before = returned(partial(self.clone.text, c.parent), olds, function)
            after = returned(partial(self.clone.text, c.sha), news, function)
        except NotPython as exc:
            return Verdict.UNVERIFIABLE, f"`{exc}` does not parse"
        held, why = judged_return(
            before, after, function, claim.old or "", claim.new or "", when=claim.was
        )
        if held is None:
            return Verdict.UNVERIFIABLE, why
        return (Verdict.TRUE if held else Verdict.FALSE), why

    def _returns_early(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now returns `v` early when `t`": at the commit `f` is no generator and an own
        `if t:` of it has a body whose last statement is `return v` and whose others never
        return, raise, `continue` or `break`; `t` no test of `f` at the parent (tests and
        values compared as `ast.unparse` writes them, spaces folded)."""
        function, value, test = _normal(claim.name), claim.old or "", claim.new or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        if bodies.after.generator:
            return Verdict.FALSE, f"`{function}` is a generator at the commit"
        if _folded(test) in {_folded(t) for t in bodies.before.conditions}:
            return Verdict.FALSE, f"`{function}` tested `{test}` at the parent already"
        said = (_folded(test), _folded(value))
        if said not in {(_folded(t), _folded(v)) for t, v in bodies.after.returns_when}:
            return (
                Verdict.FALSE,
                f"no `if {test}:` of `{function}` ends in `return {value}` at the commit",
            )
        if _folded(test) not in {_folded(t) for t in bodies.after.early}:
            return Verdict.FALSE, f"nothing of `{function}` runs after `if {test}:` otherwise"
        return Verdict.TRUE, ""

    def _computes(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now computes `x` as `b` (was `a`)": `f`'s own code binds `x` only by plain
        `x = …` at both revisions, every one giving `b` at the commit and `a` at the parent
        (as `ast.unparse` writes them, spaces folded), one at least on each side."""
        function, target = _normal(claim.name), _param_of(claim.name)
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        for body, value, side in (
            (bodies.after, claim.new or "", "commit"),
            (bodies.before, claim.old or "", "parent"),
        ):
            if target in body.rebound:
                return Verdict.FALSE, f"`{function}` binds `{target}` otherwise at the {side}"
            given = {_folded(v) for v in body.assigned.get(target, set())}
            if given != {_folded(value)}:
                return (
                    Verdict.FALSE,
                    f"`{function}` binds `{target}` to {sorted(given)} at the {side}",
                )
        if _folded(claim.new or "") == _folded(claim.old or ""):
            return Verdict.FALSE, f"`{function}` binds `{target}` to one value at both"
        return Verdict.TRUE, ""

    def _typed(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "The parameter `p` of `f` now takes `T` (was `U`)" / "`f` now returns `T` (was
        `U`)": the annotation as written (spaces folded) is `T` at the commit and `U` at the
        parent, in every definition of `f` there (one `@overload` may differ: any)."""
        function, param = _normal(claim.name), _param_of(claim.name)
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        if claim.kind is Kind.RETURN_TYPE:
            now, was, what = bodies.after.returns_type, bodies.before.returns_type, "returns"
        else:
            if param not in bodies.after.annotations or param not in bodies.before.annotations:
                return Verdict.FALSE, f"`{function}` does not take `{param}` at both revisions"
            now, was = bodies.after.annotations[param], bodies.before.annotations[param]
            what = f"`{param}` takes"
        new, old = _folded(claim.new or ""), _folded(claim.old or "")
        if new not in {_folded(w) for w in now}:
            return Verdict.FALSE, f"`{function}` {what} no `{new}` at the commit"
        if old not in {_folded(w) for w in was}:
            return Verdict.FALSE, f"`{function}` {what} no `{old}` at the parent"
        return Verdict.TRUE, ""

    def _optional(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "The parameter `p` of `f` is now optional (default `d`)": `p` has the default `d`
        at the commit and had none at the parent; "now required (its default was `d`)" the
        reverse."""
        function, param = _normal(claim.name), _param_of(claim.name)
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        now, was = bodies.after.defaults, bodies.before.defaults
        if claim.kind is Kind.REQUIRED:
            now, was = was, now
        value = _plain(claim.new or claim.old or "")
        side, other = ("parent", "commit") if claim.kind is Kind.REQUIRED else ("commit", "parent")
        if param not in now or param not in was:
            return Verdict.FALSE, f"`{function}` does not take `{param}` at both revisions"
        if value not in {_plain(d) for d in now[param]}:
            return (
                Verdict.FALSE,
                f"`{param}` of `{function}` has no default `{value}` at the {side}",
            )
        if was[param]:
            return Verdict.FALSE, f"`{param}` of `{function}` had a default at the {other} too"
        return Verdict.TRUE, ""

    def _param_renamed(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "The parameter `p` of `f` is now `q`": `f` takes `p` and not `q` at the parent,
        `q` and not `p` at the commit."""
        function, param, new = _normal(claim.name), _param_of(claim.name), claim.new or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        was, now = bodies.before.defaults, bodies.after.defaults
        if param not in was or new in was:
            return Verdict.FALSE, f"`{function}` does not take `{param}` alone at the parent"
        if new not in now or param in now:
            return Verdict.FALSE, f"`{function}` does not take `{new}` alone at the commit"
        return Verdict.TRUE, ""

    def _edited(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "The fix is in `f`": `f` is defined at the commit, and at the parent not at all
        (new code) or with other code (Python: its tree, docstrings aside; elsewhere its
        text, spaces folded)."""
        function = _normal(claim.name)

        def code(rev: str | None, paths: list[str]) -> set[str]:
            found: set[str] = set()
            for path in paths:
                text = self.clone.text(rev, path)
                if text is None or language(path) is None:
                    continue
                found |= {
                    _code_of(path, d.text)
                    for d in definitions(path, text)
                    if d.name == function or d.name.endswith("." + function)
                }
            return found

        after = code(c.sha, [claim.path] if claim.path else c.after)
        if not after:
            return Verdict.FALSE, f"`{function}` is not defined at the commit in a changed file"
        before = code(c.parent, [c.old(claim.path)] if claim.path else c.before)
        if before == after:
            return Verdict.FALSE, f"`{function}`'s code is the same at both revisions"
        return Verdict.TRUE, ""

    def _documented(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f`, per its docstring: “s”": a Python definition of `f` (a function, method or
        class) at the commit, in the file said or else in a changed file, whose docstring,
        whitespace folded, opens with s, or has a paragraph that does (with what s shows
        before "…" where it is cut)."""
        name = _normal(claim.name)
        opening = " ".join((claim.new or "").split()).removesuffix("…").rstrip()
        found, unread = self._paragraphs(c.sha, [claim.path] if claim.path else c.after, name)
        if found is None:
            if unread:
                return Verdict.UNVERIFIABLE, f"`{name}` not found in the files that parse"
            return Verdict.FALSE, f"`{name}` is not defined at the commit in a changed file"
        if not opening or not any(_as_read(p).startswith(_as_read(opening)) for p in found):
            return Verdict.FALSE, f"no docstring of `{name}` at the commit opens with those words"
        return Verdict.TRUE, ""

    def _redocumented(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f`'s docstring now says: “s”": as `_documented` at the commit, and no docstring
        of `f` at the parent (in the file said, as it was named there, else in a changed file)
        holds those words anywhere."""
        verdict, why = self._documented(c, claim)
        if verdict is not Verdict.TRUE:
            return verdict, why
        name = _normal(claim.name)
        words = " ".join((claim.new or "").split()).removesuffix("…").rstrip()
        paths = [c.old(claim.path)] if claim.path else c.before
        before, unread = self._paragraphs(c.parent, paths, name)
        if unread and before is None:
            return Verdict.UNVERIFIABLE, "a file at the parent does not parse"
        if _as_read(words) in _as_read(" ".join(before or [])):
            return Verdict.FALSE, f"a docstring of `{name}` at the parent already says it"
        return Verdict.TRUE, ""

    def _paragraphs(
        self, rev: str | None, paths: list[str], name: str
    ) -> tuple[list[str] | None, bool]:
        """The docstring paragraphs of `name`'s Python definitions in `paths` at `rev` (None
        where none defines it), and whether a file did not parse."""
        found: list[str] | None = None
        unread = False
        for path in paths:
            text = self.clone.text(rev, path) if rev and language(path) == ".py" else None
            if text is None:
                continue
            try:
                paragraphs = python_paragraphs(text, name)
            except Unreadable:
                unread = True
                continue
            if paragraphs is not None:
                found = (found or []) + paragraphs
        return found, unread

    def _tests_call(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "The new tests call `f`": a test function of a changed Python test file, defined
        at the commit and not at the parent, calls `f` (as written or by its last part)."""
        callee = _normal(claim.name)
        for old, new in c.changed:
            if new is None or language(new) != ".py" or not _a_test_file(new):
                continue
            after, before = self.clone.text(c.sha, new) or "", self.clone.text(c.parent, old)
            had = {d.name for d in definitions(new, before)} if before else set()
            for test in definitions(new, after):
                short = test.name.rsplit(".", 1)[-1]
                if not short.startswith("test") or test.name in had or test.local:
                    continue
                found = python_body(after, test.name)
                if found is not None and _named_in(callee, found.calls):
                    return Verdict.TRUE, ""
        return Verdict.FALSE, f"no test new at the commit calls `{callee}`"

    def _pins(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "The new test `t` pins `f(a)` to `b`": a changed Python test file's function `t`
        pins the call to the value at the commit (`pin_check.py`), and no such file defined
        `t` at the parent; "The test `t` now also pins …": `t` was defined at the parent
        and did not pin it there."""
        test, call, value = claim.name, claim.old or "", claim.new or ""
        new = claim.was == "new test"
        reads = raised if claim.kind is Kind.PINS_RAISE else pinned
        unread = False
        for old, path in c.changed:
            if path is None or language(path) != ".py" or not _a_test_file(path):
                continue
            after = self.clone.text(c.sha, path)
            before = self.clone.text(c.parent, old) if old is not None else None
            now = reads(after, test, call, value) if after is not None else None
            if now is None:
                unread = True
                continue
            if not now:
                continue
            if before is None:
                if new:
                    return Verdict.TRUE, ""
                continue
            try:
                had = any(test_functions(ast.parse(before), test))
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                unread = True
                continue
            if new and not had:
                return Verdict.TRUE, ""
            if new:
                return Verdict.FALSE, f"`{test}` was defined at the parent in `{old}`"
            if had and reads(before, test, call, value) is False:
                return Verdict.TRUE, ""
            return Verdict.FALSE, f"`{test}` at the parent already pinned `{call}`, or was absent"
        if unread:
            return Verdict.UNVERIFIABLE, "a changed test file or the claim does not parse"
        return Verdict.FALSE, f"no changed test `{test}` pins `{call}` to `{value}`"

    def _bodies(self, c: _Commit, claim: Claim) -> tuple[Body | None, Body | None, bool]:
        """The function's body at the parent and at the commit (its Python definitions in the
        file said, else in the changed files), and whether a file it may be in did not parse.
        Where a revision defines the name as written (`wait_socket_readable` at the top of a
        module), the methods that end in it (`TrioBackend.wait_socket_readable`) are others."""
        function = _normal(claim.name)
        unread = False

        def body(rev: str | None, paths: list[str], *, exact: bool) -> Body | None:
            nonlocal unread
            merged: Body | None = None
            for path in paths:
                text = self.clone.text(rev, path) if language(path) == ".py" else None
                if text is None:
                    continue
                try:
                    found = python_body(text, function, exact=exact)
                except Unreadable:
                    unread = True
                    continue
                if found is not None:
                    merged = merged or Body({}, set(), set())
                    for string, others in found.compared.items():
                        merged.compared.setdefault(string, set()).update(others)
                    merged.strings |= found.strings
                    merged.raised |= found.raised
                    merged.raises |= found.raises
                    merged.reraises |= found.reraises
                    merged.raises_anew |= found.raises_anew
                    merged.caught |= found.caught
                    merged.calls |= found.calls
                    merged.returns |= found.returns
                    merged.returns_type |= found.returns_type
                    for param, written in found.annotations.items():
                        merged.annotations.setdefault(param, set()).update(written)
                    for param, defaults in found.defaults.items():
                        merged.defaults.setdefault(param, set()).update(defaults)
                    merged.conditions |= found.conditions
                    merged.guards |= found.guards
                    merged.passes += found.passes
                    merged.closure_passes += found.closure_passes
                    merged.lines += found.lines
                    merged.own_attributes |= found.own_attributes
                    merged.logged |= found.logged
                    merged.gives += found.gives
                    merged.generator |= found.generator
                    merged.falls_through |= found.falls_through
                    merged.returns_when |= found.returns_when
                    merged.ends_returning |= found.ends_returning
                    merged.early |= found.early
                    for name, values in found.assigned.items():
                        merged.assigned.setdefault(name, set()).update(values)
                    merged.rebound |= found.rebound
                    merged.expressions |= found.expressions
            return merged

        olds = [c.old(claim.path)] if claim.path else c.before
        news = [claim.path] if claim.path else c.after
        exact = bool(body(c.parent, olds, exact=True) or body(c.sha, news, exact=True))
        return body(c.parent, olds, exact=exact), body(c.sha, news, exact=exact), unread

    def _checks(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now (also) checks for `"s"`": `f`'s own code compares a value with "s" (`==`,
        `!=`, `in` a tuple, list or set written out) at the commit; "s" is in no string of
        `f` at the parent (not even inside a message); with "also", another string of that
        comparison was compared in `f` at the parent."""
        function, value = _normal(claim.name), claim.old or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        before, after = bodies.before, bodies.after
        if value not in after.compared:
            return Verdict.FALSE, f"`{function}` compares nothing with `{value!r}` at the commit"
        held = next((s for s in before.strings if value in s), None)
        if held is not None:
            return Verdict.FALSE, f"`{function}` already held `{held!r}` at the parent"
        if claim.new == "also" and not after.compared[value] & before.compared.keys():
            return Verdict.FALSE, (
                f"nothing compared beside `{value!r}` was compared in `{function}` at the parent"
            )
        return Verdict.TRUE, ""

    def _logs(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now logs a warning: “m”" (an error, a critical error): a logger's call of
        that level in `f`'s own code at the commit gives the message m (spaces folded; m cut
        with "…" is its start), and none did in `f` at the parent, where `f` may be new."""
        function, level = _normal(claim.name), (claim.old or "").split()[0]
        said = _folded_message(claim.new or "")
        before, after, unread = self._bodies(c, claim)
        if after is None:
            if unread:
                return Verdict.UNVERIFIABLE, f"`{function}` not found in the files that parse"
            return Verdict.FALSE, f"`{function}` is not defined at the commit in a changed file"

        def gives(body: Body | None) -> bool:
            return body is not None and any(
                kind == level and _quoted_as(said, _folded_message(text))
                for kind, text in body.logged
            )

        if not gives(after):
            return Verdict.FALSE, f"`{function}` logs no {level} with that message"
        if gives(before):
            return Verdict.FALSE, f"`{function}` logged that {level} at the parent already"
        return Verdict.TRUE, ""

    def _raises_message(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now raises `E` with “m”": `f`'s own code raises `E("m")` at the commit (the
        message's literal parts, "{…}" where a value goes), did not at the parent, where it
        raised `E` with another message."""
        function, exception = _normal(claim.name), claim.old or ""
        message = _folded_message(claim.new or "")
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        before, after = bodies.before, bodies.after
        if message not in _messages_of(after, exception):
            return Verdict.FALSE, f"`{function}` raises no `{exception}` with that message"
        was = _messages_of(before, exception)
        if message in was:
            return Verdict.FALSE, f"`{function}` raised it with that message at the parent"
        if not was:
            return Verdict.FALSE, (
                f"`{function}` raised no `{exception}` with a message at the parent"
            )
        return Verdict.TRUE, ""

    def _reworded(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "The `E` raised by `f` now says “m” (was “w”)": `f`'s own code raises `E("m")` at
        the commit and not at the parent, raises `E` as many times at both, and a message it
        gave `E` at the parent (w, where said) it gives at the commit no more."""
        function, exception = _normal(claim.name), claim.old or ""
        message, said = _folded_message(claim.new or ""), claim.was
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        now, was = _messages_of(bodies.after, exception), _messages_of(bodies.before, exception)
        if message not in now:
            return Verdict.FALSE, f"`{function}` raises no `{exception}` with that message"
        if message in was:
            return Verdict.FALSE, f"`{function}` raised it with that message at the parent"
        gone = was - now if said is None else {_folded_message(said)} & was - now
        if not gone:
            return Verdict.FALSE, (
                f"`{function}` gave `{exception}` no message at the parent that it no longer gives"
            )
        # each `raise E(…)` / `raise m.E(…)` statement, by the first line the file writes
        raising = re.compile(rf"raise\s+(?:[\w.]+\.)?{re.escape(_last(exception))}\b(?!\.)")
        count = [
            sum(n for line, n in body.lines.items() if raising.match(line))
            for body in (bodies.before, bodies.after)
        ]
        if count[0] != count[1]:
            return Verdict.FALSE, f"`{function}` raises `{exception}` a different number of times"
        return Verdict.TRUE, ""

    def _became(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "In `f`, `a` became `b`": a statement of `f` (its closures' included) whose
        first line, as the file writes it from where it starts, is `a` is on fewer lines at
        the commit than at the parent, and one written `b` on more."""
        function, old, new = _normal(claim.name), claim.old or "", claim.new or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        before, after = bodies.before.lines, bodies.after.lines
        if after[old] >= before[old]:
            return Verdict.FALSE, f"`{function}` has `{old}` as often at the commit"
        if after[new] <= before[new]:
            return Verdict.FALSE, f"`{function}` has `{new}` no more often at the commit"
        return Verdict.TRUE, ""

    def _used_by(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "In `C._m` (used by `C.g`), …": `C.g` is a public method of the same class whose
        body names `self._m` (or `cls._m`) at the commit."""
        function, user = _normal(claim.name), _normal(claim.new or "")
        owner, _, method = function.rpartition(".")
        if user.rpartition(".")[0] != owner or user.rpartition(".")[2].startswith("_"):
            return Verdict.FALSE, f"`{user}` is no public method of `{owner}`"
        _, after, unread = self._bodies(c, replace(claim, name=user))
        if after is None:
            if unread:
                return Verdict.UNVERIFIABLE, f"`{user}` not found in the files that parse"
            return Verdict.FALSE, f"`{user}` is not defined at the commit in a changed file"
        if method not in after.own_attributes:
            return Verdict.FALSE, f"`{user}` does not use `self.{method}` at the commit"
        return Verdict.TRUE, ""

    def _condition(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now tests `t` (was `o`)": `t` is the test of an own `if`, `elif`, `while` or
        conditional expression of `f` at the commit and of none at the parent, `o` the
        reverse; "`f` now returns early when `t`" (raises `E`, skips to the next iteration):
        at the commit an own `if t:` of `f` whose body ends in `return` (`raise E…`,
        `continue`), and `t` no test of `f` at the parent; "`f` no longer tests `t`": a test
        at the parent, none at the commit. Tests are compared as `ast.unparse` writes them."""
        function, test = _normal(claim.name), claim.new or ""
        before, after, unread = self._bodies(c, claim)
        if before is None or after is None:
            if unread:
                return Verdict.UNVERIFIABLE, f"`{function}` not found in the files that parse"
            side = "parent" if before is None else "commit"
            return Verdict.FALSE, f"`{function}` is not defined at the {side} in a changed file"
        if claim.kind is Kind.NO_LONGER_TESTS:
            if test not in before.conditions:
                return Verdict.FALSE, f"`{function}` did not test `{test}` at the parent"
            if test in after.conditions:
                return Verdict.FALSE, f"`{function}` still tests `{test}`"
            if _computed(test, after):
                return Verdict.FALSE, f"`{function}` still computes `{test}` (or its opposite)"
            return self._tested_by_callee(c, claim, before, after)
        if test in before.conditions:
            return Verdict.FALSE, f"`{function}` tested `{test}` at the parent already"
        if claim.kind is Kind.TESTS_NOW:
            was = claim.old or ""
            if test not in after.conditions:
                return Verdict.FALSE, f"`{function}` does not test `{test}` at the commit"
            if was not in before.conditions:
                return Verdict.FALSE, f"`{function}` did not test `{was}` at the parent"
            if was in after.conditions:
                return Verdict.FALSE, f"`{function}` still tests `{was}`"
            return Verdict.TRUE, ""
        jump = claim.old or ""
        leaves = {
            how
            for t, how in after.guards
            if t == test
            and (how == jump or (how.startswith("raise ") and "raise " + _last(how[6:]) == jump))
        }
        if not leaves:
            return Verdict.FALSE, f"no `if {test}:` of `{function}` ends in `{jump}` at the commit"
        if jump == "return" and test not in after.early:
            # "early": a `return` before code that still runs where the test is false
            return Verdict.FALSE, f"nothing of `{function}` runs after `if {test}:` otherwise"
        return Verdict.TRUE, ""

    def _tested_by_callee(
        self, c: _Commit, claim: Claim, before: Body, after: Body
    ) -> tuple[Verdict, str]:
        """ "`f` no longer tests `t`" where `f` now calls what it did not: a callee of the
        changed files that computes `t`, or reads each literal `t` compares with (`'+'` of
        `x[0] == '+'`), may test it for `f`; neither read, the claim stands."""
        literals = _test_literals(claim.new or "")
        for callee in sorted(after.calls - before.calls):
            name = callee.rsplit(".", 1)[-1]
            _, helper, _ = self._bodies(c, replace(claim, name=name, path=claim.path))
            if helper is None:
                continue
            if _computed(claim.new or "", helper):
                return Verdict.FALSE, f"`{name}`, which it now calls, computes `{claim.new}`"
            if literals and literals <= helper.strings:
                return Verdict.UNVERIFIABLE, f"`{name}`, which it now calls, reads {literals}"
        return Verdict.TRUE, ""

    def _raise_gone(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` no longer raises `E` when `t`": at the parent an own `if t:` of `f` ended in
        `raise E…` (`E` as written, or its last part), and at the commit none does and its
        own code raises no `E` at all. Where the parent's own code had no such `if` but the
        commit's returns under a new `if t:`, the raise was a callee's: not read here
        (unverifiable). Tests are compared as `ast.unparse` writes them."""
        function, test, jump = _normal(claim.name), claim.new or "", claim.old or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        before, after = bodies.before, bodies.after
        exception = jump.removeprefix("raise ")

        def raising(body: Body) -> bool:
            return any(
                t == test and how.startswith("raise ") and _last(how[6:]) == _last(exception)
                for t, how in body.guards
            )

        if raising(after):
            return Verdict.FALSE, f"an `if {test}:` of `{function}` still raises `{exception}`"
        if raising(before):
            if any(_last(e) == _last(exception) for e in after.raises):
                return Verdict.FALSE, f"`{function}` still raises `{exception}`"
            return Verdict.TRUE, ""
        if (test, "return") in after.guards and test not in before.conditions:
            return Verdict.UNVERIFIABLE, f"`{function}` raised `{exception}` through a callee"
        return Verdict.FALSE, f"no `if {test}:` of `{function}` raised `{exception}` at the parent"

    def _callee_raises(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "…, which raises `E` when `t`" of a callee `g`: at the commit an own `if t:` of
        `g` whose body ends in `raise E…` (`E` as written, or its last part); the parent is
        not read (the call is the caller's news, the guard may be `g`'s of old)."""
        function, test, jump = _normal(claim.name), claim.new or "", claim.old or ""
        _, after, unread = self._bodies(c, claim)
        if after is None:
            if unread:
                return Verdict.UNVERIFIABLE, f"`{function}` not found in the files that parse"
            return Verdict.FALSE, f"`{function}` is not defined at the commit in a changed file"
        if not any(
            t == test
            and (how == jump or (how.startswith("raise ") and "raise " + _last(how[6:]) == jump))
            for t, how in after.guards
        ):
            return Verdict.FALSE, f"no `if {test}:` of `{function}` ends in `{jump}` at the commit"
        return Verdict.TRUE, ""

    def _passes(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now passes `k=v` to `g`": a call of `g` (as written) in `f` (its own code or a
        function nested in it) passes `k=v` at the commit, and at the parent `f` called `g`
        without ever passing `k`; with
        "(was `w`)": at the parent no call of `g` passed `k=v` and one passed `k=w`, which
        none does at the commit. "`f` no longer passes `k=v` to `g`": a call of `g` passed
        `k=v` at the parent; at the commit `f` still calls `g`, never passing `k`. Values
        are compared as Python parses them."""
        function, callee = _normal(claim.name), claim.old or ""
        arg, _, value = (claim.new or "").partition("=")
        now = _python_value(value)
        was = _python_value(claim.was) if claim.was is not None else None
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies

        def given(body: Body) -> list[str | None]:
            # the value each call of `g` gives `k` (None: not passed)
            # (a closure's calls are the function's: a decorator's wrapper passes it each
            # time the function it returns is called)
            return [
                _python_value(k[arg]) if arg in k else None
                for g, k in (*body.passes, *body.closure_passes)
                if g == callee
            ]

        before, after = given(bodies.before), given(bodies.after)
        if not before or not after:
            side = "parent" if not before else "commit"
            return Verdict.FALSE, f"`{function}` does not call `{callee}` at the {side}"
        if claim.kind is Kind.PASSES_GONE:
            if now not in before:
                return Verdict.FALSE, f"no call of `{callee}` passed `{arg}={value}` at the parent"
            if any(v is not None for v in after):
                return Verdict.FALSE, f"a call of `{callee}` still passes `{arg}` at the commit"
            return Verdict.TRUE, ""
        if now not in after:
            return Verdict.FALSE, f"no call of `{callee}` passes `{arg}={value}` at the commit"
        if claim.was is None:
            if any(v is not None for v in before):
                return Verdict.FALSE, f"a call of `{callee}` passed `{arg}` at the parent"
            return Verdict.TRUE, ""
        if now in before:
            return Verdict.FALSE, f"a call of `{callee}` passed `{arg}={value}` at the parent"
        if was not in before:
            return Verdict.FALSE, f"no call of `{callee}` passed `{arg}={claim.was}` at the parent"
        if was in after:
            return Verdict.FALSE, f"a call of `{callee}` still passes `{arg}={claim.was}`"
        return Verdict.TRUE, ""

    def _reads(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        name = claim.name.strip()
        env = claim.kind in (Kind.ENV_NEW, Kind.ENV_GONE)
        forms = [f'"{name}"', f"'{name}'"] + ([f"${name}", "${" + name] if env else [])

        def lines(rev: str | None, paths: list[str]) -> list[tuple[str, str]]:
            return [
                (path, line)
                for path in paths
                for line in (self.clone.text(rev, path) or "").splitlines()
                if name in line
            ]

        def reads(rev: str | None, paths: list[str]) -> list[tuple[str, str]]:
            # a flag is its program's: only the changed files are read for one
            found = lines(rev, paths) if flag else self.clone.grep(rev, name)
            return [
                (path, line)
                for path, line in found
                if not _DOCS.search(path)
                and not _TESTS.search(path)
                and not _COMMENT.match(line)
                and any(f in line for f in forms)
            ]

        flag = claim.kind in (Kind.FLAG_NEW, Kind.FLAG_GONE)
        before, after = reads(c.parent, c.before), reads(c.sha, c.after)
        if claim.kind is Kind.FLAG_NEW:
            # new in a program: a changed file takes it that did not at the parent
            # (or takes it on more lines: a second subcommand's option of the same name)
            older = {new: old for old, new in c.changed if new}
            had = Counter(path for path, _ in before)
            now = Counter(path for path, _ in after)
            if claim.new and not any(
                claim.new in _helps_of(self.clone.text(c.sha, path) or "", name)
                for path in c.after
                if path.endswith(".py")
            ):
                return Verdict.FALSE, f"no changed file gives `{name}` the help “{claim.new}”"
            if any(n > had[older.get(path) or ""] for path, n in now.items()):
                return Verdict.TRUE, ""
            if after:
                return Verdict.FALSE, f"`{after[0][0]}` already took `{name}` at the parent"
            return Verdict.FALSE, f"no changed file takes `{name}` at the commit"
        if claim.kind in (Kind.ENV_NEW, Kind.KEY_NEW):
            if not after:
                return Verdict.FALSE, f"nothing outside tests reads `{name}` at the commit"
            if before:
                return Verdict.FALSE, f"`{name}` was already read at the parent in `{before[0][0]}`"
            return Verdict.TRUE, ""
        if after:
            return Verdict.FALSE, f"`{name}` is still read at the commit in `{after[0][0]}`"
        if not before:
            return Verdict.FALSE, f"nothing outside tests read `{name}` at the parent"
        return Verdict.TRUE, ""

    def _requires(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        pin = _plain(claim.name).lower()

        def written(text: str | None, path: str | None) -> bool:
            if text is None:
                return False
            if path and path.endswith(".toml") and pin in _poetry_pins(text):
                return True
            spec = pin.removeprefix("python")
            if spec != pin and spec[:1] and spec[:1] in "<>=!~":
                # the Python versions supported, as packaging writes them: PEP 621's
                # `requires-python = ">=3.9"`, setuptools' `python_requires=">=3.9"`
                return any(
                    value.replace(" ", "").lower() == spec for value in _python_supports(text, path)
                )
            return _pinned(pin, text.lower())

        for before_path, after_path in c.changed:
            # a document's words name a version (a changelog's "Fix compatibility with
            # marshmallow>=3.13.0"): no install reads them
            if after_path and _PROSE.search(after_path):
                continue
            after = self.clone.text(c.sha, after_path)
            if not written(after, after_path):
                continue
            extra = _extra_only(pin, after_path, after) if after_path and after else None
            if extra is not None:
                return Verdict.FALSE, f"`{pin}` is the extra `{extra}`'s requirement only"
            before = self.clone.text(c.parent, before_path)
            if written(before, before_path):
                return Verdict.FALSE, f"`{pin}` was already written in `{before_path}`"
            # metadata moved between a folder's `setup.py`, `setup.cfg` and `pyproject.toml`:
            # what another of them wrote at the parent is no new requirement
            folder = (after_path or "").rpartition("/")[0]
            for other in c.before:
                if (
                    other != before_path
                    and other.rpartition("/")[0] == folder
                    and other.rsplit("/", 1)[-1] in _METADATA_NAMES
                    and written(self.clone.text(c.parent, other), other)
                ):
                    return Verdict.FALSE, f"`{pin}` was already written in `{other}`"
            wrong = _was_unpaired(pin, claim.was, before, after) if claim.was else None
            if wrong is not None:
                return Verdict.FALSE, wrong
            return Verdict.TRUE, ""
        return Verdict.FALSE, f"`{pin}` is written in no changed file at the commit"

    def _pin(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "updates the pre-commit hook `h` / the GitHub Action `a` from `x` to `y`": the pins
        YAML reads at each revision in the changed files of that kind (a pre-commit config's
        `repos` entries whose `repo` URL ends in `h`; every `uses: a[/path]@ref` of a
        workflow or action, the ref or, for a commit's sha, the version its comment names)."""
        hook = claim.kind is Kind.HOOK_PIN
        name = claim.name.strip()

        def pins(rev: str | None, paths: list[str]) -> tuple[set[str], bool]:
            found: set[str] = set()
            unread = False
            for path in paths:
                text = self.clone.text(rev, path)
                if text is None:
                    continue
                try:
                    data = yaml.safe_load(text)
                except yaml.YAMLError:
                    unread = True
                    continue
                found |= _hook_revs(data, name) if hook else _action_refs(data, text, name)
            return found, unread

        kind = _PRE_COMMIT_FILE if hook else _WORKFLOW_FILE
        olds = [claim.path and c.old(claim.path)] if claim.path else c.before
        news = [claim.path] if claim.path else c.after
        before, unread = pins(c.parent, [p for p in olds if p and kind.search(p)])
        after, unread_after = pins(c.sha, [p for p in news if p and kind.search(p)])
        old, new = (claim.old or "").strip(), (claim.new or "").strip()
        if old in before and new in after and old not in after:
            return Verdict.TRUE, ""
        if not before and not after and (unread or unread_after):
            return Verdict.UNVERIFIABLE, "the YAML does not parse"
        return Verdict.FALSE, (
            f"`{name}` is pinned at {_values(before)} at the parent and {_values(after)} at "
            "the commit"
        )

    def _message(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        # "…" stands where the sentence left something out (an f-string's value, a long
        # message's end): every piece around it, in order, in one string of the code
        pieces = [re.sub(r"\s+", " ", p).strip() for p in claim.name.split("…")]
        pattern = re.compile(".*".join(re.escape(p) for p in pieces if p), re.DOTALL)

        def holds(path: str | None, text: str | None) -> bool:
            if text is None or path is None:
                return False
            try:
                strings = string_literals(path, text)
            except Unreadable:
                return False
            return any(pattern.search(re.sub(r"\s+", " ", s)) for s in strings)

        for before_path, after_path in c.changed:
            if holds(after_path, self.clone.text(c.sha, after_path)):
                if holds(before_path, self.clone.text(c.parent, before_path)):
                    return Verdict.FALSE, f"the message was already in `{before_path}`"
                return Verdict.TRUE, ""
        return Verdict.FALSE, "the message is in no changed file's code at the commit"

    def _section(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """A heading (Markdown `#`, or a reStructuredText title over its underline) with the
        title, in the file said or a changed one, at the commit and not before."""
        title = re.sub(r"\s+", " ", claim.name.split("…")[0]).strip()
        cut = "…" in claim.name

        def same(heading: str) -> bool:
            # a title is the heading's whole text ("Code of Conduct" is not the heading
            # "Contributor Covenant Code of Conduct"), or its start where the quote was cut
            return heading.startswith(title) if cut else heading == title

        def headed(path: str | None, rev: str | None) -> bool:
            lines = (self.clone.text(rev, path) or "").splitlines()
            markdown = (path or "").lower().endswith((".md", ".markdown"))
            fence: str | None = None
            for i, line in enumerate(lines):
                # a Markdown code block's lines are code (a shell's or Python's `# comment`),
                # never a heading: a fence opens it and a run of its character at least as
                # long, with nothing after it, closes it
                if markdown and (run := _FENCE.match(line)):
                    if fence is None:
                        fence = run.group(1)
                        continue
                    if run.group(1).startswith(fence) and not run.group(2).strip():
                        fence = None
                        continue
                if fence is not None:
                    continue
                under = lines[i + 1] if i + 1 < len(lines) else ""
                heading = line.lstrip().startswith("#") or bool(
                    re.fullmatch(r"([=\-~^*])\1+", under)
                )
                text = re.sub(r"\s+", " ", line.strip().strip("#").strip())
                # CommonMark renders `**Usage**` as the words "Usage", set in bold
                bold = re.fullmatch(r"(\*{1,3}|_{1,3})(.+)\1", text) if markdown else None
                if heading and (same(text) or (bold is not None and same(bold.group(2).strip()))):
                    return True
            return False

        pairs = [(o, n) for o, n in c.changed if claim.path in (None, n)]
        for before_path, after_path in pairs:
            if headed(after_path, c.sha):
                if headed(before_path, c.parent):
                    return Verdict.FALSE, f"the heading was already in `{before_path}`"
                return Verdict.TRUE, ""
        return Verdict.FALSE, "no changed file has that heading at the commit"

    def _table(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`T` gains the key / no longer has the key / gains / drops `"v"` [and N more]":
        the changed Python file that binds `T` to a table at both revisions (the one named,
        else the only one), of the kind the words say (a dict's keys, or values), holding
        `v` on the side the words say only; with "and N more", as many strings in all."""
        name, value = claim.name, claim.old or ""
        keys = claim.kind in (Kind.TABLE_KEY_NEW, Kind.TABLE_KEY_GONE)
        gained = claim.kind in (Kind.TABLE_KEY_NEW, Kind.TABLE_VALUE_NEW)
        paths = (
            [claim.path]
            if claim.path
            else [new for old, new in c.changed if old and new and language(new) == ".py"]
        )
        found: list[tuple[str, tuple[str, list[str]], tuple[str, list[str]]]] = []
        unread = False
        for path in paths:
            try:
                was = self._table_at(c.parent, c.old(path), name)
                now = self._table_at(c.sha, path, name)
            except Unreadable:
                unread = True
                continue
            if was is not None and now is not None:
                found.append((path, was, now))
        if not found:
            if unread:
                return Verdict.UNVERIFIABLE, f"`{name}` not found in the files that parse"
            return Verdict.FALSE, f"no changed file binds `{name}` to a table at both revisions"
        if len(found) > 1:
            return Verdict.UNVERIFIABLE, f"`{name}` is a table in {_places([f[0] for f in found])}"
        path, (kind_was, was_strings), (kind_now, now_strings) = found[0]
        want = "keys" if keys else "values"
        if kind_was != want or kind_now != want:
            return Verdict.FALSE, f"`{name}` in `{path}` holds no {want} at both revisions"
        has, lacks = (now_strings, was_strings) if gained else (was_strings, now_strings)
        side, other = ("commit", "parent") if gained else ("parent", "commit")
        if value not in has:
            return Verdict.FALSE, f'`{name}` has no "{value}" at the {side}'
        if value in lacks:
            return Verdict.FALSE, f'`{name}` has "{value}" at the {other} too'
        if claim.new is not None:
            count = len(set(has) - set(lacks))
            if str(count) != claim.new:
                return Verdict.FALSE, f"`{name}` changes {count} strings that way, not {claim.new}"
        return Verdict.TRUE, ""

    def _project(
        self, rev: str | None, folder: str, *, extras: bool = False
    ) -> tuple[list[Declared], bool] | None:
        """What a project folder's pyproject.toml and setup.cfg declare at the revision, and
        whether it has a `setup.py` (code: what it declares is not read, but for `extras`
        its `setup(…)` call's literal `extras_require`); None when a file there does not
        parse."""
        found = []
        names = []
        for name in ("pyproject.toml", "setup.cfg"):
            text = self.clone.text(rev, f"{folder}{name}")
            if text is None:
                continue
            meta = declared(name, text)
            if meta is None:
                return None
            found.append(meta)
            names.append(name)
        setup_py = self.clone.text(rev, f"{folder}setup.py")
        read = partial(_in_folder, self.clone, rev, folder)
        written = setup_py_extras(setup_py, read) if extras and setup_py is not None else None
        if written is not None:
            # setuptools: its keywords over setup.cfg's, under PEP 621's table
            found.insert(int("pyproject.toml" in names), Declared(written, None, None))
        return found, setup_py is not None and written is None

    def _dev_requirement(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "adds / removes the dev dependency `n` to / from `p`": `p` a `pyproject.toml` the
        commit changes, whose developers' tables (`package_meta.dev_names`) name `n` on the
        side the verb says and not on the other."""
        path = claim.path or ""
        if path not in c.after:
            return Verdict.FALSE, f"`{path}` is no file the commit changes"
        sides = []
        for rev, at in ((c.parent, c.old(path)), (c.sha, path)):
            text = self.clone.text(rev, at) if at else None
            names = dev_names(text) if text is not None else set()
            if names is None:
                return Verdict.UNVERIFIABLE, f"`{at}` does not parse"
            sides.append(names)
        before, after = sides
        name = normal_name(claim.name)
        gained = claim.kind is Kind.DEV_REQUIREMENT_NEW
        on, off = (after, before) if gained else (before, after)
        if name in on and name not in off:
            return Verdict.TRUE, ""
        return Verdict.FALSE, (
            f"`{claim.name}` is {'' if name in before else 'not '}a dev dependency at the "
            f"parent and {'' if name in after else 'not '}at the commit"
        )

    def _packaging(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "adds / removes the extra `e` (`r`)", "the command `c` (`m:f`)", "the `g` entry
        point `p` (`m`)": in a project folder whose packaging file the commit changes, one
        side declares it (with the requirements or target said) and the other side's files
        declare it nowhere. A side that leaves it to `setup.py` or `dynamic` is unverifiable."""
        gained = claim.kind in (Kind.EXTRA_NEW, Kind.COMMAND_NEW, Kind.ENTRY_POINT_NEW)
        extra = claim.kind in (Kind.EXTRA_NEW, Kind.EXTRA_GONE)
        groups = [claim.old or ""] if claim.old else list(COMMANDS)
        said = [squeezed(s) for s in (claim.new or "").split("\n") if s]

        def held(metas: list[Declared]) -> tuple[list[str] | None, bool]:
            """What the files hold for the claim's name (requirements or a target), and
            whether every file that could declare it does so statically."""
            sources = [m for m in metas if m.source]
            known = bool(sources)
            for meta in sources:
                if extra:
                    if meta.extras is None:
                        known = False
                    elif normal_extra(claim.name) in meta.extras:
                        return meta.extras[normal_extra(claim.name)], True
                elif meta.entry_points is None:
                    known = False
                else:
                    for group in groups:
                        target = meta.entry_points.get(group, {}).get(claim.name)
                        if target is not None:
                            return [target], True
            return None, known

        folders = {
            p.rsplit("/", 1)[0] + "/" if "/" in p else ""
            for pair in c.changed
            for p in pair
            if p
            and p.rsplit("/", 1)[-1] in ("pyproject.toml", "setup.cfg", *(("setup.py",) * extra))
        }
        unknown = False
        for folder in sorted(folders):
            at_commit = self._project(c.sha, folder, extras=extra)
            at_parent = self._project(c.parent, folder, extras=extra)
            if at_commit is None or at_parent is None:
                return Verdict.UNVERIFIABLE, f"a packaging file in `{folder or '.'}` does not parse"
            on, off = (at_commit, at_parent) if gained else (at_parent, at_commit)
            found, declares = held(on[0])
            if found is None:
                unknown = unknown or not declares or on[1]
                continue
            if any(s not in found for s in said):
                return (
                    Verdict.FALSE,
                    f"`{claim.name}` declares {', '.join(found)} in `{folder or '.'}`",
                )
            other, known = held(off[0])
            if other is not None:
                side = "the parent" if gained else "the commit"
                return Verdict.FALSE, f"`{claim.name}` is declared at {side} too"
            if not known or off[1]:
                return (
                    Verdict.UNVERIFIABLE,
                    "the other side may declare it in `setup.py` or as dynamic",
                )
            return Verdict.TRUE, ""
        side = "the commit" if gained else "the parent"
        if unknown:
            return (
                Verdict.UNVERIFIABLE,
                f"`{claim.name}` may be declared in `setup.py` or as dynamic",
            )
        return Verdict.FALSE, f"no changed project declares `{claim.name}` at {side}"

    def _extra_pin(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "The extra `e` now requires `p` (was `q`)" / "now also requires `p`" / "no longer
        requires `q`": in a project folder whose metadata file (pyproject.toml, setup.cfg,
        setup.py) the commit changes, the extra is declared at both revisions (the folder's
        files read together, `extra_pins.py`), `q` among its requirements at the parent and
        not at the commit, `p` at the commit and not before; a requirement gained or dropped
        names a package the other side's extra does not."""
        how = {
            Kind.EXTRA_PIN: "pinned",
            Kind.EXTRA_REQUIRES_NEW: "added",
            Kind.EXTRA_REQUIRES_GONE: "removed",
        }[claim.kind]
        unknown = False
        for folder in self._extra_folders(c):
            before, after = (self._folder_extras(rev, folder) for rev in (c.parent, c.sha))
            if before is None or after is None:
                unknown = True
                continue
            extra = normal_extra(claim.name)
            if extra not in before or extra not in after:
                continue
            holds, why = extra_judged(
                how, claim.name, claim.old, claim.new, before=before[extra], after=after[extra]
            )
            return (Verdict.TRUE, "") if holds else (Verdict.FALSE, why)
        if unknown:
            return Verdict.UNVERIFIABLE, "a packaging file does not parse or is not static"
        return Verdict.FALSE, f"no changed project declares the extra `{claim.name}` at both"

    def _extra_folders(self, c: _Commit) -> list[str]:
        """The project folders whose metadata file (pyproject.toml, setup.cfg, setup.py) the
        commit changes, or a requirements file (`.txt`, `.in`) beside a `setup.py`, which it
        may read (`get_reqs("requirements-cli.txt")`)."""
        paths = [p for pair in c.changed for p in pair if p]
        folders = {_folder(p) for p in paths if p.rsplit("/", 1)[-1] in _METADATA_NAMES}
        folders |= {
            _folder(p)
            for p in paths
            if p.endswith((".txt", ".in"))
            and any(self.clone.exists(rev, f"{_folder(p)}setup.py") for rev in (c.parent, c.sha))
        }
        return sorted(folders)

    def _folder_extras(self, rev: str | None, folder: str) -> dict[str, list[str]] | None:
        """The extras a project folder's files declare together at the revision
        (`extra_pins.project_extras`); None where not known."""
        texts = {n: self.clone.text(rev, f"{folder}{n}") for n in _METADATA_NAMES}
        read = partial(_in_folder, self.clone, rev, folder)
        return project_extras({n: t for n, t in texts.items() if t is not None}, read)

    def _extra_installs_gone(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`pip install p[e]` no longer installs `r`": in a project folder as for
        `_extra_pin`, the extra `e` at the parent requires `r` (PEP 503 names), and at the
        commit is declared no more or requires no `r`; the project's name, where its files
        write one, is `p`."""
        extra, wanted = normal_extra(claim.name), requirement_name(claim.old or "")
        unknown = False
        for folder in self._extra_folders(c):
            before, after = (self._folder_extras(rev, folder) for rev in (c.parent, c.sha))
            if before is None or after is None:
                unknown = True
                continue
            if extra not in before:
                continue
            named = self._project_names(c, folder)
            if named and normal_name(claim.new or "") not in named:
                return Verdict.FALSE, f"the project in `{folder or '.'}` is {sorted(named)}"
            if wanted not in {requirement_name(r) for r in before[extra]}:
                return Verdict.FALSE, f"the extra `{claim.name}` did not require `{claim.old}`"
            if extra in after and wanted in {requirement_name(r) for r in after[extra]}:
                return Verdict.FALSE, f"the extra `{claim.name}` still requires `{claim.old}`"
            return Verdict.TRUE, ""
        if unknown:
            return Verdict.UNVERIFIABLE, "a packaging file does not parse or is not static"
        return Verdict.FALSE, f"no changed project declared the extra `{claim.name}`"

    def _project_names(self, c: _Commit, folder: str) -> set[str]:
        """The distribution's names (PEP 503) a folder's pyproject.toml, setup.cfg or
        setup.py (its `setup(name="…")` literal) writes at either revision."""
        named: set[str] = set()
        for rev in (c.parent, c.sha):
            for file in ("pyproject.toml", "setup.cfg"):
                text = self.clone.text(rev, f"{folder}{file}")
                found = published_name(file, text) if text is not None else None
                if found:
                    named.add(normal_name(found))
            setup_py = self.clone.text(rev, f"{folder}setup.py")
            found = setup_py_name(setup_py) if setup_py is not None else None
            if found:
                named.add(normal_name(found))
        return named

    def _classes(self, rev: str | None, paths: Iterable[str]) -> dict[str, ast.ClassDef]:
        """The classes the Python files of `paths` define at `rev`, by name."""
        found: dict[str, ast.ClassDef] = {}
        for path in paths:
            if path.endswith(".py"):
                found |= classes(self.clone.text(rev, path))
        return found

    def _still_reads(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`p` still reads `N` (line L), which this commit removes": `p` is a changed Python
        file whose module bound `N` at the parent, binds it nowhere at the commit, and loads
        it at line L in scopes that all read it as the module's (`defect_check.py`)."""
        path = claim.path or ""
        if path not in c.after or not path.endswith(".py"):
            return Verdict.FALSE, f"`{path}` is no changed Python file at the commit"
        after, before = self.clone.text(c.sha, path), self.clone.text(c.parent, c.old(path))
        if after is None or before is None:
            return Verdict.UNVERIFIABLE, f"`{path}` is unreadable at a revision"
        if path.endswith("__init__.py"):
            # a submodule of the package is its attribute once anything imports it
            folder = path.rsplit("/", 1)[0] if "/" in path else ""
            prefix = f"{folder}/" if folder else ""
            for sub in (f"{prefix}{claim.name}.py", f"{prefix}{claim.name}"):
                if self.clone.exists(c.sha, sub):
                    return Verdict.FALSE, f"`{sub}` is a submodule named `{claim.name}`"
        try:
            why = still_reads(before, after, path, claim.name, int(claim.new or 0))
        except Unknowable as e:
            return Verdict.UNVERIFIABLE, str(e)
        return (Verdict.FALSE, why) if why else (Verdict.TRUE, "")

    def _setting_ignored(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "Setting `m.N` no longer has any effect: no shipped code reads it": `m`'s file
        bound `N` at its top level at the parent, where a function of it (or any shipped
        module, as `m.N`) read it when run; at the commit no Python file outside tests and
        docs that holds the word reads it when run (`setting_check.py`)."""
        name, module = claim.name, (claim.path or "").replace(".", "/")
        own = [
            p
            for root in ("", "src/", "lib/")
            for p in (f"{root}{module}.py", f"{root}{module}/__init__.py")
        ]
        home = next((p for p in own if self.clone.text(c.parent, p) is not None), None)
        if home is None:
            return Verdict.FALSE, f"no module `{claim.path}` at the parent"

        def reads(rev: str | None, path: str) -> list[int]:
            text = self.clone.text(rev, path)
            if text is None:
                return []
            try:
                return run_time_reads(text, name, own=path in own)
            except (SyntaxError, ValueError, RecursionError) as e:
                raise Unreadable(f"`{path}` does not parse: {e}") from None

        try:
            if not binds_at_top(self.clone.text(c.parent, home) or "", name):
                return Verdict.FALSE, f"`{home}` did not bind `{name}` at the parent"
        except (SyntaxError, ValueError, RecursionError):
            return Verdict.UNVERIFIABLE, f"`{home}` does not parse at the parent"
        shipped = [
            path
            for path in dict.fromkeys(p for p, _ in self.clone.grep(c.sha, name))
            if path.endswith(".py") and not _DOCS.search(path) and not _test_path(path)
        ]
        for path in shipped:
            if lines := reads(c.sha, path):
                return Verdict.FALSE, f"`{path}` still reads `{name}` (line {lines[0]})"
        if not reads(c.parent, home) and not any(
            reads(c.parent, p)
            for p in dict.fromkeys(p for p, _ in self.clone.grep(c.parent, name))
            if p.endswith(".py") and not _DOCS.search(p) and not _test_path(p) and p != home
        ):
            return Verdict.FALSE, f"no shipped code read `{name}` when run at the parent"
        return Verdict.TRUE, ""

    def _forwards(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` no longer takes `x` itself: it now passes it on to `c(...)`": a changed
        Python file defines `f` at both revisions with `**kwargs`; at the parent `f` popped
        `x` from them; at the commit `f` names `x` nowhere, never rebinds its `**kwargs` and
        passes them on to one call only, of `c` (`forward_check.py`)."""
        for path in c.after:
            if not path.endswith(".py"):
                continue
            after, before = self.clone.text(c.sha, path), self.clone.text(c.parent, c.old(path))
            if after is None or before is None:
                continue
            why = forwards(before, after, claim.name, claim.old or "", claim.new or "")
            if not why:
                return Verdict.TRUE, ""
        return Verdict.FALSE, f"no changed file proves `{claim.name}` forwards `{claim.old}`"

    def _sets_raising(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "[When `t` (by default `d`),] `f` now sets `a` to `g`, which raises `E` with “m”":
        a changed Python file proves it at both revisions (`handler_check.py`)."""
        exception, message, test, default = (claim.was or "").split(SETS_SEP)
        why = f"no changed file defines `{claim.name}`"
        for path in c.after:
            if not path.endswith(".py"):
                continue
            after, before = self.clone.text(c.sha, path), self.clone.text(c.parent, c.old(path))
            if after is None or before is None:
                continue
            why = sets_raising(
                before,
                after,
                claim.name,
                target=claim.old or "",
                closure=claim.new or "",
                raised=(exception, message),
                test=test or None,
                default=default or None,
            )
            if not why:
                return Verdict.TRUE, ""
        return Verdict.FALSE, why

    def _trees(self, c: _Commit, function: str) -> list[tuple[ast.Module, ast.Module | None]]:
        """The changed Python modules (no stub, no test) that define `function` at the
        commit, parsed at the commit and at the parent (None where the parent lacks it)."""
        found = []
        for path in c.after:
            if not path.endswith(".py") or _test_path(path):
                continue
            after = parse_python(self.clone.text(c.sha, path) or "")
            if after is None or find(after, function) is None:
                continue
            before_text = self.clone.text(c.parent, c.old(path)) if c.parent else None
            found.append((after, parse_python(before_text) if before_text else None))
        return found

    def _raises_reached(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now raises `E("m")`[, when `t`[ holds, as it does by default]]": at the
        commit a `raise E("m")` (`E` as written or by its last part; an f-string's
        placeholders as `{…}`) is in `f`'s own code or in a function it names, followed
        through the module, under `if t:` of `f` where said, `t` then a parameter whose
        default is `True`; at the parent no `raise` of the module gives `E("m")` (without a
        message: `f` reached no `raise E`)."""
        test, default = (claim.was or REACH_SEP).split(REACH_SEP)
        exception, message = claim.old or "", claim.new
        trees = self._trees(c, claim.name)
        if not trees:
            return Verdict.FALSE, f"no changed Python module defines `{claim.name}`"
        why = ""
        for after, before in trees:
            try:
                raises = [
                    r
                    for r in reached(after, claim.name, test or None)
                    if same_class(r.exception, exception) and (not test or r.gated)
                ]
                if not any(message is None or r.message == message for r in raises):
                    if any(not r.literal for r in raises):
                        return Verdict.UNVERIFIABLE, f"a `raise {exception}` gives no literal"
                    why = f"`{claim.name}` reaches no `raise {exception}` with that message"
                    continue
                if default:
                    given = default_of(after, claim.name, test)
                    if not (isinstance(given, ast.Constant) and given.value is True):
                        why = f"`{test}` is no parameter of `{claim.name}` defaulting to `True`"
                        continue
                if before is None:
                    return Verdict.TRUE, ""
                if message is None:
                    if any(same_class(r.exception, exception) for r in reached(before, claim.name)):
                        why = f"`{claim.name}` reached `raise {exception}` at the parent"
                        continue
                elif module_raises(before, exception, message):
                    why = f"the module raised `{exception}` with that message at the parent"
                    continue
            except Unfollowed as exc:
                return Verdict.UNVERIFIABLE, str(exc)
            return Verdict.TRUE, ""
        return Verdict.FALSE, why

    def _raises_retyped(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now raises `N` (was `O`)[ from `h`][, when `t`]": the raises of the
        functions `f` assigns to the hook `h` (or of the function `h`; without `h`, those
        `f` reaches) give `O` and not `N` at the parent, `N` and not `O` at the commit; with
        `t`, `f`'s own code tests `if t:` at the commit."""
        holder, test = (claim.was or REACH_SEP).split(REACH_SEP)
        new, old = claim.new or "", claim.old or ""
        why = f"no changed Python module defines `{claim.name}` at both revisions"
        for after, before in self._trees(c, claim.name):
            if before is None or find(before, claim.name) is None:
                continue
            try:
                sides = [self._raised_by(tree, claim.name, holder) for tree in (before, after)]
            except Unfollowed as exc:
                return Verdict.UNVERIFIABLE, str(exc)
            was = [any(same_class(r, x) for r in sides[0]) for x in (old, new)]
            now = [any(same_class(r, x) for r in sides[1]) for x in (old, new)]
            if was != [True, False] or now != [False, True]:
                why = f"raised: {sorted(set(sides[0]))} at the parent, {sorted(set(sides[1]))}"
                continue
            function = find(after, claim.name)
            if test and not any(
                isinstance(n, ast.If) and re.sub(r"\s+", "", ast.unparse(n.test)) == test
                for n in ast.walk(function or ast.Module(body=[], type_ignores=[]))
            ):
                why = f"`{claim.name}` does not test `{test}` at the commit"
                continue
            return Verdict.TRUE, ""
        return Verdict.FALSE, why

    def _raiser(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`h` raises it" / "The hooks it sets raise it (`h`)", said after "`f` now raises
        `E("m")`": at the commit, in the changed module defining `f`, the function `h` (`f`
        reaching it) or what `f` assigns to the hook `h` reaches a `raise E("m")`."""
        exception, message = (claim.was or REACH_SEP).split(REACH_SEP)
        hook = claim.kind is Kind.HOOK_RAISES
        holder = claim.old or ""
        trees = self._trees(c, claim.name)
        if not trees:
            return Verdict.FALSE, f"no changed Python module defines `{claim.name}`"
        why = ""
        for after, _ in trees:
            try:
                if hook:
                    raises = reached(after, claim.name, hook=holder)
                else:
                    if find(after, holder) is None:
                        why = f"`{holder}` is not defined beside `{claim.name}`"
                        continue
                    raises = reached(after, holder)
            except Unfollowed as exc:
                return Verdict.UNVERIFIABLE, str(exc)
            if any(
                same_class(r.exception, exception) and (not message or r.message == message)
                for r in raises
            ):
                return Verdict.TRUE, ""
            if any(same_class(r.exception, exception) and not r.literal for r in raises):
                return Verdict.UNVERIFIABLE, f"a `raise {exception}` gives no literal"
            why = f"`{holder}` reaches no `raise {exception}` with that message"
        return Verdict.FALSE, why

    def _hook_quiet(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "At the parent `h` raised nothing": at the parent, `f` assigns the hook `h` and
        nothing it assigns there reaches a `raise`."""
        for _, before in self._trees(c, claim.name):
            if before is None or find(before, claim.name) is None:
                continue
            try:
                if not hook_holders(before, claim.name, claim.old or ""):
                    return Verdict.FALSE, f"`{claim.name}` did not set `{claim.old}`"
                raises = reached(before, claim.name, hook=claim.old)
            except Unfollowed as exc:
                return Verdict.UNVERIFIABLE, str(exc)
            if raises:
                return Verdict.FALSE, f"`{claim.old}` reached `raise {raises[0].exception}`"
            return Verdict.TRUE, ""
        return Verdict.FALSE, f"no changed module defines `{claim.name}` at both revisions"

    def _raised_by(self, tree: ast.Module, function: str, holder: str) -> list[str]:
        if not holder:
            return [r.exception for r in reached(tree, function)]
        held = hook_holders(tree, function, holder)
        if not held and find(tree, holder) is not None:
            return [r.exception for r in reached(tree, holder)]
        return [name for node in held for name in own_raises(node)]

    def _not_subclass(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`N` is no subclass of `O`": both resolved in the changed module defining `f` at
        the commit (a class of the module by its bases, a builtin it does not shadow, an
        exception class of the standard library it imports, imported by the checker): `N`
        does not derive from `O`."""
        trees = self._trees(c, claim.name)
        if len(trees) != 1:
            return Verdict.UNVERIFIABLE, f"{len(trees)} changed modules define `{claim.name}`"
        try:
            derived = subclasses(trees[0][0], claim.new or "", claim.old or "")
        except Unfollowed as exc:
            return Verdict.UNVERIFIABLE, str(exc)
        if derived:
            return Verdict.FALSE, f"`{claim.new}` derives from `{claim.old}`"
        return Verdict.TRUE, ""

    def _module_files(self, rev: str | None, module: str) -> list[str]:
        stem = module.replace(".", "/")
        return [
            f
            for root in ("", "src/", "lib/", "python/")
            for f in (f"{root}{stem}.py", f"{root}{stem}/__init__.py")
            if self.clone.show(rev, f) is not None
        ]

    def _metadata_gone(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "Reading `m.x` now raises `AttributeError`": the module `m` (`m.py` or
        `m/__init__.py`) binds `x` at its top level at the parent, and at the commit is still
        a module that binds it nowhere (a `from … import *` or a module `__getattr__`:
        unverifiable)."""
        module, _, name = claim.name.rpartition(".")
        sides = []
        for rev in (c.parent, c.sha):
            files = self._module_files(rev, module)
            if len(files) != 1:
                return Verdict.FALSE, f"{len(files)} files are the module `{module}` at {rev}"
            tree = parse_python(self.clone.text(rev, files[0]) or "")
            names = top_names(tree) if tree is not None else None
            if names is None:
                return Verdict.UNVERIFIABLE, f"`{files[0]}` may bind names unread"
            sides.append(name in names)
        if sides != [True, False]:
            return Verdict.FALSE, f"`{name}` bound at the parent, at the commit: {sides}"
        return Verdict.TRUE, ""

    def _shipped_modules(self, rev: str | None) -> set[str] | None:
        """The top-level modules the project's metadata names at `rev` (`py_modules` of
        `setup.py` / `setup.cfg`, `py-modules` of `pyproject.toml`); None where none."""
        modules: set[str] = set()
        for path in ("setup.py", "pyproject.toml", "setup.cfg"):
            text = self.clone.text(rev, path) or ""
            for listed in re.findall(r"py[_-]modules\s*=\s*\[([^\]]*)\]", text):
                modules |= set(re.findall(r"[\"']([\w.]+)[\"']", listed))
        return modules or None

    def _no_name_removed(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "the code removes no public name from the modules it ships": each changed
        Python file the wheel ships (a top-level module the metadata lists in
        `py_modules`, or a file of an import package outside tests) binds at the commit each
        public name it bound at the parent (`__all__` where it has one, else its own
        top-level names not starting with `_`; an import is not its own name)."""
        listed = self._shipped_modules(c.parent)
        for path in c.before:
            if not path.endswith(".py") or _test_path(path):
                continue
            folder, _, file = path.rpartition("/")
            if not folder:
                if listed is None:
                    return Verdict.UNVERIFIABLE, f"no metadata says whether `{path}` ships"
                if file.removesuffix(".py") not in listed:
                    continue
            elif self.clone.show(c.parent, f"{folder}/__init__.py") is None:
                continue
            lost = self._public_lost(c, path)
            if lost is None:
                return Verdict.UNVERIFIABLE, f"`{path}` may bind names unread"
            if lost:
                return Verdict.FALSE, f"`{path}` no longer binds {sorted(lost)}"
        return Verdict.TRUE, ""

    def _public_lost(self, c: _Commit, path: str) -> set[str] | None:
        before = parse_python(self.clone.text(c.parent, path) or "")
        new = c.new(path)
        after = parse_python(self.clone.text(c.sha, new) or "") if new else ast.Module([], [])
        if before is None or after is None:
            return None
        names = [top_names(before), top_names(after)]
        if names[0] is None or names[1] is None:
            return None
        public = _own_public(before, names[0])
        return public - names[1]

    def _python_kept(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "the Python requirement is unchanged (`v`)": the `requires-python` /
        `python_requires` of the root's `pyproject.toml`, `setup.cfg`, `setup.py` is `v`
        and nothing else at both revisions."""
        for rev in (c.parent, c.sha):
            said = {
                value.replace(" ", "")
                for path in ("pyproject.toml", "setup.cfg", "setup.py")
                for value in _python_supports(self.clone.text(rev, path) or "", path)
            }
            if said != {claim.name.replace(" ", "")}:
                return Verdict.FALSE, f"the Python requirement is {sorted(said)} at {rev}"
        return Verdict.TRUE, ""

    def _tests_rewrite(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "Its tests now write `B` where they wrote `A` (`p`), and N more alike": `p` is a
        file the commit changes; `B` is `A` with one piece inserted; a line of `p` at the
        parent that the commit no longer has holds `A`, and the commit has it anew with `B`
        in its place; and at least N+1 such lines take the same piece (`rewrite_check.py`)."""
        path = claim.path or ""
        if path not in c.after:
            return Verdict.FALSE, f"`{path}` is no file the commit changes"
        after, before = self.clone.text(c.sha, path), self.clone.text(c.parent, c.old(path))
        if after is None or before is None:
            return Verdict.UNVERIFIABLE, f"`{path}` is unreadable at a revision"
        old, new = claim.old or "", claim.new or ""
        if insertion(old, new) is None:
            return Verdict.FALSE, f"`{new}` is not `{old}` with one piece inserted"
        if not rewritten_alike(before, after, old, new):
            return Verdict.FALSE, f"no line of `{path}` has `{old}` rewritten to `{new}`"
        alike = alike_anywhere(before, after, old, new)
        if alike < int(claim.was or 0) + 1:
            return Verdict.FALSE, f"only {alike} lines of `{path}` are rewritten alike"
        return Verdict.TRUE, ""

    def _still_imports(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`p` still imports `N` from `s` (line L), which this commit removes": `p` and `s`
        are Python files at the commit; line L of `p` imports `N` from the module of `s`,
        which bound `N` at the parent and binds it nowhere at the commit
        (`defect_check.py`)."""
        path, source = claim.path or "", claim.old or ""
        if source not in c.after or not source.endswith(".py"):
            return Verdict.FALSE, f"`{source}` is no changed Python file at the commit"
        text = self.clone.text(c.sha, path)
        after, before = self.clone.text(c.sha, source), self.clone.text(c.parent, c.old(source))
        if text is None or after is None or before is None:
            return Verdict.UNVERIFIABLE, "a file is unreadable at a revision"
        try:
            why = still_imports(
                path,
                text,
                line=int(claim.new or 0),
                name=claim.name,
                source=source,
                before=before,
                after=after,
            )
        except Unknowable as e:
            return Verdict.UNVERIFIABLE, str(e)
        return (Verdict.FALSE, why) if why else (Verdict.TRUE, "")

    def _call_short(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` calls `g` without its required `a`" / "`f` passes `g` the keyword `k`, which
        it does not take": a changed Python file at the commit whose `f` calls `g` (of the
        module, or of `f`'s class through `self`) so that Python's binder leaves `a` unbound,
        or `g` takes no `k` (`defect_check.py`)."""
        unknown = claim.kind is Kind.CALL_UNKNOWN
        reasons = []
        for path in c.after:
            text = self.clone.text(c.sha, path) if path.endswith(".py") else None
            if text is None:
                continue
            try:
                why = calls_without(
                    text,
                    path,
                    claim.name,
                    claim.old or "",
                    parameter=None if unknown else claim.new,
                    keyword=claim.new if unknown else None,
                )
            except Unknowable as e:
                return Verdict.UNVERIFIABLE, str(e)
            if why is None:
                return Verdict.TRUE, ""
            reasons.append(why)
        return Verdict.FALSE, "; ".join(reasons[:2]) or "no changed Python file"

    def _abstract(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`C` gains the abstract `m`": a changed Python file's class `C` has `m` decorated
        `@abstractmethod` at the commit; the parent had `C`, without an abstract `m`."""
        owner, _, method = claim.name.rpartition(".")
        after = self._classes(c.sha, c.after).get(owner)
        before = self._classes(c.parent, c.before).get(owner)
        why = gains_abstract(after, before, method)
        return (Verdict.FALSE, why) if why else (Verdict.TRUE, "")

    def _raises_past(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now raises `E` if `a and not b` …, where it returned `r`": at the parent an
        own `if a:` of `f` ends in `return r`, at the commit an own `if a and b:` does and
        none of `a` alone returns, and `f`'s own code raises `E` at both revisions (a raise
        it already had, now reached where `b` is false). Tests and values are
        compared as `ast.unparse` writes them, spaces folded."""
        function, exception = _normal(claim.name), claim.old or ""
        try:
            said = ast.parse(claim.new or "", mode="eval").body
        except SyntaxError:
            return Verdict.UNVERIFIABLE, f"`{claim.new}` does not parse"
        if (
            not isinstance(said, ast.BoolOp)
            or not isinstance(said.op, ast.And)
            or not isinstance(said.values[-1], ast.UnaryOp)
            or not isinstance(said.values[-1].op, ast.Not)
        ):
            return Verdict.UNVERIFIABLE, f"`{claim.new}` is no `a and not b`"
        kept = said.values[:-1]
        old = ast.unparse(kept[0] if len(kept) == 1 else ast.BoolOp(ast.And(), kept))
        new = f"{old} and {ast.unparse(said.values[-1].operand)}"
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies

        def returns(body: Body, test: str) -> bool:
            return (_folded(test), "return") in {(_folded(t), how) for t, how in body.guards}

        was = _folded(claim.was or "")
        for body, test, side in ((bodies.before, old, "parent"), (bodies.after, new, "commit")):
            if (_folded(test), was) not in {
                (_folded(t), _folded(v)) for t, v in body.ends_returning
            }:
                return (
                    Verdict.FALSE,
                    f"no `if {test}:` of `{function}` ends in `return {claim.was}` at the {side}",
                )
            if exception not in body.raises and exception not in {_last(r) for r in body.raises}:
                return Verdict.FALSE, f"`{function}` raises no `{exception}` at the {side}"
        if returns(bodies.after, old):
            return Verdict.FALSE, f"`{function}` still returns when `{old}` alone"
        return Verdict.TRUE, ""

    def _returns_when(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`f` now returns `v` when `t`, where it returned `l`": at the commit an own `if t:`
        of `f` ends in `return v` (its other statements never leave), `t` no test of `f` at
        the parent, and `f` returns `l` at both revisions (tests and values compared as
        `ast.unparse` writes them, spaces folded)."""
        function, value, test = _normal(claim.name), claim.old or "", claim.new or ""
        bodies = self._both_bodies(c, claim)
        if not isinstance(bodies, _Bodies):
            return bodies
        if _folded(test) in {_folded(t) for t in bodies.before.conditions}:
            return Verdict.FALSE, f"`{function}` tested `{test}` at the parent already"
        if (_folded(test), _folded(value)) not in {
            (_folded(t), _folded(v)) for t, v in bodies.after.returns_when
        }:
            return Verdict.FALSE, f"no `if {test}:` of `{function}` ends in `return {value}`"
        if claim.was is not None:
            last = _folded(claim.was)
            for body, side in ((bodies.before, "parent"), (bodies.after, "commit")):
                if last not in {_folded(g) for g in body.gives}:
                    return Verdict.FALSE, f"`{function}` returns no `{claim.was}` at the {side}"
        return Verdict.TRUE, ""

    def _field(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`C` gains the field `f` (default `d`)": a changed Python file's class `C`
        annotates `f` at the commit, with that default where said; the parent had `C`
        without it (`class_check.gains_field`)."""
        owner, _, name = claim.name.rpartition(".")
        after = self._classes(c.sha, c.after).get(owner)
        before = self._classes(c.parent, c.before).get(owner)
        why = gains_field(after, before, name, claim.new)
        return (Verdict.FALSE, why) if why else (Verdict.TRUE, "")

    def _overrides(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`S` now overrides `m` of `B`": a changed Python file's class `S` defines `m` at
        the commit and did not at the parent; `B` is a base class of `S` (by name, through
        the changed files' classes) that defined `m` at the parent already."""
        owner, _, method = claim.name.rpartition(".")
        base = claim.old or ""
        now, was = self._classes(c.sha, c.after), self._classes(c.parent, c.before)
        if own_method(now.get(owner), method) is None:
            return Verdict.FALSE, f"`{owner}` defines no `{method}` at the commit"
        if own_method(was.get(owner), method) is not None:
            return Verdict.FALSE, f"`{owner}` defined `{method}` at the parent already"
        if base not in bases_of(now[owner], now):
            return Verdict.FALSE, f"`{base}` is no base class of `{owner}` in the changed files"
        if base not in was:
            return Verdict.UNVERIFIABLE, f"`{base}` is in no changed file at the parent"
        if own_method(was[base], method) is None:
            return Verdict.FALSE, f"`{base}` had no `{method}` at the parent"
        return Verdict.TRUE, ""

    def _release_note(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "`P` lists N new items: “a” (H)": `P` changed, its list items at the commit that
        the parent's do not have are N, and one of them holds the words quoted, under a
        heading of words H."""
        path = claim.path or ""
        if path not in c.after:
            return Verdict.FALSE, f"`{path}` is no changed file"
        after = self.clone.text(c.sha, path)
        before = self.clone.text(c.parent, c.old(path)) or ""
        if after is None:
            return Verdict.UNVERIFIABLE, f"`{path}` is not text"
        added = new_items(before, after, markdown=path.lower().endswith((".md", ".markdown")))
        if claim.new is not None and len(added) != int(claim.new):
            return Verdict.FALSE, f"`{path}` gains {len(added)} items, not {claim.new}"
        heading = rendered_words(claim.old or "")
        if not any(holds(i, claim.name) and (not heading or i.heading == heading) for i in added):
            return Verdict.FALSE, f"no new item of `{path}` says that under that heading"
        return Verdict.TRUE, ""

    def _backend(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "changes the build backend from `a` to `b`": a changed pyproject.toml's
        `[build-system] build-backend` is `a` at the parent and `b` at the commit."""
        for before_path, after_path in c.changed:
            if not (after_path or "").endswith("pyproject.toml") or before_path is None:
                continue
            new = declared(after_path or "", self.clone.text(c.sha, after_path) or "")
            old = declared(before_path, self.clone.text(c.parent, before_path) or "")
            if new and old and (old.backend, new.backend) == (claim.old, claim.new):
                return Verdict.TRUE, ""
        return Verdict.FALSE, f"no changed pyproject.toml goes from `{claim.old}` to `{claim.new}`"

    def _advisory(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "a security advisory's fix (merged from its private fork)": the commit has the
        title GitHub gives the merge of an advisory's temporary private fork, "Merge commit
        from fork", its message's whole first line; it merges (two parents or more), or is
        that merge squashed (one parent) and changes a code file outside tests and docs."""
        parents, title = self.clone.header(c.sha)
        if title != "Merge commit from fork":
            return Verdict.FALSE, f"its title is “{title}”, not GitHub's for an advisory's merge"
        if parents < 2 and not any(_shipped_code(path) for path in c.after):
            return Verdict.FALSE, "one parent, and no code outside tests and docs changed"
        return Verdict.TRUE, ""

    def _build_needs(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "building from the sdist now needs `x`, `y` (was `a`)": a changed pyproject.toml
        whose `[build-system] requires` (what PEP 517 front ends install to build it) names
        exactly `x`, `y` at the commit and `a` at the parent, as PEP 503 compares names."""
        said_new, said_old = (
            {requirement_name(n) for n in (said or "").splitlines()}
            for said in (claim.new, claim.old)
        )
        for before_path, after_path in c.changed:
            if not (after_path or "").endswith("pyproject.toml") or before_path is None:
                continue
            now = _build_requires(self.clone.text(c.sha, after_path) or "")
            was = _build_requires(self.clone.text(c.parent, before_path) or "")
            if (was, now) == (said_old, said_new):
                return Verdict.TRUE, ""
        return Verdict.FALSE, "no changed pyproject.toml's `[build-system] requires` says that"

    def _grouped(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "moves the extra `e` to the dependency group of its name": a changed
        pyproject.toml lists `e` among its extras at the parent, not at the commit, and
        among its dependency groups at the commit."""
        extra = normal_extra(claim.name)
        for before_path, after_path in c.changed:
            if not (after_path or "").endswith("pyproject.toml") or before_path is None:
                continue
            now = extras_and_groups(self.clone.text(c.sha, after_path) or "")
            was = extras_and_groups(self.clone.text(c.parent, before_path) or "")
            if now and was and extra in was[0] and extra not in now[0] and extra in now[1]:
                return Verdict.TRUE, ""
        return Verdict.FALSE, f"no changed pyproject.toml makes the extra `{claim.name}` a group"

    def _published(self, c: _Commit, claim: Claim) -> tuple[Verdict, str]:
        """ "publishes the package as `b` (was `a`)": a changed pyproject.toml or setup.cfg
        declares the distribution's name `a` at the parent and `b` at the commit."""
        for before_path, after_path in c.changed:
            name = (after_path or "").rsplit("/", 1)[-1]
            if name not in ("pyproject.toml", "setup.cfg") or before_path is None:
                continue
            now = published_name(name, self.clone.text(c.sha, after_path) or "")
            was = published_name(name, self.clone.text(c.parent, before_path) or "")
            if (was, now) == (claim.old, claim.name):
                return Verdict.TRUE, ""
        return Verdict.FALSE, f"no changed metadata file goes from `{claim.old}` to `{claim.name}`"

    def _table_at(self, rev: str | None, path: str, name: str) -> tuple[str, list[str]] | None:
        text = self.clone.show(rev, path)
        if text is None:
            return None
        if language(path) != ".py":
            raise Unreadable(f"no rules for tables in `{path}`")
        return python_table(text, name)


# A Markdown code fence: its opening run (three or more backquotes or tildes, indented three
# spaces at most) and what follows it.
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def _code_of(path: str, text: str) -> str:
    """A definition's code to compare: Python's tree without docstrings (a comment or a
    docstring reworded is no edit), elsewhere the text with spaces folded."""
    if language(path) != ".py":
        return " ".join(text.split())
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError, RecursionError):
        return " ".join(text.split())
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and isinstance(body, list)
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _python_supports(text: str, path: str | None = None) -> list[str]:
    """The Python versions a metadata file says it supports, each as written: the literal
    of `requires-python`/`python_requires`, or, for `python_requires=NAME`, the string
    literal the module binds that name to, where it binds it once (`NAME = ">=3.5"`). A
    `setup.cfg` (`path`) by setuptools' rule: only its `[options]` section's key counts."""
    if path is not None and path.rsplit("/", 1)[-1] == "setup.cfg":
        return _cfg_options_python(text)
    values = []
    for m in _PYTHON_SUPPORT.finditer(text):
        value = m.group(1).strip().strip("\"',")
        if value.isidentifier():
            bound = re.findall(rf"(?m)^{re.escape(value)}\s*[-+|]?=\s*(.*)$", text)
            literal = (
                re.fullmatch(r"(\"|')([^\"'\\]*)\1\s*(?:#.*)?", bound[0].strip())
                if len(bound) == 1
                else None
            )
            value = literal.group(2).strip() if literal else value
        values.append(value)
    return values


def _cfg_options_python(text: str) -> list[str]:
    """`python_requires` of a `setup.cfg`'s `[options]`: setuptools' declarative config reads
    it there and nowhere else (a `[metadata]` one is ignored: Pylons/venusian 47d374a,
    https://github.com/Pylons/venusian/commit/47d374a0cd957824b7c592b0adc23bd057e689be)."""
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    if not parser.has_section("options"):
        return []
    found = [parser.get("options", k, fallback="") for k in ("python_requires", "python-requires")]
    return [v.strip() for v in found if v.strip()][:1]


def _test_path(path: str) -> bool:
    """A file of tests: under a `tests`/`test` folder, or named `test_*.py`, `*_test.py`,
    `conftest.py`."""
    *folders, file = path.split("/")
    return (
        bool({"tests", "test", "testing"} & set(folders))
        or file.startswith("test_")
        or file.endswith("_test.py")
        or file == "conftest.py"
    )


def _own_public(tree: ast.Module, names: set[str]) -> set[str]:
    """A module's public names: its `__all__` where a list or tuple literal, else the names
    its top level binds otherwise than by an import and that do not start with `_`."""
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
        ):
            return {
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }
    imported = {
        a.asname or a.name.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    return {n for n in names - imported if not n.startswith("_")}


def _poetry_pins(text: str) -> set[str]:
    """Poetry's requirements as one would write them as pins (`python>=3.9`,
    `blinker>=1.6`): its `[tool.poetry.dependencies]` table, read with TOML's own rules,
    each name as written and lowercased, each version a string or a table's `version`."""
    try:
        table = tomllib.loads(text).get("tool", {}).get("poetry", {}).get("dependencies", {})
    except (tomllib.TOMLDecodeError, AttributeError):
        return set()
    pins = set()
    for name, value in table.items() if isinstance(table, dict) else ():
        version = value.get("version") if isinstance(value, dict) else value
        if isinstance(version, str) and version[:1] in "<>=!~^":
            pins.add(f"{name.lower()}{version.replace(' ', '')}")
    return pins


# The files a Python package's metadata is written in.
_METADATA_NAMES = ("setup.py", "setup.cfg", "pyproject.toml")


def _folder(path: str) -> str:
    """The folder of a path, as the project folders are written (`pkg/`, `` for the root)."""
    return path.rsplit("/", 1)[0] + "/" if "/" in path else ""


def _in_folder(clone: Clone, rev: str | None, folder: str, path: str) -> str | None:
    """A file of a project folder at a revision, by its path there (`requirements-cli.txt`)."""
    return clone.text(rev, posixpath.normpath(f"{folder}{path}"))


_REQUIREMENT_NAME = re.compile(r"[a-z0-9][\w.-]*")


def _extra_only(pin: str, path: str, text: str) -> str | None:
    """The extra whose requirements write the pin, where the `pyproject.toml` or `setup.cfg`
    at `path` lists it under an extra and none of what every install or build needs names its
    package (PEP 503's names): an optional extra's requirement, not the package's."""
    if path.rsplit("/", 1)[-1] not in ("pyproject.toml", "setup.cfg"):
        return None
    meta, needs = declared(path, text), needed(path, text)
    if meta is None or meta.extras is None or needs is None:
        return None

    def name(requirement: str) -> str:
        found = _REQUIREMENT_NAME.match(requirement.lower())
        return re.sub(r"[-_.]+", "-", found.group(0)) if found else ""

    if name(pin) in {name(n) for n in needs}:
        return None
    return next(
        (
            extra
            for extra, reqs in meta.extras.items()
            if any(_pinned(pin, r.lower()) for r in reqs)
        ),
        None,
    )


def _requirement_lines(text: str) -> list[tuple[str, str, str]]:
    """(PEP 503 name, specifier, PEP 508 marker or "") of each line of a file that is one
    requirement as packaging reads it (a requirements file's line, a quoted list item's)."""
    out: list[tuple[str, str, str]] = []
    for line in text.splitlines():
        item = line.split(" #", 1)[0].strip().rstrip(",").strip()
        if len(item) > 1 and item[0] == item[-1] and item[0] in "\"'":
            item = item[1:-1]
        try:
            req = PackagingRequirement(item)
        except InvalidRequirement:
            continue
        marker = str(req.marker) if req.marker is not None else ""
        out.append((canonicalize_name(req.name), str(req.specifier), marker))
    return out


def _was_unpaired(pin: str, was: str, before: str | None, after: str | None) -> str | None:
    """Why "requires `pin` (was `was`)" misreads the old pin, or None where it holds or the
    files do not say: a name written once per environment (PEP 508 markers) is compared with
    the parent's line for the same marker only (jmespath 2db39af: `pytest==6.2.5` for every
    Python was `==6.2.5` for Python >= 3.6 and `<5.0` for Python < 3.6 before: no "was
    `<5.0`")."""
    try:
        req = PackagingRequirement(pin)
        old = str(SpecifierSet(was))
    except (InvalidRequirement, InvalidSpecifier):
        return None
    name, spec = canonicalize_name(req.name), str(req.specifier)
    markers = {m for n, s, m in _requirement_lines(after or "") if n == name and s == spec}
    had = [(s, m) for n, s, m in _requirement_lines(before or "") if n == name]
    if not markers or not had:
        return None
    for marker in markers:
        same = [s for s, m in had if m == marker]
        if same == [old]:
            return None
    paired = [s for s, m in had if m in markers]
    if paired:
        return f"the parent pinned `{req.name}{paired[0]}` for the same installs, not `{was}`"
    return (
        f"the parent pinned `{req.name}` only under other markers: no `{was}` of the same installs"
    )


def _pinned(pin: str, text: str) -> bool:
    """Whether the text writes the pin (spaces aside) as a whole requirement: neither the
    name nor the version runs on (`uvloop>=0.21` is not `uvloop >= 0.21.0b1`, PEP 440's
    versions being letters, digits and `.*+!-_`), nor does its specifier (`trio>=0.9` is
    not `trio>=0.9,<0.10`)."""
    spaced = r"\s*".join(re.escape(ch) for ch in pin)
    ends = r"(?![\w.*+!-]|\s*,\s*[<>=!~])"
    return re.search(rf"(?<![\w.-]){spaced}{ends}", text) is not None


def _param_of(name: str) -> str:
    """The parameter of a claim's `f(p)` name."""
    inner = re.search(r"\(([^()]*)\)$", name)
    return inner.group(1).strip().lstrip("*") if inner else ""


def _python_value(text: str) -> str:
    """A value as Python parses it (`'a'` and `"a"` are one); the text itself where Python
    reads no expression."""
    try:
        return ast.dump(ast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return text


def _folded(text: str) -> str:
    return " ".join(text.split())


def _a_test_file(path: str) -> bool:
    """pytest's own rule: `test_*.py` or `*_test.py`, or a file under a `tests` folder."""
    name = path.rsplit("/", 1)[-1]
    return name.startswith("test_") or name.endswith("_test.py") or "tests/" in f"/{path}"


@dataclass(frozen=True)
class _Bodies:
    before: Body
    after: Body


def _one_side(
    name: str, side: set[str], other: set[str], missing: str, already: str
) -> tuple[Verdict, str]:
    """True where `name` is among `side`'s names and not `other`'s; else false, and why."""
    if not _named_in(name, side):
        return Verdict.FALSE, missing
    if _named_in(name, other):
        return Verdict.FALSE, already
    return Verdict.TRUE, ""


def _reraised_only(bodies: _Bodies, exception: str) -> bool:
    """Whether every own raise of `exception` at the commit sits in an `except` naming it,
    a handler the parent did not have: what the parent's code let through."""
    return (
        _named_in(exception, bodies.after.reraises)
        and not _named_in(exception, bodies.after.raises_anew)
        and not _named_in(exception, bodies.before.caught)
    )


def _folded_message(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _quoted_as(said: str, text: str) -> bool:
    """Whether a quotation is the text, or its start where cut with "…"."""
    if said.endswith("…"):
        return text.startswith(said[:-1].rstrip())
    return said == text


def _messages_of(body: Body, exception: str) -> set[str]:
    """The messages (spaces folded) the function's own raises of `exception` give."""
    return {
        _folded_message(m)
        for kind, m in body.raised
        if kind == exception or kind.rsplit(".", 1)[-1] == exception
    }


def _named_in(name: str, written: set[str]) -> bool:
    """Whether a name a sentence gives (`TimeoutError`, `helper`) is among names as the code
    writes them (`asyncio.TimeoutError`, `self.helper`): whole, or by its last part."""
    last = name.rsplit(".", 1)[-1]
    return any(w == name or w.rsplit(".", 1)[-1] == last for w in written)


# Builtin exceptions that derive from BaseException and not from Exception: `except
# Exception` does not take them in.
_BASE_ONLY = {"BaseException", "KeyboardInterrupt", "SystemExit", "GeneratorExit"}


def _covers(caught: str, exception: str) -> bool:
    """Whether `except caught:` takes `exception` in (Python's rules; "" is a bare
    `except:`); a class of the project's own may derive from anything, so only the builtin
    hierarchy and `Exception` (for a name not builtin) are known."""
    if caught in ("", "BaseException"):
        return True
    name = exception.rsplit(".", 1)[-1]
    base = getattr(builtins, caught, None)
    known = getattr(builtins, name, None)
    if isinstance(base, type) and isinstance(known, type):
        return issubclass(known, base)
    return caught == "Exception" and name not in _BASE_ONLY


def _surface_diff(before: Counter[tuple[str, str]], after: Counter[tuple[str, str]]) -> str:
    gone = sorted((before - after).keys())
    new = sorted((after - before).keys())
    if gone:
        return f"`{gone[0][0]}` is bound differently or no more at the commit"
    return f"`{new[0][0]}` is new or bound differently at the commit"


def _places(paths: list[str]) -> str:
    if len(paths) == 1:
        return f"`{paths[0]}`"
    return f"the {len(paths)} changed files"


_PRE_COMMIT_FILE = re.compile(r"(?:^|/)\.pre-commit-config\.ya?ml$")
_WORKFLOW_FILE = re.compile(r"(?:^|/)(?:\.github/.*\.ya?ml|action\.ya?ml)$")
_SHA = re.compile(r"[0-9a-f]{40}")


def _hook_revs(data: object, name: str) -> set[str]:
    """The `rev` of each pre-commit `repos` entry whose `repo` is `name` or a URL whose path
    ends in it (`https://github.com/o/h` for `o/h`)."""
    repos = data.get("repos") if isinstance(data, dict) else None
    found = set()
    for entry in repos if isinstance(repos, list) else []:
        if not isinstance(entry, dict) or entry.get("rev") is None:
            continue
        url = str(entry.get("repo", "")).rstrip("/").removesuffix(".git")
        if url == name or url.endswith("/" + name):
            found.add(str(entry["rev"]))
    return found


def _action_refs(data: object, text: str, name: str) -> set[str]:
    """The refs every `uses:` of the action `name` (`owner/repo`, any path below it) names,
    anywhere in the document; a ref that is a commit's sha also by the version the comment
    on its line names (`@3599b3b…  # v3.30.5`), comments being lost to the YAML reader."""
    found = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            uses = node.get("uses")
            if isinstance(uses, str) and "@" in uses:
                action, _, ref = uses.partition("@")
                if action == name or action.startswith(name + "/"):
                    found.add(ref)
                    if _SHA.fullmatch(ref):
                        found |= {
                            m.group(1)
                            for m in re.finditer(
                                rf"{re.escape(uses)}['\"]?[ \t]+#[ \t]*(\S+)", text
                            )
                        }
            stack += list(node.values())
        elif isinstance(node, list):
            stack += node
    return found


def _values(values: set[str]) -> str:
    return ", ".join(f"`{v}`" for v in sorted(values)[:3]) if values else "not found"


# a comparison and its opposite: `a != b` computes what `a == b` does
_OPPOSITE: dict[type[ast.cmpop], ast.cmpop] = {
    ast.Eq: ast.NotEq(),
    ast.NotEq: ast.Eq(),
    ast.Lt: ast.GtE(),
    ast.GtE: ast.Lt(),
    ast.Gt: ast.LtE(),
    ast.LtE: ast.Gt(),
    ast.Is: ast.IsNot(),
    ast.IsNot: ast.Is(),
    ast.In: ast.NotIn(),
    ast.NotIn: ast.In(),
}


def _computed(test: str, body: Body) -> bool:
    """Whether `body` computes `test` or its opposite as an expression anywhere (a test
    that is a bare name or attribute aside: reading a value is no test of it)."""
    try:
        tree = ast.parse(test, mode="eval").body
    except SyntaxError:
        return False
    if isinstance(tree, ast.Name | ast.Attribute | ast.Subscript):
        return False
    forms = [tree, ast.UnaryOp(op=ast.Not(), operand=tree)]
    if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.Not):
        forms.append(tree.operand)
    if isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in _OPPOSITE:
        opposite = _OPPOSITE[type(tree.ops[0])]
        forms.append(ast.Compare(left=tree.left, ops=[opposite], comparators=tree.comparators))
    return any(ast.dump(f) in body.expressions for f in forms)


def _test_literals(test: str) -> set[str]:
    """The strings a test compares with (`'+'` of `x[0] == '+'`)."""
    try:
        tree = ast.parse(test, mode="eval")
    except SyntaxError:
        return set()
    return {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _helps_of(text: str, flag: str) -> set[str]:
    """The help texts (`help="…"`, or `doc="…"` in a module that imports `face`, whose
    `Command.add` and `Flag` call it so; adjacent or `+`-joined literals, f-strings without
    placeholders, spaces folded) of the calls in a Python file that name `flag` among their
    arguments."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    face = any(
        (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "face" and not n.level)
        or (isinstance(n, ast.Import) and any(a.name.split(".")[0] == "face" for a in n.names))
        for n in ast.walk(tree)
    )
    helps = {"help", "doc"} if face else {"help"}

    def literal(node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            # an f-string is a literal only without placeholders
            parts = [literal(v) if isinstance(v, ast.Constant) else None for v in node.values]
            return None if None in parts else "".join(p or "" for p in parts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = literal(node.left), literal(node.right)
            return None if left is None or right is None else left + right
        return None

    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not any(
            isinstance(a, ast.Constant) and a.value == flag for a in node.args
        ):
            continue
        for keyword in node.keywords:
            if keyword.arg in helps and (words := literal(keyword.value)) is not None:
                found.add(" ".join(words.split()))
    return found


def _build_requires(text: str) -> set[str] | None:
    """The PEP 503 names a `pyproject.toml`'s `[build-system] requires` lists (PEP 518);
    None where it does not parse or lists none."""
    try:
        system = tomllib.loads(text).get("build-system")
    except tomllib.TOMLDecodeError:
        return None
    listed = system.get("requires") if isinstance(system, dict) else None
    if not isinstance(listed, list) or not listed:
        return None
    return {requirement_name(r) for r in listed if isinstance(r, str)}
