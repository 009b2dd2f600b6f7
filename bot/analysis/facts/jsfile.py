"""A whole JavaScript or TypeScript file parsed with tree-sitter into one side's symbol table."""

from __future__ import annotations

import re

import tree_sitter

from bot.analysis.facts.records import NameKind
from bot.analysis.facts.scan import Side
from bot.analysis.facts.sitter import ENV_NAME, code, digest, found, parse, string_value, text

_FUNCTIONS = ("function_declaration", "generator_function_declaration")
_CLASSES = ("class_declaration", "abstract_class_declaration")
# TypeScript's types: removing an exported one breaks its importers as a class would, and
# an interface replaced by a type alias is not gone.
_TYPES = ("interface_declaration", "enum_declaration", "type_alias_declaration")
_FUNCTION_VALUES = ("arrow_function", "function_expression", "function", "generator_function")
# `test("name", fn)`, `it.only("name", fn)`: Jest, Vitest, Mocha, node:test.
_TEST_MODIFIERS = frozenset({"only", "skip", "concurrent", "todo", "failing"})
# `it` or `test` where a call of it may start (`test(`, `it.only(`): the word alone is in
# most lines of a test file
_TEST_WORDS = re.compile(rb"\b(?:it|test)\b(?=(?:\s*\.\s*\w+)*\s*\()")
_PROCESS_ENV = re.compile(rb"\bprocess\s*\.\s*env\b")
# A body this small (`{}`, `{ return 0; }`) says nothing about where it came from.
_MIN_BODY = 60


def script_side(source: str, side: Side, *, grammar: str, tests: bool) -> bool:
    """Fill `side` from a JavaScript (`grammar` "javascript") or TypeScript ("typescript",
    "tsx") file's whole text; False when it cannot be read. `tests`: a test file, whose
    `test(…)`/`it(…)` calls are tests."""
    root = parse(source, grammar)
    if root is None:
        return False
    exported: set[str] = set()
    for child in root.named_children:
        _statement(child, side, exported)
    # Each name its module does not export is its own: `export { a }` may come after `a`.
    side.private.update(
        name
        for name in (*side.defs, *side.fields)
        if name.split(".", 1)[0] not in exported and name.split(".", 1)[0] not in side.exports
    )
    if tests:
        _tests(root, side)
    _env(root, side)
    return True


def _statement(node: tree_sitter.Node, side: Side, exported: set[str]) -> None:
    if node.type == "export_statement":
        _export(node, side, exported)
    elif node.type == "import_statement":
        _import(node, side)
    elif node.type == "expression_statement":
        _assignment(node, side, exported)
    else:
        _declaration(node, side, exported=None)
        if node.type in ("lexical_declaration", "variable_declaration"):
            exported.update(_module_objects(node))


def _module_objects(node: tree_sitter.Node) -> list[str]:
    """`var app = exports = module.exports = {}`: `app` is what the module exports."""
    names = []
    for declarator in node.named_children:
        value = declarator.child_by_field_name("value")
        while value is not None and value.type == "assignment_expression":
            if text(value.child_by_field_name("left")) in ("exports", "module.exports"):
                names.append(text(declarator.child_by_field_name("name")))
                break
            value = value.child_by_field_name("right")
    return names


def _declaration(node: tree_sitter.Node, side: Side, *, exported: set[str] | None) -> None:
    """A top-level function, class, interface, enum or `const f = () => …`; its name added
    to `exported` when the declaration is exported."""
    names: list[str] = []
    if node.type in _FUNCTIONS:
        name = text(node.child_by_field_name("name"))
        if name:
            _function(node, side, name, kind=NameKind.FUNCTION)
            names.append(name)
    elif node.type in ("lexical_declaration", "variable_declaration"):
        for declarator in node.named_children:
            value = declarator.child_by_field_name("value")
            name_node = declarator.child_by_field_name("name")
            if (
                declarator.type == "variable_declarator"
                and value is not None
                and value.type in _FUNCTION_VALUES
                and name_node is not None
                and name_node.type == "identifier"
            ):
                _function(value, side, text(name_node), kind=NameKind.FUNCTION, whole=declarator)
                names.append(text(name_node))
    elif node.type in _CLASSES:
        name = text(node.child_by_field_name("name"))
        if name:
            _class(node, side, name)
            names.append(name)
    elif node.type in _TYPES:
        name = text(node.child_by_field_name("name"))
        if name:
            side.defs[name] = (NameKind.CLASS, digest(code(node)))
            names.append(name)
    if exported is not None:
        exported.update(names)


