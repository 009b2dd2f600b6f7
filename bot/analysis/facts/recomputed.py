"""What an edited Python function now computes a name as: the one assignment of a name it
binds once at both revisions (`num_months = round(days / 30.5)`), its value changed."""

from __future__ import annotations

import ast
import copy
from collections import Counter

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
# A function with more of its assignments' values changed than this was rewritten: not said.
_REWRITE = 4
# Of one function, at most this many are said (in the order the function reads them).
_MOST = 2
# A value quoted when this short.
_SAID = 60


def recomputed(was: ast.AST | None, now: ast.AST | None) -> list[tuple[str, str, str]]:
    """(name, value at the commit, value at the parent) of each name the function's own code
    (nested functions, classes and lambdas aside) binds once at both revisions, by a plain
    `name = value`, whose value is written otherwise at the commit: never a value that differs
    only by the names or attributes it reads (a local or a definition renamed is no other
    value). None where more than `_REWRITE` changed (a rewrite); the first `_MOST` said, each
    value short and on one line."""
    if not isinstance(was, _DEFS) or not isinstance(now, _DEFS):
        return []
    before, after = _assigned(was), _assigned(now)
    found: list[tuple[str, ast.expr, ast.expr]] = []
    for name, new in after.items():
        old = before.get(name)
        if old is None or ast.dump(old) == ast.dump(new):
            continue
        if _identifiers_only(old, new):
            continue
        found.append((name, new, old))
    if len(found) > _REWRITE:
        return []
    said = [
        (name, new_text, old_text)
        for name, new, old in found
        if (new_text := _said(new)) is not None and (old_text := _said(old)) is not None
    ]
    return said[:_MOST]


def _own(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """The nodes of the function's own code, the definitions nested in it aside (their names
    are bindings of its own)."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(node.body)
    while stack:
        current = stack.pop()
        out.append(current)
        if not isinstance(current, _NESTED):
            stack.extend(ast.iter_child_nodes(current))
    return out


def _assigned(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.expr]:
    """Each name the function's own code binds once, by a plain `name = value` (or `name: T =
    value`), with that value, in the order the function reads them; a name declared `global`
    or `nonlocal`, or bound any other way too (`+=`, a loop, `with … as`, an import, a
    nested `def`), is none."""
    own = _own(node)
    bindings: Counter[str] = Counter()
    plain: dict[str, ast.expr] = {}
    shared: set[str] = set()
    for n in own:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del):
            bindings[n.id] += 1
        elif isinstance(n, ast.Global | ast.Nonlocal):
            shared.update(n.names)
        elif (other := _other_binding(n)) is not None:
            bindings[other] += 2
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            plain[n.targets[0].id] = n.value
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value:
            plain[n.target.id] = n.value
    once = {
        name: value for name, value in plain.items() if bindings[name] == 1 and name not in shared
    }
    return dict(sorted(once.items(), key=lambda kv: (kv[1].lineno, kv[1].col_offset)))


def _other_binding(n: ast.AST) -> str | None:
    """The name a node binds other than by an assignment's target: an import, an `except …
    as`, a nested `def` or `class`, a `match` capture."""
    if isinstance(n, ast.alias):
        return (n.asname or n.name).split(".", 1)[0]
    if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return n.name
    if isinstance(n, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return n.name
    return None


class _Blank(ast.NodeTransformer):
    """Every name, and every attribute chain on one (`dt.date`, `self._timeout`), read as one
    name."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(id="_", ctx=ast.Load())

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        chain: ast.expr = node
        while isinstance(chain, ast.Attribute):
            chain = chain.value
        if isinstance(chain, ast.Name):
            return ast.Name(id="_", ctx=ast.Load())
        self.generic_visit(node)
        return ast.Attribute(value=node.value, attr="_", ctx=ast.Load())


def _identifiers_only(old: ast.expr, new: ast.expr) -> bool:
    """Whether the two values are one expression but for the names and dotted names they
    read (`self._timeout` and `self.timeout`, `_foo(x)` and `_bar(x)`, `date(…)` and
    `dt.date(…)` after `import datetime as dt`): a rename as likely as another value, never
    said as one."""
    return ast.dump(_Blank().visit(copy.deepcopy(old))) == ast.dump(
        _Blank().visit(copy.deepcopy(new))
    )


def _said(value: ast.expr) -> str | None:
    try:
        text = ast.unparse(value)
    except (ValueError, RecursionError):
        return None
    short = 0 < len(text) <= _SAID
    return text if short and "`" not in text and "\n" not in text and "  " not in text else None
