"""Whether a test function pins a call with literal arguments to a literal value, or
expects it to raise an exception, read for the claims checker from the test file's text by
Python's parser.

The rule, from what such a test is: the function named calls the function named last in
the claim with arguments equal to the claim's (literals written there, names the function
bound last before the call to a literal, or a row of its `parametrize` table spread into
the call), states the claimed value (a literal, a name bound to one, or the same row's
other value), and asserts an equality (`==`, or a call of a name holding `equal`, or
`eq_`). Values compare by their `repr` after `ast.literal_eval`, so `u'a'` is `'a'` and
`True` is not `1`.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator

_NO_VALUE = object()
# what a test puts around a value to compare it regardless of order or kind
_WRAPPERS = frozenset({"set", "frozenset", "list", "tuple", "sorted", "dict"})
# what a test calls to expect a raise (`pytest.raises`, `self.assertRaises`)
_RAISES = frozenset({"raises", "assertRaises"})


def pinned(text: str, test: str, call: str, value: str) -> bool | None:
    """Whether the test function `test` of the Python file `text` pins `call` to `value`;
    None where the file, the call or the value does not parse."""
    try:
        tree = ast.parse(text)
        claimed = ast.parse(call, mode="eval").body
        wanted = _value(ast.parse(value, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    said = _claimed_call(claimed)
    if said is None or wanted is _NO_VALUE:
        return None
    return any(_pins(function, *said, repr(wanted)) for function in test_functions(tree, test))


def _claimed_call(
    claimed: ast.expr,
) -> tuple[str, list[str], dict[str, str]] | None:
    """The innermost call the sentence quotes: its function's last name, and the reprs of its
    literal arguments and keywords; None where it is no call or an argument is no literal."""
    target = _innermost_call(claimed)
    if target is None:
        return None
    name = _last_name(target.func)
    args = [_value(a) for a in target.args]
    keywords = {k.arg: _value(k.value) for k in target.keywords if k.arg is not None}
    if name is None or _NO_VALUE in args or _NO_VALUE in keywords.values():
        return None
    return name, [repr(a) for a in args], {k: repr(v) for k, v in keywords.items()}


def raised(text: str, test: str, call: str, exception: str) -> bool | None:
    """Whether the test function `test` of the Python file `text` expects `call` to raise
    `exception`: a `with` of a call of `raises` or `assertRaises` naming it (by its last
    part) whose body makes the call, or `raises(E, f, *args)` / `assertRaises(E, f, *args)`
    with the call's function and arguments; None where something does not parse."""
    try:
        tree = ast.parse(text)
        claimed = ast.parse(call, mode="eval").body
        named = ast.parse(exception, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    said = _claimed_call(claimed)
    wanted = _last_name(named)
    if said is None or wanted is None:
        return None
    name, args, keywords = said
    return any(
        _expects(function, wanted, name, args, keywords) for function in test_functions(tree, test)
    )


def _expects(
    function: ast.FunctionDef, exception: str, name: str, args: list[str], keywords: dict[str, str]
) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.With):
            managers = [
                i.context_expr
                for i in node.items
                if isinstance(i.context_expr, ast.Call)
                and _last_name(i.context_expr.func) in _RAISES
                and i.context_expr.args
                and _last_name(i.context_expr.args[0]) == exception
            ]
            if managers and any(
                _same_call(inner, function, name, args, keywords)
                for statement in node.body
                for inner in ast.walk(statement)
                if isinstance(inner, ast.Call)
            ):
                return True
        if (
            isinstance(node, ast.Call)
            and _last_name(node.func) in _RAISES
            and len(node.args) >= 2
            and _last_name(node.args[0]) == exception
            and _last_name(node.args[1]) == name
        ):
            bound = _bound(function, node.lineno)
            written = [_reprs(a, bound) for a in node.args[2:]]
            given = {k.arg: _reprs(k.value, bound) for k in node.keywords if k.arg is not None}
            if written == args and given == keywords:
                return True
    return False


def _same_call(
    node: ast.Call, function: ast.FunctionDef, name: str, args: list[str], keywords: dict[str, str]
) -> bool:
    if _last_name(node.func) != name:
        return False
    bound = _bound(function, node.lineno)
    written = [_reprs(a, bound) for a in node.args]
    given = {k.arg: _reprs(k.value, bound) for k in node.keywords if k.arg is not None}
    return written == args and given == keywords


