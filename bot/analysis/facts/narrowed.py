"""A guard of an edited Python function narrowed by one more test, and the raise it now lets run."""

from __future__ import annotations

import ast

from bot.analysis.facts.callers import public_callers
from bot.analysis.facts.pyfile import dotted
from bot.analysis.facts.records import GuardNarrowed
from bot.analysis.facts.scan import FileReading

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# A test quoted when this short (as `conditions._SAID_TEST`)
_SAID = 60
# What taking an item of an empty container raised at the parent: (its kind, the method)
_EMPTY_ERRORS = {("dict", "popitem"): "KeyError", ("list", "pop"): "IndexError"}


def _container(node: ast.expr | None) -> str | None:
    """`dict` or `list` for an empty one built as written (`{}`, `dict()`, `[]`, `list()`)."""
    if isinstance(node, ast.Dict) and not node.keys:
        return "dict"
    if isinstance(node, ast.List) and not node.elts:
        return "list"
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("dict", "list")
        and not node.args
        and not node.keywords
    ):
        return node.func.id
    return None


def _bound_empty(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> str | None:
    """The kind of empty container the function binds `name` to, once, at its top level."""
    kinds = [
        _container(s.value)
        for s in function.body
        if isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Name)
        and s.targets[0].id == name
    ]
    return kinds[0] if len(kinds) == 1 else None


def _empty_error(
    function: ast.FunctionDef | ast.AsyncFunctionDef, added: ast.expr, block: list[ast.stmt]
) -> tuple[str, str]:
    """What the block raised at the parent where the test added was false: taking an item
    (`popitem()`, `pop()`) of the empty container that test names; ("", "") when unproven."""
    if not isinstance(added, ast.Name):
        return "", ""
    kind = _bound_empty(function, added.id)
    for node in ast.walk(ast.Module(body=block, type_ignores=[])):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == added.id
            and not node.args
            and (error := _EMPTY_ERRORS.get((kind or "", node.func.attr)))
        ):
            return error, ast.unparse(node)
    return "", ""


def guards_narrowed(r: FileReading, name: str) -> list[GuardNarrowed]:
    """An `if a:` (no `else`) at the top level of an edited function's body, ending in a
    `return`, that became `if a and b:` with the same block, where what follows it is the
    same at both revisions: `if t: return v` guards, then a final `raise E(…)`. Where `a`
    holds and `b` does not, the function no longer returns there: it goes on to those guards
    and the raise (dacite 4a7c517: `_build_value_for_union` raises `UnionMatchError` where it
    took `union_matches.popitem()` of an empty dict, a `KeyError`)."""
    now, was = r.plus.functions.get(name), r.minus.functions.get(name)
    if not isinstance(now, _DEFS) or not isinstance(was, _DEFS):
        return []
    found: list[GuardNarrowed] = []
    for i, statement in enumerate(now.body):
        if (
            not isinstance(statement, ast.If)
            or statement.orelse
            or not isinstance(statement.test, ast.BoolOp)
            or not isinstance(statement.test.op, ast.And)
            or not isinstance(statement.body[-1], ast.Return)
        ):
            continue
        kept, added = statement.test.values[:-1], statement.test.values[-1]
        test = ast.unparse(kept[0] if len(kept) == 1 else ast.BoolOp(ast.And(), kept))
        block = [ast.dump(s) for s in statement.body]
        rest = now.body[i + 1 :]
        parent = [
            j
            for j, s in enumerate(was.body)
            if isinstance(s, ast.If)
            and not s.orelse
            and ast.unparse(s.test) == test
            and [ast.dump(b) for b in s.body] == block
        ]
        if len(parent) != 1 or [ast.dump(s) for s in was.body[parent[0] + 1 :]] != [
            ast.dump(s) for s in rest
        ]:
            continue
        if not rest or not isinstance(rest[-1], ast.Raise) or rest[-1].exc is None:
            continue
        exc = rest[-1].exc
        exception = dotted(exc.func if isinstance(exc, ast.Call) else exc)
        unless: list[tuple[str, str]] = []
        for guard in rest[:-1]:
            if (
                not isinstance(guard, ast.If)
                or guard.orelse
                or len(guard.body) != 1
                or not isinstance(guard.body[0], ast.Return)
                or guard.body[0].value is None
            ):
                break
            unless.append((ast.unparse(guard.test), ast.unparse(guard.body[0].value)))
        else:
            returned = statement.body[-1]
            if not exception or returned.value is None:
                continue
            error, call = _empty_error(now, added, statement.body)
            texts = [test, ast.unparse(added), ast.unparse(returned.value)]
            texts += [t for pair in unless for t in pair]
            if any(len(t) > _SAID or "`" in t or "\n" in t for t in texts):
                continue
            callers = (
                ()
                if not name.rsplit(".", 1)[-1].startswith("_")
                else public_callers(r.plus.functions, r.plus.classes, name)
            )
            found.append(
                GuardNarrowed(
                    name=name,
                    path=r.path,
                    test=test,
                    added=ast.unparse(added),
                    exception=exception,
                    was=ast.unparse(returned.value),
                    unless=tuple(unless),
                    error=error,
                    call=call,
                    callers=callers,
                )
            )
    return found
