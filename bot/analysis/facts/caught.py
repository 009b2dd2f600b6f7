"""Whether a function catches what a callee raises around each of its calls of the callee: a
`try` whose handler names the exception's class, a base of it, or everything."""

from __future__ import annotations

import ast

from bot.analysis.facts.pyfile import dotted
from bot.analysis.facts.raised_names import (
    Identity,
    Lookup,
    ancestry,
    class_name,
    identity,
    table_of,
)
from bot.analysis.facts.records import NewCall
from bot.analysis.facts.scan import Side

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def caught_at_each_call(
    call: NewCall, caller: Side, raised: tuple[str, str], lookup: Lookup
) -> bool:
    """Whether each call of `call.callee` (`callee(…)`, `x.callee(…)`) in `call.caller` (its
    module's `caller` side at the commit) sits in the body of a `try` with a handler that may
    catch `raised` (the exception's name as written, the module it is raised in), or of a
    `with suppress(…)` that may: a bare `except:`, a class the exception is or derives from
    (followed through the modules the tree has, `raised_names.ancestry`), any handler where
    the exception's classes are not all followed, any handler not followed to a class
    (`except errors.Bad:`, `except ERRORS:`). A call in a nested function or class is caught
    only by its own `try`: it runs where that is called. False where the function makes none
    of the calls as written."""
    node = caller.functions.get(call.caller)
    if node is None:
        return False
    name, at = raised
    where = lookup(at)
    if where is None:
        classes: set[Identity] = set()
        complete = False
    else:
        classes, complete = ancestry(name, at, where, lookup)
    table = table_of(caller)

    def catches(handler: ast.expr | None) -> bool:
        if handler is None:
            return True
        if isinstance(handler, ast.Tuple):
            return any(catches(e) for e in handler.elts)
        found = identity(class_name(handler), call.path, table, lookup)
        return found is None or not complete or found in classes

    sites = _sites(node, call.callee)
    return bool(sites) and all(
        any(any(catches(h) for h in handlers) for handlers in enclosing) for enclosing in sites
    )


def _sites(function: ast.AST, callee: str) -> list[list[list[ast.expr | None]]]:
    """Each call of `callee` in `function`, with the handlers of each `try` (and the
    exceptions of each `with suppress(…)`) whose body holds it, within its own function."""
    out: list[list[list[ast.expr | None]]] = []
    body = function.body if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) else []
    stack: list[tuple[ast.AST, list[list[ast.expr | None]]]] = [(s, []) for s in body]
    while stack:
        node, enclosing = stack.pop()
        if isinstance(node, _DEFS):
            stack.extend((child, []) for child in ast.iter_child_nodes(node))
            continue
        if isinstance(node, ast.Try | ast.TryStar):
            handlers: list[ast.expr | None] = [h.type for h in node.handlers]
            stack.extend((s, [*enclosing, handlers]) for s in node.body)
            for h in node.handlers:
                stack.extend((s, enclosing) for s in h.body)
            stack.extend((s, enclosing) for s in (*node.orelse, *node.finalbody))
            continue
        if isinstance(node, ast.With | ast.AsyncWith):
            suppressed: list[ast.expr | None] = [
                arg
                for item in node.items
                if isinstance(item.context_expr, ast.Call)
                and dotted(item.context_expr.func).rsplit(".", 1)[-1] == "suppress"
                for arg in item.context_expr.args
            ]
            stack.extend((item, enclosing) for item in node.items)
            inner = [*enclosing, suppressed] if suppressed else enclosing
            stack.extend((s, inner) for s in node.body)
            continue
        if isinstance(node, ast.Call) and _called(node.func) == callee:
            out.append(enclosing)
        stack.extend((child, enclosing) for child in ast.iter_child_nodes(node))
    return out


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""
