"""Public functions that hand back a literal of another type (or another value) where they
handed back one at the parent, in the same case: `return False` made `return None`."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

from bot.analysis.facts.importers import dotted
from bot.analysis.facts.modules import own_nodes
from bot.analysis.facts.records import ReturnChange
from bot.analysis.facts.scan import FileReading, Side

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
# The literals whose type a caller may test (`is False`, `isinstance(x, list)`)
_SCALARS = (bool, type(None), int, float, str, bytes)
_DISPLAYS = {ast.List: "list", ast.Tuple: "tuple", ast.Dict: "dict", ast.Set: "set"}
# How many calls deep a returned value is followed (`match_file` → `_match_file` → …)
_DEPTH = 3
# A condition said in the sentence at most this long
_SAID_CONDITION = 60


@dataclass(frozen=True)
class _Literal:
    """A value written out: its type's name, and how it is written."""

    kind: str
    text: str


@dataclass(frozen=True)
class _Tuple:
    items: tuple[_Literal | _Tuple | None, ...]


_Value = _Literal | _Tuple | None


def _literal(node: ast.expr | None) -> _Literal | None:
    """`False`, `None`, `[]`, `(a, b)`: a returned expression whose type the text fixes."""
    if node is None:
        return _Literal("NoneType", "None")
    kind = _DISPLAYS.get(type(node))
    try:
        if isinstance(node, ast.Constant) and isinstance(node.value, _SCALARS):
            return _Literal(type(node.value).__name__, repr(node.value))
        if kind is None or any(isinstance(e, ast.Starred) for e in ast.iter_child_nodes(node)):
            return None
        text = ast.unparse(node)
    except ValueError:
        # an integer past Python's 4,300 digits has no text (`sys.set_int_max_str_digits`):
        # a value no sentence can write is no literal to say
        return None
    return _Literal(kind, text if len(text) <= 20 else f"a {kind}")


def _conditioned(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
) -> dict[tuple[str, ...], list[_Literal | None]]:
    """The function's own `return`s of a literal, by the path of statements that holds each
    (an `if`'s test and its branch, a loop, a `try`): the same path at both revisions is the
    same case."""
    found: dict[tuple[str, ...], list[_Literal | None]] = {}

    def walk(body: list[ast.stmt], path: tuple[str, ...]) -> None:
        for statement in body:
            if isinstance(statement, ast.Return):
                found.setdefault(path, []).append(_literal(statement.value))
            elif isinstance(statement, ast.If):
                test = ast.unparse(statement.test)
                walk(statement.body, (*path, f"if {test}"))
                walk(statement.orelse, (*path, f"if not {test}"))
            elif isinstance(statement, _FUNCTIONS):
                continue
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(statement, field, None)
                    if isinstance(inner, list):
                        step = f"{type(statement).__name__}.{field}"
                        walk([s for s in inner if isinstance(s, ast.stmt)], (*path, step))
                        for h in inner:
                            if isinstance(h, ast.ExceptHandler):
                                walk(h.body, (*path, step, ast.unparse(h.type or ast.Name("*"))))

    walk(node.body, ())
    return found


def _when(path: tuple[str, ...]) -> str | None:
    """The case a path of `if`s alone states (`when `not patterns``); None: another path."""
    if len(path) != 1 or not path[0].startswith("if "):
        return None
    test = path[0].removeprefix("if ")
    return test if len(test) <= _SAID_CONDITION else None


