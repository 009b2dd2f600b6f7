"""What an edited Python function now returns, read from its two parses: a value where it
returned none, or another name or literal where every `return` gave one."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from bot.analysis.facts.modules import children

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
# A function with more `return`s than this branches too much for one sentence.
_MOST = 2
# A returned expression quoted when this short.
_SAID = 40


def _own(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of the function's own code: its body, the functions, classes and lambdas
    defined in it aside."""
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        yield current
        if not isinstance(current, _NESTED):
            stack += children(current)


def _returns(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many `return`s the function's own code has, read through its statements alone
    (`_own` meets the same ones: a `return` is a statement, and no expression holds one)."""
    count = 0
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Return):
            count += 1
        elif not isinstance(current, _NESTED):
            for block in ("body", "orelse", "finalbody", "handlers", "cases"):
                held = getattr(current, block, None)
                if isinstance(held, list):
                    stack += held
    return count


def _valued(statement: ast.Return) -> bool:
    """A `return` that gives a value (`return None` gives none a bare `return` does not)."""
    value = statement.value
    return value is not None and not (isinstance(value, ast.Constant) and value.value is None)


def _sayable(value: ast.expr) -> bool:
    """An expression said as written: a name, an attribute, a literal, a tuple of names, a
    call of a name with names or literals."""

    def plain(v: ast.expr) -> bool:
        while isinstance(v, ast.Attribute):
            v = v.value
        return isinstance(v, ast.Name)

    def simple(v: ast.expr) -> bool:
        return plain(v) or (isinstance(v, ast.Constant) and not isinstance(v.value, bytes))

    if simple(value):
        return True
    if isinstance(value, ast.Tuple):
        return bool(value.elts) and all(plain(e) for e in value.elts)
    if isinstance(value, ast.Call):
        return (
            plain(value.func)
            and all(simple(a) for a in value.args)
            and all(k.arg is not None and simple(k.value) for k in value.keywords)
        )
    return False


def _unparsed(value: ast.expr) -> str | None:
    """The expression as `ast.unparse` writes it; None where it cannot (an integer past
    Python's digits limit)."""
    try:
        return ast.unparse(value)
    except (ValueError, RecursionError):
        return None


def _said(value: ast.expr) -> str | None:
    text = _unparsed(value)
    if text is None:
        return None
    ok = len(text) <= _SAID and "`" not in text and "\n" not in text and "  " not in text
    return text if ok and _sayable(value) else None


def _bound(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names the function's own code binds (assignments, loops, `with … as`, imports)."""
    out: set[str] = set()
    for n in _own(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del):
            out.add(n.id)
        elif isinstance(n, ast.alias):
            out.add((n.asname or n.name).split(".", 1)[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
    return out


def returns_changed(was: ast.AST | None, now: ast.AST | None) -> tuple[tuple[str, ...], str] | None:
    """What a function defined at both revisions now returns, where it is proven and short:
    (the values, "") where the parent's own code returned no value (no `return v`: it gave
    `None`) and the commit's returns one on every way out (its body ends in a `return v`, no
    bare `return` left; one or two `return`s, each said as written); (the value, the old one)
    where every `return` of both (one or two) gave one literal or name, another at the commit
    (never a local it binds: a renamed local is no other value). None for a generator, or
    anything else."""
    if not isinstance(was, _DEFS) or not isinstance(now, _DEFS):
        return None
    if not 0 < _returns(now) <= _MOST:
        return None  # (read through the statements alone: most edited functions end here)
    before, after = list(_own(was)), list(_own(now))
    if any(isinstance(n, ast.Yield | ast.YieldFrom) for n in (*before, *after)):
        return None
    was_returns = [n for n in before if isinstance(n, ast.Return)]
    now_returns = [n for n in after if isinstance(n, ast.Return)]
    if not now_returns or len(now_returns) > _MOST:
        return None
    if not any(map(_valued, was_returns)):
        last = now.body[-1]
        if not (isinstance(last, ast.Return) and all(map(_valued, now_returns))):
            return None
        said = [_said(r.value) for r in now_returns if r.value is not None]
        if None in said:
            return None
        return tuple(dict.fromkeys(s for s in said if s is not None)), ""
    if len(was_returns) > _MOST or not all(map(_valued, (*was_returns, *now_returns))):
        return None
    old = {_unparsed(r.value) for r in was_returns if r.value is not None}
    new = {_unparsed(r.value) for r in now_returns if r.value is not None}
    if len(old) != 1 or len(new) != 1 or old == new or None in old | new:
        return None
    old_value, new_value = was_returns[0].value, now_returns[0].value
    assert old_value is not None and new_value is not None
    for value, node in ((old_value, was), (new_value, now)):
        if isinstance(value, ast.Name):
            if value.id in _bound(node):
                return None
        elif not (isinstance(value, ast.Constant) and not isinstance(value.value, bytes)):
            return None
    said_new, said_old = _said(new_value), _said(old_value)
    if said_new is None or said_old is None:
        return None
    return (said_new,), said_old
