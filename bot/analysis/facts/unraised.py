"""A raise an edited Python function's parent reached on a condition, gone at the commit."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from bot.analysis.facts.modules import own_nodes
from bot.analysis.facts.pyfile import dotted, raised_through
from bot.analysis.facts.records import Condition, Turn
from bot.analysis.facts.same_tree import same_tree
from bot.analysis.facts.scan import FileReading, Side

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_Def = ast.FunctionDef | ast.AsyncFunctionDef
# The statements that leave a block another way than the raise at its end would.
_LEAVES = (ast.Return, ast.Raise, ast.Continue, ast.Break)
# What ends a function's run before the statements after it: a return, or a yield (a
# generator's body runs when iterated, not when called)
_EXITS = (ast.Return, ast.Yield, ast.YieldFrom)
# A statement whose value is a call it makes whatever holds
_VALUED = (ast.Expr, ast.Assign, ast.AnnAssign, ast.Return)
# A condition quoted as `ast.unparse` writes it when this short.
_SAID_TEST = 60


def raises_no_longer(r: FileReading, name: str) -> list[Condition]:
    """What a caller no longer meets: a raise of `E` the parent reached when `t` held, gone
    at the commit. Reached: at the parent, a statement of the function's own body (not
    nested in another block), before any that returns or yields, is `if t:` whose block ends
    in `raise E(…)` (nothing before that raise leaving it); or is a call of a function of the
    file (`g(…)`, `self.g(…)`) whose own body reaches such a raise on a test that, its
    parameters read as the arguments passed, is `t`. Gone: the first, where neither the
    function's own code nor a function of the file it calls raises `E` at the commit, no
    `if t:` there raises, and every raise of it naming no class (`raise err`) is one the
    parent had before that `if` (a precondition checked first at both revisions); the
    second, where the commit's function returns under a new `if t:` of its own body and
    nothing before that `if` raises `E` (its own code or a function of the file it calls).
    A `Condition` (NO_LONGER_RAISES, `test` the condition, `was` the exception) for each."""
    was, now = r.minus.functions.get(name), r.plus.functions.get(name)
    if not isinstance(was, _DEFS) or not isinstance(now, _DEFS):
        return []
    if same_tree(was, now):
        return []
    found = _raise_gone(r, name, was, now) + _raise_skipped(r, name, was, now)
    unique = {(c.test, c.was): c for c in found}
    return [c for c in unique.values() if len(c.test) <= _SAID_TEST and "`" not in c.test]


def _raise_gone(r: FileReading, name: str, was: _Def, now: _Def) -> list[Condition]:
    """The function's own `if t: raise E(…)`, gone with every raise of `E` it made."""
    reached = _raises_reached(was.body)
    if not reached:
        # (most parents' functions reach none: the commit's is walked only for one)
        return []
    # (read from the tree: a side's tables hold the functions the diff edits alone)
    raised_now = _walked_raises(now) | raised_through(r.plus, name)
    raising_tests = {
        ast.unparse(n.test)
        for n in own_nodes(now)
        if isinstance(n, ast.If) and isinstance(n.body[-1], ast.Raise)
    }
    unnamed_now = [
        n for n in own_nodes(now) if isinstance(n, ast.Raise) and not _named_class(n.exc)
    ]
    found: list[Condition] = []
    for index, test, exception in reached:
        if exception in raised_now or test in raising_tests:
            continue
        before = was.body[:index]
        checked_first = {ast.dump(n) for s in before for n in _own(s) if isinstance(n, ast.Raise)}
        if any(ast.dump(n) not in checked_first for n in unnamed_now):
            continue
        found.append(Condition(name, r.path, Turn.NO_LONGER_RAISES, test, exception))
    return found


def _raise_skipped(r: FileReading, name: str, was: _Def, now: _Def) -> list[Condition]:
    """A new guard `if t: … return` of the commit's function, where the parent's function
    called a function of the file that raised `E` when `t` held."""
    # (the parent's tests written out only where the commit's function has a guard to match
    # them with: most have none)
    tested_before: set[str] | None = None
    guards: dict[str, list[ast.stmt]] = {}  # a new guard's test -> the statements before it
    for index, statement in _until_left(now.body):
        before = now.body[:index]
        if not isinstance(statement, ast.If) or statement.orelse:
            continue
        if not isinstance(statement.body[-1], ast.Return) or _leaves(statement.body[:-1], True):
            continue
        test = ast.unparse(statement.test)
        if tested_before is None:
            tested_before = {
                ast.unparse(n.test)
                for n in own_nodes(was)
                if isinstance(n, ast.If | ast.While | ast.IfExp)
            }
        if test not in tested_before and not _rebinds(before, test):
            guards.setdefault(test, before)
    found: list[Condition] = []
    for index, statement in _until_left(was.body if guards else []):
        call = statement.value if isinstance(statement, _VALUED) else None
        callee = _callee(r.minus, name, call)
        if callee is None or not isinstance(call, ast.Call):
            continue
        for at, test, exception in _raises_reached(callee.body):
            if _rebinds(callee.body[:at], test):
                continue
            said = _as_passed(test, callee, call)
            if said is not None and _rebinds(was.body[:index], said):
                continue
            ahead = None if said is None else guards.get(said)
            if said is None or ahead is None or _raises_in(r, name, ahead, exception):
                continue
            found.append(Condition(name, r.path, Turn.NO_LONGER_RAISES, said, exception))
    return found


