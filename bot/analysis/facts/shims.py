"""A call of a Python 2/3 shim replaced by the method it stands for on Python 3: the same
statement (tinydb 06c6863: `iteritems(table)` became `table.items()`, with
`iteritems = getattr(dict, 'iteritems', dict.items)` at the parent)."""

from __future__ import annotations

import ast
import builtins
import re

from bot.analysis.facts.modules import module_tree
from bot.analysis.facts.records import Rewritten
from bot.analysis.facts.reexports import _absolute, _module_of
from bot.analysis.facts.scan import FileReading


def same_on_python3(found: list[Rewritten], readings: list[FileReading]) -> list[Rewritten]:
    """`found` less the statements whose only difference is a shim's call `f(x)` written
    as `x.m()`: `f` bound at the parent, in the file or the module it is imported from
    (a file the change reads whole), to `T.m` or to `getattr(T, 'n', T.m)`, `T` a builtin
    type that has no `n` on this Python (3): `dict.items(x)` is `x.items()` for a dict."""
    if not found:
        return found
    at = {r.path: r for r in readings}
    by_module = {_module_of(r.path): r for r in readings}
    out = []
    for rewritten in found:
        reading = at.get(rewritten.path)
        shims = _shims_for(reading, by_module) if reading is not None else {}
        if not (shims and _only_shims(rewritten.old, rewritten.new, shims)):
            out.append(rewritten)
    return out


def _shims_for(reading: FileReading, by_module: dict[str | None, FileReading]) -> dict[str, str]:
    """The names the file reads at the parent bound to a builtin type's method (name ->
    the method's name): its own module-level bindings and those it imports from a module
    of the change read whole."""
    own = _bound_shims(reading.texts[0])
    for name, module in reading.minus.imports.items():
        origin = by_module.get(_absolute(module, reading.path))
        if origin is None or origin is reading:
            continue
        original = reading.minus.aliases.get(name, name)
        method = _bound_shims(origin.texts[0]).get(original)
        if method is not None:
            own.setdefault(name, method)
    return own


def _bound_shims(text: str) -> dict[str, str]:
    """A module's names bound once, at module level, to `T.m` or `getattr(T, 'n', T.m)`
    (`T` a builtin type without `n` here), each with `m`."""
    if not text:
        return {}
    try:
        tree = module_tree(text)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    seen: dict[str, int] = {}
    found: dict[str, str] = {}
    for statement in tree.body:
        if not isinstance(statement, ast.Assign):
            continue
        for target in statement.targets:
            if isinstance(target, ast.Name):
                seen[target.id] = seen.get(target.id, 0) + 1
                method = _method(statement.value)
                if method is not None and len(statement.targets) == 1:
                    found[target.id] = method
    return {n: m for n, m in found.items() if seen[n] == 1}


def _method(value: ast.expr) -> str | None:
    """`m` of `T.m` or of `getattr(T, 'n', T.m)` where `T` is a builtin type that has `m`
    (and, for the `getattr`, not `n`)."""
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "getattr"
        and len(value.args) == 3
        and not value.keywords
    ):
        owner, name, fallback = value.args
        kind = _builtin_type(owner)
        if (
            kind is None
            or not isinstance(name, ast.Constant)
            or not isinstance(name.value, str)
            or hasattr(kind, name.value)
        ):
            return None
        value = fallback
    if isinstance(value, ast.Attribute):
        kind = _builtin_type(value.value)
        if kind is not None and callable(getattr(kind, value.attr, None)):
            return value.attr
    return None


def _builtin_type(node: ast.expr) -> type | None:
    if not isinstance(node, ast.Name):
        return None
    found = getattr(builtins, node.id, None)
    return found if isinstance(found, type) else None


def _only_shims(old: str, new: str, shims: dict[str, str]) -> bool:
    """Whether `new` is `old` with each call `f(x)` of a shim written `x.m()` (`x` a name,
    attributes, subscripts or calls: no operator to bind it otherwise), spaces aside."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, shims)) + r")\(")
    text = old
    changed = False
    while (m := pattern.search(text)) is not None:
        argument, end = _argument(text, m.end())
        if argument is None or not re.fullmatch(r"[\w.]+(?:\([^()]*\)|\[[^\[\]]*\])*", argument):
            return False
        text = f"{text[: m.start()]}{argument}.{shims[m.group(1)]}(){text[end:]}"
        changed = True
    return changed and re.sub(r"\s+", "", text) == re.sub(r"\s+", "", new)


def _argument(text: str, start: int) -> tuple[str | None, int]:
    """The one argument of a call whose `(` ends at `start`, and where its `)` ends."""
    depth = 0
    for i in range(start, len(text)):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                argument = text[start:i].strip()
                return (argument or None), i + 1
            depth -= 1
        elif char == "," and depth == 0:
            return None, i
    return None, len(text)