def test_functions(tree: ast.Module, test: str) -> Iterator[ast.FunctionDef]:
    """The functions named `test` at the module's top or in a class at its top."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == test:
            yield node
        elif isinstance(node, ast.ClassDef):
            for inner in node.body:
                if isinstance(inner, ast.FunctionDef) and inner.name == test:
                    yield inner


def _value(node: ast.expr) -> object:
    """The literal `node` writes; a wrapper's argument (`set([3, 1])`: `[3, 1]`)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _WRAPPERS
        and len(node.args) == 1
        and not node.keywords
    ):
        node = node.args[0]
    with contextlib.suppress(ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return ast.literal_eval(node)
    return _NO_VALUE


def _innermost_call(node: ast.expr) -> ast.Call | None:
    """The deepest call of the expression (`len(m.f(1))`: `m.f(1)`)."""
    found: ast.Call | None = None
    depth = -1
    stack: list[tuple[ast.AST, int]] = [(node, 0)]
    while stack:
        current, level = stack.pop()
        if isinstance(current, ast.Call) and level > depth:
            found, depth = current, level
        stack.extend((child, level + 1) for child in ast.iter_child_nodes(current))
    return found


def _last_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _bound(function: ast.FunctionDef, line: int) -> dict[str, str]:
    """The names bound last before `line` to a literal, with its `repr` (a name bound last
    otherwise stands for nothing)."""
    stores: list[tuple[int, int, str, str | None]] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores.append((node.lineno, node.col_offset, node.id, None))
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            literal = _value(node.value)
            if literal is not _NO_VALUE:
                target = node.targets[0]
                stores.append((target.lineno, target.col_offset + 1, target.id, repr(literal)))
    values: dict[str, str | None] = {}
    for at, _, name, value in sorted(stores):
        if at < line:
            values[name] = value
    return {k: v for k, v in values.items() if v is not None}


def _reprs(node: ast.expr, bound: dict[str, str]) -> str | None:
    if isinstance(node, ast.Name):
        return bound.get(node.id)
    literal = _value(node)
    return None if literal is _NO_VALUE else repr(literal)


def _asserts_equality(function: ast.FunctionDef) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Compare) and any(isinstance(op, ast.Eq) for op in node.ops):
            return True
        if isinstance(node, ast.Call):
            name = _last_name(node.func) or ""
            if "equal" in name.lower() or name == "eq_":
                return True
    return False


def _rows(function: ast.FunctionDef) -> list[list[str | None]]:
    """The rows of the function's `parametrize` tables, each value's `repr` (None where it is
    no literal)."""
    rows: list[list[str | None]] = []
    for decorator in function.decorator_list:
        if not isinstance(decorator, ast.Call) or len(decorator.args) < 2:
            continue
        if _last_name(decorator.func) != "parametrize":
            continue
        table = decorator.args[1]
        if not isinstance(table, ast.List | ast.Tuple):
            continue
        for row in table.elts:
            if isinstance(row, ast.Tuple):
                rows.append([_reprs(e, {}) for e in row.elts])
    return rows


def _pins(
    function: ast.FunctionDef,
    name: str,
    args: list[str],
    keywords: dict[str, str],
    value: str,
) -> bool:
    if not _asserts_equality(function):
        return False
    rows = _rows(function)
    for node in ast.walk(function):
        if not isinstance(node, ast.Call) or _last_name(node.func) != name:
            continue
        bound = _bound(function, node.lineno)
        written_keywords = {
            k.arg: _reprs(k.value, bound) for k in node.keywords if k.arg is not None
        }
        if written_keywords != keywords:
            continue
        starred = [a for a in node.args if isinstance(a, ast.Starred)]
        if not starred:
            written = [_reprs(a, bound) for a in node.args]
            if written == args and _states(function, value):
                return True
            if rows and any(_row_holds(row, written, args, value) for row in rows):
                return True
            continue
        # `f(*case)` fed by a table: a row holds the arguments as one tuple, and the value
        spread = repr(tuple(ast.literal_eval(a) for a in args)) if args else None
        if spread is not None and any(spread in row and value in row for row in rows):
            return True
    return False


def _row_holds(
    row: list[str | None], written: list[str | None], args: list[str], value: str
) -> bool:
    """A row of the table giving the call's arguments that are no literals, and the value."""
    if len(written) != len(args):
        return False
    pairs = list(zip(written, args, strict=True))
    if any(w is not None and w != a for w, a in pairs):
        return False
    return value in row and all(a in row for w, a in pairs if w is None)


def _states(function: ast.FunctionDef, value: str) -> bool:
    """Whether the function writes the value as a literal (perhaps bound to a name)."""
    return any(
        isinstance(node, ast.expr) and not isinstance(node, ast.Name) and _reprs(node, {}) == value
        for node in ast.walk(function)
    )
