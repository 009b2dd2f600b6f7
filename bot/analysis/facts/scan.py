"""A GitHub patch read once into hunks, and what one file's hunks show, side by side."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from bot.analysis.facts.records import NameKind, Registry

_HEADER = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$", re.MULTILINE)
_NO_NEWLINE = "\n\\ No newline at end of file"


@dataclass(frozen=True)
class Hunk:
    """One hunk: git's section heading (the enclosing definition it names) and its body,
    each line starting with its side: `+`, `-` or ` ` (context)."""

    heading: str
    text: str

    @cached_property
    def lines(self) -> tuple[tuple[str, str], ...]:
        """`(side, text)` for each line; an empty line is context."""
        return tuple((line[:1] or " ", line[1:]) for line in self.text.split("\n"))


def hunks(patch: str) -> list[Hunk]:
    """A GitHub `patch` (hunks only, no file header) split into hunks; a patch GitHub cut
    short keeps the lines it has."""
    if _NO_NEWLINE in patch:
        patch = patch.replace(_NO_NEWLINE, "")
    headers = list(_HEADER.finditer(patch))
    out = []
    if not headers or headers[0].start() > 0:
        head = patch[: headers[0].start() if headers else len(patch)].strip("\n")
        if head:
            out.append(Hunk("", head))
    for i, match in enumerate(headers):
        end = headers[i + 1].start() if i + 1 < len(headers) else len(patch)
        out.append(Hunk(match.group(1), patch[match.end() + 1 : end].rstrip("\n")))
    return out


def side_at(text: str, position: int) -> str:
    """The side (`+`, `-`, ` `) of the line of `text` that holds `position`."""
    start = text.rfind("\n", 0, position) + 1
    return text[start : start + 1] or " "


@dataclass(frozen=True)
class CallShape:
    """One call as a caller writes it: its keyword arguments with a literal value (a
    constant, or a constant's name) as `ast.unparse` writes them, the keywords given any
    other value, how many positional arguments, and whether it unpacks `*x` or `**x`."""

    literal: dict[str, str]
    other: frozenset[str]
    positional: int
    unpacks: bool
    # the call itself, written out only where calls are told apart (most never are)
    node: ast.Call = field(compare=False)


@dataclass
class Side:
    """What the lines of one side of a file's diff (`+` added, `-` removed) define and read."""

    # qualified name -> (kind, the defining line; from a whole file, a digest of the whole
    # definition, its nested members aside)
    defs: dict[str, tuple[NameKind, str]] = field(default_factory=dict)
    # from a whole file: qualified name -> a digest of its body alone (a body found under
    # another name or in another file was renamed or moved there)
    bodies: dict[str, str] = field(default_factory=dict)
    # from a whole Python file: qualified name -> a digest of its code, its docstring and
    # comment lines aside (words reworded there are no edit of the code), worked out when
    # asked: only a definition whose lines differ between the sides is ever compared
    # (called with `renamed=True`: its locals named by where they first occur)
    code: dict[str, Callable[..., str]] = field(default_factory=dict)
    # from a whole file: `function(parameter)` -> its default as written
    params: dict[str, str] = field(default_factory=dict)
    # from a whole Python file: `function(parameter)` -> the literals of what the function
    # sets the parameter to where it still holds its default (`if x == "auto": x = f(…, 0)`)
    fallbacks: dict[str, frozenset[str]] = field(default_factory=dict)
    # from a whole Python file: `function(parameter)` -> `callee(parameter)` it is passed on
    # to by name (`g(x=x)`), where the callee's fallback may be what the default stands for
    forwards: dict[str, str] = field(default_factory=dict)
    # from a whole file: function -> its parameters as written (`x`, `y=1`, `*args`), without
    # `self` or `cls`, and the exceptions its own body raises by name
    signatures: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # from a whole Python file: function -> its parameters' annotations as written, and its
    # return's under "->"
    annotations: dict[str, dict[str, str]] = field(default_factory=dict)
    raises: dict[str, frozenset[str]] = field(default_factory=dict)
    # from a whole Python file: function -> what it raises as a variable narrowed by
    # `isinstance` (an exception it raised, never one it newly raises)
    narrowed: dict[str, frozenset[str]] = field(default_factory=dict)
    # from a whole Python file: function -> the exceptions its own `except` clauses name
    catches: dict[str, frozenset[str]] = field(default_factory=dict)
    # from a whole Python file: function -> the literals its own `return`s give (`130`)
    returns: dict[str, frozenset[str]] = field(default_factory=dict)
    # from a whole Python file: function -> the strings its own conditions compare with
    # (`x == "a"`, `x in ("a", "b")`), each with the other strings of its comparison
    compared: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    # from a whole Python file: function -> (exception, message) of each own `raise T("…")`
    messages: dict[str, frozenset[tuple[str, str]]] = field(default_factory=dict)
    # from a whole Python file: function -> every string in it, nested code and f-strings'
    # literal parts included (a string found again is not new to the function)
    strings: dict[str, frozenset[str]] = field(default_factory=dict)
    # from a whole Python file: function -> the tests of its own `if`, `elif`, `while` and
    # conditional expressions, as `ast.unparse` writes them, each with the first line it is on
    conditions: dict[str, dict[str, int]] = field(default_factory=dict)
    # from a whole Python file: function -> test -> ("return" / "continue" / "raise E", the
    # statement) of an own `if` whose body ends in that jump
    guards: dict[str, dict[str, tuple[str, ast.stmt]]] = field(default_factory=dict)
    # from a whole Python file: function -> callee as written (`self._send`) -> each of its
    # own calls of it
    passes: dict[str, dict[str, list[CallShape]]] = field(default_factory=dict)
    # the same of the calls the functions nested in it make (a decorator's wrapper's)
    closure_passes: dict[str, dict[str, list[CallShape]]] = field(default_factory=dict)
    # from a whole Python file: qualified names defined more than once (`@overload`s, a
    # property's setter, a `def` under each branch of an `if`): which one a caller meets is
    # not one `def`'s to say
    redefined: set[str] = field(default_factory=set)
    # from a whole Python file: functions whose last `def` so far is an `@overload` (PEP 484:
    # the implementation after them is the one a caller meets, so it redefines none)
    overloaded: set[str] = field(default_factory=set)
    # from a whole Python file: function -> its `@overload`s' parameters together, where an
    # implementation follows them (a stub's signature: a type checker reads no implementation)
    overloads: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # from a whole Python file: function -> its parameters a caller cannot name (before `/`,
    # or PEP 484's `__x`), where it has any
    positional: dict[str, frozenset[str]] = field(default_factory=dict)
    # from a whole Python file: qualified names only a type checker sees (defined under
    # `if TYPE_CHECKING:`, the run-time binding in its `else:`)
    declared: set[str] = field(default_factory=set)
    # from a whole Python file: function -> its own `raise` statements
    raising: dict[str, tuple[ast.Raise, ...]] = field(default_factory=dict)
    # from a whole file: function -> the names its body calls (`helper`, `self.run` as `run`)
    calls: dict[str, frozenset[str]] = field(default_factory=dict)
    # from a whole Python file: function -> the names it hands to a call to be called later
    # (`exit_stack.push_async_callback(self.stop)`, `loop.call_soon(run)` as `stop`, `run`)
    handed: dict[str, frozenset[str]] = field(default_factory=dict)
    # from a whole Python file: function -> its parsed node, walked for `raises` and `calls`
    # only where the change edits it (walking every function costs more than parsing)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    # from a whole Python file: function -> the lines of that node as the file writes them,
    # decorators in: two sides' functions written alike are one tree (`same_tree`), known
    # without walking them
    written: dict[str, str] = field(default_factory=dict)
    # lines to add to a function node's own line numbers to find it in this side's text:
    # a node kept from an earlier parse of the file (`pyedit.py`) keeps that text's lines
    shifts: dict[str, int] = field(default_factory=dict)
    # from a whole Python file: class -> its parsed node (its decorators and keywords)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    # names an import binds (`from m import a as b` binds `b`) -> the module imported from
    imports: dict[str, str] = field(default_factory=dict)
    # Python: a name `import a.b as c` binds -> the module (`c` -> `a.b`; `import a`: `a`)
    modules: dict[str, str] = field(default_factory=dict)
    # Python: a name an import binds under another (`from m import a as b`): `b` -> `a`
    aliases: dict[str, str] = field(default_factory=dict)
    # from a whole Python file: a module-level name bound to another name (`A = B`, `A = m.B`)
    # -> that name as written ('' where the module binds it more than once)
    bound: dict[str, str] = field(default_factory=dict)
    # from a whole Python file: class -> its bases' last names (`jobs.AlertJob`: `AlertJob`)
    bases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # names a package's `__init__.py` exports: `__all__` items, imports from the package
    exports: set[str] = field(default_factory=set)
    # from a whole file: names a package's `__init__.py` imports from the package, and
    # whether it assigns `__all__` a literal list (then that list alone is what it exports:
    # PEP 8, "imported names should always be considered an implementation detail")
    imported_exports: set[str] = field(default_factory=set)
    listed: bool = False
    # from a whole file: names a module or class body assigns (`App.hook: None = None`), so
    # a definition replaced by an attribute of its name is still there
    assigned: set[str] = field(default_factory=set)
    # from a whole Python file: the module's type variables (`_T = TypeVar("_T")`, a
    # `ParamSpec`, a `TypeVarTuple`)
    typevars: set[str] = field(default_factory=set)
    # ...and those of them declared `covariant=True`
    covariant: set[str] = field(default_factory=set)
    # a module-level `__getattr__` (or JavaScript's `export * from`): any name may still be
    # provided lazily
    lazy: bool = False
    # from a whole Python file: the names a module `__getattr__` hands out by name (the
    # strings it compares its argument with, the keys of the module's dicts it reads)
    served: set[str] = field(default_factory=set)
    # the names a module `__getattr__` names only to refuse them (an `if` that raises)
    refused: set[str] = field(default_factory=set)
    # from a whole Python file: module-level dicts with names for keys -> those keys, and the
    # module names a module `__getattr__` reads (`served` is made of the two)
    mappings: dict[str, frozenset[str]] = field(default_factory=dict)
    lazy_reads: set[str] = field(default_factory=set)
    # from a whole Python file: names of functions nested in functions (closures), so one
    # lifted to the module is not new
    closures: set[str] = field(default_factory=set)
    # from a whole file: qualified names its language keeps from other modules (Rust without
    # `pub`, Go lower-case, JavaScript/TypeScript not exported)
    private: set[str] = field(default_factory=set)
    # name -> default as written (None: none on the line)
    env: dict[str, str | None] = field(default_factory=dict)
    flags: dict[str, str | None] = field(default_factory=dict)
    # from a whole Python file: a flag -> its own help text (`help="…"`), a literal string
    flag_help: dict[str, str] = field(default_factory=dict)
    keys: dict[str, str | None] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    # from a whole Python file: a public module-level name or class attribute assigned a
    # constant (`MAX = 1024 * 1024`, `Parser.max_size = 10`) -> its value as written
    constants: dict[str, str] = field(default_factory=dict)
    # from a whole Python file: a module-level name or class attribute bound once to a table
    # written out (a dict with string keys, a list, tuple or set of strings, a `Literal[...]`)
    # -> (`keys` or `values`, its strings); None: bound otherwise, or more than once
    tables: dict[str, tuple[str, tuple[str, ...]] | None] = field(default_factory=dict)
    # (name, registry, via)
    registrations: dict[str, tuple[Registry, str]] = field(default_factory=dict)
    tests: list[str] = field(default_factory=list)
    # package -> spec
    requirements: dict[str, str] = field(default_factory=dict)
    # package (lowercased as in `requirements`) -> (PEP 508 marker, "" for none; spec) of each
    # of its requirement lines on this side: one name written once per marker
    # (`pytest==6.2.5 ; python_version >= '3.6'`, `pytest<5.0 ; python_version < '3.6'`)
    marked: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # from a whole Python file: its module-level `setup(…)` call (a `setup.py`'s metadata)
    setup_call: ast.Call | None = None
    # from a whole Python file: module-level names bound once to a literal
    # (`requirements = ["a>=1"]`), None once bound again: what `setup(install_requires=…)` passes
    literals: dict[str, ast.expr | None] = field(default_factory=dict)
    # a settings file's key -> value (keys seen more than once on a side are ambiguous: None)
    values: dict[str, str | None] = field(default_factory=dict)
    sections: list[str] = field(default_factory=list)
    # a section's title -> the first paragraph of prose written under it on that side
    section_texts: dict[str, str] = field(default_factory=dict)


@dataclass
class FileReading:
    """One file's diff, read: both sides, the definitions edited inside, the warnings added.

    What context lines hold is on both sides for definitions, imports and exports (a name
    there is neither gained nor lost), and in `context` for settings read (a setting read on
    a context line is still read)."""

    path: str
    plus: Side = field(default_factory=Side)
    minus: Side = field(default_factory=Side)
    context: Side = field(default_factory=Side)
    # qualified name -> kind, for definitions a changed line sits in
    changed: dict[str, NameKind] = field(default_factory=dict)
    # (message or line, replacement)
    deprecations: list[tuple[str, str | None]] = field(default_factory=list)
    # the file's whole texts at the parent and at the commit, where it was read whole
    texts: tuple[str, str] = ("", "")
    # the file's patch, as the commit gives it (read whole or not)
    patch: str = ""
    # a requirements file a resolver compiled for the dev tools (`paths.compiled_for_tools`)
    tools: bool = False
    # class -> its private attributes renamed throughout it, as `class_attributes_renamed`
    # pairs them (worked out once, for the first of its methods asked)
    attributes_renamed: dict[str, tuple[dict[str, str], dict[str, str]]] = field(
        default_factory=dict
    )
    # definition -> whether both sides give it the same code (`facts._same_code`, asked of
    # each edited definition by the names the change edits and again by the calls compared)
    same_code: dict[str, bool] = field(default_factory=dict)

    def side(self, sign: str) -> Side:
        return self.plus if sign == "+" else self.minus if sign == "-" else self.context
