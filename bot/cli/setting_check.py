"""The claims checker's own reading of a module setting: where Python code reads a name when
it runs (a function's global, `m.N`, `getattr(m, "N")`), by the language's scoping rules, not
the analyser's extractor."""

from __future__ import annotations

import ast

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def binds_at_top(text: str, name: str) -> bool:
    """Whether the module's own top level (inside an `if`, `try` or `with` too, never a
    function or class) assigns, imports or defines `name`."""
    tree = ast.parse(text)
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            if node.name == name:
                return True
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name:
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name).split(".")[0] == name:
            return True
        stack += list(ast.iter_child_nodes(node))
    return False


def _locals(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """The names a function binds itself (parameters, assignments, imports, nested
    definitions), less those it declares `global`: Python's rule of what is local."""
    args = function.args
    bound = {
        a.arg
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
        if a is not None
    }
    declared: set[str] = set()
    body = function.body if isinstance(function.body, list) else [function.body]
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global | ast.Nonlocal):
            declared |= set(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bound.add(node.id)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        if isinstance(node, _SCOPES):
            bound.add(node.name)
            continue
        if isinstance(node, ast.Lambda):
            continue
        stack += list(ast.iter_child_nodes(node))
    return bound - declared


def run_time_reads(text: str, name: str, *, own: bool) -> list[int]:
    """The lines where the code reads `name` when it runs: an attribute `.name` or a
    `getattr(…, "name")` anywhere; and, where the module is `name`'s own (`own`), the bare
    name loaded inside a function none of whose enclosing functions binds it."""
    tree = ast.parse(text)
    lines = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.ctx, ast.Load)
    ]
    for call in ast.walk(tree):
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id in ("getattr", "hasattr")
            and any(isinstance(a, ast.Constant) and a.value == name for a in call.args[1:2])
        ):
            lines.append(call.lineno)
    if not own:
        return sorted(set(lines))

    def visit(node: ast.AST, shadowed: frozenset[str], inside: bool) -> None:
        if isinstance(node, _FUNCTIONS):
            mine = _locals(node)
            if name in mine:
                return
            shadowed, inside = shadowed | mine, True
        if (
            inside
            and isinstance(node, ast.Name)
            and node.id == name
            and isinstance(node.ctx, ast.Load)
        ):
            lines.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, shadowed, inside)

    visit(tree, frozenset(), False)
    return sorted(set(lines))
