"""Positional parameters a function kept whose place another parameter now takes."""

from __future__ import annotations

import ast

from bot.analysis.facts.records import Shift

# the instance or class a method is bound to: no caller passes it
_BOUND = ("self", "cls")


def shifted(before: ast.AST | None, after: ast.AST | None) -> tuple[Shift, ...]:
    """Each positional parameter of a function's parent `def` still positional at the commit
    whose place there another parameter now takes, one put before it: a parameter the
    commit inserts (`new`) or one of its own that followed it (a reordering). A parameter
    the change removes before it (that loss is said of its own) moves it to the left,
    never to the right, and is none of these."""
    if not isinstance(before, ast.FunctionDef | ast.AsyncFunctionDef) or not isinstance(
        after, ast.FunctionDef | ast.AsyncFunctionDef
    ):
        return ()
    was = [a.arg for a in (*before.args.posonlyargs, *before.args.args)]
    now = [a.arg for a in (*after.args.posonlyargs, *after.args.args)]
    out = []
    for place, old in enumerate(was):
        if old in _BOUND or old not in now or place >= len(now) or now.index(old) <= place:
            continue
        took = now[place]
        # one of its own that came before it at the parent too moved along with it
        if took in _BOUND or (took in was and was.index(took) < place):
            continue
        out.append(Shift(took, old, new=took not in was))
    return tuple(out)
