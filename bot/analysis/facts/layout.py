"""Whether a file's change is only its layout: the same code, spaced, wrapped or commented anew."""

from __future__ import annotations

import ast
import configparser
import re
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from typing import TypeVar

import yaml

from bot.analysis.facts.erasure import (
    blind_decorators,
    defers_annotations,
    erase_checker_only,
    evaluates_alone,
    hoist_typing_fallbacks,
    prune_typing_imports,
    typing_arguments,
)
from bot.analysis.facts.meaning import respell_module
from bot.analysis.facts.modules import children, module_tree, statements
from bot.analysis.facts.parses import Parses, ini_lowered
from bot.analysis.facts.pyfile import PARSE_ERRORS, docstring
from bot.analysis.facts.renamed import canonical, class_attributes_renamed
from bot.analysis.facts.same_tree import same_tree
from bot.analysis.facts.scan import hunks
from bot.analysis.paths import Language, language_of
from bot.models import FileChange

# Tokens of Python and of the C family, comments left out: a string (a C raw string aside), a
# word or number, one other character; a comment is matched so as to be dropped.
_PY_TOKENS = re.compile(
    r"""(?P<c>\#[^\n]*)|[rbuf]*(?:"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|\w+|\S"""
)
_C_TOKENS = re.compile(
    r"""(?P<c>//[^\n]*|/\*.*?\*/)|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\w+|\S""", re.DOTALL
)
# What a C-family hunk holds that makes a line break or a space mean something: a directive
# (a macro ends at its line's end), a raw string literal, a line continuation.
_C_LAYOUT_MATTERS = re.compile(r'^\s*#|\bR"|\\$', re.MULTILINE)


def layout_only(f: FileChange) -> bool:
    """Whether every hunk of the file's patch removes and adds the same tokens, comments
    aside, and, for Python, both whole texts parse to the same tree (an indent is code
    there). False when that is not known (no patch, another language, no texts)."""
    if not f.patch or f.status != "modified":
        return False
    language = language_of(f.filename)
    if language is Language.PYTHON:
        tokens = _PY_TOKENS
    elif language is Language.C:
        tokens = _C_TOKENS
    else:
        return False
    for hunk in hunks(f.patch):
        old = "\n".join(text for sign, text in hunk.lines if sign == "-")
        new = "\n".join(text for sign, text in hunk.lines if sign == "+")
        if language is Language.C and (
            _C_LAYOUT_MATTERS.search(old) or _C_LAYOUT_MATTERS.search(new)
        ):
            return False
        if _words(tokens, old) != _words(tokens, new):
            return False
    sides = f.sides
    if language is not Language.PYTHON:
        if sides is not None:
            # a `/*` added above a line and a `*/` below it comment the line out: only the
            # whole texts say what is code
            return _words(tokens, sides[0]) == _words(tokens, sides[1])
        return not any(
            "/*" in text or "*/" in text
            for hunk in hunks(f.patch)
            for sign, text in hunk.lines
            if sign != " "
        )
    if sides is None:
        return False
    try:
        trees = [module_tree(text) for text in sides]  # (only read)
    except PARSE_ERRORS:
        return False
    return same_tree(*trees)


def _words(tokens: re.Pattern[str], text: str) -> list[str]:
    return [m.group() for m in tokens.finditer(text) if m.group("c") is None]


# Whether a class of a module (its path), at the parent (0) or at the commit (1), is one whose
# annotations nothing reads at run time though it has bases (`annotated.quiet_classes`)
QuietClass = Callable[[str, int, ast.ClassDef], bool]
_Node = TypeVar("_Node", bound=ast.AST)


def same_code(
    f: FileChange,
    *,
    typing: bool = False,
    imports: bool = False,
    quiet: QuietClass | None = None,
    renamed: bool = False,
) -> bool:
    """Whether a Python file's two whole texts are the same code (`_compared`)."""
    return _compared(
        f, typing=typing, imports=imports, quiet=quiet, renamed=renamed, respell=False
    )[0]