class _Modules:
    """One revision's Python files read whole, by module, to follow a call to the function
    it runs."""

    def __init__(self, sides: dict[str, Side]) -> None:
        self.sides = sides
        self.by_module = {dotted(path): path for path in sides}

    def imported(self, path: str, module: str) -> str | None:
        """The file of a module as a file imports it (`.util` from `pkg/mod.py`)."""
        level = len(module) - len(module.lstrip("."))
        if level:
            own = dotted(path).split(".")
            package = own if path.endswith("/__init__.py") else own[:-1]
            if level - 1 > len(package):
                return None
            base = package[: len(package) - (level - 1)]
            rest = module[level:]
            module = ".".join([*base, *([rest] if rest else [])])
        return self.by_module.get(module)

    def function(
        self, path: str, name: str, cls: str | None
    ) -> tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, str | None] | None:
        """The function a name stands for in a file (in a class's body first where `cls`
        is given): (its file, its node, its class)."""
        side = self.sides.get(path)
        if side is None:
            return None
        if cls is not None:
            found = side.functions.get(f"{cls}.{name}")
            if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return path, found, cls
            bound = _class_bound(side.classes.get(cls), name)
            if bound is None:
                return None
            return self._named(path, bound)
        found = side.functions.get(name)
        if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return path, found, None
        return self._named(path, ast.Name(name))

    def _named(
        self, path: str, node: ast.expr
    ) -> tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, str | None] | None:
        """A module-level function a name or `module.name` stands for in a file: its own,
        or one it imports (`from .util import match_file`, `from . import util`)."""
        side = self.sides[path]
        if isinstance(node, ast.Name):
            found = side.functions.get(node.id)
            if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return path, found, None
            module = side.imports.get(node.id)
            if not module:
                return None
            where = self.imported(path, module)
            name = side.aliases.get(node.id, node.id)
            if where is None:
                return None
            found = self.sides[where].functions.get(name)
            if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return where, found, None
            return None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module = side.imports.get(node.value.id)
            if module is None:
                return None
            # `from . import util`: the module `util` of the package `.`; `import a.util as
            # util`: `a.util`
            if module:
                joined = "" if module.endswith(".") else "."
                module = f"{module}{joined}{node.value.id}"
            else:
                module = side.modules.get(node.value.id, node.value.id)
            where = self.imported(path, module)
            if where is None:
                return None
            found = self.sides[where].functions.get(node.attr)
            if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return where, found, None
        return None


def _class_bound(cls: ast.ClassDef | None, name: str) -> ast.expr | None:
    """What a class body binds a name to, once, as a function (`_match_file =
    staticmethod(match_file)`: `match_file`)."""
    if cls is None:
        return None
    bound = [
        s.value
        for s in cls.body
        if isinstance(s, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
    ]
    if len(bound) != 1:
        return None
    value = bound[0]
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "staticmethod"
        and len(value.args) == 1
    ):
        value = value.args[0]
    return value if isinstance(value, (ast.Name, ast.Attribute)) else None


def _fallback(
    modules: _Modules,
    path: str,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    cls: str | None,
    depth: int = 0,
) -> _Value:
    """What the function returns where each loop over one of its parameters runs no time
    (no pattern given, none matched): its body read top to bottom, every statement an
    assignment, a call, a docstring or such a loop that binds nothing the path reads but
    in its body, up to the first `return`. None where that is not so plain."""
    if depth > _DEPTH:
        return None
    found = _plain_fallback(modules, path, node, cls, depth)
    # (a generator's or a coroutine's body runs later: walked only where the body is plain)
    if found is None or any(
        isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in own_nodes(node)
    ):
        return None
    return found


def _plain_fallback(
    modules: _Modules,
    path: str,
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    cls: str | None,
    depth: int,
) -> _Value:
    """`_fallback`'s reading of the body, its yields and awaits not looked for."""
    params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    env: dict[str, _Value] = {}

    def value(expr: ast.expr | None) -> _Value:
        if expr is None:
            return _Literal("NoneType", "None")
        if isinstance(expr, ast.Name):
            return env.get(expr.id)
        if isinstance(expr, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in expr.elts):
            return _Tuple(tuple(value(e) for e in expr.elts))
        if isinstance(expr, ast.Call):
            func = expr.func
            found = None
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
                and cls is not None
            ):
                found = modules.function(path, func.attr, cls)
            elif isinstance(func, (ast.Name, ast.Attribute)):
                found = modules._named(path, func)
            if found is None:
                return None
            return _fallback(modules, *found, depth=depth + 1)
        return _literal(expr)

    for statement in node.body:
        if isinstance(statement, ast.Return):
            return value(statement.value)
        if isinstance(statement, ast.Expr):
            continue
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, got = statement.targets[0], value(statement.value)
            if isinstance(target, ast.Name):
                env[target.id] = got
            elif isinstance(target, ast.Tuple) and all(
                isinstance(t, ast.Name) for t in target.elts
            ):
                items = got.items if isinstance(got, _Tuple) else ()
                for i, t in enumerate(target.elts):
                    if isinstance(t, ast.Name):
                        env[t.id] = items[i] if len(items) == len(target.elts) else None
            else:
                return None
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            env[statement.target.id] = value(statement.value) if statement.value else None
        elif (
            isinstance(statement, ast.For)
            and not statement.orelse
            and isinstance(statement.iter, ast.Name)
            and statement.iter.id in params
        ):
            # (the loop may run no time: what it binds keeps its value from before)
            continue
        else:
            return None
    return _Literal("NoneType", "None")


