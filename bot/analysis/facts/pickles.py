"""Public classes' `__reduce__` read whole at both revisions: whether old pickles still load."""

from __future__ import annotations

import ast

from bot.analysis.facts.records import PickleChange

# The hooks whose return tells pickle what to call at load: (callable, args, …)
_HOOKS = ("__reduce__", "__reduce_ex__")
# Decorators that hand the function back as it is, for a caller's arguments
# (`typing.override`, `typing.final`)
_TRANSPARENT = frozenset({"override", "final"})
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}


def _own(cls: ast.ClassDef, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The last definition of `name` in the class's own body, where it is a function."""
    found = None
    for node in cls.body:
        if isinstance(node, _DEFS) and node.name == name:
            found = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
            isinstance(t, ast.Name) and t.id == name
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        ):
            found = None
    return found


def _binds(cls: ast.ClassDef, name: str) -> bool:
    """Whether the class's own body binds `name` in any way (a def, an assignment)."""
    for node in cls.body:
        if isinstance(node, (*_DEFS, ast.ClassDef)) and node.name == name:
            return True
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, (ast.AnnAssign, ast.AugAssign))
            else []
        )
        if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
            return True
    return False


def _base_names(cls: ast.ClassDef) -> list[str | None]:
    """Each base's name where it is a plain one (`Base`, `Base[T]`), else None."""
    out: list[str | None] = []
    for base in cls.bases:
        node = base.value if isinstance(base, ast.Subscript) else base
        out.append(node.id if isinstance(node, ast.Name) else None)
    return out


def _lookup(
    classes: dict[str, ast.ClassDef], cls: ast.ClassDef, name: str
) -> tuple[ast.ClassDef, ast.FunctionDef | ast.AsyncFunctionDef | None] | None:
    """Where `name` is found on the class, its bases of the same module searched in order:
    the class that binds it and its function (None: bound otherwise). None where it is
    not found and a base of another module (or a metaclass, or a class decorator) may give
    it; a class alone with `object` proves it gone: (cls, None) is never returned so."""
    seen: set[str] = set()
    todo = [cls]
    unknown = False
    while todo:
        at = todo.pop(0)
        if at.name in seen:
            continue
        seen.add(at.name)
        if _binds(at, name):
            return at, _own(at, name)
        if at.decorator_list or at.keywords:
            unknown = True
        for base in _base_names(at):
            if base in classes:
                todo.append(classes[base])
            elif base != "object":
                unknown = True
    return None if unknown else (cls, None)


