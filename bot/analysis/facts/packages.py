"""What a package's `__init__.py` says of its submodules: whether it lists its public names,
and whether it could still answer an import of a submodule the change takes away."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from bot.analysis.facts.modules import binds_all, module_tree


@dataclass(frozen=True)
class PackageInit:
    """A package's `__init__.py` read for a change that deletes or renames one of its
    modules: `listed`, it assigns `__all__` at the parent (the package declares an interface:
    a library's, not an application's insides); `shim`, at the commit it assigns into
    `sys.modules` or defines a module `__getattr__` (an old submodule's path may still be
    answered: nothing is said of it)."""

    path: str
    listed: bool
    shim: bool


def package_init(path: str, before: str | None, after: str | None) -> PackageInit:
    """`path`'s reading from its texts at the parent and at the commit (None: not there). A
    text that does not parse lists nothing and, at the commit, may be a shim."""
    before_tree = _parsed(before)
    after_tree = _parsed(after)
    return PackageInit(
        path=path,
        listed=before_tree is not None and _lists(before_tree),
        shim=after is not None and (after_tree is None or _shims(after_tree)),
    )


def _parsed(text: str | None) -> ast.Module | None:
    if text is None:
        return None
    try:
        return module_tree(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _lists(tree: ast.Module) -> bool:
    return any(binds_all(node) for node in ast.walk(tree))


def _shims(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__" and node in tree.body:
            return True
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "modules"
        ):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            # `sys.modules.update(...)`, `sys.modules.setdefault(...)`
            owner = node.func.value
            if isinstance(owner, ast.Attribute) and owner.attr == "modules":
                return True
    return False
