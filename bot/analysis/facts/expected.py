"""What a commit's new test cases assert a call gives: the inputs a fix now handles, said
with the values its tests expect (`pydash.has([1, 2, 3], 0) == True`).

A case is one assertion of a test function whose one side is a call of an imported
function with literal arguments (perhaps wrapped in `set`, `list`, `sorted` or `len`, the
same on the other) and whose other side is a literal: written out (`assert f('a b') ==
['a', 'b']`, `self.assertEqual(f(1), 2)`, a helper of the equality's usual names
`assert_equal(expected, result)`), or a row of a `parametrize` table fed into a test
whose one statement asserts `f(case) == expected` (or `f(*case) == expected`), or a call
bound to a name first and the name asserted after (`result = f('a')`, then `assert result ==
'b'`, `assert str(result) == 'b'` or `assert len(result) == 2`; a name bound to a literal
stands for it in the call: `sql = 'select 1'`, `p = sqlparse.parse(sql)[0]`). A case is new
where the file held no case of the same words at the parent; its test is new where the
file defined no test of its name at the parent. A case may also be a call expected to
raise (`with pytest.raises(E): f(a)`, `self.assertRaises(E, f, a)`): its value is `E`.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator

from bot.analysis.facts.layout import bare_string
from bot.analysis.facts.modules import breadth, module_tree
from bot.analysis.facts.records import Expected

# wrappers a test puts around both sides of an equality (order or count, not the values)
_WRAPPERS = frozenset({"set", "list", "sorted", "len", "frozenset", "tuple", "dict"})
# what a case may be said in at most: a longer one is a fixture, not an example
_CALL_MAX = 80
_VALUE_MAX = 50
_EQUAL_ASSERTS = frozenset({"assertEqual", "assertEquals"})
# helpers named for an equality, called bare (python-tabulate's `common.assert_equal`,
# `numpy.testing.assert_equal`, nose's `eq_`)
_EQUAL_HELPERS = frozenset({"assert_equal", "assert_equals", "eq_"})
# what a test calls to expect a raise (`pytest.raises`, `self.assertRaises`)
_RAISES = frozenset({"raises", "assertRaises"})
# wrappers a test puts around the left side alone (`len(f(x)) == 2`, `str(p) == 'a'`)
_LEFT_WRAPPERS = frozenset({"len", "str"})


def expected_cases(path: str, before: str, after: str) -> list[Expected]:
    """The cases the test file `path` asserts at the commit that it did not at the parent."""
    old = {(*case[:3], case[4]) for case in _cases(before)} if before else set()
    tests = _test_names(before) if before else set()
    return [
        Expected(
            path=path,
            call=call,
            value=value,
            function=function,
            test=test,
            new=test not in tests,
            raises=raises,
        )
        for call, value, function, test, raises in dict.fromkeys(_cases(after))
        if (call, value, function, raises) not in old
    ]


def _test_names(text: str) -> set[str]:
    try:
        return {f.name for f in _tests(module_tree(text))}
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()


def _cases(text: str) -> Iterator[tuple[str, str, str, str, bool]]:
    try:
        tree = module_tree(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    modules = _modules(tree)
    for function in _tests(tree):
        if any(_marked_off(d) for d in function.decorator_list):
            continue
        for case in _table_cases(function, modules):
            yield (*case, function.name, False)
        bound: dict[str, ast.expr] = {}
        for node in _in_order(function):
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.For):
                _bind(node, bound)
                continue
            expecting = _expects_raise(node)
            if expecting is not None:
                call = _substituted(expecting[0], bound) if bound else expecting[0]
                raised = _raised(call, expecting[1], modules) if call is not None else None
                if raised is not None:
                    yield (*raised, function.name, True)
                continue
            pair = _asserted(node)
            if pair is None:
                continue
            left, right = (_substituted(side, bound) if bound else side for side in pair)
            if left is not None and right is not None and _literal(left) and not _literal(right):
                # (`assert_equal(expected, result)`: the value first)
                left, right = right, left
            said = _said(left, right, modules) if left is not None and right is not None else None
            if said is not None:
                yield (*said, function.name, False)


def _in_order(function: ast.FunctionDef) -> list[ast.AST]:
    """The function's statements and calls in the order they run as written (a binding
    before the assertion that reads it)."""
    # (`breadth`: `ast.walk`'s order, a third faster; the sort below is stable)
    nodes = [
        n
        for n in breadth([function])
        if n is not function and isinstance(n, ast.stmt | ast.Call) and hasattr(n, "lineno")
    ]
    return sorted(nodes, key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))


def _bind(node: ast.stmt, bound: dict[str, ast.expr]) -> None:
    """`name = value`: the name stands for a literal or for a call (perhaps indexed,
    `parse(s)[0]`) said with the literals its names stand for; any other binding of a name
    leaves it standing for nothing."""
    targets: list[ast.expr] = []
    value: ast.expr | None = None
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For):
        targets = [node.target]
    names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    for name in names:
        bound.pop(name, None)
    if value is None or len(targets) != 1 or not isinstance(targets[0], ast.Name):
        return
    said = _substituted(value, bound) if bound else value
    if said is not None and (_literal(said) or _indexed_call(said) is not None):
        bound[targets[0].id] = said


def _indexed_call(node: ast.expr) -> ast.Call | None:
    """The call `node` is, or the call a literal index reads from (`parse(s)[0]`)."""
    if isinstance(node, ast.Subscript) and _literal(node.slice):
        node = node.value
    return node if isinstance(node, ast.Call) else None


def _tests(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            yield node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for inner in node.body:
                if isinstance(inner, ast.FunctionDef) and inner.name.startswith("test"):
                    yield inner


def _modules(tree: ast.Module) -> dict[str, str]:
    """Names the file binds by importing them, with what they name (`import pydash as pyd`:
    pyd -> pydash; `from pydash import has`: has -> pydash.has)."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.name != "*":
                    out[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = alias.name
                elif "." not in alias.name:
                    out[alias.name] = alias.name
    return out


def _marked_off(decorator: ast.expr) -> bool:
    """A test marked to fail or be skipped asserts nothing that holds."""
    text = ast.unparse(decorator)
    return "xfail" in text or "skip" in text


def _asserted(node: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """The two sides of `assert a == b`, `self.assertEqual(a, b)` or `assert_equal(a, b)`."""
    if isinstance(node, ast.Assert):
        test = node.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
            return test.left, test.comparators[0]
        return None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _EQUAL_HELPERS
        and len(node.args) == 2
        and not node.keywords
    ):
        return node.args[0], node.args[1]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _EQUAL_ASSERTS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
        and len(node.args) == 2
        and not node.keywords
    ):
        return node.args[0], node.args[1]
    return None


