"""A value an edited method now sets from the start, that other methods set before: a key
of a dictionary on `self` the method clears or rebinds first (tenacity 42b70f9's `begin`,
`self.statistics.clear()` then `self.statistics["delay_since_first_attempt"] = 0`, a key
`_run_stop` alone set at the parent), or an attribute `__init__` now sets on `self`. Code
that read it between the two found it missing; now it finds the value."""

from __future__ import annotations

import ast

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# The methods that set an object up from the start: what they set, is set before any other.
_SETUP = frozenset({"__init__", "__post_init__"})
# Of one method, at most this many are said; a value quoted when this short.
_MOST = 2
_SAID = 40
# Other setters named, at most
_SETTERS = 3


def _target(node: ast.expr) -> tuple[str, str] | None:
    """(container, key) of `self.X["key"]`, (attribute, "") of `self.a`; None for another."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return (node.attr, "") if node.value.id == "self" else None
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
        and node.slice.value
        and '"' not in node.slice.value
        and isinstance(node.value, ast.Attribute)
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id == "self"
    ):
        return node.value.attr, node.slice.value
    return None


def _stores(node: ast.AST) -> set[tuple[str, str]]:
    """Every `self.X["key"]` and `self.a` the code assigns (augmented assignments too)."""
    found: set[tuple[str, str]] = set()
    for n in ast.walk(node):
        targets: list[ast.expr] = []
        if isinstance(n, ast.Assign):
            targets = list(n.targets)
        elif isinstance(n, ast.AnnAssign | ast.AugAssign):
            targets = [n.target]
        found |= {t for x in targets if (t := _target(x)) is not None}
    return found


def _resets(statement: ast.stmt) -> str | None:
    """The dictionary on `self` the statement clears (`self.X.clear()`) or binds anew
    (`self.X = {}`, `self.X = dict()`); None for another statement."""
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        if (
            isinstance(call.func, ast.Attribute)
            and call.func.attr == "clear"
            and not call.args
            and (t := _target(call.func.value)) is not None
            and not t[1]
        ):
            return t[0]
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        value = statement.value
        fresh = (isinstance(value, ast.Dict) and not value.keys) or (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "dict"
            and not value.args
            and not value.keywords
        )
        t = _target(statement.targets[0])
        if fresh and t is not None and not t[1]:
            return t[0]
    return None


def said_target(container: str, key: str) -> str:
    """`statistics["delay_since_first_attempt"]` of a key, `a` of an attribute."""
    return f'{container}["{key}"]' if key else container


def set_early(
    name: str,
    was: ast.AST | None,
    now: ast.AST | None,
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
) -> list[tuple[str, str, tuple[str, ...]]]:
    """(target as said, value as written, the other methods that set it at the parent) of
    each plain assignment the method's own body (its top level: it always runs) gains at the
    commit, that it did not make at the parent, where the method sets its object up: a key
    of a dictionary on `self` the body clears or binds anew at both revisions, before the
    new assignment; an attribute of `self` set by `__init__`. Only a target other methods of
    the same class (`functions`: the file's at the parent) set at the parent: a value that
    was there only once they ran."""
    if not isinstance(was, _DEFS) or not isinstance(now, _DEFS):
        return []
    owner, _, method = name.rpartition(".")
    if not owner:
        return []
    before = _stores(was)
    was_resets = {c for s in was.body if (c := _resets(s)) is not None}
    found: list[tuple[str, str, tuple[str, ...]]] = []
    reset: set[str] = set()
    for statement in now.body:
        if (container := _resets(statement)) is not None:
            reset.add(container)
            continue
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            continue
        target = _target(statement.targets[0])
        if target is None or target in before:
            continue
        container, key = target
        setup = container in reset & was_resets if key else method in _SETUP
        if not setup:
            continue
        setters = tuple(
            sorted(
                other
                for other, node in functions.items()
                if other != name and other.rpartition(".")[0] == owner and target in _stores(node)
            )
        )
        value = ast.unparse(statement.value)
        if setters and len(value) <= _SAID and "\n" not in value:
            found.append((said_target(container, key), value, setters[:_SETTERS]))
    return found[:_MOST]