def _function(
    node: tree_sitter.Node,
    side: Side,
    qualified: str,
    *,
    kind: NameKind,
    whole: tree_sitter.Node | None = None,
) -> None:
    """A function or method: its definition, its body, its parameters' defaults. Functions
    declared inside it are its own, never names of the module or members of a class."""
    body = node.child_by_field_name("body")
    if body is None:
        # an overload's or a declaration file's signature: the implementation is the name
        return
    definition = digest(code(whole or node))
    if qualified in side.defs:
        # a getter and its setter share a name: either changing changes it
        definition = digest(side.defs[qualified][1], definition)
    side.defs[qualified] = (kind, definition)
    body_text = code(body)
    if len(body_text) >= _MIN_BODY:
        side.bodies[qualified] = digest(body_text)
    parameters = node.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters is not None else []:
        if parameter.type == "assignment_pattern":
            name, value = (
                parameter.child_by_field_name("left"),
                parameter.child_by_field_name("right"),
            )
        elif parameter.type in ("required_parameter", "optional_parameter"):
            name, value = (
                parameter.child_by_field_name("pattern"),
                parameter.child_by_field_name("value"),
            )
        else:
            continue
        if name is not None and value is not None and name.type == "identifier":
            side.params[f"{qualified}({text(name)})"] = text(value)


def _class(node: tree_sitter.Node, side: Side, name: str) -> None:
    body = node.child_by_field_name("body")
    members = body.named_children if body is not None else []
    # the class's own code: its heading and members, its methods aside (they are names of
    # their own)
    own = [code(c) for c in node.children if c != body and c.type != "comment"]
    own += [code(m) for m in members if m.type not in ("method_definition", "comment")]
    side.defs[name] = (NameKind.CLASS, digest(*own))
    for member in members:
        if member.type not in ("method_definition", "public_field_definition", "field_definition"):
            continue
        key = member.child_by_field_name("name") or member.child_by_field_name("property")
        qualified = f"{name}.{text(key)}"
        if member.type == "method_definition":
            _function(member, side, qualified, kind=NameKind.METHOD)
            if not _visible(member, key):
                side.private.add(qualified)
        elif (value := member.child_by_field_name("value")) is not None:
            side.fields[qualified] = text(value)
            if not _visible(member, key):
                side.private.add(qualified)


def _visible(member: tree_sitter.Node, key: tree_sitter.Node | None) -> bool:
    """Not `#private`, nor TypeScript's `private` or `protected`."""
    if key is not None and key.type == "private_property_identifier":
        return False
    return not any(
        c.type == "accessibility_modifier" and text(c) in ("private", "protected")
        for c in member.named_children
    )


def _export(node: tree_sitter.Node, side: Side, exported: set[str]) -> None:
    declaration = node.child_by_field_name("declaration")
    value = node.child_by_field_name("value")
    if declaration is not None:
        _declaration(declaration, side, exported=exported)
    elif value is not None and value.type in (*_FUNCTIONS, *_CLASSES):
        # `export default function name() {}`: a name of its own, exported
        _declaration(value, side, exported=exported)
    elif value is not None and value.type == "identifier":
        # `export default Foo;`
        exported.add(text(value))
    elif node.child_by_field_name("source") is not None and not any(
        c.type in ("export_clause", "namespace_export") for c in node.named_children
    ):
        # `export * from "./x"`: whatever `x` exports, so any name may still be provided
        side.lazy = True
    for clause in node.named_children:
        if clause.type == "export_clause":
            for specifier in clause.named_children:
                alias = specifier.child_by_field_name("alias")
                name = specifier.child_by_field_name("name")
                if name is not None:
                    side.exports.add(text(alias or name))
                    # `export { a as b }`: the local `a` is exported, under another name
                    exported.add(text(name))
        elif clause.type == "namespace_export":
            side.exports.update(text(c) for c in clause.named_children if c.type == "identifier")


def _import(node: tree_sitter.Node, side: Side) -> None:
    source = string_value(node.child_by_field_name("source")) or ""
    for clause in node.named_children:
        if clause.type != "import_clause":
            continue
        for part in clause.named_children:
            if part.type == "identifier":
                side.imports[text(part)] = source
            elif part.type == "namespace_import":
                side.imports.update((text(c), source) for c in part.named_children)
            elif part.type == "named_imports":
                for specifier in part.named_children:
                    bound = specifier.child_by_field_name("alias") or specifier.child_by_field_name(
                        "name"
                    )
                    if bound is not None:
                        side.imports[text(bound)] = source


