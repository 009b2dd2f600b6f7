"""Python expressions and statements read in one spelling where two mean the same."""

from __future__ import annotations

import ast
import copy
import re
import string
from collections import Counter

from bot.analysis.facts.same_tree import same_tree

# `%` conversions an f-string writes alike: `%s` is `{x}`, `%r` is `{x!r}`
_PERCENT = re.compile(r"%(?:(%)|([sr]))|%")
# `open` modes that are its default, text reading
_READ = frozenset({"r", "rt", "tr"})
# builtins that, called with nothing, give what an empty display gives
_EMPTY = frozenset({"dict", "list", "tuple"})


def same_meaning(old: ast.AST, new: ast.AST, enclosing: str | None = None) -> bool:
    """Whether `old` and `new` are one spelling apart: `'%s=%s' % (k, v)` or
    `'{}={}'.format(k, v)` and `f'{k}={v}'`, `open(f, 'r')` and `open(f)`, `dict()` and
    `{}`, `not x in y` and `x not in y`, and inside a method of the class `enclosing`,
    `super(enclosing, self)` and `super()`."""
    return same_tree(_Plain(enclosing).read(old), _Plain(enclosing).read(new))


class _Plain(ast.NodeTransformer):
    """Each spelling rewritten to the one `same_meaning` compares."""

    def __init__(self, enclosing: str | None) -> None:
        self.enclosing = enclosing

    def read(self, node: ast.AST) -> ast.AST:
        read: ast.AST = self.visit(copy.deepcopy(node))
        return read

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if (
            isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
            # a tuple written out: one value alone may be a tuple, `%` then spreads it
            and isinstance(node.right, ast.Tuple)
            and not any(isinstance(e, ast.Starred) for e in node.right.elts)
        ):
            return _percent(node.left.value, node.right.elts) or node
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (found := _literal_format(node)) is not None:
            return found
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            return _open_default(node)
        if isinstance(func, ast.Name) and func.id in _EMPTY and not node.args and not node.keywords:
            return _empty(func.id)
        if (
            isinstance(func, ast.Name)
            and func.id == "super"
            and self.enclosing
            and len(node.args) == 2
            and not node.keywords
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == self.enclosing
            and isinstance(node.args[1], ast.Name)
            and node.args[1].id in ("self", "cls")
        ):
            return ast.Call(func=func, args=[], keywords=[])
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        self.generic_visit(node)
        return _joined(list(node.values))

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        return _negated(node) or node


def _negated(node: ast.UnaryOp) -> ast.Compare | None:
    """`not x in y` as `x not in y` (`is` alike): the language defines each as the other."""
    inner = node.operand
    if not (
        isinstance(node.op, ast.Not)
        and isinstance(inner, ast.Compare)
        and len(inner.ops) == 1
        and isinstance(inner.ops[0], ast.In | ast.Is)
    ):
        return None
    op: ast.cmpop = ast.NotIn() if isinstance(inner.ops[0], ast.In) else ast.IsNot()
    compared = ast.Compare(left=inner.left, ops=[op], comparators=inner.comparators)
    return ast.copy_location(compared, node)


def _empty(builtin: str) -> ast.expr:
    """The empty display `builtin()` gives: `{}`, `[]`, `()`."""
    if builtin == "dict":
        return ast.Dict(keys=[], values=[])
    if builtin == "list":
        return ast.List(elts=[], ctx=ast.Load())
    return ast.Tuple(elts=[], ctx=ast.Load())


def _percent(template: str, values: list[ast.expr]) -> ast.JoinedStr | None:
    """`template % (values…)` as an f-string, where each conversion is `%s` or `%r`."""
    parts: list[ast.expr] = []
    at, taken = 0, 0
    for m in _PERCENT.finditer(template):
        parts.append(ast.Constant(value=template[at : m.start()]))
        at = m.end()
        if m.group(1):
            parts.append(ast.Constant(value="%"))
            continue
        if not m.group(2) or taken >= len(values):
            return None  # `%d`, `%(name)s`, a width: another format than `{x}`
        conversion = -1 if m.group(2) == "s" else ord("r")
        parts.append(ast.FormattedValue(value=values[taken], conversion=conversion))
        taken += 1
    if taken != len(values):
        return None
    parts.append(ast.Constant(value=template[at:]))
    return _joined(parts)


