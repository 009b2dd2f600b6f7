"""The claims checker's reading of Python class hierarchies, from its own parse: whether a
class gains an `@abstractmethod`, whether a method a class now defines is one a base
class already had (an override), and whether a dataclass (attrs, pydantic) gains a field."""

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


def _field(node: ast.ClassDef | None, name: str) -> ast.AnnAssign | None:
    """The class body's own annotated `name`, a `ClassVar` aside (no field, by PEP 557)."""
    for statement in node.body if node is not None else []:
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and statement.target.id == name
            and "ClassVar" not in ast.unparse(statement.annotation)
        ):
            return statement
    return None


def _declared_default(value: ast.expr | None) -> str | None:
    """What a field's instances hold where the caller passes nothing, as written: the value
    assigned, `field(default=v)`'s `v`, what a `default_factory=lambda: v` returns (`v`);
    None where nothing says it (no default, another factory)."""
    if not isinstance(value, ast.Call):
        return None if value is None else ast.unparse(value)
    called = ast.unparse(value.func).rsplit(".", 1)[-1]
    if called not in ("field", "Field", "attrib", "ib"):
        return ast.unparse(value)
    keywords = {k.arg: k.value for k in value.keywords if k.arg}
    if "default" in keywords:
        return ast.unparse(keywords["default"])
    factory = keywords.get("default_factory") or keywords.get("factory")
    if isinstance(factory, ast.Lambda) and not factory.args.args:
        return ast.unparse(factory.body)
    return None


def gains_field(
    after: ast.ClassDef | None, before: ast.ClassDef | None, name: str, default: str | None
) -> str:
    """Why "`C` gains the field `f` (default `d`)" is false, or "": at the commit `C`'s body
    annotates `f` (no `ClassVar`) with the default `d` where one is said; the parent had
    `C`, without `f`."""
    if after is None:
        return "no such class at the commit in a changed file"
    if before is None:
        return "no such class at the parent: the whole class is new"
    gained = _field(after, name)
    if gained is None:
        return f"`{after.name}` declares no field `{name}` at the commit"
    if _field(before, name) is not None:
        return f"`{after.name}` declared `{name}` at the parent already"
    if default is not None and _declared_default(gained.value) != default:
        return f"the default of `{name}` is not `{default}`"
    return ""
