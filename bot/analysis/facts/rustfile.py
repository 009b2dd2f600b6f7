"""A whole Rust file parsed with tree-sitter into one side's symbol table."""

from __future__ import annotations

import re

import tree_sitter

from bot.analysis.facts.records import NameKind
from bot.analysis.facts.scan import Side
from bot.analysis.facts.sitter import code, digest, env_reads, parse, text

_GRAMMAR = "rust"
# a type replaced by an alias (`pub type Foo = Bar;`) is not gone
_TYPES = ("struct_item", "enum_item", "union_item", "trait_item", "type_item")
# `#[test]`, `#[tokio::test]`, `#[async_std::test]`: an attribute whose path ends in `test`.
_TEST_ATTRIBUTE = re.compile(r"#\[\s*(?:[\w:]+::)?test\s*\]")
_ENV_READERS = frozenset({"env::var", "env::var_os", "std::env::var", "std::env::var_os"})
_ENV_CALL = re.compile(rb"\benv\s*::\s*var(?:_os)?\b")
# `env::var("X").unwrap_or(…)`: the fallback is the variable's default, as written.
_DEFAULTS = frozenset({"unwrap_or", "unwrap_or_else"})
# A body this small (`{}`, `{ 0 }`) says nothing about where it came from.
_MIN_BODY = 60


def rust_side(source: str, side: Side, *, tests: bool) -> bool:
    """Fill `side` from a Rust file's whole text; False when it cannot be read."""
    root = parse(source, _GRAMMAR)
    if root is None:
        return False
    private_types = {
        text(n.child_by_field_name("name"))
        for n in root.named_children
        if n.type in _TYPES and not _pub(n)
    }
    _items(root, side, scope="", visible=True, private_types=private_types)
    _env(root, side)
    return True


def _pub(node: tree_sitter.Node) -> bool:
    """Declared `pub` (not `pub(crate)` or `pub(super)`: those stay inside the crate)."""
    return any(c.type == "visibility_modifier" and text(c) == "pub" for c in node.named_children)


def _items(
    node: tree_sitter.Node, side: Side, *, scope: str, visible: bool, private_types: set[str]
) -> None:
    attributes: list[str] = []
    for child in node.named_children:
        if child.type == "attribute_item":
            attributes.append(text(child))
            continue
        if child.type == "function_item":
            _function(child, side, scope=scope, visible=visible, attributes=attributes)
        elif child.type in _TYPES:
            name = text(child.child_by_field_name("name"))
            qualified = f"{scope}{name}"
            side.defs[qualified] = (NameKind.CLASS, digest(code(child)))
            if not (visible and _pub(child)):
                side.private.add(qualified)
            if child.type == "struct_item":
                _fields(child, side, qualified)
            if child.type == "trait_item" and (body := child.child_by_field_name("body")):
                # a trait's provided methods are as visible as the trait
                _items(
                    body,
                    side,
                    scope=f"{qualified}::",
                    visible=qualified not in side.private,
                    private_types=private_types,
                )
        elif child.type == "impl_item":
            _impl(child, side, scope=scope, visible=visible, private_types=private_types)
        elif child.type == "mod_item" and (body := child.child_by_field_name("body")):
            name = text(child.child_by_field_name("name"))
            _items(
                body,
                side,
                scope=f"{scope}{name}::",
                visible=visible and _pub(child),
                private_types=private_types,
            )
        elif child.type == "use_declaration":
            _use(child, side, exported=visible and _pub(child) and not scope)
        attributes = []


def _fields(node: tree_sitter.Node, side: Side, qualified: str) -> None:
    """A struct's fields without `pub` (or of a private struct) are private: their defaults
    are nobody else's."""
    body = node.child_by_field_name("body")
    for field in body.named_children if body is not None else []:
        name = field.child_by_field_name("name")
        if (
            field.type == "field_declaration"
            and name is not None
            and (qualified in side.private or not _pub(field))
        ):
            side.private.add(f"{qualified}::{text(name)}")


def _function(
    node: tree_sitter.Node, side: Side, *, scope: str, visible: bool, attributes: list[str]
) -> None:
    body = node.child_by_field_name("body")
    if body is None:
        return
    qualified = f"{scope}{text(node.child_by_field_name('name'))}"
    body_text = code(body)
    if len(body_text) >= _MIN_BODY:
        side.bodies[qualified] = digest(body_text)
    if any(_TEST_ATTRIBUTE.search(a) for a in attributes):
        side.tests.append(qualified)
        return
    # Functions nested in a function body are its own, never names of the module.
    kind = NameKind.METHOD if scope.endswith("::") and _in_impl(node) else NameKind.FUNCTION
    side.defs[qualified] = (kind, digest(*attributes, code(node)))
    if not (visible and (_pub(node) or _in_trait(node))):
        side.private.add(qualified)


