"""The value a new early-return guard of an edited Python function gives: an `if t:` among the
first statements of its body whose last statement is `return v`."""

from __future__ import annotations

import ast

from bot.analysis.facts.layout import bare_string

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
# The statements that leave a block another way than its last `return` would.
_LEAVES = (ast.Return, ast.Raise, ast.Continue, ast.Break)
# The statements of a body (its docstring aside) a guard "at the top" is among.
_FIRST = 3
# A returned value quoted when this short.
_SAID = 40


def early_value(node: ast.AST | None, test: str, before: ast.AST | None = None) -> str | None:
    """What the function returns under `if test:` where that `if` (no `else`) is one of the
    first `_FIRST` statements of its body, its last statement returns a value (`return
    None` gives none) and nothing before it in the block returns, raises or leaves a loop, as
    `ast.unparse` writes it; None where it is not, the function is a generator (its `return`
    gives no caller a value), or the value is too long to say.
    Whether the guard is new to the function is its caller's to know (`conditions_changed`
    reads the test at both revisions). With the parent's function (`before`), "early" needs
    the code it leaves early: a statement after the `if` that the parent's body held as it is
    (a body rewritten whole around the guard returns nothing "early")."""
    if not isinstance(node, _DEFS) or any(
        isinstance(n, ast.Yield | ast.YieldFrom) for n in _own(node.body)
    ):
        return None
    body = node.body
    if body and bare_string(body[0]):
        body = body[1:]
    for statement in body[:_FIRST]:
        if not isinstance(statement, ast.If) or statement.orelse:
            continue
        if _unparsed(statement.test) != test:
            continue
        last = statement.body[-1]
        if not isinstance(last, ast.Return) or last.value is None:
            return None
        if any(isinstance(n, _LEAVES) for n in _own(statement.body[:-1])):
            return None
        if isinstance(last.value, ast.Constant) and last.value.value is None:
            return None
        if isinstance(before, _DEFS) and not _leads_to_kept(body, statement, before):
            return None
        said = _unparsed(last.value)
        return said if said is not None and _sayable(said) else None
    return None


def _leads_to_kept(body: list[ast.stmt], guard: ast.If, before: ast.AST) -> bool:
    """Whether a statement after `guard` in `body` is one of `before`'s own statements, as
    written (`ast.dump`, positions aside)."""
    kept = {ast.dump(s) for s in getattr(before, "body", [])}
    after = body[body.index(guard) + 1 :]
    return any(ast.dump(s) in kept for s in after)


def _own(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of statements, the functions, classes and lambdas defined in them aside."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        current = stack.pop()
        out.append(current)
        if not isinstance(current, _NESTED):
            stack.extend(ast.iter_child_nodes(current))
    return out


def _unparsed(node: ast.AST) -> str | None:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return None


def _sayable(text: str) -> bool:
    """One short line, no backquote, no run of spaces (a sentence folds them: the quote would
    be false)."""
    return 0 < len(text) <= _SAID and "`" not in text and "\n" not in text and "  " not in text
