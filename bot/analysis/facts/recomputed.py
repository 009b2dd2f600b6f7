"""What an edited Python function now computes a name as: the one assignment of a name it
binds once at both revisions (`num_months = round(days / 30.5)`), its value changed."""

from __future__ import annotations

import ast
import copy
from collections import Counter
from collections.abc import Callable

from bot.analysis.facts.meaning import same_meaning
from bot.analysis.facts.same_tree import same_tree

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
    `name = value`, whose value is written otherwise at the commit, the assignment inside the
    same kinds of blocks at both (one under an `if` at the parent and at the top of the body
    at the commit now runs always: "was" would say it ran always before, humanize 647e731's
    `value`): never a value that differs only by the names or attributes it reads (a local
    or a definition renamed is no other value), nor one that reads a name bound at both
    revisions by other statements (humanize a0bb67a's `unit = base**i` for `base ** (i + 2)`,
    `i` now counted from 2: the same value). None where more than `_REWRITE` changed (a
    rewrite); the first `_MOST` said, each value short and on one line."""
    if not isinstance(was, _DEFS) or not isinstance(now, _DEFS):
        return []
    was_own, now_own = _own(was), _own(now)
    before, after = _assigned(was_own), _assigned(now_own)
    # (name, value at the commit, at the parent, whether in the same blocks, the names read)
    changed: list[tuple[str, ast.expr, ast.expr, bool, set[str]]] = []
    for name, (new, inside) in after.items():
        old, was_inside = before.get(name, (None, ()))
        if old is None or same_tree(old, new) or same_meaning(old, new):
            continue
        if _identifiers_only(old, new):
            continue
        changed.append((name, new, old, inside == was_inside, (_read(old) | _read(new)) - {name}))
    if len(changed) > _REWRITE:
        return []
    # (the bindings of the names those values read alone, worked out once: most functions
    # read keep every value, and a large one binds many names)
    wanted = {n for *_, read in changed for n in read}
    was_bound, now_bound = (
        (_bindings(was, was_own, wanted), _bindings(now, now_own, wanted)) if wanted else ({}, {})
    )
    found = [
        (
            name,
            new,
            old,
            blocks
            and not any(
                n in was_bound and n in now_bound and was_bound[n] != now_bound[n] for n in read
            ),
        )
        for name, new, old, blocks, read in changed
    ]
    said = [
        (name, new_text, old_text)
        for name, new, old, kept in found
        if kept and (new_text := _said(new)) is not None and (old_text := _said(old)) is not None
    ]
    return said[:_MOST]


def _own(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[ast.AST, tuple[str, ...]]]:
    """The nodes of the function's own code, the definitions nested in it aside (their names
    are bindings of its own), each with the kinds of the blocks it is in (`("If", "For")`)."""
    out: list[tuple[ast.AST, tuple[str, ...]]] = []
    stack: list[tuple[ast.AST, tuple[str, ...]]] = [(s, ()) for s in node.body]
    while stack:
        current, inside = stack.pop()
        out.append((current, inside))
        if isinstance(current, _NESTED):
            continue
        # (an expression holds no block: most nodes are not asked)
        block = isinstance(current, ast.stmt) and _block(current)
        deeper = (*inside, type(current).__name__) if block else inside
        # (`ast.iter_child_nodes`, inline: a day's functions hold some 300,000 nodes)
        for field in current._fields:
            value = getattr(current, field, None)
            if isinstance(value, ast.AST):
                stack.append((value, deeper))
            elif isinstance(value, list):
                stack += [(v, deeper) for v in value if isinstance(v, ast.AST)]
    return out


def _block(node: ast.AST) -> bool:
    """A statement that holds others (`if`, a loop, `with`, `try`, `match`)."""
    return isinstance(node, ast.stmt) and any(
        isinstance(getattr(node, f, None), list)
        and any(
            isinstance(s, ast.stmt | ast.ExceptHandler | ast.match_case) for s in getattr(node, f)
        )
        for f in ("body", "orelse", "finalbody", "handlers", "cases")
    )


def _assigned(
    own: list[tuple[ast.AST, tuple[str, ...]]],
) -> dict[str, tuple[ast.expr, tuple[str, ...]]]:
    """Each name the function's own code binds once, by a plain `name = value` (or `name: T =
    value`), with that value and the kinds of the blocks it is in, in the order the function
    reads them; a name declared `global`
    or `nonlocal`, or bound any other way too (`+=`, a loop, `with … as`, an import, a
    nested `def`), is none."""
    bindings: Counter[str] = Counter()
    plain: dict[str, tuple[ast.expr, tuple[str, ...]]] = {}
    shared: set[str] = set()
    for n, inside in own:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del):
            bindings[n.id] += 1
        elif isinstance(n, ast.Global | ast.Nonlocal):
            shared.update(n.names)
        elif isinstance(n, _OTHER) and (other := _other_binding(n)) is not None:
            # (asked only of the node types it answers: a day's functions hold some
            # 170,000 nodes, a call each cost a tenth of this reader)
            bindings[other] += 2
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            plain[n.targets[0].id] = n.value, inside
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value:
            plain[n.target.id] = n.value, inside
    once = {
        name: value for name, value in plain.items() if bindings[name] == 1 and name not in shared
    }
    return dict(sorted(once.items(), key=lambda kv: (kv[1][0].lineno, kv[1][0].col_offset)))


def _read(value: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}


def _bindings(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    own: list[tuple[ast.AST, tuple[str, ...]]],
    wanted: set[str],
) -> dict[str, list[str]]:
    """Each name of `wanted` the function binds (its parameters too), with how each binding
    writes it (`for i, s in enumerate(suffix, 2)`, the value assigned), sorted: two
    revisions that bind a name alike give it the same values. (A binding of other names
    alone is not written out: `ast.unparse` of every assignment of a large function cost.)"""
    out: dict[str, list[str]] = {}

    def bind(target: ast.AST, how: Callable[[], str]) -> None:
        names = [n.id for n in ast.walk(target) if isinstance(n, ast.Name) and n.id in wanted]
        if names:
            written = how()
            for name in names:
                out.setdefault(name, []).append(written)

    def said(part: ast.AST) -> Callable[[], str]:
        return lambda: _unparsed(part)

    arguments = node.args
    for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        out.setdefault(arg.arg, []).append("parameter")
    for extra in (arguments.vararg, arguments.kwarg):
        if extra is not None:
            out.setdefault(extra.arg, []).append("parameter")
    for n, _ in own:
        if isinstance(n, ast.Assign):
            for target in n.targets:
                bind(target, said(n.value))
        elif isinstance(n, ast.AnnAssign | ast.NamedExpr) and n.value is not None:
            bind(n.target, said(n.value))
        elif isinstance(n, ast.AugAssign):
            bind(n.target, said(n))
        elif isinstance(n, ast.For | ast.AsyncFor | ast.comprehension):
            bind(n.target, _said_loop(n))
        elif isinstance(n, ast.withitem) and n.optional_vars is not None:
            bind(n.optional_vars, said(n))
        elif (other := _other_binding(n)) is not None:
            out.setdefault(other, []).append(type(n).__name__)
    return {name: sorted(ways) for name, ways in out.items() if name in wanted}


def _said_loop(loop: ast.For | ast.AsyncFor | ast.comprehension) -> Callable[[], str]:
    return lambda: f"for {_unparsed(loop.target)} in {_unparsed(loop.iter)}"


def _unparsed(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return "…"


# The node types `_other_binding` names a binding of
_OTHER = (
    ast.alias,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.ExceptHandler,
    ast.MatchAs,
    ast.MatchStar,
)


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
