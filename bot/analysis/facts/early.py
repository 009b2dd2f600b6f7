"""The value a new early-return guard of an edited Python function gives: an `if t:` among the
first statements of its body whose last statement is `return v`."""

from __future__ import annotations

import ast

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# The statements of a body (its docstring aside) a guard "at the top" is among.
_FIRST = 3
# A returned value quoted when this short.
_SAID = 40


def early_value(node: ast.AST | None, test: str) -> str | None:
    """What the function returns under `if test:` where that `if` (no `else`) is one of the
    first `_FIRST` statements of its body and its last statement returns a value (`return
    None` gives none), as `ast.unparse` writes it; None where it is not, or too long to say.
    Whether the guard is new to the function is its caller's to know (`conditions_changed`
    reads the test at both revisions)."""
    if not isinstance(node, _DEFS):
        return None
    body = node.body
    if body and _docstring(body[0]):
        body = body[1:]
    for statement in body[:_FIRST]:
        if not isinstance(statement, ast.If) or statement.orelse:
            continue
        if _unparsed(statement.test) != test:
            continue
        last = statement.body[-1]
        if not isinstance(last, ast.Return) or last.value is None:
            return None
        if isinstance(last.value, ast.Constant) and last.value.value is None:
            return None
        said = _unparsed(last.value)
        return said if said is not None and _sayable(said) else None
    return None


def _docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _unparsed(node: ast.AST) -> str | None:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return None


def _sayable(text: str) -> bool:
    """One short line, no backquote, no run of spaces (a sentence folds them: the quote would
    be false)."""
    return 0 < len(text) <= _SAID and "`" not in text and "\n" not in text and "  " not in text
