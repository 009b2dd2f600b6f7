"""Fields a declared-fields class (a dataclass, an attrs or pydantic class) gains: new options."""

from __future__ import annotations

import ast

from bot.analysis.facts.records import FieldAdded
from bot.analysis.facts.scan import FileReading

# Decorators whose class body's annotated names are the fields callers pass to construct it
_DECORATORS = frozenset(
    ("dataclass", "define", "frozen", "mutable", "s", "attrs", "dataclasses.dataclass")
)
# Bases whose subclasses' annotated names are fields (pydantic's models and settings)
_BASES = frozenset(("BaseModel", "BaseSettings"))
# A default quoted when this short
_SAID = 60


def _declares_fields(node: ast.ClassDef) -> bool:
    """A class whose annotated class-level names are its constructor's fields."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        written = ast.unparse(target)
        if written in _DECORATORS or written.rsplit(".", 1)[-1] in {"dataclass", "define"}:
            return True
    return any(ast.unparse(b).rsplit(".", 1)[-1] in _BASES for b in node.bases)


def _fields(node: ast.ClassDef) -> dict[str, ast.AnnAssign]:
    """The class's own fields by name: annotated names of its body, no `ClassVar`."""
    return {
        s.target.id: s
        for s in node.body
        if isinstance(s, ast.AnnAssign)
        and isinstance(s.target, ast.Name)
        and "ClassVar" not in ast.unparse(s.annotation)
    }


def _default(value: ast.expr | None) -> tuple[bool, str | None]:
    """Whether a field declares a default, and the default as written: `field(default=x)`
    is `x`, a `default_factory=lambda: v` is `v`, another factory `f()`."""
    if value is None:
        return False, None
    called = ast.unparse(value.func).rsplit(".", 1)[-1] if isinstance(value, ast.Call) else ""
    if isinstance(value, ast.Call) and called in ("field", "Field", "attrib", "ib"):
        given = {k.arg: k.value for k in value.keywords if k.arg}
        if "default" in given:
            return True, ast.unparse(given["default"])
        factory = given.get("default_factory") or given.get("factory")
        if isinstance(factory, ast.Lambda) and not factory.args.args:
            return True, ast.unparse(factory.body)
        if factory is not None:
            return True, f"{ast.unparse(factory)}()"
        if value.args and called == "Field":
            return True, ast.unparse(value.args[0])
        return False, None
    return True, ast.unparse(value)


def fields_added(r: FileReading) -> list[FieldAdded]:
    """The public fields a public class declaring its fields (`@dataclass`, attrs, pydantic)
    has at the commit and not at the parent, both sides defining it: an option its callers
    may now pass (dacite 9fa6a84: `Config` gains `convert_key`, default `lambda x: x`)."""
    out: list[FieldAdded] = []
    for name, now in r.plus.classes.items():
        was = r.minus.classes.get(name)
        if was is None or any(part.startswith("_") for part in name.split(".")):
            continue
        if not _declares_fields(now):
            continue
        before = _fields(was)
        for field_name, statement in _fields(now).items():
            if field_name in before or field_name.startswith("_"):
                continue
            has, default = _default(statement.value)
            if default is not None and (len(default) > _SAID or "\n" in default or "`" in default):
                default = None  # too long to quote: the field is said without it
            out.append(FieldAdded(name, r.path, field_name, default, required=not has))
    return out
