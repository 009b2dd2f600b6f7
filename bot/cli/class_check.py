"""The claims checker's reading of Python class hierarchies, from its own parse: whether a
class gains an `@abstractmethod`, and whether a method a class now defines is one a base
class already had (an override)."""

from __future__ import annotations

import ast
from collections.abc import Mapping


def classes(text: str | None) -> dict[str, ast.ClassDef]:
    """Every class a Python file defines, nested ones too, by its own name (the last
    definition of a name wins, as at import)."""
    if text is None:
        return {}
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    return {node.name: node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def own_method(
    node: ast.ClassDef | None, name: str
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The method `name` the class's own body defines: an abstract one where any is (a
    property's getter and setter share the name), else the first."""
    found = None
    for statement in node.body if node is not None else []:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and statement.name == name:
            found = found or statement
            if is_abstract(statement):
                return statement
    return found


def is_abstract(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated `@abstractmethod` (`abc.abstractmethod`, `@abstractproperty` too)."""
    return any(
        ast.unparse(d).rsplit(".", 1)[-1] in ("abstractmethod", "abstractproperty")
        for d in node.decorator_list
    )


def gains_abstract(after: ast.ClassDef | None, before: ast.ClassDef | None, method: str) -> str:
    """Why "`C` gains the abstract `m`" fails ("" where it holds): `C` had at the parent,
    `m` abstract in it at the commit and not at the parent."""
    now = own_method(after, method)
    if now is None or not is_abstract(now):
        return f"no class of the changed files declares `{method}` abstract"
    if before is None:
        return "the class is new with the commit: no subclass had to define anything"
    was = own_method(before, method)
    if was is not None and is_abstract(was):
        return f"`{method}` was abstract at the parent already"
    return ""


def bases_of(node: ast.ClassDef, defined: Mapping[str, ast.ClassDef]) -> set[str]:
    """Every base class of `node` by name, as far as the classes `defined` reach."""
    queue, seen = [_named(b) for b in node.bases], set()
    while queue:
        name = queue.pop(0)
        if name is None or name in seen:
            continue
        seen.add(name)
        if name in defined:
            queue += [_named(b) for b in defined[name].bases]
    return seen


def _named(node: ast.expr) -> str | None:
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None
