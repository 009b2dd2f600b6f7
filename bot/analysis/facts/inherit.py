"""What a Python class's new methods mean for its hierarchy: the abstract members a public
class gains (its subclasses outside the package must now define them), and the methods a
subclass defines over one a base class (in the files read) already has."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from bot.analysis.facts.records import Abstract, Name, NameKind, Override
from bot.analysis.facts.scan import Side
from bot.analysis.paths import private_module

_ABSTRACT = frozenset({"abstractmethod", "abc.abstractmethod"})


def abstract_added(
    added: Iterable[Name], sides: Mapping[str, Side], parents: Mapping[str, Side]
) -> list[Abstract]:
    """The new methods declared `@abstractmethod` of a public class of a public module that
    the file had at the parent: a class new with the commit breaks no subclass."""
    found = []
    for n in added:
        owner, _, short = n.name.rpartition(".")
        side, parent = sides.get(n.path), parents.get(n.path)
        if n.kind is not NameKind.METHOD or side is None or parent is None or not owner:
            continue
        if not n.public or private_module(n.path) or owner not in parent.classes:
            continue
        node = side.functions.get(n.name)
        if node is not None and _abstract(node):
            found.append(Abstract(owner, short, n.path))
    return found


def overrides(added: Iterable[Name], sides: Mapping[str, Side]) -> list[Override]:
    """The new methods of a class whose base class (found by name among the classes the
    read files define, nearest first) already defined the same name: an override, not new
    API. One over a method the commit adds to the base too (a new abstract member's
    implementations) is new API still."""
    added = list(added)
    new = {n.name for n in added}
    classes = {
        qualified.rsplit(".", 1)[-1]: (qualified, node)
        for side in sides.values()
        for qualified, node in side.classes.items()
    }
    found = []
    for n in added:
        owner, _, short = n.name.rpartition(".")
        side = sides.get(n.path)
        if n.kind is not NameKind.METHOD or side is None or owner not in side.classes:
            continue
        base = _defining_base(side.classes[owner], short, classes)
        if base is not None and f"{classes[base][0]}.{short}" not in new:
            found.append(Override(n.name, base, n.path))
    return found


def _defining_base(
    node: ast.ClassDef, method: str, classes: Mapping[str, tuple[str, ast.ClassDef]]
) -> str | None:
    """The first base class, breadth first in the order written, whose own body defines
    `method`."""
    queue, seen = [_base_name(b) for b in node.bases], {node.name}
    while queue:
        name = queue.pop(0)
        if name is None or name in seen or name not in classes:
            continue
        seen.add(name)
        base = classes[name][1]
        if any(
            isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == method
            for s in base.body
        ):
            return name
        queue += [_base_name(b) for b in base.bases]
    return None


def _base_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Subscript):  # `Generic[T]`, `Base[int]`
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _abstract(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(ast.unparse(d) in _ABSTRACT for d in node.decorator_list)