def respelled_code(
    f: FileChange, *, typing: bool = False, quiet: QuietClass | None = None
) -> frozenset[str] | None:
    """The respellings (`meaning.respell_module`: `FORMAT`, `NEGATION`, `IMPORTS`) a Python
    file's two whole texts differ by where they are otherwise the same code (`_compared`,
    with `imports` where `typing`), none where they are the same as written; None where the
    file is not the same code (or that is not known)."""
    same, kinds = _compared(
        f, typing=typing, imports=typing, quiet=quiet, renamed=False, respell=True
    )
    return kinds if same else None


def respelled_alone(f: FileChange) -> bool:
    """Whether a Python file's two whole texts are equal syntax trees once docstrings are
    dropped and the respellings `meaning.respell_module` proves the same are read so, and
    by no other rule of `same_code` (a bare string, a function moved, an annotation): what
    a sentence naming only those may claim. False where not known."""
    if f.status != "modified" or f.sides is None or language_of(f.filename) is not Language.PYTHON:
        return False
    trees = []
    try:
        for text in f.sides:
            tree = ast.parse(text)
            for node in ast.walk(tree):
                if isinstance(node, _DOCUMENTED) and docstring(node):
                    node.body = node.body[1:] or [ast.Pass()]
            respell_module(tree)
            trees.append(tree)
    except (*PARSE_ERRORS, RecursionError):
        return False
    return same_tree(*trees)


_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _compared(
    f: FileChange,
    *,
    typing: bool,
    imports: bool,
    quiet: QuietClass | None,
    renamed: bool,
    respell: bool,
) -> tuple[bool, frozenset[str]]:
    """Whether a Python file's two whole texts are the same code once docstrings (and, with
    `renamed`, each function's locals and rebound parameters, a private function's
    parameters and a class's private attributes renamed throughout: `renamed.canonical`; and,
    with
    `typing`, what only a type checker reads: annotations that do nothing at run time) are
    set aside. Reads both sides' shared parses (`module_tree`), their statements copied:
    asked only where the title says the change is documentation or typing. False when that
    is not known (no texts, another language, a text that does not parse). With `imports`
    (and `typing`), the names imported that only a type checker read are set aside too
    (`erasure.prune_typing_imports`): not proof of the same code, but of nothing a test
    could pin. `quiet`: which classes with bases read no
    annotations (else none). With `respell`, the respellings `meaning.respell_module` proves
    the same are read so, and said: those the two sides differ by."""
    no: tuple[bool, frozenset[str]] = (False, frozenset())
    if f.status != "modified" or f.sides is None or language_of(f.filename) is not Language.PYTHON:
        return no
    try:
        shared = [module_tree(text) for text in f.sides]  # (only read)
    except PARSE_ERRORS:
        return no
    if (
        not respell
        and not (typing and any(w in text for w in _ERASED_WORDS for text in f.sides))
        and (_shape(shared[0]) != _shape(shared[1]))
    ):
        # (most edits of code: a call, a `return`, an `if` more or less, known without the
        # copies and the erasure the comparison below costs; imports regrouped change the
        # count, so not where respellings are read)
        return no
    # (a tree of its own where setting typing aside may rewrite an expression: `cast(T, v)`
    # read as `v`, wherever a name spelled otherwise may be `cast` to Python; and where
    # respellings are rewritten in place)
    counts: list[Counter[str]] = []
    try:
        parsed = []
        for text in f.sides:
            own = respell or (typing and ("cast" in text or not text.isascii()))
            tree = ast.parse(text) if own else _own_statements(module_tree(text))
            if respell:
                counts.append(respell_module(tree))
            parsed.append(_hoisted(tree))
    except (*PARSE_ERRORS, RecursionError):
        return no
    differing = (counts[0] - counts[1]) + (counts[1] - counts[0]) if counts else Counter()
    kinds = frozenset(k.split(":", 1)[0] for k in differing)
    # A library that reads a function's annotations (FastAPI's and pydantic's routes and
    # models, typer's commands) makes each one behaviour. Elsewhere an annotation is only
    # text to a module that defers them (PEP 563); to one that does not, one whose
    # evaluation is proven to raise nothing (`erasure.evaluates_alone`): it changes no more
    # than an `__annotations__`. attrs and its kin read only a class's (theirs or a plain one
    # they are applied to later: `attrs.define(C)`).
    readers = [_readers(tree) for tree in parsed]
    classes = _CLASSES in readers
    typing = typing and all(r is not None for r in readers)

    def quiet_at(side: int) -> Callable[[ast.ClassDef], bool]:
        return lambda node: quiet is not None and quiet(f.filename, side, node)

    try:
        with ExitStack() as names:
            if renamed:
                _canonical(parsed[0], parsed[1], names)
            # (a name both sides pass as a type argument passed `typing`'s checks at both)
            vetted = (
                typing_arguments(parsed[0]) & typing_arguments(parsed[1])
                if typing
                else frozenset[str]()
            )
            bare = [
                _bare(
                    tree,
                    typing=typing,
                    classes=classes,
                    imports=imports,
                    quiet=quiet_at(side),
                    vetted=vetted,
                )
                for side, tree in enumerate(parsed)
            ]
            # compared while the names are the canonical ones (`_bare` gives trees)
            return same_tree(*bare), kinds
    except RecursionError:  # nested past Python's limit (a long `elif` chain): not known
        return no


