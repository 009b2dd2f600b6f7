"""The strings a Python module's table holds, read by the claims checker's own rules.

A table is a name (`WS_PROTOCOLS`, a class's `Shell.names`) that the module body or the
class body (their `if` and `try` blocks included) binds exactly once, to a dict written out
(its keys, each a string) or to a list, tuple, set or `frozenset(...)` of strings, or to a
`Literal[...]` of strings (its values).
"""

from __future__ import annotations

import ast

from bot.cli.symbols import Unreadable

KEYS = "keys"
VALUES = "values"


def _blocks(node: ast.stmt) -> list[list[ast.stmt]]:
    parts: list[list[ast.stmt]] = [getattr(node, p, []) for p in ("body", "orelse", "finalbody")]
    return parts + [h.body for h in getattr(node, "handlers", [])]


def _bindings(tree: ast.Module, name: str) -> list[ast.expr | None]:
    """The values each statement of the module's or its classes' bodies binds `name` to
    (None: a binding without a value written, an augmented one, or a `def`/`class`)."""
    scope, _, short = name.rpartition(".")
    found: list[ast.expr | None] = []

    def walk(body: list[ast.stmt], at: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                if at == scope and node.name == short:
                    found.append(None)
                walk(node.body, f"{at}.{node.name}" if at else node.name)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if at == scope and node.name == short:
                    found.append(None)
            elif isinstance(node, ast.If | ast.Try | ast.With):
                walk([s for block in _blocks(node) for s in block], at)
            elif at == scope:
                found.extend(_bound(node, short))

    walk(tree.body, "")
    return found


def _bound(node: ast.stmt, short: str) -> list[ast.expr | None]:
    if isinstance(node, ast.Assign):
        hits = sum(isinstance(t, ast.Name) and t.id == short for t in node.targets)
        return [node.value] * hits
    if isinstance(node, ast.AnnAssign | ast.AugAssign):
        if isinstance(node.target, ast.Name) and node.target.id == short:
            return [node.value if isinstance(node, ast.AnnAssign) else None]
        return []
    if type(node).__name__ == "TypeAlias":
        alias = getattr(node, "name", None)
        if isinstance(alias, ast.Name) and alias.id == short:
            return [getattr(node, "value", None)]
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [None for a in node.names if (a.asname or a.name.split(".")[0]) == short]
    return []


def _literal_strings(nodes: list[ast.expr]) -> list[str] | None:
    try:
        values = [ast.literal_eval(n) for n in nodes]
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None
    return values if all(isinstance(v, str) for v in values) else None


def _read(value: ast.expr | None) -> tuple[str, list[str]] | None:
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in ("frozenset", "set", "tuple", "list")
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], ast.List | ast.Tuple | ast.Set)
    ):
        value = value.args[0]
    if isinstance(value, ast.Dict):
        if any(k is None for k in value.keys):
            return None  # `**other`: keys come from elsewhere
        keys = _literal_strings([k for k in value.keys if k is not None])
        return None if keys is None else (KEYS, keys)
    if isinstance(value, ast.List | ast.Tuple | ast.Set):
        found = _literal_strings(list(value.elts))
        return None if found is None else (VALUES, found)
    if isinstance(value, ast.Subscript):
        head = value.value
        last = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", "")
        if last == "Literal":
            inner = value.slice
            found = _literal_strings(list(inner.elts) if isinstance(inner, ast.Tuple) else [inner])
            return None if found is None else (VALUES, found)
    return None


def python_table(text: str, name: str) -> tuple[str, list[str]] | None:
    """(`keys` or `values`, the strings) of the table `name` is in the Python file; None
    when the file binds it not at all, more than once, or to anything else. Unreadable
    when the file does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise Unreadable(f"does not parse: {exc.__class__.__name__}") from None
    bound = _bindings(tree, name)
    return _read(bound[0]) if len(bound) == 1 else None
