"""A Python module's public surface: what a caller can name in it, and how it is called."""

from __future__ import annotations

import ast

from bot.analysis.paths import private_module


def _public(name: str) -> bool:
    """Not `_private`; a dunder (`__init__`, `__all__`) is the language's own and public."""
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _header(node: ast.AST) -> str:
    """How a caller meets a definition: its decorators, parameters and annotations (a
    function), its decorators, bases and keywords (a class); never its body."""
    decorators = " ".join(
        f"@{ast.unparse(d)}" for d in getattr(node, "decorator_list", ()) if isinstance(d, ast.expr)
    )
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
        kind = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
        return f"{decorators} {kind}({ast.unparse(node.args)}){returns}"
    if isinstance(node, ast.ClassDef):
        bases = [ast.unparse(b) for b in node.bases] + [ast.unparse(k) for k in node.keywords]
        return f"{decorators} class({', '.join(bases)})"
    return ""


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a body, those under its `if`, `try` and `with` blocks included
    (`if TYPE_CHECKING:`, `try: import x`): each binds names at the body's own level."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            out += _statements(node.body) + _statements(node.orelse)
        elif isinstance(node, ast.Try | ast.TryStar):
            out += _statements(node.body) + _statements(node.orelse)
            out += _statements(node.finalbody)
            for handler in node.handlers:
                out += _statements(handler.body)
        elif isinstance(node, ast.With | ast.AsyncWith):
            out += _statements(node.body)
        else:
            out.append(node)
    return out


def _base_name(node: ast.expr) -> str:
    """The last name of a base (`abc.ABC`: `ABC`, `Base[T]`: `Base`), '' for anything else."""
    if isinstance(node, ast.Subscript):
        return _base_name(node.value)
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _scope(body: list[ast.stmt], imports: bool) -> dict[str, str]:
    """The public names a body binds, with a public class's members (its own, and those it
    inherits from the classes of the same body: a method moved to a base is still there
    for callers) under `Class.member`."""
    found: dict[str, str] = {}
    classes: dict[str, tuple[list[str], dict[str, str]]] = {}
    shown: list[str] = []
    for node in _statements(body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if isinstance(node, ast.ClassDef):
                classes[node.name] = ([_base_name(b) for b in node.bases], _scope(node.body, False))
            if not _public(node.name):
                continue
            # several `def`s of one name (overloads, a property's setter): all count
            found[node.name] = found.get(node.name, "") + _header(node)
            if isinstance(node, ast.ClassDef):
                shown.append(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = ast.unparse(node.value) if node.value is not None else ""
            annotation = (
                f": {ast.unparse(node.annotation)}" if isinstance(node, ast.AnnAssign) else ""
            )
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name) and _public(leaf.id):
                        found[leaf.id] = f"{annotation} = {value}"
        elif imports and isinstance(node, ast.Import | ast.ImportFrom):
            source = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            for alias in node.names:
                bound = alias.asname or alias.name.split(".", 1)[0]
                if _public(bound):
                    found[bound] = f"import {'.' * getattr(node, 'level', 0)}{source}"

    def members(name: str, seen: frozenset[str]) -> dict[str, str]:
        bases, own = classes[name]
        out: dict[str, str] = {}
        for base in reversed(bases):
            if base in classes and base not in seen:
                out.update(members(base, seen | {base}))
        return out | own

    for name in shown:
        found.update({f"{name}.{m}": h for m, h in members(name, frozenset({name})).items()})
    return found


def public_surface(text: str, *, package: bool) -> dict[str, str] | None:
    """Each public name a module binds at its top level and in its public classes, with how
    a caller meets it (a function's decorators, parameters and annotations; a class's bases;
    an assignment's value); None when the text does not parse. The names a module imports
    count only in a package's `__init__` or a module with `__all__` (where callers import
    from); elsewhere an import is the module's own business."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    exported = any(
        isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign)
        and any(
            isinstance(t, ast.Name) and t.id == "__all__"
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
        for node in _statements(tree.body)
    )
    try:
        return _scope(tree.body, package or exported)
    except RecursionError:
        return None


def surface_kept(files: list[tuple[str, str, str]]) -> tuple[str, ...]:
    """The paths of `files` (path, text at the parent, text at the commit; '' where the
    file is absent) whose public surface is the same at both revisions. The private modules
    (`pkg/_impl.py`) are compared as one: a name moved from one to another stays where
    callers import it from (a public module re-exporting it is among the files, or it
    was not re-exported)."""
    kept: list[str] = []
    private: list[str] = []
    pooled: tuple[dict[str, list[str]], dict[str, list[str]]] = ({}, {})
    for path, before, after in files:
        package = path.rsplit("/", 1)[-1] in ("__init__.py", "__init__.pyi")
        old = public_surface(before, package=package) if before else {}
        new = public_surface(after, package=package) if after else {}
        if old is None or new is None:
            continue
        if private_module(path):
            private.append(path)
            for pool, side in zip(pooled, (old, new), strict=True):
                for name, header in side.items():
                    pool.setdefault(name, []).append(header)
        elif old == new:
            kept.append(path)
    if private and all(
        sorted(pooled[0].get(n, [])) == sorted(pooled[1].get(n, []))
        for n in pooled[0].keys() | pooled[1].keys()
    ):
        kept += private
    return tuple(p for p, _, _ in files if p in kept)
