"""Rows a module-level table of tuples gains: `SQL_REGEX = [(r'…', tokens.Keyword), …]`, a
list or tuple written out whose items are all tuples of two or more, each led by a string
(a pattern, a key). A row is new where the table, bound once at both revisions, held no row
of the same words at the parent; each row as its source writes it (`r'PRIMARY\\s+KEY\\b'`)."""

from __future__ import annotations

import ast
import re

from bot.analysis.facts.modules import module_tree
from bot.analysis.facts.records import RowsAdded

# a row longer than this is a block of code, not a line a reader takes in
_ROW_MAX = 80
# a line as the parser counts them (`\r\n`, `\r` or `\n` ends one; a form feed does not),
# its end kept: `ast.get_source_segment`'s lines
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def rows_added(path: str, before: str, after: str) -> list[RowsAdded]:
    """The tables of tuples of the module `path` bound at both revisions, with the rows the
    commit's adds, in its order."""
    old, new = _tables(before), _tables(after)
    out = []
    for name, rows in new.items():
        was = old.get(name)
        if was is None:
            continue
        seen = {" ".join(r.split()) for r in was}
        gained = tuple(r for r in rows if " ".join(r.split()) not in seen)
        if gained:
            out.append(RowsAdded(name=name, path=path, rows=gained))
    return out


def _tables(text: str) -> dict[str, tuple[str, ...]]:
    try:
        tree = module_tree(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    found: dict[str, tuple[str, ...] | None] = {}
    lines: list[str] = []  # (split once, for the first table of tuples)
    for node in tree.body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                # bound twice: no one table
                rows = _rows(text, node.value, lines)
                found[target.id] = None if target.id in found else rows
    return {name: rows for name, rows in found.items() if rows}


def _rows(text: str, value: ast.expr, lines: list[str]) -> tuple[str, ...] | None:
    if not isinstance(value, ast.List | ast.Tuple) or not value.elts:
        return None
    if not all(
        isinstance(item, ast.Tuple)
        and len(item.elts) >= 2
        and isinstance(item.elts[0], ast.Constant)
        and isinstance(item.elts[0].value, str)
        for item in value.elts
    ):
        return None
    if not lines:
        lines.extend(_LINE.findall(text))
    return tuple(segment(lines, item) for item in value.elts)


def segment(lines: list[str], node: ast.expr) -> str:
    """`ast.get_source_segment` of a parsed node, the source's lines split once for all."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    start, end = node.col_offset, node.end_col_offset
    if first == last:
        return lines[first].encode()[start:end].decode()
    return "".join(
        [
            lines[first].encode()[start:].decode(),
            *lines[first + 1 : last],
            lines[last].encode()[:end].decode(),
        ]
    )


def short(row: str) -> bool:
    """A row said whole on one line."""
    return "\n" not in row and len(row) <= _ROW_MAX
