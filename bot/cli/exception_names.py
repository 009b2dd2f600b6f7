"""The class an exception's name is bound to in a module of a clone, by Python's rules: the
module's last unconditional top-level binding of the name (`class N`, `N = M`, `from m import
X as N`), an import followed into the module of the same tree it names (`m.py`, else
`m/__init__.py`), and, where the module binds nothing of that name, the builtin. The claims
checker's own reading ("`f` now raises `E` instead of `F`" is false where `E` and `F` are one
class under two names); it shares nothing with the analysis' extractor."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable

# an import followed, or a name bound to a name, at most this many times
_HOPS = 6

Reader = Callable[[str], str | None]  # a path in the tree -> its text at the revision


def class_of(read: Reader, path: str, name: str, hops: int = 0) -> tuple[str, str] | None:
    """(module path, class name) of the class `name` is bound to at the top of the module
    at `path`, or ("builtins", name); None where that is not certain (bound conditionally,
    by a star import or a module `__getattr__`, to something other than a name, in a module
    not in the tree or not parsed)."""
    if hops > _HOPS or "." in name:
        return None
    text = read(path)
    if text is None:
        return None
    try:
        module = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    binding: ast.stmt | None = None
    for statement in module.body:
        if isinstance(statement, ast.ImportFrom) and any(a.name == "*" for a in statement.names):
            return None
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            if statement.name == "__getattr__":
                return None
            if statement.name == name:
                binding = statement
        elif isinstance(statement, ast.ClassDef | ast.Import | ast.ImportFrom | ast.Assign):
            if name in _bound_by(statement):
                binding = statement
        elif any(
            isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
            for n in ast.walk(statement)
        ) or any(
            isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef | ast.alias)
            and name in (getattr(n, "name", None), getattr(n, "asname", None))
            for n in ast.walk(statement)
        ):
            return None  # bound under `if`, `try`, `for`, `with`: depends on the run
    if binding is None:
        value = getattr(builtins, name, None)
        if isinstance(value, type) and issubclass(value, BaseException):
            return ("builtins", name)
        return None
    if isinstance(binding, ast.ClassDef):
        return (path, name)
    if isinstance(binding, ast.Assign):
        if isinstance(binding.value, ast.Name):
            return class_of(read, path, binding.value.id, hops + 1)
        return None
    if isinstance(binding, ast.ImportFrom):
        alias = next(a for a in binding.names if (a.asname or a.name) == name)
        for where in _module_files(path, binding.level, binding.module or ""):
            if read(where) is not None:
                return class_of(read, where, alias.name, hops + 1)
    return None


def _bound_by(statement: ast.stmt) -> set[str]:
    if isinstance(statement, ast.ClassDef):
        return {statement.name}
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return {a.asname or a.name.split(".")[0] for a in statement.names}
    if isinstance(statement, ast.Assign):
        return {
            n.id
            for target in statement.targets
            for n in ast.walk(target)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
    return set()


def _module_files(path: str, level: int, dotted: str) -> list[str]:
    """The files a `from` import in the module at `path` may name: relative to its package
    by `level`, or, absolute, where the import's first part is a folder above `path`."""
    folders = path.split("/")[:-1]
    parts = dotted.split(".") if dotted else []
    if level:
        if level - 1 > len(folders):
            return []
        root = folders[: len(folders) - level + 1]
    elif parts and parts[0] in folders:
        at = max(i for i, folder in enumerate(folders) if folder == parts[0])
        root = folders[:at]
    else:
        return []
    stem = "/".join(root + parts)
    if not parts:
        return [f"{stem}/__init__.py".lstrip("/")]
    return [f"{stem}.py", f"{stem}/__init__.py"]
