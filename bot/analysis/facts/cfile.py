"""A whole C, C++ or CUDA file parsed with tree-sitter into one side's symbol table."""

from __future__ import annotations

import hashlib
import re
from functools import cache

import tree_sitter
import tree_sitter_cpp

from bot.analysis.facts.records import NameKind, Registry
from bot.analysis.facts.scan import Side

# `TEST(Suite, Name) { … }` parses as a function named `TEST`: GoogleTest's test cases.
_TEST_MACROS = frozenset({"TEST", "TEST_F", "TEST_P", "TYPED_TEST"})
# A compiler attribute (`__launch_bounds__`, `__cluster_dims__`) or a macro's name is never
# a function's: tree-sitter reads `MACRO(arg) { … }` as a definition of `MACRO`.
_NOT_A_NAME = re.compile(r"__\w+__|[A-Z][A-Z0-9_]*")
_ENV_NAME = re.compile(r'"([A-Z][A-Z0-9_]{2,})"')
_TORCH_OP = re.compile(r'"([A-Za-z_]\w*)(?:\.\w+)?\(')
_MIN_BODY = 60
# What is not code: comments and string literals, blanked before the words of a file are read.
_NOT_CODE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.DOTALL)
_WORD = re.compile(r"[A-Za-z_]\w*")


@cache
def _parser() -> tree_sitter.Parser:
    # The C++ grammar reads C and CUDA too: `__global__` is taken as a type name.
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_cpp.language()))


def clike_side(text: str, side: Side, *, tests: bool) -> bool:
    """Fill `side` from a C-family file's whole text; False when it cannot be read."""
    try:
        tree = _parser().parse(text.encode("utf-8", "surrogatepass"))
    except (ValueError, UnicodeError):
        return False
    _walk(tree.root_node, side, scope="", tests=tests)
    return True


def keep_named(before: str, after: str, minus: Side, plus: Side) -> None:
    """A definition one side's table lacks while that side's code still names it was not
    added or removed, only not seen: tree-sitter recovers from what it cannot parse (a
    macro, one half of an `#if`) by dropping nodes. Such a name is kept on both sides, as it
    was: from the tables alone, say less."""
    for text, have, lack in ((after, minus, plus), (before, plus, minus)):
        lost = [n for n in have.defs if n not in lack.defs]
        if not lost or not text:
            continue
        words = set(_WORD.findall(_NOT_CODE.sub(" ", text)))
        for name in lost:
            if name.rsplit("::", 1)[-1] in words:
                lack.defs[name] = have.defs[name]


def _digest(data: bytes) -> str:
    return hashlib.blake2b(b" ".join(data.split()), digest_size=12).hexdigest()


def _walk(node: tree_sitter.Node, side: Side, *, scope: str, tests: bool) -> None:
    for child in node.named_children:
        if child.type == "function_definition":
            _function(child, side, scope=scope, tests=tests)
        elif child.type in ("class_specifier", "struct_specifier"):
            name = child.child_by_field_name("name")
            body = child.child_by_field_name("body")
            if name is None or body is None:
                continue
            qualified = f"{scope}{_text(name)}"
            side.defs[qualified] = (NameKind.CLASS, _digest(_text(body).encode()))
            _walk(body, side, scope=f"{qualified}::", tests=tests)
        elif child.type in ("namespace_definition", "linkage_specification"):
            body = child.child_by_field_name("body")
            if body is not None:
                _walk(body, side, scope=scope, tests=tests)
        elif (
            child.type in ("template_declaration", "declaration_list", "field_declaration_list")
            or child.type == "preproc_ifdef"
            or child.type.startswith("preproc_if")
        ):
            _walk(child, side, scope=scope, tests=tests)
        else:
            _calls(child, side)


def _function(node: tree_sitter.Node, side: Side, *, scope: str, tests: bool) -> None:
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    body = node.child_by_field_name("body")
    if declarator is None or body is None:
        return
    name_node = declarator.child_by_field_name("declarator")
    name = _text(name_node) if name_node is not None else ""
    _calls(body, side)
    if name in _TEST_MACROS:
        if tests:
            params = declarator.child_by_field_name("parameters")
            parts = [_text(p) for p in params.named_children] if params else []
            if len(parts) == 2:
                side.tests.append(".".join(parts))
        return
    if node.child_by_field_name("type") is None or _NOT_A_NAME.fullmatch(name.split("::")[-1]):
        return
    prefix = _text(node)[: declarator.start_byte - node.start_byte]
    if re.search(r"\bstatic\b", prefix) and not scope:
        return
    qualified = f"{scope}{name}"
    kind = NameKind.KERNEL if "__global__" in prefix else NameKind.FUNCTION
    if kind is NameKind.FUNCTION and "::" in qualified:
        kind = NameKind.METHOD
    signature = _text(declarator)
    side.defs[qualified] = (kind, _digest(f"{prefix}{signature}{_text(body)}".encode()))
    if body.end_byte - body.start_byte >= _MIN_BODY:
        side.bodies[qualified] = _digest(_text(body).encode())


def _calls(node: tree_sitter.Node, side: Side) -> None:
    """Environment reads and operator registrations: calls in the code, never comments."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            function = current.child_by_field_name("function")
            arguments = current.child_by_field_name("arguments")
            callee = _text(function) if function is not None else ""
            args = _text(arguments) if arguments is not None else ""
            if callee.endswith("getenv") and (env := _ENV_NAME.match(args.strip("( "))):
                side.env.setdefault(env.group(1), None)
            elif callee.endswith(".def") and (op := _TORCH_OP.match(args.strip("( "))):
                side.registrations[op.group(1)] = (Registry.OPERATOR, callee)
        stack.extend(c for c in current.named_children if c.type != "comment")


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")
