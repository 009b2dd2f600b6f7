"""A whole Go file parsed with tree-sitter into one side's symbol table."""

from __future__ import annotations

import re

import tree_sitter

from bot.analysis.facts.records import NameKind
from bot.analysis.facts.scan import Side
from bot.analysis.facts.sitter import code, digest, env_reads, parse, text

_GRAMMAR = "go"
# `go test` runs `func TestXxx(t *testing.T)` of a `_test.go` file, where `Xxx` does not
# start with a lower-case letter (`Testify` is not a test).
_TEST_NAME = re.compile(r"Test(?![a-z])\w*")
_ENV_READERS = frozenset({"os.Getenv", "os.LookupEnv", "syscall.Getenv"})
_ENV_CALL = re.compile(rb"\b(?:os|syscall)\s*\.\s*(?:Getenv|LookupEnv)\b")
# A body this small (`{}`, `{ return nil }`) says nothing about where it came from.
_MIN_BODY = 60


def go_side(source: str, side: Side, *, tests: bool) -> bool:
    """Fill `side` from a Go file's whole text; False when it cannot be read. `tests`: the
    file is a `_test.go` file, whose `TestXxx(t *testing.T)` functions are tests."""
    root = parse(source, _GRAMMAR)
    if root is None:
        return False
    for child in root.named_children:
        if child.type in ("function_declaration", "method_declaration"):
            _function(child, side, tests=tests)
        elif child.type == "type_declaration":
            for spec in child.named_children:
                # `type T struct{…}` and `type T = U`: a type replaced by an alias is not gone
                if spec.type not in ("type_spec", "type_alias"):
                    continue
                name = text(spec.child_by_field_name("name"))
                side.defs[name] = (NameKind.CLASS, digest(code(spec)))
                if not _exported(name):
                    side.private.add(name)
        elif child.type in ("var_declaration", "const_declaration"):
            # `var engine = sync.OnceValue(…)`: a function replaced by a variable of its name
            # is still there for callers
            specs = [
                inner
                for spec in child.named_children
                for inner in (spec.named_children if spec.type.endswith("_list") else [spec])
            ]
            for spec in specs:
                for name_node in spec.children_by_field_name("name"):
                    side.assigned.add(text(name_node))
    for variable, _ in env_reads(root, _ENV_CALL, _ENV_READERS):
        side.env.setdefault(variable, None)
    return True


def _exported(name: str) -> bool:
    """Go's rule: a name is exported when it starts with an upper-case letter."""
    return name[:1].isupper()


def _function(node: tree_sitter.Node, side: Side, *, tests: bool) -> None:
    body = node.child_by_field_name("body")
    if body is None:
        # a function implemented elsewhere (assembly): its declaration alone
        return
    name = text(node.child_by_field_name("name"))
    receiver = _receiver(node.child_by_field_name("receiver"))
    # `T.Method`, as the Go documentation names a method
    qualified = f"{receiver}.{name}" if receiver else name
    body_text = code(body)
    if len(body_text) >= _MIN_BODY:
        side.bodies[qualified] = digest(body_text)
    if tests and not receiver and _TEST_NAME.fullmatch(name) and _takes_testing_t(node):
        side.tests.append(name)
        return
    kind = NameKind.METHOD if receiver else NameKind.FUNCTION
    side.defs[qualified] = (kind, digest(code(node)))
    # A method of an unexported type is not part of the package's API either.
    if not _exported(name) or (receiver and not _exported(receiver)):
        side.private.add(qualified)


def _receiver(parameters: tree_sitter.Node | None) -> str:
    """`Server` of `(s *Server)` or `(s Server[T])`; '' for a function."""
    if parameters is None:
        return ""
    for parameter in parameters.named_children:
        node = parameter.child_by_field_name("type")
        while node is not None and node.type in (
            "pointer_type",
            "generic_type",
            "parenthesized_type",
        ):
            node = (
                node.child_by_field_name("type")
                if node.type == "generic_type"
                else (node.named_children[0] if node.named_children else None)
            )
        return text(node)
    return ""


def _takes_testing_t(node: tree_sitter.Node) -> bool:
    parameters = node.child_by_field_name("parameters")
    found = [p for p in parameters.named_children] if parameters is not None else []
    return (
        len(found) == 1
        and " ".join(text(found[0].child_by_field_name("type")).split()) == "*testing.T"
    )
