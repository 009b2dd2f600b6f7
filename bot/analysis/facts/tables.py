"""Literal tables: names bound to a dict with string keys, a list, tuple or set of strings,
or a `Literal[...]` alias, with the strings they hold."""

from __future__ import annotations

import ast

# what a table's strings are: a dict's keys, or the members of a list, set or Literal
KEYS = "keys"
VALUES = "values"
# builtins that make a container of the literal they are given (`frozenset({"a", "b"})`)
_WRAPPERS = frozenset({"frozenset", "set", "tuple", "list"})

# kind and strings in order; None for a name bound otherwise, or more than once
Table = tuple[str, tuple[str, ...]] | None


def _strings(nodes: list[ast.expr | None]) -> tuple[str, ...] | None:
    """The strings of a literal's items, when every one is a string written out."""
    out = [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return tuple(dict.fromkeys(out)) if nodes and len(out) == len(nodes) else None


def _last(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def table_of(value: ast.expr | None) -> Table:
    """What a value written out holds, when it is a table: `{"a": 1}` keys, `["a"]`,
    `("a",)`, `{"a"}` or `frozenset({"a"})` values, `Literal["a", "b"]` values."""
    if isinstance(value, ast.Call) and _last(value.func) in _WRAPPERS:
        if not isinstance(value.func, ast.Name) or len(value.args) != 1 or value.keywords:
            return None
        value = value.args[0]
        if isinstance(value, ast.Dict):
            return None
    if isinstance(value, ast.Dict):
        keys = _strings(list(value.keys))
        return None if keys is None else (KEYS, keys)
    if isinstance(value, ast.List | ast.Tuple | ast.Set):
        found = _strings(list(value.elts))
        return None if found is None else (VALUES, found)
    if isinstance(value, ast.Subscript) and _last(value.value) == "Literal":
        inner = value.slice
        found = _strings(list(inner.elts) if isinstance(inner, ast.Tuple) else [inner])
        return None if found is None else (VALUES, found)
    return None


def bind(node: ast.stmt, prefix: str, tables: dict[str, Table]) -> None:
    """Note the names a module's or class's statement binds (`prefix`: the class's, `C.`):
    a table's strings, or None for any other binding, or a second one."""
    value: ast.expr | None = None
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        targets = [node.target]
        value = node.value if isinstance(node, ast.AnnAssign) else None
    elif type(node).__name__ == "TypeAlias":  # `type X = Literal[...]` (Python 3.12)
        targets, value = [node.name], node.value  # type: ignore[attr-defined]
    for target in targets:
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            # `HANDLERS["toml"] = 3`: the literal is not the whole table
            tables[prefix + target.value.id] = None
            continue
        if not isinstance(target, ast.Name) or target.id.startswith("__"):
            continue
        name = prefix + target.id
        tables[name] = None if name in tables else table_of(value)


# methods that change a table in place
_MUTATORS = frozenset({"update", "append", "extend", "add", "insert", "setdefault", "pop"})


def mutate(node: ast.stmt, prefix: str, tables: dict[str, Table]) -> None:
    """A statement that changes a table in place (`HANDLERS.update(…)`): not its literal's."""
    call = node.value if isinstance(node, ast.Expr) else None
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in _MUTATORS
        and isinstance(call.func.value, ast.Name)
    ):
        tables[prefix + call.func.value.id] = None


def merge(into: dict[str, Table], tables: dict[str, Table]) -> None:
    """Add one unit's tables to a side's: a name bound in two units is bound twice."""
    for name, found in tables.items():
        into[name] = None if name in into else found