def _unwrapped(left: ast.expr, right: ast.expr) -> tuple[ast.expr, ast.expr, str] | None:
    """Both sides without the one wrapper they share (`set(f(x)) == set(y)`), and its name."""
    if isinstance(left, ast.Call) and _wrapper(left) is not None:
        name = _wrapper(left)
        if name in _LEFT_WRAPPERS:
            return left, right, ""
        if isinstance(right, ast.Call) and _wrapper(right) == name:
            return left.args[0], right.args[0], name or ""
        return None
    return left, right, ""


def _wrapper(node: ast.Call) -> str | None:
    if (
        isinstance(node.func, ast.Name)
        and node.func.id in _WRAPPERS | _LEFT_WRAPPERS
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.func.id
    return None


def _said(left: ast.expr, right: ast.expr, modules: dict[str, str]) -> tuple[str, str, str] | None:
    """`call`, `value` as said, and the function called, where the left side calls an
    imported function with literal arguments and the right side is a literal."""
    sides = _unwrapped(left, right)
    if sides is None:
        return None
    call, value, wrapper = sides
    outer = call
    if isinstance(call, ast.Call) and _wrapper(call) in _LEFT_WRAPPERS:
        outer = call.args[0]
    inner = _indexed_call(outer)
    if inner is None or not _literal(value):
        return None
    callee = _callee(inner.func, modules)
    if callee is None:
        return None
    if not all(_literal(a.value if isinstance(a, ast.Starred) else a) for a in inner.args):
        return None
    if not all(k.arg is not None and _literal(k.value) for k in inner.keywords):
        return None
    said_call = ast.unparse(ast.Call(func=_named(callee), args=inner.args, keywords=inner.keywords))
    if isinstance(outer, ast.Subscript):
        said_call = f"{said_call}[{ast.unparse(outer.slice)}]"
    if outer is not call and isinstance(call, ast.Call):
        said_call = f"{_wrapper(call)}({said_call})"
    said_value = ast.unparse(value)
    if wrapper:
        said_call, said_value = f"{wrapper}({said_call})", f"{wrapper}({said_value})"
    said_call, said_value = _unprefixed(said_call), _unprefixed(said_value)
    if len(said_call) > _CALL_MAX or len(said_value) > _VALUE_MAX:
        return None
    return said_call, said_value, callee


def _expects_raise(node: ast.AST) -> tuple[ast.expr, ast.expr] | None:
    """The call a test expects to raise, and the exception: `with pytest.raises(E): f(a)`
    (its one statement), `self.assertRaises(E, f, a)`, `pytest.raises(E, f, a)`."""
    if isinstance(node, ast.With) and len(node.items) == 1 and len(node.body) == 1:
        manager = node.items[0].context_expr
        statement = node.body[0]
        call = statement.value if isinstance(statement, ast.Expr | ast.Assign) else None
        if (
            isinstance(manager, ast.Call)
            and _raises_named(manager.func)
            and len(manager.args) == 1
            and isinstance(call, ast.Call)
        ):
            return call, manager.args[0]
        return None
    if isinstance(node, ast.Call) and _raises_named(node.func) and len(node.args) >= 2:
        called = node.args[1]
        if isinstance(called, ast.Name | ast.Attribute):
            return ast.Call(func=called, args=node.args[2:], keywords=node.keywords), node.args[0]
    return None


def _raises_named(func: ast.expr) -> bool:
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in _RAISES


def _raised(
    call: ast.expr, exception: ast.expr, modules: dict[str, str]
) -> tuple[str, str, str] | None:
    """`call` as said, the exception as written, and the function called, where `call`
    calls an imported function with literal arguments and the exception is named."""
    if not isinstance(call, ast.Call) or not isinstance(exception, ast.Name | ast.Attribute):
        return None
    callee = _callee(call.func, modules)
    if callee is None or any(isinstance(a, ast.Starred) or not _literal(a) for a in call.args):
        return None
    if not all(k.arg is not None and _literal(k.value) for k in call.keywords):
        return None
    said = ast.unparse(ast.Call(func=_named(callee), args=call.args, keywords=call.keywords))
    said = _unprefixed(said)
    if len(said) > _CALL_MAX:
        return None
    return said, ast.unparse(exception), callee


def _unprefixed(text: str) -> str:
    """`text` with its strings' `u` prefix dropped: `u'a'` is `'a'` (python-tabulate 0ca4ff3
    rewrote `u'1.235\\n1.000'` to `'1.235\\n1.000'`, no new case)."""
    if "u'" not in text and 'u"' not in text:
        return text
    node = ast.parse(text, mode="eval")
    for inner in ast.walk(node):
        if isinstance(inner, ast.Constant):
            inner.kind = None
    return ast.unparse(node.body)


def _named(dotted: str) -> ast.expr:
    parts = dotted.split(".")
    node: ast.expr = ast.Name(parts[0])
    for part in parts[1:]:
        node = ast.Attribute(node, part)
    return node


def _callee(func: ast.expr, modules: dict[str, str]) -> str | None:
    """The function a test calls, by the module it imported it from: `pyd.has` ->
    `pydash.has`; a name the test file defines, a builtin or a private name is none."""
    if isinstance(func, ast.Name):
        named = modules.get(func.id)
        return named if named is not None and not func.id.startswith("_") else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        module = modules.get(func.value.id)
        if module is None or func.attr.startswith("_"):
            return None
        return f"{module}.{func.attr}"
    return None


def _literal(node: ast.expr) -> bool:
    with contextlib.suppress(ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        ast.literal_eval(node)
        return True
    return False


def _table_cases(
    function: ast.FunctionDef, modules: dict[str, str]
) -> Iterator[tuple[str, str, str]]:
    """The rows of a `parametrize` table fed into a test whose one statement asserts
    `f(case) == expected`, each said as its own assertion."""
    body = [s for s in function.body if not bare_string(s)]
    if len(body) != 1:
        return
    pair = _asserted(body[0] if isinstance(body[0], ast.Assert) else _expr(body[0]))
    if pair is None:
        return
    for decorator in function.decorator_list:
        table = _table(decorator)
        if table is None:
            continue
        names, rows = table
        for row in rows:
            values = dict(zip(names, row, strict=True))
            left = _substituted(pair[0], values)
            right = _substituted(pair[1], values)
            if left is None or right is None:
                continue
            said = _said(left, right, modules)
            if said is not None:
                yield said


def _expr(node: ast.stmt) -> ast.AST:
    return node.value if isinstance(node, ast.Expr) else node


def _table(decorator: ast.expr) -> tuple[list[str], list[list[ast.expr]]] | None:
    """`parametrize('case,expected', [(a, b), …])`: the names and each row's values."""
    if not isinstance(decorator, ast.Call) or len(decorator.args) < 2:
        return None
    func = decorator.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name != "parametrize":
        return None
    first, rows = decorator.args[0], decorator.args[1]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        names = [n.strip() for n in first.value.split(",") if n.strip()]
    elif isinstance(first, ast.List | ast.Tuple) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in first.elts
    ):
        names = [str(e.value) for e in first.elts if isinstance(e, ast.Constant)]
    else:
        return None
    if len(names) < 2 or not isinstance(rows, ast.List | ast.Tuple):
        return None
    out: list[list[ast.expr]] = []
    for row in rows.elts:
        if not isinstance(row, ast.Tuple) or len(row.elts) != len(names):
            continue
        out.append(list(row.elts))
    return names, out


class _Substitute(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr]) -> None:
        self.values = values
        self.unsplit = False

    def visit_Starred(self, node: ast.Starred) -> ast.AST:
        return node  # handled by the call (`f(*case)`)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        args: list[ast.expr] = []
        for arg in node.args:
            if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name):
                value = self.values.get(arg.value.id)
                if value is None:
                    args.append(arg)
                elif isinstance(value, ast.Tuple | ast.List):
                    args.extend(value.elts)
                else:
                    self.unsplit = True
                    args.append(arg)
            else:
                args.append(self.visit(arg))
        node.args = args
        node.keywords = [self.visit(k) for k in node.keywords]
        node.func = self.visit(node.func)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.values.get(node.id, node)


def _substituted(node: ast.expr, values: dict[str, ast.expr]) -> ast.expr | None:
    """`node` with the table's names replaced by one row's values (a copy)."""
    copy = ast.parse(ast.unparse(node), mode="eval").body
    substitute = _Substitute(values)
    out = substitute.visit(copy)
    if substitute.unsplit or not isinstance(out, ast.expr):
        return None
    return out