def _literal_format(call: ast.Call) -> ast.JoinedStr | None:
    """`call` as an f-string where it is `.format(…)` called on a string literal and
    `_formatted` reads its template; None for any other call."""
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "format"
        and isinstance(func.value, ast.Constant)
        and isinstance(func.value.value, str)
    ):
        return _formatted(func.value.value, call)
    return None


def _formatted(template: str, call: ast.Call) -> ast.JoinedStr | None:
    """`template.format(…)` as an f-string, where each field names a value passed plainly
    (`{}`, `{0}`, `{name}`) with no attribute, index or nested field."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    named = {k.arg: k.value for k in call.keywords if k.arg}
    parts: list[ast.expr] = []
    auto = 0
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return None
    used: list[int | str] = []
    for text, field, spec, conversion in fields:
        parts.append(ast.Constant(value=text))
        if field is None:
            continue
        if field == "":
            index: int | str = auto
            auto += 1
        elif field.isdigit():
            index = int(field)
        elif field.isidentifier():
            index = field
        else:
            return None
        used.append(index)
        if isinstance(index, int):
            if index >= len(call.args):
                return None
            value = call.args[index]
        elif index in named:
            value = named[index]
        else:
            return None
        if (spec and "{" in spec) or conversion not in (None, "r", "s", "a"):
            return None
        parts.append(
            ast.FormattedValue(
                value=value,
                conversion=-1 if conversion is None else ord(conversion),
                format_spec=_joined([ast.Constant(value=spec)]) if spec else None,
            )
        )
    # each value evaluated once, as `format` evaluates it: none left out, none read twice
    if sorted(used, key=str) != sorted([*range(len(call.args)), *named], key=str):
        return None
    return _joined(parts)


def _joined(parts: list[ast.expr]) -> ast.JoinedStr:
    """An f-string of `parts`, adjacent literal pieces as one, empty ones left out."""
    out: list[ast.expr] = []
    for part in parts:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            if not part.value:
                continue
            last = out[-1] if out else None
            if isinstance(last, ast.Constant) and isinstance(last.value, str):
                out[-1] = ast.Constant(value=last.value + part.value)
                continue
            out.append(ast.Constant(value=part.value))
            continue
        out.append(part)
    return ast.JoinedStr(values=out)


def _open_default(call: ast.Call) -> ast.Call:
    """`open(f, 'r')` (or `mode='r'`) as `open(f)`: reading text is its default."""
    args, keywords = list(call.args), list(call.keywords)
    if len(args) == 2 and _read_mode(args[1]):
        args = args[:1]
    keywords = [k for k in keywords if not (k.arg == "mode" and _read_mode(k.value))]
    return ast.Call(func=call.func, args=args, keywords=keywords)


def _read_mode(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value in _READ


# comparisons alike where the left side is at most the right: `i + 1 == n` and `i + 1 >= n`
_AT_MOST: tuple[frozenset[type[ast.cmpop]], ...] = (
    frozenset({ast.Eq, ast.GtE}),
    frozenset({ast.NotEq, ast.Lt}),
)


def same_in_range(old: str, new: str, was: ast.AST | None, now: ast.AST | None) -> bool:
    """Whether two tests of `i + 1` against `n` (`==` and `>=`, or `!=` and `<`) agree
    because each is made inside `for i in range(n):`, which neither rebinds: `i + 1` is
    never more than `n` there (funcy eca50f9's `retry`: `attempt + 1 == tries` became
    `attempt + 1 >= tries`)."""
    try:
        a, b = ast.parse(old, mode="eval").body, ast.parse(new, mode="eval").body
    except SyntaxError:
        return False
    if not (isinstance(a, ast.Compare) and isinstance(b, ast.Compare)):
        return False
    if len(a.ops) != 1 or len(b.ops) != 1 or {type(a.ops[0]), type(b.ops[0])} not in _AT_MOST:
        return False
    if not (same_tree(a.left, b.left) and same_tree(a.comparators[0], b.comparators[0])):
        return False
    left, bound = a.left, a.comparators[0]
    if not (
        isinstance(left, ast.BinOp)
        and isinstance(left.op, ast.Add)
        and isinstance(left.left, ast.Name)
        and isinstance(left.right, ast.Constant)
        and left.right.value == 1
        and isinstance(bound, ast.Name)
    ):
        return False
    index = left.left.id
    return _in_range_loop(was, a, index, bound.id) and _in_range_loop(now, b, index, bound.id)


def _in_range_loop(function: ast.AST | None, test: ast.expr, index: str, bound: str) -> bool:
    """Whether each `if` of `function` testing `test` (one at least) is inside `for index in
    range(bound):` whose body binds neither name."""
    if function is None:
        return False
    wanted = ast.dump(test)
    inside: set[int] = set()
    for loop in ast.walk(function):
        if not _range_loop(loop, index, bound):
            continue
        assert isinstance(loop, ast.For)  # of `_range_loop`
        body = [n for s in loop.body for n in ast.walk(s)]
        if any(
            isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id in (index, bound)
            for n in body
        ):
            return False
        inside.update(id(n) for n in body if _testing(n, wanted))
    every = {id(n) for n in ast.walk(function) if _testing(n, wanted)}
    return bool(every) and every <= inside


def _range_loop(node: ast.AST, index: str, bound: str) -> bool:
    """`for index in range(bound):`."""
    return (
        isinstance(node, ast.For)
        and isinstance(node.target, ast.Name)
        and node.target.id == index
        and isinstance(node.iter, ast.Call)
        and isinstance(node.iter.func, ast.Name)
        and node.iter.func.id == "range"
        and len(node.iter.args) == 1
        and not node.iter.keywords
        and isinstance(node.iter.args[0], ast.Name)
        and node.iter.args[0].id == bound
    )


def _testing(node: ast.AST, wanted: str) -> bool:
    return isinstance(node, ast.If | ast.While | ast.IfExp) and ast.dump(node.test) == wanted


# The respellings `respell_module` reads as the same code, each by the language's own rule:
# `str.format` on a literal template and an f-string both call `format(value, spec)` after
# the same conversion; `x not in y` and `x is not y` are defined as the negation of `x in y`
# and `x is y`; names imported from one module bind the same objects in any grouping
# and an `else` after a block that cannot fall through (its last statement a `return`,
# `raise`, `continue` or `break`) runs as the statements after the `if`
FORMAT, NEGATION, IMPORTS, FLOW = "format", "negation", "imports", "flow"
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


class _Respelled(ast.NodeTransformer):
    """A module's statements with each proven respelling rewritten in place, counted."""

    def __init__(self) -> None:
        self.count: Counter[str] = Counter()

    def _note(self, kind: str) -> None:
        self.count[kind] += 1

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (found := _literal_format(node)) is not None:
            self._note(FORMAT)
            return ast.copy_location(found, node)
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        self.generic_visit(node)
        return _joined(list(node.values))

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if (found := _negated(node)) is not None:
            self._note(NEGATION)
            return found
        return node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for block in ("body", "orelse", "finalbody"):
            held = getattr(node, block, None)
            if isinstance(held, list) and held and isinstance(held[0], ast.stmt):
                setattr(node, block, self._imports(self._flattened(held)))
        return super().generic_visit(node)

    def _flattened(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """`body` with each `if`'s `else` after a block that exits set after the `if`."""
        out: list[ast.stmt] = []
        todo = list(body)
        while todo:
            statement = todo.pop(0)
            if (
                isinstance(statement, ast.If)
                and statement.orelse
                and isinstance(statement.body[-1], _EXITS)
            ):
                self._note(FLOW)
                todo[:0] = statement.orelse
                statement.orelse = []
            out.append(statement)
        return out

    def _imports(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """`body` with each run of `from m import …` of one module as one statement, its
        names sorted: the same bindings, where no name of the run is bound twice."""
        out: list[ast.stmt] = []
        run: list[ast.ImportFrom] = []

        def flush() -> None:
            names = sorted((a.name, a.asname or "") for s in run for a in s.names)
            bound = [asname or name for name, asname in names]
            if len(run) > 1 or (run and [(a.name, a.asname or "") for a in run[0].names] != names):
                if "*" in bound or len(set(bound)) != len(bound):
                    out.extend(run)
                    run.clear()
                    return
                # (by the grouping as written: a side already one sorted statement differs
                # from one that is not)
                self._note(f"{IMPORTS}:{[[a.name for a in s.names] for s in run]}")
                merged = ast.ImportFrom(
                    module=run[0].module,
                    names=[ast.alias(n, a or None) for n, a in names],
                    level=run[0].level,
                )
                out.append(ast.copy_location(merged, run[0]))
            else:
                out.extend(run)
            run.clear()

        for statement in body:
            if isinstance(statement, ast.ImportFrom) and (
                not run or (statement.module, statement.level) == (run[0].module, run[0].level)
            ):
                run.append(statement)
                continue
            flush()
            if isinstance(statement, ast.ImportFrom):
                run.append(statement)
            else:
                out.append(statement)
        flush()
        return out


def respell_module(tree: ast.Module) -> Counter[str]:
    """In place: the module's `.format` calls on literal templates as f-strings, `not x in
    y` as `x not in y` (`is` alike), each run of imports from one module as one
    statement of sorted names, and an `else` after a block that exits as the statements
    after its `if`; the rewrites made, by kind (`FORMAT`, `NEGATION`, `FLOW`, and
    `IMPORTS:` with the grouping as written)."""
    reader = _Respelled()
    reader.visit(tree)
    ast.fix_missing_locations(tree)
    return reader.count


# What a `.get` default may be for the lookup's failure and `.get` to agree: evaluated at
# every call by `.get` and only on a miss by the lookup, so nothing whose evaluation acts
# (a call) or may fail (an attribute, a subscript)
_INERT = (ast.Constant, ast.Name)


def get_spelling(statement: ast.stmt) -> ast.Assign | None:
    """The assignment `t = d.get(k, D)` a lookup whose failure gives a default means, where
    `statement` is one: `try: t = d[k]` with only `except KeyError: t = D` (no `else`, no
    `finally`), `if k in d: t = d[k]` with `else: t = D` (or `if k not in d:` the other way
    round), or `t = d[k] if k in d else D`. Of a mapping, as `Mapping.get` is written:
    `d[k]` and, where it raises `KeyError`, the default; `D` is a literal or a name (what
    `.get` evaluates always and the lookup only on a miss), `d` and `k` read no call; the
    target is one name or attribute, the same in both branches. None for anything else."""
    found: tuple[ast.expr, ast.expr, ast.expr, ast.expr] | None = None
    if isinstance(statement, ast.Try) and not statement.orelse and not statement.finalbody:
        handlers = statement.handlers
        if (
            len(handlers) == 1
            and isinstance(handlers[0].type, ast.Name)
            and handlers[0].type.id == "KeyError"
            and handlers[0].name is None
        ):
            found = _branches(statement.body, handlers[0].body)
    elif isinstance(statement, ast.If):
        tested = _membership(statement.test)
        if tested is not None:
            hit, miss = (
                (statement.body, statement.orelse)
                if tested[2]
                else (statement.orelse, statement.body)
            )
            found = _branches(hit, miss, tested[:2])
    elif isinstance(statement, ast.Assign) and isinstance(statement.value, ast.IfExp):
        tested = _membership(statement.value.test)
        if tested is not None and len(statement.targets) == 1:
            got, other = statement.value.body, statement.value.orelse
            if not tested[2]:
                got, other = other, got
            target = statement.targets[0]
            found = _branches(
                [ast.Assign(targets=[target], value=got)],
                [ast.Assign(targets=[target], value=other)],
                tested[:2],
            )
    if found is None:
        return None
    target, mapping, key, default = found
    args = [key] if isinstance(default, ast.Constant) and default.value is None else [key, default]
    get = ast.Attribute(value=mapping, attr="get", ctx=ast.Load())
    call = ast.Call(func=get, args=args, keywords=[])
    spelled = ast.copy_location(ast.Assign(targets=[target], value=call), statement)
    return ast.fix_missing_locations(spelled)


def same_get(old: ast.stmt, new: ast.stmt) -> bool:
    """Whether `new` is `old`'s lookup with a default written as `.get` (`get_spelling`):
    `t = d.get(k, D)`, or `t = d.get(k)` where `D` is `None`."""
    spelled = get_spelling(old)
    if spelled is None or not isinstance(new, ast.Assign):
        return False
    return same_tree(_get_read(spelled), _get_read(new))


def _get_read(node: ast.Assign) -> ast.AST:
    """`d.get(k, None)` read as `d.get(k)`: `None` is `.get`'s default."""
    value = node.value
    if (
        isinstance(value, ast.Call)
        and len(value.args) == 2
        and not value.keywords
        and isinstance(value.args[1], ast.Constant)
        and value.args[1].value is None
    ):
        call = ast.Call(func=value.func, args=value.args[:1], keywords=[])
        return ast.Assign(targets=node.targets, value=call)
    return node


def _membership(test: ast.expr) -> tuple[ast.expr, ast.expr, bool] | None:
    """`(d, k, True)` of `k in d`, `(d, k, False)` of `k not in d`."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    if isinstance(test.ops[0], ast.In):
        return test.comparators[0], test.left, True
    if isinstance(test.ops[0], ast.NotIn):
        return test.comparators[0], test.left, False
    return None


def _branches(
    hit: list[ast.stmt], miss: list[ast.stmt], tested: tuple[ast.expr, ast.expr] | None = None
) -> tuple[ast.expr, ast.expr, ast.expr, ast.expr] | None:
    """`(t, d, k, D)` where `hit` is only `t = d[k]` and `miss` only `t = D` (and `tested`,
    where given, is `(d, k)`)."""
    if len(hit) != 1 or len(miss) != 1:
        return None
    got, fallback = hit[0], miss[0]
    if not (isinstance(got, ast.Assign) and isinstance(fallback, ast.Assign)):
        return None
    if len(got.targets) != 1 or len(fallback.targets) != 1:
        return None
    target, lookup, default = got.targets[0], got.value, fallback.value
    if not isinstance(target, ast.Name | ast.Attribute) or not same_tree(
        target, fallback.targets[0]
    ):
        return None
    if not (isinstance(lookup, ast.Subscript) and isinstance(default, _INERT)):
        return None
    mapping, key = lookup.value, lookup.slice
    if any(
        isinstance(n, ast.Call | ast.Await | ast.NamedExpr)
        for side in (mapping, key)
        for n in ast.walk(side)
    ):
        return None
    if isinstance(key, ast.Slice) or any(isinstance(n, ast.Slice) for n in ast.walk(key)):
        return None
    if tested is not None and not (same_tree(tested[0], mapping) and same_tree(tested[1], key)):
        return None
    return target, mapping, key, default


def gets_respelled(was: ast.AST | None, now: ast.AST | None) -> list[tuple[ast.stmt, ast.Assign]]:
    """Each lookup with a default of the function `was` (`get_spelling`) and the statement
    of the function `now` that writes it as `.get` (`same_get`): one spelling for another,
    what a caller meets the same (pluggy's `TagTracer._processmessage` on its 3.10 floor)."""
    if was is None or now is None:
        return []
    assigns = [n for n in ast.walk(now) if isinstance(n, ast.Assign)]
    return [
        (old, new)
        for old in ast.walk(was)
        if isinstance(old, ast.Try | ast.If | ast.Assign) and get_spelling(old) is not None
        for new in assigns
        if same_get(old, new)
    ]
