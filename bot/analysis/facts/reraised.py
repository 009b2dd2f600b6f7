"""The exceptions a function raises only inside a handler of that same class (a re-raise)."""

from __future__ import annotations

import ast
import builtins

from bot.analysis.facts.modules import own_nodes
from bot.analysis.facts.pyfile import dotted

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _own(nodes: list[ast.stmt]) -> list[ast.AST]:
    """Every node of `nodes`, the functions, classes and lambdas defined in them aside (the
    last statement's first, as one stack of them all would give them)."""
    return [
        inner
        for node in reversed(nodes)
        if not isinstance(node, _NESTED)
        for inner in (node, *own_nodes(node))
    ]


def _covers(caught: str, raised: str) -> bool:
    """Whether what a handler of `caught` lets through was a `raised` already: the same
    name, or a builtin class under it (`except KeyError:` → `raise LookupError(…)`)."""
    if caught.rsplit(".", 1)[-1] == raised.rsplit(".", 1)[-1]:
        return True
    was, now = getattr(builtins, caught, None), getattr(builtins, raised, None)
    return (
        isinstance(was, type)
        and isinstance(now, type)
        and issubclass(was, BaseException)
        and issubclass(was, now)
    )


def reraised(node: ast.AST | None) -> dict[str, frozenset[str]]:
    """Each exception of which every own raise of `node` sits in the body of an `except`
    catching it (`except TypeError: raise TypeError("needs 2-D data")`), with the classes
    those handlers name: a caller met it already where the handler is new, only the message
    is."""
    if node is None:
        return {}
    own = _own(getattr(node, "body", []))
    sites: dict[str, int] = {}
    for inner in own:
        if isinstance(inner, ast.Raise) and inner.exc is not None:
            name = dotted(inner.exc)
            if name:
                sites[name] = sites.get(name, 0) + 1
    inside: dict[str, int] = {}
    handlers: dict[str, set[str]] = {}
    for inner in own if sites else ():
        if not isinstance(inner, ast.ExceptHandler) or inner.type is None:
            continue
        kinds = inner.type.elts if isinstance(inner.type, ast.Tuple) else [inner.type]
        names = [n for k in kinds if (n := dotted(k))]
        for raise_ in _own(inner.body):
            if not isinstance(raise_, ast.Raise) or raise_.exc is None:
                continue
            name = dotted(raise_.exc)
            covering = {n for n in names if _covers(n, name)} if name else set()
            if covering:
                inside[name] = inside.get(name, 0) + 1
                handlers.setdefault(name, set()).update(covering)
    return {
        name: frozenset(handlers[name])
        for name, count in sites.items()
        if inside.get(name) == count
    }
