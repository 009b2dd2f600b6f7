"""A lookup tested before it is made where the parent caught its failure: `try: m = d[k]`
`except KeyError:` became `if k in d: m = d[k]`, or `m = d.get(k, D)`. The handler is gone,
and so is what it caught: no `KeyError` reaches a caller it did not reach before (toolz
2ac03ce's `join`)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from bot.analysis.facts.meaning import gets_respelled
from bot.analysis.facts.modules import own_nodes

# What a failed subscript raises, by the names a handler may catch it as
_LOOKUP_ERRORS = frozenset({"KeyError", "IndexError", "LookupError"})


def lookups_tested(was: ast.AST | None, now: ast.AST | None, lost: Iterable[str]) -> frozenset[str]:
    """The exceptions of `lost` (a function's handlers gone between `was` and `now`) that
    only its lookups could raise, each now tested first: at the parent, every `try` whose
    handler names it holds no call (nor `await`) and its subscripts `x[k]` are the only
    lookups that fail so; at the commit, each such `x[k]` the function still reads sits in
    the body of an `if` whose test is `k in x`, and at least one does."""
    if not isinstance(was, ast.FunctionDef | ast.AsyncFunctionDef):
        return frozenset()
    if not isinstance(now, ast.FunctionDef | ast.AsyncFunctionDef):
        return frozenset()
    found = set()
    for name in lost:
        if name.rsplit(".", 1)[-1] not in _LOOKUP_ERRORS:
            continue
        lookups = _caught_lookups(was, name)
        tested = bool(lookups) and all(_tested(now, lookup) for lookup in lookups)
        if tested or _respelled(was, now, name):
            found.add(name)
    return frozenset(found)


def _respelled(was: ast.AST, now: ast.AST, name: str) -> bool:
    """Whether every `try` of `was` whose handler names `name` is a lookup with a default
    the function `now` writes as `.get` (`try: t = d[k]` / `except KeyError: t = D` became
    `t = d.get(k, D)`): the same lookup, whose miss gives the same default."""
    tries = [
        n
        for n in own_nodes(was)
        if isinstance(n, ast.Try | ast.TryStar)
        and any(name.rsplit(".", 1)[-1] in _names(h.type) for h in n.handlers)
    ]
    said = {id(old) for old, _ in gets_respelled(was, now)}
    return bool(tries) and all(id(t) in said for t in tries)


def _names(handler: ast.expr | None) -> set[str]:
    if handler is None:
        return {"*"}
    if isinstance(handler, ast.Tuple):
        return {n for e in handler.elts for n in _names(e)}
    return {ast.unparse(handler).rsplit(".", 1)[-1]}


def _caught_lookups(function: ast.AST, name: str) -> set[tuple[str, str]]:
    """Each `(x, k)` of the subscripts `x[k]` read in the `try` bodies whose handler names
    `name`; empty where such a body makes a call or awaits (what else may raise it)."""
    short = name.rsplit(".", 1)[-1]
    lookups: set[tuple[str, str]] = set()
    for node in own_nodes(function):
        if not isinstance(node, ast.Try | ast.TryStar):
            continue
        if not any(short in _names(h.type) for h in node.handlers):
            continue
        for statement in node.body:
            for inner in (statement, *own_nodes(statement)):
                if isinstance(inner, ast.Call | ast.Await | ast.YieldFrom | ast.Try):
                    return set()
                if isinstance(inner, ast.Subscript) and isinstance(inner.ctx, ast.Load):
                    lookups.add((ast.unparse(inner.value), ast.unparse(inner.slice)))
    return lookups


def _tested(function: ast.AST, lookup: tuple[str, str]) -> bool:
    """Whether each read of `x[k]` in `function` sits in the body of an `if k in x:` (and
    one does)."""
    within: set[int] = set()
    for node in own_nodes(function):
        if isinstance(node, ast.If) and _tests_in(node.test, lookup):
            within |= {id(n) for statement in node.body for n in (statement, *own_nodes(statement))}
    reads = [
        n
        for n in own_nodes(function)
        if isinstance(n, ast.Subscript)
        and isinstance(n.ctx, ast.Load)
        and (ast.unparse(n.value), ast.unparse(n.slice)) == lookup
    ]
    return bool(reads) and all(id(n) in within for n in reads)


def _tests_in(test: ast.expr, lookup: tuple[str, str]) -> bool:
    """`k in x`, alone or one of an `and`'s operands."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_tests_in(v, lookup) for v in test.values)
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In)
        and (ast.unparse(test.comparators[0]), ast.unparse(test.left)) == lookup
    )