def _assignment(node: tree_sitter.Node, side: Side, exported: set[str]) -> None:
    """CommonJS's exports (`module.exports = { a, b }` or `= a`, `exports.a = …`) and the
    functions a module assigns: `X.prototype.m = function` is the method `X.m`, and
    `res.send = function` the function `res.send`, exported as `res` is."""
    assignment = node.named_children[0] if node.named_children else None
    if assignment is None or assignment.type != "assignment_expression":
        return
    left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    if left is None or right is None:
        return
    if text(left) == "module.exports":
        if right.type == "identifier":
            exported.add(text(right))
        for entry in right.named_children if right.type == "object" else []:
            key = (
                entry
                if entry.type == "shorthand_property_identifier"
                else entry.child_by_field_name("key")
            )
            if key is not None:
                side.exports.add(text(key))
        return
    target = left.child_by_field_name("object")
    if left.type != "member_expression" or target is None:
        return
    owner, name = text(target), text(left.child_by_field_name("property"))
    function = right.type in _FUNCTION_VALUES
    if owner in ("exports", "module.exports"):
        if not function:
            side.exports.add(name)
            return
        # `exports.f = function` is CommonJS's `export function f`
        _function(right, side, name, kind=NameKind.FUNCTION, whole=assignment)
        exported.add(name)
    elif function and target.type == "identifier":
        _function(right, side, f"{owner}.{name}", kind=NameKind.FUNCTION, whole=assignment)
    elif (
        function
        and target.type == "member_expression"
        and text(target.child_by_field_name("property")) == "prototype"
    ):
        owner = text(target.child_by_field_name("object"))
        _function(right, side, f"{owner}.{name}", kind=NameKind.METHOD, whole=assignment)


def _tests(root: tree_sitter.Node, side: Side) -> None:
    """Each `test("name", fn)`/`it("name", fn)` by its name as written: the suites around it
    (`describe("…")`) are not part of a name the code holds."""
    for node in found(root, _TEST_WORDS):
        callee = node
        while (
            callee.parent is not None
            and callee.parent.type == "member_expression"
            and callee.parent.child_by_field_name("object") == callee
        ):
            callee = callee.parent
        call = callee.parent
        if (
            node.type != "identifier"
            or call is None
            or call.type != "call_expression"
            or call.child_by_field_name("function") != callee
            or not set(text(callee).split(".")[1:]) <= _TEST_MODIFIERS
        ):
            continue
        arguments = call.child_by_field_name("arguments")
        given = arguments.named_children if arguments is not None else []
        name = string_value(given[0]) if given else None
        if name is None or name in side.tests:
            continue
        side.tests.append(name)
        body = given[-1].child_by_field_name("body")
        if body is not None and len(code(body)) >= _MIN_BODY:
            side.bodies[name] = digest(code(body))


def _env(root: tree_sitter.Node, side: Side) -> None:
    """`process.env.X`, `process.env["X"]` and `const { X = "d" } = process.env` read (an
    assignment to one sets it for a child process), with a `?? "d"` or `|| "d"` default."""
    for env in found(root, _PROCESS_ENV):
        read = env.parent
        if env.type != "member_expression" or read is None:
            continue
        if read.type == "variable_declarator" and read.child_by_field_name("value") == env:
            _destructured(read.child_by_field_name("name"), side)
            continue
        if read.type == "member_expression" and read.child_by_field_name("object") == env:
            key = read.child_by_field_name("property")
            variable = text(key) if key is not None and key.type == "property_identifier" else None
        elif read.type == "subscript_expression" and read.child_by_field_name("object") == env:
            variable = string_value(read.child_by_field_name("index"))
        else:
            continue
        parent = read.parent
        if variable is None or not ENV_NAME.fullmatch(variable):
            continue
        if (
            parent is not None
            and parent.type == "assignment_expression"
            and parent.child_by_field_name("left") == read
        ):
            continue
        default = None
        if (
            parent is not None
            and parent.type == "binary_expression"
            and parent.child_by_field_name("left") == read
            and text(parent.child_by_field_name("operator")) in ("??", "||")
        ):
            default = text(parent.child_by_field_name("right"))[:80]
        if side.env.get(variable) is None:
            side.env[variable] = default


def _destructured(pattern: tree_sitter.Node | None, side: Side) -> None:
    for entry in pattern.named_children if pattern is not None else []:
        if entry.type not in ("shorthand_property_identifier_pattern", "object_assignment_pattern"):
            continue
        # `{ X }` reads `X`; `{ X = "d" }` reads it with a default
        key = entry.child_by_field_name("left") or entry
        value = entry.child_by_field_name("right")
        variable = text(key)
        if ENV_NAME.fullmatch(variable) and side.env.get(variable) is None:
            side.env[variable] = text(value)[:80] if value is not None else None