# Words without which `erasure.erase_checker_only` drops no statement and rewrites none
# (`if TYPE_CHECKING:`, an `@overload`, `@no_type_check`, a `cast(T, "…")` left a bare string)
_ERASED_WORDS = ("TYPE_CHECKING", "overload", "no_type_check", "cast")
# Statements `same_code` keeps, each as many at both sides where it says the same code: it
# drops docstrings, bare strings, annotations (`x: T` alone) and imported names, turns
# `x: T = v` into an assignment, reorders functions and moves an `else` after a `return`,
# drops imports from `typing` whose names nothing reads, and (without `_ERASED_WORDS`)
# drops or adds no other statement
_KEPT = (
    ast.Return,
    ast.Raise,
    ast.Assert,
    ast.Delete,
    ast.AugAssign,
    ast.Global,
    ast.Nonlocal,
    ast.Break,
    ast.Continue,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.If,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.Match,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Import,
    ast.Pass,
)


def _shape(tree: ast.Module) -> Counter[str]:
    """How many of each statement `_KEPT` names, of expressions standing as statements but
    bare strings, of assignments (`x: T = v` among them) and of imports from a module but
    `typing` the module holds, in every block (walked without its expressions)."""
    return Counter(
        "Assign" if isinstance(node, ast.AnnAssign) else type(node).__name__
        for node in statements(tree)
        if isinstance(node, (*_KEPT, ast.Assign))
        or (isinstance(node, ast.AnnAssign) and node.value is not None)
        or (isinstance(node, ast.Expr) and not bare_string(node))
        or (isinstance(node, ast.ImportFrom) and (node.module != "typing" or node.level))
    )


def _canonical(was: ast.Module, now: ast.Module, names: ExitStack) -> None:
    """Every function of both trees with its locals named by where they occur, and in a
    class both sides define, the private attributes renamed throughout it paired
    (`class_attributes_renamed`), while `names` is open (copies of the statements; the names
    of the shared trees' expressions named back on its close)."""
    sides = [_functions(was), _functions(now)]
    was_classes, now_classes = _classes(was), _classes(now)
    # (paired before any is renamed: the renaming changes the trees they are read from)
    paired = {
        owner: class_attributes_renamed(was_classes[owner], now_classes[owner])
        for owner in was_classes.keys() & now_classes.keys()
    }
    for side, functions in enumerate(sides):
        for owner, function in functions:
            attrs = paired[owner][side] if owner in paired else {}
            names.enter_context(canonical(function, attrs))


