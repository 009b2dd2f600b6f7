"""Public module settings that no shipped code reads any more: a module-level name the
module's own functions read at the parent (users set it, `tabulate.PRESERVE_WHITESPACE =
True`) and no function of the changed files reads at the commit, proven from whole files."""

from __future__ import annotations

import ast
import re
import symtable
from collections.abc import Iterable

from bot.analysis.facts.modules import binds_all, listed_strings, module_tree
from bot.analysis.facts.pyfile import PARSE_ERRORS
from bot.analysis.facts.records import IgnoredSetting

# what may read a module's names where no statement names them (`globals()["X"]`)
_DYNAMIC = re.compile(r"\bglobals\(\)|\bvars\(\)|\b__dict__\b|\bsys\.modules\b")
# symtable's tables of comprehensions run where they are written, at import at module level
_INLINE = frozenset({"listcomp", "setcomp", "dictcomp", "genexpr"})


def module_settings(tree: ast.Module) -> set[str]:
    """Public names the module binds at its top level (under a top-level `if` or `try` too)
    to a literal a user may set another for (`PRESERVE_WHITESPACE = False`, a dict of
    strings), never by a `def`, a `class` or an import, nor to what is worked out (a type
    alias, `py23_basestring = str`: natsort be8d85e, 06719db)."""
    assigned, other = _bindings(tree)
    literal: set[str] = set()
    for node in _top_statements(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            try:
                ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            literal |= {t.id for t in targets if isinstance(t, ast.Name)}
    return {n for n in (assigned & literal) - other if not n.startswith("_")}


def _top_statements(tree: ast.Module) -> list[ast.stmt]:
    """The module's top-level statements, those under a top-level `if`, `try` or `with`
    among them."""
    out: list[ast.stmt] = []
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, ast.If | ast.Try | ast.With):
            stack += [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", [])]
            stack += [s for h in getattr(node, "handlers", []) for s in h.body]
    return out


def _bindings(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The names the module's top level binds by assignment, and by a `def`, a `class` or an
    import."""
    assigned: set[str] = set()
    other: set[str] = set()
    for node in _top_statements(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            assigned |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            other.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            other |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return assigned, other


def called_reads(text: str, path: str) -> set[str]:
    """The module-level names the module's functions (methods and lambdas too) read when they
    run: a setting changed after import is what they see. PEP 227's scoping, by `symtable`:
    a name a function reads that it and the functions around it do not bind is global."""
    try:
        top = symtable.symtable(text, path, "exec")
    except PARSE_ERRORS:
        return set()
    found: set[str] = set()
    stack: list[tuple[symtable.SymbolTable, bool]] = [(top, False)]
    while stack:
        table, called = stack.pop()
        runs = called or (table.get_type() == "function" and table.get_name() not in _INLINE)
        if runs:
            found |= {
                s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()
            }
        stack += [(child, runs) for child in table.get_children()]
    return found


def _all_of(tree: ast.Module) -> set[str]:
    """The strings of a literal `__all__` the module assigns at its top level."""
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and binds_all(node)
            and (listed := listed_strings(node.value)) is not None
        ):
            return listed
    return set()


def ignored_settings(
    path: str, before: str, after: str, others: Iterable[str], docs: Iterable[str]
) -> list[IgnoredSetting]:
    """The settings of the module at `path` (see `module_settings`) its functions read at
    the parent (`before`) and that nothing reads at the commit (`after`): no function of the
    module, and no word of `others` (the other changed shipped files' texts at the commit).
    None where the module may read names out of sight (`globals()`, a module `__getattr__`)
    or holds the name as a string. Each says whether the module still binds it, and whether
    it was documented: listed in `__all__` at the parent, or a word of `docs` (the texts
    the parent's documents hold)."""
    try:
        old, new = module_tree(before), module_tree(after)
    except PARSE_ERRORS:
        return []
    if _DYNAMIC.search(after) or any(
        isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in new.body
    ):
        return []
    read = module_settings(old) & called_reads(before, path)
    if not read:
        return []
    read -= called_reads(after, path)
    # (read anywhere at the commit, a default `escrules=LATEX_ESCAPE_RULES` too, it is still
    # read: python-tabulate 8c73d87, where a dict changed in place still counts)
    read -= {n.id for n in ast.walk(new) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    kept = set().union(*_bindings(new))
    rest = "\n".join(others)
    listed = _all_of(old)
    written = "\n".join(docs)
    out = []
    for name in sorted(read):
        word = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)|\.{re.escape(name)}(?!\w)")
        if re.search(rf"[\"']{re.escape(name)}[\"']", after) or word.search(rest):
            continue
        documented = name in listed or bool(word.search(written))
        out.append(IgnoredSetting(name, path, removed=name not in kept, documented=documented))
    return out
