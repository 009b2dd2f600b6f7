"""Whether a file's change is only its layout: the same code, spaced, wrapped or commented anew."""

from __future__ import annotations

import ast
import re

from bot.analysis.facts.pyfile import PARSE_ERRORS, docstring, dumped
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
        trees = [ast.dump(ast.parse(text)) for text in sides]
    except PARSE_ERRORS:
        return False
    return trees[0] == trees[1]


def _words(tokens: re.Pattern[str], text: str) -> list[str]:
    return [m.group() for m in tokens.finditer(text) if m.group("c") is None]


def same_code(f: FileChange, *, typing: bool = False) -> bool:
    """Whether a Python file's two whole texts are the same code once docstrings (and, with
    `typing`, type annotations that do nothing at run time) are set aside. Parses both sides:
    asked only where the title says the change is documentation or typing. False when that
    is not known (no texts, another language, a text that does not parse)."""
    if f.status != "modified" or f.sides is None or language_of(f.filename) is not Language.PYTHON:
        return False
    try:
        parsed = [ast.parse(text) for text in f.sides]
    except PARSE_ERRORS:
        return False
    # Annotations are only text to a module that defers them (PEP 563) and that no library
    # reads them in (FastAPI's and pydantic's routes and models, typer's commands, attrs):
    # otherwise a name unquoted is evaluated at import, and a type is validated.
    typing = typing and all(_deferred(tree) for tree in parsed)
    trees = [_bare(tree, typing=typing) for tree in parsed]
    return trees[0] == trees[1]


_READS_ANNOTATIONS = frozenset(
    {"fastapi", "pydantic", "typer", "attrs", "attr", "msgspec", "cattrs", "sqlmodel"}
    | {"strawberry", "litestar", "beartype", "typeguard", "marshmallow_dataclass"}
)


def _deferred(tree: ast.Module) -> bool:
    """Whether the module defers its annotations and imports no library that reads them."""
    future = False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.module == "__future__":
                future = future or any(a.name == "annotations" for a in node.names)
            elif (node.module or "").split(".")[0] in _READS_ANNOTATIONS:
                return False
        elif isinstance(node, ast.Import) and any(
            a.name.split(".")[0] in _READS_ANNOTATIONS for a in node.names
        ):
            return False
    return future


def _bare(tree: ast.Module, *, typing: bool) -> str:
    """The tree's dump without docstrings; with `typing`, without the annotations nothing
    reads at run time: those of an undecorated function, and in a module, a function or a
    class neither decorated nor derived, `x: T` dropped and `x: T = v` read as `x = v`
    (a dataclass's, a model's or a decorated endpoint's annotations are behaviour)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body[1:] if docstring(node) else node.body
        plain = isinstance(node, ast.Module) or not (
            node.decorator_list
            or (isinstance(node, ast.ClassDef) and (node.bases or node.keywords))
        )
        if typing and plain:
            body = [_unannotated(s) for s in body if not _bare_annotation(s)]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                node.returns = None
                arguments = node.args
                for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
                    arg.annotation = None
                for extra in (arguments.vararg, arguments.kwarg):
                    if extra is not None:
                        extra.annotation = None
        node.body = body
    return dumped(tree)


def _bare_annotation(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.AnnAssign) and statement.value is None


def _unannotated(statement: ast.stmt) -> ast.stmt:
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        return ast.Assign(targets=[statement.target], value=statement.value, lineno=0)
    return statement