def _functions(
    tree: ast.Module,
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The module's functions and its classes' methods (nested ones are `canonical`'s), each
    with the qualified name of its class ("" for none)."""
    out: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    todo: list[tuple[str, ast.stmt]] = [("", s) for s in tree.body]
    while todo:
        owner, node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append((owner, node))
        elif isinstance(node, ast.ClassDef):
            inner = f"{owner}.{node.name}" if owner else node.name
            todo += [(inner, s) for s in node.body]
        else:
            for block in ("body", "orelse", "finalbody"):
                todo += [(owner, s) for s in getattr(node, block, ()) if isinstance(s, ast.stmt)]
            todo += [(owner, s) for h in getattr(node, "handlers", ()) for s in h.body]
    return out


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    out: dict[str, ast.ClassDef] = {}
    todo: list[tuple[str, ast.stmt]] = [("", s) for s in tree.body]
    while todo:
        owner, node = todo.pop()
        if isinstance(node, ast.ClassDef):
            inner = f"{owner}.{node.name}" if owner else node.name
            out[inner] = node
            todo += [(inner, s) for s in node.body]
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for block in ("body", "orelse", "finalbody"):
                todo += [(owner, s) for s in getattr(node, block, ()) if isinstance(s, ast.stmt)]
            todo += [(owner, s) for h in getattr(node, "handlers", ()) for s in h.body]
    return out


# A statement's fields that hold statements, an `except` clause or a `case` (`modules._BLOCKS`)
_HOLDING = ("body", "orelse", "finalbody", "handlers", "cases")


def _copied(node: _Node) -> _Node:
    """A node's shallow copy: its fields the same objects."""
    new = node.__class__.__new__(node.__class__)
    new.__dict__.update(node.__dict__)
    return new


def _own_statements(tree: ast.Module) -> ast.Module:
    """A copy of the module's statements, `except` clauses, `case`s and functions'
    parameters, in lists of their own, their expressions the shared tree's (`module_tree`):
    what `_hoisted`, `_bare` and their helpers change in place, a `canonical` renaming
    aside (named back before the tree is read again). A copy of every node, or a parse of
    its own, cost more than the rest of the comparison."""
    top = _copied(tree)
    stack: list[ast.AST] = [top]
    while stack:
        node = stack.pop()
        for name in _HOLDING:
            held = getattr(node, name, None)
            if isinstance(held, list):
                fresh = [_copied(s) for s in held]
                setattr(node, name, fresh)
                stack += fresh
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            node.args = arguments = _copied(node.args)
            for name in ("posonlyargs", "args", "kwonlyargs"):
                setattr(arguments, name, [_copied(a) for a in getattr(arguments, name)])
            for name in ("vararg", "kwarg"):
                if getattr(arguments, name) is not None:
                    setattr(arguments, name, _copied(getattr(arguments, name)))
    return top


def _hoisted(tree: ast.Module) -> ast.Module:
    """The module with its undecorated top-level functions that nothing run at import time
    names (outside every function's body) set last, by name: such a `def` only binds its
    name, so where it stands in the module is layout (a helper moved to the top)."""
    loaded: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            parts: list[ast.AST] = [*node.decorator_list, node.args]
            if node.returns is not None:
                parts.append(node.returns)
        else:
            parts = [node]
        stack = list(parts)
        while stack:
            part = stack.pop()
            if isinstance(part, ast.Name):
                loaded.add(part.id)
            for child in children(part):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    # (a body runs when called; its decorators and defaults run now)
                    stack += getattr(child, "decorator_list", [])
                    stack.append(child.args)
                    continue
                stack.append(child)

    def movable(node: ast.stmt) -> bool:
        return (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and not node.decorator_list
            and node.name not in loaded
            and sum(
                isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and n.name == node.name
                for n in tree.body
            )
            == 1
        )

    moved = sorted((n for n in tree.body if movable(n)), key=lambda n: getattr(n, "name", ""))
    tree.body = [n for n in tree.body if not movable(n)] + moved
    return tree


# Libraries that read a function's annotations too (a route's, a command's, a dependency's),
# or every annotation of the package (beartype's and typeguard's import hooks)
_READS_ANNOTATIONS = frozenset(
    {"fastapi", "pydantic", "typer", "sqlmodel", "strawberry", "litestar", "beartype"}
    | {"typeguard"}
)
# Libraries that read only the annotations of the classes they are given (their fields; an
# attrs converter's own annotation only annotates the `__init__` attrs writes)
_READS_CLASSES = frozenset({"attrs", "attr", "msgspec", "cattrs", "marshmallow_dataclass"})
_CLASSES = "classes"


def _readers(tree: ast.Module) -> str | None:
    """None where the module imports a library that reads a function's annotations;
    `_CLASSES` where one imported reads only classes'; else ""."""
    found = ""
    for node in statements(tree):
        if isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        elif isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        else:
            continue
        roots = {m.split(".")[0] for m in modules}
        if roots & _READS_ANNOTATIONS:
            return None
        if roots & _READS_CLASSES:
            found = _CLASSES
    return found


def _bare(
    tree: ast.Module,
    *,
    typing: bool,
    classes: bool = False,
    imports: bool = False,
    quiet: Callable[[ast.ClassDef], bool] | None = None,
    vetted: frozenset[str] = frozenset(),
) -> ast.Module:
    """The tree, in place, without docstrings (an attribute's too); with `typing`, without what
    only a type checker reads (`erasure.py`) and the annotations nothing reads at run time:
    those of an undecorated function (or one decorated only by what never reads them:
    `@property`, `@abstractmethod`), and in a module, a function or a class neither decorated
    nor derived (or derived from classes `quiet` proves read none), `x: T` dropped and
    `x: T = v` read as `x = v` (a dataclass's, a model's or a decorated endpoint's annotations
    are behaviour; with `classes`, every class's). In a module that does not defer its
    annotations, a signature's and a class's or the module's own are evaluated: each is set
    aside only where its evaluation is proven to raise nothing (`erasure.evaluates_alone`);
    a function's locals' are never evaluated. `vetted`: names read as classes there
    (`erasure.evaluates_alone`)."""
    alone = evaluates_alone(tree, vetted) if typing and not defers_annotations(tree) else None
    if typing:
        erase_checker_only(tree)
    blind = blind_decorators(tree)
    # (a nested class's bases may be names of the scope around it: only the module's own
    # classes are followed)
    top = {id(n) for n in tree.body}
    quiet_top = None if quiet is None else lambda c: id(c) in top and quiet(c)
    for node in statements(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body[1:] if docstring(node) else node.body
        # a string below a name (Sphinx's attribute docstring) is a statement that does
        # nothing: only the first one is a `__doc__`
        body = [b for b in body if not bare_string(b)]
        if typing and _plain(node, blind, classes=classes, quiet=quiet_top):
            function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            # (a function's locals' annotations are never evaluated)
            body = _without_annotations(body, None if function else alone)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                _unsigned(node, alone)
        node.body = body
    if typing:
        prune_typing_imports(tree, any_module=imports)
    _flatten_exits(tree)
    return tree


def _plain(
    node: ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef,
    blind: Callable[[ast.expr], bool],
    *,
    classes: bool,
    quiet: Callable[[ast.ClassDef], bool] | None,
) -> bool:
    """Whether nothing reads the node's own annotations: a module, a function decorated by
    nothing that reads them, a class undecorated and underived (or derived from classes
    `quiet` proves read none), unless a library that reads every class's is imported."""
    if isinstance(node, ast.Module):
        return True
    if isinstance(node, ast.ClassDef):
        if node.decorator_list or classes:
            return False
        derived = bool(node.bases or node.keywords)
        return not derived or (quiet is not None and quiet(node))
    return not node.decorator_list or _blind_only(node, blind)


def _unsigned(
    node: ast.FunctionDef | ast.AsyncFunctionDef, alone: Callable[[ast.expr], bool] | None
) -> None:
    """In place: the function's signature without the annotations that are only text
    (`alone`: those evaluated at its `def`, where proven to raise nothing)."""
    if node.returns is not None and (alone is None or alone(node.returns)):
        node.returns = None
    arguments = node.args
    for arg in (
        *arguments.posonlyargs,
        *arguments.args,
        *arguments.kwonlyargs,
        arguments.vararg,
        arguments.kwarg,
    ):
        if arg is not None and arg.annotation and (alone is None or alone(arg.annotation)):
            arg.annotation = None


# What ends a block: the statements after it in the block never run.
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def _flatten_exits(node: ast.AST) -> None:
    """Every `if` whose block ends by leaving (`return`, `raise`, `continue`, `break`) with
    its `else` (or `elif`) read as the `if` alone and the `else`'s statements after it: a
    linter's `elif` → `if` after a `return` (ruff's RET505, RET506), the same code."""
    for name in ("body", "orelse", "finalbody"):
        statements = getattr(node, name, None)
        if isinstance(statements, list) and statements and isinstance(statements[0], ast.stmt):
            setattr(node, name, _flat(statements))
    for inner in (*getattr(node, "handlers", ()), *getattr(node, "cases", ())):
        inner.body = _flat(inner.body)


def _flat(statements: list[ast.stmt]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    pending = list(reversed(statements))
    while pending:
        statement = pending.pop()
        if isinstance(statement, ast.If):
            statement.body = _flat(statement.body)
            if statement.orelse and isinstance(statement.body[-1], _EXITS):
                # (what the `else` held runs after the `if`, flattened in its turn: an `elif`
                # chain is read by this loop, not by a recursion as deep as the chain is long)
                pending.extend(reversed(statement.orelse))
                statement.orelse = []
            else:
                statement.orelse = _flat(statement.orelse)
        else:
            _flatten_exits(statement)
        out.append(statement)
    return out


def bare_string(statement: ast.AST) -> bool:
    """A statement that is a string alone (a docstring, or a string standing as a comment)."""
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _blind_only(
    node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef, blind: Callable[[ast.expr], bool]
) -> bool:
    """Whether a function's decorators all never read its annotations."""
    return not isinstance(node, ast.ClassDef) and all(blind(d) for d in node.decorator_list)


# Statements whose blocks run in the scope around them (a class's `if sys.version_info …:`)
_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar)


def _without_annotations(
    body: list[ast.stmt], alone: Callable[[ast.expr], bool] | None = None
) -> list[ast.stmt]:
    """The statements with `x: T` dropped and `x: T = v` read as `x = v`, in the blocks of
    the same scope too; with `alone`, only where `T` is proven to evaluate alone."""
    kept: list[ast.stmt] = []
    for written in body:
        inert = isinstance(written, ast.AnnAssign) and (alone is None or alone(written.annotation))
        if inert and _bare_annotation(written):
            continue
        statement = _unannotated(written) if inert else written
        if isinstance(statement, _BLOCKS):
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(statement, name, None)
                if inner:
                    setattr(statement, name, _without_annotations(inner, alone))
            for handler in getattr(statement, "handlers", ()):
                handler.body = _without_annotations(handler.body, alone)
        kept.append(statement)
    return kept


def _bare_annotation(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.AnnAssign) and statement.value is None


def _unannotated(statement: ast.stmt) -> ast.stmt:
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        return ast.Assign(targets=[statement.target], value=statement.value, lineno=0)
    return statement


def _settings(name: str, text: str, parses: Parses) -> object:
    """A settings file's content as its readers see it (TOML, JSON, YAML, an INI or
    `setup.cfg`'s sections and keys); raises ValueError when it does not parse (a YAML bomb
    does not: `parses.py`)."""
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if extension == "toml":
        return parses.toml(text)
    if extension == "json":
        return parses.json(text)
    if extension in ("yaml", "yml"):
        try:
            return parses.yaml(text)
        except yaml.YAMLError as error:
            raise ValueError(str(error)) from error
    if extension in ("ini", "cfg"):
        try:
            return ini_lowered(parses.ini(text))
        except configparser.Error as error:
            raise ValueError(str(error)) from error
    raise ValueError(f"not a settings file: {name}")


def same_settings(f: FileChange, parses: Parses | None = None) -> bool:
    """Whether a settings file (TOML, JSON, YAML, INI, `setup.cfg`) parses to the same content
    at both revisions: its tables moved, its keys reordered, its comments, spacing or quoting
    changed, and nothing any reader of it meets (a build, an installer, a tool) is different.
    False when that is not known (no texts, another format, a side that does not parse).
    `parses`: the commit's, where its other readers parse the file too."""
    if f.status != "modified" or f.sides is None:
        return False
    parses = Parses() if parses is None else parses
    try:
        before, after = (_settings(f.filename, text, parses) for text in f.sides)
    except (ValueError, RecursionError):
        return False
    # (by type too: `true` and `1`, `1` and `1.0` are equal to Python, not to their readers)
    return _typed(before) == _typed(after)


def _typed(value: object) -> object:
    """A parsed value with each scalar's type beside it (a mapping's keys in no order)."""
    if isinstance(value, dict):
        return ("dict", frozenset((k, _typed(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("list", tuple(_typed(v) for v in value))
    return (type(value).__name__, value)


def _definition(tree: ast.Module, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function `name` (`f`, `Class.method`) of a module, through its classes."""
    scope: list[ast.stmt] = tree.body
    found: ast.stmt | None = None
    for part in name.split("."):
        found = next(
            (
                n
                for n in scope
                if isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and n.name == part
            ),
            None,
        )
        if found is None:
            return None
        scope = found.body
    return found if isinstance(found, ast.FunctionDef | ast.AsyncFunctionDef) else None


def only_annotated(f: FileChange, name: str) -> bool:
    """Whether the function `name` of a Python file is the same code at both revisions once
    its annotations (its signature's, its locals' `x: T`) and its docstring are set aside, and
    its lines rewrapped: where an edit only added types (tomlkit 62a6708's
    `self._tables: list[Table] = []` in `OutOfOrderTableProxy.__init__`), no fix lies. False
    where that is not known."""
    if f.status != "modified" or f.sides is None or language_of(f.filename) is not Language.PYTHON:
        return False
    nodes = []
    for text in f.sides:
        try:
            node = _definition(ast.parse(text), name)
        except PARSE_ERRORS:
            return False
        if node is None:
            return False
        _unsigned(node, None)
        body = node.body[1:] if docstring(node) else node.body
        node.body = _without_annotations(body)
        nodes.append(node)
    return ast.dump(nodes[0]) == ast.dump(nodes[1])


# `typing`'s forms a type alias is written with (`NullableNumber = typing.Union[int, None]`)
_ALIAS_FORMS = frozenset(
    {"Union", "Optional", "Callable", "Literal", "Annotated", "Type", "Tuple", "List", "Dict"}
    | {"Mapping", "Sequence", "Iterable", "TypeAlias"}
)
# A class whose methods' signatures only a type checker reads (its bodies are `...`)
_PROTOCOLS = frozenset({"Protocol"})
# A patch's line about what `typing_only` reads past `same_code`: a `Protocol`, a deferral of
# annotations, a type alias, an import `typing_extensions` stands in for
_TYPE_LEVEL = re.compile(
    r"^[-+](?:.*(?:\bProtocol\b|__future__|typing_extensions)"
    r"|\w+\s*=\s*(?:typing\.)?(?:" + "|".join(sorted(_ALIAS_FORMS)) + r")\[)",
    re.MULTILINE,
)


def typing_only(f: FileChange, quiet: QuietClass | None = None) -> tuple[str, ...] | None:
    """Whether a Python file's change is only what a type checker reads: the same code once
    annotations, `TYPE_CHECKING` imports and docstrings are set aside (`same_code`), and
    also once the module's type aliases (`X = typing.Union[...]`) and the signatures of a
    `Protocol`'s stub methods (a body of `...`: dacite ae4fd06's `Data.__getitem__`) are.
    The aliases the change drops, where the change is that; None where it is not known to
    be (another language, no texts, a side that does not parse)."""
    if same_code(f, typing=True, imports=True, quiet=quiet):
        return ()
    if f.status != "modified" or f.sides is None or language_of(f.filename) is not Language.PYTHON:
        return None
    if f.patch is not None and not _TYPE_LEVEL.search(f.patch):
        # (parsed again only where the patch touches what the second reading sets aside)
        return None
    try:
        trees = [ast.parse(text) for text in f.sides]
    except PARSE_ERRORS:
        return None
    aliases = [_strip_aliases(tree) for tree in trees]
    # (an alias's name in an annotation evaluates only where it is bound, and it was: read
    # as deferred on both sides, as `from __future__ import annotations` the change adds makes
    # them, none is evaluated)
    deferred = any(aliases) or any(defers_annotations(tree) for tree in trees)
    for tree in trees:
        _unsign_protocols(tree)
        hoist_typing_fallbacks(tree)
        if deferred and not defers_annotations(tree):
            at = 1 if tree.body and bare_string(tree.body[0]) else 0
            tree.body.insert(
                at, ast.ImportFrom(module="__future__", names=[ast.alias("annotations")], level=0)
            )
    try:
        texts = [ast.unparse(tree) for tree in trees]
    except (RecursionError, ValueError):
        return None
    stripped = f.model_copy(update={"before": texts[0], "after": texts[1]})
    if not same_code(stripped, typing=True, imports=True, quiet=quiet):
        return None
    return tuple(sorted(aliases[0] - aliases[1]))


def _alias_value(node: ast.expr) -> bool:
    """Whether an expression is a type written with `typing`'s forms (`Union[int, None]`,
    `typing.Optional[str]`, `A | B` of those)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _alias_value(node.left) or _alias_value(node.right)
    if not isinstance(node, ast.Subscript):
        return False
    base = node.value
    name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
    return name in _ALIAS_FORMS


def _strip_aliases(tree: ast.Module) -> set[str]:
    """In place: the module's top-level type aliases that only annotations read dropped;
    their names."""
    names: set[str] = set()
    kept: list[ast.stmt] = []
    read = _read_outside_annotations(tree)
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id not in read
            and _alias_value(node.value)
        ):
            names.add(node.targets[0].id)
            continue
        kept.append(node)
    tree.body = kept
    return names


def _unsign_protocols(tree: ast.Module) -> None:
    """In place: each `Protocol` class's stub methods (a body of `...` or `pass`, a
    docstring aside) with no parameters: their signatures are a type checker's only."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {
            b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in node.bases
        }
        if not bases & _PROTOCOLS:
            continue
        for method in node.body:
            if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) and _stub(method):
                method.args = ast.arguments(
                    posonlyargs=[],
                    args=[],
                    vararg=None,
                    kwonlyargs=[],
                    kw_defaults=[],
                    kwarg=None,
                    defaults=[],
                )
                method.returns = None


def _stub(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = node.body[1:] if docstring(node) else node.body
    return all(
        isinstance(s, ast.Pass)
        or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and s.value.value is ...)
        for s in body
    )


def _read_outside_annotations(tree: ast.Module) -> set[str]:
    """The names the module reads but in annotations (a signature's, an `x: T`'s)."""
    read: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            read.add(node.id)
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns"):
                continue
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack += [v for v in value if isinstance(v, ast.AST)]
    return read
