"""Whether two definitions' code is nearly the same, docstrings and own names aside."""

from __future__ import annotations

import ast
import difflib

# How alike (difflib's ratio) the code of one name out of a file and one into it is, at least,
# to be one renamed: the measure `statements.py` reads a statement rewritten in place by.
ALIKE = 0.6


def _code(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    body = node.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    return "\n".join(ast.unparse(s) for s in body).replace(node.name, "")


def alike_code(was: ast.AST | None, now: ast.AST | None) -> bool:
    """Whether two functions' bodies (docstrings aside, their own names read as one) are at
    least `ALIKE` the same; True for anything else (nothing to tell them apart by)."""
    defs = ast.FunctionDef | ast.AsyncFunctionDef
    if not isinstance(was, defs) or not isinstance(now, defs):
        return True
    old, new = _code(was).replace(now.name, ""), _code(now).replace(was.name, "")
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return (
        matcher.real_quick_ratio() >= ALIKE
        and matcher.quick_ratio() >= ALIKE
        and matcher.ratio() >= ALIKE
    )
