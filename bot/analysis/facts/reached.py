"""Private classes a public function hands its callers: a decorator's wrapper
(`alru_cache` returns `_LRUCacheWrapper`), a factory's product. Their public-named members
are what callers of the function use, whatever the class is called."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from bot.analysis.facts.records import NameKind, Reached
from bot.analysis.facts.scan import FileReading, Side

# A reached class's dunders that hand out another object: a descriptor's `__get__` (a
# decorated method read on an instance), a context manager's `__enter__`
_HANDING = frozenset({"__get__", "__call__", "__enter__", "__aenter__"})

# Bases that give a class no members of their own a caller uses
_PLAIN_BASES = frozenset({"Generic", "object", "Protocol"})


def reached_classes(
    readings: list[FileReading], members: set[tuple[str, str]]
) -> tuple[Reached, ...]:
    """The private top-level classes of the files read whole that a public top-level function
    of the same file is proven, at the parent, to return (its return annotation names the
    class, or its own `return _Cls(...)`), or that a member of such a class hands out in turn;
    in the files of the (path, class) pairs of `members` (the classes whose public members
    the change removes, renames or re-signs), each of that file's reached classes: the
    siblings one function hands out (a wrapper and its bound form) are read together."""
    wanted = {path for path, _ in members}
    out: list[Reached] = []
    for reading in readings:
        if reading.path not in wanted or not reading.path.endswith(".py"):
            continue
        side = reading.minus
        reached = _reached(side)
        if not any((reading.path, cls) in members for cls in reached):
            continue
        for cls, (via, decorator) in reached.items():
            # (a base at the commit may still give it the member: none proven gone)
            if set(reading.plus.bases.get(cls, ())) - _PLAIN_BASES:
                continue
            own = {
                name.rsplit(".", 1)[-1]: node
                for name, node in side.functions.items()
                if name.startswith(f"{cls}.")
                and name.count(".") == 1
                and not name.rsplit(".", 1)[-1].startswith("_")
            }
            attributes = tuple(member for member, node in own.items() if read_bare(node))
            kept = kept_names(reading.plus, cls)
            out.append(Reached(reading.path, cls, via, decorator, attributes, tuple(own), kept))
    return tuple(out)


def read_bare(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a method is a property (`@property`, `@cached_property`): read, not called."""
    return any(_dotted(d).endswith("property") for d in node.decorator_list)


def kept_names(side: Side, cls: str) -> tuple[str, ...]:
    """The public names the class at `side` binds on its instances as plain attributes: its
    body's assignments, and each `self.x = …` (or `x: T = …`) of its own methods."""
    names = {n.split(".", 1)[1] for n in side.assigned if n.startswith(f"{cls}.")}
    for name, node in side.functions.items():
        if not name.startswith(f"{cls}.") or name.count(".") != 1 or not node.args.args:
            continue
        me = node.args.args[0].arg
        for sub in ast.walk(node):
            targets: list[ast.expr] = []
            if isinstance(sub, ast.Assign):
                targets = sub.targets
            elif isinstance(sub, ast.AnnAssign | ast.AugAssign):
                targets = [sub.target]
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == me
                ):
                    names.add(target.attr)
    return tuple(sorted(n for n in names if not n.startswith("_") and "." not in n))


def _reached(side: Side) -> dict[str, tuple[str, bool]]:
    """Private class -> (the public function it is reached through, whether through a
    `Callable[..., _Cls]`: what the function decorates becomes one)."""
    private = {
        name
        for name, (kind, _) in side.defs.items()
        if kind is NameKind.CLASS
        and "." not in name
        and name.startswith("_")
        and not name.startswith("__")
    }
    if not private:
        return {}
    found: dict[str, tuple[str, bool]] = {}
    todo: list[tuple[str, str, bool]] = []
    for name, (kind, _) in side.defs.items():
        if kind is NameKind.FUNCTION and "." not in name and not name.startswith("_"):
            for cls, decorator in _returned(side, name, private):
                todo.append((cls, name, decorator))
    while todo:
        cls, via, decorator = todo.pop(0)
        if cls in found:
            continue
        found[cls] = (via, decorator)
        for name, (kind, _) in side.defs.items():
            owner, _, member = name.partition(".")
            if (
                owner == cls
                and kind is NameKind.METHOD
                and "." not in member
                and (not member.startswith("_") or member in _HANDING)
            ):
                for other, _wraps in _returned(side, name, private):
                    todo.append((other, via, decorator))
    return found


def _returned(side: Side, function: str, private: set[str]) -> Iterator[tuple[str, bool]]:
    """The private classes `function` is proven to return, each with whether its return
    annotation reaches it through a `Callable[...]`."""
    annotation = side.annotations.get(function, {}).get("->")
    seen: set[str] = set()
    if annotation:
        for cls, callable_ in _annotated(annotation, private):
            if cls not in seen:
                seen.add(cls)
                yield cls, callable_
    node = side.functions.get(function)
    if node is None:
        return
    for cls in _constructed(node.body, private):
        if cls not in seen:
            seen.add(cls)
            yield cls, False


def _annotated(text: str, private: set[str]) -> list[tuple[str, bool]]:
    """The private classes an annotation names, each with whether inside a `Callable[...]`."""
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    out: list[tuple[str, bool]] = []

    def visit(node: ast.AST, inside: bool) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            # a forward reference: "_Cls[_R]"
            out.extend((c, inside or d) for c, d in _annotated(node.value, private))
            return
        if isinstance(node, ast.Name) and node.id in private:
            out.append((node.id, inside))
            return
        if isinstance(node, ast.Subscript) and _dotted(node.value).endswith("Callable"):
            visit(node.slice, True)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(tree, False)
    return out


def _constructed(body: list[ast.stmt], private: set[str]) -> Iterator[str]:
    """The private classes the function's own `return _Cls(...)` statements construct (not
    a nested function's or class's)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if (
            isinstance(node, ast.Return)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id in private
        ):
            yield node.value.func.id
        stack.extend(ast.iter_child_nodes(node))


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return _dotted(node.func)
    return ""
