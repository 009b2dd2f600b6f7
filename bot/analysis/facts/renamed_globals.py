"""Module-level names a commit renamed, proven from the module at both revisions: the old
name bound once and gone, the new bound once and new, to the same value."""

from __future__ import annotations

import ast
from functools import lru_cache

from bot.analysis.facts.modules import module_tree


def renamed_globals(before: str, after: str) -> dict[str, str]:
    """Old name -> new name, for each module-level name the parent binds once (by an
    assignment of one target, a `def` or a `class`) and the commit never binds, where the
    commit binds once a name the parent never bound to the same value or definition, the
    other names so renamed read as their new ones (`ILLEGAL = CTRL - x` after `_ILLEGAL =
    _CTRL - x`, both renamed). A value several new names share pairs only names that differ
    by their leading underscores alone."""
    return dict(_renamed(before, after))


@lru_cache(maxsize=8)
def _renamed(before: str, after: str) -> tuple[tuple[str, str], ...]:
    was, now = _bindings(before), _bindings(after)
    gone = {n: v for n, v in was.items() if v is not None and n not in now}
    fresh = {n: v for n, v in now.items() if v is not None and n not in was}
    if not gone or not fresh:
        return ()
    # each side's values with the other candidates' names blanked, then paired where alike:
    # names renamed together read one another (`_CTRL` in `_ILLEGAL`'s value)
    blank = set(gone) | set(fresh)
    olds: dict[str, list[str]] = {}
    for name, node in gone.items():
        olds.setdefault(_shape(node, blank), []).append(name)
    news: dict[str, list[str]] = {}
    for name, node in fresh.items():
        news.setdefault(_shape(node, blank), []).append(name)
    pairs = []
    for shape, old in olds.items():
        new = news.get(shape, [])
        if len(old) == 1 and len(new) == 1:
            pairs.append((old[0], new[0]))
            continue
        # several of one value: those whose names differ only by their leading underscores
        # (`_TOML_WS` made `TOML_WS`), one for one
        bare = {n.lstrip("_"): n for n in new}
        if len(bare) == len(new):
            pairs += [(o, bare[o.lstrip("_")]) for o in old if o.lstrip("_") in bare]
    return tuple(pairs)


def _bindings(text: str) -> dict[str, ast.AST | None]:
    """Each name the module's top level binds -> what binds it (None: bound more than once,
    or otherwise than by one assignment, `def` or `class`)."""
    try:
        tree = module_tree(text)  # (only read)
    except (SyntaxError, ValueError, RecursionError):
        return {}
    out: dict[str, ast.AST | None] = {}
    for node in tree.body:
        names: list[str] = []
        value: ast.AST | None = None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names, value = [node.name], node
        elif isinstance(node, ast.Assign):
            names = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            single = len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            value = node.value if single else None
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names, value = [node.target.id], node.value
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        for name in names:
            out[name] = value if name not in out else None
    return out


class _Blanked(ast.NodeTransformer):
    def __init__(self, names: set[str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(id="_", ctx=node.ctx) if node.id in self.names else node


def _shape(node: ast.AST, names: set[str]) -> str:
    """The binding's dump, its own name and every name of `names` blanked."""
    tree = _Blanked(names).visit(ast.parse(ast.unparse(node)))
    for top in ast.walk(tree):
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and (
            top.name in names
        ):
            top.name = "_"
    return ast.dump(tree)
