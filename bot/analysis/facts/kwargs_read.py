"""The keywords a function reads out of its `**kwargs` by name: what a caller may now pass
where the signature only shows `**kwargs` (toolz 1b23ada: `dissoc(d, *keys, **kwargs)` hands
`kwargs` to `_get_factory`, which pops `factory` with the default `dict`); and whether a name
is all a function returns (what `dissoc` returns, `d2`, is now built from `factory()`)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from bot.analysis.facts.modules import own_nodes

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# A keyword or its default written longer than this is not said
_SAID = 40


def keywords_read(
    function: ast.AST | None, var: str, lookup: Callable[[str], ast.AST | None]
) -> tuple[str, ...]:
    """The keywords `function` reads from its `**var` by name, `k=default` where the read
    gives one (`var.pop('k', d)`, `var.get('k', d)`; `var['k']` and `'k' in var` none), in
    its own body or in the body of a function of its module (`lookup`) it hands `var` to as
    a positional argument, read as that function's parameter (one level); in the order
    read."""
    if not isinstance(function, _DEFS):
        return ()
    found = _reads(function, var)
    for node in ast.walk(function):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        helper = lookup(node.func.id)
        if not isinstance(helper, _DEFS) or helper is function:
            continue
        params = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
        for place, arg in enumerate(node.args):
            if isinstance(arg, ast.Name) and arg.id == var and place < len(params):
                found += _reads(helper, params[place])
    named: dict[str, str] = {}
    for read in found:
        key = read.split("=", 1)[0]
        if key not in named or "=" not in named[key]:
            named[key] = read
    return tuple(k for k in named.values() if len(k) <= _SAID)


def _reads(function: ast.AST, var: str) -> list[str]:
    out: list[str] = []
    for node in ast.walk(function):
        key: ast.expr | None = None
        default: ast.expr | None = None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("pop", "get", "setdefault")
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == var
            and node.args
        ):
            key = node.args[0]
            default = node.args[1] if len(node.args) > 1 else None
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == var
        ):
            key = node.slice
        elif (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.In)
            and isinstance(node.comparators[0], ast.Name)
            and node.comparators[0].id == var
        ):
            key = node.left
        if (
            isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and key.value.isidentifier()
        ):
            out.append(key.value if default is None else f"{key.value}={ast.unparse(default)}")
    return out


def returns_only(function: ast.AST | None, target: str) -> bool:
    """Whether every `return` of `function`'s own body (not of a function defined in it)
    gives the name `target`, and it has one; a generator's `yield` gives others."""
    if not isinstance(function, _DEFS):
        return False
    found = False
    for node in own_nodes(function):
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return False
        if isinstance(node, ast.Return):
            if not (isinstance(node.value, ast.Name) and node.value.id == target):
                return False
            found = True
    return found