def _kind(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """`static`, `class` or `plain`: how a function in a class body binds when read from
    the class; None where another decorator may wrap it (what it then takes is unknown)."""
    kind = "plain"
    for decorator in node.decorator_list:
        name = (
            decorator.id
            if isinstance(decorator, ast.Name)
            else decorator.attr
            if isinstance(decorator, ast.Attribute)
            else None
        )
        if name == "staticmethod":
            kind = "static"
        elif name == "classmethod":
            kind = "class"
        elif name not in _TRANSPARENT:
            return None
    return kind


def _accepts(node: ast.FunctionDef | ast.AsyncFunctionDef, kind: str, passed: int) -> bool:
    """Whether the function, read from its class, takes `passed` positional arguments and
    nothing else (a classmethod's first is bound)."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    if kind == "class":
        positional = positional[1:]
    required = len(positional) - len(args.defaults)
    if any(d is None for d in args.kw_defaults):
        return False  # a keyword-only parameter without a default is never passed
    return passed >= required and (args.vararg is not None or passed <= len(positional))


def _returns(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr] | None:
    """The values of the function's own `return`s; None where one returns nothing."""
    found: list[ast.expr] = []
    todo: list[ast.AST] = list(node.body)
    while todo:
        child = todo.pop()
        if isinstance(child, ast.Return):
            if child.value is None:
                return None
            found.append(child.value)
        elif not isinstance(child, (*_DEFS, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(child))
    return found


def _reduced(value: ast.expr) -> tuple[str, int] | None:
    """The member a `return self.meth, (a, b)` (`cls.meth`, `type(self).meth`,
    `self.__class__.meth`) names, and how many positional arguments it passes; None for
    any other return (a module function, a starred tuple, a string)."""
    if not (isinstance(value, ast.Tuple) and len(value.elts) >= 2):
        return None
    target, args = value.elts[0], value.elts[1]
    if not isinstance(target, ast.Attribute) or not isinstance(args, ast.Tuple):
        return None
    if any(isinstance(e, ast.Starred) for e in args.elts):
        return None
    owner = target.value
    if not (
        (isinstance(owner, ast.Name) and owner.id in ("self", "cls"))
        or (isinstance(owner, ast.Attribute) and owner.attr == "__class__")
        or (
            isinstance(owner, ast.Call)
            and isinstance(owner.func, ast.Name)
            and owner.func.id == "type"
            and len(owner.args) == 1
        )
    ):
        return None
    return target.attr, len(args.elts)


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def pickles_changed(path: str, before: str, after: str) -> list[PickleChange]:
    """Each public top-level class whose `__reduce__` (`__reduce_ex__`) returns something
    else at the commit, or whose pickles written at the parent no longer load: every
    `return` of the parent's hook names a member of the class and a tuple of arguments;
    a pickle holds that member as the parent's class gave it (a staticmethod or a plain
    function by its defining class's name, a classmethod bound to the class), and at load
    calls what that name is at the commit with those arguments. Broken where the commit's
    is proven not to take them (bidict 3032e9f: `_from_other` went from a staticmethod of
    three parameters to a classmethod, and the parent's pickles pass it three) or proven
    gone."""
    if not any(h in before for h in _HOOKS):
        return []
    old_tree, new_tree = _parse(before), _parse(after)
    if old_tree is None or new_tree is None:
        return []
    old_classes, new_classes = _classes(old_tree), _classes(new_tree)
    out = []
    for name, old_cls in old_classes.items():
        new_cls = new_classes.get(name)
        if name.startswith("_") or new_cls is None:
            continue
        for hook in _HOOKS:
            found = _lookup(old_classes, old_cls, hook)
            if found is None or found[0] is not old_cls or found[1] is None:
                continue
            old_hook = found[1]
            now = _lookup(new_classes, new_cls, hook)
            new_hook = now[1] if now is not None and now[0] is new_cls else None
            old_values = _returns(old_hook)
            new_values = _returns(new_hook) if new_hook is not None else None
            if not old_values or not new_values:
                continue
            # (each distinct value once, as `ast.unparse` writes it: `(f, (a, b))`)
            old_said = " | ".join(dict.fromkeys(ast.unparse(v) for v in old_values))
            new_said = " | ".join(dict.fromkeys(ast.unparse(v) for v in new_values))
            broken = _broken(old_classes, new_classes, old_cls, old_values)
            if broken is None and old_said == new_said:
                continue
            callee, passed, gone = broken or ("", 0, False)
            out.append(
                PickleChange(
                    path,
                    name,
                    hook,
                    old_said,
                    new_said,
                    callee=callee,
                    passed=passed,
                    broken=broken is not None,
                    gone=gone,
                )
            )
    return out


def _broken(
    old_classes: dict[str, ast.ClassDef],
    new_classes: dict[str, ast.ClassDef],
    cls: ast.ClassDef,
    values: list[ast.expr],
) -> tuple[str, int, bool] | None:
    """The first (callee, arguments passed, gone) of the parent's `__reduce__` returns
    that the commit proves no longer loads; None where none is proven."""
    for value in values:
        reduced = _reduced(value)
        if reduced is None:
            continue
        member, passed = reduced
        found = _lookup(old_classes, cls, member)
        owner, function = found if found is not None else (cls, None)
        if function is None:
            continue
        kind = _kind(function)
        # a plain function read from an instance is a bound method: pickled with the
        # instance itself, not by name
        if kind is None or (kind == "plain" and _instance(value)):
            continue
        if not _accepts(function, kind, passed):
            continue  # the parent's own pickles did not load: nothing to compare
        # a staticmethod or plain function is pickled by its defining class's name; a
        # classmethod as bound to the class the hook ran on
        at = owner if kind != "class" else cls
        new_at = new_classes.get(at.name)
        if new_at is None:
            continue
        now = _lookup(new_classes, new_at, member)
        if now is None:
            continue
        _, new_function = now
        callee = f"{at.name}.{member}"
        if new_function is None:
            if not _binds(now[0], member):
                return callee, passed, True
            continue
        new_kind = _kind(new_function)
        if new_kind is not None and not _accepts(new_function, new_kind, passed):
            return callee, passed, False
    return None


def _instance(value: ast.expr) -> bool:
    """Whether the return's callable is read from `self` (`self.meth`), not the class."""
    return (
        isinstance(value, ast.Tuple)
        and isinstance(value.elts[0], ast.Attribute)
        and isinstance(value.elts[0].value, ast.Name)
        and value.elts[0].value.id == "self"
    )
