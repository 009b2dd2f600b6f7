"""Options a function stopped taking out of its `**kwargs` that it now passes on to a call."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from bot.analysis.facts.modules import children, module_tree
from bot.analysis.facts.records import Forwarded

_Function = ast.FunctionDef | ast.AsyncFunctionDef


def forwarded_options(path: str, before: str, after: str) -> list[Forwarded]:
    """Each function at both revisions whose `**kwargs` the parent took options out of with
    `kwargs.pop('x', …)` that the commit names nowhere in it, where the commit's function
    passes `**kwargs` on to a call of its own: `x` now reaches that call."""
    if not _may_forward(before, after):
        return []
    try:
        old, new = _functions(module_tree(before)), _functions(module_tree(after))
    except (SyntaxError, ValueError, RecursionError):
        return []
    found = []
    for name, function in new.items():
        parent = old.get(name)
        kwargs = function.args.kwarg
        if parent is None or kwargs is None or parent.args.kwarg is None:
            continue
        popped = _popped(parent, parent.args.kwarg.arg)
        named = {
            n.value
            for n in _own(function)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        }
        gone = [option for option in popped if option not in named]
        callee = _forwarding(function, kwargs.arg)
        if gone and callee is not None:
            found.append(Forwarded(path=path, function=name, options=tuple(gone), callee=callee))
    return found


def _may_forward(before: str, after: str) -> bool:
    """Whether both sides may take `**kwargs` and the parent may call `pop` (an identifier
    is written as read where the text is ASCII; Python folds other letters, NFKC)."""
    return "**" in before and "**" in after and ("pop" in before or not before.isascii())


def _functions(tree: ast.Module) -> dict[str, _Function]:
    found: dict[str, _Function] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    found[f"{node.name}.{item.name}"] = item
    return found


def _own(function: _Function) -> Iterator[ast.AST]:
    """The nodes of the function's own body in source order, nested definitions left out."""
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(reversed(children(node)))


def _popped(function: _Function, kwargs: str) -> list[str]:
    return list(
        dict.fromkeys(
            node.args[0].value
            for node in _own(function)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "pop"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == kwargs
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        )
    )


def _forwarding(function: _Function, kwargs: str) -> str | None:
    """The call the function passes `**kwargs` on to, unless it rebinds `kwargs`."""
    callee = None
    for node in _own(function):
        if isinstance(node, ast.Name) and node.id == kwargs and not isinstance(node.ctx, ast.Load):
            return None
        if isinstance(node, ast.Call) and any(
            k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwargs
            for k in node.keywords
        ):
            if callee is not None:
                return None  # two calls: which one a user's option reaches is not one
            callee = ast.unparse(node.func)
    return callee
