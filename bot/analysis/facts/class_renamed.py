"""A class renamed with its methods: the whole class the same code but for its own name and
attributes renamed throughout it (tinydb 43cf1ff: `QueryImpl` → `QueryInstance`)."""

from __future__ import annotations

import ast

from bot.analysis.facts.records import Name, NameKind, Renamed
from bot.analysis.facts.scan import FileReading


def classes_renamed(
    added: list[Name], removed: list[Name], readings: list[FileReading]
) -> tuple[list[Renamed], set[Name]]:
    """Module-level classes out of a file under one name and into it under another whose
    whole trees (methods included) are the same but for the class's own name, attribute
    names renamed one for one throughout (each named on one side only) and docstrings,
    where one class of the commit's matches alone; and the members each pair carries
    (`Old.get` → `New.get`), which are no removal nor addition of their own."""
    at = {r.path: r for r in readings}
    found: list[Renamed] = []
    carried: set[Name] = set()
    for out in removed:
        reading = at.get(out.path)
        if out.kind is not NameKind.CLASS or "." in out.name or reading is None:
            continue
        was = reading.minus.classes.get(out.name)
        if was is None or out.name in reading.minus.redefined:
            continue
        into = [
            n
            for n in added
            if n.kind is NameKind.CLASS
            and n.path == out.path
            and "." not in n.name
            and n.name not in reading.plus.redefined
            and (now := reading.plus.classes.get(n.name)) is not None
            and same_class_renamed(was, now)
        ]
        if len(into) != 1 or any(p.new == into[0] for p in found):
            continue
        found.append(Renamed(out, into[0]))
        members_out = {n.name.removeprefix(f"{out.name}."): n for n in removed if _of(n, out)}
        for n in added:
            if _of(n, into[0]) and n.name.removeprefix(f"{into[0].name}.") in members_out:
                carried |= {n, members_out[n.name.removeprefix(f"{into[0].name}.")]}
    return found, carried


def _of(member: Name, owner: Name) -> bool:
    return member.path == owner.path and member.name.startswith(f"{owner.name}.")


def same_class_renamed(was: ast.ClassDef, now: ast.ClassDef) -> bool:
    """Whether `now` is `was` with its own name (read inside it too: `isinstance(x, Old)`,
    `-> 'Old'`) and some attributes renamed one for one, docstrings aside."""
    if was.name == now.name:
        return False
    old_nodes, new_nodes = _nodes(was), _nodes(now)
    if len(old_nodes) != len(new_nodes):
        return False
    old_attrs = {n.attr for n in old_nodes if isinstance(n, ast.Attribute)}
    new_attrs = {n.attr for n in new_nodes if isinstance(n, ast.Attribute)}
    pairs: dict[str, str] = {}
    back: dict[str, str] = {}
    for a, b in zip(old_nodes, new_nodes, strict=True):
        if type(a) is not type(b):
            return False
        if isinstance(a, ast.Attribute) and isinstance(b, ast.Attribute) and a.attr != b.attr:
            if a.attr in new_attrs or b.attr in old_attrs:
                return False
            if (
                pairs.setdefault(a.attr, b.attr) != b.attr
                or back.setdefault(b.attr, a.attr) != a.attr
            ):
                return False
        elif not _same_node(a, b, was.name, now.name):
            return False
    return True


def _same_node(a: ast.AST, b: ast.AST, old: str, new: str) -> bool:
    """One node's own fields (not its children) the same, the class's name read as its new
    one (a name, the class statement's own, or a string that is exactly the name: `-> 'Old'`)."""
    for field, value in ast.iter_fields(a):
        other = getattr(b, field, None)
        if isinstance(value, ast.AST):
            continue
        if isinstance(value, list):
            # children are compared as the walk meets them; the places of `None` (a
            # keyword-only parameter without a default) and plain items here
            if not isinstance(other, list) or len(value) != len(other):
                return False
            if any(
                not (isinstance(x, ast.AST) and isinstance(y, ast.AST))
                and (type(x) is not type(y) or x != y)
                for x, y in zip(value, other, strict=True)
            ):
                return False
            continue
        if type(value) is type(other) and value == other:
            continue
        if field in ("id", "name", "value") and value == old and other == new:
            continue
        return False
    return True


def _nodes(node: ast.ClassDef) -> list[ast.AST]:
    """Every node of the class, breadth first, docstrings (of the class and of its
    functions) left out."""
    skip = {id(d) for d in _docstrings(node)}
    queue: list[ast.AST] = [node]
    at = 0
    while at < len(queue):
        queue += [c for c in ast.iter_child_nodes(queue[at]) if id(c) not in skip]
        at += 1
    return queue


def _docstrings(node: ast.ClassDef) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for n in ast.walk(node):
        if isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and n.body:
            first = n.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
                and len(n.body) > 1
            ):
                out.append(first)
    return out
