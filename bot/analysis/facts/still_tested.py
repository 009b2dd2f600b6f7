"""Whether a test an edited Python function dropped from its conditions is still tested."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# comparison operators and their negations (`a == b` is tested again by `a != b`)
_NEGATED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}


def still_tested(
    test: str, now: ast.AST | None, was: ast.AST | None, tree: Callable[[], ast.AST | None]
) -> bool:
    """Whether the function `now` (the commit's; `was`, the parent's) still tests `test`,
    or its negation, though not in an `if`: as part of any expression (`first = decimal is
    None or …`, inflect e5dee13), a bare name or attribute only where its truth is read
    (`x or y`, `not x`); or whether a function of the module `tree` gives (None: it does not
    parse; asked only where `now` calls a function `was` did not) that `now` calls and
    `was` did not (a helper extracted) tests it, or reads each string it compares with
    (inflect 825e898: `nowhite[0] == '+'` became `_get_sign`'s `{'+': 'plus', …}[…]`)."""
    try:
        wanted = ast.parse(test, mode="eval").body
    except SyntaxError:
        return False
    if not isinstance(now, _DEFS):
        return False
    if _tests(now, wanted):
        return True
    if not isinstance(was, _DEFS):
        return False
    literals = set(_literals(wanted))
    for helper in _helpers(now, was, tree):
        if _tests(helper, wanted):
            return True
        if literals and literals <= set(_literals(helper)):
            return True
    return False


def _tests(node: ast.AST, wanted: ast.expr) -> bool:
    """Whether `node` holds `wanted` or its negation as an expression (a name or attribute
    only where its truth is read)."""
    forms = {ast.dump(wanted)} | {ast.dump(n) for n in _negations(wanted)}
    truth = _truth_read(node)
    plain = isinstance(wanted, ast.Name | ast.Attribute | ast.Subscript)
    return any(
        isinstance(n, ast.expr) and ast.dump(n) in forms and (not plain or id(n) in truth)
        for n in ast.walk(node)
    )


def _negations(test: ast.expr) -> list[ast.expr]:
    """`test` read the other way round: `a != b` for `a == b`, `x` for `not x`, `not x`."""
    out: list[ast.expr] = [ast.UnaryOp(op=ast.Not(), operand=test)]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        out.append(test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _NEGATED:
        op = _NEGATED[type(test.ops[0])]()
        out.append(ast.Compare(left=test.left, ops=[op], comparators=test.comparators))
    return out


def _truth_read(node: ast.AST) -> set[int]:
    """The ids of the expressions of `node` whose truth is read: tests, `and`/`or`
    operands, `not`'s operand, `bool(…)`'s argument."""
    out: set[int] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.If | ast.While | ast.IfExp | ast.Assert):
            out.add(id(n.test))
        elif isinstance(n, ast.BoolOp):
            out.update(id(v) for v in n.values)
        elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            out.add(id(n.operand))
        elif isinstance(n, ast.comprehension):
            out.update(id(i) for i in n.ifs)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "bool":
            out.update(id(a) for a in n.args)
    return out


def _literals(node: ast.AST) -> list[str]:
    """The strings `node` reads (a number or `None` is in too many functions to tell)."""
    return [
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _called(node: ast.AST) -> set[str]:
    """The last part of each name `node` calls (`h` of `h(…)`, `self.h(…)`, `C.h(…)`)."""
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Name):
                out.add(n.func.id)
            elif isinstance(n.func, ast.Attribute):
                out.add(n.func.attr)
    return out


def _helpers(now: ast.AST, was: ast.AST, tree: Callable[[], ast.AST | None]) -> Iterable[ast.AST]:
    """The functions of the module `tree` gives that `now` calls and `was` did not."""
    fresh = _called(now) - _called(was)
    module = tree() if fresh else None
    if module is None:
        return []
    return [
        n for n in ast.walk(module) if isinstance(n, _DEFS) and n.name in fresh and n is not now
    ]
