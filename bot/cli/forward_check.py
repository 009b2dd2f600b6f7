"""Whether a Python function stopped taking an option out of its `**kwargs` and now passes it
on to a call, read for the claims checker with its own parse of both sides."""

from __future__ import annotations

import ast

_Function = ast.FunctionDef | ast.AsyncFunctionDef


def function_in(text: str, dotted: str) -> _Function | None:
    """The module's function `f`, or the method `C.f` of a top-level class; None where the
    text does not parse or holds none."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    *owner, name = dotted.split(".")
    body: list[ast.stmt] = tree.body
    if owner:
        cls = next(
            (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner[0]), None
        )
        if cls is None or len(owner) > 1:
            return None
        body = cls.body
    return next(
        (
            n
            for n in body
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name
        ),
        None,
    )


def _nodes(function: _Function) -> list[ast.AST]:
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        out.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))
    return out


def forwards(before: str, after: str, function: str, option: str, callee: str) -> str:
    """Why "`function` no longer takes `option` itself: it now passes it on to `callee(...)`"
    is false; "" where both sides prove it."""
    old, new = function_in(before, function), function_in(after, function)
    if old is None or new is None:
        return f"`{function}` is not defined at both revisions"
    if old.args.kwarg is None or new.args.kwarg is None:
        return f"`{function}` takes no `**kwargs` at both revisions"
    was, now = old.args.kwarg.arg, new.args.kwarg.arg
    popped = any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "pop"
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == was
        and n.args
        and isinstance(n.args[0], ast.Constant)
        and n.args[0].value == option
        for n in _nodes(old)
    )
    if not popped:
        return f"`{function}` did not pop `{option}` from `**{was}` at the parent"
    nodes = _nodes(new)
    if any(isinstance(n, ast.Constant) and n.value == option for n in nodes):
        return f"`{function}` still names `{option}` at the commit"
    if any(
        isinstance(n, ast.Name) and n.id == now and not isinstance(n.ctx, ast.Load) for n in nodes
    ):
        return f"`{function}` rebinds `{now}` at the commit"
    calls = [
        ast.unparse(n.func)
        for n in nodes
        if isinstance(n, ast.Call)
        and any(
            k.arg is None and isinstance(k.value, ast.Name) and k.value.id == now
            for k in n.keywords
        )
    ]
    if calls != [callee]:
        return f"`{function}` passes `**{now}` on to {calls or 'no call'}, not `{callee}` alone"
    return ""
