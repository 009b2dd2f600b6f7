"""The command-line commands a Python file registers with click or typer: a function under
`@X.command(…)` or `@X.group(…)` is a command by its name (`name="list"`, the first
positional string, else the function's name with `_` as `-`), whatever the function is named."""

from __future__ import annotations

import ast

from bot.analysis.facts.modules import module_tree, statements

_REGISTERS = ("command", "group")


def command_names(text: str) -> dict[str, str]:
    """Top-level (and nested) function name -> the command name it is registered under;
    empty where the text does not parse."""
    try:
        tree = module_tree(text)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    out: dict[str, str] = {}
    for node in statements(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for decorator in node.decorator_list:
            named = _registered(decorator, node.name)
            if named is not None:
                out[node.name] = named
                break
    return out


def _registered(decorator: ast.expr, function: str) -> str | None:
    """The command name `decorator` registers `function` under, if it registers one."""
    call = decorator if isinstance(decorator, ast.Call) else None
    target = call.func if call is not None else decorator
    if not (isinstance(target, ast.Attribute) and target.attr in _REGISTERS):
        return None
    if call is not None:
        for keyword in call.keywords:
            if keyword.arg == "name":
                value = keyword.value
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    return value.value
                return None
        if call.args:
            first = call.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                return first.value
            if not (isinstance(first, ast.Constant) and first.value is None):
                # (a name not written as a literal: not known)
                return None
    return function.replace("_", "-")