def _in_impl(node: tree_sitter.Node) -> bool:
    parent = node.parent
    grand = parent.parent if parent is not None else None
    return grand is not None and grand.type in ("impl_item", "trait_item")


def _in_trait(node: tree_sitter.Node) -> bool:
    """A method of a trait, or of a trait's impl: visible as the trait is, with no `pub`."""
    parent = node.parent
    grand = parent.parent if parent is not None else None
    return grand is not None and (
        grand.type == "trait_item"
        or (grand.type == "impl_item" and grand.child_by_field_name("trait") is not None)
    )


def _type_name(node: tree_sitter.Node | None) -> str:
    """`Foo` of `Foo<T>`, `crate::a::Foo`, `&Foo`."""
    while node is not None and node.type in (
        "generic_type",
        "reference_type",
        "scoped_type_identifier",
    ):
        node = node.child_by_field_name("name" if node.type == "scoped_type_identifier" else "type")
    return text(node)


def _impl(
    node: tree_sitter.Node, side: Side, *, scope: str, visible: bool, private_types: set[str]
) -> None:
    body = node.child_by_field_name("body")
    type_name = _type_name(node.child_by_field_name("type"))
    if body is None or not type_name:
        return
    trait = _type_name(node.child_by_field_name("trait"))
    _items(
        body,
        side,
        scope=f"{scope}{type_name}::",
        visible=visible and type_name not in private_types,
        private_types=private_types,
    )
    if trait == "Default":
        _defaults(body, side, type_name)


def _defaults(body: tree_sitter.Node, side: Side, type_name: str) -> None:
    """`impl Default for T { fn default() -> Self { T { a: 1, … } } }`: each field's default."""
    for function in body.named_children:
        if (
            function.type != "function_item"
            or text(function.child_by_field_name("name")) != "default"
        ):
            continue
        block = function.child_by_field_name("body")
        last = block.named_children[-1] if block is not None and block.named_children else None
        if last is None or last.type != "struct_expression":
            continue
        fields = last.child_by_field_name("body")
        for field in fields.named_children if fields is not None else []:
            name, value = field.child_by_field_name("field"), field.child_by_field_name("value")
            if field.type == "field_initializer" and name is not None and value is not None:
                side.fields[f"{type_name}::{text(name)}"] = text(value)


def _use(node: tree_sitter.Node, side: Side, *, exported: bool) -> None:
    """The names a `use` binds (`use a::{b, c as d}` binds `b` and `d`); a `pub use` at the
    top of a file re-exports them."""
    stack = [node.child_by_field_name("argument")]
    while stack:
        current = stack.pop()
        if current is None:
            continue
        if current.type == "use_as_clause":
            bound = text(current.child_by_field_name("alias"))
        elif current.type in ("scoped_identifier", "identifier"):
            bound = text(current.child_by_field_name("name") or current)
        elif current.type == "scoped_use_list":
            stack.append(current.child_by_field_name("list"))
            continue
        elif current.type == "use_list":
            stack.extend(current.named_children)
            continue
        else:
            continue
        if bound and bound != "self":
            side.imports[bound] = text(current.child_by_field_name("path") or current)
            if exported:
                side.exports.add(bound)


def _env(root: tree_sitter.Node, side: Side) -> None:
    """`std::env::var("X")` and `env::var_os("X")` calls, with an `.unwrap_or(…)` default."""
    for variable, call in env_reads(root, _ENV_CALL, _ENV_READERS):
        if side.env.get(variable) is None:
            side.env[variable] = _fallback(call)


def _fallback(call: tree_sitter.Node) -> str | None:
    chain = call.parent
    if chain is None or chain.type != "field_expression":
        return None
    method = text(chain.child_by_field_name("field"))
    outer = chain.parent
    arguments = outer.child_by_field_name("arguments") if outer is not None else None
    if method not in _DEFAULTS or arguments is None or not arguments.named_children:
        return None
    value = arguments.named_children[0]
    if value.type == "closure_expression":
        value = value.child_by_field_name("body") or value
    return text(value)[:80]