def literals_changed(readings: Iterable[FileReading], whole: set[str]) -> list[ReturnChange]:
    """The public functions and methods (no part of the name private) of the Python files
    read whole whose bodies differ, that return a literal of one kind at the parent and of
    another at the commit in the same case: under the same `if`s (`_conditioned`), or on
    the path where their loops run no time, followed through the calls they return
    (`_fallback`: pathspec 92a9066's `PathSpec.match_file`, `False` then `None`). A value
    of another type is a break (`x is False`, `isinstance`); `True` made `False` is
    behaviour (`typed` False)."""
    python = [r for r in readings if r.path in whole and r.path.endswith(".py")]
    old = _Modules({r.path: r.minus for r in python})
    new = _Modules({r.path: r.plus for r in python})
    out = []
    for r in python:
        for name, now in r.plus.functions.items():
            was = r.minus.functions.get(name)
            if (
                not isinstance(was, (ast.FunctionDef, ast.AsyncFunctionDef))
                or not isinstance(now, (ast.FunctionDef, ast.AsyncFunctionDef))
                or r.minus.bodies.get(name, was) == r.plus.bodies.get(name)
                or any(part.startswith("_") for part in name.split("."))
            ):
                continue
            # (one node at both revisions, a stretch the commit left alone: the same returns
            # in the same cases)
            change = None if was is now else _conditioned_change(name, r.path, was, now)
            if change is None:
                cls = name.rpartition(".")[0] or None
                if cls is not None and (cls not in r.minus.classes or cls not in r.plus.classes):
                    continue
                before = _fallback(old, r.path, was, cls)
                after = _fallback(new, r.path, now, cls)
                if isinstance(before, _Literal) and isinstance(after, _Literal):
                    change = _compared(name, r.path, before, after, None)
            if change is not None:
                out.append(change)
    return out


def _conditioned_change(
    name: str,
    path: str,
    was: ast.FunctionDef | ast.AsyncFunctionDef,
    now: ast.FunctionDef | ast.AsyncFunctionDef,
) -> ReturnChange | None:
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for f in (was, now) for n in own_nodes(f)):
        # (a generator's `return` ends the iteration: no value a caller gets)
        return None
    before, after = _conditioned(was), _conditioned(now)
    for where, olds in before.items():
        news = after.get(where)
        if news is None or len(olds) != 1 or len(news) != 1:
            continue
        old, new = olds[0], news[0]
        if old is None or new is None:
            continue
        change = _compared(name, path, old, new, _when(where))
        if change is not None:
            return change
    return None


# Numbers of one kind or another compare equal (`0 == False == 0.0`): no type a caller tests
_NUMBERS = frozenset({"bool", "int", "float"})


def _compared(
    name: str, path: str, old: _Literal, new: _Literal, when: str | None
) -> ReturnChange | None:
    """A change of type, or of a `bool`'s value; None otherwise."""
    if old.kind != new.kind and not {old.kind, new.kind} <= _NUMBERS:
        return ReturnChange(name, path, old.text, new.text, when, typed=True)
    if old.kind == new.kind == "bool" and old.text != new.text:
        return ReturnChange(name, path, old.text, new.text, when, typed=False)
    return None