def _raises_reached(body: list[ast.stmt]) -> list[tuple[int, str, str]]:
    """Each statement of `body` (its index, its test, the exception) that is `if t:` ending
    in `raise E(…)` with nothing before that raise leaving its block, where no statement
    before it returns or yields: `t` true reaches the raise."""
    found = []
    for index, statement in _until_left(body):
        if not isinstance(statement, ast.If):
            continue
        last = statement.body[-1]
        if not isinstance(last, ast.Raise) or not _named_class(last.exc):
            continue
        if _leaves(statement.body[:-1], True):
            continue
        found.append((index, ast.unparse(statement.test), dotted(last.exc)))  # type: ignore[arg-type]
    return found


def _until_left(body: list[ast.stmt]) -> Iterator[tuple[int, ast.stmt]]:
    """Each statement of `body` with its index, up to the first one after a statement that
    returns or yields (`_leaves` of the statements before it, each read once)."""
    for index, statement in enumerate(body):
        yield index, statement
        if _leaves([statement]):
            return


def _leaves(statements: list[ast.stmt], raising: bool = False) -> bool:
    """Whether one of the statements returns or yields (or raises, continues or breaks,
    with `raising`): a path past them is not every path."""
    kinds = (*_LEAVES, ast.Yield, ast.YieldFrom) if raising else _EXITS
    return any(isinstance(n, kinds) for s in statements for n in _own(s))


def _rebinds(statements: list[ast.stmt], test: str) -> bool:
    """Whether the statements bind a name the test reads: it may test another value there
    than the one the function was given."""
    read = {n.id for n in ast.walk(ast.parse(test, mode="eval")) if isinstance(n, ast.Name)}
    return any(
        isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del) and n.id in read
        for s in statements
        for n in _own(s)
    )


def _callee(side: Side, name: str, call: ast.expr | None) -> _Def | None:
    """The function of the file a call names (`g(…)`, `self.g(…)` of the caller's class),
    as `raised_through` finds it; None for another call."""
    if not isinstance(call, ast.Call):
        return None
    func = call.func
    owner = name.rpartition(".")[0]
    if isinstance(func, ast.Name):
        called = func.id
    elif (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id in ("self", "cls")
        and owner
    ):
        called = f"{owner}.{func.attr}"
    else:
        return None
    node = side.functions.get(called)
    return node if isinstance(node, _DEFS) and called != name else None


def _as_passed(test: str, callee: _Def, call: ast.Call) -> str | None:
    """The callee's test with each of its parameters read as the argument the call passes
    (`not patterns` of `_compile(self, patterns)` called `self._compile(items)`: `not
    items`); None where an argument is unpacked or a name it tests is not passed."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    params = [a.arg for a in (*callee.args.posonlyargs, *callee.args.args)]
    if isinstance(call.func, ast.Attribute) and params[:1] in (["self"], ["cls"]):
        params = params[1:]
    if len(call.args) > len(params):
        return None
    passed: dict[str, ast.expr] = dict(zip(params, call.args, strict=False))
    passed |= {k.arg: k.value for k in call.keywords if k.arg is not None}
    every = {*params, *(a.arg for a in callee.args.kwonlyargs)}
    tree = ast.parse(test, mode="eval")

    class _Read(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return passed.get(node.id, node)

    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    if any(n in every and n not in passed for n in names):
        return None
    return ast.unparse(_Read().visit(tree))


def _raises_in(r: FileReading, name: str, statements: list[ast.stmt], exception: str) -> bool:
    """Whether the statements may raise `exception` at the commit: a raise of it, one
    naming no class, or a call of a function of the file that raises it."""
    for statement in statements:
        for node in _own(statement):
            if isinstance(node, ast.Raise) and (
                not _named_class(node.exc) or dotted(node.exc) == exception  # type: ignore[arg-type]
            ):
                return True
            callee = _callee(r.plus, name, node) if isinstance(node, ast.Call) else None
            if callee is not None and exception in _walked_raises(callee):
                return True
    return False


def _walked_raises(node: _Def) -> set[str]:
    """The exceptions a function's own code raises by name."""
    return {
        dotted(n.exc)
        for n in own_nodes(node)
        if isinstance(n, ast.Raise) and n.exc is not None and _named_class(n.exc)
    }


def _named_class(exc: ast.expr | None) -> bool:
    """`raise ValueError(…)`, `raise errors.Invalid`: a class named as written, not a value
    held by a variable (`raise err`) nor a bare re-raise."""
    if exc is None:
        return False
    name = dotted(exc)
    return bool(name) and name.rsplit(".", 1)[-1][:1].isupper()


def _own(statement: ast.stmt) -> list[ast.AST]:
    """The statement and the nodes under it, nested definitions left out (a `def` or a
    `class` statement runs none of its body)."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [statement]
    return [statement, *own_nodes(statement)]
