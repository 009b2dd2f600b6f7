"""A function whose one parameter took another name, read the same throughout its body."""

from __future__ import annotations

import ast
import copy

_Def = ast.FunctionDef | ast.AsyncFunctionDef


def _plain(node: _Def, old: str, new: str) -> str:
    """The function's parameters and body as Python runs them, `old` read as `new`:
    annotations and its docstring aside."""
    node = copy.deepcopy(node)
    for sub in ast.walk(node):
        if isinstance(sub, ast.arg):
            sub.annotation = None
            sub.arg = new if sub.arg == old else sub.arg
        elif isinstance(sub, ast.Name) and sub.id == old:
            sub.id = new
        elif isinstance(sub, _Def):
            sub.returns = None
    body = node.body
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        body = body[1:]
    return ast.dump(ast.Module(body=[*body], type_ignores=[])) + ast.dump(node.args)


def renamed_throughout(before: ast.AST | None, after: ast.AST | None, old: str, new: str) -> bool:
    """Whether `after` is `before` with its parameter `old` named `new` everywhere (each
    name the function reads), its annotations and docstring aside; never where `new` was a
    name `before` already read, or `old` one `after` still reads (another binding's)."""
    if not isinstance(before, _Def) or not isinstance(after, _Def):
        return False
    names = ({n.id for n in ast.walk(side) if isinstance(n, ast.Name)} for side in (before, after))
    was, now = names
    if new in was or old in now:
        return False
    return _plain(before, old, new) == _plain(after, old, new)
